"""Kami's deals: how many cards each seat gets, a shuffled deck dealt out, the shape of a
stated deal checked (section 2 of docs/kami.md), and a stated deal as text (the
simulator's `deal` command, the link's `pick` "deal ..."; `parse`, `text`)."""

from games.kami import deck

STACKS = 8  # 2 players: the centre stacks


def dealt(players):
    return 10 if players == 3 else 8  # 3 players hold 10, the others 8


def split(cards, n):
    """A shuffled deck dealt: (hands, aside, centre stacks [up, down])."""
    if n == 2:
        centre = [[cards[8 + i], cards[i]] for i in range(STACKS)]
        return [cards[16:24], cards[24:32]], None, centre
    k = dealt(n)
    hands = [cards[k * s:k * s + k] for s in range(n)]
    return hands, (cards[30:32] if n == 3 else None), None


def check_deal(n, action):
    """A stated deal's shape (ValueError): every seat's count, every card once, all 32
    placed, aside only (and optionally) in 3 players, centre only and always in 2."""
    if len(action) != 4:
        raise ValueError("a deal is ('deal', hands, aside, centre)")
    hands, aside, centre = action[1], action[2], action[3]
    if not isinstance(hands, (list, tuple)) or len(hands) != n:
        raise ValueError("a deal gives a hand to each of the %d seats" % n)
    seen = [0] * deck.COUNT
    placed = []
    for s in range(n):
        if len(hands[s]) != dealt(n):
            raise ValueError("p%d must get %d cards, got %d" % (s + 1, dealt(n), len(hands[s])))
        placed.extend(hands[s])
    if aside is not None and n != 3:
        raise ValueError("cards set aside only in 3 players")
    if (centre is None) != (n != 2):
        raise ValueError("the centre is dealt in 2 players, and only then")
    if centre is not None:
        if len(centre) != STACKS:
            raise ValueError("the centre has 8 stacks")
        for st in centre:
            if len(st) != 2:
                raise ValueError("a centre stack is [up, down]")
            placed.extend(st)
    if aside is not None:
        if len(aside) != 2:
            raise ValueError("two cards are set aside")
        placed.extend(aside)
    for c in placed:
        if not deck.is_card(c):
            raise ValueError("%r is not a card" % (c,))
        if seen[c]:
            raise ValueError("%s is dealt twice" % deck.NAMES[c])
        seen[c] = 1
    if n == 3 and aside is None:
        aside = [c for c in range(deck.COUNT) if not seen[c]]
    elif len(placed) != deck.COUNT:
        raise ValueError("all 32 cards must be placed")
    hands = [list(h) for h in hands]
    return hands, (list(aside) if aside is not None else None), \
        ([list(st) for st in centre] if centre is not None else None)


def parse(words, n):
    """A stated deal in its text form, `p1:CARD,CARD,... p2:... [aside:A,B] [centre:UP/DOWN,
    ...]` (fields in any order, separated by spaces), for `n` players: the action
    ("deal", hands, aside, centre) in card indices, checked (ValueError names the fault)."""
    keys = ["p%d" % (s + 1) for s in range(n)] + ["aside", "centre"]
    fields = {}
    for word in words.split():
        key, colon, value = word.partition(":")
        if not colon or key not in keys:
            raise ValueError("a deal's fields are %s:CARD,... (got %r)" % ("/".join(keys), word))
        if key in fields:
            raise ValueError("%s given twice" % key)
        if key == "centre":
            fields[key] = [_stack(st) for st in value.split(",")]
        else:
            fields[key] = [_card(c) for c in value.split(",")]
    for s in range(n):
        if keys[s] not in fields:
            raise ValueError("no hand for %s" % keys[s])
    hands = [fields[keys[s]] for s in range(n)]
    aside = fields.get("aside")
    centre = fields.get("centre")
    action = ("deal", hands, aside, centre)
    check_deal(n, action)
    return action


def _stack(text):
    up, slash, down = text.partition("/")
    if not slash:
        raise ValueError("a centre stack is UP/DOWN, got %r" % text)
    return [_card(up), _card(down)]


def _card(name):
    c = deck.index(name)
    if c < 0:
        raise ValueError("unknown card %r" % name)
    return c


def text(hands, aside, centre):
    """A deal (card indices) in the text form `parse` reads."""
    out = ["p%d:%s" % (s + 1, ",".join(deck.NAMES[c] for c in hands[s]))
           for s in range(len(hands))]
    if aside is not None:
        out.append("aside:" + ",".join(deck.NAMES[c] for c in aside))
    if centre is not None:
        out.append("centre:" + ",".join("%s/%s" % (deck.NAMES[u], deck.NAMES[d])
                                        for u, d in centre))
    return " ".join(out)
