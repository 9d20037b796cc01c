"""The card reader behind the game: the PN532 polled one step per tick, its faults
recovered without stopping the board.

`poll(now)` makes one non-blocking step (at most two I2C transactions) and returns True
when a poll completed; its result is then in `uid` (the UID bytes, or None for no card).
Deadlines are the driver's, counted on the caller's clock (`now`).

On a fault (no ACK, a bad frame, the chip gone from the bus) the reader is set up again;
when that fails too and the board wires the PN532's reset pin (RSTPDN, active low), the
chip is reset: the pin held low for RESET_LOW_MS, then BOOT_MS to start, then set up. Only
if it still does not answer is it `lost` (the board shows the fault) and tried again, with
a reset first where there is a pin, every RETRY_MS. The reset waits are counted in ticks of
the caller's clock, so the loop never blocks on them.

`report(obj)` (optional) is told what happens: {"event": "reader", "reset": why},
{"event": "reader", "error": why} when it is lost, {"event": "reader", "pn532": version}
when it answers again after a reset or a failed setup.
"""

from core.ticks import ticks_diff, ticks_us
from hw.const import const
from hw.pn532 import PENDING, PN532Error

_READY = const(0)  # set up: polling
_RESET_LOW = const(1)  # the reset pin is held low
_BOOTING = const(2)  # the reset pin released: the chip starts
_LOST = const(3)  # no answer: retried every RETRY_MS


class Reader:
    RETRY_MS = 2000  # a lost reader is tried again this often
    RESET_LOW_MS = 10  # RSTPDN held low (the chip needs far less; one tick is plenty)
    BOOT_MS = 20  # after RSTPDN is released, before the first command

    def __init__(self, pn, reset_pin=None, report=None):
        """`pn`: a hw.pn532.PN532; `reset_pin`: the RSTPDN output (`value(0/1)`), or None;
        `report`: callable(obj), or None."""
        self.pn = pn
        self.reset_pin = reset_pin
        self.report = report
        self.version = None  # the chip's firmware version while it answers
        self.error = None  # the last fault, as text
        self.uid = None  # the result of the last completed poll
        self.resets = 0  # resets made so far
        self.lost = True  # it does not answer (the board shows the fault); start() tries
        self._failed = False  # a setup failed since the chip last answered
        self._state = _LOST
        self._at = 0  # when the current wait (reset, boot, retry) started
        self.burst_us = 0  # a poll's steps back to back for up to this long (0: one step)
        if reset_pin is not None:
            reset_pin.value(1)  # released: the chip runs

    def start(self, now=0):
        """Set the chip up now (at boot); its version, or None (then it is recovered
        through the ticks). Blocks for the setup's few commands."""
        self.lost = False  # a chip that does not answer at boot is reported lost once
        self._failed = False  # the boot report says how it went
        if self._setup():
            return self.version
        self._recover(now)
        return None

    def _setup(self):
        try:
            self.version = self.pn.setup()
        except (PN532Error, OSError) as e:
            self.version = None
            self.error = str(e)
            self._failed = True
            return False
        self.error = None
        self._state = _READY
        self.lost = False
        if self._failed:
            self._failed = False
            self._tell({"event": "reader", "pn532": list(self.version)})
        return True

    def _recover(self, now):
        """A fault: reset the chip where there is a pin, else it is lost."""
        self._at = now
        if self.reset_pin is not None:
            self.resets += 1
            self.reset_pin.value(0)
            self._state = _RESET_LOW
            if not self.lost:  # a lost reader's retries are not news
                self._tell({"event": "reader", "reset": self.error})
        else:
            self._lose(now)

    def _lose(self, now):
        self._state = _LOST
        self._at = now
        self.version = None
        if not self.lost:
            self.lost = True
            self._tell({"event": "reader", "error": self.error})

    def _tell(self, obj):
        if self.report is not None:
            self.report(obj)

    @property
    def busy(self):
        """A poll is under way: the chip has a command in flight (the loop comes back at
        once rather than a reader period later)."""
        return self._state == _READY and self.pn.busy

    def poll(self, now):
        """One step; True when a poll completed (its result in `uid`). With `burst_us`
        set (the board: main.py), the steps go on back to back while the chip's answer
        is due, for up to that long: a tight poll, so a poll does not wait for the loop
        between its protocol steps (the chip answers in a few ms)."""
        done = self._poll(now)
        if done or not self.burst_us or not self.busy:
            return done
        t0 = ticks_us()
        while not done and self.busy and ticks_diff(ticks_us(), t0) < self.burst_us:
            done = self._poll(now)
        return done

    def _poll(self, now):
        st = self._state
        if st == _READY:
            try:
                r = self.pn.poll_uid(now)
            except (PN532Error, OSError) as e:
                self.error = str(e)
                self.version = None
                # Set up again at once: a chip that lost its configuration answers.
                if not self._setup():
                    self._recover(now)
                return False
            if r is PENDING:
                return False
            self.uid = r
            return True
        if st == _RESET_LOW:
            if now - self._at >= self.RESET_LOW_MS and self.reset_pin is not None:
                self.reset_pin.value(1)
                self._state = _BOOTING
                self._at = now
            return False
        if st == _BOOTING:
            if now - self._at >= self.BOOT_MS and not self._setup():
                self._lose(now)
            return False
        # Lost: try again every RETRY_MS (a reset first, where there is a pin).
        if now - self._at >= self.RETRY_MS and not self._setup():
            if self.reset_pin is not None:
                self._recover(now)
            else:
                self._at = now
        return False
