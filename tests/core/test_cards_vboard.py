"""A full deck enrolled on the virtual board: the real firmware, flashed with `make flash`,
running in the MicroPython unix port with the emulated PN532; the `cards` tool on its
serial port; emulated NTAG213 stickers laid on the reader as the tool asks for them."""

import json
import os
import subprocess
import sys
import time

import pytest

from core import ndef
from mpy_runner import ROOT

NAMES = ["%s-%d" % (i, n) for i in ("ALOA", "BARI", "COCO", "DUDA", "ELAI", "FAAA", "GOLA",
                                    "HUNA", "IFFI", "JOJO", "KAHU", "LALE") for n in (1, 2)]


def sticker(i):
    return "04C0DE%02X0000%02X" % (i, 0x80 + i)


@pytest.fixture
def board(flashed_vboard):
    return flashed_vboard  # conftest: the firmware flashed on a virtual board


def test_enrol_a_full_deck_on_the_virtual_board_with_refusals(board):
    tool = subprocess.Popen([sys.executable, "-m", "host_tools", "cards", "enroll", "--port",
                             board.port, "--timeout", "30"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    transcript = []
    attempts = {}
    try:
        while True:
            line = tool.stdout.readline()
            if not line:
                break
            transcript.append(line.rstrip())
            if not line.startswith("lay the tag for "):
                continue
            card = line.split()[4]  # "lay the tag for HUNA-2 on the reader (HUNA is lit)"
            n = attempts.get(card, 0)
            attempts[card] = n + 1
            # The person: a MIFARE-like 4-byte tag first for ALOA-1, ALOA-1's sticker again
            # for ALOA-2; otherwise the card's own sticker.
            if card == "ALOA-1" and n == 0:
                uid = "A1B2C3D4"
            elif card == "ALOA-2" and n == 0:
                uid = sticker(0)
            else:
                uid = sticker(NAMES.index(card))
            board.client.place_tag(uid)
            time.sleep(0.4)  # long enough for a few reader polls
            board.client.remove_tag()
            time.sleep(0.6)  # a hand takes a moment: the reader sees the card gone
        assert tool.wait(timeout=60) == 0, "\n".join(transcript) + tool.stderr.read()
    finally:
        if tool.poll() is None:
            tool.kill()
    text = "\n".join(transcript)
    assert "lay the tag for ALOA-1 on the reader (ALOA is lit)" in text
    assert "lay the tag for LALE-2 on the reader (LALE is lit)" in text
    assert "refused: not an NTAG tag" in text
    assert "refused: this tag is already enrolled as ALOA-1" in text
    assert transcript[-1] == "24 cards enrolled"
    # The board's own registry file, and the names written on the stickers.
    with open(os.path.join(board.dir, "cards.json")) as f:
        registry = json.load(f)
    assert sorted(registry.values()) == sorted(NAMES)
    for i, name in enumerate(NAMES):
        assert registry[sticker(i)] == name
        mem = board.client.tag_memory(sticker(i))
        assert ndef.parse_ndef_text(mem[16:]) == "Kahuna " + name


def test_a_corrupt_card_registry_is_reported_at_boot_and_the_board_still_plays(board):
    from vboardkit import BoardLink
    path = os.path.join(board.dir, "cards.json")
    garbage = b'{"04C0DE000080": "ALOA-1", trunc'  # a write cut short, say
    with open(path, "wb") as f:
        f.write(garbage)
    link = BoardLink(board.port)
    board.client.reset()  # power-on reset: main.py boots on the corrupt file
    boot = link.until(lambda x: x.get("event") == "boot", timeout=60)
    assert boot["cards"] == 0
    assert "/cards.json: not a card registry (bad JSON)" == boot["cards_problem"]
    link.send({"cmd": "state"})
    assert link.until(lambda x: "state" in x, timeout=30)["state"]["phase"]
    with open(path, "rb") as f:
        assert f.read() == garbage  # kept as it was until a card is enrolled
