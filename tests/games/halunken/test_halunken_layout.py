"""Halunken's board definition (board_def/halunken.json, games/halunken/layout.py): the
lights of docs/halunken.md (H30) with every pixel used once, the colours that tell the
figures apart (H31), and every kind of broken layout named by its field, on CPython and
inside MicroPython."""

import copy
import json
import math
import os

import pytest

from core import board as boardmod
from core.checks import BoardError
from mpy_runner import ROOT

PATH = os.path.join(ROOT, "board_def", "halunken.json")


def raw():
    with open(PATH) as f:
        return json.load(f)


def test_the_shipped_board_has_the_lights_of_the_rules():
    bd = boardmod.load(PATH)
    assert bd.game == "halunken" and bd.led_count == 14 * 2 + 4 + 1 + 8
    assert len(bd.space_led) == len(bd.pile_led) == 14
    assert len(bd.seat_led) == 4 and len(bd.round_led) == 8 and bd.port_led >= 0
    used = bd.space_led + bd.pile_led + bd.seat_led + [bd.port_led] + bd.round_led
    assert sorted(used) == list(range(bd.led_count))
    # T1..T14 clockwise round the ring (H3): each tavern's angle from the centre grows.
    cx, cy = bd.frame[0] / 2, bd.frame[1] / 2
    angles = [math.atan2(x - cx, cy - y) % (2 * math.pi) for x, y in bd.tavern_xy]
    assert angles == sorted(angles)


def broken(change):
    data = raw()
    change(data)
    return data


CASES = [
    (lambda d: d["layout"]["taverns"].pop(), "layout.taverns: 14 expected, got 13"),
    (lambda d: d["layout"]["taverns"][3].update(id="T5"),
     "layout.taverns[3].id: expected 'T4', got 'T5'"),
    (lambda d: d["layout"]["taverns"][2].update(pile_led=0),
     "layout.taverns[2].pile_led: LED index 0 used twice (also layout.taverns[0].space_led)"),
    (lambda d: d["layout"]["seats"][1].pop("led"), "layout.seats[1].led: required field missing"),
    (lambda d: d["layout"]["port"].update(colour=[1, 2, 3]),
     "layout.port.colour: unknown field (expected one of x, y, led)"),
    (lambda d: d["layout"].update(islands=[]),
     "layout.islands: unknown field (expected one of frame, board_size_mm, taverns, seats, "
     "port, rounds)"),
    (lambda d: d["layout"]["rounds"][7].update(x=5000),
     "layout.rounds[7].x: position must be a number 0..1000, got 5000"),
    (lambda d: d["palette"].update(p3=[0, 0, 0]),
     "palette.p3: a figure's colour must not be off"),
    (lambda d: d["palette"].update(blackjack=d["palette"]["p2"]),
     "palette.blackjack: must differ from palette.p2"),
    (lambda d: d["palette"].update(p1=[255, 0, 0]), "palette.p1: must differ from palette.error"),
    (lambda d: d["palette"].pop("pile"), "palette.pile: required field missing"),
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
        "print(bd.led_count, bd.space_led[13], bd.seat_led[3], bd.port_led)\n"
        "for d in json.loads(%r):\n"
        "    try:\n"
        "        board.parse(d)\n"
        "        print('accepted')\n"
        "    except board.BoardError as e:\n"
        "        print(str(e))\n" % (PATH, json.dumps(data)))
    bd = boardmod.load(PATH)
    lines = mpy.run_code(script).strip().splitlines()
    assert lines[0] == "%d %d %d %d" % (bd.led_count, bd.space_led[13], bd.seat_led[3],
                                        bd.port_led)
    assert lines[1:] == [message for _, message in CASES]


def test_the_kahuna_board_is_not_a_halunken_board():
    data = copy.deepcopy(raw())
    with open(os.path.join(ROOT, "board_def", "kahuna.json")) as f:
        data["layout"] = json.load(f)["layout"]
    with pytest.raises(BoardError) as e:
        boardmod.parse(data)
    assert str(e.value) == ("layout.connections: unknown field (expected one of frame, "
                            "board_size_mm, taverns, seats, port, rounds)")
