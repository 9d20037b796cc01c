"""The frame engine every game's view paints through: one frame of LED colours, the
palette pre-scaled by the board's brightness, the current limiter, and the timed
animations all games share (a refusal's flash, the acknowledgement of a private tap, the
blinks of another table's move).

The frame is a bytearray of R, G, B per pixel in strip order (the LED driver reorders to
the strip's byte order). A current limiter scales the whole frame so the estimated draw
(about 20 mA per colour channel at full level, per pixel) stays under the board's
`max_current_ma`. Only small integers are used while composing, into buffers made once,
so a frame allocates nothing on the MicroPython heap in the steady state.
"""

from core import outcome as oc

MA_PER_CHANNEL = 20  # estimated draw of one colour channel at full level, in mA
ERROR_MS = 600  # a refusal's flash: three blinks of the pixels involved
ACK_MS = 250  # the acknowledgement of a private tap: the same for any card
MOVED_MS = 1500  # another table's move: three blinks of the places it touched
ERROR_STEP = ERROR_MS // 6  # ... each blink's halves
MOVED_STEP = MOVED_MS // 6
OFF = (0, 0, 0)


def scaled(rgb, scale):
    return bytes(min(255, (int(v) * scale) >> 8) for v in rgb)


def triangle(now, period):
    """0..256..0 over one period (a pulse or a breath)."""
    t = now % period
    half = period >> 1
    if t < half:
        return (t * 256) // half
    return ((period - t) * 256) // half


def running(start, length, now):
    """True while an animation started at `start` (-1: never) lasts."""
    return start >= 0 and now - start < length


class Frame:
    """`board` gives the pixel count, brightness, current limit and palette; `defaults`
    are the game's colours the board definition may leave out ({name: (r, g, b)})."""

    def __init__(self, board, defaults):
        self.n = board.led_count
        self.buf = bytearray(3 * self.n)
        self.scale = scale = int(board.brightness * 256 + 0.5)
        self.colours = {"off": scaled(OFF, scale), "error": scaled((255, 0, 0), scale)}
        for name in defaults:
            self.colours[name] = scaled(board.palette.get(name, defaults[name]), scale)
        for name in board.palette:
            self.colours[name] = scaled(board.palette[name], scale)
        self.limit_total = board.max_current_ma * 255 // MA_PER_CHANNEL
        self.last_ma = 0  # estimated draw of the last frame, after limiting
        # Animation clocks, in ms of the caller's clock; -1 when not running.
        self.error_at = -1
        self.ack_at = -1
        self.error_where = None  # what the refusal was about (the outcome's places)
        self.moved_at = -1
        self.moved_where = ()  # the places another table's move touched

    def scaled(self, rgb):
        """A colour at the board's brightness."""
        return scaled(rgb, self.scale)

    def note(self, outcome, now):
        """Start the shared animations an event's core.outcome.Outcome calls for."""
        kind = outcome.kind
        if kind == oc.REFUSED:
            self.error_at = now
            self.error_where = outcome
            return
        if outcome.code == oc.MOVED:
            # Its places blink, the same length for every move (none for a hidden card).
            self.moved_at = now
            self.moved_where = outcome.places
        if kind != oc.NEW_GAME and kind != oc.ROUND_END and outcome.private:
            self.ack_at = now

    def reset(self):
        self.error_at = self.ack_at = self.moved_at = -1

    def erroring(self, now):
        return running(self.error_at, ERROR_MS, now)

    def error_on(self, now):
        """True in the lit half of the refusal flash's three blinks."""
        return self.erroring(now) and ((now - self.error_at) * 6 // ERROR_MS) % 2 == 0

    def moving(self, now):
        return running(self.moved_at, MOVED_MS, now)

    def moved_on(self, now):
        """True in the lit half of the move's three blinks."""
        return self.moving(now) and ((now - self.moved_at) * 6 // MOVED_MS) % 2 == 0

    def acking(self, now):
        return running(self.ack_at, ACK_MS, now)

    def changes(self, now, t):
        """The earlier of `t` and the time (ms) the shared animations next change the
        frame: a blink's half (a refusal's flash, another table's move), the end of a
        private tap's acknowledgement (its dip is steady)."""
        if self.erroring(now):
            t = min(t, now + ERROR_STEP - (now - self.error_at) % ERROR_STEP)
        if self.acking(now):
            t = min(t, self.ack_at + ACK_MS)
        if self.moving(now):
            t = min(t, now + MOVED_STEP - (now - self.moved_at) % MOVED_STEP)
        return t

    def put(self, led, colour, level=256):
        """Pixel `led` (-1: none) in `colour`, at `level`/256 of it."""
        if led < 0:
            return
        f = self.buf
        j = 3 * led
        if level >= 256:
            f[j] = colour[0]
            f[j + 1] = colour[1]
            f[j + 2] = colour[2]
        else:
            f[j] = (colour[0] * level) >> 8
            f[j + 1] = (colour[1] * level) >> 8
            f[j + 2] = (colour[2] * level) >> 8

    def limit(self):
        """Scale the frame so the estimated current stays under the board's limit."""
        f = self.buf
        total = sum(f)  # in C, and it allocates nothing (a loop here cost 1-2 ms a frame)
        if total > self.limit_total:
            lim = self.limit_total
            for j in range(len(f)):
                f[j] = f[j] * lim // total
            total = sum(f)
        self.last_ma = total * MA_PER_CHANNEL // 255
        return f
