"""Kami's picture (host_tools/games/kami/picture.py): the card table from the board
definition in the colours of the report's LED frame (seats, defence lights, the Empress,
the centre stacks, the score tracks), the lines as cards with a face-down card never
named, nothing of the report's `hands` or `hidden`, PNG through cairosvg, `sim --game kami
--render`, and the web page's geometry. Reports come from the simulator playing
scenarios."""

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
from host_tools.games.kami import picture, simreport
from host_tools.simulator.engine import Simulation
from host_tools.simulator.scenario import parse

ROOT = gamekit.ROOT
BOARD = os.path.join(ROOT, "board_def", "kami.json")
SCENARIO = os.path.join(ROOT, "tests", "scenarios", "kami", "kami-4p-round.scn")
SVG_NS = "{http://www.w3.org/2000/svg}"
# 2 players, seeded: p1 lays a face-down defence and attacks; the hands, the defence and
# the centre's face-down cards are in the report (a test tool's view), not in the picture.
SEEDED = """\
option players=2
option seed=21
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


def texts(tree):
    return [e.text for e in tree.iter(SVG_NS + "text")]


def test_the_lights_are_the_frames_colours_and_the_lines_are_drawn(board):
    with open(SCENARIO) as f:
        rep = report_of(board, f.read())
    tree = ET.fromstring(picture.svg(board, rep))
    ids = by_id(tree)
    # p1's and p3's last defences are face down (blue), p2's face up (white), p4 has none.
    assert ids["defence-p1"].get("data-colour") == "defence_down"
    assert ids["defence-p2"].get("data-colour") == "defence_up"
    assert ids["defence-p3"].get("data-colour") == "defence_down"
    assert ids["defence-p4"].get("data-colour") == "off"
    assert ids["empress"].get("data-colour") == "empress"  # IMPERATRICE-1 face up
    assert ids["seat-p3"].get("data-colour") == "team1"  # the attacker: its team's colour
    assert all(ids["stack-%d" % i].get("data-colour") == "off" for i in range(1, 9))
    words = texts(tree)
    for card in ("SOL-1", "SOL-2", "OR-1", "IMP-1", "LAN-1", "OR-2"):  # face up: named
        assert card in words, card
    assert "KAMI" in words and "p1+p3: 0 points" in words
    backs = [e for e in tree.iter(SVG_NS + "rect") if e.get("data-face") == "down"]
    assert len(backs) == 2  # SOLDAT-3 (p1) and OR-3 (p3), face down
    current = [e for e in tree.iter(SVG_NS + "rect") if e.get("stroke") == picture.GOLD]
    assert len(current) == 1 and current[0].findtext(SVG_NS + "title") == "OR-2"


def test_the_picture_shows_nothing_hidden(board):
    rep0 = report_of(board, SEEDED)
    hand = rep0["hands"]["p1"]
    attack = next(c for c in hand if not c.startswith("IMPERATRICE"))
    defence = next(c for c in hand if c != attack)
    rep = report_of(board, SEEDED + "tap %s\ntap %s\n" % (defence, attack))
    assert rep["lines"]["p1"]["defence"][0] == {"card": defence, "face": "down",
                                               "from": "hand"}
    text = picture.svg(board, rep)
    words = texts(ET.fromstring(text))
    assert picture.short(attack) in words
    secret = [defence] + [c for s in rep["hands"].values() for c in s] + [
        c for c in rep["hidden"]["centre"] if c]
    for card in secret:
        assert card not in text and picture.short(card) not in words, card
    # The centre's face-up cards are public: each stack shows its card and what is left.
    for stack in rep["centre"]:
        assert picture.short(stack["up"]) in words and stack["left"] == 2
    assert words.count("2 left") == 8


def test_the_tracks_show_the_score_once_it_has_filled_up(board):
    with open(os.path.join(ROOT, "tests", "scenarios", "kami", "example3-2p-centre.scn")) as f:
        text = f.read()
    rep = report_of(board, text + "wait 6000\n")
    assert rep["scores"] == {"p1": 1, "p2": 0}
    ids = by_id(ET.fromstring(picture.svg(board, rep)))
    lit = [k for k in range(1, 16) if ids["track-t1-%d" % k].get("data-colour") != "off"]
    assert lit == [1] and ids["track-t1-1"].get("data-colour") == "p1"
    assert all(ids["track-t2-%d" % k].get("data-colour") == "off" for k in range(1, 16))
    assert "track t3: unused" in texts(ET.fromstring(picture.svg(board, rep)))


def test_sim_render_writes_the_png_and_refuses_a_bad_name(tmp_path):
    out = tmp_path / "table.png"
    cmd = [sys.executable, "-m", "host_tools", "sim", "--game", "kami", "--scenario",
           SCENARIO, "--render", str(out)]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    head = out.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", head[16:24]) == (picture.WIDTH, picture.HEIGHT)
    assert out.stat().st_size > 20000  # a drawing, not an empty canvas
    bad = subprocess.run(cmd[:-1] + [str(tmp_path / "table.gif")], cwd=ROOT,
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stdout == ""
    assert "the formats are SVG (.svg) and PNG" in bad.stderr


def test_a_report_without_the_boards_frame_is_refused(board):
    with open(SCENARIO) as f:
        rep = report_of(board, f.read())
    rep["leds"] = rep["leds"][:-1]
    with pytest.raises(ValueError, match="must list the board's 62 pixels, got 61"):
        picture.svg(board, rep)


def test_the_pages_geometry_places_every_light_once(board):
    geo = picture.page_geometry(board)
    json.dumps(geo)  # the build writes it as JSON
    leds = ([s["led"] for s in geo["seats"]] + [s["defence_led"] for s in geo["seats"]]
            + [geo["empress"]["led"]] + [s["led"] for s in geo["stacks"]]
            + [p["led"] for t in geo["tracks"] for p in t])
    assert sorted(leds) == list(range(board.led_count))
    assert [s["id"] for s in geo["seats"]] == ["p1", "p2", "p3", "p4"]
    assert [s["run"] for s in geo["seats"]] == ["right", "down", "right", "down"]
    assert geo["palette"]["p1"] == list(board.palette["p1"])
    assert "<rect" in geo["backdrop"] and "seat-" not in geo["backdrop"]  # no light
    assert drawing.hex_rgb(board.palette["p1"]) not in geo["backdrop"]
