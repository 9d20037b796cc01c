"""The dealer's shuffle (docs/remote.md, "Hidden information"): every card the dealer
shuffles (Kahuna's deck, Halunken's piles and Black-Jack's deck, Kami's deals) comes from
one game's 128-bit secret, drawn from the system's random source and never published.

`Shuffle(secret)` is a random.Random whose bits are HMAC-SHA256(secret, counter), the
counter counting 32-byte blocks from 0: the same secret gives the same stream on any
machine, so a dealer that restarts from its saved game (the secret is in the game's file
in --state-dir) deals the same cards on. A table that has seen some cards would have to
search 2**128 secrets to find the rest (a 31-bit seed could be searched offline).

Tests need reproducible deals: `test_secret(n)` is a fixed secret from a test's deal
number (no secret at all: tests and demonstrations only).
"""

import hashlib
import hmac
import random
import secrets

SECRET_BYTES = 16  # 128 bits


def new_secret():
    """A new game's secret from the system's random source: 32 hex digits."""
    return secrets.token_hex(SECRET_BYTES)


def test_secret(n):
    """The fixed secret of a test's deal number `n` (an int): reproducible, not secret."""
    return hashlib.sha256(b"kb-test-deal %d" % n).hexdigest()[:2 * SECRET_BYTES]


test_secret.__test__ = False  # not a test of pytest's


def check_secret(secret):
    """`secret` if it is 32 hex digits (128 bits), else ValueError."""
    if not isinstance(secret, str) or len(secret) != 2 * SECRET_BYTES:
        raise ValueError("the game's secret must be %d hex digits" % (2 * SECRET_BYTES))
    try:
        bytes.fromhex(secret)
    except ValueError:
        raise ValueError("the game's secret must be %d hex digits"
                         % (2 * SECRET_BYTES)) from None
    return secret


class Shuffle(random.Random):
    """random.Random's shuffle, choice, randrange ... over HMAC-SHA256(secret, counter)."""

    def __init__(self, secret):
        self._key = bytes.fromhex(check_secret(secret))
        self._counter = 0
        self._pool = b""
        super().__init__()

    def seed(self, a=None, version=2):
        """The stream is the secret's alone: random.Random's seeding does nothing."""

    def _bytes(self, n):
        while len(self._pool) < n:
            block = hmac.new(self._key, self._counter.to_bytes(8, "big"),
                             hashlib.sha256).digest()
            self._counter += 1
            self._pool += block
        out, self._pool = self._pool[:n], self._pool[n:]
        return out

    def getrandbits(self, k):
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        n = (k + 7) // 8
        return int.from_bytes(self._bytes(n), "big") >> (8 * n - k)

    def random(self):
        return self.getrandbits(53) / 9007199254740992.0  # 2**53

    def getstate(self):
        raise NotImplementedError("a Shuffle is its secret's stream: keep the secret")

    def setstate(self, state):
        raise NotImplementedError("a Shuffle is its secret's stream: keep the secret")
