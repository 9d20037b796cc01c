"""A PN532 as seen from its I2C pins, with a field that holds one tag.

Follows NXP UM0701-02: a well-formed command frame is ACKed (00 00 FF 00 FF 00),
then answered with a response frame (TFI D5, code = command + 1); a command the
chip cannot process (unknown code, bad parameters, TFI not D4) is ACKed and then
answered with the error frame 00 00 FF 01 FF 7F 81 00 (s6.2.1.5). A frame with
a wrong LCS or DCS is ignored: no ACK, the host is to resend after 15 ms
(s6.2.3). An ACK from the host aborts the command under way, a NACK asks for the
last response again, and a new command aborts any prior one.

I2C (s6.2.4): each read starts with the status byte, 01 when a frame is ready.
A 1-byte read only polls; a longer read when ready returns 01 + the frame (then
00 padding) and consumes it. A read when not ready returns 00 and zeros.
Processing time is modelled as a number of status polls (and optionally virtual
milliseconds from an injected clock) before the ACK and before the response.

RSTPDN (the reset pin, `reset_pin(level)`: a fake Pin's `on_level`): held low, the chip
is powered down and acknowledges nothing on the bus; released, it starts afresh
(power-on state).
`wedge()` hangs it (it acknowledges its address but never answers) until reset.

Deviations from the real chip, chosen for a small honest model: only the
commands below; the response is queued once the ACK has been read; a tag NAK
during InDataExchange is reported as status 0x14, an InDataExchange without a
listed target as 0x27; after a NAK the tag drops back to idle, so the next
exchange times out (0x01) until the tag is listed again.
Runs on CPython and MicroPython.
"""

ACK = b"\x00\x00\xff\x00\xff\x00"
NACK = b"\x00\x00\xff\xff\x00\x00"
ERROR_FRAME = b"\x00\x00\xff\x01\xff\x7f\x81\x00"
TAG_ACK = 0x0A  # 4-bit ACK from an NTAG

FAULTS = (
    "bad_dcs",  # next response: data checksum wrong
    "bad_lcs",  # next response: length checksum wrong
    "nack",  # next command: a NACK frame where the ACK should be
    "garbage_ack",  # next command: six junk bytes where the ACK should be
    "no_ack",  # next command: never ACKed or answered (chip hung)
    "error_frame",  # next response: the error frame instead
    "short",  # next response: last data byte dropped, framing still valid
    "long",  # next response: 64 extra bytes, longer than any sane host read
    "stale",  # next response: the previous response frame again
    "tag_leaves",  # the tag leaves the field as the next InDataExchange arrives
)


def frame(tfi, data):
    """A normal information frame (or the error frame for tfi 0x7F, no data)."""
    n = len(data) + 1
    out = bytearray(n + 7)
    out[2] = 0xFF
    out[3] = n
    out[4] = -n & 0xFF
    out[5] = tfi
    out[6:6 + len(data)] = data
    out[-2] = -(tfi + sum(data)) & 0xFF
    return bytes(out)


class Field:
    """The RF field: at most one tag in it."""

    def __init__(self):
        self.tag = None

    def place(self, tag):
        self.tag = tag

    def remove(self):
        self.tag = None


class PN532Chip:
    IC = 0x32  # PN532
    VER = 0x01  # firmware 1.6
    REV = 0x06
    SUPPORT = 0x07  # ISO14443A, ISO14443B, ISO18092

    LOG = 32  # commands kept in `commands`, for tests

    def __init__(self, ack_polls=1, response_polls=2, clock=None, response_ms=0):
        self.field = Field()
        self.ack_polls = ack_polls  # status reads answered "busy" before the ACK
        self.response_polls = response_polls  # and before the response
        self.clock = clock  # callable -> ms, to hold responses for response_ms
        self.response_ms = response_ms
        self.resets = 0  # times RSTPDN was released
        self.held = False  # RSTPDN low: powered down, no answer on the bus
        self._power_on()

    @classmethod
    def timed(cls, clock, response_ms=2):
        """A chip whose delays are times on `clock`, not counts of status polls: the ACK
        is there at the first status read (the real chip's comes within about a
        millisecond) and a response `response_ms` after the ACK has been read. What a
        board polling in real time (or on a virtual clock that moves between polls) sees."""
        return cls(ack_polls=0, response_polls=0, clock=clock, response_ms=response_ms)

    def _power_on(self):
        self.wedged = False
        self.max_retries = 0xFF  # MxRtyPassiveActivation, power-on default: forever
        self.sam_mode = 0  # 0 until SAMConfiguration (power-on: low-battery mode)
        self.commands = []  # (code, params) of the last LOG commands accepted
        self.ignored = 0  # frames dropped for bad framing
        self._faults = []
        self._out = None  # frame ready to be read (ACK or response)
        self._out_is_ack = False
        self._busy = 0  # polls left before _out is ready
        self._ready_at = 0
        self._next = None  # response waiting for its ACK to be read
        self._waiting = None  # InListPassiveTarget waiting for a tag (retries forever)
        self._last = None  # last response frame sent (NACK, stale)
        self._target = None  # the tag listed as target 1
        self._awake = False  # it still answers (no NAK since it was listed)

    def wedge(self):
        """Hang: the address is acknowledged, nothing is ever answered, until a reset."""
        self.wedged = True

    def reset_pin(self, level):
        """RSTPDN driven to `level`: low powers down, released starts afresh."""
        if not level:
            self.held = True
        elif self.held:
            self.held = False
            self.resets += 1
            self._power_on()

    def _check_power(self):
        if self.held:
            raise OSError(5, "EIO: the PN532 is held in reset")

    def inject(self, fault):
        if fault not in FAULTS:
            raise ValueError("unknown fault %r" % (fault,))
        self._faults.append(fault)

    def _take(self, fault):
        if fault in self._faults:
            self._faults.remove(fault)
            return True
        return False

    # -- I2C device interface ------------------------------------------------
    def i2c_write(self, buf):
        self._check_power()
        if self.wedged:
            return
        if buf == ACK:
            self._out = self._next = self._waiting = None  # abort
            return
        if buf == NACK:
            if self._last is not None:
                self._ready(self._last, 0, False)
            return
        body = self._unframe(buf)
        if body is None:
            self.ignored += 1
            return
        self._out = self._next = self._waiting = None  # a new command aborts the old
        if self._take("no_ack"):
            return
        if self._take("nack"):
            ack = NACK
        elif self._take("garbage_ack"):
            ack = b"\x00\x5a\xa5\x12\x34\x56"
        else:
            ack = ACK
        if body[0] != 0xD4 or len(body) < 2:
            resp = ERROR_FRAME
        else:
            resp = self._execute(body[1], bytes(body[2:]))
        self._ready(ack, self.ack_polls, True)
        if resp is not None:
            self._next = self._mangle(resp)

    def i2c_read(self, n):
        self._check_power()
        if self.wedged:
            return bytes(n)
        if self._out is None and self._waiting is not None and self.field.tag is not None:
            resp = self._mangle(self._list(self._waiting))  # a tag came into the field
            self._waiting = None
            self._ready(resp, 0, False)
        if self._out is None or self._busy > 0 or (self.clock and self.clock() < self._ready_at):
            if self._busy > 0:
                self._busy -= 1
            return bytes(n)
        if n == 1:
            return b"\x01"
        out = self._out
        self._out = None
        if self._out_is_ack:
            if self._next is not None:
                self._ready(self._next, self.response_polls, False)
                self._next = None
        else:
            self._last = out
        data = b"\x01" + out[:n - 1]
        return data + bytes(n - len(data))

    # -- framing -------------------------------------------------------------
    def _ready(self, out, polls, is_ack):
        self._out = out
        self._out_is_ack = is_ack
        self._busy = polls
        self._ready_at = 0
        if self.clock and not is_ack:
            self._ready_at = self.clock() + self.response_ms

    def _unframe(self, buf):
        i = 0
        while i < len(buf) and buf[i] == 0:
            i += 1
        if i == 0 or i + 3 > len(buf) or buf[i] != 0xFF:
            return None
        ln, lcs = buf[i + 1], buf[i + 2]
        if (ln + lcs) & 0xFF or ln == 0:
            return None
        body = buf[i + 3:i + 3 + ln]
        if len(body) != ln or i + 3 + ln >= len(buf):
            return None
        if (sum(body) + buf[i + 3 + ln]) & 0xFF:
            return None
        return body

    def _mangle(self, resp):
        if self._take("error_frame"):
            return ERROR_FRAME
        if self._take("stale"):
            resp = self._last or self._firmware()
        b = bytearray(resp)
        if self._take("short") and b[3] > 2:
            b = bytearray(frame(0xD5, bytes(b[6:5 + b[3] - 1])))
        if self._take("long"):
            b = bytearray(frame(0xD5, bytes(b[6:5 + b[3]]) + bytes(64)))
        if self._take("bad_dcs"):
            b[-2] ^= 0x01
        if self._take("bad_lcs"):
            b[4] ^= 0x01
        return bytes(b)

    # -- commands ------------------------------------------------------------
    def _execute(self, code, p):
        """The response frame, ERROR_FRAME, or None while waiting for a tag."""
        self.commands.append((code, p))
        if len(self.commands) > self.LOG:
            del self.commands[0]  # a whole game polls thousands of times: keep the tail
        if code == 0x02:  # GetFirmwareVersion
            return self._firmware()
        if code == 0x14:  # SAMConfiguration: Mode [Timeout [IRQ]]
            if not 1 <= len(p) <= 3 or not 1 <= p[0] <= 4 or (p[0] == 2 and len(p) < 2):
                return ERROR_FRAME
            self.sam_mode = p[0]
            return frame(0xD5, b"\x15")
        if code == 0x32:  # RFConfiguration: CfgItem ConfigurationData
            sizes = {0x01: 1, 0x02: 3, 0x04: 1, 0x05: 3, 0x0A: 11, 0x0B: 8, 0x0C: 3, 0x0D: 9}
            if not p or sizes.get(p[0]) != len(p) - 1:
                return ERROR_FRAME
            if p[0] == 0x05:
                self.max_retries = p[3]
            return frame(0xD5, b"\x33")
        if code == 0x4A:  # InListPassiveTarget: MaxTg BrTy [InitiatorData]
            if len(p) < 2 or not 1 <= p[0] <= 2 or p[1] > 4:
                return ERROR_FRAME
            self._target = None
            if p[1] != 0x00 or self.field.tag is not None or self.max_retries != 0xFF:
                return self._list(p[1])
            self._waiting = p[1]  # retries forever: answer once a tag shows up
            return None
        if code == 0x40:  # InDataExchange: Tg DataOut
            if not p:
                return ERROR_FRAME
            return frame(0xD5, bytes((0x41,)) + self._exchange(p[0], p[1:]))
        return ERROR_FRAME

    def _firmware(self):
        return frame(0xD5, bytes((0x03, self.IC, self.VER, self.REV, self.SUPPORT)))

    def _list(self, brty):
        tag = self.field.tag
        if brty != 0x00 or tag is None:
            return frame(0xD5, b"\x4b\x00")  # NbTg = 0
        self._target = tag
        self._awake = True
        data = bytes((0x4B, 1, 1)) + tag.sens_res + bytes((tag.sel_res, len(tag.uid))) + tag.uid
        return frame(0xD5, data)

    def _exchange(self, tg, data):
        """Status byte + data for InDataExchange."""
        if self._take("tag_leaves"):
            self.field.remove()
        if tg != 1 or self._target is None:
            return b"\x27"  # no such target listed
        if self.field.tag is not self._target or not self._awake:
            return b"\x01"  # the tag is gone (or idle after a NAK): timeout
        answer = self._target.transceive(bytes(data))
        if answer is None:
            return b"\x01"
        if isinstance(answer, int):
            if answer == TAG_ACK:
                return b"\x00"
            self._awake = False  # a NAK sends the tag back to idle
            return b"\x14"
        return b"\x00" + bytes(answer)
