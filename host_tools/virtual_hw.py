"""Virtual hardware for the simulator at the driver interfaces the firmware uses.

- `VirtualReader`: the card in the scanner's field; `poll()` reports its UID or None, as
  the PN532 driver's poll does.
- `VirtualNeoPixel`: MicroPython's `neopixel.NeoPixel` as the LED driver sees it: a `buf`
  in GRB order and `write()`, which captures the bytes sent down the data line.
Runs on CPython and MicroPython.
"""


class VirtualReader:
    def __init__(self):
        self.field = None

    def place(self, uid):
        self.field = uid

    def remove(self):
        self.field = None

    def poll(self):
        return self.field


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
