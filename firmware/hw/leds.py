"""The LED strip: writes the view's RGB frames to a WS2812 chain.

`np` is either the board's PIO chain (hw.ws2812.PioChain: its `show` takes the RGB frame
and hands it to the PIO by DMA) or MicroPython's `neopixel.NeoPixel(pin, n)` (its `buf`
holds the bytes in the strip's order, GRB for WS2812, and `write()` sends them): on a
MicroPython without `rp2.DMA`, and in the simulator the same class on a fake pin
(host_tools/fakehw/strip.py). Copying is done in place: no allocation; in machine code
where MicroPython can compile it (hw.ws2812's own on the Pico, hw.grb on the virtual
board), else in a loop here, with the same bytes.
"""


def _copier():
    """hw.grb's copy in machine code, or None where it cannot be had: CPython, a
    MicroPython without a native emitter (the page). Loaded only for a `neopixel` chain."""
    try:
        from hw.grb import copy_grb
    except (ImportError, SyntaxError, ValueError):
        return None
    return copy_grb


class Strip:
    ORDER = (1, 0, 2)  # WS2812 byte order: the G, R, B positions of an RGB pixel

    def __init__(self, np, n):
        self.direct = getattr(np, "show", None)  # a chain that takes the RGB frame itself
        self.copy_grb = None
        if self.direct is None:
            if len(np.buf) < 3 * n:
                raise ValueError("the NeoPixel buffer holds fewer than %d pixels" % n)
            self.copy_grb = _copier()
        self.np = np
        self.n = n

    def show(self, frame):
        if self.direct is not None:
            self.direct(frame)
            return
        buf = self.np.buf
        n3 = 3 * self.n
        copy_grb = self.copy_grb
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
