"""Seeded random Halunken games through legal_actions/apply, with invariants checked after
every action; runs on CPython and under MicroPython (tests/mp/halunken_games.py)."""

from games.halunken import deck, game


class Rng:
    """The same choices on both runtimes (xorshift32, as in deck.py)."""

    def __init__(self, seed):
        self.r = deck.Rng(seed)

    def below(self, n):
        return self.r.below(n)


def settings_for(seed):
    """Every mode and player count, a seeded deal or (every other triple of seeds) a
    table deal, whose takes are random legal cards (H33)."""
    players = 2 + seed % 3
    mode = "tactical" if players == 2 else ("beginner" if seed % 4 == 1 else "standard")
    out = {"players": players, "mode": mode, "first": "p%d" % (1 + seed % players)}
    if (seed // 3) % 2:
        out["deal"] = "table"
    else:
        out["seed"] = seed
    return out


def problems(g):
    out = []
    held = [x for crew in g.crews for x in crew] + list(g.port)
    held += [x for pile in g.piles for x in pile if x >= 0]
    unseen = sum(1 for pile in g.piles for x in pile if x < 0)
    if g.deal == "table":  # H33: the known cards once each, the piles by their counts
        if len(set(held)) != len(held) or len(held) + unseen != deck.CREW or any(
                not 0 <= x < deck.CREW for x in held):
            out.append("crew cards not conserved")
    elif unseen or sorted(held) != list(range(deck.CREW)):  # every crew card exactly once
        out.append("crew cards not conserved")
    places = [p for p in g.pos if p >= 0] + ([g.bj] if g.bj >= 0 else [])
    at_rest = g.pending is None and g.taking is None and not g.queue
    if at_rest and len(set(places)) != len(places):
        out.append("two figures on one space at rest")
    for s in range(g.players):
        if len(set(g.played[s])) != len(g.played[s]):
            out.append("a movement card played twice")
        if g.score(s) < 0:
            out.append("negative score")
    if g.phase not in ("setup", "play", "over") or not 0 <= g.round <= 8:
        out.append("bad phase or round")
    if not g.is_over() and (not g.legal_actions() or not g.to_act()):
        out.append("stuck: nothing to do")
    return out


def play(seed, check_refusals=True):
    """Play one game; returns (final report without hidden, actions taken)."""
    g = game.new_state(None, settings_for(seed))
    rng = Rng(seed)
    n = 0
    while not g.is_over():
        acts = g.legal_actions()
        if check_refusals and rng.below(5) == 0:
            refuse(g, acts, rng)
        g.apply(acts[rng.below(len(acts))])
        n += 1
        bad = problems(g)
        if bad:
            raise AssertionError("seed %d action %d: %s" % (seed, n, bad))
    rep = game.report(g)
    assert sum(len(p) for p in g.played) == 8 * g.players
    assert rep["winner"]
    return rep, n


def refuse(g, legal, rng):
    """A random action the rules do not list must be refused and change nothing."""
    names = ("place", "place_bj", "offer", "pass", "choose", "reveal", "rum", "steal", "rob",
             "take", "bj_card")
    name = names[rng.below(len(names))]
    if name in ("pass", "reveal"):
        act = (name,)
    elif name == "choose":
        act = (name, rng.below(5), rng.below(8))
    else:
        act = (name, rng.below(44) - 1)
    if act in legal:
        return
    before = g.snapshot()
    try:
        g.apply(act)
    except Exception as e:  # noqa: BLE001 - must be a Rejected, checked below
        if type(e).__name__ != "Rejected":
            raise
    else:
        raise AssertionError("accepted an action not listed: %r" % (act,))
    if g.snapshot() != before:
        raise AssertionError("a refused action changed the state: %r" % (act,))
