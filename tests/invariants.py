"""Invariants checked after every action of random games, on CPython and MicroPython."""

from kahuna import rules


class Watcher:
    """Checks a game after each action: the rules' own invariants (R8 control equals
    majority, bridges on board + supply = 25, all 24 cards placed, hands never above 5),
    plus that scores only change at a scoring."""

    def __init__(self, game):
        self.game = game
        self.actions = 0
        self._prev = self._score_state()

    def _score_state(self):
        g = self.game
        return (tuple(g.scores), len(g.round_scores))

    def __call__(self, game, action):
        self.actions += 1
        problems = game.problems()
        if len(game.place) != 24 or sum(1 for c in game.place if c in
                                         (rules.WHITE, rules.BLACK, rules.DISCARD,
                                          rules.DRAWABLE)) != 24:
            problems.append("not all 24 cards are accounted for")
        for p in (rules.WHITE, rules.BLACK):
            if game._hand_size(p) > rules.HAND_LIMIT:
                problems.append("a hand above 5")
        scores, scorings = self._score_state()
        if scores != self._prev[0] and scorings == self._prev[1]:
            problems.append("scores changed without a scoring")
        self._prev = (scores, scorings)
        if problems:
            raise AssertionError("after %r: %s" % (action, "; ".join(problems)))


def probe(game, rng, names):
    """Try one random, probably illegal, action: if refused, nothing may have changed;
    if accepted, it must have been listed as legal. The game is put back either way."""
    kinds = ("deal", "handicap", "place", "remove", "refill", "skip_refill", "discard",
             "end_play", "resume_play", "draw", "decline", "undo")
    kind = rng.choice(kinds)
    cards, conns = names
    args = {"deal": 1, "handicap": 0, "place": 1, "remove": 2, "refill": 0, "discard": 1,
            "draw": 1}
    act = [kind] + [rng.choice(cards) for _ in range(args.get(kind, 0))]
    if kind in ("handicap", "place", "remove", "refill"):
        act.append(rng.choice(conns))
    act = tuple(act)
    before = game.snapshot()
    legal = game.legal_actions()
    try:
        game.apply(act)
        refused = False
    except rules.Rejected:
        refused = True
    if refused:
        if game.snapshot() != before:
            raise AssertionError("refused %r changed the state" % (act,))
        if _listed(act, legal):
            raise AssertionError("%r is listed as legal but was refused" % (act,))
        return False
    if not _listed(act, legal):
        raise AssertionError("%r was accepted but is not listed as legal" % (act,))
    game.restore(before)
    return True


def _listed(act, legal):
    if act in legal:
        return True
    # legal_actions lists each pair of a removal once; the other order is the same move.
    return act[0] == "remove" and ("remove", act[2], act[1], act[3]) in legal
