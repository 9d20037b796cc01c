"""Baseline players to measure Kami's board player (`games.kami.ai`) against.

Each answers `decide(obs, actions)` like the AI: `obs` is `ai.observe(game, seat)` (public
information and the seat's own hand), `actions` the seat's legal actions
(`ai.seat_actions`). They run on CPython and MicroPython alike; neither claims (K11) nor
takes a play back, and both keep the round when a partner claims.

- `random`: uniform among the actions (the deck's xorshift PRNG, seeded: the same on every
  runtime);
- `greedy`: counters whenever it can (the cheapest counter, K1, K4), lays its cheapest card
  face down (K6) and attacks with its most valuable card (hand before centre, K13).
"""

from games.kami import ai, deck

KINDS = ("ai", "greedy", "random")
SKIP = ("back", "discard")


def _forward(actions):
    return [a for a in actions if a[0] not in SKIP] or list(actions)


def _answer(actions):
    """A claim's steps (K11) without a claim of its own: keep, or withdraw."""
    if ("keep",) in actions:
        return ("keep",)
    return ("withdraw",) if ("withdraw",) in actions else actions[0]


class RandomPlayer:
    def __init__(self, seed):
        self.state = deck.seed_state(seed)

    def decide(self, obs, actions):
        if obs["phase"] == "claim":
            return _answer(actions)
        acts = _forward(actions)
        self.state = deck.step(self.state)
        return acts[self.state % len(acts)]


class GreedyPlayer:
    def decide(self, obs, actions):
        if obs["phase"] == "claim":
            return _answer(actions)
        best = None
        best_v = 0
        for a in _forward(actions):
            v = self.value(obs, a)
            if best is None or v > best_v:
                best, best_v = a, v
        return best

    @staticmethod
    def value(obs, a):
        kind = a[0]
        if kind == "pass":
            return 0
        pts = deck.points(a[1])
        own = 0 if a[1] in obs["hand"] else -0.5  # a centre card last (K13)
        if kind == "attack":
            return pts + own
        return 10 - pts + own  # a counter over a pass; the cheapest card given up


class AiPlayer:
    def decide(self, obs, actions):
        return ai.decide(obs, actions)


def make(kind, seed=0):
    if kind == "ai":
        return AiPlayer()
    if kind == "greedy":
        return GreedyPlayer()
    if kind == "random":
        return RandomPlayer(seed)
    raise ValueError("unknown player %r (%s)" % (kind, ", ".join(KINDS)))
