"""Halunken's picture (host_tools/games/halunken/picture.py): the ring from the board
definition in the colours of the report's LED frame, the figures named on their spaces,
nothing of the report's `hidden`, PNG through cairosvg, `sim --game halunken --render`, and
the web page's geometry. Reports come from the simulator playing scenarios."""

import json
import os
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import gamekit
from core import board as boardmod
from host_tools import drawing
from host_tools.games.halunken import picture, simreport
from host_tools.simulator.engine import Simulation
from host_tools.simulator.scenario import parse

ROOT = gamekit.ROOT
BOARD = os.path.join(ROOT, "board_def", "halunken.json")
SCENARIO = os.path.join(ROOT, "tests", "scenarios", "halunken", "standard-round.scn")
SVG_NS = "{http://www.w3.org/2000/svg}"
# Placed and past the auction, p1 and p2 have chosen (their choices are in `hidden`).
CHOSEN = """\
option players=3
option seed=5
pick T1
pick T5
pick T9
pick T12
press done
press done
press done
tap P1-6
tap P2-3
wait 2000
expect chosen 2
"""


@pytest.fixture(scope="module")
def board():
    return boardmod.load(BOARD)


def report_of(board, text):
    sim = Simulation(board)
    rep = sim.run(parse(text, board))
    assert sim.failures == []
    return simreport.canonical(rep, board)


def by_id(tree):
    return {e.get("id"): e for e in tree.iter() if e.get("id")}


def test_the_lights_are_the_frames_colours_and_the_figures_are_named(board):
    with open(SCENARIO) as f:
        rep = report_of(board, f.read() + "wait 2000\n")
    tree = ET.fromstring(picture.svg(board, rep))
    ids = by_id(tree)
    pal = board.palette
    for seat, where in rep["captains"].items():
        assert ids["space-" + where].get("fill") == drawing.hex_rgb(pal[seat]), seat
    assert ids["space-" + rep["blackjack"]].get("fill") == drawing.hex_rgb(pal["blackjack"])
    vacant = [t for t in rep["taverns"] if t not in rep["captains"].values()
              and t != rep["blackjack"]]
    for t in vacant:
        assert ids["space-" + t].get("data-colour") == "off", t
    texts = [e.text for e in tree.iter(SVG_NS + "text")]
    assert "BJ" in texts and "1" in texts and "HALUNKEN & SPELUNKEN" in texts
    for info in rep["taverns"].values():  # the public top cards, shown
        if info["top"]:
            assert info["top"] in texts
    # A pile light is drawn at the level the frame has: fewer cards, darker.
    levels = {info["left"]: ids["pile-" + t].get("fill") for t, info in rep["taverns"].items()}
    assert len(set(levels.values())) == len(levels)


def test_the_picture_shows_nothing_hidden(board):
    rep = report_of(board, CHOSEN)
    hidden = rep["hidden"]
    assert hidden["choices"] == {"p1": "P1-6", "p2": "P2-3"}
    text = picture.svg(board, rep)
    assert "P1-6" not in text and "P2-3" not in text
    assert "2 movement cards chosen, face down" in text
    for t, pile in hidden["piles"].items():
        for card in pile[1:]:  # below the top card
            assert ">%s<" % card not in text and " %s " % card not in text, (t, card)
    assert "BJ-" not in text  # Black-Jack's deck order


def test_sim_render_writes_the_png_and_refuses_a_bad_name(tmp_path):
    out = tmp_path / "ring.png"
    cmd = [sys.executable, "-m", "host_tools", "sim", "--game", "halunken", "--scenario",
           SCENARIO, "--render", str(out)]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    head = out.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", head[16:24]) == (picture.WIDTH, picture.HEIGHT)
    bad = subprocess.run(cmd[:-1] + [str(tmp_path / "ring.gif")], cwd=ROOT,
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stdout == ""
    assert "the formats are SVG (.svg) and PNG" in bad.stderr


def test_the_pages_geometry_places_every_light_once(board):
    geo = picture.page_geometry(board)
    json.dumps(geo)  # the build writes it as JSON
    leds = ([t["space_led"] for t in geo["taverns"]] + [t["pile_led"] for t in geo["taverns"]]
            + [s["led"] for s in geo["seats"]] + [geo["port"]["led"]]
            + [r["led"] for r in geo["rounds"]])
    assert sorted(leds) == list(range(board.led_count))
    assert [t["id"] for t in geo["taverns"]] == ["T%d" % (i + 1) for i in range(14)]
    assert geo["palette"]["p1"] == list(board.palette["p1"])
    assert "<circle" in geo["backdrop"] and "space-" not in geo["backdrop"]  # no light
