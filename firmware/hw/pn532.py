"""PN532 NFC reader over I2C, for NTAG213 card tags.

Runs unchanged on MicroPython (RP2040) and CPython. The caller passes the bus
(anything with machine.I2C's writeto / readfrom_into) and may inject a clock,
so the simulator can put a virtual bus and virtual time behind it.

Frames (NXP UM0701-02 s6.2.1): 00 | 00 FF | LEN | LCS | TFI | PD0..PDn | DCS | 00
with LEN + LCS = 0 and TFI + PD0..PDn + DCS = 0 (mod 256). Over I2C every read
from the chip starts with a status byte whose bit 0 says "frame ready" (s6.2.4).

Non-blocking polling: start_poll() writes one frame; each poll_result() does at
most two I2C transactions (a 1-byte status read, then one frame read or an abort
write), about 0.05 ms + 1.1 ms at 400 kHz (4.5 ms at 100 kHz), plus any clock
stretching by the chip. It returns PENDING, None (no card) or the UID bytes.

Deadlines are counted in what the caller sees: the time since the command by the
caller's clock (the polling calls take `now`) and the status reads made. A deadline
passes only at the second busy status read past it, so one late tick of the caller
(a loop polling every 20 ms, a garbage collection) cannot by itself fail a command
that the chip answers at the next read.
"""

from core.ticks import sleep_ms as _sleep_ms
from core.ticks import ticks_diff as _ticks_diff
from core.ticks import ticks_ms as _ticks_ms
from hw.const import const

I2C_ADDRESS = const(0x24)  # 7-bit address (0x48 write / 0x49 read in 8-bit form)

_TFI_HOST = const(0xD4)  # frame identifier: host controller -> PN532
_TFI_CHIP = const(0xD5)  # frame identifier: PN532 -> host controller
_TFI_ERROR = const(0x7F)  # sole TFI of the error frame: application-level syntax error
_STATUS_READY = const(0x01)  # I2C status byte bit 0: a frame is ready to read

_CMD_GET_FIRMWARE_VERSION = const(0x02)  # -> IC, Ver, Rev, Support
_CMD_SAM_CONFIGURATION = const(0x14)  # Mode, Timeout, IRQ
_CMD_RF_CONFIGURATION = const(0x32)  # CfgItem, ConfigurationData
_CMD_IN_DATA_EXCHANGE = const(0x40)  # Tg, DataOut -> Status, DataIn
_CMD_IN_LIST_PASSIVE_TARGET = const(0x4A)  # MaxTg, BrTy -> NbTg, TargetData

_SAM_NORMAL = const(0x01)  # SAMConfiguration mode 1: normal, no SAM
_SAM_TIMEOUT = const(0x14)  # 20 x 50 ms, only used in virtual card mode
_SAM_USE_IRQ = const(0x01)  # drive the P70_IRQ pin (harmless if unwired)
_RF_MAX_RETRIES = const(0x05)  # CfgItem 5: MxRtyATR, MxRtyPSL, MxRtyPassiveActivation
_RTY_ATR = const(0xFF)  # MxRtyATR power-on default (DEP only)
_RTY_PSL = const(0x01)  # MxRtyPSL power-on default
_MAX_TG = const(0x01)  # InListPassiveTarget: list at most one card
_BRTY_106A = const(0x00)  # 106 kbps type A (ISO/IEC 14443A)

_NTAG_READ = const(0x30)  # READ page -> 16 bytes (4 pages, rolls over)
_NTAG_WRITE = const(0xA2)  # WRITE page + 4 bytes -> 4-bit ACK 0x0A or NAK
_NTAG_GET_VERSION = const(0x60)  # -> 8 bytes, 00 04 04 02 01 00 0F 03 for NTAG213

_ACK = b"\x00\x00\xff\x00\xff\x00"  # ACK frame, either direction; host -> chip aborts
_NACK = b"\x00\x00\xff\xff\x00\x00"  # NACK frame: host asks for the last response again

_IDLE = const(0)  # no command under way
_WAIT_ACK = const(1)  # command written, ACK not read yet
_WAIT_RESP = const(2)  # ACK read, response not read yet
_UID_RESP_MAX = const(40)  # InListPassiveTarget data read: 6 + UID (<= 10) + ATS
_LATE_READS = const(2)  # busy status reads past a deadline before it counts as missed

# InDataExchange status codes (UM0701-02 s7.1 error table), the common ones.
_STATUS_TEXT = {
    0x01: "timeout: the tag did not answer",
    0x02: "CRC error",
    0x03: "parity error",
    0x14: "Mifare authentication error / tag NAK",
    0x27: "command not acceptable in the current context",
    0x29: "target released",
}


class PN532Error(Exception):
    """A protocol fault; InDataExchange errors carry .status (the chip's code)."""

    status = 0  # InDataExchange status byte, 0 for other faults


class _Pending:
    def __repr__(self):
        return "PENDING"


PENDING = _Pending()  # poll_result(): no answer yet, call again later


def _hex(buf):
    return " ".join("%02X" % b for b in buf)


def build_frame(data):
    """Command frame around data (command code + parameters), TFI D4."""
    n = len(data) + 1
    if n > 255:
        raise ValueError("frame data too long")
    frame = bytearray(n + 7)
    frame[2] = 0xFF  # frame[0:2] preamble and first start byte are 00
    frame[3] = n
    frame[4] = -n & 0xFF
    frame[5] = _TFI_HOST
    frame[6:6 + len(data)] = data
    frame[-2] = -(_TFI_HOST + sum(data)) & 0xFF
    return frame  # frame[-1] is the 00 postamble


def parse_frame(buf):
    """Command code + data of the response frame in buf, or raise PN532Error."""
    n = len(buf)
    i = 0
    while i < n and buf[i] == 0:  # preamble and first start byte (any number of 00)
        i += 1
    if i == 0 or i >= n or buf[i] != 0xFF:
        raise PN532Error("no frame start (00 FF) in " + _hex(buf[:12]))
    i += 1
    if i + 2 > n:
        raise PN532Error("truncated frame: header cut after %d bytes" % n)
    ln, lcs = buf[i], buf[i + 1]
    if ln == 0 and lcs == 0xFF:
        raise PN532Error("unexpected ACK frame where a response was due")
    if ln == 0xFF and lcs == 0:
        raise PN532Error("NACK frame from the PN532")
    if ln == 0xFF and lcs == 0xFF:
        raise PN532Error("extended information frame not supported")
    if (ln + lcs) & 0xFF:
        raise PN532Error("bad length checksum: LEN %02X LCS %02X" % (ln, lcs))
    i += 2
    if i + ln + 1 > n:
        raise PN532Error("truncated frame: LEN %d needs %d bytes, read %d" % (ln, i + ln + 1, n))
    body = buf[i:i + ln]
    if (sum(body) + buf[i + ln]) & 0xFF:
        raise PN532Error("bad data checksum: DCS %02X" % buf[i + ln])
    if ln == 1 and body[0] == _TFI_ERROR:
        raise PN532Error("application error frame")
    if ln == 0 or body[0] != _TFI_CHIP:
        raise PN532Error("bad frame identifier (TFI) in " + _hex(buf[:12]))
    if ln < 2:
        raise PN532Error("truncated frame: no response code")
    return bytes(body[1:])


class I2CTransport:
    """The bus side only: write a frame, poll the status byte, read a frame."""

    def __init__(self, i2c, addr=I2C_ADDRESS):
        self.i2c = i2c
        self.addr = addr
        self._status = bytearray(1)

    def _fail(self, e):
        code = e.args[0] if e.args else e
        return PN532Error("PN532 not responding at I2C 0x%02X (OSError %s)" % (self.addr, code))

    def write(self, frame):
        try:
            self.i2c.writeto(self.addr, frame)
        except OSError as e:
            raise self._fail(e) from e

    def ready(self):
        """One 1-byte read: is a frame (ACK or response) waiting?"""
        try:
            self.i2c.readfrom_into(self.addr, self._status)
        except OSError as e:
            raise self._fail(e) from e
        return bool(self._status[0] & _STATUS_READY)

    def read(self, n):
        """n frame bytes (the status byte in front is checked and dropped)."""
        buf = bytearray(n + 1)
        try:
            self.i2c.readfrom_into(self.addr, buf)
        except OSError as e:
            raise self._fail(e) from e
        if not buf[0] & _STATUS_READY:
            raise PN532Error("PN532 went busy between status and read")
        return memoryview(buf)[1:]


class PN532:
    """PN532 protocol: framing, ACK, commands. One command is under way at a time."""

    ack_timeout_ms = 15  # UM0701-02 s6.2.3: the ACK comes within 15 ms
    response_timeout_ms = 1000  # blocking commands: bound on the chip's answer
    poll_timeout_ms = 1000  # start_poll(): give up (and abort) after this long

    def __init__(self, i2c, addr=I2C_ADDRESS, ticks_ms=None, sleep_ms=None):
        self.bus = I2CTransport(i2c, addr)
        self._ticks = ticks_ms or _ticks_ms
        self._sleep = sleep_ms or _sleep_ms
        self._state = _IDLE
        self._cmd = 0
        self._since = 0
        self._limit = 0
        self._late = 0  # busy status reads past the current deadline
        self.tg = 1  # logical number of the listed target, for InDataExchange
        self.sens_res = None  # ATQA of the last listed card (2 bytes)
        self.sel_res = None  # SAK of the last listed card

    @property
    def busy(self):
        """A command is under way (its ACK or its response not read yet)."""
        return self._state != _IDLE

    # -- frame level -------------------------------------------------------
    def _send(self, cmd, params, limit_ms, now=None):
        data = bytearray(1 + len(params))
        data[0] = cmd
        data[1:] = bytes(params)
        self._state = _IDLE  # a new command aborts any prior one (s6.2.2)
        self.bus.write(build_frame(data))
        self._cmd = cmd
        self._limit = limit_ms
        self._since = self._ticks() if now is None else now
        self._late = 0
        self._state = _WAIT_ACK

    def _step(self, resp_max, now=None):
        """At most two I2C transactions; PENDING, or the response data. `now`: the
        caller's clock (ms), else the driver's own."""
        try:
            if not self.bus.ready():
                waited = _ticks_diff(self._ticks() if now is None else now, self._since)
                limit = self.ack_timeout_ms if self._state == _WAIT_ACK else self._limit
                if waited >= limit:
                    self._late += 1
                    if self._late >= _LATE_READS:
                        if self._state == _WAIT_ACK:
                            raise PN532Error("no ACK from PN532 within %d ms" % limit)
                        return None  # caller decides: no card, or a fault
                return PENDING
            if self._state == _WAIT_ACK:
                got = bytes(self.bus.read(6))
                if got == _ACK:
                    self._state = _WAIT_RESP
                    self._since = self._ticks() if now is None else now
                    self._late = 0
                    return PENDING
                if got == _NACK:
                    raise PN532Error("NACK instead of ACK")
                raise PN532Error("bad ACK: " + _hex(got))
            data = parse_frame(self.bus.read(resp_max + 9))
            self._state = _IDLE
            if data[0] != self._cmd + 1:
                raise PN532Error("unexpected response 0x%02X to command 0x%02X (stale frame?)"
                                 % (data[0], self._cmd))
            return data[1:]
        except Exception:
            self._state = _IDLE
            raise

    def _call(self, cmd, params=b"", resp_max=0, need=0):
        """Blocking command: response data (after the response code)."""
        self._send(cmd, params, self.response_timeout_ms)
        while True:
            r = self._step(resp_max)
            if r is None:
                self.abort()
                raise PN532Error("no response to command 0x%02X within %d ms" % (cmd, self._limit))
            if r is not PENDING:
                if len(r) < need:
                    raise PN532Error("short response to command 0x%02X: %d bytes, expected %d"
                                     % (cmd, len(r), need))
                return r
            self._sleep(1)

    def abort(self):
        """Cancel the command under way: an ACK from the host aborts (s6.2.1.3)."""
        self._state = _IDLE
        self.bus.write(_ACK)

    # -- commands ----------------------------------------------------------
    def firmware_version(self):
        """(IC, Ver, Rev, Support), e.g. (0x32, 1, 6, 7) for a PN532 v1.6."""
        return tuple(self._call(_CMD_GET_FIRMWARE_VERSION, b"", 4, 4)[:4])

    def sam_configuration(self):
        """Normal mode (no SAM); also wakes the chip from its power-on low-battery mode."""
        self._call(_CMD_SAM_CONFIGURATION, (_SAM_NORMAL, _SAM_TIMEOUT, _SAM_USE_IRQ))

    def rf_retries(self, n=1):
        """Passive activation retries (0xFF = forever, the power-on default)."""
        self._call(_CMD_RF_CONFIGURATION, (_RF_MAX_RETRIES, _RTY_ATR, _RTY_PSL, n & 0xFF))

    def setup(self, retries=1):
        """Firmware check, SAM normal mode, bounded retries; returns the version."""
        version = self.firmware_version()
        self.sam_configuration()
        self.rf_retries(retries)
        return version

    # -- card polling (non-blocking) ----------------------------------------
    def start_poll(self, timeout_ms=None, now=None):
        """Send InListPassiveTarget (one I2C write) and return at once."""
        if self._state != _IDLE and self._cmd == _CMD_IN_LIST_PASSIVE_TARGET:
            return
        limit = timeout_ms or self.poll_timeout_ms
        self._send(_CMD_IN_LIST_PASSIVE_TARGET, (_MAX_TG, _BRTY_106A), limit, now)

    def poll_result(self, now=None):
        """PENDING, None (no card, or none before the poll timed out) or UID bytes."""
        if self._state == _IDLE or self._cmd != _CMD_IN_LIST_PASSIVE_TARGET:
            raise PN532Error("poll_result() without start_poll()")
        r = self._step(_UID_RESP_MAX, now)
        if r is None:
            self.abort()
            return None
        if r is PENDING:
            return r
        return self._uid(r)

    def poll_uid(self, now=None):
        """One step of continuous polling: starts a poll when none is under way. `now`:
        the caller's clock in ms (its deadlines are counted on it)."""
        if self._state == _IDLE or self._cmd != _CMD_IN_LIST_PASSIVE_TARGET:
            self.start_poll(None, now)
            return PENDING
        return self.poll_result(now)

    def read_uid(self, timeout_ms=1000):
        """Blocking: the UID of a card in the field within timeout_ms, else None."""
        self.start_poll(timeout_ms)
        while True:
            r = self.poll_result()
            if r is not PENDING:
                return r
            self._sleep(1)

    def _uid(self, r):
        if len(r) < 1 or r[0] == 0:
            return None
        if len(r) < 6 or len(r) < 6 + r[5]:
            raise PN532Error("short InListPassiveTarget response: " + _hex(r))
        n = r[5]
        if n not in (4, 7, 10):
            raise PN532Error("bad UID length %d" % n)
        self.tg = r[1]
        self.sens_res = bytes(r[2:4])
        self.sel_res = r[4]
        return bytes(r[6:6 + n])

    # -- NTAG21x through InDataExchange -------------------------------------
    def _exchange(self, data, resp_max):
        r = self._call(_CMD_IN_DATA_EXCHANGE, bytes((self.tg,)) + bytes(data), resp_max + 1, 1)
        status = r[0] & 0x3F  # bits 6, 7 are MI / NAD flags, not errors
        if status:
            text = _STATUS_TEXT.get(status, "see UM0701-02 s7.1")
            e = PN532Error("InDataExchange status 0x%02X: %s" % (status, text))
            e.status = status
            raise e
        return r[1:]

    def ntag_read(self, page):
        """16 bytes: pages page..page+3 (the tag rolls over after its last page)."""
        r = self._exchange((_NTAG_READ, page), 16)
        if len(r) != 16:
            raise PN532Error("NTAG READ returned %d bytes, expected 16" % len(r))
        return bytes(r)

    def ntag_write(self, page, data):
        """Write 4 bytes to one page; a NAK from the tag raises with status 0x14."""
        if len(data) != 4:
            raise ValueError("NTAG pages are 4 bytes")
        self._exchange(bytes((_NTAG_WRITE, page)) + bytes(data), 0)

    def ntag_get_version(self):
        """8 bytes of GET_VERSION; 00 04 04 02 01 00 0F 03 is an NTAG213."""
        r = self._exchange((_NTAG_GET_VERSION,), 8)
        if len(r) != 8:
            raise PN532Error("GET_VERSION returned %d bytes, expected 8" % len(r))
        return bytes(r)
