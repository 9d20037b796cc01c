"""The LED strip, for the simulator and the virtual board alike.

- `NeoPixel`: micropython-lib's `neopixel.NeoPixel` (the Pico ships it frozen), unchanged but
  for where `bitstream` comes from: the fake `machine.bitstream` of `pins`, which sends
  the bytes down the pin's wire. It is the virtual board's `neopixel` module too.
- `LedStrip`: the WS2812 chain at the far end of the data line (a pin's `on_stream`): keeps
  the last frame sent (GRB order) and counts the frames.
- `VirtualNeoPixel(n)`: a NeoPixel on a pin wired to a LedStrip of n pixels, for the
  simulator and tests: the frame sent is `sent` / `rgb()`.
Runs on CPython and MicroPython.
"""

from host_tools.fakehw.pins import Pin, bitstream


class NeoPixel:
    # G R B W
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(n * bpp)
        self.pin.init(pin.OUT)
        # Timing arg can either be 1 for 800kHz or 0 for 400kHz,
        # or a user-specified timing ns tuple (high_0, low_0, high_1, low_1).
        self.timing = (
            ((400, 850, 800, 450) if timing else (800, 1700, 1600, 900))
            if isinstance(timing, int)
            else timing
        )

    def __len__(self):
        return self.n

    def __setitem__(self, i, v):
        offset = i * self.bpp
        for i in range(self.bpp):
            self.buf[offset + self.ORDER[i]] = v[i]

    def __getitem__(self, i):
        offset = i * self.bpp
        return tuple(self.buf[offset + self.ORDER[i]] for i in range(self.bpp))

    def fill(self, v):
        b = self.buf
        l = len(self.buf)  # noqa: E741 -- as in micropython-lib
        bpp = self.bpp
        for i in range(bpp):
            c = v[i]
            j = self.ORDER[i]
            while j < l:
                b[j] = c
                j += bpp

    def write(self):
        # BITSTREAM_TYPE_HIGH_LOW = 0
        bitstream(self.pin, 0, self.timing, self.buf)


class LedStrip:
    def __init__(self, n, bpp=3):
        self.sent = bytearray(bpp * n)
        self.writes = 0

    def receive(self, buf):
        # Copied byte by byte into a buffer made once: capturing allocates nothing, so
        # memory measurements see only the firmware.
        sent = self.sent
        for j in range(min(len(buf), len(sent))):
            sent[j] = buf[j]
        self.writes += 1

    def rgb(self):
        """The last frame sent, as [[r, g, b], ...] in strip order."""
        s = self.sent
        return [[s[j + 1], s[j], s[j + 2]] for j in range(0, len(s), 3)]


class VirtualNeoPixel(NeoPixel):
    def __init__(self, n, gpio=None):
        self.strip = LedStrip(n)
        pin = Pin(gpio)
        pin.on_stream = self.strip.receive
        NeoPixel.__init__(self, pin, n)

    @property
    def sent(self):
        return self.strip.sent

    @property
    def writes(self):
        return self.strip.writes

    def rgb(self):
        return self.strip.rgb()
