"""The board's inputs: buttons and rotary encoder, built from the board definition.

Every physical input gives one of the six roles (next, prev, ok, back, done, discard) as
`board_def` maps them: `pins.buttons` is {role: GPIO}; `pins.encoder` is {a, b, switch}
and `inputs.encoder` maps its actions cw / ccw / press / long_press to a role or null
(`core.board` checks all that and fills in the default). The encoder's push switch is a
`Button` whose short press is the `press` role and whose long press the `long_press` one.

`make_pin(gpio)` builds a pin: on the Pico
`lambda n: machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP)` (buttons and encoder
contacts close to ground, hence `active_low`); in tests and the simulator a virtual pin
(`host_tools.fakehw.pins`). Nothing here imports `machine`.

Events come out of `poll`:

    inputs = build(board, make_pin)
    for role in inputs.poll(now): ...            # () when nothing happened: no allocation;
                                                 # a new list only when something did

`poll` is meant to be called every `inputs.poll_ms` (2 ms with a polled encoder, else 5).
`now` is milliseconds that only go up (a ticks_ms() that wraps after 12 days would need
time.ticks_diff, which breaks on the long ints a non-wrapping count becomes: we subtract).
"""

from hw.buttons import Button, Buttons
from hw.encoder import Encoder

_BOOT_READS = 3  # held_at_boot: every one of these reads must see the button down
_NONE = ()  # poll's answer when nothing happened: one shared empty tuple


class Inputs:
    """Buttons and an optional encoder behind one `poll(now)`. `poll_ms` is how often to
    call it: the encoder's interval when it is polled, else the buttons'. The buttons are
    polled on their own `Button.POLL_MS` whatever the call rate.

    `build` wires the buttons and encoder to `deliver`, which collects the roles for
    `poll` to return."""

    def __init__(self, buttons=None, encoder=None, pins=None):
        self.buttons = buttons  # a Buttons, or None
        self.encoder = encoder  # an Encoder, or None
        self.pins = pins if pins is not None else {}  # GPIO -> pin, for bring-up checks
        self.button_gpios = []  # the buttons' GPIOs (build), for Buttons.levels
        self._events = None  # this poll's roles for poll to return, if any
        self._last = 0
        self._first = True

    @property
    def poll_ms(self):
        if self.encoder is not None and not self.encoder.irq:
            return min(Button.POLL_MS, self.encoder.POLL_MS)
        return Button.POLL_MS

    def use_irq(self):
        """Read the encoder from pin-change interrupts (see Encoder.use_irq)."""
        if self.encoder is not None:
            self.encoder.use_irq()

    def deliver(self, role):
        if self._events is None:
            self._events = [role]
        else:
            self._events.append(role)

    def poll(self, now):
        """Poll the inputs. Returns the roles of this poll's events: a list, or an empty
        tuple when there were none."""
        self._events = None
        if self.encoder is not None:
            self.encoder.poll(now)
        if self.buttons is not None and (self._first or now - self._last >= Button.POLL_MS):
            self._first = False
            self._last = now
            self.buttons.poll(now)
        events = self._events
        if events is None:
            return _NONE
        self._events = None
        return events


def build(board, make_pin, active_low=True):
    """Buttons and encoder for `board` (a `core.board.Board`); returns an `Inputs`.
    Each GPIO's pin is made once; `inputs.pins` keeps them by GPIO."""
    pins = {}

    def pin(gpio):
        if gpio not in pins:
            pins[gpio] = make_pin(gpio)
        return pins[gpio]

    inputs = Inputs(pins=pins)
    sink = inputs.deliver
    buttons = []
    by_role = board.pins.get("buttons") or {}
    hold = board.inputs.get("hold") or {}
    for role in sorted(by_role):  # a fixed order: MicroPython dicts keep none
        buttons.append(Button(pin(by_role[role]), role, active_low, hold.get(role)))
        inputs.button_gpios.append(by_role[role])
    enc_pins = board.pins.get("encoder")
    actions = board.inputs.get("encoder") or {}
    if enc_pins is not None:
        cw, ccw = actions.get("cw"), actions.get("ccw")
        if cw is not None or ccw is not None:
            inputs.encoder = Encoder(pin(enc_pins["a"]), pin(enc_pins["b"]), sink, cw, ccw,
                                     active_low)
        press, long_press = actions.get("press"), actions.get("long_press")
        if "switch" in enc_pins and (press is not None or long_press is not None):
            buttons.append(Button(pin(enc_pins["switch"]), press, active_low, long_press))
            inputs.button_gpios.append(enc_pins["switch"])
    inputs.buttons = Buttons(buttons, sink)
    return inputs


def held_at_boot(board, make_pin, active_low=True):
    """True if the bring-up button (`inputs.bringup`, its GPIO in `board.bringup_pin`) is
    down now, at power-up. Call it before building the inputs' task."""
    if board.bringup_pin is None:
        return False
    p = make_pin(board.bringup_pin)
    down = 0 if active_low else 1
    for _ in range(_BOOT_READS):
        if p() != down:
            return False
    return True
