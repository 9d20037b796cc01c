"""Invariants checked after every action of random games, on CPython and MicroPython
(the soak checks them too: soakplay.py)."""

from games.kahuna import rules


def problems(game):
    """Invariant violations of a rules game state (empty when it is sound)."""
    out = []
    board = game.board
    for i in range(len(board.islands)):
        if game.control[i] != game.majority(i):  # R8
            out.append("R8: control of %s is not its majority" % board.islands[i])
    for p in (rules.WHITE, rules.BLACK):
        if game.bridges_on_board(p) + game.supply[p] != rules.SUPPLY:
            out.append("%s: bridges on board + supply != %d" % (rules.PLAYERS[p], rules.SUPPLY))
        if game.place.count(p) > rules.HAND_LIMIT:  # R3
            out.append("%s holds more than %d cards" % (rules.PLAYERS[p], rules.HAND_LIMIT))
        if game.supply[p] < 0:
            out.append("%s: negative supply" % rules.PLAYERS[p])
    if len(game.place) != 2 * len(board.islands):
        out.append("cards are missing")
    for where in game.place:
        if where not in (rules.WHITE, rules.BLACK, rules.DISCARD, rules.DRAWABLE):
            out.append("a card is nowhere")
    given = [0, 0]
    for w, b in game.round_scores:
        given[0] += w
        given[1] += b
    if given != game.scores:
        out.append("scores differ from the sum of the scorings")
    return out


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
        found = problems(game)
        if len(game.place) != 24 or sum(1 for c in game.place if c in
                                         (rules.WHITE, rules.BLACK, rules.DISCARD,
                                          rules.DRAWABLE)) != 24:
            found.append("not all 24 cards are accounted for")
        scores, scorings = self._score_state()
        if scores != self._prev[0] and scorings == self._prev[1]:
            found.append("scores changed without a scoring")
        self._prev = (scores, scorings)
        if found:
            raise AssertionError("after %r: %s" % (action, "; ".join(found)))


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
