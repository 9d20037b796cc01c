"""Random legal Halunken & Spelunken games (seeded decks and table deals) for tests and
`scengen`.

Its own small PRNG (xorshift32), so a seed gives the same game on every runtime. The
player picks among the rules' legal actions, in the order the board takes them (H32: the
secret choices seat by seat from p1, W's Black-Jack card right after W's own), never an
undo, so every game reaches its end after round 8. At a table (H33) that makes every take
a random card not yet seen and every turned Black-Jack card a random unused one.
"""

from games.halunken import report, rules
from games.halunken.settings import check_settings

SEED_MAX = 2 ** 31 - 1


class Rng:
    def __init__(self, seed):
        self.s = ((seed * 2654435761) + 0x9E3779B9) & 0xFFFFFFFF or 1

    def next(self):
        x = self.s
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.s = x
        return x

    def below(self, n):
        return self.next() % n

    def choice(self, seq):
        return seq[self.below(len(seq))]


def random_settings(rng):
    """Settings in their JSON form: 2 to 4 players, every mode their count allows (H17),
    any first seat, a seeded deal or a table deal."""
    players = 2 + rng.below(3)
    mode = "tactical" if players == 2 else rng.choice(("beginner", "standard"))
    out = {"players": players, "mode": mode, "first": "p%d" % (1 + rng.below(players)),
           "deal": "seed", "seed": rng.below(SEED_MAX + 1)}
    if (out["seed"] >> 8) & 1:  # a bit of the draw (the next draw's low bits follow it)
        out["deal"] = "table"
        del out["seed"]
    return out


def new_game(settings):
    return rules.Game(check_settings(settings))


def choices(g):
    """The actions the board would take now: the legal ones without undo, and in step
    `choose` only the expected figure's."""
    acts = [a for a in g.legal_actions() if a[0] != "undo"]
    if g.step == "choose":
        fig = report.expected(g)[1]
        acts = [a for a in acts if a[1] == fig]
    return acts


def play(g, rng, limit=2000):
    """Play `g` to its end with random legal actions; the actions, in order."""
    actions = []
    while not g.is_over():
        if len(actions) >= limit:
            raise RuntimeError("a random game did not end in %d actions" % limit)
        act = rng.choice(choices(g))
        g.apply(act)
        actions.append(act)
    return actions
