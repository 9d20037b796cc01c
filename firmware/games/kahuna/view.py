"""Kahuna's view: game state + referee state + clock -> one frame of LED colours, painted
through the platform's frame engine (`core.frame`: brightness, current limit, the
refusal flash and the private tap's acknowledgement).

Islands and bridges in their owners' colours, blinking options (removals in a colour of
their own), the pulsing pending card, the scoring and winner animations, the blinks of
the other table's move (a remote game), and the status pixels: whose turn, the phase. A
frame allocates nothing in the steady state.
"""

from core import frame as fr
from core import outcome as oc
from core.frame import MA_PER_CHANNEL  # noqa: F401  (the view's figure for the tests)
from games.kahuna import referee as ref
from games.kahuna import rules
from games.kahuna import settings as kahunasettings
from games.kahuna.rules import BLACK, NOBODY, WHITE

SCORING_MS = 1800  # the scoring animation at a round end
BLINK_MS = 500  # period of the blinking options
BLINK_ON_MS = BLINK_MS * 3 // 5  # ... lit for the first 300 ms of each
SCORING_TURN_MS = 300  # the scoring animation: each player's islands in turn, this long
STANDS_MS = 1 << 20  # a frame with nothing timed in it: composed again after 17 min at most
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
    "takeback": (0, 200, 255),  # a takeback: its step's bridges and cards, the phase pixel
    "moved": (255, 255, 120),  # the other table's move (a remote game): what it touched
}


class View:
    def __init__(self, board):
        self.board = board
        self.f = fr.Frame(board, DEFAULTS)
        self.frame = self.f.buf  # the frame the strip shows (the link sends it too)
        self.colours = self.f.colours
        self.player = (self.colours["white"], self.colours["black"])
        st = board.status_leds
        self.led_turn = (st.get("turn_white", -1), st.get("turn_black", -1))
        self.led_phase = st.get("phase", -1)
        self.led_error = st.get("error", -1)
        c = self.colours
        self.phase_colour = {rules.DEAL: c["phase_deal"], rules.HANDICAP: c["phase_handicap"],
                             rules.PLAY: c["phase_play"], rules.DRAW: c["phase_draw"]}
        self.scoring_at = -1  # ms of the caller's clock; -1 when not running
        self.hint_conns = ()  # the solo game's hint, lit only once the player asked
        self.hint_islands = ()

    @property
    def last_ma(self):
        return self.f.last_ma

    # -------------------------------------------------------------- events

    def note(self, outcome, now):
        """Start the animations an event's core.outcome.Outcome calls for."""
        self.f.note(outcome, now)
        if outcome.kind == oc.ROUND_END:
            self.scoring_at = now

    def reset(self):
        """A new game: no animation left over."""
        self.f.reset()
        self.scoring_at = -1

    def still(self, game, referee, now):
        """Asked right after the frame for `now` was composed: until when (ms) it stays the
        same if the game and the referee do not change (core.app then writes it again
        without composing it): the next half of a blink (the options, a takeback's phase
        pixel, a refusal's flash, the other table's move), the scoring animation's next
        turn, the end of a private tap's acknowledgement; else STANDS_MS from now (until
        they change, as good as). None: it changes with the next frame (a pending card
        pulses, the winner breathes)."""
        if game.phase == rules.OVER or referee.pending:
            return None
        if fr.running(self.scoring_at, SCORING_MS, now):
            t = now + SCORING_TURN_MS - (now - self.scoring_at) % SCORING_TURN_MS
        elif referee.options or referee.taking_back():
            t = now - now % BLINK_MS  # this blink's start: lit for its first BLINK_ON_MS
            t += BLINK_ON_MS if now - t < BLINK_ON_MS else BLINK_MS
        else:
            t = now + STANDS_MS
        return self.f.changes(now, t)

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
        scoring = fr.running(self.scoring_at, SCORING_MS, now)
        # Base: bridges in their owner's colour, islands in their controller's (written
        # here rather than through Frame.put: a frame's most pixels, on the hot path).
        buf = self.f.buf
        player = self.player
        free = c["free"]
        owners = game.bridges
        leds = b.conn_led
        for k in range(len(leds)):
            j = leds[k]
            if j >= 0:
                o = owners[k]
                col = free if o == NOBODY else player[o]
                j *= 3
                buf[j] = col[0]
                buf[j + 1] = col[1]
                buf[j + 2] = col[2]
        free = c["uncontrolled"]
        owners = game.control
        leds = b.island_led
        for i in range(len(leds)):
            j = leds[i]
            if j >= 0:
                o = owners[i]
                col = free if o == NOBODY else player[o]
                j *= 3
                buf[j] = col[0]
                buf[j + 1] = col[1]
                buf[j + 2] = col[2]
        if scoring:
            self._scoring(game, now - self.scoring_at)
        elif over:
            self._winner(game, now)
        else:
            self._options(game, referee, now)
            for k in self.hint_conns:
                self.f.put(b.conn_led[k], c["hint"])
            for i in self.hint_islands:
                self.f.put(b.island_led[i], c["hint"])
        if highlight >= 0:
            level = 64 + (fr.triangle(now, PULSE_MS) * 3 >> 2)
            self.f.put(b.island_led[highlight], c["pending"], level)
        self._status(game, referee, now, fault)
        if not scoring and not over and referee.taking_back():
            self._takeback(game, now)
        if self.f.moved_on(now):  # the other table's move: three blinks of its places
            self._places(self.f.moved_where, c["moved"])
        if self.f.error_on(now):
            # Three blinks of the pixels involved and the error status pixel.
            self._places(self.f.error_where.places, c["error"])
            self.f.put(self.led_error, c["error"])
        return self.f.limit()

    def _places(self, places, colour):
        b = self.board
        for kind, i in places:
            self.f.put(b.island_led[i] if kind == ref.ISLAND else b.conn_led[i], colour)

    def _options(self, game, referee, now):
        b = self.board
        c = self.colours
        on = (now % BLINK_MS) < BLINK_ON_MS
        for idx in range(len(referee.options)):
            kind, k = referee.options[idx]
            if idx == referee.sel:
                # The highlighted option: steady, so it stands out from the blinking ones.
                colour = c["option_remove"] if kind == ref.REMOVE else c["option_place"]
                self.f.put(b.conn_led[k], colour)
            elif on:
                self.f.put(b.conn_led[k], c["option_remove"] if kind == ref.REMOVE
                          else self.player[game.turn])
        if referee.picked != NOBODY:
            self.f.put(b.conn_led[referee.picked], c["option_remove"])
        if referee.pending:
            level = 64 + (fr.triangle(now, PULSE_MS) * 3 >> 2)
            for card in referee.pending:
                self.f.put(b.island_led[card // 2], c["pending"], level)

    def _takeback(self, game, now):
        """A takeback: the phase pixel blinks in its colour; while the table is walked
        through, the step's bridges and face-up cards' islands blink with it. A step
        about a hidden card lights no island (the same for any card)."""
        from games.kahuna import takeback  # loaded: a takeback is under way
        b = self.board
        colour = self.colours["takeback"] if (now % BLINK_MS) < BLINK_ON_MS else None
        if colour is None:
            self.f.put(self.led_phase, self.colours["off"])
            return
        self.f.put(self.led_phase, colour)
        step = takeback.current(game)
        if step is not None:
            for k in step[1]:
                self.f.put(b.conn_led[k], colour)
            for i in step[2]:
                self.f.put(b.island_led[i], colour)

    def _scoring(self, game, t):
        """Round end: each player's islands flash in turn, white then black."""
        b = self.board
        show = WHITE if (t // SCORING_TURN_MS) % 2 == 0 else BLACK
        for i in range(len(b.island_led)):
            o = game.control[i]
            self.f.put(b.island_led[i], self.player[o] if o == show else self.colours["off"])

    def _winner(self, game, now):
        """Game over: the winner's islands and bridges breathe; a draw alternates."""
        b = self.board
        w = game.winner
        if w == "draw":
            who = WHITE if (now // 700) % 2 == 0 else BLACK
        else:
            who = kahunasettings.player_index(w)
        level = 48 + (fr.triangle(now, 1400) * 13 >> 4)
        for i in range(len(b.island_led)):
            if game.control[i] == who:
                self.f.put(b.island_led[i], self.player[who], level)
        for k in range(len(b.conn_led)):
            if game.bridges[k] == who:
                self.f.put(b.conn_led[k], self.player[who], level)

    def _status(self, game, referee, now, fault):
        c = self.colours
        ph = game.phase
        for p in range(2):  # WHITE, BLACK (a tuple of names would be built each frame)
            self.f.put(self.led_turn[p], self.player[p] if game.turn == p and ph != rules.OVER
                      else c["off"])
        if referee.discarding:
            colour = c["phase_discard"]
        elif game.final_turns and ph == rules.PLAY:
            colour = c["phase_final"]
        elif ph == rules.OVER:
            colour = c["off"] if game.winner == "draw" else self.player[
                kahunasettings.player_index(game.winner)]
        else:
            colour = self.phase_colour[ph]
        level = 256
        if self.f.acking(now):
            level = 40  # a private tap: one dip of the phase pixel, the same for any card
        self.f.put(self.led_phase, colour, level)
        # A missing card reader: the error pixel blinks slowly until it answers again.
        fault_on = fault and (now // 500) % 2 == 0
        self.f.put(self.led_error, c["error"] if fault_on else c["off"])
