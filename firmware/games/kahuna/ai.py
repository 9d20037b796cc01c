"""A computer player for one side, which plays from public information only.

What it may know is gathered by a `Tracker` (fed every applied action) into an
`Observation`: the board (bridges, control, supplies), the phase and round, its own hand,
the cards seen face up on the discard pile (played cards: a Remove or a Place shows them),
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

It plays with the rules engine (`games.kahuna.rules`), through its public API only
(legal_actions, apply, snapshot, restore and the public state fields), on a private game
that it loads with what the observation says.
"""

from core.ticks import ticks_add as _ticks_add
from core.ticks import ticks_diff as _ticks_diff
from core.ticks import ticks_ms as _ticks_ms
from core.ticks import ticks_us as _ticks_us
from games.kahuna import rules

DEFAULT_LEVEL = 2

# Evaluation weights (points of the evaluation; an island controlled is worth CTRL).
CTRL = 100
SLACK = 10  # per bridge above the majority on a controlled island (safety against removal)
EXACT = 14  # a controlled island held by the bare majority can be broken by one Remove
PROG = (0, 50, 32, 16, 6, 0, 0)  # uncontrolled island still within reach, by bridges missing
BRIDGE = 3  # per bridge on the board (R6 tie-break, and fewer bridges removed at take-over)
CARD = 11  # per card in hand: a card is a future bridge
DEAD_CARD = 2  # per card whose island offers nothing now
WIN = 100000  # R7: an early win
DENY = 30  # percent of a display card's worth to the opponent counted when choosing a draw
# Search size per level: (beam width, beam depth, end states checked against replies,
# sampled opponent hands per end state, actions of a reply, work units for the beam;
# the replies stop being checked past twice that).
LEVEL_SEARCH = {
    1: (1, 6, 0, 0, 0, 400),
    2: (3, 6, 3, 2, 2, 1400),
    3: (5, 7, 6, 4, 3, 4000),
}

FULL = 0xFFFFFFFF
# The search yields None after each unit of work (counted: the level's limit is in units)
# and _PART inside a long unit (not counted), so a slice can end part-way through it: the
# units, and so the decisions, are the same whatever the slices.
_PART = 1


class Rng:
    """xorshift32: tiny, deterministic, the same on every runtime."""

    def __init__(self, seed):
        self.s = ((seed * 2654435761) + 0x9E3779B9) & FULL or 1

    def next(self):
        x = self.s
        x ^= (x << 13) & FULL
        x ^= x >> 17
        x ^= (x << 5) & FULL
        self.s = x
        return x

    def below(self, n):
        return self.next() % n


def _bits(mask, n):
    return [c for c in range(n) if mask >> c & 1]


# ---------------------------------------------------------------------- what one may know

class Observation:
    """Everything one player may know at a moment, as plain immutable values.
    Cards are the rules' card indices; `seen`, `opp_known` are bitmasks of cards."""

    def __init__(self, me, variant, phase, turn, round_, final_turns, must_draw, refill,
                 handicap_left, bridges, control, supply, hand, seen, opp_known, opp_count,
                 discard_count, drawable_count, display):
        self.me = me
        self.variant = variant
        self.phase = phase
        self.turn = turn
        self.round = round_
        self.final_turns = final_turns
        self.must_draw = must_draw
        self.refill = refill
        self.handicap_left = handicap_left
        self.bridges = bridges
        self.control = control
        self.supply = supply
        self.hand = hand
        self.seen = seen
        self.opp_known = opp_known
        self.opp_count = opp_count
        self.discard_count = discard_count
        self.drawable_count = drawable_count
        self.display = display

    def key(self):
        return (self.me, self.variant, self.phase, self.turn, self.round, self.final_turns,
                self.must_draw, self.refill, self.handicap_left, self.bridges, self.control,
                self.supply, self.hand, self.seen, self.opp_known, self.opp_count,
                self.discard_count, self.drawable_count, self.display)


class Tracker:
    """The public record of a game as one player (`me`, 0 white / 1 black) sees it.

    Create it before the deal and call `note(game, action, actor, face_up)` after every
    action the game applied (`actor` is the player on turn before it; `face_up` says,
    for a draw, that the card was taken from the display in view of both players).
    Placed and removed cards are played face up, so they are known to lie on the discard
    pile; the opponent's discards are secret and their names are never read; nor are the
    names of cards the opponent draws from the deck."""

    def __init__(self, game, me):
        self.me = me
        self.n_cards = game.settings.n_cards
        self.seen = 0  # cards known to lie on the discard pile
        self.opp_known = 0  # cards the opponent took face up and still holds
        self.opp_count = 0
        self.round = game.round
        self.log = []  # the record before each action of this turn that undo takes back

    def _bit(self, game, name):
        return 1 << game.card_index[name]

    def note(self, game, action, actor, face_up=False):
        kind = action[0]
        mine = actor == self.me
        if kind in ("place", "remove", "refill", "discard"):
            self.log.append((self.seen, self.opp_known, self.opp_count))
        if kind == "deal":
            if not mine:
                self.opp_count += 1
        elif kind == "place" or kind == "remove":
            for name in action[1:-1] if kind == "remove" else action[1:2]:
                b = self._bit(game, name)
                self.seen |= b
                if not mine:
                    self.opp_count -= 1
                    self.opp_known &= ~b
        elif kind == "discard":
            if mine:
                self.seen |= self._bit(game, action[1])
            else:
                # Secret: any card of their hand may be the one, the known ones too.
                self.opp_count -= 1
                self.opp_known = 0
        elif kind == "undo":
            if self.log:
                self.seen, self.opp_known, self.opp_count = self.log.pop()
        elif kind == "draw":
            if not mine:
                self.opp_count += 1
                if face_up:
                    self.opp_known |= self._bit(game, action[1])
            self.log = []
        elif kind == "decline" or kind == "end_play" and game.turn != actor:
            self.log = []
        if game.round != self.round:  # R5: the discard pile became the new deck
            self.round = game.round
            self.seen = 0
            self.log = []

    def observe(self, game, display):
        """The observation of `self.me` now; `display` is the face-up card names."""
        idx = game.card_index
        hand = tuple(sorted(idx[n] for n in game.hand(rules.PLAYERS[self.me])))
        return Observation(
            self.me, game.settings.variant, game.phase, game.turn, game.round, game.final_turns,
            game.must_draw, game.refill, game.handicap_left, tuple(game.bridges),
            tuple(game.control), tuple(game.supply), hand, self.seen, self.opp_known,
            self.opp_count, game.discard_count(), game.drawable_count(),
            tuple(sorted(idx[n] for n in display)))


# ---------------------------------------------------------------------- the search game

class Model:
    """A private rules game loaded from an observation, and the evaluation."""

    def __init__(self, board, variant):
        self.board = board
        self.game = rules.Game(board, variant=variant)
        self.game.undoable = False  # the search never undoes: no state copy per move
        self.n = len(board.islands)
        self.n_cards = 2 * self.n
        self.iconns = [tuple(ks) for ks in board.island_conns]
        self.need = [len(ks) // 2 + 1 for ks in board.island_conns]  # R1
        # The island at the other end of each of an island's connections.
        self.others = [tuple(board.conn_ends[k][1] if board.conn_ends[k][0] == i
                             else board.conn_ends[k][0] for k in ks)
                       for i, ks in enumerate(board.island_conns)]

    def load(self, obs, rng):
        """Set the game to the observation; the unseen cards are dealt at random:
        the opponent's unknown cards to their hand, the others to the deck."""
        g = self.game
        me = obs.me
        self.me = me
        g.phase = obs.phase
        g.turn = obs.turn
        g.round = obs.round
        g.final_turns = obs.final_turns
        g.must_draw = obs.must_draw
        g.refill = obs.refill
        g.handicap_left = obs.handicap_left
        g.bridges = list(obs.bridges)
        g.control = list(obs.control)
        g.supply = list(obs.supply)
        g.winner = None
        g.history = []
        place = [rules.DRAWABLE] * self.n_cards
        for c in obs.hand:
            place[c] = me
        for c in _bits(obs.seen, self.n_cards):
            place[c] = rules.DISCARD
        for c in _bits(obs.opp_known, self.n_cards):
            place[c] = 1 - me
        g.place = place
        self.unseen = [c for c in range(self.n_cards)
                       if place[c] == rules.DRAWABLE and c not in obs.display]
        self.opp_unknown = max(0, obs.opp_count - _popcount(obs.opp_known))
        self.deal_hidden(rng)

    def deal_hidden(self, rng):
        """Determinization: a random opponent hand from the unseen cards."""
        place = self.game.place
        pool = self.unseen
        for c in pool:
            place[c] = rules.DRAWABLE
        n = len(pool)
        for j in range(min(self.opp_unknown, n)):
            # A partial Fisher-Yates over the pool without copying it.
            r = j + rng.below(n - j)
            pool[j], pool[r] = pool[r], pool[j]
            place[pool[j]] = 1 - self.me
        pool.sort()  # the next deal starts from the same order whatever was drawn

    def score(self, me, cards_count=True):
        """The position from `me`'s side, in evaluation points (higher is better)."""
        g = self.game
        if g.winner is not None:
            if g.winner == rules.PLAYERS[me]:
                return WIN
            return -WIN if g.winner != "draw" else 0
        bridges = g.bridges
        control = g.control
        opp = 1 - me
        s = 0
        need = self.need
        iconns = self.iconns
        alt = g.settings.variant == rules.ALTERNATIVE
        others = self.others
        for i in range(self.n):
            a = 0
            b = 0
            fa = 0  # free connections we may still build on
            fb = 0  # free connections the opponent may still build on
            ks = iconns[i]
            js = others[i]
            for x in range(len(ks)):
                o = bridges[ks[x]]
                if o == me:
                    a += 1
                elif o == opp:
                    b += 1
                elif alt:
                    # Alternative variant: no bridge where an end is the other's.
                    cj = control[js[x]]
                    if cj != opp:
                        fa += 1
                    if cj != me:
                        fb += 1
                else:
                    fa += 1
                    fb += 1
            m = need[i]
            c = control[i]
            if c == me:
                s += CTRL + SLACK * (a - m) - (EXACT if a == m else 0)
            elif c == opp:
                s -= CTRL + SLACK * (b - m) - (EXACT if b == m else 0)
            else:
                if a + fa >= m:
                    s += PROG[m - a]
                if b + fb >= m:
                    s -= PROG[m - b]
        nb = 0
        for o in bridges:
            if o == me:
                nb += 1
            elif o == opp:
                nb -= 1
        s += BRIDGE * nb
        if cards_count and not g.final_turns:
            s += self.hand_value(me)
        return s

    def hand_value(self, me):
        """CARD per card that can still act (its island has a free connection open to us
        or an opponent bridge to remove), DEAD_CARD per card that cannot."""
        g = self.game
        place = g.place
        bridges = g.bridges
        control = g.control
        ends = self.board.conn_ends
        alt = g.settings.variant == rules.ALTERNATIVE
        opp = 1 - me
        v = 0
        for c in range(self.n_cards):
            if place[c] != me:
                continue
            live = False
            for k in self.iconns[c // 2]:
                o = bridges[k]
                if o == opp:
                    live = True
                    break
                if o == rules.NOBODY:
                    a, b = ends[k]
                    if not alt or (control[a] != opp and control[b] != opp):
                        live = True
                        break
            v += CARD if live else DEAD_CARD
        return v


def _popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


def _count(values, value):
    n = 0
    for v in values:
        if v == value:
            n += 1
    return n


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

    def __init__(self, board, level=DEFAULT_LEVEL, seed=0, clock=None):
        if level not in LEVEL_SEARCH:
            raise ValueError("ai level must be 1, 2 or 3, got %r" % (level,))
        self.board = board
        self.level = level
        self.seed = seed
        self.clock = clock or _ticks_ms
        self.models = {}
        self.units = 0  # work units done for the current decision
        self.plan = None
        self.gen = None
        self.deadline = None

    def _model(self, variant):
        m = self.models.get(variant)
        if m is None:
            m = self.models[variant] = Model(self.board, variant)
        return m

    # -- the slice API

    def start(self, obs, deadline_ms=None):
        """Begin thinking about `obs`; `deadline_ms` (a clock value) stops it at the latest."""
        self.obs = obs
        self.units = 0
        self.deadline = deadline_ms
        self.model = self._model(obs.variant)
        self.plan = None
        self.best_path = None
        self.rng = Rng(_mix(obs, self.seed))
        self.model.load(obs, self.rng)
        self.root = self.model.game.snapshot()
        self.fallback = self._fallback(obs)
        self.gen = self._search(obs)

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
                if self.deadline is not None and _ticks_diff(now, self.deadline) >= 0:
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
        self.model.game.restore(self.root)

    def best(self):
        """The best whole turn found so far (always a legal one)."""
        if self.plan is None and self.best_path is not None:
            if self.gen is not None:  # still thinking: leave the search's game as it was
                node = self.model.game.snapshot()
                plan = self._finish_plan(self.obs, self.best_path)
                self.model.game.restore(node)
                return plan
            self.plan = self._finish_plan(self.obs, self.best_path)
            self.model.game.restore(self.root)
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
            self.plan = self._draw_part(obs, [])
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
                    # (MicroPython's sort is not stable).
                    children.append((sc, -len(children), path + [act]))
                    yield
            if not children:
                break
            children.sort(key=_rank, reverse=True)
            beam = [(c[0], c[2]) for c in children[:width]]
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
        m.deal_hidden(rng)
        g.turn = 1 - me
        g.phase = rules.PLAY
        g.refill = rules.NOBODY
        g.history = []
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

    def _finish_plan(self, obs, path):
        """`path` (play actions), the end of the play phase and the draw."""
        m = self.model
        g = m.game
        g.restore(self.root)
        for act in path:
            g.apply(act)
        plan = list(path)
        if g.is_over():
            return plan
        if g.refill != rules.NOBODY:
            plan.append(("skip_refill",))
            g.apply(("skip_refill",))
        plan.append(("end_play",))
        if obs.final_turns:
            return plan
        return self._draw_part(obs, plan)

    def _draw_part(self, obs, plan):
        """The draw: the display card worth most to the hand after this turn, or the deck
        top when none beats an average unseen card; decline with a full hand unless R4."""
        m = self.model
        g = m.game
        me = obs.me
        hand = [c for c in range(m.n_cards) if g.place[c] == me]
        if obs.drawable_count == 0:
            return plan + [("decline",)]
        if len(hand) >= rules.HAND_LIMIT:
            # R3: a full hand draws only after a discard. Swap the least useful card when
            # the table offers better (declining turn after turn starves the hand), or
            # when R4 forces a draw.
            worst = min(hand, key=lambda c: self._card_worth(c, me))
            offer = [self._card_worth(c, me) for c in obs.display]
            if not obs.must_draw and (not offer or max(offer) <= self._card_worth(worst, me)):
                if not self._starved(hand, me):
                    return plan + [("decline",)]
            plan = plan + [("discard", g.card_names[worst])]
        best = None
        for c in obs.display:
            # A face-up card also goes to the opponent next if we leave it: taking what
            # they need denies it (DENY percent of its worth to them).
            v = self._card_worth(c, me) + DENY * self._card_worth(c, 1 - me) // 100
            if best is None or v > best[0]:
                best = (v, c)
        unseen = m.unseen
        if unseen and obs.drawable_count > len(obs.display):
            avg = 0
            for c in unseen:
                avg += self._card_worth(c, me)
            avg //= len(unseen)
            if best is None or avg > best[0]:
                return plan + [("draw_top",)]
        if best is None:
            return plan + [("draw_top",)]
        return plan + [("draw", g.card_names[best[1]])]

    def _starved(self, hand, me):
        """A full hand none of whose cards can act: better any new card than none."""
        for c in hand:
            if self._card_worth(c, me) > 0:
                return False
        return True

    def _card_worth(self, c, me):
        """How much a card of this island could do on the board as it stands: the best
        gain of one placement with it (computed from the board, without applying)."""
        m = self.model
        g = m.game
        isl = c // 2
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
            if g.settings.variant == rules.ALTERNATIVE and (control[a_end] == opp
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


def _fingerprint(g):
    """A 27-bit hash of the bridges, the cards' places and a pending refill: small
    integers only, so it allocates nothing on the Pico (31-bit small ints)."""
    h = g.refill + 1
    for v in g.bridges:
        h = ((h << 2) & 0x7FFFFFF) ^ (h >> 25) ^ (v + 1)
    for v in g.place:
        h = ((h << 2) & 0x7FFFFFF) ^ (h >> 25) ^ v
    return h


async def think(player, obs, within_ms=3000, slice_ms=5):
    """Think about `obs` inside an asyncio loop: slices of `slice_ms`, yielding to the
    other tasks (frames, inputs, the link, the watchdog) between them; the answer comes
    within `within_ms` at the latest (the best turn found by then)."""
    import asyncio
    player.start(obs, _ticks_add(player.clock(), within_ms))
    while not player.step(slice_ms):
        await asyncio.sleep(0)
    return player.best()


def _rank(item):
    return item[0], item[1]


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
