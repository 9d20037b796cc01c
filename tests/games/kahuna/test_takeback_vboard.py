"""The takeback on the virtual board (the firmware flashed with `make flash`, its own main.py
under MicroPython, emulated buttons): `back` held on its button pin asks, `ok` on the link
agrees, the step comes on the link as {"event": "ai", "step": "takeback"}, and a hard reset
in the middle of the walk comes back to the same step (the journal on its flash)."""

import time

import pytest

from vboardkit import BoardLink, flash_vboard

BACK_PIN = 13  # board_def/kahuna.json's back button


@pytest.fixture
def board(tmp_path):
    yield from flash_vboard(tmp_path)


def test_back_held_on_the_board_and_a_reset_mid_walk(board):
    link = BoardLink(board.port)
    link.send({"cmd": "new", "settings": {"variant": "standard", "first": "white",
                                          "handicap": None}})
    link.until(lambda x: x.get("event") == "new")
    for card in ("HUNA-1", "ELAI-1", "DUDA-1", "ALOA-1", "DUDA-2", "ELAI-2", "HUNA-1"):
        assert link.event({"cmd": "tap", "card": card})["event"] == "accepted"
    for cmd in ({"cmd": "pick", "conn": "ELAI-HUNA"}, {"cmd": "press", "button": "done"},
                {"cmd": "tap", "card": "JOJO-2"}):
        assert link.event(cmd)["event"] == "accepted", cmd
    board.client.press(BACK_PIN, ms=1500)  # held down: its hold action
    asked = link.until(lambda x: x.get("event") == "ai")
    assert asked["step"] == "takeback" and "ok agrees" in asked["say"]
    link.send({"cmd": "press", "button": "ok"})
    step = link.until(lambda x: x.get("event") == "ai")
    assert step["say"].startswith("take back, step 1 of 3: ")
    assert "JOJO-2" not in step["say"]  # the card drawn from the deck is not named
    link.send({"cmd": "press", "button": "ok"})
    step2 = link.until(lambda x: x.get("event") == "ai")
    assert step2["say"].startswith("take back, step 2 of 3: ")
    board.client.reset()  # the power fails mid-walk
    link = BoardLink(board.port)
    state = None
    end = time.monotonic() + 90
    while state is None and time.monotonic() < end:  # asked until the board is back
        link.send({"cmd": "state"})
        try:
            state = link.until(lambda x: x.get("event") == "state", timeout=3)["state"]
        except AssertionError:
            pass
    assert state is not None, "the board did not come back"
    assert state["ui"]["takeback"]["say"] == step2["say"]
    assert state["turn"] == "white" and state["bridges"] == {}
