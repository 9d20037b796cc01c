"""Values recorded with the tags (core.cards): the part of the card registry that only a
game whose cards carry values needs (its `card_value_range`: Halunken's crew cards, H2).
Imported when a value is met (a stored [card, value] entry, an enrolment of such a game),
so that a game of names only (Kahuna) does not carry this code in its heap.

`value_range(card)` is (low, high) for a card whose tag records a value, else None.
"""

from core.cards import RegistryError


def check_value(card, value, value_range):
    """`value` as recorded for a tag of `card`: None where the card carries none, else a
    whole number within `value_range(card)`, or None for no recorded value (a stored
    entry from before values: it loads and means what it meant; a new enrolment asks for
    the value itself, `new_value`); RegistryError names the fault."""
    span = value_range(card) if value_range is not None else None
    if span is None:
        if value is not None:
            raise RegistryError("%s carries no value, got %r" % (card, value))
        return None
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not (
            span[0] <= value <= span[1]):
        raise RegistryError("the value of %s must be a whole number %d to %d, got %r"
                            % (card, span[0], span[1], value))
    return value


def new_value(registry, card, value):
    """The value a new enrolment of `card` (a known card) records, checked: a card that
    carries a value must be given one (H2); RegistryError names the fault."""
    span = registry.value_range(card) if registry.value_range is not None else None
    if value is None and span is not None:
        raise RegistryError("%s is enrolled with its value: give \"value\", a whole "
                            "number %d to %d" % (card, span[0], span[1]))
    return check_value(card, value, registry.value_range)


def split_entry(uid, entry):
    """A stored entry [card, value] -> (card, value); RegistryError when it is not one."""
    if len(entry) != 2 or not isinstance(entry[0], str):
        raise RegistryError("tag %s: an entry is a card or [card, value], got %r"
                            % (uid, entry))
    if entry[1] is None:
        raise RegistryError("tag %s: %s has no value" % (uid, entry[0]))
    return entry[0], entry[1]


def entries(registry):
    """The stored form of a registry with values: [card, value] for a tag with one."""
    out = {}
    for uid, card in registry.by_uid.items():
        out[uid] = [card, registry.values[card]] if card in registry.values else card
    return out
