"""The view: game state + referee state + clock -> one frame of LED colours.

The frame is a bytearray of R, G, B per pixel in strip order (the LED driver reorders to
the strip's byte order). Colours are the board definition's palette, pre-scaled by its
brightness; a current limiter then scales the whole frame so the estimated draw (about
20 mA per colour channel at full level, per pixel) stays under `max_current_ma`.

Only small integers are used while composing, into buffers made once, so a frame
allocates nothing on the MicroPython heap in the steady state.
"""

from core import outcome as oc
from games.kahuna import referee as ref
from games.kahuna import rules
from games.kahuna.rules import BLACK, NOBODY, WHITE

MA_PER_CHANNEL = 20  # estimated draw of one colour channel at full level, in mA

ERROR_MS = 600  # an error flash: three blinks
ACK_MS = 250  # the acknowledgement of a private tap (deal, draw, discard)
SCORING_MS = 1800  # the scoring animation at a round end
BLINK_MS = 500  # period of the blinking options
PULSE_MS = 1000  # period of the pending island's pulse

# Colours the board definition may leave out.
DEFAULTS = {
    "free": (24, 14, 0),
    "uncontrolled": (0, 0, 0),
    "error": (255, 0, 0),
    "option_place": (0, 255, 0),
    "option_remove": (255, 40, 0),
    "pending": (255, 160, 0),
    "phase_deal": (80, 80, 0),
    "phase_handicap": (120, 0, 120),
    "phase_play": (0, 160, 0),
    "phase_draw": (0, 120, 160),
    "phase_discard": (160, 60, 0),
    "phase_final": (200, 0, 60),
    "off": (0, 0, 0),
    "hint": (150, 60, 255),  # the move the AI would make in the player's place (asked)
}


class View:
    def __init__(self, board):
        self.board = board
        self.n = board.led_count
        self.frame = bytearray(3 * self.n)
        scale = int(board.brightness * 256 + 0.5)
        self.colours = {}
        for name in DEFAULTS:
            self.colours[name] = self._scaled(board.palette.get(name, DEFAULTS[name]), scale)
        for name in board.palette:
            self.colours[name] = self._scaled(board.palette[name], scale)
        self.player = (self.colours["white"], self.colours["black"])
        self.limit_total = board.max_current_ma * 255 // MA_PER_CHANNEL
        st = board.status_leds
        self.led_turn = (st.get("turn_white", -1), st.get("turn_black", -1))
        self.led_phase = st.get("phase", -1)
        self.led_error = st.get("error", -1)
        c = self.colours
        self.phase_colour = {rules.DEAL: c["phase_deal"], rules.HANDICAP: c["phase_handicap"],
                             rules.PLAY: c["phase_play"], rules.DRAW: c["phase_draw"]}
        # Animation clocks, in ms of the caller's clock; -1 when not running.
        self.error_at = -1
        self.ack_at = -1
        self.scoring_at = -1
        self.error_islands = ()
        self.error_conns = ()
        self.hint_conns = ()  # the solo game's hint, lit only once the player asked
        self.hint_islands = ()
        self.last_ma = 0  # estimated draw of the last frame, after limiting

    @staticmethod
    def _scaled(rgb, scale):
        return bytes(min(255, (int(v) * scale) >> 8) for v in rgb)

    # -------------------------------------------------------------- events

    def note(self, outcome, now):
        """Start the animations an event's core.outcome.Outcome calls for."""
        kind = outcome.kind
        if kind == oc.REFUSED:
            self.error_at = now
            self.error_islands = outcome.islands
            self.error_conns = outcome.conns
        elif kind == oc.ROUND_END:
            self.scoring_at = now
        elif kind != oc.NEW_GAME and outcome.private:
            self.ack_at = now

    def reset(self):
        """A new game: no animation left over."""
        self.error_at = self.ack_at = self.scoring_at = -1

    def busy(self, now):
        """True while a timed animation runs (the game-over display is not timed)."""
        return (self._running(self.error_at, ERROR_MS, now)
                or self._running(self.ack_at, ACK_MS, now)
                or self._running(self.scoring_at, SCORING_MS, now))

    @staticmethod
    def _running(start, length, now):
        return start >= 0 and now - start < length

    # -------------------------------------------------------------- pixels

    def _put(self, led, colour, level=256):
        if led < 0:
            return
        f = self.frame
        j = 3 * led
        if level >= 256:
            f[j] = colour[0]
            f[j + 1] = colour[1]
            f[j + 2] = colour[2]
        else:
            f[j] = (colour[0] * level) >> 8
            f[j + 1] = (colour[1] * level) >> 8
            f[j + 2] = (colour[2] * level) >> 8

    @staticmethod
    def _triangle(now, period):
        """0..256..0 over one period."""
        t = now % period
        half = period >> 1
        if t < half:
            return (t * 256) // half
        return ((period - t) * 256) // half

    # -------------------------------------------------------------- render

    def render(self, game, referee, now, highlight=-1, fault=False, solo=None):
        """Compose the frame for time `now` (ms) and return it. `highlight`: an island to
        pulse whatever the game (card enrollment); `fault`: a device is missing (the card
        reader), the error pixel blinks; `solo`: the board's own player, whose hint (once
        the player asked for it) is lit."""
        if solo is not None:
            self.hint_conns, self.hint_islands = solo.hint_move()
        b = self.board
        c = self.colours
        over = game.phase == rules.OVER
        scoring = self._running(self.scoring_at, SCORING_MS, now)
        # Base: bridges in their owner's colour, islands in their controller's.
        for k in range(len(b.conn_led)):
            o = game.bridges[k]
            self._put(b.conn_led[k], c["free"] if o == NOBODY else self.player[o])
        for i in range(len(b.island_led)):
            o = game.control[i]
            self._put(b.island_led[i], c["uncontrolled"] if o == NOBODY else self.player[o])
        if scoring:
            self._scoring(game, now - self.scoring_at)
        elif over:
            self._winner(game, now)
        else:
            self._options(game, referee, now)
            for k in self.hint_conns:
                self._put(b.conn_led[k], c["hint"])
            for i in self.hint_islands:
                self._put(b.island_led[i], c["hint"])
        if highlight >= 0:
            level = 64 + (self._triangle(now, PULSE_MS) * 3 >> 2)
            self._put(b.island_led[highlight], c["pending"], level)
        self._status(game, referee, now, fault)
        if self._running(self.error_at, ERROR_MS, now):
            # Three blinks of the pixels involved and the error status pixel.
            if ((now - self.error_at) * 6 // ERROR_MS) % 2 == 0:
                for i in self.error_islands:
                    self._put(b.island_led[i], c["error"])
                for k in self.error_conns:
                    self._put(b.conn_led[k], c["error"])
                self._put(self.led_error, c["error"])
        self._limit()
        return self.frame

    def _options(self, game, referee, now):
        b = self.board
        c = self.colours
        on = (now % BLINK_MS) < (BLINK_MS * 3 // 5)
        for idx in range(len(referee.options)):
            kind, k = referee.options[idx]
            if idx == referee.sel:
                # The highlighted option: steady, so it stands out from the blinking ones.
                colour = c["option_remove"] if kind == ref.REMOVE else c["option_place"]
                self._put(b.conn_led[k], colour)
            elif on:
                self._put(b.conn_led[k], c["option_remove"] if kind == ref.REMOVE
                          else self.player[game.turn])
        if referee.picked != NOBODY:
            self._put(b.conn_led[referee.picked], c["option_remove"])
        if referee.pending:
            level = 64 + (self._triangle(now, PULSE_MS) * 3 >> 2)
            for card in referee.pending:
                self._put(b.island_led[card // 2], c["pending"], level)

    def _scoring(self, game, t):
        """Round end: each player's islands flash in turn, white then black."""
        b = self.board
        show = WHITE if (t // 300) % 2 == 0 else BLACK
        for i in range(len(b.island_led)):
            o = game.control[i]
            self._put(b.island_led[i], self.player[o] if o == show else self.colours["off"])

    def _winner(self, game, now):
        """Game over: the winner's islands and bridges breathe; a draw alternates."""
        b = self.board
        w = game.winner
        if w == "draw":
            who = WHITE if (now // 700) % 2 == 0 else BLACK
        else:
            who = rules.player_index(w)
        level = 48 + (self._triangle(now, 1400) * 13 >> 4)
        for i in range(len(b.island_led)):
            if game.control[i] == who:
                self._put(b.island_led[i], self.player[who], level)
        for k in range(len(b.conn_led)):
            if game.bridges[k] == who:
                self._put(b.conn_led[k], self.player[who], level)

    def _status(self, game, referee, now, fault):
        c = self.colours
        ph = game.phase
        for p in range(2):  # WHITE, BLACK (a tuple of names would be built each frame)
            self._put(self.led_turn[p], self.player[p] if game.turn == p and ph != rules.OVER
                      else c["off"])
        if referee.discarding:
            colour = c["phase_discard"]
        elif game.final_turns and ph == rules.PLAY:
            colour = c["phase_final"]
        elif ph == rules.OVER:
            colour = c["off"] if game.winner == "draw" else self.player[
                rules.player_index(game.winner)]
        else:
            colour = self.phase_colour[ph]
        level = 256
        if self._running(self.ack_at, ACK_MS, now):
            level = 40  # a private tap: one dip of the phase pixel, the same for any card
        self._put(self.led_phase, colour, level)
        # A missing card reader: the error pixel blinks slowly until it answers again.
        fault_on = fault and (now // 500) % 2 == 0
        self._put(self.led_error, c["error"] if fault_on else c["off"])

    def _limit(self):
        """Scale the frame so the estimated current stays under the board's limit."""
        f = self.frame
        total = 0
        for v in f:
            total += v
        if total > self.limit_total:
            lim = self.limit_total
            for j in range(len(f)):
                f[j] = f[j] * lim // total
            total = 0
            for v in f:
                total += v
        self.last_ma = total * MA_PER_CHANNEL // 255
