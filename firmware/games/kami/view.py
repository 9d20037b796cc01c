"""Kami's view: game state + controller + clock -> one frame of LED colours (rules section
8.1, K19; docs/kami.md "On the board"), painted through the platform's frame engine
(`core.frame`: brightness, current limit, the refusal flash, the private tap's
acknowledgement).

    seat light      pulsing: this seat acts; steady: the current attacker; dim: passed
                    since the current attack; off: other. In a claim's first step the
                    highlighted claimant blinks in the cursor colour. Seats in their own
                    colour in 2 and 3 players, their team's in 4 (partners share one).
    defence light   the seat's last defence: blue face down, white face up, off when none
                    this round (a face-down defence: one blink, the same for every card)
    Empress light   lit while an Empress attack is unlocked (K4, K5)
    centre lights   2 players: bright, a face-up card with a hidden card below; dim, the
                    stack's last card; off, empty; blinking, the stack whose face-up card
                    is to be tapped (the centre laid out, a card turned up: step reveal)
    score tracks    one light per point in the side's colour; after a round the winner's
                    track fills up point by point (double speed for a master stroke, K8);
                    at the game's end the winning side's seats and track pulse

Every light follows from public information (8.3): face-down cards only as "face down",
hands only as sizes (not even those: no light shows a size). Nothing here reads a card of
a hand, of a face-down defence, of a face-down centre card or of the 3-player aside. A
frame allocates nothing in the steady state.
"""

from core import frame as fr
from core import outcome as oc
from games.kami import controller as ctl

BLINK_MS = 500  # period of a blinking light (a stack to tap, the claim's cursor)
PULSE_MS = 1000  # period of a pulsing light (the seat to act)
DIM = 48  # a seat that passed; a stack's last card
FILL_MS = 300  # one point of a round's score filling up (half for a master stroke)

# Colours the board definition may leave out (board_def/kami.json has them all).
DEFAULTS = {
    "p1": (255, 90, 0), "p2": (0, 200, 40), "p3": (0, 70, 255), "p4": (220, 0, 200),
    "team1": (255, 90, 0), "team2": (0, 200, 40),
    "defence_down": (0, 40, 255), "defence_up": (255, 255, 255),
    "empress": (255, 0, 160), "centre": (255, 180, 0), "cursor": (255, 255, 255),
    "error": (255, 0, 0), "off": (0, 0, 0),
}


class View:
    def __init__(self, board):
        self.board = board
        self.f = fr.Frame(board, DEFAULTS)
        self.frame = self.f.buf  # the frame the strip shows (the link sends it too)
        c = self.colours = self.f.colours
        self.seat_colours = (c["p1"], c["p2"], c["p3"], c["p4"])
        self.team_colours = (c["team1"], c["team2"])
        self.round_at = -1  # when the last scored round's fill-up started (-1: none)

    @property
    def last_ma(self):
        return self.f.last_ma

    def note(self, outcome, now):
        """Start the animations an event's core.outcome.Outcome calls for."""
        self.f.note(outcome, now)
        if outcome.kind == oc.ROUND_END or outcome.kind == oc.GAME_OVER:
            self.round_at = now

    def reset(self):
        self.f.reset()
        self.round_at = -1

    def busy(self, now):
        return self.f.erroring(now) or self.f.acking(now) or self._filling(now)

    def _filling(self, now):
        return self.round_at >= 0 and now - self.round_at < FILL_MS * 15

    def side_colour(self, g, side):
        """A side's colour: its team's in 4 players, its seat's otherwise (8.1)."""
        return self.team_colours[side] if g.players == 4 else self.seat_colours[side]

    # -------------------------------------------------------------- render

    def render(self, game, controller, now, highlight=-1, fault=False, solo=None):
        """Compose the frame for time `now` (ms) and return it. `highlight`: a centre
        light to pulse whatever the game (card enrolment, game.enroll_place: the card's
        kind 0..7, -1 none); `fault`: the card reader is missing (the Empress light
        blinks red slowly); `solo`: the board's own player (none yet)."""
        b = self.board
        c = self.colours
        f = self.f
        g = game
        blink = (now % BLINK_MS) < (BLINK_MS * 3 // 5)
        pulse = 64 + (fr.triangle(now, PULSE_MS) * 3 >> 2)
        self._seats(g, controller, now, blink, pulse)
        f.put(b.empress_led, c["empress"] if g.empress_unlocked() else c["off"])
        self._centre(g, blink)
        self._tracks(g, now, pulse)
        if highlight >= 0:
            f.put(b.centre_led[highlight], c["cursor"], pulse)
        if fault and (now // 500) % 2 == 0:
            f.put(b.empress_led, c["error"])
        if f.error_on(now):
            for _kind, i in f.error_where.places:
                f.put(b.seat_led[i], c["error"])  # ctl.SEAT: the only kind of place
        return f.limit()

    def _seats(self, g, controller, now, blink, pulse):
        b = self.board
        c = self.colours
        f = self.f
        off = c["off"]
        over = g.is_over()
        acting = ctl.acting_seat(g)
        cursor = controller.cursor() if controller is not None else -1
        attacker = g.attack[0] if g.attack is not None else -1
        ack = f.acking(now) and (now - f.ack_at) * 2 < fr.ACK_MS
        for s in range(len(b.seat_led)):
            f.put(b.seat_led[s], off)
            f.put(b.defence_led[s], off)
            if s >= g.players:
                continue
            col = self.side_colour(g, g.side(s))
            if over:
                if g.side(s) == g.winner:
                    f.put(b.seat_led[s], col, pulse)
            elif s == cursor:
                if blink:
                    f.put(b.seat_led[s], c["cursor"])
            elif s == acting:
                f.put(b.seat_led[s], col, pulse)
            elif s == attacker:
                f.put(b.seat_led[s], col)
            elif s in g.passed:
                f.put(b.seat_led[s], col, DIM)
            line = g.lines[s][0]
            if line:
                # 8.2: a face-down defence's acknowledgement: one blink, any card
                if not (ack and s == acting and g.step == "attack"):
                    f.put(b.defence_led[s], c["defence_up"] if line[-1][1]
                          else c["defence_down"])

    def _centre(self, g, blink):
        b = self.board
        c = self.colours
        f = self.f
        waiting = -1  # the stack whose face-up card is to be tapped
        if g.up is not None:
            if g.phase == "centre":
                for i in range(len(g.up)):
                    if g.up[i] < 0:
                        waiting = i
                        break
            elif g.phase == "play":
                waiting = g.reveal
        for i in range(len(b.centre_led)):
            led = b.centre_led[i]
            if g.up is None:
                f.put(led, c["off"])
            elif i == waiting:
                f.put(led, c["centre"] if blink else c["off"])
            elif g.up[i] >= 0:
                f.put(led, c["centre"], 256 if g.left[i] >= 2 else DIM)
            else:
                f.put(led, c["off"])

    def _tracks(self, g, now, pulse):
        b = self.board
        f = self.f
        off = self.colours["off"]
        sides = g.sides()
        fill_side = -1
        lit_fill = 0
        if self._filling(now) and g.rounds:
            r = g.rounds[-1]  # public: the scored round (its final defence revealed, K21)
            fill_side = g.side(r[2])
            after = r[8][fill_side]
            before = g.rounds[-2][8][fill_side] if len(g.rounds) >= 2 else 0
            step = FILL_MS // 2 if r[6] else FILL_MS  # K8: double speed, master stroke
            lit_fill = after if after < before else min(
                after, before + (now - self.round_at) // step)
        for t in range(len(b.track_led)):
            leds = b.track_led[t]
            if t >= sides:
                for k in range(len(leds)):
                    f.put(leds[k], off)
                continue
            col = self.side_colour(g, t)
            lit = lit_fill if t == fill_side else g.scores[t]
            level = pulse if (g.is_over() and t == g.winner) else 256
            for k in range(len(leds)):
                if k < lit:
                    f.put(leds[k], col, level)
                else:
                    f.put(leds[k], off)
