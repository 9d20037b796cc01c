"""The board picture (host_tools/games/kahuna/picture.py): SVG structure, colours taken from the
LED frame at full level, off pixels drawn dashed, PNG output through cairosvg, the file-type choice,
and the README's demo position. Every report comes from the simulator core playing a
scenario, never from hand-written numbers."""

import json
import os
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import gamekit
from core import board as boardmod
from host_tools.games.kahuna import picture as render
from host_tools.games.kahuna import picturekit
from host_tools.simulator.engine import Simulation
from host_tools.simulator.scenario import parse

ROOT = gamekit.ROOT
SVG_NS = "{http://www.w3.org/2000/svg}"

# Deal; white takes ALOA (ALOA-HUNA, ALOA-DUDA: 2 of its 3 connections) and places
# ELAI-HUNA; black places ALOA-BARI, then taps a card it does not hold (refused). The wait
# lets the error flash end, so every pixel shows the game state.
SHORT = """\
option first=white
tap HUNA-1
tap DUDA-1
tap ELAI-1
tap ALOA-1
tap DUDA-2
tap ELAI-2
tap HUNA-1
pick ALOA-HUNA
tap DUDA-1
pick ALOA-DUDA
tap ELAI-1
pick ELAI-HUNA
press done
tap JOJO-1
tap ALOA-1
pick ALOA-BARI
tap HUNA-2
wait 2000
expect control.ALOA white
expect bridges.ALOA-BARI black
expect rejected.0.code card-not-in-hand
"""


def play(board, text=SHORT):
    sim = Simulation(board)
    report = sim.run(parse(text, board))
    assert sim.failures == []
    return report


@pytest.fixture(scope="module")
def board():
    return gamekit.board()


@pytest.fixture(scope="module")
def report(board):
    return play(board)


@pytest.fixture(scope="module")
def tree(board, report):
    return ET.fromstring(render.svg(board, report))


def by_id(tree, prefix):
    return {e.get("id"): e for e in tree.iter() if (e.get("id") or "").startswith(prefix)}


def test_svg_has_one_line_per_connection_and_one_circle_per_island(board, tree):
    assert tree.tag == SVG_NS + "svg"
    assert (tree.get("width"), tree.get("height")) == (str(render.WIDTH), str(render.HEIGHT))
    conns = by_id(tree, "conn-")
    assert len(board.connections) == 27
    assert sorted(conns) == sorted("conn-" + c for c in board.connections)
    assert {e.tag for e in conns.values()} == {SVG_NS + "line"}
    islands = by_id(tree, "island-")
    assert len(board.islands) == 12
    assert sorted(islands) == sorted("island-" + i for i in board.islands)
    assert {e.tag for e in islands.values()} == {SVG_NS + "circle"}
    # A pixel dot at the middle of every connection, a name for every island, a circle per
    # status pixel.
    assert len(by_id(tree, "pixel-")) == 27
    assert sorted(e.text for e in by_id(tree, "label-").values()) == sorted(board.islands)
    assert sorted(by_id(tree, "status-")) == sorted("status-" + s for s in board.status_leds)


def test_connections_and_islands_take_the_palette_colour_of_their_owner(board, report, tree):
    assert report["bridges"] == {"ALOA-DUDA": "white", "ALOA-HUNA": "white",
                                 "ELAI-HUNA": "white", "ALOA-BARI": "black"}
    conns = by_id(tree, "conn-")
    pal = board.palette
    # The frame is dim (brightness 0.25): the picture shows the colours at full level.
    white_led = report["leds"][board.conn_led[board.conn_index["ELAI-HUNA"]]]
    assert max(white_led) < 255 * board.brightness + 1
    for cid, owner in report["bridges"].items():
        assert conns["conn-" + cid].get("stroke") == picturekit.hex_rgb(pal[owner]), cid
        assert conns["conn-" + cid].get("stroke-dasharray") is None
    assert conns["conn-BARI-COCO"].get("stroke") == picturekit.hex_rgb(pal["free"])
    islands = by_id(tree, "island-")
    assert islands["island-ALOA"].get("fill") == picturekit.hex_rgb(pal["white"])
    assert islands["island-HUNA"].get("fill") == picturekit.hex_rgb(pal["uncontrolled"])


def test_a_controlled_island_gets_a_stone_in_its_controllers_colour(board, report, tree):
    assert report["control"] == {"ALOA": "white"}
    stones = by_id(tree, "stone-")
    assert list(stones) == ["stone-ALOA"]
    fills = {e.get("fill") for e in stones["stone-ALOA"].iter(SVG_NS + "ellipse")}
    assert picturekit.hex_rgb(board.palette["white"]) in fills


def test_the_panel_tells_the_game(board, report):
    text = " ".join(t.text or "" for t in ET.fromstring(render.svg(board, report)).iter(
        SVG_NS + "text"))
    assert "Round 1" in text and "play phase" in text
    assert "Black to play" in text
    for card in report["hands"]["white"] + report["hands"]["black"]:
        assert card in text
    assert "%d bridges in supply" % report["supply"]["black"] in text
    assert "card-not-in-hand" in text and "HUNA-2" in text
    for label in ("white player", "black player", "free connection", "uncontrolled island"):
        assert label in text


def test_an_off_pixel_is_drawn_dashed(board):
    # A board whose free connections are dark: their pixels are off in the frame.
    with open(gamekit.BOARD_PATH) as f:
        raw = json.load(f)
    raw["palette"]["free"] = [0, 0, 0]
    dark = boardmod.parse(raw)
    report = play(dark)
    leds = report["leds"]
    tree = ET.fromstring(render.svg(dark, report))
    conns = by_id(tree, "conn-")
    for k, cid in enumerate(dark.connections):
        off = leds[dark.conn_led[k]] == [0, 0, 0]
        assert off == (cid not in report["bridges"]), cid
        assert (conns["conn-" + cid].get("stroke-dasharray") is not None) == off, cid
        if off:
            assert conns["conn-" + cid].get("stroke") == render.OFF_GREY
    # On the shipped board too: the turn pixel of the player not on turn is off.
    tree = ET.fromstring(render.svg(board, play(board)))
    status = by_id(tree, "status-")
    assert status["status-turn_white"].get("stroke-dasharray") is not None
    assert status["status-turn_black"].get("stroke-dasharray") is None


def test_full_level_undoes_the_brightness_and_snaps_to_the_palette(board):
    b = board.brightness
    white = board.palette["white"]
    dim = [int(c * b) for c in white]
    assert render.full_level(dim, board) == (white, "white")
    assert render.full_level((0, 0, 0), board) == ((0, 0, 0), "off")
    # A dimmed copy (a pulse, the current limiter) is shown at full level too.
    pending = board.palette["pending"]
    assert render.full_level([int(c * b * 0.4) for c in pending], board) == (pending,
                                                                             "pending")
    # A colour outside the palette: divided by the brightness, clamped to 255.
    assert render.full_level((10, 70, 3), board) == ((40, 255, 12), None)


def test_png_is_a_valid_png_of_the_expected_size(board, report, tmp_path):
    path = str(tmp_path / "board.png")
    render.write(board, report, path)
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    assert struct.unpack(">II", data[16:24]) == (render.WIDTH, render.HEIGHT)


def test_svg_file_is_written_by_its_extension(board, report, tmp_path):
    path = str(tmp_path / "out" / "board.SVG")
    render.write(board, report, path)
    assert ET.parse(path).getroot().tag == SVG_NS + "svg"


@pytest.mark.parametrize("name", ["board.jpg", "board", "board.svg.txt"])
def test_a_bad_extension_raises_value_error(board, report, tmp_path, name):
    path = str(tmp_path / name)
    with pytest.raises(ValueError, match=r"\.svg or \.png"):
        render.write(board, report, path)
    assert not os.path.exists(path)


def test_a_report_that_does_not_fit_the_board_is_refused(board, report):
    short = dict(report, leds=report["leds"][:-1])
    with pytest.raises(ValueError, match="%d pixels" % board.led_count):
        render.svg(board, short)


def test_the_demo_position_is_mid_game_with_options_blinking(board):
    report = render.demo_report(board)
    assert report["phase"] == "play" and report["round"] == 1
    assert report["control"] == {"ALOA": "black", "IFFI": "white"}
    tree = ET.fromstring(render.svg(board, report))
    # White's GOLA-1 is pending: GOLA's four free connections are lit (one steady in the
    # option colour, the others blinking in white's colour), unlike their free state.
    conns = by_id(tree, "conn-")
    lit = [c for c in ("COCO-GOLA", "FAAA-GOLA", "GOLA-JOJO", "GOLA-KAHU")
           if conns["conn-" + c].get("stroke") != picturekit.hex_rgb(board.palette["free"])]
    assert len(lit) == 4
    option = picturekit.hex_rgb(board.palette["option_place"])
    assert conns["conn-COCO-GOLA"].get("stroke") == option
    assert by_id(tree, "island-")["island-GOLA"].get("fill") == picturekit.hex_rgb(
        board.palette["pending"])


def test_demo_command_and_sim_render_write_pictures(tmp_path):
    out = str(tmp_path / "midgame.svg")
    proc = subprocess.run([sys.executable, "-m", "host_tools.games.kahuna.picture", "--demo", out],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert len(by_id(ET.parse(out).getroot(), "conn-")) == 27
    scenario = tmp_path / "short.scn"
    scenario.write_text(SHORT)
    out = str(tmp_path / "short.png")
    proc = subprocess.run([sys.executable, "-m", "host_tools", "sim", "--scenario",
                           str(scenario), "--render", out],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    with open(out, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
