"""Random legal Kami games for tests and `scengen`: every deal (`table`, `given`, `seed`),
2 to 4 players, every mode.

Its own small PRNG (xorshift32), so a seed gives the same game on every runtime. The
player picks among the rules' legal actions (games/kami/rules.py `legal_actions`), never a
take-back (`back`), and opens a 5-Soldier claim (K11) now and then; a given deal is
shuffled with this PRNG (the rules' own deal would be the same in every game).
"""

from games.kami import deck, game
from games.kami.dealing import split

SEED_MAX = 2 ** 31 - 1
DEALS = ("table", "given", "seed")
MODES = ("soldat", "seigneur", "kami")


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


def random_settings(rng, deal=None, players=None):
    """Settings in their JSON form: 2 to 4 players, any mode, a short target (the game
    stays a few rounds long: 3 to 10 points, 5 at most where it must be hit exactly), any
    first seat, any deal (or the ones given)."""
    players = players or 2 + rng.below(3)
    mode = rng.choice(MODES)
    target = 3 + rng.below(3 if mode != "soldat" else 8)
    out = {"players": players, "mode": mode, "first": "p%d" % (1 + rng.below(players)),
           "target": target, "deal": deal or rng.choice(DEALS)}
    if out["deal"] == "seed":
        out["seed"] = rng.below(SEED_MAX + 1)
    return out


def new_game(settings):
    return game.new_state(None, settings)


def a_deal(g, rng):
    """A stated deal for `g` (phase deal), shuffled with this PRNG."""
    cards, _ = deck.shuffled(rng.next() or 1)
    hands, aside, centre = split(cards, g.players)
    return ("deal", hands, aside, centre)


def choices(g, rng):
    """The actions a random player takes now: the legal ones without a take-back; a
    claim (`discard`) only one time in four it is offered."""
    acts = [a for a in g.legal_actions() if a[0] != "back"]
    if ("discard",) in acts and rng.below(4):
        acts.remove(("discard",))
    return acts


def play(g, rng, limit=20000):
    """Play `g` to its end with random legal actions; the actions, in order."""
    actions = []
    while not g.is_over():
        if len(actions) >= limit:
            raise RuntimeError("a random game did not end in %d actions" % limit)
        if g.phase == "deal":
            act = a_deal(g, rng)
        else:
            act = rng.choice(choices(g, rng))
        g.apply(act)
        actions.append(act)
    return actions
