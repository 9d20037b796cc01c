"""Two more baselines of other styles than `greedy` (see `baselines.py`), to measure the
computer opponent against:

- `majority` chases islands where it is one bridge short of a majority, values such
  near-majorities, and blocks the opponent's;
- `lookahead` builds its turn one ply at a time: at each step it tries every legal action
  on its private copy of the public game, and also the best second action after each of
  the most promising ones, and scores the results with an evaluation of its own (islands,
  near-majorities for both sides, the opponent's one-bridge threats, its hand's reach).

Here are their styles (what they value and how they build a turn); `baselines.py` makes
the players of them over greedy's machinery (`baselines.MajorityPlayer`,
`baselines.LookaheadPlayer`: the private game, the best single action, the draw), so this
module needs nothing of it. Both decide from an `observe.Observation` only: their private
game is loaded from it (`aimodel.Model.load`, as the other baselines), and neither
evaluation reads the opponent's hand in that game (sampled there, not known). Neither uses
the AI's evaluation. They run on CPython and MicroPython alike.
"""

from games.kahuna import rules

WIN = 100000
PLAY_KINDS = ("place", "remove", "refill", "skip_refill")


def _balance(owners, me):
    """How many of `owners` (a player index, or none) are mine, minus the opponent's."""
    n = 0
    for o in owners:
        if o == me:
            n += 1
        elif o == 1 - me:
            n -= 1
    return n


def _owned(g, island, p):
    n = 0
    for k in g.board.island_conns[island]:
        if g.bridges[k] == p:
            n += 1
    return n


def _free(g, island):
    n = 0
    for k in g.board.island_conns[island]:
        if g.bridges[k] == rules.NOBODY:
            n += 1
    return n


def _short_by_one(g, island, p):
    """True when p does not hold island but one more bridge there (on a free connection)
    would give p its majority (R1: more than half of its connections)."""
    if g.control[island] == p or _free(g, island) == 0:
        return False
    deg = g.board.island_degree[island]
    return 2 * (_owned(g, island, p) + 1) > deg


def _hand_islands(g, me):
    """The islands my hand's cards can reach (card c belongs to island c // 2)."""
    out = set()
    for c in range(len(g.place)):
        if g.place[c] == me:
            out.add(c // 2)
    return out


class MajorityStyle:
    """`majority` (over `baselines.GreedyPlayer`): greedy's turn loop (the single best
    action again and again, then the most helpful display card), but it values a position
    by islands held (most), then by near-majorities: an island one bridge short counts for
    it (more when its hand can reach the island), the opponent's one-bridge-short islands
    count against it, so a bridge that blocks such an island is worth playing; then
    bridges on the board."""

    NEAR = 40  # one of my islands one bridge short
    NEAR_IN_HAND = 30  # ... and a card in hand reaches it
    THREAT = 60  # an island the opponent is one bridge short of

    def _metric(self, g, me):
        if g.winner is not None:
            return WIN if g.winner == rules.PLAYERS[me] else -WIN
        opp = 1 - me
        reach = _hand_islands(g, me)
        v = 1000 * _balance(g.control, me) + _balance(g.bridges, me)
        for i in range(len(g.control)):
            if _short_by_one(g, i, me):
                v += self.NEAR + (self.NEAR_IN_HAND if i in reach else 0)
            if _short_by_one(g, i, opp):
                v -= self.THREAT
        return v


class LookaheadStyle:
    """`lookahead` (over `baselines.GreedyPlayer`'s private game, `_best` and `_draw`): a
    one-ply player with a short look at its own next step. At every step of its turn it
    tries each legal action (place, remove, free refill), scores the position reached,
    expands the `WIDTH` best of them by their best second action, and
    plays the first action of the best pair when that beats ending the play phase now.
    Its draw is greedy's choice under this evaluation."""

    WIDTH = 4

    def _metric(self, g, me):
        if g.winner is not None:
            return WIN if g.winner == rules.PLAYERS[me] else -WIN
        opp = 1 - me
        reach = _hand_islands(g, me)
        v = 1000 * _balance(g.control, me)
        v += 300 * (g.scores[me] - g.scores[opp])
        v += 3 * _balance(g.bridges, me)
        for i in range(len(g.control)):
            deg = g.board.island_degree[i]
            mine = _owned(g, i, me)
            theirs = _owned(g, i, opp)
            free = _free(g, i)
            if g.control[i] == rules.NOBODY:
                # how close each side is to its majority, if the island is still open
                need = deg // 2 + 1
                if mine + free >= need:
                    v += 60 * mine // need + (25 if i in reach else 0)
                if theirs + free >= need:
                    v -= 60 * theirs // need
                    if theirs + 1 >= need:
                        v -= 120  # the opponent takes it with one bridge
            elif g.control[i] == me and free and theirs + free > mine:
                v -= 50  # mine, but the opponent could still contest it
        return v

    def _plays(self, g):
        return [a for a in g.legal_actions() if a[0] in PLAY_KINDS]

    def _step(self, g, me):
        """The best first action and the value of its best pair, or None."""
        node = g.snapshot()
        first = []
        for i, act in enumerate(self._plays(g)):
            g.apply(act)
            first.append((-self._metric(g, me), i, act))
            g.restore(node)
        if not first:
            return None
        first.sort()  # best first, ties in the rules' order (MicroPython's sort is not stable)
        best = None
        for v1, _, act in first[:self.WIDTH]:
            v1 = -v1
            value = v1
            g.apply(act)
            if g.phase == rules.PLAY and not g.is_over():
                seconds = self._plays(g)
                if seconds:
                    v2 = self._best(g, me, seconds)[0]
                    value = max(value, v2)
            g.restore(node)
            if best is None or value > best[0]:
                best = (value, act)
        return best

    def decide(self, obs):
        g = self._game(obs)
        me = obs.me
        if obs.phase == rules.HANDICAP:
            return [self._best(g, me, g.legal_actions())[1]]
        plan = []
        while g.phase == rules.PLAY and not g.is_over() and len(plan) < 40:
            step = self._step(g, me)
            if step is None:
                break
            value, act = step
            if value <= self._metric(g, me):
                if g.refill == rules.NOBODY:
                    break
                act = ("skip_refill",)
            plan.append(act)
            g.apply(act)
        if g.is_over():
            return plan
        if g.phase == rules.PLAY:
            if g.refill != rules.NOBODY:
                plan.append(("skip_refill",))
                g.apply(("skip_refill",))
            plan.append(("end_play",))
            if obs.final_turns:
                return plan
            g.apply(("end_play",))
        return plan + self._draw(obs, g, me)
