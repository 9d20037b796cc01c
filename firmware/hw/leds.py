"""The LED strip: writes the view's RGB frames to a WS2812 chain.

`np` is MicroPython's `neopixel.NeoPixel(pin, n)` (its `buf` holds the bytes in the
strip's order, GRB for WS2812, and `write()` sends them): on the board, and in the
simulator the same class on a fake pin (host_tools/fakehw/strip.py). Copying is done in
place: no allocation; in machine code where MicroPython can compile it (hw.grb: on the
Pico, and the unix port), else in a loop here, with the same bytes.
"""

try:
    from hw.grb import copy_grb
except (ImportError, SyntaxError, ValueError):
    # CPython; a MicroPython without a native emitter; the virtual board (the unix port),
    # which is given the Pico's armv6m build ("incompatible .mpy arch")
    copy_grb = None


class Strip:
    ORDER = (1, 0, 2)  # WS2812 byte order: the G, R, B positions of an RGB pixel

    def __init__(self, np, n):
        if len(np.buf) < 3 * n:
            raise ValueError("the NeoPixel buffer holds fewer than %d pixels" % n)
        self.np = np
        self.n = n

    def show(self, frame):
        buf = self.np.buf
        n3 = 3 * self.n
        if copy_grb is not None and self.ORDER == (1, 0, 2) and len(frame) >= n3:
            copy_grb(buf, frame, n3)
            self.np.write()
            return
        g, r, b = self.ORDER
        for j in range(0, 3 * self.n, 3):
            buf[j] = frame[j + g]
            buf[j + 1] = frame[j + r]
            buf[j + 2] = frame[j + b]
        self.np.write()
