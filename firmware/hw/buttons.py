"""Push buttons: debounced by polling, short and long presses, events as role names.

In the style of Peter Hinch's `Pushbutton`: a pin is anything callable that returns its
level (`machine.Pin` is), the caller polls every `POLL_MS` with the time in ms, and the
tunables are class attributes (set them on the class, or on one instance).

- A level counts once it has held for `DEBOUNCE_MS`: contact bounce shorter than that
  never gets through, and a press is seen about `DEBOUNCE_MS` after the contact settles.
- A button with a long role (the encoder's push switch: `ok` / long `back`) reports its
  role at release if it was held less than `LONG_MS`, or its long role as soon as it has
  been held `LONG_MS` (once, however long it stays down; the release then says nothing).
- A button without a long role reports its role on the debounced press: there is nothing
  to wait for, and a held button still reports once.
- A button already down at the first poll (the bring-up button held at power-up) is
  ignored until it has been released.

`Button.poll(now)` returns the role (the string given, never a new one) or None;
`Buttons(buttons, on_event).poll(now)` polls them all and calls `on_event(role)` for each
event. Nothing is allocated per poll. `now` is milliseconds that only go up (a count
that does not wrap, as firmware/main.py's clock). Runs unchanged on MicroPython and
CPython.
"""

class Button:
    POLL_MS = 5  # how often the caller should poll
    DEBOUNCE_MS = 20  # a new level counts once it has held this long
    LONG_MS = 700  # held this long: the long role (buttons that have one)

    def __init__(self, pin, role, active_low=True, long_role=None):
        self.pin = pin
        self.role = role  # reported for a press (short press if there is a long role)
        self.long_role = long_role  # reported once held LONG_MS, or None
        self._pressed = 0 if active_low else 1  # the pin's level while pressed
        self._fresh = True  # before the first poll
        self._raw = False  # last reading: pressed?
        self._since = 0  # when the reading last changed
        self._down = False  # debounced state
        self._t_down = 0  # when the debounced press began
        self._done = False  # this press has been reported (or is to be ignored)

    def steady(self):
        """Polled again at the same level, it would say nothing and change nothing: no
        level waiting out its debounce, no long press being timed."""
        return (not self._fresh and self._raw == self._down
                and (not self._down or self._done or self.long_role is None))

    def poll(self, now):
        """Read the pin once; return the role of an event, or None."""
        raw = self.pin() == self._pressed
        if self._fresh:
            self._fresh = False
            self._raw = self._down = raw
            self._since = self._t_down = now
            self._done = raw  # down at start-up: ignored until released
            return None
        if raw != self._raw:
            self._raw = raw
            self._since = now
            return None
        if raw == self._down:
            # Steady. Only a long press, held down, has anything to say.
            if (raw and not self._done and self.long_role is not None
                    and now - self._t_down >= self.LONG_MS):
                self._done = True
                return self.long_role
            return None
        if now - self._since < self.DEBOUNCE_MS:
            return None
        self._down = raw
        if raw:
            self._t_down = self._since  # the press began when the contact settled
            if self.long_role is None:
                self._done = True
                return self.role
            self._done = False
            return None
        # Released: a short press of a button with a long role.
        if self._done:
            return None
        self._done = True
        return self.role


class Buttons:
    """Several buttons polled together; events go to `on_event(role)`."""

    POLL_MS = Button.POLL_MS

    def __init__(self, buttons, on_event):
        self.buttons = list(buttons)
        self.on_event = on_event
        # Optional: callable() -> every button pin's level at once (an int; the board
        # reads the GPIO input register). While it is what the last poll saw and every
        # button is steady, a poll has nothing to find: the buttons are not read one by one.
        self.levels = None
        self._seen = None
        self._quiet = False

    def poll(self, now):
        """Poll every button once; return the number of events delivered."""
        levels = self.levels
        if levels is not None:
            seen = levels()
            if self._quiet and seen == self._seen:
                return 0
            self._seen = seen
        n = 0
        quiet = True
        for b in self.buttons:
            role = b.poll(now)
            if role is not None:
                n += 1
                self.on_event(role)
            if quiet and not b.steady():
                quiet = False
        self._quiet = quiet
        return n
