"""The chip-level emulators in host_tools/fakehw: virtual I2C bus, PN532, NTAG213.
Raw bytes on the bus, no driver, except for the MicroPython round trip."""


import pytest

from host_tools.fakehw import NTAG213, ISO14443ATag, PN532Chip, VirtualClock, VirtualI2C, reader
from host_tools.fakehw import ntag213 as nt
from host_tools.fakehw.pn532_chip import frame


def h(s):
    return bytes.fromhex(s)


UID7 = h("04A224B2C35E80")
ACK = h("00 00 FF 00 FF 00")
NACK = h("00 00 FF FF 00 00")
ERROR_FRAME = h("00 00 FF 01 FF 7F 81 00")
GET_FIRMWARE_VERSION = h("00 00 FF 02 FE D4 02 2A 00")
FIRMWARE_RESPONSE = h("00 00 FF 06 FA D5 03 32 01 06 07 E8 00")


def cmd(data):
    return frame(0xD4, data)


def wait_frame(bus, n, limit=50):
    """Poll the status byte until ready, then read status + n frame bytes."""
    for _ in range(limit):
        if bus.readfrom(0x24, 1) == b"\x01":
            got = bus.readfrom(0x24, n + 1)
            assert got[0] == 0x01
            return got[1:]
    raise AssertionError("chip never ready")


def exchange(bus, data, n):
    bus.writeto(0x24, cmd(data))
    assert wait_frame(bus, 6) == ACK
    return wait_frame(bus, n)


# -- NTAG213 ----------------------------------------------------------------

def test_ntag213_memory_at_delivery():
    t = NTAG213(UID7)
    assert t.page(0) == h("04 A2 24") + bytes((0x88 ^ 0x04 ^ 0xA2 ^ 0x24,))
    assert t.page(1) == h("B2 C3 5E 80")
    assert t.page(2) == bytes((0xB2 ^ 0xC3 ^ 0x5E ^ 0x80, 0x48, 0, 0))
    assert t.page(3) == h("E1 10 12 00")
    assert t.page(4) == h("03 00 FE 00")
    assert t.page(40) == h("00 00 00 BD")
    assert t.page(41) == h("04 00 00 FF")
    assert t.page(42) == h("00 05 00 00")
    assert len(t.user_bytes()) == 144
    assert t.sens_res == h("0044") and t.sel_res == 0


def test_ntag213_read_wraps_and_naks():
    t = NTAG213(UID7)
    assert t.transceive(h("30 00")) == t.page(0) + t.page(1) + t.page(2) + t.page(3)
    assert t.transceive(h("30 2A")) == t.page(42) + bytes(8) + t.page(0)  # PWD, PACK read 00
    assert t.transceive(h("30 2D")) == nt.NAK_INVALID
    assert t.transceive(h("30")) == nt.NAK_INVALID
    assert t.transceive(h("60")) == h("00 04 04 02 01 00 0F 03")
    assert t.transceive(h("1B 00 00 00 00")) == nt.NAK_INVALID  # PWD_AUTH not emulated


def test_ntag213_write_rules():
    t = NTAG213(UID7)
    assert t.transceive(h("A2 04 DE AD BE EF")) == nt.ACK
    assert t.page(4) == h("DEADBEEF")
    assert t.transceive(h("A2 00 00 00 00 00")) == nt.NAK_INVALID  # UID, read-only
    assert t.transceive(h("A2 01 00 00 00 00")) == nt.NAK_INVALID
    assert t.transceive(h("A2 2D 00 00 00 00")) == nt.NAK_INVALID  # past the last page
    assert t.transceive(h("A2 03 00 00 00 01")) == nt.ACK  # CC is OTP: bits only set
    assert t.page(3) == h("E1 10 12 01")
    assert t.transceive(h("A2 03 00 00 00 00")) == nt.ACK
    assert t.page(3) == h("E1 10 12 01")
    assert t.transceive(h("A2 2B 11 22 33 44")) == nt.ACK  # PWD: writable, reads 00
    assert t.page(43) == h("11223344") and t.read_page(43) == bytes(4)


def test_ntag213_static_lock_bits():
    t = NTAG213(UID7)
    bcc1 = t.page(2)[0]
    assert t.transceive(h("A2 02 FF FF 10 00")) == nt.ACK  # L4; BCC1 / internal ignored
    assert t.page(2) == bytes((bcc1, 0x48, 0x10, 0x00))
    assert t.transceive(h("A2 04 01 02 03 04")) == nt.NAK_INVALID
    assert t.transceive(h("A2 05 01 02 03 04")) == nt.ACK
    assert t.transceive(h("A2 02 00 00 00 00")) == nt.ACK  # lock bits cannot be cleared
    assert t.page(2)[2] == 0x10
    assert t.transceive(h("A2 02 00 00 08 01")) == nt.ACK  # L-CC, L8
    assert t.transceive(h("A2 03 00 00 00 02")) == nt.NAK_INVALID
    assert t.transceive(h("A2 08 00 00 00 02")) == nt.NAK_INVALID


def test_ntag213_dynamic_lock_bits():
    t = NTAG213(UID7)
    assert t.transceive(h("A2 28 01 00 00 00")) == nt.ACK  # pages 16-17
    assert t.transceive(h("A2 10 01 02 03 04")) == nt.NAK_INVALID
    assert t.transceive(h("A2 11 01 02 03 04")) == nt.NAK_INVALID
    assert t.transceive(h("A2 12 01 02 03 04")) == nt.ACK
    assert t.transceive(h("A2 28 00 08 00 FF")) == nt.ACK  # pages 38-39; RFUI byte kept
    assert t.page(40) == h("01 08 00 BD")
    assert t.transceive(h("A2 27 01 02 03 04")) == nt.NAK_INVALID


def test_tag_uid_lengths():
    with pytest.raises(ValueError):
        NTAG213(h("01020304"))
    with pytest.raises(ValueError):
        ISO14443ATag(h("0102"))
    assert ISO14443ATag(h("01020304")).transceive(h("30 04")) == nt.NAK_INVALID


# -- virtual bus ----------------------------------------------------------------

def test_bus_scan_absent_address_and_transcript():
    bus, chip = reader()
    assert bus.scan() == [0x24]
    with pytest.raises(OSError) as e:
        bus.readfrom(0x30, 1)
    assert e.value.args[0] == 5
    log = bus.record()
    assert bus.writeto(0x24, GET_FIRMWARE_VERSION) == 9
    buf = bytearray(3)
    bus.readfrom_into(0x24, buf)
    assert log == [("w", 0x24, GET_FIRMWARE_VERSION), ("r", 0x24, bytes(buf))]
    bus.writevto(0x24, (GET_FIRMWARE_VERSION[:4], GET_FIRMWARE_VERSION[4:]))
    assert log[-1] == ("w", 0x24, GET_FIRMWARE_VERSION)
    assert bus.transactions == 4
    bus.detach(0x24)
    assert bus.scan() == []
    assert bus.bus_us(19) == 450  # 20 bytes x 9 bits at 400 kHz


# -- PN532 chip -----------------------------------------------------------------

def test_chip_status_ack_response_sequence():
    bus, chip = reader(ack_polls=2, response_polls=3)
    assert bus.readfrom(0x24, 4) == bytes(4)  # idle: status 00, zeros
    bus.writeto(0x24, GET_FIRMWARE_VERSION)
    assert [bus.readfrom(0x24, 1) for _ in range(3)] == [b"\x00", b"\x00", b"\x01"]
    assert bus.readfrom(0x24, 1) == b"\x01"  # a 1-byte poll consumes nothing
    assert bus.readfrom(0x24, 7) == b"\x01" + ACK
    assert [bus.readfrom(0x24, 1) for _ in range(4)] == [b"\x00"] * 3 + [b"\x01"]
    assert bus.readfrom(0x24, 16) == b"\x01" + FIRMWARE_RESPONSE + bytes(2)
    assert bus.readfrom(0x24, 1) == b"\x00"


def test_chip_bad_checksums_are_ignored():
    bus, chip = reader()
    bad = bytearray(GET_FIRMWARE_VERSION)
    bad[-2] ^= 0xFF
    bus.writeto(0x24, bytes(bad))
    bad = bytearray(GET_FIRMWARE_VERSION)
    bad[4] ^= 0xFF
    bus.writeto(0x24, bytes(bad))
    bus.writeto(0x24, h("12 34 56"))
    assert all(bus.readfrom(0x24, 1) == b"\x00" for _ in range(10))
    assert chip.ignored == 3 and chip.commands == []


@pytest.mark.parametrize("data", [
    h("D4 7E"),  # unknown command
    h("D4 14 00"),  # SAMConfiguration mode 0
    h("D4 32 05 FF"),  # RFConfiguration item 5 with one byte
    h("D4 4A 03 00"),  # InListPassiveTarget MaxTg 3
    h("D4 40"),  # InDataExchange without Tg
    h("D5 02"),  # TFI of a response
])
def test_chip_syntax_error_is_ack_then_error_frame(data):
    bus, chip = reader()
    n = len(data)
    bus.writeto(0x24, bytes((0, 0, 0xFF, n, -n & 0xFF)) + data + bytes((-sum(data) & 0xFF, 0)))
    assert wait_frame(bus, 6) == ACK
    assert wait_frame(bus, 8) == ERROR_FRAME


def test_chip_nack_repeats_last_response_and_ack_aborts():
    bus, chip = reader()
    assert exchange(bus, h("02"), 13) == FIRMWARE_RESPONSE
    bus.writeto(0x24, NACK)
    assert wait_frame(bus, 13) == FIRMWARE_RESPONSE
    bus.writeto(0x24, GET_FIRMWARE_VERSION)
    assert wait_frame(bus, 6) == ACK
    bus.writeto(0x24, ACK)  # abort before the response
    assert all(bus.readfrom(0x24, 1) == b"\x00" for _ in range(10))


def test_chip_new_command_aborts_the_old_one():
    bus, chip = reader()
    bus.writeto(0x24, GET_FIRMWARE_VERSION)
    assert wait_frame(bus, 6) == ACK
    assert exchange(bus, h("14 01"), 9) == frame(0xD5, h("15"))


def test_chip_in_list_and_exchange_bytes():
    bus, chip = reader()
    tag = chip.field.place(NTAG213(UID7)) or chip.field.tag
    resp = exchange(bus, h("4A 01 00"), 22)
    assert resp == h("00 00 FF 0F F1 D5 4B 01 01 00 44 00 07 04 A2 24 B2 C3 5E 80 76 00")
    resp = exchange(bus, h("40 01 30 03"), 26)
    assert resp == frame(0xD5, h("41 00") + tag.transceive(h("30 03")))
    assert exchange(bus, h("40 01 A2 04 01 02 03 04"), 10) == h("00 00 FF 03 FD D5 41 00 EA 00")
    assert exchange(bus, h("40 01 A2 00 01 02 03 04"), 10) == h("00 00 FF 03 FD D5 41 14 D6 00")
    assert exchange(bus, h("40 02 30 00"), 10) == frame(0xD5, h("41 27"))  # no target 2


def test_chip_in_list_other_baud_rate_and_4_byte_tag():
    bus, chip = reader()
    chip.field.place(ISO14443ATag(h("DEADBEEF")))
    assert exchange(bus, h("4A 01 03"), 10) == frame(0xD5, h("4B 00"))  # 106 kbps type B: none
    assert exchange(bus, h("4A 01 00"), 19) == frame(0xD5, h("4B 01 01 00 04 08 04 DE AD BE EF"))
    assert exchange(bus, h("40 01 30 04"), 10) == frame(0xD5, h("41 14"))


def test_chip_waits_forever_for_a_tag_by_default():
    bus, chip = reader()
    bus.writeto(0x24, cmd(h("4A 01 00")))
    assert wait_frame(bus, 6) == ACK
    assert all(bus.readfrom(0x24, 1) == b"\x00" for _ in range(100))
    chip.field.place(NTAG213(UID7))
    assert wait_frame(bus, 22)[5:8] == h("D5 4B 01")


def test_chip_bounded_retries_answer_no_target():
    bus, chip = reader()
    assert exchange(bus, h("32 05 FF 01 00"), 9) == frame(0xD5, h("33"))
    assert chip.max_retries == 0
    assert exchange(bus, h("4A 01 00"), 10) == h("00 00 FF 03 FD D5 4B 00 E0 00")


def test_chip_response_time_in_virtual_ms():
    clock = VirtualClock()
    bus = VirtualI2C()
    bus.attach(0x24, PN532Chip(ack_polls=0, response_polls=0, clock=clock.ticks_ms, response_ms=5))
    bus.writeto(0x24, GET_FIRMWARE_VERSION)
    assert bus.readfrom(0x24, 7) == b"\x01" + ACK
    assert bus.readfrom(0x24, 1) == b"\x00"
    clock.advance(4)
    assert bus.readfrom(0x24, 1) == b"\x00"
    clock.advance(1)
    assert bus.readfrom(0x24, 14) == b"\x01" + FIRMWARE_RESPONSE


def test_chip_fault_names_are_checked():
    chip = PN532Chip()
    with pytest.raises(ValueError, match="unknown fault"):
        chip.inject("smoke")


def test_chip_faults_on_the_wire():
    bus, chip = reader()
    chip.inject("bad_dcs")
    r = exchange(bus, h("02"), 13)
    assert r[:-2] == FIRMWARE_RESPONSE[:-2] and r[-2] == FIRMWARE_RESPONSE[-2] ^ 1
    chip.inject("nack")
    bus.writeto(0x24, GET_FIRMWARE_VERSION)
    assert wait_frame(bus, 6) == NACK
    chip.inject("error_frame")
    assert exchange(bus, h("02"), 8) == ERROR_FRAME
    chip.inject("short")
    assert exchange(bus, h("02"), 12) == frame(0xD5, h("03 32 01 06"))
    chip.inject("no_ack")
    bus.writeto(0x24, GET_FIRMWARE_VERSION)
    assert all(bus.readfrom(0x24, 1) == b"\x00" for _ in range(20))


# -- MicroPython unix port ---------------------------------------------------------

MP_SCRIPT = r"""
from hw.pn532 import PN532, PN532Error, PENDING
from core import ndef
from host_tools.fakehw import reader, VirtualClock, NTAG213, ISO14443ATag
clock = VirtualClock()
bus, chip = reader()
d = PN532(bus, ticks_ms=clock.ticks_ms, sleep_ms=clock.sleep_ms)
print("fw", d.setup(1))
print("none", d.read_uid())
tag = NTAG213(bytes([0x04, 0xA2, 0x24, 0xB2, 0xC3, 0x5E, 0x80]))
chip.field.place(tag)
print("uid", d.read_uid().hex())
print("cc", d.ntag_read(3)[:4].hex())
print("ver", d.ntag_get_version().hex())
for i, page in enumerate(ndef.to_pages(ndef.ndef_text_tlv("Kahuna HUNA-1"))):
    d.ntag_write(4 + i, page)
data = b"".join([d.ntag_read(p) for p in range(4, 40, 4)])
print("text", ndef.parse_ndef_text(data))
for fault in ("bad_dcs", "bad_lcs", "nack", "error_frame", "long", "no_ack"):
    chip.inject(fault)
    try:
        d.firmware_version()
        print("fault", fault, "NOT RAISED")
    except PN532Error as e:
        print("fault", fault, e)
chip.field.remove()
try:
    d.ntag_read(4)
except PN532Error as e:
    print("removed", e.status, e)
chip.field.place(ISO14443ATag(b"\xde\xad\xbe\xef"))
n = 0
while True:
    before = bus.transactions
    r = d.poll_uid()
    assert bus.transactions - before <= 2
    n += 1
    if r is not PENDING:
        break
print("uid4", r.hex(), n)
"""


def test_round_trip_under_micropython(mpy):
    """Driver + emulators together under the unix port, RP2040-sized heap (conftest's mpy)."""
    lines = mpy.run_code(MP_SCRIPT).splitlines()
    assert lines[:6] == [
        "fw (50, 1, 6, 7)",
        "none None",
        "uid 04a224b2c35e80",
        "cc e1101200",
        "ver 0004040201000f03",
        "text Kahuna HUNA-1",
    ]
    assert lines[6:12] == [
        "fault bad_dcs bad data checksum: DCS E9",
        "fault bad_lcs bad length checksum: LEN 06 LCS FB",
        "fault nack NACK instead of ACK",
        "fault error_frame application error frame",
        "fault long truncated frame: LEN 70 needs 76 bytes, read 13",
        "fault no_ack no ACK from PN532 within 15 ms",
    ]
    assert lines[12] == "removed 1 InDataExchange status 0x01: timeout: the tag did not answer"
    assert lines[13].startswith("uid4 deadbeef ")
