"""The figures' walks along the ring (docs/halunken.md, "The lights"; section 8.2: "each
figure light steps along the ring as the figure moves, so players move the physical
figures to match").

The rules move a figure in one go (a move, a displacement to the first vacant space H9,
Black-Jack's move H22); one event can apply several (a round of movers with a dealt deck,
a theft's displacement and the movers after it). `Walks` looks at the figures' positions
each frame; when they changed it plans one walk per figure that moved (two for a figure
displaced before or after its own move), in the rules' order (lowest number first, H10;
a displaced figure right after the figure that landed on it, H9; Black-Jack's end move
last, H22), and says each frame where each figure's light
is: on its old space until its walk starts, then one space clockwise at a time.

Pace: the first step at once (the light answers the event), then one step every
`STEP_MS` (300 ms): long enough to see the light move and slide the figure one space after
it, short enough that the longest single move (7 spaces) has arrived within 1.8 s. All the
walks one event starts end within `BUDGET_MS` of it, as every animation of the report's
`leds` does (the contract's "as in Kahuna": within 2,000 ms), so a long chain (a whole
round of a dealt deck) steps faster. Any event (`cut`) ends every walk at once: the lights
never lag behind the game, and a refusal's flash shows on the figures where they are.

Walks start only from a change seen while the view runs: a new game, a power cut's
resume (a new view) or another game object shows the figures where the game has them,
no walk replayed; placing a figure, taking a placement back (`-1`) and the undo of
Black-Jack's move (his turned card taken back) are no moves and jump.

The order is read from public information only: the positions before and after (H12),
the round's revealed numbers (or, once the event started the next round, the cards just
played, H6; a named RUM's number is then its walk's length). What it cannot tell apart
it still walks: every figure from where it stood to where the game has it, clockwise.
The planning writes into fixed arrays, and a frame only reads them: nothing allocated.
"""

from games.halunken import deck

BJ = 4  # Black-Jack as a figure (rules.BJ)
SPACES = deck.SPACES
STEP_MS = 300  # one space of a walk (section 8.2: a pace to copy with the figure)
BUDGET_MS = 1800  # every walk an event starts has arrived this long after it
FIGS = 5  # seats 0..3, Black-Jack
WALKS = 2 * FIGS


def at(g, fig):
    """Where the game has `fig` (-1: not on the ring)."""
    if fig == BJ:
        return g.bj
    return g.pos[fig] if fig < g.players else -1


class Walks:
    def __init__(self):
        self.game = None  # the game whose positions `last` holds
        self.last = [-1] * FIGS  # the game's positions at the last look
        self.round = 0  # the game's round then
        self.bj_turned = 0  # len(g.bj_cards) then (an undo turns his card back)
        # The planned walks, in the order they play: one per figure that moved, two for
        # a figure displaced before or after its own move (H9, H10).
        self.n = 0
        self.fig = [0] * WALKS
        self.frm = [0] * WALKS
        self.steps = [0] * WALKS
        self.start = [0] * WALKS  # ms of the caller's clock: its first step
        self.step_ms = STEP_MS
        self.end = 0  # the last step of the last walk
        self.shown = [-1] * FIGS  # where each figure's light is (place())
        self._num = [0] * FIGS  # planning: each figure's number this round (0: none)
        self._key = [0] * WALKS  # planning: each walk's place in the rules' order

    def reset(self):
        """A new game: nothing walks, the next look adopts the positions."""
        self.game = None
        self.n = 0

    def cut(self):
        """An event: every walk ends at once (the figures show where the game has them)."""
        self.n = 0

    def busy(self, now):
        return self.n > 0 and now < self.end

    # ------------------------------------------------------------ planning

    def look(self, g, now):
        """Compare the game's positions with the last look's; plan the walks of a change."""
        last = self.last
        if g is not self.game:
            self.game = g
            self._adopt(g)
            self.n = 0
            return
        for f in range(FIGS):
            if at(g, f) != last[f]:
                self._plan(g, now)
                self._adopt(g)
                return
        if self.n and now >= self.end:
            self.n = 0

    def _adopt(self, g):
        for f in range(FIGS):
            self.last[f] = at(g, f)
        self.round = g.round
        self.bj_turned = len(g.bj_cards)

    def _number(self, g, f, ended):
        """`f`'s number in the round whose moves these are, 0 when it did not move (not
        in the round, cancelled H7, not yet revealed). `ended`: that round is over (the
        rules started the next one, so its numbers are read from the cards played)."""
        if not ended:
            if g.numbers[f] > 0 and not g.cancelled[f]:
                return g.numbers[f]
            return 0
        if f == BJ:
            if not g.bj_cards:
                return 0
            c = g.bj_cards[-1]  # standard: BJ-n is n; tactical: a P3 card
            if g.mode == "standard":
                return c
            return 0 if c == deck.RUM else c + 1
        if f >= g.players or not g.played[f]:
            return 0
        c = g.played[f][-1]
        for s in range(g.players):  # H7: equal cards cancel (RUM with RUM too)
            if s != f and g.played[s] and g.played[s][-1] == c:
                return 0
        return -1 if c == deck.RUM else c + 1  # -1: a named RUM, its distance (_plan)

    def _mover_key(self, g, f, ended):
        """A mover's place in the rules' order: lowest number first (H10), the seats
        before Black-Jack on equal numbers (the rules' sort is stable over the figures),
        his end move after every captain (H22)."""
        if f == BJ and not (g.bj_controlled() and not ended):
            return 1000
        return 4 * self._num[f] + (1 if f == BJ else 0)

    def _lander(self, space):
        """The mover whose move ended on `space` (from where it stood), or -1."""
        num = self._num
        last = self.last
        for m in range(FIGS):
            if num[m] > 0 and last[m] >= 0 and (last[m] + num[m]) % SPACES == space:
                return m
        return -1

    def _add(self, n, f, frm, steps, key):
        self.fig[n] = f
        self.frm[n] = frm % SPACES
        self.steps[n] = steps
        self._key[n] = key
        return n + 1

    def _plan(self, g, now):
        last = self.last
        num = self._num
        key = self._key
        ended = g.round != self.round or g.is_over()
        bj_back = len(g.bj_cards) < self.bj_turned  # H22's move taken back: no walk
        for f in range(FIGS):
            num[f] = self._number(g, f, ended) if f < g.players or f == BJ else 0
            if num[f] < 0:  # a RUM whose named number the new round forgot: its distance
                a = last[f]
                b = at(g, f)
                num[f] = (b - a) % SPACES if a >= 0 and b >= 0 else 0
        n = 0
        total = 0
        for f in range(FIGS):
            a = last[f]
            b = at(g, f)
            if a < 0 or b < 0 or a == b or (f == BJ and bj_back):
                continue
            steps = (b - a) % SPACES
            if f == BJ and steps < num[f] and g.mode != "beginner":
                steps += SPACES  # his 11 or 12 and on past captains: once round and more
            total += steps
            if num[f] <= 0:  # displaced: right after the figure that landed on it (H9)
                m = self._lander(a)  # (none: first, a theft's displacement before the rest)
                n = self._add(n, f, a, steps, 0 if m < 0 else self._mover_key(g, m, ended) + 2)
                continue
            k = self._mover_key(g, f, ended)
            extra = steps - num[f]
            if k != 1000 and extra > 0:  # a captain (or W's Black-Jack) also displaced
                m = self._lander(a)
                if m >= 0 and m != f and self._mover_key(g, m, ended) < k:
                    # H10: displaced before its move, it moves later from the new space
                    n = self._add(n, f, a, extra, self._mover_key(g, m, ended) + 2)
                    n = self._add(n, f, a + extra, num[f], k)
                    continue
                m = self._lander((a + num[f]) % SPACES)
                if m >= 0 and m != f and self._mover_key(g, m, ended) > k:
                    # moved, then a later mover landed on it and displaced it (H9)
                    n = self._add(n, f, a, num[f], k)
                    n = self._add(n, f, a + num[f], extra, self._mover_key(g, m, ended) + 2)
                    continue
            n = self._add(n, f, a, steps, k)
        for i in range(n):  # the rules' order (a few items: a plain selection sort)
            j = i
            for m in range(i + 1, n):
                if key[m] < key[j]:
                    j = m
            if j != i:
                key[i], key[j] = key[j], key[i]
                self.fig[i], self.fig[j] = self.fig[j], self.fig[i]
                self.frm[i], self.frm[j] = self.frm[j], self.frm[i]
                self.steps[i], self.steps[j] = self.steps[j], self.steps[i]
        ms = STEP_MS
        if total > 1 and (total - 1) * ms > BUDGET_MS:
            ms = BUDGET_MS // (total - 1)
        self.step_ms = ms
        t = now
        for i in range(n):  # the first step of each walk one step after the last one's
            self.start[i] = t
            t += self.steps[i] * ms
        self.end = t - ms
        self.n = n

    # ------------------------------------------------------------ a frame

    def place(self, g, now):
        """Where each figure's light is at `now` (a list of 5, -1: none), read by the view;
        allocates nothing."""
        sh = self.shown
        for f in range(FIGS):
            sh[f] = at(g, f)
        ms = self.step_ms
        seen = 0  # the figures with an earlier walk (bits): a later one waits at its end
        for i in range(self.n):
            f = self.fig[i]
            t = now - self.start[i]
            if t < 0:
                if not seen & (1 << f):
                    sh[f] = self.frm[i]  # its turn has not come: still on its old space
            else:
                k = t // ms + 1
                sh[f] = (self.frm[i] + (k if k < self.steps[i] else self.steps[i])) % SPACES
            seen |= 1 << f
        return sh

    def walking(self, i, now):
        """Whether walk `i` has started at `now` (the view paints those last)."""
        return now >= self.start[i]
