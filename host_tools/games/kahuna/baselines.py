"""Baseline players to measure the computer opponent (`games.kahuna.ai.Player`) against.

All play from an `observe.Observation` only (public information and their own hand), through
the same private rules game the AI uses (`aimodel.Model`), and answer with a whole turn in the
AI's action format (`("draw", name)` for a display card, `("draw_top",)` for the deck).
They run on CPython and MicroPython alike and take the same `decide(obs)` call. `random` and
`greedy` are here; `majority` and `lookahead` are greedy's machinery with the styles of
`stylebaselines.py`.
"""

from games.kahuna import ai, aimodel, rules
from host_tools.games.kahuna import stylebaselines

PLAY_KINDS = ("place", "remove", "refill", "skip_refill")


def _table_draws(obs, names):
    """The draws the table offers: each display card and the deck top."""
    out = [("draw", names[c]) for c in obs.display]
    if obs.drawable_count > len(obs.display):
        out.append(("draw_top",))
    return out


def _balance(owners, me):
    """How many of `owners` (a player index, or none) are mine, minus the opponent's."""
    opp = 1 - me
    n = 0
    for o in owners:
        if o == me:
            n += 1
        elif o == opp:
            n -= 1
    return n


class _Baseline:
    """What both baselines share: their seeded PRNG and one private rules game (an
    `aimodel.Model`) per variant, loaded with what an observation shows."""

    def __init__(self, board, seed=0):
        self.board = board
        self.rng = aimodel.Rng(seed)
        self.models = {}

    def _game(self, obs):
        m = self.models.get(obs.variant)
        if m is None:
            m = self.models[obs.variant] = aimodel.Model(self.board, obs.variant)
        m.load(obs, self.rng)
        return m.game


class RandomPlayer(_Baseline):
    """`random`: at every step a legal action chosen uniformly at random (own seeded
    PRNG) among all the rules allow, undo and going back from the draw phase included;
    a draw is one of the table's options (a display card or the deck top)."""

    MAX_STEPS = 200  # a turn of random steps that long ends with the first legal end

    def decide(self, obs):
        g = self._game(obs)
        names = g.card_names
        plan = []
        start_turn = obs.turn
        for n in range(self.MAX_STEPS + 1):
            acts = [a for a in g.legal_actions() if a[0] != "draw"]
            hand = 0
            for where in g.place:
                if where == obs.me:
                    hand += 1
            if (g.phase == rules.DRAW and g.refill == rules.NOBODY
                    and hand < rules.HAND_LIMIT):  # R3
                acts += _table_draws(obs, names)
            if n == self.MAX_STEPS:
                ends = [a for a in acts if a[0] in ("end_play", "draw", "draw_top",
                                                    "decline", "handicap", "skip_refill")]
                acts = ends or acts
            act = acts[self.rng.below(len(acts))]
            plan.append(act)
            if act[0] in ("draw_top", "decline", "handicap"):
                break
            g.apply(act)
            if g.is_over() or g.turn != start_turn or g.phase == rules.HANDICAP:
                break
        return plan


class GreedyPlayer(_Baseline):
    """`greedy`: each turn it plays the single action (place, remove, free refill) that
    most improves the islands it controls minus the opponent's, again and again until
    none improves; then it draws the face-up card that helps it most (the one whose best
    placement would improve that count most, the first one on a tie), or the deck top
    when there is no display card.

    "Improves" is measured first by islands, then, on a tie, by bridges on the board
    (own minus the opponent's): without that tie-break no first bridge ever helps (an
    island needs two or more), and greedy would never build."""

    def _metric(self, g, me):
        islands = _balance(g.control, me)
        bridges = _balance(g.bridges, me)
        if g.winner is not None:
            return 100000 if g.winner == rules.PLAYERS[me] else -100000
        return 1000 * islands + bridges

    def decide(self, obs):
        g = self._game(obs)
        me = obs.me
        if obs.phase == rules.HANDICAP:
            return [self._best(g, me, g.legal_actions())[1]]
        plan = []
        while g.phase == rules.PLAY and not g.is_over():
            acts = [a for a in g.legal_actions() if a[0] in PLAY_KINDS]
            if not acts:
                break
            now = self._metric(g, me)
            value, act = self._best(g, me, acts)
            if g.refill == rules.NOBODY and value <= now:
                break
            if g.refill != rules.NOBODY and value <= now:
                act = ("skip_refill",)
            plan.append(act)
            g.apply(act)
        if g.is_over():
            return plan
        if g.phase == rules.PLAY:
            plan.append(("end_play",))
            if obs.final_turns:
                return plan
            g.apply(("end_play",))
        return plan + self._draw(obs, g, me)

    def _best(self, g, me, acts):
        node = g.snapshot()
        best = None
        for act in acts:
            g.apply(act)
            v = self._metric(g, me)
            g.restore(node)
            if best is None or v > best[0]:
                best = (v, act)
        return best

    def _draw(self, obs, g, me):
        names = g.card_names
        if obs.drawable_count == 0:
            return [("decline",)]
        hand = [c for c in range(len(names)) if g.place[c] == me]
        plan = []
        if len(hand) >= rules.HAND_LIMIT:  # R3
            if not obs.must_draw:
                return [("decline",)]
            plan.append(("discard", names[hand[0]]))  # R4: must draw
        if not obs.display:
            return plan + [("draw_top",)]
        node = g.snapshot()
        base = self._metric(g, me)
        best = None
        for c in obs.display:
            g.place[c] = me
            g.phase = rules.PLAY
            gain = 0
            for act in g.legal_actions():
                if act[0] == "place" and act[1] == names[c]:
                    g.apply(act)
                    gain = max(gain, self._metric(g, me) - base)
                    g.restore(node)
                    g.place[c] = me
                    g.phase = rules.PLAY
            g.restore(node)
            if best is None or gain > best[0]:
                best = (gain, c)
        return plan + [("draw", names[best[1]])]


class MajorityPlayer(stylebaselines.MajorityStyle, GreedyPlayer):
    """`majority`: greedy's machinery valuing near-majorities (`stylebaselines`)."""


class LookaheadPlayer(stylebaselines.LookaheadStyle, GreedyPlayer):
    """`lookahead`: one ply and a best second step, its own evaluation (`stylebaselines`)."""


def make(kind, board, level=ai.DEFAULT_LEVEL, seed=0):
    """A player by its name on the duel's command line (`majority` and `lookahead`:
    `stylebaselines.py`)."""
    if kind == "ai":
        return ai.Player(board, level=level, seed=seed)
    if kind == "greedy":
        return GreedyPlayer(board, seed)
    if kind == "random":
        return RandomPlayer(board, seed)
    if kind == "majority":
        return MajorityPlayer(board, seed)
    if kind == "lookahead":
        return LookaheadPlayer(board, seed)
    raise ValueError("unknown player %r" % (kind,))


KINDS = ("ai", "greedy", "random", "majority", "lookahead")
