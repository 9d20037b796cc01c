"""A computer player for one side, which plays from public information only.

What it may know is gathered by a `Tracker` (fed every applied action) into an
`Observation` (both in games.kahuna.observe): the board (bridges, control, supplies), the
phase and round, its own hand, the cards seen face up on the discard pile (played cards: a
Remove or a Place shows them),
the display, the cards the opponent took face up and still holds, and how many cards the
opponent holds and how many lie on the discard pile and the deck. It never holds the rules
game itself: the opponent's hand, a secret discard and the deck order cannot reach it.

Where the search needs the hidden cards (the opponent's possible replies) it deals them at
random from the unseen cards, with its own seeded PRNG (determinization): the same
observation, hand and seed give the same decision on every runtime, whatever the hidden
cards really are.

A decision is a whole turn: a list of actions in the rules' tuples, except for the draw,
which the player names as the physical table offers it:
    ("draw", "HUNA-1")   take that face-up display card
    ("draw_top",)        take the deck's top card (unknown until taken)
In the handicap phase a decision is one ("handicap", conn) at a time.

The search runs in slices so the Pico's asyncio loop keeps going (see `Player`):
    p.start(observation, deadline_ms)   p.step(budget_ms) -> True when done   p.best()
(the board's solo game runs the slices from its own loop: games.kahuna.solo).

It plays with the rules engine (`games.kahuna.rules`), through its public API only
(legal_actions, apply, snapshot, restore and the public state fields), on a private game
that it loads with what the observation says (games.kahuna.aimodel: the search game and its
evaluation).
"""

try:
    import micropython
except ImportError:  # CPython (core.plainpython): the same code, not compiled
    from core import plainpython as micropython

from core.ticks import ticks_diff as _ticks_diff
from core.ticks import ticks_ms as _ticks_ms
from core.ticks import ticks_us as _ticks_us
from games.kahuna import rules
from games.kahuna import settings as kahunasettings
from games.kahuna.aimodel import DENY, FULL, PROG, Model, Rng

DEFAULT_LEVEL = 2

# Search size per level: (beam width, beam depth, end states checked against replies,
# sampled opponent hands per end state, actions of a reply, work units for the beam;
# the replies stop being checked past twice that).
LEVEL_SEARCH = {
    1: (1, 6, 0, 0, 0, 400),
    2: (3, 6, 3, 2, 2, 1400),
    3: (5, 7, 6, 4, 3, 4000),
}

# The search yields None after each unit of work (counted: the level's limit is in units)
# and _PART inside a long unit (not counted), so a slice can end part-way through it: the
# units, and so the decisions, are the same whatever the slices.
_PART = 1


def _mix(obs, seed):
    """A number that depends on the observation only (not on hash(), which differs
    between runtimes): seeds the determinization of this decision."""
    h = (seed * 1000003 + obs.round * 7919 + obs.turn * 131) & FULL
    for k in range(len(obs.bridges)):
        h = (h * 31 + obs.bridges[k] + 2) & FULL
    for c in obs.hand:
        h = (h * 37 + c + 1) & FULL
    h = (h * 41 + obs.seen + obs.opp_count + 17 * obs.drawable_count) & FULL
    return h


# ---------------------------------------------------------------------- players

class Player:
    """The computer opponent. `level` 1-3 trades strength for time (2 is the default).

    Search: a beam search over the actions of its own play phase (place, remove, free
    refill) scored by `Model.score`; the best end states are then checked against the
    opponent's greedy reply of a few actions with hands dealt from the unseen cards; the
    draw takes the display card (or the deck top) worth most after the turn, and a full
    hand swaps its least useful card rather than decline. Each unit of work (one action
    applied and scored, or one list of legal actions) is a step of a generator, so `step`
    can stop after any of them. The level's work limit (not the clock) ends the search,
    so a decision does not depend on the machine's speed; a deadline only cuts it short.

    Heap: the private game and the beam (a few short paths) are all it keeps; nothing
    grows from one decision to the next (`make bench` measures both)."""

    def __init__(self, board, level=DEFAULT_LEVEL, seed=0, clock=None, names=None):
        if level not in LEVEL_SEARCH:
            raise ValueError("ai level must be 1, 2 or 3, got %r" % (level,))
        self.board = board
        self.level = level
        self.seed = seed
        self.clock = clock or _ticks_ms
        self.names = names  # the table's card names and index, shared (aimodel.Model)
        self.model = None  # the search's game, built for a decision, dropped after it
        self.units = 0  # work units done for the current decision
        self.plan = None
        self.obs = None  # the observation being thought about (start() to the decision)
        self.gen = None
        self.deadline = None

    # -- the slice API

    def start(self, obs, deadline_ms=None):
        """Begin thinking about `obs`; `deadline_ms` (a clock value) stops it at the latest.
        The decision's set-up (the model, loaded from `obs`; about 22 ms on the Pico) is the
        first pieces of the work, so it too runs in the slices (`step`)."""
        self.obs = obs
        self.units = 0
        self.deadline = deadline_ms
        self.model = None
        self.plan = None
        self.best_path = None
        self.root = None
        self.fallback = None
        self.gen = self._think(obs)

    def _setup(self, obs):
        """The set-up in pieces (`_PART`): the model, its load, the root and the fallback;
        what is done already (best() asked before the slices did it) is not done again."""
        if self.model is None:
            m = Model(self.board, obs.variant, False, self.names)
            yield _PART
            for _ in m.tables():
                yield _PART
            if self.model is None:  # (or best() has made one meanwhile)
                self.model = m
            yield _PART
        if self.root is None:
            self.model.load(obs, None)
            yield _PART
            if self.root is None:
                self.rng = Rng(_mix(obs, self.seed))
                self.model.deal_hidden(self.rng)
                self.root = self.model.game.snapshot()
                self.fallback = self._fallback(obs)

    def _think(self, obs):
        """A decision's whole work as one generator: the set-up, the search, the plan."""
        yield from self._setup(obs)
        yield _PART
        yield from self._search(obs)
        if self.plan is None and self.best_path is not None:
            self.plan = yield from self._plan(obs, self.best_path)

    def step(self, budget_ms=None):
        """Think for about `budget_ms` (None: to the end); True once the decision is made.

        On the board's own clock (no clock given) a slice is timed in microseconds and
        ends before the next unit of work would take it past `budget_ms` (a unit as long
        as the longest of this slice): slices end on time, not a ms tick or a unit late.
        Only when the slice ends depends on the clock, never the search."""
        if self.gen is None:
            return True
        clock = self.clock
        t0 = clock()
        gen = self.gen
        fine = budget_ms is not None and clock is _ticks_ms
        if fine:
            u0 = u = _ticks_us()
            budget_us = budget_ms * 1000
            unit = 0
        try:
            while True:
                if next(gen) is None:
                    self.units += 1
                now = clock()
                if (self.deadline is not None and self.root is not None
                        and _ticks_diff(now, self.deadline) >= 0):
                    self._finish()
                    return True
                if fine:
                    u1 = _ticks_us()
                    d = _ticks_diff(u1, u)
                    if d > unit:
                        unit = d
                    u = u1
                    if _ticks_diff(u1, u0) + unit > budget_us:
                        return False
                elif budget_ms is not None and _ticks_diff(now, t0) >= budget_ms:
                    return False
        except StopIteration:
            self._finish()
            return True

    def _finish(self):
        self.gen = None
        if self.root is not None:
            self.model.game.restore(self.root)

    def best(self):
        """The best whole turn found so far (always a legal one)."""
        if self.root is None and self.obs is not None:
            _drain(self._setup(self.obs))
        if self.plan is None and self.best_path is not None:
            if self.gen is not None:  # still thinking: leave the search's game as it was
                node = self.model.game.snapshot()
                plan = _drain(self._plan(self.obs, self.best_path))
                self.model.game.restore(node)
                return plan
            self.plan = _drain(self._plan(self.obs, self.best_path))
            self.model.game.restore(self.root)
        if self.gen is None and self.obs is not None:
            # The decision is made: what only the search needed goes back to the heap
            # until the next start(): the model (its private rules game; loaded afresh
            # from each observation, so a new one searches alike, and built in about 50
            # us on the unix port), the observation, the root position, the best path,
            # the random stream, the fallback once a plan stands (about 4 KB on the
            # Pico, issue 20). The same plan is returned if asked again.
            self.obs = self.root = self.best_path = self.rng = self.model = None
            if self.plan is not None:
                self.fallback = None
        return list(self.plan) if self.plan is not None else self.fallback

    def decide(self, obs):
        """Think to the end (the level's work limit) and return the turn."""
        self.start(obs)
        self.step(None)
        return self.best()

    # -- the search

    def _search(self, obs):
        m = self.model
        g = m.game
        me = obs.me
        rng = self.rng
        if obs.phase == rules.HANDICAP:
            yield from self._handicap(obs)
            return
        if obs.phase == rules.DRAW:
            self.plan = yield from self._draw(obs, [])
            return
        width, depth, n_check, n_samples, reply_steps, limit = LEVEL_SEARCH[self.level]
        root = self.root
        base = m.score(me)
        # Beam search over own play actions; each node is (score, path).
        beam = [(base, [])]
        ends = [(base, [])]
        for _ in range(depth):
            children = []
            seen_states = {}  # fingerprints of this level's states (transpositions)
            for _s, path in beam:
                g.restore(root)
                for act in path:
                    g.apply(act)
                    yield _PART
                if g.is_over():
                    continue
                node = g.snapshot()
                yield _PART
                acts = [a for a in g.legal_actions()
                        if a[0] in ("place", "remove", "refill", "skip_refill")]
                yield
                for act in acts:
                    if self.units >= limit:
                        break
                    g.restore(node)
                    g.apply(act)
                    yield _PART
                    key = _fingerprint(g)
                    if key in seen_states:
                        yield
                        continue
                    seen_states[key] = 1
                    sc = m.score(me)
                    # The order number breaks ties the same way on every runtime
                    # (MicroPython's sort is not stable). The path is made only for the
                    # children kept: (score, order, the parent's path, the action).
                    children.append((sc, -len(children), path, act))
                    yield
            if not children:
                break
            # By (score, order number): the order number is unique, so nothing after it is
            # compared; no key function (MicroPython calls it at every comparison, and a
            # key's tuple would be made each time).
            children.sort(reverse=True)
            beam = [(c[0], c[2] + [c[3]]) for c in children[:width]]
            children = None
            for c in beam:
                ends.append(c)
            ends = _top(ends, max(width, n_check, 1))
            self.best_path = ends[0][1]
            if self.units >= limit:
                break
        seen_states = None
        best_path = ends[0][1]
        self.best_path = best_path
        if n_check and n_samples:
            best_val = None
            for _sc, path in ends[:n_check]:
                if self.units >= 2 * limit:  # the replies get as much work as the beam
                    break
                total = 0
                for _ in range(n_samples):
                    v = yield from self._reply_value(obs, path, rng, reply_steps)
                    total += v
                if best_val is None or total > best_val:
                    best_val = total
                    best_path = path
        self.best_path = best_path

    def _reply_value(self, obs, path, rng, steps):
        """The evaluation after `path` and the opponent's greedy reply of up to `steps`
        actions (each the one worst for us), with a random hand for the opponent."""
        m = self.model
        g = m.game
        me = obs.me
        g.restore(self.root)
        for act in path:
            g.apply(act)
            yield _PART
        if g.is_over():
            return m.score(me)
        cards = m.score(me) - m.score(me, False)
        yield _PART
        m.deal_hidden(rng)
        g.turn = 1 - me
        g.phase = rules.PLAY
        g.refill = rules.NOBODY
        g.history = []
        yield _PART
        worst = m.score(me, False)
        for _ in range(steps):
            node = g.snapshot()
            yield _PART
            acts = [a for a in g.legal_actions() if a[0] in ("place", "remove")]
            yield
            choice = None
            for act in acts:
                g.restore(node)
                g.apply(act)
                if g.refill != rules.NOBODY:
                    g.apply(("refill", g.board.connections[g.refill]))
                yield _PART
                v = m.score(me, False)
                if v < worst:
                    worst = v
                    choice = act
                yield
            g.restore(node)
            if choice is None:
                break
            g.apply(choice)
            if g.refill != rules.NOBODY:
                g.apply(("refill", g.board.connections[g.refill]))
            m.held = m.islands_held(1 - me)  # the cards it played are gone
            if g.is_over():
                break
        return worst + cards

    def _handicap(self, obs):
        m = self.model
        g = m.game
        best = None
        for act in g.legal_actions():
            g.restore(self.root)
            g.apply(act)
            v = m.score(obs.me)
            if best is None or v > best[0]:
                best = (v, act)
            yield
        g.restore(self.root)
        self.plan = [best[1]]

    def _plan(self, obs, path):
        """A generator whose value is the decision's plan: `path` (play actions), the end
        of the play phase and the draw (`_PART` between its pieces: on the Pico the draw's
        worths alone took up to 70 ms, one slice, when they were worked out in one go)."""
        m = self.model
        g = m.game
        g.restore(self.root)
        for act in path:
            g.apply(act)
            yield _PART
        plan = list(path)
        if g.is_over():
            return plan
        if g.refill != rules.NOBODY:
            plan.append(("skip_refill",))
            g.apply(("skip_refill",))
        plan.append(("end_play",))
        if obs.final_turns:
            return plan
        return (yield from self._draw(obs, plan))

    def _draw(self, obs, plan):
        """A generator whose value is `plan` and the draw: the display card worth most to
        the hand after this turn, or the deck top when none beats an average unseen card;
        decline with a full hand unless R4. A card's worth is its island's (two cards an
        island), worked out once an island and side, a piece each."""
        m = self.model
        g = m.game
        me = obs.me
        hand = [c for c in range(m.n_cards) if g.place[c] == me]
        if obs.drawable_count == 0:
            return plan + [("decline",)]
        unseen = m.unseen
        full = len(hand) >= rules.HAND_LIMIT
        top = unseen and obs.drawable_count > len(obs.display)
        ours = [-1] * m.n  # the worths asked, by island (-1: not asked), ours and theirs
        theirs = [-1] * m.n
        for c in list(obs.display) + (hand if full else []) + (unseen if top else []):
            if ours[c // 2] < 0:
                ours[c // 2] = self._island_worth(c // 2, me)
                yield _PART
        for c in obs.display:
            if theirs[c // 2] < 0:
                theirs[c // 2] = self._island_worth(c // 2, 1 - me)
                yield _PART
        if full:
            # R3: a full hand draws only after a discard. Swap the least useful card when
            # the table offers better (declining turn after turn starves the hand), or
            # when R4 forces a draw.
            worst = min(hand, key=lambda c: ours[c // 2])
            offer = [ours[c // 2] for c in obs.display]
            if not obs.must_draw and (not offer or max(offer) <= ours[worst // 2]):
                if not _starved(hand, ours):
                    return plan + [("decline",)]
            plan = plan + [("discard", g.card_names[worst])]
        best = None
        for c in obs.display:
            # A face-up card also goes to the opponent next if we leave it: taking what
            # they need denies it (DENY percent of its worth to them).
            v = ours[c // 2] + DENY * theirs[c // 2] // 100
            if best is None or v > best[0]:
                best = (v, c)
        if top:
            avg = 0
            for c in unseen:
                avg += ours[c // 2]
            avg //= len(unseen)
            if best is None or avg > best[0]:
                return plan + [("draw_top",)]
        if best is None:
            return plan + [("draw_top",)]
        return plan + [("draw", g.card_names[best[1]])]

    def _island_worth(self, isl, me):
        """How much a card of island `isl` could do on the board as it stands for `me`:
        the best gain of one placement with it (computed from the board, without
        applying)."""
        m = self.model
        g = m.game
        bridges = g.bridges
        control = g.control
        opp = 1 - me
        best = 0
        for k in m.iconns[isl]:
            if bridges[k] != rules.NOBODY:
                if bridges[k] == opp:
                    best = max(best, 8)  # half of a Remove
                continue
            a_end, b_end = g.board.conn_ends[k]
            if g.settings.variant == kahunasettings.ALTERNATIVE and (control[a_end] == opp
                                                   or control[b_end] == opp):
                continue
            v = 0
            for i in (a_end, b_end):
                need = m.need[i]
                mine = 0
                free = 0
                for j in m.iconns[i]:
                    if bridges[j] == me:
                        mine += 1
                    elif bridges[j] == rules.NOBODY:
                        free += 1
                if control[i] == me:
                    v += 2
                elif mine + free >= need:
                    v += 60 if need - mine == 1 else PROG[need - mine - 1] - PROG[need - mine]
            best = max(best, v)
        return best

    def _fallback(self, obs):
        """A legal turn without thinking: skip a refill, end the play phase, draw."""
        if obs.phase == rules.HANDICAP:
            return [("handicap", self.model.game.legal_actions()[0][1])]
        plan = []
        if obs.refill != rules.NOBODY:
            plan.append(("skip_refill",))
        if obs.phase == rules.PLAY:
            plan.append(("end_play",))
            if obs.final_turns:
                return plan
        return plan + _plain_draw(obs, self.model.game.card_names)


@micropython.native
def _fingerprint(g):
    """A 27-bit hash of the bridges, the cards' places and a pending refill: small
    integers only, so it allocates nothing on the Pico (31-bit small ints). Once per unit
    of the search: machine code on the board (as aimodel's score)."""
    h = g.refill + 1
    for v in g.bridges:
        h = ((h << 2) & 0x7FFFFFF) ^ (h >> 25) ^ (v + 1)
    for v in g.place:
        h = ((h << 2) & 0x7FFFFFF) ^ (h >> 25) ^ v
    return h


def _drain(gen):
    """Run a generator of the search to its end at once; its value."""
    while True:
        try:
            next(gen)
        except StopIteration as e:
            return e.value


def _starved(hand, worth):
    """A full hand none of whose cards can act (`worth`: by island): better any new card
    than none."""
    for c in hand:
        if worth[c // 2] > 0:
            return False
    return True


def _top(items, n):
    """The n best (score, path) items, best first; on a tie the earlier one (a stable
    order on every runtime, whose sorts may not be stable)."""
    order = sorted(range(len(items)), key=lambda j: (items[j][0], -j), reverse=True)
    return [items[j] for j in order[:n]]


def _plain_draw(obs, names):
    if obs.drawable_count == 0:
        return [("decline",)]
    if len(obs.hand) >= rules.HAND_LIMIT:
        if not obs.must_draw:
            return [("decline",)]
        return [("discard", names[obs.hand[0]]), ("draw_top",)]
    return [("draw_top",)] if not obs.display else [("draw", names[obs.display[0]])]
