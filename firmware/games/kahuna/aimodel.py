"""The AI's search game (games.kahuna.ai): a private rules game loaded from an observation
(`Model.load`, the hidden cards dealt at random from the unseen ones with its own seeded
PRNG, `Rng`) and the evaluation of a position (`Model.score`, `Model.hand_value`), with its
weights. The evaluation is not symmetric: after our turn the opponent moves, so its islands
within reach weigh more than ours, most of all an island one bridge short (R1) that a card
of its hand (as dealt for the search: the cards it took face up and random unseen ones) can
complete. Plays through the rules engine's public API only.

`Model.score` runs once per unit of the search: on the board it is machine code
(`@micropython.native`, compiled for the board's CPU by make flash), which halves a
decision's time on the RP2040 (the game's first decision, 205 units: 1.74 s of bytecode,
0.80 s with it and the fingerprint native; README, "On the chip"); the same functions,
the same results, as bytecode on the page and as plain Python on CPython
(core.plainpython)."""

try:
    import micropython
except ImportError:  # CPython (core.plainpython): the same code, not compiled
    from core import plainpython as micropython

from games.kahuna import rules
from games.kahuna import settings as kahunasettings

# Evaluation weights (points of the evaluation; an island controlled is worth CTRL).
CTRL = 100
SLACK = 10  # per bridge above the majority on a controlled island (safety against removal)
EXACT = 14  # a controlled island held by the bare majority can be broken by one Remove
PROG = (0, 60, 32, 16, 6, 0, 0)  # uncontrolled island still within reach, by bridges missing
BRIDGE = 3  # per bridge on the board (R6 tie-break, and fewer bridges removed at take-over)
CARD = 11  # per card in hand: a card is a future bridge
DEAD_CARD = 2  # per card whose island offers nothing now
WIN = 100000  # R7: an early win
# The opponent's uncontrolled islands within reach count more: it moves next (tempo).
OPP_PROG = (0, 70, 40, 16, 6, 0, 0)
REACH = 50  # an opponent's one-short island that a card of its hand can complete
DENY = 30  # percent of a display card's worth to the opponent counted when choosing a draw
FULL = 0xFFFFFFFF
_NOBODY = rules.NOBODY


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


def bits(mask, n):
    return [c for c in range(n) if mask >> c & 1]


class Model:
    """A private rules game loaded from an observation, and the evaluation."""

    def __init__(self, board, variant, tables=True, names=None):
        """`tables` False: the evaluation's tables are made by a later `tables()` (the AI
        builds its model in the slices of its thinking, a piece at a time); `names`: the
        card names and their index of the table's game, shared (kahunasettings.Settings)."""
        self.board = board
        self.game = rules.Game(kahunasettings.Settings(board, variant, names=names))
        self.game.undoable = False  # the search never undoes: no state copy per move
        self.alt = variant == kahunasettings.ALTERNATIVE  # a model is for one variant
        self.n = len(board.islands)
        self.n_cards = 2 * self.n
        self.me = 0
        self.held = 0  # the islands of the opponent's cards as dealt (a bit mask)
        if tables:
            for _ in self.tables():
                pass

    def tables(self):
        """The board's tables the evaluation reads (a generator: two pieces, `None`
        between them, when `tables=False` left them for later)."""
        board = self.board
        self.iconns = [tuple(ks) for ks in board.island_conns]
        self.need = [len(ks) // 2 + 1 for ks in board.island_conns]  # R1
        yield
        # The island at the other end of each of an island's connections.
        self.others = [tuple(board.conn_ends[k][1] if board.conn_ends[k][0] == i
                             else board.conn_ends[k][0] for k in ks)
                       for i, ks in enumerate(board.island_conns)]

    def load(self, obs, rng):
        """Set the game to the observation; the unseen cards are dealt at random (`rng`;
        None: not yet, `deal_hidden` deals them): the opponent's unknown cards to their
        hand, the others to the deck."""
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
        for c in bits(obs.seen, self.n_cards):
            place[c] = rules.DISCARD
        for c in bits(obs.opp_known, self.n_cards):
            place[c] = 1 - me
        g.place = place
        self.unseen = [c for c in range(self.n_cards)
                       if place[c] == rules.DRAWABLE and c not in obs.display]
        self.opp_unknown = max(0, obs.opp_count - popcount(obs.opp_known))
        if rng is not None:
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
        self.held = self.islands_held(1 - self.me)

    @micropython.native
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
        alt = self.alt
        others = self.others
        nb = 0
        # The islands of the opponent's cards as dealt (only our own cards move in the
        # beam; the search refreshes it after each action of a reply).
        held = self.held if opp != self.me else self.islands_held(opp)
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
            nb += a - b
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
                    s -= OPP_PROG[m - b]
                    if m - b == 1:
                        # The opponent moves next: a one-short island its hand can
                        # complete is nearly lost (its hand as dealt for this search).
                        if self.reach(i, held, me):
                            s -= REACH
        # Every bridge was counted at both its ends: nb is twice the bridges' difference.
        s += BRIDGE * (nb >> 1)
        if cards_count and not g.final_turns:
            s += self.hand_value(me)
        return s

    def reach(self, i, isl, other):
        """Whether a hand holding cards of the islands in mask `isl` can place a bridge
        on island i now (a card of i, or of the other end of a free connection)."""
        g = self.game
        bridges = g.bridges
        alt = self.alt
        control = g.control
        js = self.others[i]
        ks = self.iconns[i]
        here = isl >> i & 1
        for x in range(len(ks)):
            if bridges[ks[x]] != _NOBODY:
                continue
            j = js[x]
            if alt and control[j] == other:
                continue
            if here or isl >> j & 1:
                return True
        return False

    def islands_held(self, p):
        """The islands of the cards `p` holds, as a bit mask."""
        place = self.game.place
        m = 0
        for c in range(self.n_cards):
            if place[c] == p:
                m |= 1 << (c >> 1)
        return m

    def hand_value(self, me):
        """CARD per card that can still act (its island has a free connection open to us
        or an opponent bridge to remove), DEAD_CARD per card that cannot."""
        g = self.game
        place = g.place
        bridges = g.bridges
        control = g.control
        ends = self.board.conn_ends
        alt = self.alt
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
                if o == _NOBODY:
                    a, b = ends[k]
                    if not alt or (control[a] != opp and control[b] != opp):
                        live = True
                        break
            v += CARD if live else DEAD_CARD
        return v


def popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n
