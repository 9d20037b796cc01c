"""Fake hardware, the one home of it (CPython and MicroPython alike): chip-level
emulators (a virtual I2C bus, a PN532 reader and NTAG213 tags behind it), pins and PWM
(`pins`), the LED strip (`strip`), the reader's world for the simulator (`reader_rig`), the
flash (`flash`), and `pico/`: the virtual board's `machine` and `neopixel` over the same
fakes, and its supervisor. `chiprig` (CPython only) wires the PN532 model to an emulated
RP2040 (rp2040py) for `make bench-chip`."""

from .i2c_bus import VirtualClock, VirtualI2C
from .ntag213 import NTAG213, ISO14443ATag
from .pn532_chip import Field, PN532Chip

__all__ = ["VirtualClock", "VirtualI2C", "NTAG213", "ISO14443ATag", "Field", "PN532Chip", "reader"]


def reader(addr=None, **chip_options):
    """A bus with a PN532 chip attached at addr (by default the driver's): returns
    (bus, chip)."""
    if addr is None:
        # Not at the top: the virtual board imports this package, and must not take the
        # repository's drivers for the ones flashed on it.
        from hw.pn532 import I2C_ADDRESS as addr
    bus = VirtualI2C()
    chip = bus.attach(addr, PN532Chip(**chip_options))
    return bus, chip
