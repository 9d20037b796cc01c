"""NXP NTAG213 (and a plain 4-byte ISO14443A tag) at the command level.

transceive(frame) answers a reader command the way the tag does on the air,
without CRC: bytes for data, ACK (0x0A) or a NAK code (0x0..0x5, 4-bit answers),
or None for silence. Memory map per the NTAG213/215/216 datasheet: 45 pages of
4 bytes; 0-1 UID + BCC0, 2 BCC1 / internal / static lock bytes, 3 capability
container, 4..39 user memory (144 bytes), 40 dynamic lock bytes, 41-42 CFG,
43 PWD, 44 PACK. Runs on CPython and MicroPython.

Simplified, not faked: static and dynamic lock bits and the OTP CC page are
honoured; block-lock bits, CFGLCK, password protection (AUTH0, PWD_AUTH),
FAST_READ, READ_CNT and the UID/counter mirror are not emulated.
"""

ACK = 0x0A  # 4-bit ACK
NAK_INVALID = 0x00  # 4-bit NAK: invalid argument (bad page address, locked page)
NAK_CRC = 0x01  # 4-bit NAK: parity or CRC error

READ = 0x30  # READ page -> 16 bytes
WRITE = 0xA2  # WRITE page d0 d1 d2 d3 -> ACK / NAK
GET_VERSION = 0x60  # -> 8 bytes

CT = 0x88  # cascade tag, first byte of the BCC0 sum


class ISO14443ATag:
    """A tag the reader can list: UID, ATQA (SENS_RES) and SAK (SEL_RES).

    This base class answers every command with NAK, like a MIFARE Classic card
    that was never authenticated; it stands in for "some other 4-byte tag"."""

    def __init__(self, uid, sens_res=b"\x00\x04", sel_res=0x08):
        if len(uid) not in (4, 7, 10):
            raise ValueError("ISO14443A UIDs are 4, 7 or 10 bytes")
        self.uid = bytes(uid)
        self.sens_res = bytes(sens_res)
        self.sel_res = sel_res

    def transceive(self, frame):
        return NAK_INVALID

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, "".join("%02X" % b for b in self.uid))


class NTAG213(ISO14443ATag):
    PAGES = 45
    LAST_PAGE = 0x2C
    USER_FIRST = 4
    USER_LAST = 39
    DYN_LOCK = 40  # dynamic lock bytes 0..2 + RFUI
    PWD = 43  # password: reads as 00
    PACK = 44  # password acknowledge: reads as 00
    # GET_VERSION: header, vendor NXP, NTAG, 50 pF, v1.0, 144 bytes, ISO14443-3
    VERSION = b"\x00\x04\x04\x02\x01\x00\x0f\x03"
    CC = b"\xe1\x10\x12\x00"  # NDEF magic, mapping 1.0, 0x12 * 8 = 144 bytes, read/write

    def __init__(self, uid):
        if len(uid) != 7:
            raise ValueError("NTAG213 UIDs are 7 bytes")
        ISO14443ATag.__init__(self, uid, b"\x00\x44", 0x00)
        u = self.uid
        m = bytearray(self.PAGES * 4)
        m[0:3] = u[0:3]
        m[3] = CT ^ u[0] ^ u[1] ^ u[2]  # BCC0
        m[4:8] = u[3:7]
        m[8] = u[3] ^ u[4] ^ u[5] ^ u[6]  # BCC1
        m[9] = 0x48  # internal
        m[12:16] = self.CC
        m[16:19] = b"\x03\x00\xfe"  # empty NDEF TLV, terminator
        m[160:164] = b"\x00\x00\x00\xbd"  # dynamic lock bytes, RFUI
        m[164:168] = b"\x04\x00\x00\xff"  # CFG0: MIRROR, RFUI, MIRROR_PAGE, AUTH0 (off)
        m[168:172] = b"\x00\x05\x00\x00"  # CFG1: ACCESS, RFUI
        m[172:176] = b"\xff\xff\xff\xff"  # PWD
        self.mem = m

    def page(self, n):
        """Raw page contents (the PWD and PACK that READ hides included)."""
        return bytes(self.mem[4 * n:4 * n + 4])

    def read_page(self, n):
        if n == self.PWD or n == self.PACK:
            return b"\x00\x00\x00\x00"
        return self.page(n)

    def user_bytes(self):
        return bytes(self.mem[4 * self.USER_FIRST:4 * (self.USER_LAST + 1)])

    def locked(self, n):
        """Is page n write-protected by a static or dynamic lock bit?"""
        lock0, lock1 = self.mem[10], self.mem[11]
        if n == 3:
            return bool(lock0 & 0x08)  # L-CC
        if 4 <= n <= 7:
            return bool(lock0 & (0x10 << (n - 4)))  # L4..L7
        if 8 <= n <= 15:
            return bool(lock1 & (1 << (n - 8)))  # L8..L15
        if 16 <= n <= self.USER_LAST:
            bit = (n - 16) // 2  # one dynamic lock bit per 2 pages
            return bool(self.mem[160 + bit // 8] & (1 << (bit % 8)))
        return False

    def transceive(self, frame):
        if not frame:
            return None
        cmd = frame[0]
        if cmd == READ and len(frame) == 2:
            start = frame[1]
            if start > self.LAST_PAGE:
                return NAK_INVALID
            out = b""
            for k in range(4):
                out += self.read_page((start + k) % self.PAGES)  # rolls over to page 0
            return out
        if cmd == WRITE and len(frame) == 6:
            return self._write(frame[1], bytes(frame[2:6]))
        if cmd == GET_VERSION and len(frame) == 1:
            return self.VERSION
        return NAK_INVALID

    def _write(self, n, d):
        if n < 2 or n > self.LAST_PAGE:
            return NAK_INVALID  # pages 0-1 are read-only UID
        o = 4 * n
        if n == 2:  # BCC1 and internal are ignored; lock bits can only be set
            self.mem[o + 2] |= d[2]
            self.mem[o + 3] |= d[3]
            return ACK
        if self.locked(n):
            return NAK_INVALID
        if n == 3 or n == self.DYN_LOCK:  # OTP: bits can only be set
            for k in range(3 if n == self.DYN_LOCK else 4):
                self.mem[o + k] |= d[k]
            return ACK
        self.mem[o:o + 4] = d
        return ACK

    def set_user(self, data):
        """A fresh tag's user memory (page 4 on) starts with `data` (cut to its size)."""
        start = self.USER_FIRST * 4
        data = data[:(self.USER_LAST + 1) * 4 - start]
        self.mem[start:start + len(data)] = data


def tag_for(uid):
    """The emulated tag with this UID: an NTAG213 for a 7-byte UID (the board's cards),
    else a plain ISO14443A tag (a card that is not an NTAG)."""
    uid = bytes(uid)
    return NTAG213(uid) if len(uid) == 7 else ISO14443ATag(uid)
