"""Kami's board definition (board_def/kami.json, games/kami/layout.py): the lights of
rules section 8.1 (K19) with every pixel used once, the colours the view needs, and every
kind of broken layout named by its field, on CPython and inside MicroPython. And why a
Kahuna board cannot host Kami (docs/kami.md "On a Kahuna board")."""

import copy
import json
import os

import pytest

from core import board as boardmod
from core.checks import BoardError
from mpy_runner import ROOT

PATH = os.path.join(ROOT, "board_def", "kami.json")


def raw():
    with open(PATH) as f:
        return json.load(f)


def test_the_shipped_board_has_the_lights_of_section_8_1():
    # K19: seat and defence lights per seat, the Empress, 8 centre stacks, 3 tracks of 15
    bd = boardmod.load(PATH)
    assert bd.game == "kami" and bd.led_count == 4 + 4 + 1 + 8 + 3 * 15
    assert len(bd.seat_led) == len(bd.defence_led) == 4
    assert len(bd.centre_led) == 8 and bd.empress_led >= 0
    assert [len(t) for t in bd.track_led] == [15, 15, 15]
    used = (bd.seat_led + bd.defence_led + [bd.empress_led] + bd.centre_led
            + [p for t in bd.track_led for p in t])
    assert sorted(used) == list(range(bd.led_count))
    assert bd.pins["buttons"] == {"next": 10, "prev": 11, "ok": 12, "back": 13, "done": 14,
                                  "discard": 15}


def test_the_kahuna_strip_is_too_short_for_kamis_lights():
    # docs/kami.md: a second board definition over Kahuna's strip cannot hold 8.1's lights
    kahuna = boardmod.load(os.path.join(ROOT, "board_def", "kahuna.json"))
    kami = boardmod.load(PATH)
    assert kahuna.led_count == 43 < 4 + 4 + 1 + 8 + 2 * 15 < kami.led_count


def broken(change):
    data = raw()
    change(data)
    return data


CASES = [
    (lambda d: d["layout"]["seats"].pop(), "layout.seats: 4 expected, got 3"),
    (lambda d: d["layout"]["defences"][2].update(id="p4"),
     "layout.defences[2].id: expected 'p3', got 'p4'"),
    (lambda d: d["layout"]["defences"][1].update(led=0),
     "layout.defences[1].led: LED index 0 used twice (also layout.seats[0].led)"),
    (lambda d: d["layout"]["empress"].pop("led"), "layout.empress.led: required field missing"),
    (lambda d: d["layout"]["centre"][7].update(colour=1),
     "layout.centre[7].colour: unknown field (expected one of x, y, led)"),
    (lambda d: d["layout"]["tracks"][1]["leds"].pop(), "layout.tracks[1].leds: 15 expected, "
     "got 14"),
    (lambda d: d["layout"]["tracks"][2]["leds"].__setitem__(3, 9),
     "layout.tracks[2].leds[3]: LED index 9 used twice (also layout.centre[0].led)"),
    (lambda d: d["layout"]["tracks"][0].update(x2=5000),
     "layout.tracks[0].x2: position must be a number 0..1000, got 5000"),
    (lambda d: d["layout"].update(islands=[]),
     "layout.islands: unknown field (expected one of frame, board_size_mm, seats, "
     "defences, empress, centre, tracks)"),
    (lambda d: d["palette"].update(p3=[0, 0, 0]), "palette.p3: must not be off"),
    (lambda d: d["palette"].update(p4=d["palette"]["p2"]),
     "palette.p4: must differ from palette.p2"),
    (lambda d: d["palette"].update(team2=[255, 0, 0]),
     "palette.team2: must differ from palette.error"),
    (lambda d: d["palette"].update(defence_up=d["palette"]["defence_down"]),
     "palette.defence_up: must differ from palette.defence_down"),
    (lambda d: d["palette"].pop("empress"), "palette.empress: required field missing"),
]


@pytest.mark.parametrize("change,message", CASES)
def test_a_broken_layout_is_named_by_its_field(change, message):
    with pytest.raises(BoardError) as e:
        boardmod.parse(broken(change))
    assert str(e.value) == message


@pytest.mark.micropython
def test_micropython_loads_it_and_names_the_same_faults(mpy):
    data = [broken(change) for change, _ in CASES]
    script = (
        "import json\n"
        "from core import board\n"
        "bd = board.load(%r)\n"
        "print(bd.led_count, bd.seat_led[3], bd.empress_led, bd.track_led[2][14])\n"
        "for d in json.loads(%r):\n"
        "    try:\n"
        "        board.parse(d)\n"
        "        print('accepted')\n"
        "    except board.BoardError as e:\n"
        "        print(str(e))\n" % (PATH, json.dumps(data)))
    bd = boardmod.load(PATH)
    lines = mpy.run_code(script).strip().splitlines()
    assert lines[0] == "%d %d %d %d" % (bd.led_count, bd.seat_led[3], bd.empress_led,
                                        bd.track_led[2][14])
    assert lines[1:] == [message for _, message in CASES]


def test_the_kahuna_board_is_not_a_kami_board():
    data = copy.deepcopy(raw())
    with open(os.path.join(ROOT, "board_def", "kahuna.json")) as f:
        data["layout"] = json.load(f)["layout"]
    with pytest.raises(BoardError) as e:
        boardmod.parse(data)
    assert str(e.value) == ("layout.connections: unknown field (expected one of frame, "
                            "board_size_mm, seats, defences, empress, centre, tracks)")
