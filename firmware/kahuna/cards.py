"""The card registry: which NFC tag (by UID) is which of the 24 island cards.

Stored on the board as a small JSON object {"04A224B2C35E80": "HUNA-1", ...}, written
whole to a new file and then renamed over the old one, so a power cut leaves either the
old registry or the new one.
"""

import json
import os
from binascii import hexlify

HEX = "0123456789ABCDEF"


def uid_hex(uid):
    """b'\\x04\\xa2' -> '04A2'."""
    return hexlify(bytes(uid)).decode().upper()


def card_names(board):
    """The 24 card names in board order: ALOA-1, ALOA-2, BARI-1, ... (card c belongs to
    island c // 2)."""
    return ["%s-%d" % (island, n) for island in board.islands for n in (1, 2)]


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
            raise RegistryError("%s is not a Kahuna card" % (card,))
        if not isinstance(uid, str):
            uid = uid_hex(uid)
        uid = uid.upper()
        if len(uid) not in (8, 14, 20) or any(ch not in HEX for ch in uid):
            raise RegistryError("%s is not a 4-, 7- or 10-byte tag UID" % (uid,))
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
        tmp = path + ".new"
        opener = storage.open if storage is not None else open
        with opener(tmp, "w") as f:
            f.write(self.to_json())
        if storage is not None:
            storage.rename(tmp, path)
        else:
            os.rename(tmp, path)

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
