"""Chip-level emulators for the simulated board: a virtual I2C bus, a PN532
reader and NTAG213 tags behind it. CPython and MicroPython alike."""

from .i2c_bus import VirtualClock, VirtualI2C
from .ntag213 import NTAG213, ISO14443ATag
from .pn532_chip import Field, PN532Chip

__all__ = ["VirtualClock", "VirtualI2C", "NTAG213", "ISO14443ATag", "Field", "PN532Chip", "reader"]


def reader(addr=0x24, **chip_options):
    """A bus with a PN532 chip attached at addr: returns (bus, chip)."""
    bus = VirtualI2C()
    chip = bus.attach(addr, PN532Chip(**chip_options))
    return bus, chip
