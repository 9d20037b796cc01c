"""Halunken flashed on the virtual board (`make flash BOARD=board_def/halunken.json`, the
firmware's own main.py on MicroPython with emulated hardware), played over the serial
link: the set-up, a refusal naming its place, and the secret choice (8.3, H32) that says
the same on the link for two different cards; a table deal's tapped take (H33)."""

import json

import pytest

from vboardkit import BoardLink, flash_vboard

SETTINGS = {"players": 3, "mode": "beginner", "seed": 7}


@pytest.fixture
def board(tmp_path):
    yield from flash_vboard(tmp_path, "board_def/halunken.json")



def choice_line(link, card):
    link.send({"cmd": "new", "settings": SETTINGS})
    link.until(lambda x: x.get("event") == "new")
    for t in ("T1", "T4", "T8"):
        assert link.event({"cmd": "pick", "conn": t})["event"] == "accepted"
    assert link.event({"cmd": "tap", "card": "P1-3"})["event"] == "accepted"
    line = link.event({"cmd": "tap", "card": card})
    line["changed"].pop("leds", None)  # the frame at the event's time: the pulse's phase
    return line


def test_halunken_plays_on_the_flashed_virtual_board(board):
    link = BoardLink(board.port)
    link.send({"cmd": "new", "settings": SETTINGS})
    state = link.until(lambda x: x.get("event") == "new")["state"]
    assert state["step"] == "place" and state["ui"]["cursor"] == "T1"
    assert state["taverns"]["T1"] == {"left": 3, "top": None}  # the blind set-up (H5)
    link.event({"cmd": "pick", "conn": "T1"})
    out = link.event({"cmd": "pick", "conn": "T1"})
    assert (out["event"], out["code"], out["places"]) == ("refused", "not-offered", ["T1"])
    a = choice_line(link, "P2-1")
    b = choice_line(link, "P2-RUM")
    assert a["event"] == "accepted" and a["changed"]["chosen"] == 2
    a.pop("game")
    b.pop("game")  # each new game has its own number
    assert a == b
    assert "P2-" not in json.dumps(a)


def test_a_table_deal_on_the_flashed_virtual_board(board):
    """H33: the default deal is the table's; the card taken at set-up is tapped, and one
    already in a crew is refused, flashing the pile taken from and the crew holding it."""
    link = BoardLink(board.port)
    link.send({"cmd": "new", "settings": {"players": 3, "mode": "beginner"}})
    state = link.until(lambda x: x.get("event") == "new")["state"]
    assert state["settings"]["deal"] == "table"
    assert link.event({"cmd": "pick", "conn": "T1"})["event"] == "accepted"
    out = link.event({"cmd": "tap", "card": "RED-4"})
    assert out["event"] == "accepted"
    assert out["changed"]["crews"]["p1"] == ["RED-4"]
    link.event({"cmd": "pick", "conn": "T2"})
    out = link.event({"cmd": "tap", "card": "RED-4"})
    assert (out["event"], out["code"], out["places"]) == (
        "refused", "card-not-available", ["pile:T2", "p1"])
    link.send({"cmd": "state"})
    state = link.until(lambda x: "state" in x)["state"]
    assert state["step"] == "take" and state["taverns"]["T2"] == {"left": 3, "top": None}
