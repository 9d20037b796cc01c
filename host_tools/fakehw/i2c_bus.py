"""A virtual I2C bus with machine.I2C's controller methods.

Devices register by 7-bit address and implement i2c_write(buf) and i2c_read(n).
An address nobody answers raises OSError(5) (EIO), which is what the rp2 port's
machine.I2C raises when the address byte is not acknowledged (other ports differ:
ESP32 says ENODEV 19). Runs on CPython and MicroPython.
"""

EIO = 5  # errno for a NACKed address on rp2


class VirtualI2C:
    def __init__(self, freq=400000):
        self.freq = freq
        self.devices = {}
        self.transcript = None  # a list of ('w' | 'r', addr, bytes) once record() is on
        self.transactions = 0  # every readfrom*/writeto* call, answered or not

    def attach(self, addr, device):
        self.devices[addr] = device
        return device

    def detach(self, addr):
        self.devices.pop(addr, None)

    def record(self, on=True):
        """Start (or stop) keeping a transcript; returns the list."""
        self.transcript = [] if on else None
        return self.transcript

    def _device(self, addr):
        self.transactions += 1
        dev = self.devices.get(addr)
        if dev is None:
            raise OSError(EIO, "EIO: no device acknowledged address 0x%02X" % addr)
        return dev

    def scan(self):
        return sorted(self.devices)

    def writeto(self, addr, buf, stop=True):
        dev = self._device(addr)
        data = bytes(buf)
        if self.transcript is not None:
            self.transcript.append(("w", addr, data))
        dev.i2c_write(data)
        return len(data)  # machine.I2C returns the number of ACKs received

    def writevto(self, addr, vector, stop=True):
        return self.writeto(addr, b"".join(bytes(v) for v in vector), stop)

    def readfrom(self, addr, nbytes, stop=True):
        dev = self._device(addr)
        data = bytes(dev.i2c_read(nbytes))
        if len(data) != nbytes:
            raise ValueError("device returned %d bytes for a %d-byte read" % (len(data), nbytes))
        if self.transcript is not None:
            self.transcript.append(("r", addr, data))
        return data

    def readfrom_into(self, addr, buf, stop=True):
        buf[:] = self.readfrom(addr, len(buf), stop)

    def bus_us(self, nbytes):
        """Bus time of one transaction of nbytes data (address byte + 9 bits each)."""
        return (nbytes + 1) * 9 * 1000000 // self.freq


class VirtualClock:
    """Virtual milliseconds for drivers that take ticks_ms / sleep_ms."""

    def __init__(self, start=0):
        self.now = start

    def ticks_ms(self):
        return self.now

    def sleep_ms(self, ms):
        self.now += ms

    def advance(self, ms):
        self.now += ms
