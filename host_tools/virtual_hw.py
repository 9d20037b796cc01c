"""Virtual hardware for the simulator at the driver interfaces the firmware uses.

- `ChipReader`: the emulated PN532 and tags behind the firmware's PN532 driver.
- `VirtualNeoPixel`: MicroPython's `neopixel.NeoPixel` as the LED driver sees it: a `buf`
  in GRB order and `write()`, which captures the bytes sent down the data line.
Runs on CPython and MicroPython.
"""


class ChipReader:
    """The card reader at chip level: an emulated PN532 on a virtual I2C bus, read by the
    firmware's own PN532 driver, as on the board. Cards are emulated NTAG213 tags (7-byte
    UIDs) or plain ISO14443A tags for other UIDs; a card keeps its tag (and memory)."""

    MAX_STEPS = 12  # driver calls for one poll; the emulated chip answers within 4

    def __init__(self):
        from host_tools.emu.i2c_bus import VirtualClock, VirtualI2C
        from host_tools.emu.pn532_chip import PN532Chip
        from hw.pn532 import PENDING, PN532
        self.pending = PENDING
        self.clock = VirtualClock()
        self.bus = VirtualI2C()
        self.chip = PN532Chip(clock=self.clock.ticks_ms)
        self.bus.attach(0x24, self.chip)
        self.driver = PN532(self.bus, ticks_ms=self.clock.ticks_ms, sleep_ms=self.clock.sleep_ms)
        self.version = self.driver.setup()
        self.tags = {}

    def tag(self, uid):
        from host_tools.emu.ntag213 import NTAG213, ISO14443ATag
        uid = bytes(uid)
        if uid not in self.tags:
            self.tags[uid] = NTAG213(uid) if len(uid) == 7 else ISO14443ATag(uid)
        return self.tags[uid]

    def place(self, uid):
        self.chip.field.place(self.tag(uid))

    def remove(self):
        self.chip.field.remove()

    def poll(self):
        """One poll of the reader task: the UID of the card in the field, or None."""
        for _ in range(self.MAX_STEPS):
            r = self.driver.poll_uid()
            if r is not self.pending:
                return r
            self.clock.advance(1)
        raise RuntimeError("the emulated PN532 did not answer a poll")


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
