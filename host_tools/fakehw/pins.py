"""Virtual pins and PWM for the input and sound drivers, on virtual time.

- `Clock`: virtual milliseconds. `set(t)` / `advance(ms)` move time forward and apply
  every pin's scheduled level changes in time order, each at its own time, firing pin
  interrupts as they happen. Callable (returns the time), and has `ticks_ms()`.
- `VirtualPin`: an input pin as the drivers see it: callable returning its level, with
  `value()` and `irq(handler, trigger)` as `machine.Pin`. A test sets its level now
  (`set(level)`) or schedules changes on the clock (`at(t, level)`, `bounce(t, levels)`,
  `press(t, hold_ms, bounce_ms)`).
- `VirtualGPIO`: a `make_pin(gpio)` factory that makes each GPIO's pin once.
- `turn(a, b, t, detents, ...)`: schedules the quadrature of a rotary encoder.
- `VirtualPWM`: `machine.PWM`'s `freq()` / `duty_u16()`, recording every change as
  (time, freq, duty) in `log`; `tones()` gives the sounding stretches.

Runs on CPython and MicroPython.
"""

# rp2's machine.Pin constants (GPIO_IRQ_EDGE_FALL / _RISE).
IRQ_FALLING = 4
IRQ_RISING = 8

PWM_MIN_HZ = 8  # rp2: the slowest the 16-bit counter and divider reach at 125 MHz
PWM_MAX_HZ = 62500000


class Clock:
    def __init__(self, now=0):
        self.now = now
        self._pins = []

    def __call__(self):
        return self.now

    def ticks_ms(self):
        return self.now

    def attach(self, pin):
        self._pins.append(pin)

    def set(self, t):
        """Move to time t (never back), applying scheduled changes up to t in order."""
        if t < self.now:
            raise ValueError("virtual time goes forward: %r < %r" % (t, self.now))
        while True:
            nxt = None
            for p in self._pins:
                pt = p.next_change()
                if pt is not None and pt <= t and (nxt is None or pt < nxt):
                    nxt = pt
            if nxt is None:
                break
            if nxt > self.now:
                self.now = nxt
            for p in self._pins:
                p.apply_until(nxt)
        self.now = t

    def advance(self, ms):
        self.set(self.now + ms)


class VirtualPin:
    IRQ_FALLING = IRQ_FALLING
    IRQ_RISING = IRQ_RISING

    def __init__(self, level=1, clock=None, active=0, name=None):
        """`level`: the level now (1: pulled up). `active`: the level while pressed, for
        `press`. `clock`: a `Clock`, needed to schedule changes."""
        self._level = 1 if level else 0
        self.clock = clock
        self.active = active
        self.name = name
        self._plan = []  # [(t, level)], by time; equal times in the order scheduled
        self._handler = None
        self._trigger = 0
        self.edges = 0  # level changes so far
        if clock is not None:
            clock.attach(self)

    def __repr__(self):
        return "VirtualPin(%s, level=%d)" % (self.name, self._level)

    # ---- as machine.Pin

    def __call__(self, level=None):
        return self.value(level)

    def value(self, level=None):
        # No *args: reading a pin must not allocate (drivers are checked for that).
        if level is not None:
            self.set(level)
            return None
        return self._level

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, **_ignored):
        self._handler = handler
        self._trigger = trigger if handler is not None else 0

    # ---- driven by a test

    def set(self, level):
        """Change the level now (interrupts fire)."""
        level = 1 if level else 0
        if level == self._level:
            return
        self._level = level
        self.edges += 1
        if self._handler is not None:
            if self._trigger & (IRQ_RISING if level else IRQ_FALLING):
                self._handler(self)

    def _need_clock(self):
        if self.clock is None:
            raise ValueError("VirtualPin %s has no clock to schedule changes on"
                             % (self.name,))

    def at(self, t, level):
        """Schedule a level change at time t."""
        self._need_clock()
        level = 1 if level else 0
        i = len(self._plan)
        while i > 0 and self._plan[i - 1][0] > t:
            i -= 1
        self._plan.insert(i, (t, level))

    def bounce(self, t, levels, period_ms=1):
        """Schedule `levels` (a sequence of 0/1, or a string like "0101") from time t,
        one every period_ms; the last one stays."""
        for k, lv in enumerate(levels):
            self.at(t + k * period_ms, int(lv))
        return t + (len(levels) - 1) * period_ms

    def chatter(self, t, level, bounce_ms, period_ms=1):
        """Move to `level` at time t, the contacts bouncing for bounce_ms (the level
        toggling every period_ms); settled at t + bounce_ms, which is returned."""
        k = 0
        while k * period_ms < bounce_ms:
            self.at(t + k * period_ms, level if k % 2 == 0 else 1 - level)
            k += 1
        self.at(t + bounce_ms, level)
        return t + bounce_ms

    def press(self, t, hold_ms, bounce_ms=0, period_ms=1):
        """A press at time t held hold_ms, chattering bounce_ms at both edges.
        Returns when the release has settled."""
        self.chatter(t, self.active, bounce_ms, period_ms)
        return self.chatter(t + hold_ms, 1 - self.active, bounce_ms, period_ms)

    def next_change(self):
        return self._plan[0][0] if self._plan else None

    def apply_until(self, t):
        while self._plan and self._plan[0][0] <= t:
            self.set(self._plan.pop(0)[1])


class VirtualGPIO:
    """make_pin(gpio) for the drivers: one VirtualPin per GPIO, made on first use."""

    def __init__(self, clock=None, level=1):
        self.clock = clock
        self.level = level
        self.pins = {}

    def __call__(self, gpio, *_mode):
        if gpio not in self.pins:
            self.pins[gpio] = VirtualPin(self.level, self.clock, name="GP%d" % gpio)
        return self.pins[gpio]

    def __getitem__(self, gpio):
        return self(gpio)


# Quadrature of one detent, as (pin, level) edges: clockwise A falls first.
_CW = ((0, 0), (1, 0), (0, 1), (1, 1))
_CCW = ((1, 0), (0, 0), (1, 1), (0, 1))


def turn(a, b, t, detents, step_ms=4, bounce_ms=0):
    """Schedule `detents` detents of an encoder on pins a, b from time t (< 0:
    counter-clockwise), one edge every step_ms, each edge chattering bounce_ms.
    Returns the time of the last edge's settling."""
    if bounce_ms >= step_ms:
        raise ValueError("bounce_ms must be shorter than step_ms")
    edges = _CW if detents > 0 else _CCW
    pins = (a, b)
    end = t
    for _ in range(abs(detents)):
        for which, level in edges:
            end = pins[which].chatter(t, level, bounce_ms)
            t += step_ms
    return end


class VirtualPWM:
    """machine.PWM as the buzzer sees it. `log` holds (time, freq, duty) after every
    change (changes at the same time merge into one entry); time from `clock`."""

    def __init__(self, clock=None, freq=1000, duty_u16=0):
        self.clock = clock
        self.now = 0  # the time used when there is no clock
        self._freq = freq
        self._duty = duty_u16
        self.log = []

    def _time(self):
        return self.clock() if self.clock is not None else self.now

    def _record(self):
        t = self._time()
        entry = (t, self._freq, self._duty)
        if self.log and self.log[-1][0] == t:
            self.log[-1] = entry
        else:
            self.log.append(entry)

    def freq(self, hz=None):
        if hz is None:
            return self._freq
        if not isinstance(hz, int) or not PWM_MIN_HZ <= hz <= PWM_MAX_HZ:
            raise ValueError("freq must be an int %d..%d, got %r" % (PWM_MIN_HZ, PWM_MAX_HZ, hz))
        if hz != self._freq:
            self._freq = hz
            self._record()
        return None

    def duty_u16(self, duty=None):
        if duty is None:
            return self._duty
        if not isinstance(duty, int) or not 0 <= duty <= 65535:
            raise ValueError("duty_u16 must be an int 0..65535, got %r" % (duty,))
        if duty != self._duty:
            self._duty = duty
            self._record()
        return None

    def deinit(self):
        self.duty_u16(0)

    def sounding(self):
        return self._duty > 0

    def tones(self):
        """The stretches of sound: [(start, end or None if still sounding, freq)]."""
        out = []
        start = hz = None
        for t, f, d in self.log:
            if start is not None and (d == 0 or f != hz):
                out.append((start, t, hz))
                start = None
            if d > 0 and start is None:
                start, hz = t, f
        if start is not None:
            out.append((start, None, hz))
        return out
