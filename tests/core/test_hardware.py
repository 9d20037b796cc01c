"""The maker's hardware docs (host_tools/documents/hardware.py -> hardware/, hardware/halunken/,
hardware/kami/): every board's up to date with its board definition, and what they say
agrees with it: BOM pixel count, every pin in the wiring table, every LED once in the chain
table, a suggested chain that is a permutation no longer than the current one, and a 1:1
template whose PDF page is the board's size. Each game's places (its `hwplaces` part) put
the pixels where its layout says."""

import csv
import json
import math
import os
import random
import re
import subprocess
import sys
import zlib

import pytest

import gamekit
from core import board as boardmod
from core import gameload
from host_tools import gamearg
from host_tools.documents import chainorder, drilltemplate, hwfigures, hwreadme, hwtables, svgkit
from host_tools.documents import hardware as hwmod
from host_tools.games.halunken import hwplaces as halunken_places
from host_tools.games.kahuna import hwplaces as kahuna_places
from host_tools.games.kami import hwplaces as kami_places

HW_DIR = os.path.join(gamekit.ROOT, "hardware")
PT_PER_MM = 72 / 25.4
BOARDS = hwmod.boards()  # every board definition, Kahuna's first
IDS = [os.path.splitext(os.path.basename(p))[0] for p in BOARDS]


@pytest.fixture(scope="module")
def hw():
    return hwmod.Hardware(boardmod.load(gamekit.BOARD_PATH), gamekit.BOARD_PATH)


_HWS = {}


@pytest.fixture(params=BOARDS, ids=IDS)
def any_hw(request):
    """The documents' model of each board definition (worked out once per board)."""
    if request.param not in _HWS:
        _HWS[request.param] = hwmod.Hardware(boardmod.load(request.param), request.param)
    return _HWS[request.param]


def _raw():
    with open(gamekit.BOARD_PATH) as f:
        return json.load(f)


def _read(name, mode="r", hw=None):
    """A file of hardware/, or of the folder of `hw`'s board."""
    folder = HW_DIR if hw is None else hwmod.folder(hw.board_path, HW_DIR)
    with open(os.path.join(folder, name), mode) as f:
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

@pytest.mark.parametrize("path", BOARDS, ids=IDS)
def test_checked_in_files_are_up_to_date(path):
    out = hwmod.folder(path, HW_DIR)
    stale = hwmod.stale(path, out)
    assert stale == [], "stale in %s: %s; run `make hardware`" % (out, ", ".join(stale))


def test_every_board_has_its_folder_of_generated_files_and_its_template():
    assert IDS[0] == "kahuna" and {"halunken", "kami"} <= set(IDS)
    files = sorted(hwmod.OUTPUTS + (hwreadme.TEMPLATE_NAME,))
    assert sorted(os.listdir(HW_DIR)) == sorted(files + IDS[1:])
    for path, name in zip(BOARDS[1:], IDS[1:]):
        assert hwmod.folder(path, HW_DIR) == os.path.join(HW_DIR, name)
        assert sorted(os.listdir(os.path.join(HW_DIR, name))) == files
    assert hwmod.folder(gamekit.BOARD_PATH, HW_DIR) == HW_DIR


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


def test_the_command_makes_every_board_each_into_its_folder(tmp_path, monkeypatch, capsys):
    made, checked = [], []

    def generate(path, out):
        made.append((path, out))
        return hwmod.Hardware(boardmod.load(path), path)

    monkeypatch.setattr(hwmod, "generate", generate)
    monkeypatch.setattr(hwmod, "stale", lambda path, out: checked.append((path, out)) or (
        ["bom.csv"] if out.endswith("kami") else []))
    for name in IDS[1:]:
        (tmp_path / name).mkdir()
    for folder in [tmp_path] + [tmp_path / n for n in IDS[1:]]:
        (folder / hwreadme.TEMPLATE_NAME).write_text("x")
    root = str(tmp_path)
    want = [(p, hwmod.folder(p, root)) for p in BOARDS]
    assert want[0][1] == root and want[1][1] == os.path.join(root, IDS[1])
    assert hwmod.main(["--out", root]) == 0
    assert made == want
    assert hwmod.main(["--out", root, "--board", BOARDS[1]]) == 0
    assert made[-1] == want[1]
    # --check covers them all and names the stale one's folder
    capsys.readouterr()
    assert hwmod.main(["--check", "--out", root]) == 1
    assert checked == want
    assert "stale in %s: bom.csv (run make hardware)" % os.path.join(root, "kami") \
        in capsys.readouterr().err


def test_a_broken_board_or_a_missing_template_is_one_line_and_writes_nothing(tmp_path):
    raw = _raw()
    raw["layout"]["connections"][3]["b"] = "XYZ"
    bad = tmp_path / "broken.json"
    bad.write_text(json.dumps(raw))
    run = [sys.executable, "-m", "host_tools", "hardware", "--out", str(tmp_path / "hw")]
    proc = subprocess.run(run + ["--board", str(bad)], capture_output=True, text=True,
                          cwd=gamekit.ROOT, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == "hardware: %s: layout.connections[3].b: unknown island 'XYZ'\n" % bad
    proc = subprocess.run(run + ["--board", gamekit.BOARD_PATH], capture_output=True,
                          text=True, cwd=gamekit.ROOT, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("hardware: no README template ") and \
        proc.stderr.count("\n") == 1
    assert not (tmp_path / "hw").exists()


def test_a_game_without_places_for_the_documents_is_refused(monkeypatch):
    monkeypatch.setitem(gamearg.NEEDS, "hardware", ("maker documents", ("nosuchpart",)))
    with pytest.raises(hwfigures.HardwareError, match=r"^kami has no maker documents yet "
                       r"\(host_tools/games/kami/ does not provide nosuchpart\)$"):
        hwmod.places("kami")


# ------------------------------------------------------------------ bill of materials

def test_bom_pixel_count_is_led_count_plus_spares(any_hw):
    board = any_hw.board
    rows = list(csv.DictReader(_read("bom.csv", hw=any_hw).splitlines()))
    pixels = [r for r in rows if r["part"].startswith("WS2812B")]
    assert len(pixels) == 1
    spares = hwtables._spares(board.led_count)
    assert int(pixels[0]["qty"]) == board.led_count + spares
    assert pixels[0]["quantity_from"] == "led_count %d + %d spares" % (board.led_count, spares)
    assert spares >= hwfigures.MIN_SPARES


def test_bom_quantities_follow_board_def(any_hw):
    board = any_hw.board
    rows = {r["part"]: r for r in csv.DictReader(_read("bom.csv", hw=any_hw).splitlines())}
    assert int(rows["Push button, momentary"]["qty"]) == len(board.pins["buttons"])
    # a sticker for every card the game knows, and spares
    cards = len(gameload.load(board.game).card_names(board))
    assert any_hw.cards[0] == cards == {"kahuna": 24, "halunken": 86, "kami": 32}[board.game]
    assert int(rows["NTAG213 NFC sticker"]["qty"]) == cards + hwtables._spares(cards)
    for part in ("PN532 NFC module", "74AHCT125 level shifter (DIP-14)",
                 "Raspberry Pi Pico H (or Pico)", "Resistor 470 Ω"):
        assert rows[part]["qty"] == "1"
    # the README renders the same rows
    bom = _table(_section(_read("README.md", hw=any_hw), "What to buy"), "#")
    assert [r[2] for r in bom] == list(rows)


def test_a_pico_w_board_lists_a_pico_w(tmp_path):
    # hardware.network = "wifi" (remote play over Wi-Fi) needs the Pico W: its BOM says so.
    raw = _raw()
    raw["hardware"]["network"] = "wifi"
    path = tmp_path / "picow.json"
    path.write_text(json.dumps(raw))
    bom = hwmod.Hardware(boardmod.load(str(path)), str(path)).bom
    parts = {dict(zip(hwtables.BOM_HEADER, row))["part"]: dict(zip(hwtables.BOM_HEADER, row))
             for row in bom}
    assert "Raspberry Pi Pico H (or Pico)" not in parts
    assert str(parts["Raspberry Pi Pico WH (or Pico W)"]["qty"]) == "1"


def test_kahunas_stickers_are_two_per_island():
    board = gamekit.board()
    rows = {r["part"]: r for r in csv.DictReader(_read("bom.csv").splitlines())}
    cards = kahuna_places.CARDS_PER_ISLAND * len(board.islands)
    assert rows["NTAG213 NFC sticker"]["quantity_from"] == "12 islands x 2 cards + %d spares" \
        % hwtables._spares(cards)


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


def test_wiring_table_lists_every_pin_of_board_def(any_hw):
    board = any_hw.board
    rows = _table(_section(_read("README.md", hw=any_hw), "Wiring"), "GPIO")
    listed = {r[4].strip("`"): (r[0], r[1]) for r in rows if r[0] != "-"}
    want = _flat_pins(board.pins)
    assert set(listed) == set(want)
    for field, gpio in want.items():
        assert listed[field] == ("GP%d" % gpio, str(hwfigures.PICO_GPIO_PIN[gpio])), field
    power = {r[2]: r[1] for r in rows if r[0] == "-"}
    assert power == {"VSYS": "39", "GND": "38", "3V3(OUT)": "36"}


def test_wiring_picture_shows_every_gpio(any_hw):
    svg = _read("wiring.svg", hw=any_hw)
    for gpio in _flat_pins(any_hw.board.pins).values():
        assert ">GP%d</tspan>" % gpio in svg
        assert ">%d</tspan>" % hwfigures.PICO_GPIO_PIN[gpio] in svg
    png = _read("wiring.png", "rb", hw=any_hw)
    assert png.startswith(b"\x89PNG")


def test_a_pin_off_the_header_is_refused():
    raw = _raw()
    raw["hardware"]["pins"]["buzzer"] = 25  # the Pico's own LED
    board = boardmod.parse(raw)
    with pytest.raises(hwfigures.HardwareError, match=r"pins.buzzer: GPIO 25 is not on the Pico"):
        hwmod.Hardware(board, "x.json")


def test_the_boards_share_one_set_of_electronics():
    # hardware/*/README.md say so: the same `hardware` section in every board definition
    # (but the buttons' hold gestures, the firmware's: Kahuna's held back takes back, R12)
    sections = []
    for path in BOARDS:
        with open(path) as f:
            sections.append(hwmod.electronics(json.load(f)["hardware"]))
    assert all(s == sections[0] for s in sections)
    for path in BOARDS[1:]:
        hw = hwmod.Hardware(boardmod.load(path), path)
        others = ", ".join("`board_def/%s.json`" % n for n in sorted(IDS)
                           if n != hw.board.name)
        assert [os.path.basename(p) for p in hw.same_electronics] == [
            "%s.json" % n for n in sorted(IDS) if n != hw.board.name]
        assert "Boards with the same `hardware` section:\n%s." % others \
            in _read("README.md", hw=hw)


# ------------------------------------------------------------------ power

def test_power_budget(any_hw):
    board = any_hw.board
    p = any_hw.power
    assert p["led_count"] == board.led_count == len(any_hw.pixels)
    assert p["full_ma"] == board.led_count * 60
    assert p["limit_ma"] == board.max_current_ma
    assert p["limited_leds_ma"] == min(board.max_current_ma,
                                       round(p["full_ma"] * board.brightness)) + board.led_count
    assert p["limited_ma"] < p["worst_ma"]
    assert p["recommended_a"] * 1000 >= p["worst_ma"]
    assert p["minimum_a"] * 1000 >= p["limited_ma"] * hwfigures.SUPPLY_MARGIN
    text = "\n".join(_section(_read("README.md", hw=any_hw), "Power"))
    assert "%d mA" % p["full_ma"] in text and "`max_current_ma` = %d mA" % board.max_current_ma \
        in text
    assert "(%d x 60 mA)" % board.led_count in text


# ------------------------------------------------------------------ LED chain

def test_chain_table_has_every_led_once(any_hw):
    board = any_hw.board
    rows = _table(_section(_read("README.md", hw=any_hw), "LED chain"), "LED index")
    leds = [int(r[0]) for r in rows]
    assert sorted(leds) == list(range(board.led_count)) and len(leds) == board.led_count
    assert sorted(int(r[5]) for r in rows) == list(range(board.led_count))
    names = {int(r[0]): r[1] for r in rows}
    if board.game == "kahuna":
        for i, island in enumerate(board.islands):
            assert names[board.island_led[i]] == island
        for k, conn in enumerate(board.connections):
            assert names[board.conn_led[k]] == conn
        for name, led in board.status_leds.items():
            assert names[led] == name
    else:  # the names bring-up says as it walks the chain
        assert [names[i] for i in range(board.led_count)] == \
            gameload.load(board.game).pixel_names(board)


def test_suggested_chain_is_a_permutation_no_longer_than_the_current(any_hw):
    n = any_hw.board.led_count
    assert sorted(any_hw.suggested) == list(range(n))
    assert any_hw.current == list(range(n))
    assert any_hw.suggested_mm <= any_hw.current_mm
    pts = [p.xy for p in any_hw.pixels]
    assert math.isclose(any_hw.suggested_mm,
                        chainorder.path_length(any_hw.pico_xy, pts, any_hw.suggested))


def test_positions_at_board_size(any_hw):
    w, h = any_hw.board.board_size_mm
    for p in any_hw.pixels:
        assert 5 <= p.xy[0] <= w - 5 and 5 <= p.xy[1] <= h - 5, p.name  # a whole hole
    # holes closer than 1.5 x their size are named in the README (Kahuna has one pair)
    text = _read("README.md", hw=any_hw)
    for dd, p, q in any_hw.close_pairs:
        assert "%s (#%d) and %s (#%d): %.1f mm apart" % (p.name, p.led, q.name, q.led, dd) \
            in text
    assert len(any_hw.close_pairs) == {"kahuna": 1, "halunken": 0, "kami": 0}[any_hw.board.name]


def test_kahunas_bridge_pixel_sits_midway_between_its_islands(hw):
    board = gamekit.board()
    a, b = board.conn_ends[0]
    mid = hw.pixels[board.conn_led[0]].xy
    pa, pb = hw.pixels[board.island_led[a]].xy, hw.pixels[board.island_led[b]].xy
    assert mid == pytest.approx(((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2))


def _model(name):
    path = os.path.join(gamekit.ROOT, "board_def", name + ".json")
    return hwmod.Hardware(boardmod.load(path), path)


def test_halunkens_piles_sit_at_their_taverns_and_spaces_in_front_towards_the_centre():
    hw = _model("halunken")
    b = hw.board
    cx, cy = hw.to_mm(halunken_places.centre(b))
    assert len(b.tavern_xy) == 14
    for t in range(14):
        pile = hw.pixels[b.pile_led[t]]
        space = hw.pixels[b.space_led[t]]
        assert (pile.kind, space.kind) == ("pile", "space")
        assert pile.xy == pytest.approx(hw.to_mm(b.tavern_xy[t]))
        assert chainorder.dist(pile.xy, space.xy) == pytest.approx(
            halunken_places.SPACE_INWARD_MM)
        # the space is nearer the centre by exactly that much: on the line to it
        assert chainorder.dist(pile.xy, (cx, cy)) - chainorder.dist(space.xy, (cx, cy)) == \
            pytest.approx(halunken_places.SPACE_INWARD_MM)
    kinds = [p.kind for p in hw.pixels]
    assert (kinds.count("seat"), kinds.count("port"), kinds.count("round")) == (4, 1, 8)
    assert hw.pixels[b.port_led].xy == pytest.approx(hw.to_mm(b.port_xy))


def test_kamis_score_lights_run_evenly_along_their_tracks():
    hw = _model("kami")
    b = hw.board
    for t, track in enumerate(b.track_led):
        assert len(track) == 15
        first, last = hw.to_mm(b.track_xy[t][0]), hw.to_mm(b.track_xy[t][1])
        assert hw.pixels[track[0]].xy == pytest.approx(first)
        assert hw.pixels[track[-1]].xy == pytest.approx(last)
        steps = {round(chainorder.dist(hw.pixels[a].xy, hw.pixels[c].xy), 6)
                 for a, c in zip(track, track[1:])}
        assert len(steps) == 1, steps
    for s in range(4):
        assert hw.pixels[b.seat_led[s]].xy == pytest.approx(hw.to_mm(b.seat_xy[s]))
        assert hw.pixels[b.defence_led[s]].xy == pytest.approx(hw.to_mm(b.defence_xy[s]))
    assert hw.pixels[b.empress_led].kind == "empress"


def test_kami_on_the_kahuna_board_the_figures_the_readme_gives():
    # hardware/kami/README.md: why a Kahuna board does not host Kami (the strip's 43 pixels)
    kami = _model("kami").board
    kahuna = gamekit.board()
    lights = {n: kami_places.lights_for(kami, n) for n in (2, 3, 4)}
    assert lights == {2: 43, 3: 52, 4: 39}
    assert kahuna.led_count == lights[2] < lights[3] < kami.led_count == 62
    text = _read("README.md", hw=_model("kami"))
    assert "**Kami on a Kahuna board: no.**" in text
    assert "3 players need 52 lights; 2 players need 43" in text


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

def test_template_pdf_page_is_the_board_size(any_hw):
    w, h = any_hw.board.board_size_mm
    pages = _pdf_pages(_read("template.pdf", "rb", hw=any_hw))
    assert len(pages) == 1
    assert abs(pages[0][0] - w) < 0.5 and abs(pages[0][1] - h) < 0.5, pages
    svg = _read("template.svg", hw=any_hw)
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="%gmm" '
                          'height="%gmm" viewBox="0 0 %g %g">' % (w, h, w, h))


def test_template_marks_every_pixel_and_a_100_mm_scale(any_hw):
    svg = _read("template.svg", hw=any_hw)
    r = hwfigures.HOLE_MM / 2
    for p in any_hw.pixels:
        assert '<circle cx="%s" cy="%s" r="%s"' % (svgkit.num(p.xy[0]), svgkit.num(p.xy[1]),
                                                    svgkit.num(r)) in svg, p.name
        assert ">#%d<" % p.led in svg
    assert '<line x1="12" y1="40" x2="112" y2="40"' in svg  # 100 mm across
    assert '<line x1="12" y1="55" x2="12" y2="155"' in svg  # 100 mm down
    assert ">%s<" % any_hw.places.TEMPLATE_TITLE.replace("&", "&amp;") in svg


TEXT = re.compile(r'<text x="([\d.-]+)" y="([\d.-]+)"[^>]* font-size="([\d.]+)" '
                  r'text-anchor="(\w+)" font-weight="(\w+)"[^>]*>([^<]*)</text>')


def _text_boxes(svg):
    """(left, top, right, bottom, text) of each text of an SVG, by cairo's widths."""
    out = []
    for m in TEXT.finditer(svg):
        tx, ty, size = float(m.group(1)), float(m.group(2)), float(m.group(3))
        text = m.group(6).replace("&amp;", "&")
        width = svgkit.text_width(text, size, m.group(5))
        left = {"start": tx, "middle": tx - width / 2, "end": tx - width}[m.group(4)]
        out.append((left, ty - size, left + width, ty, text))
    return out


def test_template_text_stays_on_the_page_and_off_the_holes(any_hw):
    # every text of the template within the board's page; the title block clear of every
    # hole and its crosshair
    w, h = any_hw.size_mm
    hole = hwfigures.HOLE_MM / 2
    for left, top, right, bottom, text in _text_boxes(_read("template.svg", hw=any_hw)):
        assert 0 <= left and right <= w and 0 < top and bottom <= h, text
        for p in any_hw.pixels:  # no label over a hole (GOLA's lay over #21's)
            x, y = p.xy
            assert not (left < x + hole and x - hole < right and top < y + hole
                        and y - hole < bottom), (text, p.name)
    title = _text_boxes("\n".join(drilltemplate._title_block(any_hw)))
    assert len(title) >= 4
    r = hwfigures.HOLE_MM / 2 + 3  # the crosshair's arms
    for left, top, right, bottom, text in title:
        for p in any_hw.pixels:
            assert not (left - r < p.xy[0] < right + r and top - r < p.xy[1] < bottom + r), \
                (text, p.name)
    # the A4 pages' footers within the page
    _, _, _, (pw, ph) = drilltemplate.a4_tiles(any_hw.size_mm)
    pages, _ = drilltemplate.template_tiles(any_hw)
    for page in pages:
        for left, _top, right, bottom, text in _text_boxes(page):
            if text.startswith(any_hw.places.TITLE + " template"):
                assert hwfigures.TILE_MARGIN_MM <= left and right <= pw - 5, text
                assert bottom <= ph - 2, text


@pytest.mark.parametrize("name", ("template.pdf", "template-a4.pdf"))
def test_the_pdfs_fill_no_line(any_hw, name):
    # a line filled (SVG's default fill, through cairosvg) is an empty path that Chrome's
    # PDF viewer drew as a black hairline where the A4 pages' clip cut a guide
    data = _read(name, "rb", hw=any_hw)
    # each stream up to `endstream`, its end-of-line kept: a stream whose data ends in a
    # \r byte would lose it to an `\r?\n` there; zlib stops at the data's own end
    streams = [zlib.decompressobj().decompress(s)
               for s in re.findall(rb"stream\r?\n(.*?)endstream", data, re.S)
               if s[:2] in (b"x\x9c", b"x\xda", b"x^", b"x\x01")]
    assert streams  # the pages' content was read
    assert [m for s in streams for m in re.findall(rb" l [fB]\*?\s", s)] == []


A4_LAYOUTS = {"kahuna": ("landscape", 2, 2), "halunken": ("portrait", 3, 2),
              "kami": ("portrait", 5, 3)}


@pytest.mark.parametrize("path", BOARDS, ids=IDS)
def test_a4_template_tiles_cover_the_board(path):
    hw = hwmod.Hardware(boardmod.load(path), path)
    layout = A4_LAYOUTS[hw.board.name]
    w, h = hw.board.board_size_mm
    orient, (cols, rows), tiles, page = drilltemplate.a4_tiles((w, h))
    pages = _pdf_pages(_read("template-a4.pdf", "rb", hw=hw))
    assert len(pages) == len(tiles) == cols * rows
    for pw, ph in pages:
        assert sorted((round(pw, 1), round(ph, 1))) == [210.0, 297.0]
    usable = (page[0] - 2 * hwfigures.TILE_MARGIN_MM, page[1] - 2 * hwfigures.TILE_MARGIN_MM)
    assert max(x0 for _, _, x0, _ in tiles) + usable[0] >= w
    assert max(y0 for _, _, _, y0 in tiles) + usable[1] >= h
    assert (orient, cols, rows) == layout


def test_a4_pages_carry_join_marks_in_the_strips_they_share():
    hw = _model("kami")
    orient, (cols, rows), tiles, page = drilltemplate.a4_tiles(hw.size_mm)
    pages, _ = drilltemplate.template_tiles(hw)
    marks = [re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="1.5" stroke="#c00"', p)
             for p in pages]
    # every page but a corner one's shares marks with its right and lower neighbours
    for n, (c, r, _, _) in enumerate(tiles):
        if c + 1 < cols:
            assert set(marks[n]) & set(marks[n + 1]), (n, "right")
        if r + 1 < rows:
            assert set(marks[n]) & set(marks[n + cols]), (n, "below")


def test_the_readmes_wiring_at_a_glance_names_every_pin_of_the_kahuna_board():
    """README.md's "Wiring at a glance" table: every GPIO board_def/kahuna.json wires (a
    maker wiring from it alone missed the PN532's reset, GP7)."""
    with open(os.path.join(gamekit.ROOT, "board_def", "kahuna.json")) as f:
        pins = json.load(f)["hardware"]["pins"]
    wired = set()
    todo = [pins]
    while todo:
        node = todo.pop()
        for key, value in node.items():
            if isinstance(value, dict):
                todo.append(value)
            elif isinstance(value, int) and key not in ("id", "freq"):
                wired.add(value)
    with open(os.path.join(gamekit.ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    start = text.index("Wiring at a glance")
    table = text[start:text.index("\n\n", text.index("| Pico GPIO", start))]
    named = set()
    for first, last in re.findall(r"GP(\d+) \.\. GP(\d+)", table):
        named.update(range(int(first), int(last) + 1))
    named.update(int(n) for n in re.findall(r"GP(\d+)", table))
    assert wired <= named, sorted(wired - named)
