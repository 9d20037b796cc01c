"""The card registry's vocabulary: a tag UID read one way everywhere (`cards.parse_uid`),
and the registry saved whole or not at all (`storage.replace`)."""

import json

import pytest

import gamekit
from core.cards import Registry, RegistryError, parse_uid, uid_hex
from core.storage import replace
from host_tools.fakehw.flash import PowerCut, VirtualFlash

NAMES = ["%s-%d" % (i, n) for i in gamekit.board().islands for n in (1, 2)]


@pytest.mark.parametrize("text", ["04a224b2", "04A224B2C35E80", "04a224b2c35e80aabbcc"])
def test_uids_of_4_7_and_10_bytes_in_hex_are_read_in_any_case(text):
    raw = parse_uid(text)
    assert len(raw) == len(text) // 2 and uid_hex(raw) == text.upper()


@pytest.mark.parametrize("text", ["", "04A2", "04A224B2C35E8", "04A224B2C35E8G",
                                  "04:A2:24:B2", "04A224B2C35E80AA", None, 1234])
def test_anything_else_is_not_a_uid(text):
    with pytest.raises(ValueError, match="tag UID"):
        parse_uid(text)


def test_the_registry_refuses_what_parse_uid_refuses():
    reg = Registry(NAMES)
    with pytest.raises(RegistryError, match="04A2 is not a 4-, 7- or 10-byte tag UID"):
        reg.enroll("HUNA-1", "04a2")
    reg.enroll("HUNA-1", "04a224b2c35e80")
    assert reg.card_for(parse_uid("04A224B2C35E80")) == "HUNA-1"


def test_a_power_cut_while_saving_leaves_the_old_registry_whole():
    flash = VirtualFlash()
    reg = Registry(NAMES, {"04A224B2C35E80": "HUNA-1"})
    reg.save("/cards.json", flash)
    reg.enroll("ELAI-2", "04A224B2C35E81")
    flash.cut_at(1, 5)  # the new file is torn after 5 bytes
    with pytest.raises(PowerCut):
        reg.save("/cards.json", flash)
    with flash.open("/cards.json") as f:
        assert json.loads(f.read()) == {"04A224B2C35E80": "HUNA-1"}
    reg.save("/cards.json", flash)
    with flash.open("/cards.json") as f:
        assert json.loads(f.read())["04A224B2C35E81"] == "ELAI-2"
    assert "/cards.json.new" not in flash.files


def test_replace_writes_text_and_bytes():
    flash = VirtualFlash()
    replace(flash, "/a", b"\x01\x02")
    replace(flash, "/b", "text")
    assert bytes(flash.files["/a"]) == b"\x01\x02" and "/a.new" not in flash.files
    with flash.open("/b") as f:
        assert f.read() == "text"


def test_uids_read_the_same_under_micropython(mpy):
    out = mpy.run_code(
        "from core.cards import parse_uid, uid_hex\n"
        "print(uid_hex(parse_uid('04a224b2c35e80')))\n"
        "for bad in ('04A2', '04A224B2C35E8G', None):\n"
        "    try:\n"
        "        parse_uid(bad)\n"
        "        print('accepted', bad)\n"
        "    except ValueError as e:\n"
        "        print('refused')\n")
    assert out.split() == ["04A224B2C35E80", "refused", "refused", "refused"]


def test_a_registry_written_before_values_loads_and_is_written_back_the_same():
    """Kahuna's boards hold registries of names only: one loads as before (no value, the
    value code not even imported) and is written back byte for byte."""
    import sys
    flash = VirtualFlash()
    old = '{"04A224B2C35E80": "HUNA-1", "04A224B2C35E81": "ELAI-2"}'
    with flash.open("/cards.json", "w") as f:
        f.write(old)
    sys.modules.pop("core.cardvalues", None)
    reg = Registry.load(NAMES, "/cards.json", None, flash)
    assert reg.card_for("04A224B2C35E81") == "ELAI-2" and reg.values == {}
    reg.save("/cards.json", flash)
    assert bytes(flash.files["/cards.json"]).decode() == old
    assert "core.cardvalues" not in sys.modules
    with pytest.raises(RegistryError, match="HUNA-1 carries no value, got 3"):
        Registry(NAMES, {"04A224B2C35E80": ["HUNA-1", 3]})
