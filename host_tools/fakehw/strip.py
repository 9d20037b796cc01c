"""Virtual hardware for the simulator at the driver interfaces the firmware uses.

- `ReaderRig`: the card reader's world: an emulated PN532 (host_tools/fakehw) on a virtual
  I2C bus, its reset pin, the tags placed in its field. The firmware's own reader
  (hw.reader over hw.pn532) is built on it, on the caller's virtual clock.
- `VirtualNeoPixel`: MicroPython's `neopixel.NeoPixel` as the LED driver sees it: a `buf`
  in GRB order and `write()`, which captures the bytes sent down the data line.
Runs on CPython and MicroPython.
"""


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

    ADDR = 0x24

    def __init__(self, now=0, report=None, chip=None):
        from host_tools.fakehw.i2c_bus import VirtualI2C
        from host_tools.fakehw.pn532_chip import PN532Chip, ResetPin
        from hw.pn532 import PN532
        from hw.reader import Reader
        self.clock = DriverClock(now)
        self.bus = VirtualI2C()
        self.chip = chip if chip is not None else PN532Chip.timed(self.clock.ticks_ms)
        self.bus.attach(self.ADDR, self.chip)
        self.reset_pin = ResetPin(self.chip)
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
        from host_tools.fakehw.ntag213 import NTAG213, ISO14443ATag
        uid = bytes(uid)
        if uid not in self.tags:
            self.tags[uid] = NTAG213(uid) if len(uid) == 7 else ISO14443ATag(uid)
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


class VirtualNeoPixel:
    def __init__(self, n):
        self.n = n
        self.buf = bytearray(3 * n)
        self.sent = bytearray(3 * n)
        self.writes = 0

    def write(self):
        # Copied byte by byte into a buffer made once: capturing allocates nothing, so
        # memory measurements see only the firmware.
        buf = self.buf
        sent = self.sent
        for j in range(len(buf)):
            sent[j] = buf[j]
        self.writes += 1

    def rgb(self):
        """The last frame sent, as [[r, g, b], ...] in strip order."""
        s = self.sent
        return [[s[j + 1], s[j], s[j + 2]] for j in range(0, len(s), 3)]
