"""Kami flashed on the virtual board (`make flash BOARD=board_def/kami.json`, the
firmware's own main.py on MicroPython with emulated hardware), played over the serial
link: an opening at a table, a refusal naming the seat, and the face-down defence (8.2,
8.3) that says the same on the link for two different cards."""

import json

import pytest

from vboardkit import BoardLink, flash_vboard

SETTINGS = {"players": 4}


@pytest.fixture
def board(tmp_path):
    yield from flash_vboard(tmp_path, "board_def/kami.json")



def defence_line(link, card):
    link.send({"cmd": "new", "settings": SETTINGS})
    link.until(lambda x: x.get("event") == "new")
    line = link.event({"cmd": "tap", "card": card})
    line["changed"].pop("leds", None)  # the frame at the event's time: the pulse's phase
    line.pop("game")  # each new game has its own number
    return line


def test_kami_plays_on_the_flashed_virtual_board(board):
    link = BoardLink(board.port)
    link.send({"cmd": "new", "settings": SETTINGS})
    state = link.until(lambda x: x.get("event") == "new")["state"]
    assert (state["phase"], state["step"], state["turn"]) == ("play", "open", "p1")
    out = link.event({"cmd": "press", "button": "done"})
    assert (out["event"], out["code"], out["places"]) == ("refused", "wrong-phase", ["p1"])
    a = defence_line(link, "SOLDAT-3")
    b = defence_line(link, "IMPERATRICE-2")
    assert a["event"] == "accepted" and a["changed"]["step"] == "attack"
    assert a == b  # K6, 8.3: the same for every card
    assert "SOLDAT-3" not in json.dumps(a)
    out = link.event({"cmd": "tap", "card": "SOLDAT-1"})
    assert out["event"] == "accepted" and out["changed"]["turn"] == "p2"


def test_the_boards_players_play_a_seeded_game_to_the_end(board):
    """Setting `ai` (games/kami/solo.py): the board plays every seat of a seeded deal on
    the flashed virtual board until the game is over; the link never shows a hand, the
    seed or a face-down card's name meanwhile (8.3)."""
    link = BoardLink(board.port)
    settings = {"players": 4, "seed": 3, "target": 3, "ai": ["p1", "p2", "p3", "p4"]}
    link.send({"cmd": "new", "settings": settings})
    lines = [link.until(lambda x: x.get("event") == "new")]
    assert lines[0]["state"]["settings"]["ai"] == ["p1", "p2", "p3", "p4"]
    assert "seed" not in lines[0]["state"]["settings"]

    def over(x):
        lines.append(x)
        return (x.get("changed") or x.get("state") or {}).get("phase") == "over"

    last = link.until(over, timeout=180)
    assert last["event"] == "game-over"
    down = 0
    for x in lines:
        seen = x.get("changed") or x.get("state") or {}
        assert "hands" not in seen and "hidden" not in seen
        for line in (seen.get("lines") or {}).values():
            hidden = [e for e in line["defence"] if e["face"] == "down"]
            assert all(e["card"] is None for e in hidden)
            down += len(hidden)
    assert down > 0  # the board's face-down defences went by on the link, unnamed
