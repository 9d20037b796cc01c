"""The card registry: which NFC tag (by UID) is which of the 24 island cards.

Stored on the board as a small JSON object {"04A224B2C35E80": "HUNA-1", ...}, written
whole to a new file and then renamed over the old one, so a power cut leaves either the
old registry or the new one.
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
    def __init__(self, card_names, entries=None):
        self.card_names = card_names
        self._known = set(card_names)
        self.by_uid = {}
        for uid, card in (entries or {}).items():
            self.enroll(card, uid)

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

    def enroll(self, card, uid):
        """Register `uid` as `card`, replacing the card's previous tag."""
        if card not in self._known:
            raise RegistryError("%s is not a card of this game" % (card,))
        if not isinstance(uid, str):
            uid = uid_hex(uid)
        uid = uid.upper()
        try:
            parse_uid(uid)
        except ValueError as e:
            raise RegistryError(str(e)) from None
        other = self.by_uid.get(uid)
        if other is not None and other != card:
            raise RegistryError("tag %s is already enrolled as %s" % (uid, other))
        old = self.uid_of(card)
        if old is not None:
            del self.by_uid[old]
        self.by_uid[uid] = card

    def missing(self):
        have = set(self.by_uid.values())
        return [c for c in self.card_names if c not in have]

    def to_json(self):
        return json.dumps(self.by_uid)

    def save(self, path, storage=None):
        """Write-new-then-rename: a power cut leaves the old registry or the new one.
        `storage` has open and rename (the board's file system by default)."""
        replace(storage if storage is not None else Storage(), path, self.to_json())

    @classmethod
    def load(cls, card_names, path):
        try:
            with open(path) as f:
                data = json.load(f)
        except OSError:
            return cls(card_names)
        except ValueError as e:
            raise RegistryError("%s: not a card registry (bad JSON)" % (path,)) from e
        if not isinstance(data, dict):
            raise RegistryError("%s: not a card registry" % (path,))
        return cls(card_names, data)
