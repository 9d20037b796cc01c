"""neopixel on the virtual board: micropython-lib's NeoPixel (the Pico ships it frozen), the
same class as the simulator's (host_tools/fakehw/strip.py). Its write() goes through the
fake machine.bitstream: the board's Pin reports the frame to the launcher, which keeps it."""

from host_tools.fakehw.strip import NeoPixel

__all__ = ["NeoPixel"]
