"""NDEF Text records in a Type 2 Tag TLV area (NTAG213 user memory, page 4 on).

Plain data, no hardware: the enrolment writes it through the reader driver, the tools read
it back. Runs unchanged on MicroPython and CPython. Layout (NFC Forum T2T and RTD Text):

    03 LEN | D1 01 PLEN 54 | STATUS 'e' 'n' | text... | FE
    TLV      record header    status = UTF-8, language code length 2

e.g. "elephant": 03 0F D1 01 0B 54 02 65 6E 65 6C 65 70 68 61 6E 74 FE.
"""

TLV_NULL = 0x00  # padding, no length byte
TLV_NDEF = 0x03  # NDEF message TLV
TLV_TERMINATOR = 0xFE  # end of the TLV area, no length byte
NTAG213_USER_BYTES = 144  # pages 4..39
_MB_ME_SR_WELLKNOWN = 0xD1  # record header: first, last, short, TNF 1
_TNF_MASK = 0x07  # record header bits 2..0: type name format
_SR = 0x10  # short record: 1-byte payload length
_IL = 0x08  # ID length field present
_TNF_WELL_KNOWN = 0x01  # NFC Forum well-known type
_TYPE_TEXT = 0x54  # "T"
_UTF16 = 0x80  # text status byte bit 7: UTF-16 (unsupported here)
_LANG_MASK = 0x3F  # text status byte bits 5..0: language code length


def text_record(text, lang="en"):
    """One short NDEF record holding text (UTF-8)."""
    lang_b = lang.encode("utf-8")
    text_b = text.encode("utf-8")
    if not 0 < len(lang_b) <= _LANG_MASK:
        raise ValueError("bad language code")
    plen = 1 + len(lang_b) + len(text_b)
    if plen > 255:
        raise ValueError("text too long for a short record")
    return bytes((_MB_ME_SR_WELLKNOWN, 1, plen, _TYPE_TEXT, len(lang_b))) + lang_b + text_b


def ndef_text_tlv(text, lang="en", capacity=NTAG213_USER_BYTES):
    """NDEF TLV + terminator for a Text record, to be written from page 4."""
    rec = text_record(text, lang)
    n = len(rec)
    head = bytes((TLV_NDEF, n)) if n < 0xFF else bytes((TLV_NDEF, 0xFF, n >> 8, n & 0xFF))
    out = head + rec + bytes((TLV_TERMINATOR,))
    if len(out) > capacity:
        raise ValueError("NDEF text needs %d bytes, the tag holds %d" % (len(out), capacity))
    return out


def to_pages(data):
    """data split into 4-byte pages, the last one padded with 00."""
    pad = (-len(data)) % 4
    data = bytes(data) + bytes(pad)
    return [data[i:i + 4] for i in range(0, len(data), 4)]


def _records(msg):
    """Yield (tnf, type, payload) of each record of an NDEF message."""
    i, n = 0, len(msg)
    while i < n:
        if i + 3 > n:
            raise ValueError("truncated NDEF record header")
        hdr, tlen = msg[i], msg[i + 1]
        i += 2
        if hdr & _SR:
            plen = msg[i]
            i += 1
        else:
            if i + 4 > n:
                raise ValueError("truncated NDEF record header")
            plen = (msg[i] << 24) | (msg[i + 1] << 16) | (msg[i + 2] << 8) | msg[i + 3]
            i += 4
        idlen = 0
        if hdr & _IL:
            if i >= n:
                raise ValueError("truncated NDEF record header")
            idlen = msg[i]
            i += 1
        if i + tlen + idlen + plen > n:
            raise ValueError("truncated NDEF record")
        rtype = bytes(msg[i:i + tlen])
        i += tlen + idlen
        yield hdr & _TNF_MASK, rtype, bytes(msg[i:i + plen])
        i += plen


def find_ndef(data):
    """The NDEF message bytes of the first NDEF TLV in data, or None."""
    i, n = 0, len(data)
    while i < n:
        t = data[i]
        if t == TLV_NULL:
            i += 1
            continue
        if t == TLV_TERMINATOR:
            return None
        if i + 2 > n:
            raise ValueError("truncated TLV")
        ln = data[i + 1]
        i += 2
        if ln == 0xFF:
            if i + 2 > n:
                raise ValueError("truncated TLV")
            ln = (data[i] << 8) | data[i + 1]
            i += 2
        if i + ln > n:
            raise ValueError("truncated TLV: length %d, %d bytes left" % (ln, n - i))
        if t == TLV_NDEF:
            return bytes(data[i:i + ln])
        i += ln  # lock / memory control or proprietary TLV
    return None


def parse_ndef_text(data):
    """The text of the first Text record in a TLV area (bytes from page 4), or None."""
    msg = find_ndef(data)
    if not msg:
        return None
    for tnf, rtype, payload in _records(msg):
        if tnf == _TNF_WELL_KNOWN and rtype == b"T":
            if not payload:
                raise ValueError("empty Text record")
            status = payload[0]
            if status & _UTF16:
                raise ValueError("UTF-16 Text records are not supported")
            start = 1 + (status & _LANG_MASK)
            if start > len(payload):
                raise ValueError("truncated Text record")
            return payload[start:].decode("utf-8")
    return None
