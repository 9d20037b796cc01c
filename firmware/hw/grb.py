"""The LED strip's byte reorder in machine code: RGB frame -> GRB (WS2812) buffer.

`@micropython.viper` compiles it for the CPU (mpy-cross -march=armv6m for the Pico): on
the RP2040 it takes a few µs where the same loop in bytecode took about 3 ms a frame.
Only MicroPython with a native emitter can import it; hw.leds falls back to its own loop
elsewhere (CPython, ports without one), with the same bytes out.
"""

import micropython


@micropython.viper
def copy_grb(dst: ptr8, src: ptr8, n: int):  # noqa: F821  (viper's pointer type)
    """dst[0:n] = src[0:n] with the first two bytes of every three swapped."""
    i = 0
    while i < n:
        dst[i] = src[i + 1]
        dst[i + 1] = src[i]
        dst[i + 2] = src[i + 2]
        i += 3
