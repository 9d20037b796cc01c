"""Rotary encoder (quadrature A/B, full-step detents): one event per detent.

A state table (after Ben Buxton's full-step decoder) follows the Gray code
11 -> 01 -> 00 -> 10 -> 11 (A, B; levels with the usual pull-ups, both high at a detent)
and reports a step only when a whole valid cycle ends back at the detent. Contact bounce
on one channel just walks the table back and forth, and an invalid transition (both
channels changing between two reads) resets it to the start, so neither gives a step.
Clockwise here means A falls before B; if the board turns the wrong way, swap `a` and `b`
in board_def (or the `cw` / `ccw` roles).

Polled by default: `poll(now)` reads both pins and delivers the detents it completes to
`on_event(role)`. A quick turn changes state every few ms, hence `POLL_MS = 2`. For a
faster hand, `use_irq()` moves the reading into pin-change interrupts, which, as Peter
Hinch recommends, do next to nothing: they step the table and count detents (no
allocation); `poll` then only delivers them, in the asyncio task. Pins are callables
returning their level (`machine.Pin`); `use_irq` also needs their `irq()` method.
Runs unchanged on MicroPython and CPython.
"""

from hw.const import const

# Table states (low 3 bits) and the step flags a transition back to the detent carries.
_START = const(0)  # at a detent: A = B = 1
_CW_FINAL = const(1)  # clockwise, last quarter: 10
_CW_BEGIN = const(2)  # clockwise, first quarter: 01
_CW_NEXT = const(3)  # clockwise, half way: 00
_CCW_BEGIN = const(4)  # counter-clockwise, first quarter: 10
_CCW_FINAL = const(5)  # counter-clockwise, last quarter: 01
_CCW_NEXT = const(6)  # counter-clockwise, half way: 00
_CW = const(0x10)  # a clockwise detent is complete
_CCW = const(0x20)  # a counter-clockwise detent is complete
_MASK = const(0xFFFF)  # detent count modulo 2**16: stays a small int
_HALF = const(0x8000)

# Next state, indexed by state * 4 + (A << 1 | B).
_TABLE = bytes((
    # AB=00      01          10           11
    _START, _CW_BEGIN, _CCW_BEGIN, _START,  # _START
    _CW_NEXT, _START, _CW_FINAL, _START | _CW,  # _CW_FINAL
    _CW_NEXT, _CW_BEGIN, _START, _START,  # _CW_BEGIN
    _CW_NEXT, _CW_BEGIN, _CW_FINAL, _START,  # _CW_NEXT
    _CCW_NEXT, _START, _CCW_BEGIN, _START,  # _CCW_BEGIN
    _CCW_NEXT, _CCW_FINAL, _START, _START | _CCW,  # _CCW_FINAL
    _CCW_NEXT, _CCW_FINAL, _CCW_BEGIN, _START,  # _CCW_NEXT
))


class Encoder:
    POLL_MS = 2  # polled: how often the caller should poll (each state lasts a few ms)

    def __init__(self, pin_a, pin_b, on_event, cw="next", ccw="prev", active_low=True):
        self.pin_a = pin_a
        self.pin_b = pin_b
        self.on_event = on_event
        self.cw = cw  # role of a clockwise detent, or None
        self.ccw = ccw  # role of a counter-clockwise detent, or None
        self._flip = 0 if active_low else 3  # common to ground + pull-ups: 11 at a detent
        self._state = _START
        self._pos = 0  # detents, clockwise positive, mod 2**16; written only by _step
        self._seen = 0  # detents delivered; written only by poll
        self.irq = False  # stepped by pin interrupts (use_irq)

    def _step(self, _pin=None):
        """Read both pins and advance the table. The interrupt handler when use_irq()."""
        s = _TABLE[((self._state & 7) << 2)
                   | (((self.pin_a() << 1) | self.pin_b()) ^ self._flip)]
        self._state = s
        if s & _CW:
            self._pos = (self._pos + 1) & _MASK
        elif s & _CCW:
            self._pos = (self._pos - 1) & _MASK

    def use_irq(self, trigger=None):
        """Step on every edge of A and B from their interrupts instead of in poll().
        `trigger` defaults to the pins' IRQ_RISING | IRQ_FALLING."""
        for p in (self.pin_a, self.pin_b):
            t = trigger if trigger is not None else p.IRQ_RISING | p.IRQ_FALLING
            p.irq(handler=self._step, trigger=t)
        self.irq = True

    def pending(self):
        """Detents counted but not yet delivered: > 0 clockwise, < 0 counter-clockwise."""
        return ((self._pos - self._seen + _HALF) & _MASK) - _HALF

    def poll(self, now=0):
        """Read the pins (unless interrupts do), deliver any completed detents to
        `on_event`; return how many. `now` is unused, for the same call as Buttons."""
        if not self.irq:
            self._step()
        d = self.pending()
        if not d:
            return 0
        # Back and forth between two polls (interrupts only) cancels out.
        self._seen = (self._seen + d) & _MASK
        role = self.cw if d > 0 else self.ccw
        n = d if d > 0 else -d
        if role is not None:
            for _ in range(n):
                self.on_event(role)
        return n
