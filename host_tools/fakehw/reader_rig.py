"""The card reader's world for the simulator and tests: an emulated PN532 (pn532_chip) on a
virtual I2C bus, its reset pin, the tags placed in its field, and the firmware's own reader
(hw.reader over hw.pn532) built on it, on the caller's virtual clock.
Runs on CPython and MicroPython.
"""

from host_tools.fakehw.i2c_bus import VirtualI2C
from host_tools.fakehw.ntag213 import tag_for
from host_tools.fakehw.pins import OUT, Pin
from host_tools.fakehw.pn532_chip import PN532Chip
from hw.pn532 import I2C_ADDRESS


class DriverClock:
    """The PN532 driver's ticks_ms / sleep_ms on virtual time: `set(now)` follows the
    simulation's clock; a blocking driver call's sleeps move it on from there."""

    def __init__(self, now=0):
        self.now = now

    def set(self, now):
        if now > self.now:
            self.now = now

    def ticks_ms(self):
        return self.now

    def sleep_ms(self, ms):
        self.now += ms


class ReaderRig:
    """The emulated PN532 (timed, as a real one) with its reset pin and the firmware's
    reader on it. Cards are emulated NTAG213 tags (7-byte UIDs) or plain ISO14443A tags
    for other UIDs; a card keeps its tag (and memory)."""

    ADDR = I2C_ADDRESS  # the chip's, as the firmware's driver has it

    def __init__(self, now=0, report=None, chip=None):
        from hw.pn532 import PN532
        from hw.reader import Reader
        self.clock = DriverClock(now)
        self.bus = VirtualI2C()
        self.chip = chip if chip is not None else PN532Chip.timed(self.clock.ticks_ms)
        self.bus.attach(self.ADDR, self.chip)
        self.reset_pin = Pin(None, OUT, value=1)  # RSTPDN, wired to the chip
        self.reset_pin.on_level = self.chip.reset_pin
        self._driver = PN532
        self._reader = Reader
        self.report = report
        self.tags = {}
        self.power_on(now)

    def power_on(self, now):
        """The board (re)boots: the chip is power-cycled, the firmware's driver and reader
        are made afresh (the tags and the chip's wiring stay)."""
        self.clock.set(now)
        self.chip.reset_pin(0)
        self.chip.reset_pin(1)
        self.driver = self._driver(self.bus, ticks_ms=self.clock.ticks_ms,
                                   sleep_ms=self.clock.sleep_ms)
        self.reader = self._reader(self.driver, self.reset_pin, self.report)
        return self.reader

    def tag(self, uid):
        uid = bytes(uid)
        if uid not in self.tags:
            self.tags[uid] = tag_for(uid)
        return self.tags[uid]

    def place(self, uid):
        self.chip.field.place(self.tag(uid))

    def remove(self):
        self.chip.field.remove()

    def vanish(self):
        """The chip leaves the bus (a loose wire): nothing acknowledges its address."""
        self.bus.detach(self.ADDR)

    def come_back(self):
        self.bus.attach(self.ADDR, self.chip)
