"""`machine` on the virtual board: the Raspberry Pi Pico's (rp2 port) API over emulated
hardware (see _vboard). The unix port's own `machine` has none of this; this file shadows it.

Emulated: Pin (levels the outside world drives, pulls, IRQs), Signal, I2C and SoftI2C (a
PN532 on the reader's bus), PWM, WDT (enforced by the launcher in real time), ADC,
bitstream (what neopixel uses), reset, soft_reset, reset_cause, unique_id, freq, idle.
mem32 reads the watchdog's CTRL register (its ENABLE bit says whether the watchdog runs, which
host tools check); any other address raises. Not emulated, and saying so when used: Timer,
UART, SPI, RTC, mem8/mem16, deepsleep's power-down (it resets like the Pico on wake-up).
"""

import time

import _vboard
from _vboard import Pin  # the fake Pin of host_tools/fakehw/pins.py, one per GPIO

from host_tools.fakehw.pins import VirtualPWM as _VirtualPWM
from host_tools.fakehw.pins import bitstream  # noqa: F401 -- sends buf down the pin's wire
from host_tools.fakehw.pins import gpio_number as _gpio

PWRON_RESET = 1
WDT_RESET = 3  # also after machine.reset(): the rp2 port resets through the watchdog

_FREQ = 125_000_000


def reset():
    _vboard.hard_reset("machine.reset()")


def soft_reset():
    raise SystemExit


def bootloader(*args):
    _vboard.hard_reset("machine.bootloader()")


def reset_cause():
    return _vboard.reset_cause


def unique_id():
    return _vboard.unique_id


def freq(hz=None):
    global _FREQ
    if hz is None:
        return _FREQ
    _FREQ = hz


def idle():
    _vboard.poll()
    time.sleep_ms(1)


def lightsleep(ms=None):
    _vboard.poll()
    time.sleep_ms(ms if ms is not None else 1000)


def deepsleep(ms=None):
    if ms:
        time.sleep_ms(ms)
    _vboard.hard_reset("machine.deepsleep()")


def disable_irq():
    return 0


def enable_irq(state=0):
    pass


def time_pulse_us(pin, level, timeout_us=1000000):
    raise NotImplementedError("machine.time_pulse_us is not emulated on the virtual board")


WATCHDOG_CTRL = 0x40058000  # RP2040 datasheet 4.7.6: bit 30 ENABLE


class _Mem:
    def __init__(self, name):
        self.name = name

    def __getitem__(self, addr):
        if addr == WATCHDOG_CTRL and self.name == "mem32":
            return (1 << 30) if _vboard.wdt_enabled else 0
        raise NotImplementedError("machine.%s[0x%08X] is not emulated on the virtual board"
                                  % (self.name, addr))

    def __setitem__(self, addr, value):
        raise NotImplementedError("machine.%s[0x%08X] is not emulated on the virtual board"
                                  % (self.name, addr))


mem8 = _Mem("mem8")
mem16 = _Mem("mem16")
mem32 = _Mem("mem32")


class Signal:
    def __init__(self, pin, *args, invert=False, **kw):
        self._pin = pin if isinstance(pin, Pin) else Pin(pin, *args, **kw)
        self._invert = invert

    def value(self, x=None):
        if x is None:
            return self._pin.value() ^ self._invert
        self._pin.value((1 if x else 0) ^ self._invert)

    def __call__(self, x=None):
        return self.value(x)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


# rp2 defaults when I2C(id) is given no pins (MICROPY_HW_I2Cn_SCL/SDA)
_I2C_DEFAULT = {0: (9, 8), 1: (7, 6)}


class I2C:
    """A hardware I2C controller. The bus behind it is emulated: a NACKed address raises
    OSError(5) (EIO) as on rp2."""

    def __init__(self, id=-1, *, scl=None, sda=None, freq=400000, timeout=50000):
        if id not in (0, 1):
            raise ValueError("I2C(%s) doesn't exist" % (id,))
        d_scl, d_sda = _I2C_DEFAULT[id]
        scl = d_scl if scl is None else _gpio(scl)
        sda = d_sda if sda is None else _gpio(sda)
        # RP2040 pin functions: even pins are SDA, odd SCL; bit 1 says which controller.
        if not (scl & 1 and (scl >> 1) & 1 == id):
            raise ValueError("bad SCL pin")
        if not (sda & 1 == 0 and (sda >> 1) & 1 == id):
            raise ValueError("bad SDA pin")
        self._init(id, scl, sda, freq)

    def _init(self, id, scl, sda, freq):
        self._bus = _vboard.bus(id)
        self._bus.freq = freq
        self.id = id
        self.scl = scl
        self.sda = sda
        self.freq = freq

    def __repr__(self):
        return "I2C(%d, freq=%d, scl=%d, sda=%d)" % (self.id, self.freq, self.scl, self.sda)

    def scan(self):
        _vboard.poll()
        return self._bus.scan()

    def writeto(self, addr, buf, stop=True):
        _vboard.poll()
        n = self._bus.writeto(addr, buf, stop)
        _vboard.after_write()
        return n

    def writevto(self, addr, vector, stop=True):
        _vboard.poll()
        n = self._bus.writevto(addr, vector, stop)
        _vboard.after_write()
        return n

    def readfrom(self, addr, nbytes, stop=True):
        _vboard.poll()
        return self._bus.readfrom(addr, nbytes, stop)

    def readfrom_into(self, addr, buf, stop=True):
        _vboard.poll()
        self._bus.readfrom_into(addr, buf, stop)

    def writeto_mem(self, addr, memaddr, buf, *, addrsize=8):
        self.writeto(addr, memaddr.to_bytes(addrsize // 8, "big") + bytes(buf))

    def readfrom_mem(self, addr, memaddr, nbytes, *, addrsize=8):
        self.writeto(addr, memaddr.to_bytes(addrsize // 8, "big"), False)
        return self.readfrom(addr, nbytes)

    def readfrom_mem_into(self, addr, memaddr, buf, *, addrsize=8):
        buf[:] = self.readfrom_mem(addr, memaddr, len(buf), addrsize=addrsize)


class SoftI2C(I2C):
    """Bit-banged I2C: on the emulated board it reaches the same wires as the controller
    that owns its pins."""

    def __init__(self, scl, sda, *, freq=400000, timeout=50000):
        scl = _gpio(scl)
        sda = _gpio(sda)
        self._init((sda >> 1) & 1, scl, sda, freq)


class PWM(_VirtualPWM):
    """rp2's machine.PWM: the fake of host_tools/fakehw/pins.py, the one rule for duty, freq
    and deinit, whose output (freq, duty; duty 0 while stopped) goes to the launcher at every
    setting instead of into a log."""

    def __init__(self, dest, *, freq=None, duty_u16=None, duty_ns=None, invert=None):
        self._pin = dest if isinstance(dest, Pin) else Pin(dest)
        super().__init__(freq=None, duty_u16=None)
        self.init(freq=freq, duty_u16=duty_u16, duty_ns=duty_ns, invert=invert)

    def _changed(self):
        freq, duty = self.output()
        _vboard.pwm(self._pin._id, freq, duty)


class WDT:
    """The RP2040 watchdog: once started it cannot be stopped, a soft reboot leaves it
    running, and if not fed within `timeout` ms the launcher resets the board."""

    def __init__(self, id=0, timeout=5000):
        if id != 0:
            raise ValueError("WDT(%s) doesn't exist" % (id,))
        if timeout > 8388:
            raise ValueError("timeout exceeds 8388 ms")
        _vboard.watchdog(max(1, int(timeout)))

    def feed(self):
        _vboard.feed()
        _vboard.poll()


class ADC:
    """ADC inputs 0..3 (GP26..GP29) read 0; input 4, the temperature sensor, about 27 C."""

    CORE_TEMP = 4

    def __init__(self, pin):
        if isinstance(pin, int) and 0 <= pin <= 4:
            self._ch = pin
        else:
            gpio = _gpio(pin)
            if not 26 <= gpio <= 29:
                raise ValueError("Pin doesn't have ADC capabilities")
            self._ch = gpio - 26

    def read_u16(self):
        return 14232 if self._ch == 4 else 0  # 0.7165 V: 27 C by the RP2040 formula


def _missing(name):
    class Missing:
        def __init__(self, *args, **kw):
            raise NotImplementedError(
                "machine.%s is not emulated on the virtual board" % name)
    Missing.__name__ = name
    return Missing


Timer = _missing("Timer")
UART = _missing("UART")
SPI = _missing("SPI")
SoftSPI = _missing("SoftSPI")
RTC = _missing("RTC")
