"""Baseline players to measure Halunken's board player (`games.halunken.ai`) against.

Both answer `decide(obs, actions)` like the AI: `obs` is `ai.observe(game, seat)` (public
information and the seat's own choice), `actions` the seat's legal actions
(`ai.seat_actions`). They run on CPython and MicroPython alike.

- `random`: uniform among the actions (its own seeded PRNG, the same on every runtime);
- `greedy`: the movement card whose landing tavern shows the most valuable top card
  (cancellation, thefts and the order of moves ignored), RUM's number likewise, the most
  valuable card in a theft or W's robbery, the least valuable given up, never an offer,
  the first space offered when placing.
"""

from games.halunken import ai, deck
from games.halunken.rules import BJ
from host_tools.games.halunken.randgame import Rng

KINDS = ("ai", "greedy", "random")


class RandomPlayer:
    def __init__(self, seed):
        self.rng = Rng(seed)

    def decide(self, obs, actions):
        return self.rng.choice(actions)


class GreedyPlayer:
    def decide(self, obs, actions):
        best = None
        best_v = 0
        for a in actions:
            v = self.value(obs, a)
            if best is None or v > best_v:
                best, best_v = a, v
        return best

    def value(self, obs, a):
        kind = a[0]
        values = obs["values"]
        if kind == "choose":
            start = obs["bj"] if a[1] == BJ else obs["pos"][obs["seat"]]
            steps = [a[2] + 1] if a[2] != deck.RUM else list(range(1, 8))
            return max(self._top(obs, start + k) for k in steps) - (0.5 if a[2] == deck.RUM
                                                                   else 0)
        if kind == "rum":
            return self._top(obs, obs["pos"][obs["seat"]] + a[1])
        if kind in ("steal", "rob"):
            if a[1] < 0:
                return 0
            robbed = kind == "rob" and obs["robs"][0][0] == obs["seat"]
            return -values[a[1]] if robbed else values[a[1]]
        if kind == "place" or kind == "place_bj":
            return -a[1]
        return 1 if kind == "pass" else 0

    @staticmethod
    def _top(obs, space):
        top = obs["top"][space % deck.SPACES]
        return obs["values"][top] if top >= 0 else 0


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
