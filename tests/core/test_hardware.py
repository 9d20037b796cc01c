"""The maker's hardware docs (host_tools/documents/hardware.py -> hardware/): up to date with
board_def, and what they say agrees with it: BOM pixel count, every pin in the wiring
table, every LED once in the chain table, a suggested chain that is a permutation no
longer than the current one, and a 1:1 template whose PDF page is the board's size."""

import csv
import json
import math
import os
import random
import re
import subprocess
import sys

import pytest

import gamekit
from core import board as boardmod
from host_tools.documents import chainorder, drilltemplate, hwfigures, hwreadme, hwtables, svgkit
from host_tools.documents import hardware as hwmod
from host_tools.games.kahuna import hwplaces as kahuna_places

HW_DIR = os.path.join(gamekit.ROOT, "hardware")
PT_PER_MM = 72 / 25.4


@pytest.fixture(scope="module")
def hw():
    return hwmod.Hardware(boardmod.load(gamekit.BOARD_PATH), gamekit.BOARD_PATH)


def _raw():
    with open(gamekit.BOARD_PATH) as f:
        return json.load(f)


def _read(name, mode="r"):
    with open(os.path.join(HW_DIR, name), mode) as f:
        return f.read()


def _section(md, title):
    """The lines of README.md's section `## title`."""
    lines = md.splitlines()
    start = lines.index("## " + title)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")),
               len(lines))
    return lines[start + 1:end]


def _table(lines, first_header):
    """Rows (lists of cells) of the Markdown table whose header starts with first_header."""
    start = next(i for i, line in enumerate(lines)
                 if line.startswith("| " + first_header + " |"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip("|").split(" | ")])
    return rows


def _flat_pins(pins, prefix="pins"):
    """board_def pins as {field: gpio}; i2c's bus id and frequency are not pins."""
    out = {}
    for key, v in pins.items():
        if isinstance(v, dict):
            out.update(_flat_pins({k: g for k, g in v.items() if k not in ("id", "freq")},
                                  prefix + "." + key))
        else:
            out[prefix + "." + key] = v
    return out


def _pdf_pages(data):
    """(width, height) in mm of each page of a PDF written by cairo."""
    boxes = re.findall(rb"/MediaBox \[ ?([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) ?\]", data)
    return [((float(x1) - float(x0)) / PT_PER_MM, (float(y1) - float(y0)) / PT_PER_MM)
            for x0, y0, x1, y1 in boxes]


# ------------------------------------------------------------------ up to date

def test_checked_in_files_are_up_to_date():
    stale = hwmod.stale(gamekit.BOARD_PATH, HW_DIR)
    assert stale == [], "stale in hardware/: %s; run `make hardware`" % ", ".join(stale)


def test_hardware_folder_holds_only_generated_files_and_the_template():
    assert sorted(os.listdir(HW_DIR)) == sorted(hwmod.OUTPUTS + (hwreadme.TEMPLATE_NAME,))


def test_generation_is_byte_identical_twice(tmp_path):
    for run in ("a", "b"):
        hwmod.generate(gamekit.BOARD_PATH, str(tmp_path / run), template_dir=HW_DIR)
    for name in hwmod.OUTPUTS:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), \
            name
    pdf = (tmp_path / "a" / "template.pdf").read_bytes()
    assert b"CreationDate" not in pdf and b"ModDate" not in pdf


def test_check_flag_names_a_stale_file(tmp_path):
    out = tmp_path / "hw"
    out.mkdir()
    (out / hwreadme.TEMPLATE_NAME).write_text(_read(hwreadme.TEMPLATE_NAME), encoding="utf-8")
    hwmod.generate(gamekit.BOARD_PATH, str(out))
    run = [sys.executable, "-m", "host_tools.documents.hardware", "--check", "--out", str(out),
           "--board", gamekit.BOARD_PATH]
    ok = subprocess.run(run, capture_output=True, text=True, cwd=gamekit.ROOT, timeout=120)
    assert ok.returncode == 0, ok.stderr
    with open(out / "bom.csv", "a") as f:
        f.write("extra,row\n")
    bad = subprocess.run(run, capture_output=True, text=True, cwd=gamekit.ROOT, timeout=120)
    assert bad.returncode == 1
    assert "bom.csv" in bad.stderr and "make hardware" in bad.stderr


# ------------------------------------------------------------------ bill of materials

def test_bom_pixel_count_is_led_count_plus_spares():
    board = gamekit.board()
    rows = list(csv.DictReader(_read("bom.csv").splitlines()))
    pixels = [r for r in rows if r["part"].startswith("WS2812B")]
    assert len(pixels) == 1
    spares = hwtables._spares(board.led_count)
    assert int(pixels[0]["qty"]) == board.led_count + spares
    assert pixels[0]["quantity_from"] == "led_count %d + %d spares" % (board.led_count, spares)
    assert spares >= hwfigures.MIN_SPARES


def test_bom_quantities_follow_board_def():
    board = gamekit.board()
    rows = {r["part"]: r for r in csv.DictReader(_read("bom.csv").splitlines())}
    assert int(rows["Push button, momentary"]["qty"]) == len(board.pins["buttons"])
    cards = kahuna_places.CARDS_PER_ISLAND * len(board.islands)
    assert cards == 24
    assert int(rows["NTAG213 NFC sticker"]["qty"]) == cards + hwtables._spares(cards)
    for part in ("PN532 NFC module", "74AHCT125 level shifter (DIP-14)",
                 "Raspberry Pi Pico H (or Pico)", "Resistor 470 Ω"):
        assert rows[part]["qty"] == "1"
    # the README renders the same rows
    bom = _table(_section(_read("README.md"), "What to buy"), "#")
    assert [r[2] for r in bom] == list(rows)


# ------------------------------------------------------------------ wiring

def test_pico_header_table():
    pins = hwfigures.PICO_GPIO_PIN
    assert (pins[0], pins[1], pins[2], pins[15], pins[16], pins[22], pins[28]) == \
        (1, 2, 4, 20, 21, 29, 34)
    assert len(set(pins.values())) == len(pins) == 26
    assert not set(pins) & {23, 24, 25, 29}
    assert not set(pins.values()) & set(hwfigures.PICO_GND_PINS)
    assert all(1 <= p <= 40 for p in pins.values())
    # GPIO numbers rise with the pin numbers (down the left side, up the right)
    assert [pins[g] for g in sorted(pins)] == sorted(pins.values())


def test_wiring_table_lists_every_pin_of_board_def():
    board = gamekit.board()
    rows = _table(_section(_read("README.md"), "Wiring"), "GPIO")
    listed = {r[4].strip("`"): (r[0], r[1]) for r in rows if r[0] != "-"}
    want = _flat_pins(board.pins)
    assert set(listed) == set(want)
    for field, gpio in want.items():
        assert listed[field] == ("GP%d" % gpio, str(hwfigures.PICO_GPIO_PIN[gpio])), field
    power = {r[2]: r[1] for r in rows if r[0] == "-"}
    assert power == {"VSYS": "39", "GND": "38", "3V3(OUT)": "36"}


def test_wiring_picture_shows_every_gpio():
    svg = _read("wiring.svg")
    for gpio in _flat_pins(gamekit.board().pins).values():
        assert ">GP%d</tspan>" % gpio in svg
        assert ">%d</tspan>" % hwfigures.PICO_GPIO_PIN[gpio] in svg
    png = _read("wiring.png", "rb")
    assert png.startswith(b"\x89PNG")


def test_a_pin_off_the_header_is_refused():
    raw = _raw()
    raw["hardware"]["pins"]["buzzer"] = 25  # the Pico's own LED
    board = boardmod.parse(raw)
    with pytest.raises(hwfigures.HardwareError, match=r"pins.buzzer: GPIO 25 is not on the Pico"):
        hwmod.Hardware(board, "x.json")


# ------------------------------------------------------------------ power

def test_power_budget(hw):
    board = gamekit.board()
    p = hw.power
    assert p["full_ma"] == board.led_count * 60
    assert p["limit_ma"] == board.max_current_ma
    assert p["limited_ma"] < p["worst_ma"]
    assert p["recommended_a"] * 1000 >= p["worst_ma"]
    assert p["minimum_a"] * 1000 >= p["limited_ma"] * hwfigures.SUPPLY_MARGIN
    text = "\n".join(_section(_read("README.md"), "Power"))
    assert "%d mA" % p["full_ma"] in text and "`max_current_ma` = %d mA" % board.max_current_ma \
        in text


# ------------------------------------------------------------------ LED chain

def test_chain_table_has_every_led_once():
    board = gamekit.board()
    rows = _table(_section(_read("README.md"), "LED chain"), "LED index")
    leds = [int(r[0]) for r in rows]
    assert sorted(leds) == list(range(board.led_count)) and len(leds) == board.led_count
    assert sorted(int(r[5]) for r in rows) == list(range(board.led_count))
    names = {int(r[0]): r[1] for r in rows}
    for i, island in enumerate(board.islands):
        assert names[board.island_led[i]] == island
    for k, conn in enumerate(board.connections):
        assert names[board.conn_led[k]] == conn
    for name, led in board.status_leds.items():
        assert names[led] == name


def test_suggested_chain_is_a_permutation_no_longer_than_the_current(hw):
    n = gamekit.board().led_count
    assert sorted(hw.suggested) == list(range(n))
    assert hw.current == list(range(n))
    assert hw.suggested_mm <= hw.current_mm
    pts = [p.xy for p in hw.pixels]
    assert math.isclose(hw.suggested_mm, chainorder.path_length(hw.pico_xy, pts, hw.suggested))


def test_positions_at_board_size(hw):
    board = gamekit.board()
    w, h = board.board_size_mm
    for p in hw.pixels:
        assert 0 <= p.xy[0] <= w and 0 <= p.xy[1] <= h, p.name
    # a connection's pixel sits midway between its islands
    a, b = board.conn_ends[0]
    mid = hw.pixels[board.conn_led[0]].xy
    pa, pb = hw.pixels[board.island_led[a]].xy, hw.pixels[board.island_led[b]].xy
    assert mid == pytest.approx(((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2))


@pytest.mark.parametrize("seed", range(8))
def test_suggest_chain_on_random_points(seed):
    rnd = random.Random(seed)
    pts = [(rnd.uniform(0, 400), rnd.uniform(0, 320)) for _ in range(rnd.randint(1, 30))]
    start = (0.0, 320.0)
    order = chainorder.suggest_chain(start, pts)
    assert sorted(order) == list(range(len(pts)))
    ident = chainorder.path_length(start, pts, list(range(len(pts))))
    assert chainorder.path_length(start, pts, order) <= ident + 1e-9
    assert order == chainorder.suggest_chain(start, pts)  # deterministic


def test_status_positions_can_come_from_board_def():
    raw = _raw()
    raw["hardware"].update({"pico_xy": [950, 780], "status_xy": {"phase": [500, 40]}})
    board = boardmod.parse(raw)
    hw = hwmod.Hardware(board, "x.json")
    assert hw.pixels[board.status_leds["phase"]].xy == pytest.approx((200.0, 16.0))
    assert hw.pico_xy == pytest.approx((380.0, 312.0))
    raw["hardware"]["status_xy"]["phase"] = [1, 2, 3]
    with pytest.raises(hwfigures.HardwareError, match=r"hardware.status_xy.phase"):
        hwmod.Hardware(boardmod.parse(raw), "x.json")


# ------------------------------------------------------------------ template

def test_template_pdf_page_is_the_board_size():
    w, h = gamekit.board().board_size_mm
    pages = _pdf_pages(_read("template.pdf", "rb"))
    assert len(pages) == 1
    assert abs(pages[0][0] - w) < 0.5 and abs(pages[0][1] - h) < 0.5, pages
    svg = _read("template.svg")
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="%gmm" '
                          'height="%gmm" viewBox="0 0 %g %g">' % (w, h, w, h))


def test_template_marks_every_pixel_and_a_100_mm_scale(hw):
    svg = _read("template.svg")
    r = hwfigures.HOLE_MM / 2
    for p in hw.pixels:
        assert '<circle cx="%s" cy="%s" r="%s"' % (svgkit.num(p.xy[0]), svgkit.num(p.xy[1]),
                                                    svgkit.num(r)) in svg, p.name
        assert ">#%d<" % p.led in svg
    assert '<line x1="12" y1="40" x2="112" y2="40"' in svg  # 100 mm across
    assert '<line x1="12" y1="55" x2="12" y2="155"' in svg  # 100 mm down


def test_a4_template_tiles_cover_the_board():
    w, h = gamekit.board().board_size_mm
    orient, (cols, rows), tiles, page = drilltemplate.a4_tiles((w, h))
    pages = _pdf_pages(_read("template-a4.pdf", "rb"))
    assert len(pages) == len(tiles) == cols * rows
    for pw, ph in pages:
        assert sorted((round(pw, 1), round(ph, 1))) == [210.0, 297.0]
    usable = (page[0] - 2 * hwfigures.TILE_MARGIN_MM, page[1] - 2 * hwfigures.TILE_MARGIN_MM)
    assert max(x0 for _, _, x0, _ in tiles) + usable[0] >= w
    assert max(y0 for _, _, _, y0 in tiles) + usable[1] >= h
    assert (orient, cols, rows) == ("landscape", 2, 2)
