"""The card registry: which NFC tag (by UID) is which of the game's cards, and for the
cards that carry one (a game's `card_value_range`: Halunken's crew cards, H2) the value
recorded for the tag when it was enrolled.

Stored on the board as a small JSON object, written whole to a new file and then renamed
over the old one, so a power cut leaves either the old registry or the new one. An entry
is the card's name, or [name, value] for a tag enrolled with a value:

    {"04A224B2C35E80": "HUNA-1", "04A224B2C35E81": ["RED-3", 5]}

A registry written before values existed holds names only and loads as it always did: its
cards have no recorded value (the game's default stands). A registry without values is
written exactly as before. The values' own code (checks, the stored form) is
core.cardvalues, imported only where a value is met: a game of names only does not load it.
"""

import json
from binascii import hexlify, unhexlify

from core.storage import Storage, replace

HEX = "0123456789ABCDEF"
UID_DIGITS = (8, 14, 20)  # ISO 14443-A UIDs: 4, 7 or 10 bytes


def uid_hex(uid):
    """b'\\x04\\xa2' -> '04A2'."""
    return hexlify(bytes(uid)).decode().upper()


def parse_uid(text):
    """A tag UID written in hex ('04a224b2c35e80') -> its bytes; ValueError unless it is
    a 4-, 7- or 10-byte UID. The one reading of a UID, wherever one is typed."""
    if not isinstance(text, str):
        raise ValueError("a tag UID is hex text, got %r" % (text,))
    up = text.upper()
    if len(up) not in UID_DIGITS or any(ch not in HEX for ch in up):
        raise ValueError("%s is not a 4-, 7- or 10-byte tag UID" % (text,))
    return unhexlify(up)


class RegistryError(ValueError):
    pass


class Registry:
    """`value_range(card)` (optional, the game's `card_value_range`): (low, high) for a
    card whose tag records a value at enrolment, else None."""

    problem = None  # why the stored registry could not be read (main.py's boot line)

    def __init__(self, card_names, entries=None, value_range=None):
        self.card_names = card_names
        self.value_range = value_range
        self._known = set(card_names)
        self.by_uid = {}
        self.values = {}  # card name -> the value recorded for its tag
        for uid, entry in (entries or {}).items():
            if isinstance(entry, list):  # a tag enrolled with a value
                from core.cardvalues import split_entry
                card, value = split_entry(uid, entry)
                self.enroll(card, uid, value)
            else:
                self.enroll(entry, uid)

    def card_for(self, uid):
        """The card name of a tag UID (bytes or hex string), or None if not registered."""
        if not isinstance(uid, str):
            uid = uid_hex(uid)
        return self.by_uid.get(uid.upper())

    def uid_of(self, card):
        for uid, name in self.by_uid.items():
            if name == card:
                return uid
        return None

    def enroll(self, card, uid, value=None):
        """Register `uid` as `card`, replacing the card's previous tag (and its value)."""
        if not isinstance(card, str) or card not in self._known:
            raise RegistryError("%s is not a card of this game" % (card,))
        if not isinstance(uid, str):
            uid = uid_hex(uid)
        uid = uid.upper()
        try:
            parse_uid(uid)
        except ValueError as e:
            raise RegistryError(str(e)) from None
        if value is not None or self.value_range is not None:
            from core.cardvalues import check_value
            value = check_value(card, value, self.value_range)
        other = self.by_uid.get(uid)
        if other is not None and other != card:
            raise RegistryError("tag %s is already enrolled as %s" % (uid, other))
        old = self.uid_of(card)
        if old is not None:
            del self.by_uid[old]
        self.by_uid[uid] = card
        if value is None:
            self.values.pop(card, None)
        else:
            self.values[card] = value

    def missing(self):
        have = set(self.by_uid.values())
        return [c for c in self.card_names if c not in have]

    def to_json(self):
        """The stored form: {uid: card}, [card, value] for a tag with a value."""
        if not self.values:
            return json.dumps(self.by_uid)
        from core.cardvalues import entries
        return json.dumps(entries(self))

    def save(self, path, storage=None):
        """Write-new-then-rename: a power cut leaves the old registry or the new one.
        `storage` has open and rename (the board's file system by default)."""
        replace(storage if storage is not None else Storage(), path, self.to_json())

    @classmethod
    def load(cls, card_names, path, value_range=None, storage=None):
        """The registry stored at `path` (empty when there is none); `storage` has open
        (the board's file system by default)."""
        try:
            with (storage.open if storage is not None else open)(path) as f:
                text = f.read()  # a stream of any kind (MicroPython's json.load wants a file)
            data = json.loads(text)
        except OSError:
            return cls(card_names, value_range=value_range)
        except ValueError as e:
            raise RegistryError("%s: not a card registry (bad JSON)" % (path,)) from e
        if not isinstance(data, dict):
            raise RegistryError("%s: not a card registry" % (path,))
        return cls(card_names, data, value_range)
