"""The platform's conformance playout: one game driven only through its interface
(docs/platform.md), the same on CPython and inside the MicroPython unix port.

`playout` plays random legal actions and, before each one, probes the state with actions
seen earlier in the game that are not legal now: each must be refused with a code and
leave the state as it was. It returns the actions applied and a digest of the state
after each, so that two runtimes can be compared line by line.
"""

import hashlib
import json
from binascii import hexlify

from core import gameload
from core import outcome as oc


class Rng:
    """xorshift32: tiny, deterministic, the same on every runtime."""

    def __init__(self, seed):
        self.s = ((seed * 2654435761) + 0x9E3779B9) & 0xFFFFFFFF or 1

    def below(self, n):
        x = self.s
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.s = x
        return x % n

    def choice(self, seq):
        return seq[self.below(len(seq))]

    def chance(self, percent):
        return self.below(100) < percent


def board_for(name):
    """The board definition of game `name`, with its layout (board_def/<name>.json)."""
    from core import board as boardmod
    return boardmod.load("board_def/%s.json" % name, keep_raw=False)


def canonical(obj):
    """JSON with every object's keys sorted (MicroPython's json has no sort_keys, and its
    dicts keep no order): the same text for the same value on both runtimes."""
    if isinstance(obj, dict):
        return "{" + ", ".join("%s: %s" % (json.dumps(k), canonical(obj[k]))
                               for k in sorted(obj)) + "}"
    if isinstance(obj, (list, tuple)):
        return "[" + ", ".join(canonical(v) for v in obj) + "]"
    return json.dumps(obj)


def _feed(h, obj):
    """canonical(obj) into the hash `h`, piece by piece: the same bytes, never the whole
    text at once (a game's report is a 2 KB string, and after a long playout the unix
    port's heap may have no 2 KB hole left: its allocator spreads what lives on)."""
    if isinstance(obj, dict):
        h.update(b"{")
        first = True
        for k in sorted(obj):
            if not first:
                h.update(b", ")
            first = False
            h.update(json.dumps(k).encode())
            h.update(b": ")
            _feed(h, obj[k])
        h.update(b"}")
    elif isinstance(obj, (list, tuple)):
        h.update(b"[")
        for i in range(len(obj)):
            if i:
                h.update(b", ")
            _feed(h, obj[i])
        h.update(b"]")
    else:
        h.update(json.dumps(obj).encode())


def digest(game_def, state):
    """The SHA-256 of the game's report as canonical JSON (`canonical`): what two runtimes
    compare."""
    h = hashlib.sha256()
    _feed(h, game_def.report(state))
    return hexlify(h.digest()).decode()


class Failure(AssertionError):
    pass


def playout(name, settings, seed, choose=None, max_actions=3000, probes=2, every=True):
    """Play game `name` with `settings` from a new state: `choose(state, legal, rng)`
    picks an action (default: uniformly among the legal ones). Returns (state, actions,
    digests): the digest of the state after each action, or (`every=False`, for a small
    heap) of the last state only."""
    game_def = gameload.load(name)
    board = board_for(name)
    state = game_def.new_state(board, settings)
    rng = Rng(seed)
    seen = []
    seen_set = set()
    actions = []
    digests = [digest(game_def, state)]
    while not state.is_over() and len(actions) < max_actions:
        legal = state.legal_actions()
        if not legal:
            raise Failure("no legal action in phase %r and the game is not over"
                          % (state.phase,))
        if not state.to_act():
            raise Failure("nobody to act, and the game is not over")
        for _ in range(probes):
            if not seen:
                break
            probe = seen[rng.below(len(seen))]
            if probe in legal:
                continue
            before = state.snapshot()
            try:
                state.apply(probe)
            except oc.Rejected as e:
                if not isinstance(e.code, str) or not e.code:
                    raise Failure("refused %r without a code" % (probe,)) from None
            else:
                raise Failure("%r was applied, but was not among the legal actions"
                              % (probe,))
            if state.snapshot() != before:
                raise Failure("refusing %r changed the state" % (probe,))
        act = choose(state, legal, rng) if choose else legal[rng.below(len(legal))]
        state.apply(act)
        actions.append(act)
        if act not in seen_set:
            seen_set.add(act)
            seen.append(act)
        if every:
            digests.append(digest(game_def, state))
    if not every:
        digests = [digest(game_def, state)]
    return state, actions, digests
