"""Halunken & Spelunken's view: game state + controller + clock -> one frame of LED
colours (docs/halunken.md, lights H30, H31; section 8.1), painted through the platform's
frame engine (`core.frame`: brightness, current limit, the refusal flash, the private
tap's acknowledgement).

    space light   the figure on the space: a captain in its seat's colour, Black-Jack in
                  his, off when vacant; the cursor of an option list blinks on its space
    pile light    cards left: 3, 2, 1 as three levels of the pile white, off when empty;
                  never the cards themselves (8.3); at a table, the pile a take is
                  awaited from blinks white
    seat light    the seat's part in the step (8.1's table)
    port          off when empty, dim white with cards; the high bidder's colour during
                  an auction
    round lights  rounds played steady, the current one dim

Nothing here reads a secret choice beyond "this figure has chosen", nor any pile's cards:
frames depend on public information only. A frame allocates nothing in the steady state.
"""

from core import frame as fr
from games.halunken import controller as ctl
from games.halunken import walks as wk
from games.halunken.moves import LAND
from games.halunken.rules import BJ

BLINK_MS = 500  # period of a blinking light (the cursor, a victim's seat)
PULSE_MS = 1000  # period of a pulsing light (the seat to act)
PILE_LEVELS = (0, 40, 110, 256)  # a pile of 0..3 cards (H30)
DIM = 48  # a seat that passed; the port holding cards; the round being played
ACK_LEVEL = 40  # a private tap's acknowledgement: one dip of the seat lights, any card

# Colours the board definition may leave out (board_def/halunken.json has them all).
DEFAULTS = {
    "p1": (255, 90, 0), "p2": (0, 200, 40), "p3": (0, 70, 255), "p4": (220, 0, 200),
    "blackjack": (0, 200, 200), "pile": (180, 180, 160), "port": (180, 180, 160),
    "round": (255, 180, 0), "cursor": (255, 255, 255), "cancelled": (255, 255, 255),
    "error": (255, 0, 0), "off": (0, 0, 0),
}


class View:
    def __init__(self, board):
        self.board = board
        self.f = fr.Frame(board, DEFAULTS)
        self.frame = self.f.buf  # the frame the strip shows (the link sends it too)
        c = self.colours = self.f.colours
        self.palette_seats = (c["p1"], c["p2"], c["p3"], c["p4"])
        self.seat_colour = self.palette_seats
        self._colour_src = None  # the game's `colours` setting the seat colours follow
        self._over_game = None  # the game whose winners are cached (a frame allocates
        self._winners = ()  # nothing, and scores would)
        self.walks = wk.Walks()  # the figures' lights stepping along the ring (8.2)

    @property
    def last_ma(self):
        return self.f.last_ma

    def note(self, outcome, now):
        """Start the animations an event's core.outcome.Outcome calls for."""
        self.f.note(outcome, now)
        self.walks.cut()  # any event: the walks end at once, the lights never lag

    def reset(self):
        self.f.reset()
        self._over_game = None
        self.walks.reset()

    def busy(self, now):
        return self.f.erroring(now) or self.f.acking(now) or self.walks.busy(now)

    def hold_solo(self, now):
        """The board's players wait while a figure walks (8.2): their next event would end
        the walk at once, and the players at the table could not follow the move."""
        return self.walks.busy(now)

    def figure_colour(self, fig):
        return self.colours["blackjack"] if fig == BJ else self.seat_colour[fig]

    # -------------------------------------------------------------- render

    def render(self, game, controller, now, highlight=-1, fault=False, solo=None):
        """Compose the frame for time `now` (ms) and return it. `highlight`: the place
        to pulse whatever the game (card enrolment, game.enroll_place: a seat, -2 the
        port, -1 none); `fault`: the card reader is missing (the
        port light blinks red slowly); `solo`: the board's own player (none yet)."""
        b = self.board
        c = self.colours
        f = self.f
        g = game
        self._seat_colours(getattr(g, "colours", None))
        off = c["off"]
        blink = (now % BLINK_MS) < (BLINK_MS * 3 // 5)
        pulse = 64 + (fr.triangle(now, PULSE_MS) * 3 >> 2)
        for t in range(len(b.space_led)):
            f.put(b.space_led[t], off)
            f.put(b.pile_led[t], c["pile"], PILE_LEVELS[min(3, len(g.piles[t]))])
        self._figures(g, now)
        self._port(g)
        self._rounds(g)
        self._seats(g, now, blink, pulse)
        self._step(g, controller, blink, pulse)
        if highlight != -1:  # game.enroll_place: a seat, or -2 for the port
            f.put(b.port_led if highlight < 0 else b.seat_led[highlight], c["cursor"], pulse)
        if fault and (now // 500) % 2 == 0:
            f.put(b.port_led, c["error"])
        if f.error_on(now):
            for kind, i in f.error_where.places:
                f.put(self._led(kind, i), c["error"])
        return f.limit()

    def _figures(self, g, now):
        """Each figure's light where its walk has it (walks.py): the figures standing
        first, then those walking, in their walks' order (an arriving figure shows over
        the one it displaces, until that one steps away)."""
        w = self.walks
        w.look(g, now)
        sh = w.place(g, now)
        sp = self.board.space_led
        for fig in range(5):
            if sh[fig] < 0:
                continue
            started = False
            for i in range(w.n):
                if w.fig[i] == fig and w.walking(i, now):
                    started = True
            if not started:
                self.f.put(sp[sh[fig]], self.figure_colour(fig))
        for i in range(w.n):
            fig = w.fig[i]
            if w.walking(i, now) and sh[fig] >= 0:
                self.f.put(sp[sh[fig]], self.figure_colour(fig))
        top = self._arrived(g)  # landed on a figure that is not displaced yet (H9)
        if top >= 0 and sh[top] >= 0:
            self.f.put(sp[sh[top]], self.figure_colour(top))

    def _arrived(self, g):
        """The figure that landed on an occupied space whose occupant is not displaced
        yet (its take at a table, its theft: H9, H24, H26), or -1: that space shows the
        figure that arrived, the occupant's seat light says the rest (8.2)."""
        if g.step == "steal" and g.pending is not None:
            return g.pending["mover"]
        if g.step == "take" and g.taking is not None and g.taking[2] == LAND:
            return g.taking[0]
        return -1

    def _seat_colours(self, src):
        """H31: the seats' colours from the game's settings over the palette (computed
        when the game's setting changes, so a frame allocates nothing)."""
        if src is self._colour_src:
            return
        self._colour_src = src
        base = self.palette_seats
        if src is None:
            self.seat_colour = base
            return
        cols = []  # a loop, not a generator: its closure's cells would cost every frame
        for s in range(4):
            cols.append(base[s] if src[s] is None else self.f.scaled(src[s]))
        self.seat_colour = tuple(cols)

    def _led(self, kind, i):
        b = self.board
        if kind == ctl.SPACE:
            return b.space_led[i]
        if kind == ctl.PILE:
            return b.pile_led[i]
        if kind == ctl.SEAT:
            return b.seat_led[i]
        return b.port_led

    def _port(self, g):
        b = self.board
        c = self.colours
        a = g.auction
        if g.step == "auction" and a is not None and a["seat"] >= 0:
            self.f.put(b.port_led, self.seat_colour[a["seat"]])  # the high bidder
        elif g.port:
            self.f.put(b.port_led, c["port"], DIM)
        else:
            self.f.put(b.port_led, c["off"])

    def _rounds(self, g):
        b = self.board
        c = self.colours
        played = 8 if g.is_over() else max(0, g.round - 1)
        for r in range(len(b.round_led)):
            if r < played:
                self.f.put(b.round_led[r], c["round"])
            elif r == played and g.round > 0 and not g.is_over():
                self.f.put(b.round_led[r], c["round"], DIM)
            else:
                self.f.put(b.round_led[r], c["off"])

    def _seats(self, g, now, blink, pulse):
        """8.1's seat lights, step by step."""
        b = self.board
        f = self.f
        off = self.colours["off"]
        for s in range(len(b.seat_led)):
            f.put(b.seat_led[s], off)
        st = g.step
        cols = self.seat_colour
        if g.is_over():
            if self._over_game is not g:
                self._over_game = g
                # H16: a match's last game lights the winners by total
                self._winners = tuple(getattr(g, "end_winners", g.winners)())
            for s in self._winners:
                f.put(b.seat_led[s], cols[s], pulse)
            return
        if st == "auction":
            a = g.auction
            for w in a["words"]:
                if w[1] < 0:
                    f.put(b.seat_led[w[0]], cols[w[0]], DIM)  # passed
            if a["seat"] >= 0:
                f.put(b.seat_led[a["seat"]], cols[a["seat"]])  # the high bidder
            if a["speaker"] >= 0:
                f.put(b.seat_led[a["speaker"]], cols[a["speaker"]], pulse)
            return
        if st == "choose" or st == "reveal":
            level = ACK_LEVEL if self.f.acking(now) else 256
            for s in range(g.players):
                if g.choices[s] >= 0 and (st == "choose" or blink):
                    f.put(b.seat_led[s], cols[s], level)  # chosen: steady; reveal: blink
            if st == "choose":
                s = ctl.expected_seat(g)
                if s >= 0:
                    f.put(b.seat_led[s], cols[s], pulse * level >> 8)
            return
        if st == "rob":
            w = g.winner_seat()
            if w >= 0:
                f.put(b.seat_led[w], cols[w])
            if blink:
                v = g.robs[0][0]
                f.put(b.seat_led[v], cols[v])
            return
        s = ctl.expected_seat(g)
        if s >= 0:
            f.put(b.seat_led[s], cols[s], pulse)
        if st == "steal" and blink:
            for src in g.pending["from"]:
                if src >= 0:
                    f.put(b.seat_led[src], cols[src])  # the victim (8.2)

    def _step(self, g, controller, blink, pulse):
        """The option list's cursor, the revealed round's targets and cancellations."""
        b = self.board
        c = self.colours
        f = self.f
        st = g.step
        if (st == "place" or st == "place-bj") and controller.options and blink:
            f.put(b.space_led[controller.options[controller.sel]], c["cursor"])
        if st == "take" and blink:  # the pile the card is taken from (its count only)
            f.put(b.pile_led[g.taking[1]], c["cursor"])
        if st != "rum":
            return
        # After the reveal (section 8.2): cancelled figures' spaces pulse white, each
        # numbered mover's target blinks in its colour; the RUM's cursor shows its target.
        for fig in range(5):
            if fig >= g.players and fig != BJ:
                continue
            if g.cards[fig] < 0:
                continue
            where = g.where(fig)
            if where < 0:
                continue
            if g.cancelled[fig]:
                f.put(b.space_led[where], c["cancelled"], pulse)
            elif g.numbers[fig] > 0 and blink and not (fig == BJ and not g.bj_controlled()):
                f.put(b.space_led[(where + g.numbers[fig]) % 14], self.figure_colour(fig))
        if controller.options and blink:
            where = g.where(g.rum_owner)
            n = controller.options[controller.sel]
            f.put(b.space_led[(where + n) % 14], c["cursor"])


def pile_level(cards):
    """The level of a pile light for `cards` left (0..3)."""
    return PILE_LEVELS[min(3, cards)]
