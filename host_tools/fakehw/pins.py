"""Fake pins: one GPIO as the rp2 port's `machine.Pin` has it, for the simulator (CPython
and MicroPython) and the virtual board (whose `machine.Pin` is this class, see pico/).

- `Pin`: rp2's `machine.Pin`: mode, pull, output latch, the level something outside drives
  onto the pin (`drive(level)`, None to let go), IRQs on its edges, and `bitstream` (what
  `neopixel` sends down a pin). The far end of the wire: `on_level(level)` hears the
  level the pin drives (the PN532's reset line), `on_stream(buf)` what `bitstream` sends
  (the LED strip). The virtual board's subclass samples the outside world before each
  read and schedules IRQ handlers instead of calling them.
- `Clock`: virtual milliseconds. `set(t)` / `advance(ms)` move time forward and apply
  every pin's scheduled level changes in time order, each at its own time, firing pin
  interrupts as they happen. Callable (returns the time), and has `ticks_ms()`.
- `VirtualPin`: an input pin with a pull-up that a test drives: its level now
  (`set(level)`) or changes scheduled on the clock (`at(t, level)`, `bounce(t, levels)`,
  `press(t, hold_ms, bounce_ms)`).
- `VirtualGPIO`: a `make_pin(gpio)` factory that makes each GPIO's pin once.
- `turn(a, b, t, detents, ...)`: schedules the quadrature of a rotary encoder.
- `VirtualPWM`: rp2's `machine.PWM` (duty, freq and deinit as MicroPython's rp2 port has
  them), recording every change of its output as (time, freq, duty) in `log`; `tones()`
  gives the sounding stretches. The virtual board's `machine.PWM` is this class.

Runs on CPython and MicroPython.
"""

# rp2's machine.Pin constants (ports/rp2/machine_pin.c).
IN = 0
OUT = 1
OPEN_DRAIN = 2
ALT = 3
PULL_UP = 1
PULL_DOWN = 2
IRQ_LOW_LEVEL = 1
IRQ_HIGH_LEVEL = 2
IRQ_FALLING = 4  # GPIO_IRQ_EDGE_FALL
IRQ_RISING = 8  # GPIO_IRQ_EDGE_RISE
LED_GPIO = 25  # Pin("LED") on the Pico
GPIOS = 30  # GP0..GP29

PWM_MIN_HZ = 8  # rp2: the slowest the 16-bit counter and divider reach at 125 MHz
PWM_MAX_HZ = 62500000  # a counter of two steps at 125 MHz (see VirtualPWM)
DUTY_MAX = 65535


def gpio_number(pin):
    """The GPIO a machine.Pin id names, as rp2 takes it: a Pin, 0..29, "GPn" or "LED"."""
    if isinstance(pin, Pin):
        return pin._id
    if isinstance(pin, str):
        name = pin.upper()
        if name == "LED":
            return LED_GPIO
        if name.startswith("GP") and name[2:].isdigit():
            pin = int(name[2:])
        else:
            raise ValueError("unknown named pin \"%s\"" % pin)
    if not isinstance(pin, int) or not 0 <= pin < GPIOS:
        raise ValueError("invalid pin")
    return pin


class Pin:
    IN = IN
    OUT = OUT
    OPEN_DRAIN = OPEN_DRAIN
    ALT = ALT
    PULL_UP = PULL_UP
    PULL_DOWN = PULL_DOWN
    IRQ_LOW_LEVEL = IRQ_LOW_LEVEL
    IRQ_HIGH_LEVEL = IRQ_HIGH_LEVEL
    IRQ_FALLING = IRQ_FALLING
    IRQ_RISING = IRQ_RISING

    # A GPIO at reset: an input, no pull, latch 0, nothing outside driving it. Class
    # defaults, so that re-running __init__ on the same pin (rp2's Pin(n) again) keeps them.
    _mode = IN
    _pull = None
    _latch = 0
    _driven = None
    _level = 0
    _handler = None
    _trigger = 0
    edges = 0  # level changes so far
    on_level = None
    on_stream = None

    def __init__(self, id, mode=-1, pull=-1, *, value=None, drive=None, alt=None):
        self._id = None if id is None else gpio_number(id)  # None: a wire of a test's own
        self.init(mode, pull, value=value)

    def init(self, mode=-1, pull=-1, *, value=None, drive=None, alt=None):
        if mode not in (-1, IN, OUT, OPEN_DRAIN, ALT):
            raise ValueError("invalid pin mode: %r" % (mode,))
        if pull not in (-1, None, PULL_UP, PULL_DOWN):
            raise ValueError("invalid pull: %r" % (pull,))
        if value is not None:
            self._latch = 1 if value else 0
        if mode != -1:
            self._mode = mode
        if pull != -1:
            self._pull = pull
        self._update()
        if mode in (OUT, OPEN_DRAIN) or value is not None:
            self._drives()

    # ---- as machine.Pin

    def value(self, x=None):
        # No *args: reading a pin must not allocate (drivers are checked for that).
        if x is None:
            return self._level
        self._set_latch(1 if x else 0)
        return None

    def __call__(self, x=None):
        return self.value(x)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    high = on
    low = off

    def toggle(self):
        self._set_latch(1 - self._latch)

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        self._handler = handler
        self._trigger = trigger if handler is not None else 0
        return self

    def __repr__(self):
        mode = ("IN", "OUT", "OPEN_DRAIN", "ALT")[self._mode]
        pull = {1: ", pull=PULL_UP", 2: ", pull=PULL_DOWN"}.get(self._pull, "")
        return "Pin(GPIO%s, mode=%s%s)" % (self._id, mode, pull)

    # ---- the outside world

    def drive(self, level):
        """Something outside drives the pin to `level` (0/1), or lets go (None)."""
        self._driven = None if level is None else (1 if level else 0)
        self._update()

    # ---- inside

    def resolve(self):
        """The level on the pad: an output's latch; an open drain's low; else what drives
        it from outside, else its pull (an open drain floats high)."""
        mode = self._mode
        if mode == OUT:
            return self._latch
        if mode == OPEN_DRAIN and self._latch == 0:
            return 0
        if self._driven is not None:
            return self._driven
        if self._pull == PULL_UP or mode == OPEN_DRAIN:
            return 1
        return 0

    def _update(self):
        level = self.resolve()
        if level == self._level:
            return
        self._level = level
        self.edges += 1
        handler = self._handler
        if handler is not None and self._trigger & (IRQ_RISING if level else IRQ_FALLING):
            self._fire(handler)

    def _fire(self, handler):
        handler(self)  # at once, as a hard IRQ

    def _set_latch(self, level):
        if level != self._latch:
            self._latch = level
            self._update()
            self._drives()

    def _drives(self):
        """The pin (re)asserts its output: the far end hears the level."""
        if self.on_level is not None:
            self.on_level(self._level)

    def stream(self, buf):
        """`bitstream` down this pin (the bytes are the far end's to keep: copy them)."""
        if self.on_stream is not None:
            self.on_stream(buf)


def bitstream(pin, encoding, timing, buf):
    """machine.bitstream, what neopixel's write() uses: buf goes down the pin's wire."""
    pin.stream(buf)


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


class VirtualPin(Pin):
    """An input with a pull-up that a test drives, on a `Clock` to schedule changes."""

    def __init__(self, level=1, clock=None, active=0, name=None):
        """`level`: the level now (1: pulled up). `active`: the level while pressed, for
        `press`. `clock`: a `Clock`, needed to schedule changes."""
        self._id = None
        self._pull = PULL_UP
        self._driven = self._level = 1 if level else 0
        self.clock = clock
        self.active = active
        self.name = name
        self._plan = []  # [(t, level)], by time; equal times in the order scheduled
        if clock is not None:
            clock.attach(self)

    def __repr__(self):
        return "VirtualPin(%s, level=%d)" % (self.name, self._level)

    # ---- driven by a test

    def set(self, level):
        """Change the level now (interrupts fire)."""
        self.drive(level)

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
            pin = self.pins[gpio] = VirtualPin(self.level, self.clock, name="GP%d" % gpio)
            pin._id = gpio
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
    """One channel of rp2's `machine.PWM`, the one rule for every fake of it: the buzzer's
    PWM in the simulator, and the virtual board's `machine.PWM` (pico/machine.py: this class,
    its output reported to the launcher instead of logged). `log` holds (time, freq, duty)
    after every change of the output (changes at the same time merge into one entry); time
    from `clock`. The constructor's freq and duty_u16 are settings already made (None: not
    set); a test's PWM starts at 1000 Hz, silent.

    As MicroPython's rp2 port does it: ports/rp2/machine_pwm.c (read at upstream commit
    7663f86c, after the RP2350 support of 1.24; the Pico images here are 1.28.0), called
    through extmod/machine_pwm.c:
    - duty_u16(v): an int (else TypeError, as mp_obj_get_int); above 65535 limited to 65535
      ("Limit duty_u16 to 65535"). The port does not check a negative value (its unsigned
      arithmetic turns it into an arbitrary level): here it is a ValueError, a firmware bug.
    - freq(hz): an int; under 8 Hz "freq too small" (the divider's limit at 125 MHz). The
      port computes a meaningless divider above 62.5 MHz (a counter of fewer than two
      steps): here that is "freq too large".
    - the slice runs once its freq and the channel's duty are both set (machine_pwm_start);
      until then the pin is silent and freq() / duty_u16() read 0.
    - deinit() stops the slice (pwm_set_enabled(false)) and nothing else: the pin falls
      silent, freq() and duty_u16() read what was set, and the next freq() or duty_u16()
      setting starts it again.
    - duty_u16() reads the value set. The port reads it back from the counter's compare
      level, rounded to the counter's resolution: the same value whenever the counter's top
      is 65534 (below about 1.9 kHz at 125 MHz, every note the buzzer plays).
    """

    def __init__(self, clock=None, freq=1000, duty_u16=0):
        self.clock = clock
        self.now = 0  # the time used when there is no clock
        self._freq = 0 if freq is None else _pwm_freq(freq)  # 0: not set
        self._duty = None if duty_u16 is None else _pwm_duty(duty_u16)  # None: not set
        self._on = self._freq > 0 and self._duty is not None
        self.invert = False
        self._out = self.output()
        self.log = []

    def _time(self):
        return self.clock() if self.clock is not None else self.now

    def output(self):
        """What the pin does: (freq, duty_u16), the duty 0 while the slice is stopped."""
        return (self._freq, self._duty if self._on else 0)

    def _changed(self):
        """After every setting: a change of the output goes into the log."""
        out = self.output()
        if out == self._out:
            return
        self._out = out
        t = self._time()
        entry = (t, out[0], out[1])
        if self.log and self.log[-1][0] == t:
            self.log[-1] = entry
        else:
            self.log.append(entry)

    def _start(self):
        self._on = self._freq > 0 and self._duty is not None
        self._changed()

    def init(self, *, freq=None, duty_u16=None, duty_ns=None, invert=None):
        """machine.PWM.init: the settings given, then the slice starts (if it can)."""
        if freq is not None:
            self._freq = _pwm_freq(freq)
        if duty_u16 is not None:
            self._duty = _pwm_duty(duty_u16)
        if duty_ns is not None:
            self._duty = self._ns_to_u16(duty_ns)
        if invert is not None:
            self.invert = bool(invert)
        self._start()

    def freq(self, hz=None):
        if hz is None:
            return self._freq
        self._freq = _pwm_freq(hz)
        self._start()
        return None

    def duty_u16(self, duty=None):
        if duty is None:
            return self._duty if self._duty is not None and self._freq else 0
        self._duty = _pwm_duty(duty)
        self._start()
        return None

    def duty_ns(self, ns=None):
        """The pulse width in ns, through duty_u16 at the current freq (the port keeps the
        width when freq changes; the firmware never sets one)."""
        if ns is None:
            d = self.duty_u16()
            return d * 1000000000 // (self._freq * 65535) if d else 0
        self._duty = self._ns_to_u16(ns)
        self._start()
        return None

    def _ns_to_u16(self, ns):
        if not isinstance(ns, int):
            raise TypeError("can't convert %s to int" % type(ns).__name__)
        if ns < 0:
            raise ValueError("duty_ns must not be negative, got %d" % ns)
        # A pulse longer than the period is the whole period (the port limits its level).
        return min(DUTY_MAX, ns * self._freq * DUTY_MAX // 1000000000)

    def deinit(self):
        self._on = False
        self._changed()

    def sounding(self):
        return self.output()[1] > 0

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


def _pwm_freq(hz):
    if not isinstance(hz, int):
        raise TypeError("can't convert %s to int" % type(hz).__name__)
    if hz < PWM_MIN_HZ:
        raise ValueError("freq too small")
    if hz > PWM_MAX_HZ:
        raise ValueError("freq too large")
    return hz


def _pwm_duty(duty):
    if not isinstance(duty, int):
        raise TypeError("can't convert %s to int" % type(duty).__name__)
    if duty < 0:
        raise ValueError("duty_u16 must not be negative, got %d" % duty)
    return min(duty, DUTY_MAX)
