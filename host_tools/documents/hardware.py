"""The maker's hardware documentation, generated from the board definition.

    python -m host_tools hardware [--board PATH] [--out DIR] [--check]
    make hardware

Writes into `hardware/` (or --out):

    bom.csv                  bill of materials, quantities from board_def
    README.md                for makers: BOM, wiring, power, LED chain, template, assembly;
                             filled in from hardware/README.template.md
    wiring.svg, wiring.png   schematic of the Pico and everything on it (schemdraw)
    chain.svg, chain.png     the LED chain drawn over the board: the current order (LED
                             index order) beside a suggested shorter one
    template.svg/.pdf        1:1 drilling template, one page of board_size_mm
    template-a4.pdf          the same template tiled onto A4 pages with overlap marks

`--check` writes into a temporary folder and compares byte for byte with --out: exit 1
naming the stale files. Everything is deterministic: no dates, fixed number formats, PDF
metadata without a creation date. PNG and PDF go through cairosvg (system libcairo2);
the bytes depend on the cairo and font versions, the same on every machine of the project.

Positions: islands at their centres, a connection's pixel at the midpoint of its two
islands, status pixels and the Pico where `hardware` in board_def says, else at the
defaults below; frame units (board_def `frame`, y down) scale to `board_size_mm`.
"""

import argparse
import csv
import io
import math
import os
import re
import shutil
import string
import sys
import tempfile
from xml.sax.saxutils import escape

from core import board as boardmod
from core import checks
from host_tools import mpy
from host_tools.paths import BOARD_DEF

DEFAULT_BOARD = BOARD_DEF
DEFAULT_OUT = os.path.join(mpy.ROOT, "hardware")
TEMPLATE_NAME = "README.template.md"  # hand-written prose of README.md, in the out folder

# Files this generator writes, in the order it writes them.
OUTPUTS = ("bom.csv", "wiring.svg", "wiring.png", "chain.svg", "chain.png", "template.svg",
           "template.pdf", "template-a4.pdf", "README.md")

# ------------------------------------------------------------------ the Pico's header
# Raspberry Pi Pico / Pico H pinout (Pico datasheet, "Pinout"): the physical header pin of
# each GPIO. Pins 1-20 run down the left side (USB at the top), 21-40 up the right side.
# GP23 (SMPS mode), GP24 (VBUS sense), GP25 (on-board LED) and GP29 (VSYS/3) are used on
# the board itself and are not on the header.
PICO_GPIO_PIN = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12,
    10: 14, 11: 15, 12: 16, 13: 17, 14: 19, 15: 20,
    16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29,
    26: 31, 27: 32, 28: 34,
}
PICO_GND_PINS = (3, 8, 13, 18, 23, 28, 38)  # 33 is AGND
PIN_VBUS, PIN_VSYS, PIN_3V3_EN, PIN_3V3, PIN_GND_R, PIN_GND_L = 40, 39, 37, 36, 38, 3

# ------------------------------------------------------------------ parts and figures
CARDS_PER_ISLAND = 2  # docs/rules.md: 24 island cards, 2 per island (HUNA-1, HUNA-2)
PIXEL_SPARES = 0.10  # spare fraction of pixels and stickers (at least MIN_SPARES)
MIN_SPARES = 2
LED_FULL_WHITE_MA = 60  # one WS2812B at full white: 3 x 20 mA (view.MA_PER_CHANNEL)
LED_IDLE_MA = 1  # a WS2812B's own draw, lit or dark
PICO_MA = 50  # RP2040 at 125 MHz and the board's regulator, with margin
PN532_MA = 150  # PN532 module with its RF field on (peak, while polling)
BUZZER_MA = 30  # passive buzzer through the transistor
SUPPLY_RATINGS_A = (1, 2, 2.5, 3, 4, 5, 6, 8, 10)  # common 5 V supply sizes
SUPPLY_MARGIN = 1.5  # minimum supply = this x the limited draw
WIRE_SLACK = 1.25  # hook-up wire bought = chain length x this
DATA_RESISTOR = "470 Ω"  # Adafruit NeoPixel Überguide: 300-500 Ω at the first DIN
BULK_CAP = "1000 µF"  # Überguide: across + and - where the supply meets the strip

# ------------------------------------------------------------------ layout (frame units)
# Where the Pico (with the level shifter beside it) sits under the board: the bottom-left
# corner; the data line starts there. Status pixels: a row along the bottom edge next to
# it. Both can be set in board_def as {"hardware": {"pico_xy": [x, y], "status_xy":
# {"phase": [x, y], ...}}} (frame units); board_def's validator ignores that key.
PICO_XY = (0.07875, 0.9484)  # fractions of the frame: (31.5, 303.5) mm on a 400x320 board
PICO_MM = (51.0, 21.0)  # the Pico's outline, lying along the bottom edge
STATUS_ROW = (0.18, 0.9625, 0.04)  # first x, y and x step as fractions of the frame
CLOSE_FACTOR = 1.5  # pixel centres closer than this x HOLE_MM are named in the README
HOLE_MM = 10.0  # drill diameter for a pixel (a 10 mm round WS2812B board shines through)
A4_MM = (210.0, 297.0)
TILE_MARGIN_MM = 10.0  # unprinted margin kept on each A4 page
TILE_OVERLAP_MM = 10.0  # board area printed on both neighbouring pages

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


class HardwareError(Exception):
    """A board definition the hardware docs cannot be made from."""


def _n(v, places=2):
    """A number for SVG: fixed places, no trailing zeros, never '-0'."""
    s = ("%." + str(places) + "f") % v
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _mm(v):
    return "%.1f" % v


# ------------------------------------------------------------------ the model

class Pixel:
    """One pixel of the strip: its LED index, name, kind and place on the board (mm)."""

    def __init__(self, led, name, kind, xy):
        self.led = led
        self.name = name
        self.kind = kind  # "island", "connection" or "status"
        self.xy = xy


class Hardware:
    """Everything the documents say, worked out once from a Board."""

    def __init__(self, board, board_path):
        if board.board_size_mm is None:
            raise HardwareError("layout.board_size_mm: needed for the template and wire lengths")
        self.board = board
        self.board_path = board_path
        self.size_mm = (float(board.board_size_mm[0]), float(board.board_size_mm[1]))
        if board.frame is not None:
            self.frame = (float(board.frame[0]), float(board.frame[1]))
        else:  # no frame: the island positions are taken as millimetres
            self.frame = self.size_mm
        self.scale = (self.size_mm[0] / self.frame[0], self.size_mm[1] / self.frame[1])
        hw = (board.raw or {}).get("hardware", {})
        if not isinstance(hw, dict):
            raise HardwareError("hardware: must be an object")
        fw, fh = self.frame
        self.pico_xy = self.to_mm(self._xy(hw.get("pico_xy"), "hardware.pico_xy",
                                           (PICO_XY[0] * fw, PICO_XY[1] * fh)))
        status_xy = hw.get("status_xy", {})
        if not isinstance(status_xy, dict):
            raise HardwareError("hardware.status_xy: must be an object")
        pixels = []
        for i, name in enumerate(board.islands):
            pixels.append(Pixel(board.island_led[i], name, "island",
                                self.to_mm(board.island_xy[i])))
        for k, name in enumerate(board.connections):
            a, b = board.conn_ends[k]
            (xa, ya), (xb, yb) = board.island_xy[a], board.island_xy[b]
            pixels.append(Pixel(board.conn_led[k], name, "connection",
                                self.to_mm(((xa + xb) / 2, (ya + yb) / 2))))
        status = sorted(board.status_leds.items(), key=lambda kv: kv[1])
        for j, (name, led) in enumerate(status):
            default = ((STATUS_ROW[0] + j * STATUS_ROW[2]) * fw, STATUS_ROW[1] * fh)
            xy = self._xy(status_xy.get(name), "hardware.status_xy." + name, default)
            pixels.append(Pixel(led, name, "status", self.to_mm(xy)))
        pixels.sort(key=lambda p: p.led)
        self.pixels = pixels  # by LED index: pixels[i].led == i
        self.current = list(range(len(pixels)))
        self.suggested = suggest_chain(self.pico_xy, [p.xy for p in pixels])
        self.current_mm = path_length(self.pico_xy, [p.xy for p in pixels], self.current)
        self.suggested_mm = path_length(self.pico_xy, [p.xy for p in pixels], self.suggested)
        self.close_pairs = [
            (_dist(p.xy, q.xy), p, q) for i, p in enumerate(pixels) for q in pixels[i + 1:]
            if _dist(p.xy, q.xy) < CLOSE_FACTOR * HOLE_MM]
        self.close_pairs.sort(key=lambda t: (t[0], t[1].led, t[2].led))
        self.wiring = wiring_rows(board)
        self.power = power_budget(board)
        self.bom = bom_rows(board, self.power, self.current_mm, self.suggested_mm)

    def _xy(self, v, field, default):
        if v is None:
            return default
        if (not isinstance(v, list) or len(v) != 2
                or not all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in v)):
            raise HardwareError("%s: must be [x, y] in frame units, got %r" % (field, v))
        return (float(v[0]), float(v[1]))

    def to_mm(self, xy):
        return (xy[0] * self.scale[0], xy[1] * self.scale[1])


# ------------------------------------------------------------------ LED chain order

def _dist(p, q):
    return math.hypot(p[0] - q[0], p[1] - q[1])


def path_length(start, points, order):
    """Wire length in mm: start -> points[order[0]] -> points[order[1]] -> ..."""
    total = 0.0
    prev = start
    for i in order:
        total += _dist(prev, points[i])
        prev = points[i]
    return total


def _nearest_neighbour(start, points):
    left = list(range(len(points)))
    order = []
    here = start
    while left:
        best = min(left, key=lambda i: (_dist(here, points[i]), i))
        left.remove(best)
        order.append(best)
        here = points[best]
    return order


def _two_opt(start, points, order):
    """Reverse stretches of an open path with a fixed start while that shortens it."""
    n = len(order)
    eps = 1e-9
    improved = True
    while improved:
        improved = False
        for i in range(n - 1):
            before = start if i == 0 else points[order[i - 1]]
            for j in range(i + 1, n):
                a, b = points[order[i]], points[order[j]]
                old = _dist(before, a)
                new = _dist(before, b)
                if j + 1 < n:
                    after = points[order[j + 1]]
                    old += _dist(b, after)
                    new += _dist(a, after)
                if new < old - eps:
                    order[i:j + 1] = order[i:j + 1][::-1]
                    improved = True
    return order


def _or_opt(start, points, order):
    """Move runs of 1-3 pixels (either way round) elsewhere in the path while that helps."""
    eps = 1e-9
    improved = True
    while improved:
        improved = False
        base = path_length(start, points, order)
        for run in (1, 2, 3):
            for i in range(len(order) - run + 1):
                seg = order[i:i + run]
                rest = order[:i] + order[i + run:]
                for j in range(len(rest) + 1):
                    if j == i:
                        continue
                    for piece in (seg, seg[::-1]):
                        cand = rest[:j] + piece + rest[j:]
                        length = path_length(start, points, cand)
                        if length < base - eps:
                            order, base, improved = cand, length, True
                            break
                    if improved:
                        break
                if improved:
                    break
            if improved:
                break
    return order


def suggest_chain(start, points):
    """A short open path through every pixel from `start`: nearest neighbour and the
    current index order, each improved with 2-opt and or-opt; the shorter one (so never
    longer than the current order). Deterministic: ties go to the lower index."""
    best = None
    for seed in (_nearest_neighbour(start, points), list(range(len(points)))):
        order = seed
        while True:
            before = path_length(start, points, order)
            order = _or_opt(start, points, _two_opt(start, points, order))
            if path_length(start, points, order) >= before - 1e-9:
                break
        if best is None or path_length(start, points, order) < path_length(start, points,
                                                                           best) - 1e-9:
            best = order
    return best


# ------------------------------------------------------------------ wiring

def pico_pin(gpio, field):
    if gpio not in PICO_GPIO_PIN:
        raise HardwareError("%s: GPIO %d is not on the Pico's header (GP23, GP24, GP25 and "
                            "GP29 are used on the Pico itself)" % (field, gpio))
    return PICO_GPIO_PIN[gpio]


def wiring_rows(board):
    """One row per Pico pin used: (gpio or None, physical pin, signal, destination, field).
    Every GPIO of board_def.pins is here, then the power pins."""
    pins = board.pins
    rows = []
    enc_roles = board.inputs.get("encoder") or {}

    def add(gpio, field, signal, dest):
        rows.append((gpio, pico_pin(gpio, field), signal, dest, field))

    for key in checks.keys(pins, boardmod.PIN_KEYS):
        v = pins[key]
        field = "pins." + key
        if key == "neopixel":
            add(v, field, "NeoPixel data (3.3 V)",
                "74AHCT125 1A (pin 2); its 1Y (pin 3) -> %s -> DIN of pixel 0"
                % DATA_RESISTOR)
        elif key == "i2c":
            for name in ("sda", "scl"):
                add(v[name], field + "." + name, "I2C%d %s" % (v["id"], name.upper()),
                    "PN532 %s" % name.upper())
        elif key == "pn532_reset":
            add(v, field, "PN532 reset", "PN532 RSTPDN (the firmware pulses it low to "
                "recover a hung reader)")
        elif key == "buttons":
            for role in checks.keys(v, boardmod.ROLES):
                extra = ""
                if board.inputs.get("bringup") == role:
                    extra = "; held at power-up: bring-up mode"
                add(v[role], field + "." + role, "button '%s'" % role,
                    "push button to GND (internal pull-up%s)" % extra)
        elif key == "encoder":
            for name in checks.keys(v, ("a", "b", "switch")):
                if name == "switch":
                    acts = ", ".join("%s: %s" % (a.replace("_", " "), enc_roles[a])
                                     for a in ("press", "long_press") if a in enc_roles)
                    sig, dest = "encoder switch", "EC11 switch pin (other switch pin to GND)"
                    if acts:
                        dest += "; %s" % acts
                else:
                    turn = "; turning: cw %s, ccw %s" % (enc_roles.get("cw", "-"),
                                                          enc_roles.get("ccw", "-"))
                    sig = "encoder %s" % name.upper()
                    dest = "EC11 %s (C to GND)%s" % (name.upper(), turn if name == "a" else "")
                add(v[name], field + "." + name, sig, dest)
        elif key == "buzzer":
            add(v, field, "buzzer (PWM)", "1 kΩ -> NPN base; buzzer from +5 V to the collector")
        else:
            add(v, field, key, "(not described by this generator)")
    rows.append((None, PIN_VSYS, "VSYS", "+5 V through a 1N5817 Schottky diode "
                 "(USB can stay plugged in)", "power"))
    rows.append((None, PIN_GND_R, "GND", "common ground: supply -, pixels, 74AHCT125, PN532, "
                 "buttons, encoder, transistor", "power"))
    rows.append((None, PIN_3V3, "3V3(OUT)", "PN532 VCC (3.3 V logic on the I2C lines)",
                 "power"))
    rows.sort(key=lambda r: r[1])
    return rows


# ------------------------------------------------------------------ power

def power_budget(board):
    n = board.led_count
    full = n * LED_FULL_WHITE_MA
    idle = n * LED_IDLE_MA
    at_brightness = int(round(full * board.brightness))
    limited_leds = min(board.max_current_ma, at_brightness) + idle
    others = PICO_MA + PN532_MA + BUZZER_MA
    worst = full + others
    limited = limited_leds + others
    minimum = _rating(limited * SUPPLY_MARGIN)
    recommended = max(_rating(worst), minimum)
    return {
        "led_count": n, "full_ma": full, "idle_ma": idle, "at_brightness_ma": at_brightness,
        "limit_ma": board.max_current_ma, "limited_leds_ma": limited_leds,
        "others_ma": others, "worst_ma": worst, "limited_ma": limited,
        "minimum_a": minimum, "recommended_a": recommended, "brightness": board.brightness,
    }


def _rating(ma):
    for a in SUPPLY_RATINGS_A:
        if a * 1000 >= ma:
            return a
    return math.ceil(ma / 1000.0)


def _amps(a):
    return ("%g" % a) + " A"


# ------------------------------------------------------------------ bill of materials

BOM_HEADER = ("item", "qty", "unit", "part", "details", "quantity_from")


def _spares(n):
    return max(MIN_SPARES, int(math.ceil(n * PIXEL_SPARES)))


def bom_rows(board, power, chain_mm, suggested_mm):
    """The BOM rows. Wire is for `chain_mm`, the chain as board_def numbers it now (what
    the firmware drives); the suggested order's need is given beside it."""
    n = board.led_count
    cards = CARDS_PER_ISLAND * len(board.islands)
    buttons = len(board.pins["buttons"])
    wire_m = int(math.ceil(chain_mm * WIRE_SLACK / 100.0)) / 10.0  # per conductor, 0.1 m up
    rows = [
        ("pcs", "Raspberry Pi Pico H (or Pico)", "RP2040 board; the H has headers fitted",
         1, "1 controller"),
        ("pcs", "WS2812B pixel, 5 V",
         "single pixels on ~10 mm round boards (5V, GND, DIN / DOUT pads), or strip cut to "
         "single pixels", n + _spares(n),
         "led_count %d + %d spares" % (n, _spares(n))),
        ("pcs", "PN532 NFC module", "e.g. Elechouse PN532 V3 or Adafruit PN532 breakout; "
         "set to I2C mode", 1, "1 reader"),
        ("pcs", "NTAG213 NFC sticker", "round 25 mm or smaller, one per island card",
         cards + _spares(cards), "%d islands x %d cards + %d spares"
         % (len(board.islands), CARDS_PER_ISLAND, _spares(cards))),
    ]
    if "encoder" in board.pins:
        rows.append(("pcs", "Rotary encoder with push switch (EC11)",
                     "20 detents, 6 mm shaft, plus a knob", 1, "pins.encoder"))
    rows.append(("pcs", "Push button, momentary", "12 mm tactile or panel-mount, normally open",
                 buttons, "pins.buttons: %s" % ", ".join(checks.keys(board.pins["buttons"],
                                                                         boardmod.ROLES))))
    if "buzzer" in board.pins:
        rows += [
            ("pcs", "Passive buzzer, 5 V", "magnetic or piezo, driven by PWM", 1,
             "pins.buzzer"),
            ("pcs", "NPN transistor", "2N2222, BC337 or S8050 (switches the buzzer)", 1,
             "pins.buzzer"),
            ("pcs", "Resistor 1 kΩ", "transistor base", 1, "pins.buzzer"),
            ("pcs", "Diode 1N4148", "across the buzzer (flyback)", 1, "pins.buzzer"),
        ]
    rows += [
        ("pcs", "74AHCT125 level shifter (DIP-14)", "3.3 V -> 5 V for the pixel data line; "
         "SN74AHCT1G125 also works", 1, "pins.neopixel"),
        ("pcs", "Capacitor 100 nF", "decoupling at the 74AHCT125's VCC", 1, "74AHCT125"),
        ("pcs", "Resistor %s" % DATA_RESISTOR, "in the data line before the first pixel "
         "(300-500 Ω)", 1, "pins.neopixel"),
        ("pcs", "Electrolytic capacitor %s, 10 V or more" % BULK_CAP,
         "across + and - where the supply meets the pixels", 1, "NeoPixel Überguide"),
        ("pcs", "Schottky diode 1N5817", "+5 V into VSYS, so USB and the supply can both "
         "be connected", 1, "Pico datasheet"),
        ("pcs", "5 V DC power supply, %s" % _amps(power["recommended_a"]),
         "regulated; at least %s" % _amps(power["minimum_a"]), 1, "power budget"),
        ("pcs", "DC barrel socket 5.5 x 2.1 mm", "panel mount, to match the supply", 1,
         "power supply"),
        ("m", "Hook-up wire 22 AWG (0.33 mm²)", "3 colours: data, +5 V, GND along the chain",
         "%.1f" % (3 * wire_m), "3 x %.1f m: chain in LED index order %.0f mm + %d %% "
         "slack (3 x %.1f m in the suggested order)"
         % (wire_m, chain_mm, round((WIRE_SLACK - 1) * 100),
            int(math.ceil(suggested_mm * WIRE_SLACK / 100.0)) / 10.0)),
        ("m", "Wire 18 AWG (0.75 mm²), red and black", "supply to the first pixel and the "
         "Pico", "1.0", "2 x 0.5 m"),
        ("pcs", "Stripboard or perfboard, ~70 x 50 mm", "carries the Pico, 74AHCT125, "
         "diode, resistors, capacitors", 1, "1 controller"),
        ("pcs", "Board blank, %.0f x %.0f mm, 6 mm plywood or MDF"
         % tuple(board.board_size_mm), "the printed board is glued on top; pixels sit in "
         "Ø%.0f mm holes" % HOLE_MM, 1, "board_size_mm"),
    ]
    return [(str(i + 1), str(qty), unit, part, details, src)
            for i, (unit, part, details, qty, src) in enumerate(rows)]


def bom_csv(hw):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(BOM_HEADER)
    w.writerows(hw.bom)
    return out.getvalue()


# ------------------------------------------------------------------ Markdown pieces

def md_table(header, rows, align=None):
    def cell(v):
        return str(v).replace("|", "\\|")
    lines = ["| " + " | ".join(header) + " |"]
    lines.append("|" + "|".join(align or ["---"] * len(header)) + "|")
    for r in rows:
        lines.append("| " + " | ".join(cell(v) for v in r) + " |")
    return "\n".join(lines)


def readme_fields(hw):
    b = hw.board
    p = hw.power
    pixel_names = {px.led: px for px in hw.pixels}
    bom = md_table(("#", "qty", "part", "details", "quantity from"),
                   [(r[0], r[1] + (" m" if r[2] == "m" else ""), r[3], r[4], r[5])
                    for r in hw.bom], ["--:", "--:", "---", "---", "---"])
    wiring = md_table(("GPIO", "Pico pin", "signal", "goes to", "board_def"),
                      [("GP%d" % g if g is not None else "-", r, s, d,
                        "`%s`" % f if f != "power" else "power")
                       for g, r, s, d, f in hw.wiring], ["--:", "--:", "---", "---", "---"])
    power = md_table(("", "current"), [
        ("pixels, all full white (%d x %d mA): uncapped worst case"
         % (p["led_count"], LED_FULL_WHITE_MA), "%d mA" % p["full_ma"]),
        ("pixels, all white at brightness %g" % p["brightness"],
         "%d mA" % p["at_brightness_ma"]),
        ("pixels, capped by the firmware's limiter (`max_current_ma`) + %d x %d mA idle"
         % (p["led_count"], LED_IDLE_MA), "%d mA" % p["limited_leds_ma"]),
        ("Pico %d mA + PN532 %d mA (RF on) + buzzer %d mA" % (PICO_MA, PN532_MA, BUZZER_MA),
         "%d mA" % p["others_ma"]),
        ("**total, limiter working**", "**%d mA**" % p["limited_ma"]),
        ("**total, uncapped worst case**", "**%d mA**" % p["worst_ma"]),
    ], ["---", "--:"])
    sugg_pos = {led: i for i, led in enumerate(hw.suggested)}
    chain = md_table(("LED index", "pixel", "kind", "x mm", "y mm", "suggested position"),
                     [(px.led, px.name, px.kind, _mm(px.xy[0]), _mm(px.xy[1]),
                       sugg_pos[px.led]) for px in hw.pixels],
                     ["--:", "---", "---", "--:", "--:", "--:"])
    order = " → ".join("%s (%d)" % (pixel_names[i].name, i) for i in hw.suggested)
    tiles = a4_tiles(hw.size_mm)
    saving = hw.current_mm - hw.suggested_mm
    return {
        "board_file": _board_file(hw),
        "name": b.name[:1].upper() + b.name[1:],
        "led_count": b.led_count,
        "islands": len(b.islands),
        "connections": len(b.connections),
        "status": len(b.status_leds),
        "status_names": ", ".join(sorted(b.status_leds, key=b.status_leds.get)),
        "cards": CARDS_PER_ISLAND * len(b.islands),
        "buttons": len(b.pins["buttons"]),
        "neopixel_gpio": b.pins["neopixel"],
        "neopixel_pin": PICO_GPIO_PIN[b.pins["neopixel"]],
        "bom_table": bom,
        "wiring_table": wiring,
        "power_table": power,
        "brightness": "%g" % b.brightness,
        "max_current_ma": b.max_current_ma,
        "minimum_a": _amps(p["minimum_a"]),
        "recommended_a": _amps(p["recommended_a"]),
        "worst_a": "%.2f A" % (p["worst_ma"] / 1000.0),
        "limited_a": "%.2f A" % (p["limited_ma"] / 1000.0),
        "chain_table": chain,
        "current_mm": "%.0f" % hw.current_mm,
        "suggested_mm": "%.0f" % hw.suggested_mm,
        "saving_mm": "%.0f" % saving,
        "saving_pct": "%.0f" % (100.0 * saving / hw.current_mm if hw.current_mm else 0),
        "suggested_order": order,
        "board_w": "%g" % hw.size_mm[0],
        "board_h": "%g" % hw.size_mm[1],
        "hole_mm": "%g" % HOLE_MM,
        "a4_pages": len(tiles[2]),
        "a4_layout": "%d x %d" % (tiles[1][0], tiles[1][1]),
        "a4_orientation": tiles[0],
        "overlap_mm": "%g" % TILE_OVERLAP_MM,
        "pico_mm": "(%.0f, %.0f)" % hw.pico_xy,
        "bringup": b.inputs.get("bringup") or "(none set)",
        "close_limit_mm": "%g" % (CLOSE_FACTOR * HOLE_MM),
        "close_pairs": "; ".join("%s (#%d) and %s (#%d): %.1f mm apart" % (
            p.name, p.led, q.name, q.led, dd) for dd, p, q in hw.close_pairs) or "none",
    }


def readme(hw, template_text):
    try:
        return string.Template(template_text).substitute(readme_fields(hw))
    except (KeyError, ValueError) as e:
        raise HardwareError("%s: bad placeholder %s" % (TEMPLATE_NAME, e)) from None


# ------------------------------------------------------------------ SVG helpers

def _svg_open(w, h, unit="", view=None, bg=None):
    vb = view or (0, 0, w, h)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%s%s" height="%s%s" '
           'viewBox="%s">' % (_n(w), unit, _n(h), unit, " ".join(_n(v) for v in vb))]
    if bg:
        out.append('<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>'
                   % (_n(vb[0]), _n(vb[1]), _n(vb[2]), _n(vb[3]), bg))
    return out


def _text(x, y, s, size, anchor="start", weight="normal", fill="#000", extra=""):
    return ('<text x="%s" y="%s" font-family="%s" font-size="%s" text-anchor="%s" '
            'font-weight="%s" fill="%s"%s>%s</text>'
            % (_n(x), _n(y), FONT, _n(size), anchor, weight, fill, extra, escape(s)))


def _line(x1, y1, x2, y2, stroke="#000", width=0.3, extra=""):
    return ('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s"%s/>'
            % (_n(x1), _n(y1), _n(x2), _n(y2), stroke, _n(width), extra))


def _circle(x, y, r, stroke="#000", width=0.3, fill="none", extra=""):
    return ('<circle cx="%s" cy="%s" r="%s" stroke="%s" stroke-width="%s" fill="%s"%s/>'
            % (_n(x), _n(y), _n(r), stroke, _n(width), fill, extra))


def _rect(x, y, w, h, stroke="#000", width=0.3, fill="none", extra=""):
    return ('<rect x="%s" y="%s" width="%s" height="%s" stroke="%s" stroke-width="%s" '
            'fill="%s"%s/>' % (_n(x), _n(y), _n(w), _n(h), stroke, _n(width), fill, extra))


# ------------------------------------------------------------------ 1:1 template

def template_body(hw):
    """The template's drawing in board millimetres (0, 0 top left, y down)."""
    w, h = hw.size_mm
    b = hw.board
    r = HOLE_MM / 2
    out = [_rect(0, 0, w, h, width=0.5)]
    # bridges, as faint dashed guides between the island holes
    for k in range(len(b.connections)):
        ia, ib = b.conn_ends[k]
        pa = hw.pixels[b.island_led[ia]].xy
        pb = hw.pixels[b.island_led[ib]].xy
        d = _dist(pa, pb)
        if d <= 2 * r + 2:
            continue
        ux, uy = (pb[0] - pa[0]) / d, (pb[1] - pa[1]) / d
        out.append(_line(pa[0] + ux * (r + 1), pa[1] + uy * (r + 1),
                         pb[0] - ux * (r + 1), pb[1] - uy * (r + 1), stroke="#9aa3ad",
                         width=0.25, extra=' stroke-dasharray="1.5 1.5"'))
    colours = {"island": "#17306e", "connection": "#8a1c1c", "status": "#2d5d1f"}
    for px in hw.pixels:
        x, y = px.xy
        c = colours[px.kind]
        out.append(_circle(x, y, r, stroke=c, width=0.35))
        out.append(_line(x - r - 3, y, x + r + 3, y, stroke=c, width=0.2))
        out.append(_line(x, y - r - 3, x, y + r + 3, stroke=c, width=0.2))
        if px.kind == "island":
            out.append(_text(x + r + 1.2, y - r + 0.5, px.name, 4.5, weight="bold", fill=c))
            out.append(_text(x + r + 1.2, y - r + 4.6, "#%d" % px.led, 3.2, fill=c))
        elif px.kind == "connection":
            out.append(_text(x + r * 0.75, y + r + 3.2, "#%d" % px.led, 3.0, weight="bold",
                             fill=c))
            out.append(_text(x + r * 0.75, y + r + 5.6, px.name, 2.1, fill=c))
        else:
            out.append(_text(x, y - r - 4.0, "#%d" % px.led, 3.0, anchor="middle",
                             weight="bold", fill=c))
            out.append(_text(x, y - r - 1.2, px.name.replace("_", " "), 2.2,
                             anchor="middle", fill=c))
    # the Pico's corner
    px, py = hw.pico_xy
    pw, ph = PICO_MM
    out.append(_rect(px - pw / 2, py - ph / 2, pw, ph, stroke="#555", width=0.3,
                     extra=' stroke-dasharray="2 1"'))
    out.append(_text(px, py - 1, "Pico + 74AHCT125", 3.0, anchor="middle", fill="#555"))
    out.append(_text(px, py + 3, "(under the board)", 2.4, anchor="middle", fill="#555"))
    out.append(_text(px, py + 6.5, "data line starts here", 2.4, anchor="middle",
                     fill="#555"))
    # scale bars: 100 mm each way, ticks every 10 mm
    x0, y0 = 12.0, 40.0
    out.append(_line(x0, y0, x0 + 100, y0, width=0.4))
    for i in range(11):
        t = 2.5 if i % 5 == 0 else 1.5
        out.append(_line(x0 + 10 * i, y0 - t, x0 + 10 * i, y0, width=0.25))
    out.append(_text(x0 + 50, y0 - 3.5, "100 mm: measure this before drilling", 3.0,
                     anchor="middle"))
    vx, vy = 12.0, 55.0
    out.append(_line(vx, vy, vx, vy + 100, width=0.4))
    for i in range(11):
        t = 2.5 if i % 5 == 0 else 1.5
        out.append(_line(vx, vy + 10 * i, vx + t, vy + 10 * i, width=0.25))
    out.append(_text(vx - 2, vy + 50, "100 mm", 3.0, anchor="middle",
                     extra=' transform="rotate(-90 %s %s)"' % (_n(vx - 2), _n(vy + 50))))
    # title and legend
    out.append(_text(w / 2, 11, "Kahuna board: drilling template 1:1", 6.0, anchor="middle",
                     weight="bold"))
    out.append(_text(w / 2, 18, "%g x %g mm. Print at 100 %% (actual size, no fit to page) "
                     "and check both 100 mm bars." % hw.size_mm, 3.4, anchor="middle"))
    out.append(_text(w / 2, 23.5, "Circles: drill Ø%g mm at the crosshair. #n: the pixel's "
                     "LED index. Blue islands, red bridges, green status." % HOLE_MM, 3.0,
                     anchor="middle"))
    out.append(_text(w / 2, 28.5, "Generated from %s by make hardware."
                     % _board_file(hw), 2.6, anchor="middle", fill="#555"))
    return out


def _board_file(hw):
    """The board definition's path as the docs name it: relative to the repository."""
    p = hw.board_path
    return os.path.relpath(p, mpy.ROOT) if os.path.isabs(p) else p


def template_svg(hw):
    w, h = hw.size_mm
    out = _svg_open(w, h, unit="mm", bg="#fff")
    out += template_body(hw)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def a4_tiles(size_mm):
    """A4 pages covering the board: (orientation, (cols, rows), [(col, row, x0, y0)]),
    the orientation with fewer pages (portrait on a tie)."""
    best = None
    for orient, page in (("portrait", A4_MM), ("landscape", (A4_MM[1], A4_MM[0]))):
        uw, uh = page[0] - 2 * TILE_MARGIN_MM, page[1] - 2 * TILE_MARGIN_MM
        sw, sh = uw - TILE_OVERLAP_MM, uh - TILE_OVERLAP_MM
        cols = max(1, int(math.ceil((size_mm[0] - TILE_OVERLAP_MM) / sw)))
        rows = max(1, int(math.ceil((size_mm[1] - TILE_OVERLAP_MM) / sh)))
        tiles = [(c, r, c * sw, r * sh) for r in range(rows) for c in range(cols)]
        if best is None or len(tiles) < len(best[2]):
            best = (orient, (cols, rows), tiles, page)
    return best


def template_tiles(hw):
    """One SVG per A4 page of the tiled template."""
    orient, (cols, rows), tiles, page = a4_tiles(hw.size_mm)
    pw, ph = page
    m = TILE_MARGIN_MM
    uw, uh = pw - 2 * m, ph - 2 * m
    sw, sh = uw - TILE_OVERLAP_MM, uh - TILE_OVERLAP_MM
    body = template_body(hw)
    pages = []
    for n, (c, r, x0, y0) in enumerate(tiles):
        out = _svg_open(pw, ph, unit="mm", bg="#fff")
        out.append('<defs><clipPath id="tile"><rect x="%s" y="%s" width="%s" height="%s"/>'
                   '</clipPath></defs>' % (_n(x0), _n(y0), _n(uw), _n(uh)))
        out.append('<g transform="translate(%s %s)"><g clip-path="url(#tile)">'
                   % (_n(m - x0), _n(m - y0)))
        out += body
        out.append("</g></g>")
        # this page's frame: trim along it when it goes on top of a neighbour
        out.append(_rect(m, m, uw, uh, stroke="#888", width=0.2))
        if c + 1 < cols:
            x = m + sw
            out.append(_line(x, m, x, m + uh, stroke="#c00", width=0.3,
                             extra=' stroke-dasharray="3 2"'))
            out.append(_text(x + 1.2, m + uh - 2, "page %d's frame goes here"
                             % (n + 2), 2.6, fill="#c00",
                             extra=' transform="rotate(-90 %s %s)"' % (_n(x + 2.8),
                                                                       _n(m + uh - 2))))
        if r + 1 < rows:
            y = m + sh
            out.append(_line(m, y, m + uw, y, stroke="#c00", width=0.3,
                             extra=' stroke-dasharray="3 2"'))
            out.append(_text(m + 2, y + 3.4, "page %d's frame goes here" % (n + 1 + cols),
                             2.6, fill="#c00"))
        out.append(_text(m, ph - 5.5, "Kahuna template, A4 %s, page %d of %d (row %d, "
                         "column %d). Print at 100 %%. Trim a page's top and left margins "
                         "along its grey frame and lay that edge on the red dashed line of "
                         "the page before; match the marks, tape." % (
                             orient, n + 1, len(tiles), r + 1, c + 1), 2.4))
        # a 50 mm check on every page
        out.append(_line(pw - m - 50, m - 4, pw - m, m - 4, width=0.35))
        for i in range(6):
            out.append(_line(pw - m - 50 + 10 * i, m - 5.5, pw - m - 50 + 10 * i, m - 4,
                             width=0.2))
        out.append(_text(pw - m - 52, m - 4, "50 mm", 2.6, anchor="end"))
        out.append("</svg>")
        pages.append("\n".join(out) + "\n")
    return pages, page


def pdf_pages(svgs, page_mm, title):
    """SVG pages of one size as one PDF, through cairosvg, with no creation date."""
    import cairocffi
    from cairosvg.parser import Tree
    from cairosvg.surface import PDFSurface

    out = io.BytesIO()
    target = cairocffi.PDFSurface(out, page_mm[0] * 72 / 25.4, page_mm[1] * 72 / 25.4)
    target.set_metadata(cairocffi.PDF_METADATA_CREATE_DATE, "")
    target.set_metadata(cairocffi.PDF_METADATA_TITLE, title)

    class OnTarget(PDFSurface):
        def _create_surface(self, width, height):
            return target, width, height

    for svg in svgs:
        OnTarget(Tree(bytestring=svg.encode("utf-8")), None, 96)
        target.show_page()
    target.finish()
    return out.getvalue()


def png(svg, width):
    import cairosvg
    return cairosvg.svg2png(bytestring=svg.encode("utf-8") if isinstance(svg, str) else svg,
                            output_width=width)


# ------------------------------------------------------------------ chain picture

SEA = "#d7e9f5"
SAND = "#ecd77a"
INK = "#14213f"
WIRE = "#c0392b"


def _arrow(x1, y1, x2, y2, size, fill):
    """A small arrowhead at the middle of a segment, pointing from 1 to 2."""
    d = math.hypot(x2 - x1, y2 - y1)
    if d < size * 2.5:
        return ""
    ux, uy = (x2 - x1) / d, (y2 - y1) / d
    mx, my = (x1 + x2) / 2 + ux * size / 2, (y1 + y2) / 2 + uy * size / 2
    pts = [(mx, my), (mx - ux * size - uy * size * 0.55, my - uy * size + ux * size * 0.55),
           (mx - ux * size + uy * size * 0.55, my - uy * size - ux * size * 0.55)]
    return '<polygon points="%s" fill="%s"/>' % (
        " ".join("%s,%s" % (_n(x), _n(y)) for x, y in pts), fill)


def _chain_panel(hw, order, ox, oy, k, title):
    """One board drawing at (ox, oy), k px per mm, with `order` as the wire."""
    w, h = hw.size_mm
    b = hw.board

    def at(xy):
        return ox + xy[0] * k, oy + xy[1] * k

    out = [_rect(ox, oy, w * k, h * k, stroke=INK, width=1, fill=SEA)]
    out.append(_text(ox, oy - 10, title, 17, weight="bold", fill=INK))
    for kk in range(len(b.connections)):
        ia, ib = b.conn_ends[kk]
        (x1, y1), (x2, y2) = at(hw.pixels[b.island_led[ia]].xy), at(hw.pixels[b.island_led[ib]].xy)
        out.append(_line(x1, y1, x2, y2, stroke="#9fb4c7", width=3))
    dots = [at(p.xy) for p in hw.pixels]
    for i, name in enumerate(b.islands):
        x, y = at(hw.pixels[b.island_led[i]].xy)
        out.append(_circle(x, y, 15, stroke="#b59a3a", width=1, fill=SAND))
        # the name above the island, else below, left or right: where no pixel is
        tw = 6.6 * len(name)
        places = ((0, -19, "middle", -tw / 2), (0, 28, "middle", -tw / 2),
                  (-18, 4, "end", -18 - tw), (18, 4, "start", 18))
        dx, dy, anchor = places[0][:3]
        for place in places:
            box = (x + place[3] - 2, y + place[1] - 10, x + place[3] + tw + 2, y + place[1] + 2)
            if not any(box[0] - 9 < qx < box[2] + 9 and box[1] - 9 < qy < box[3] + 9
                       for qx, qy in dots if (qx, qy) != (x, y)):
                dx, dy, anchor = place[:3]
                break
        out.append(_text(x + dx, y + dy, name, 10, anchor=anchor, weight="bold", fill=INK))
    px, py = at(hw.pico_xy)
    pw, ph = PICO_MM[0] * k, PICO_MM[1] * k
    out.append(_rect(px - pw / 2, py - ph / 2, pw, ph, stroke="#1e5c2e", width=1,
                     fill="#3b8f4f"))
    out.append(_text(px, py + 4, "Pico", 11, anchor="middle", weight="bold", fill="#fff"))
    pts = [(px + pw / 2 - 4, py)] + [at(hw.pixels[i].xy) for i in order]
    out.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="2" '
               'stroke-linejoin="round"/>' % (" ".join("%s,%s" % (_n(x), _n(y))
                                                        for x, y in pts), WIRE))
    for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
        a = _arrow(x1, y1, x2, y2, 7, WIRE)
        if a:
            out.append(a)
    pos = {led: i for i, led in enumerate(order)}
    for p in hw.pixels:
        x, y = at(p.xy)
        r = 8.5
        fill = {"island": "#fff", "connection": "#fff", "status": "#e8f5e1"}[p.kind]
        out.append(_circle(x, y, r, stroke=INK, width=1, fill=fill))
        out.append(_text(x, y + 3.3, str(pos[p.led]), 9, anchor="middle", weight="bold",
                         fill=INK))
    return out


def chain_svg(hw):
    k = 1.5  # px per mm
    w, h = hw.size_mm
    pad, top, gap = 20, 48, 30
    pw, ph = w * k, h * k
    W = pad * 2 + pw * 2 + gap
    H = top + ph + 44
    out = _svg_open(W, H, bg="#fff")
    out += _chain_panel(hw, hw.current, pad, top, k,
                        "Current order (LED index): %.0f mm of wire" % hw.current_mm)
    out += _chain_panel(hw, hw.suggested, pad + pw + gap, top, k,
                        "Suggested order: %.0f mm of wire" % hw.suggested_mm)
    out.append(_text(pad, top + ph + 22, "Numbers: position along the data line, from the "
                     "Pico (0 = first pixel). Red: the data wire (with +5 V and GND beside "
                     "it), straight-line lengths at %g x %g mm." % (w, h), 12, fill=INK))
    out.append(_text(pad, top + ph + 38, "Green: status pixels (%s). Islands: sand discs; "
                     "a bridge's pixel sits at its midpoint." % ", ".join(
                         sorted(hw.board.status_leds, key=hw.board.status_leds.get)), 12,
                     fill=INK))
    out.append("</svg>")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ wiring diagram

SLOT = 1.1  # schemdraw units between two header pins of the Pico


def _slot(pin):
    """Slot of a header pin on its side of the Pico drawing, counted from the bottom."""
    return 21 - pin if pin <= 20 else pin - 20


def _ic(**kwargs):
    """An Ic box drawn upright, whatever direction the drawing went last."""
    import schemdraw.elements as elm

    return elm.Ic(**kwargs).right()


def _device(side, pins, pico_pins, label, extra=(), width=2.6):
    """An Ic box whose `side` pins line up with the Pico pins `pico_pins` (same order);
    `extra` are (name, side, slot) pins elsewhere on it, slots counted like the Pico's."""
    import schemdraw.elements as elm

    slots = [_slot(p) for p in pico_pins]
    lo = min(slots + [s for _, _, s in extra if s is not None])
    hi = max(slots + [s for _, _, s in extra if s is not None])
    total = hi - lo + 3
    ic_pins = [elm.IcPin(name=n, side=side, slot="%d/%d" % (s - lo + 2, total), anchorname=n)
               for n, s in zip(pins, slots)]
    for n, sd, s in extra:
        if s is None:
            ic_pins.append(elm.IcPin(name=n, side=sd, anchorname=n))
        else:
            ic_pins.append(elm.IcPin(name=n, side=sd, slot="%d/%d" % (s - lo + 2, total),
                                     anchorname=n))
    return _ic(pins=ic_pins, pinspacing=SLOT, size=(width, (total - 1) * SLOT + 0.4),
                  lsize=11, plblsize=9).label(label, loc="top", fontsize=11)


def wiring_svg(hw):
    """The schematic: the Pico in the middle (header pins where they are on the board),
    the PN532 and buttons on its left, supply, level shifter, pixels, buzzer and encoder
    on its right. +5 V, 3V3 and ground are net symbols."""
    import schemdraw
    import schemdraw.elements as elm

    schemdraw.use("svg")
    schemdraw.svgconfig.text = "text"
    b = hw.board
    pins = b.pins
    d = schemdraw.Drawing(show=False)
    d.config(fontsize=10, font="DejaVu Sans", unit=2, lw=1.1)

    used = {}  # header pin -> label inside the Pico
    for gpio, pin, _sig, _dest, _f in hw.wiring:
        used[pin] = "GP%d" % gpio if gpio is not None else _sig.replace("(OUT)", "")
    used[PIN_GND_L] = "GND"
    pico_pins = [elm.IcPin(name=used[p], pin=str(p), side="left" if p <= 20 else "right",
                           slot="%d/20" % _slot(p), anchorname="p%d" % p)
                 for p in sorted(used)]
    pico = d.add(_ic(pins=pico_pins, pinspacing=SLOT, size=(3.4, 20 * SLOT), lsize=11,
                        plblsize=9).label("Raspberry Pi Pico\n(top view, USB up)", loc="top",
                                          fontsize=11))

    def pt(p):
        return pico.absanchors["p%d" % p]

    # ---- left: ground, PN532, buttons
    d.add(elm.Line().at(pt(PIN_GND_L)).left().length(0.6))
    d.add(elm.Ground().at(d.elements[-1].end))
    i2c = pins.get("i2c")
    if i2c:
        names, ppins = [], []
        for name, gp in (("SDA", i2c["sda"]), ("SCL", i2c["scl"]),
                         ("RSTPDN", pins.get("pn532_reset"))):
            if gp is not None:
                names.append(name)
                ppins.append(PICO_GPIO_PIN[gp])
        side = "right" if min(ppins) <= 20 else "left"
        top = max(_slot(p) for p in ppins)
        nfc = _device(side, names, ppins, "PN532 NFC\n(I2C mode)",
                      extra=(("VCC", "left" if side == "right" else "right", top),
                             ("GND", "left" if side == "right" else "right", top - 1)))
        xa = pt(ppins[0])
        dx = -4.5 if side == "right" else 4.5
        nfc = d.add(nfc.anchor(names[0]).at((xa[0] + dx, xa[1])))
        for name, p in zip(names, ppins):
            d.add(elm.Line().at(pt(p)).to((nfc.absanchors[name][0], pt(p)[1])))
        vdd_at = nfc.absanchors["VCC"]
        d.add(elm.Line().at(vdd_at).length(0.5).left() if side == "right"
              else elm.Line().at(vdd_at).length(0.5).right())
        d.add(elm.Vdd().at(d.elements[-1].end).label("3V3", fontsize=9))
        g_at = nfc.absanchors["GND"]
        d.add(elm.Line().at(g_at).length(0.5).left() if side == "right"
              else elm.Line().at(g_at).length(0.5).right())
        d.add(elm.Ground().at(d.elements[-1].end))

    buttons = pins["buttons"]
    for group in ("left", "right"):
        rows = [(role, PICO_GPIO_PIN[buttons[role]])
                for role in checks.keys(buttons, boardmod.ROLES)
                if (PICO_GPIO_PIN[buttons[role]] <= 20) == (group == "left")]
        if not rows:
            continue
        sign = -1 if group == "left" else 1
        bus_x = pt(rows[0][1])[0] + sign * 5.2
        ends = []
        for role, p in rows:
            start = pt(p)
            line = d.add(elm.Line().at(start).to((start[0] + sign * 1.6, start[1])))
            btn = elm.Button().at(line.end).label(role, fontsize=9)
            btn = d.add(btn.left() if sign < 0 else btn.right())
            d.add(elm.Line().at(btn.end).to((bus_x, start[1])))
            d.add(elm.Dot().at((bus_x, start[1])))
            ends.append(start[1])
        bottom = min(ends)
        d.add(elm.Line().at((bus_x, max(ends))).to((bus_x, bottom - 0.5)))
        d.add(elm.Ground().at((bus_x, bottom - 0.5)))

    # ---- right: power pins
    vs = pt(PIN_VSYS)
    line = d.add(elm.Line().at(vs).right().length(0.4))
    diode = d.add(elm.Schottky().at(line.end).right().length(2.2).reverse()
                  .label("1N5817", fontsize=9))
    d.add(elm.Vdd().at(diode.end).label("+5 V", fontsize=9))
    line = d.add(elm.Line().at(pt(PIN_GND_R)).right().length(0.4))
    d.add(elm.Ground().at(line.end))
    g3 = pt(PIN_3V3)
    line = d.add(elm.Line().at(g3).right().length(1.6))
    d.add(elm.Vdd().at(line.end).label("3V3", fontsize=9))

    # ---- right: data line: level shifter, resistor, pixels
    dp = pt(PICO_GPIO_PIN[pins["neopixel"]])
    lvl = _ic(pins=[elm.IcPin(name="1A", pin="2", side="left", anchorname="A"),
                    elm.IcPin(name="1Y", pin="3", side="right", anchorname="Y"),
                    elm.IcPin(name="VCC", pin="14", side="top", slot="2/2", anchorname="VCC"),
                    elm.IcPin(name="1OE", pin="1", side="bottom", anchorname="OE"),
                    elm.IcPin(name="GND", pin="7", side="bottom", anchorname="GND")],
              size=(2.4, 1.6), lsize=10, plblsize=8)
    lvl = d.add(lvl.anchor("A").at((dp[0] + 3.6, dp[1])))
    d.add(elm.Label().at((dp[0] + 4.1, dp[1] + 1.15)).label("74AHCT125", fontsize=10,
                                                               halign="left"))
    d.add(elm.Line().at(dp).to(lvl.absanchors["A"]))
    d.add(elm.Label().at((dp[0] + 0.4, dp[1] + 0.35)).label("3.3 V data", fontsize=8,
                                                               halign="left"))
    d.add(elm.Vdd().at(lvl.absanchors["VCC"]).label("+5 V", fontsize=9))
    d.add(elm.Ground().at(lvl.absanchors["OE"]))
    d.add(elm.Ground().at(lvl.absanchors["GND"]))
    res = d.add(elm.Resistor().at(lvl.absanchors["Y"]).right().length(2.4)
                .label(DATA_RESISTOR, fontsize=9))
    n = b.led_count

    def pixel(label):
        return _ic(pins=[elm.IcPin(name="5V", side="left", slot="3/3", anchorname="Vi"),
                            elm.IcPin(name="DIN", side="left", slot="2/3", anchorname="Di"),
                            elm.IcPin(name="GND", side="left", slot="1/3", anchorname="Gi"),
                            elm.IcPin(name="5V", side="right", slot="3/3", anchorname="Vo"),
                            elm.IcPin(name="DOUT", side="right", slot="2/3", anchorname="Do"),
                            elm.IcPin(name="GND", side="right", slot="1/3", anchorname="Go")],
                   pinspacing=0.55, size=(2.6, 1.6), lsize=8, plblsize=8,
                   leadlen=0.35).label(label, loc="top", fontsize=9)

    cap_x = res.end[0] + 0.9
    first = d.add(pixel("pixel 0").anchor("Di").at((res.end[0] + 1.8, res.end[1])))
    d.add(elm.Line().at(res.end).to(first.absanchors["Di"]))
    # first pixel's supply: +5 V and GND symbols, the bulk capacitor beside them
    v_in, g_in = first.absanchors["Vi"], first.absanchors["Gi"]
    d.add(elm.Line().at(v_in).to((cap_x, v_in[1])))
    d.add(elm.Line().at((cap_x, v_in[1])).up().length(0.3))
    d.add(elm.Vdd().at(d.elements[-1].end).label("+5 V", fontsize=9))
    d.add(elm.Line().at(g_in).to((cap_x, g_in[1])))
    d.add(elm.Ground().at((cap_x, g_in[1])))
    # pixel 1 wired to pixel 0, a dotted gap for the middle of the chain, the last pixel
    row_y = first.absanchors["Di"][1]
    prev = first
    gap = False
    for lab in (["pixel 1", None, "pixel %d" % (n - 1)] if n > 3
                else ["pixel %d" % j for j in range(1, n)]):
        if lab is None:
            gap = True
            continue
        x = prev.absanchors["Do"][0] + (2.6 if gap else 0.9)
        nxt = d.add(pixel(lab).anchor("Di").at((x, row_y)))
        for a, bb in (("Vo", "Vi"), ("Do", "Di"), ("Go", "Gi")):
            wire = elm.Line().at(prev.absanchors[a]).to(nxt.absanchors[bb])
            d.add(wire.linestyle(":") if gap else wire)
        if gap:
            mid = (prev.absanchors["Do"][0] + nxt.absanchors["Di"][0]) / 2
            d.add(elm.Label().at((mid, row_y + 1.25)).label("pixels 2-%d" % (n - 2),
                                                            fontsize=8))
        prev, gap = nxt, False
    # the 5 V supply and bulk capacitor, drawn with net symbols above the first pixel
    cx, cy = first.absanchors["Vi"][0] - 0.2, first.absanchors["Vi"][1] + 2.2
    cap = d.add(elm.Capacitor(polar=True).at((cx, cy + 1.0)).down().length(1.6)
                .label(BULK_CAP + "\nat pixel 0", loc="top", fontsize=9))
    d.add(elm.Vdd().at(cap.start).label("+5 V", fontsize=9))
    d.add(elm.Ground().at(cap.end))
    sup = _ic(pins=[elm.IcPin(name="+", side="left", slot="2/2", anchorname="P"),
                       elm.IcPin(name="−", side="left", slot="1/2", anchorname="M")],
                 size=(2.6, 1.4), pinspacing=0.7, lsize=10).label(
        "5 V DC\n%s" % _amps(hw.power["recommended_a"]), loc="center", fontsize=9)
    sup = d.add(sup.anchor("P").at((cx + 3.2, cy + 0.6)))
    d.add(elm.Line().at(sup.absanchors["P"]).left().length(0.6))
    d.add(elm.Vdd().at(d.elements[-1].end).label("+5 V", fontsize=9))
    d.add(elm.Line().at(sup.absanchors["M"]).left().length(0.6))
    d.add(elm.Ground().at(d.elements[-1].end))

    # ---- right: buzzer
    if "buzzer" in pins:
        bp = pt(PICO_GPIO_PIN[pins["buzzer"]])
        rb = d.add(elm.Resistor().at(bp).right().length(2.6).label("1 kΩ", fontsize=9))
        q = d.add(elm.BjtNpn(circle=True).anchor("base").at(rb.end)
                  .label("NPN", loc="right", fontsize=9))
        d.add(elm.Ground().at(q.emitter))
        cx, cy = q.collector
        low, top = (cx, cy + 0.4), (cx, cy + 1.6)
        d.add(elm.Line().at(q.collector).to(low))
        d.add(elm.Line().at(low).to((cx, low[1] + 0.35)))
        bz = d.add(elm.Speaker().right().anchor("in2").at((cx, low[1] + 0.35))
                   .label("buzzer", loc="right", fontsize=9))
        d.add(elm.Line().at(bz.absanchors["in1"]).to(top))
        d.add(elm.Line().at(top).up().length(0.3))
        d.add(elm.Vdd().at(d.elements[-1].end).label("+5 V", fontsize=9))
        dx = cx - 1.0
        d.add(elm.Line().at(low).to((dx, low[1])))
        d.add(elm.Line().at(top).to((dx, top[1])))
        d.add(elm.Diode().at((dx, low[1])).to((dx, top[1]))
              .label("1N4148", loc="bottom", fontsize=8))

    # ---- right: encoder
    enc = pins.get("encoder")
    if enc:
        names = [n for n in ("switch", "b", "a") if n in enc]
        ppins = [PICO_GPIO_PIN[enc[n]] for n in names]
        labels = {"a": "A", "b": "B", "switch": "SW"}
        side = "left" if min(ppins) > 20 else "right"
        ed = _device(side, [labels[n] for n in names], ppins, "EC11 encoder",
                     extra=(("C", "bottom", None), ("SW2", "bottom", None)), width=2.6)
        ea = pt(ppins[0])
        ed = d.add(ed.anchor(labels[names[0]]).at((ea[0] + (4.0 if side == "left" else -4.0),
                                                   ea[1])))
        for n, p in zip(names, ppins):
            d.add(elm.Line().at(pt(p)).to((ed.absanchors[labels[n]][0], pt(p)[1])))
        d.add(elm.Ground().at(ed.absanchors["C"]))
        d.add(elm.Ground().at(ed.absanchors["SW2"]))
    # notes, in the empty corner under the pixels
    notes = [
        "Every +5 V symbol is one net, every ground symbol another:",
        "join them with short, thick wires (supply -> pixel 0, Pico, 74AHCT125, buzzer).",
        "The supply meets the pixels at pixel 0, with the %s capacitor there." % BULK_CAP,
        "74AHCT125: 100 nF from VCC to GND; unused 2A-4A to GND, 2OE-4OE to +5 V.",
        "PN532: set its mode switches to I2C. Dashed: reserved, not used yet.",
        "Buttons and encoder switch to GND: the Pico's internal pull-ups, active low.",
    ]
    bx = pt(PIN_GND_R)[0] + 11.5
    by = pt(PICO_GPIO_PIN[pins["neopixel"]])[1] - 4.5
    for i, line_text in enumerate(notes):
        d.add(elm.Label().at((bx, by - 0.55 * i)).label(line_text, fontsize=9, halign="left"))
    svg = d.get_imagedata("svg").decode("utf-8")
    # schemdraw writes floats as repr (-2.6999999999999997): round them, fixed format
    return re.sub(r"-?\d+\.\d{4,}", lambda m: _n(float(m.group()), 3), svg)


# ------------------------------------------------------------------ writing

def generate(board_path, out_dir, template_dir=None):
    """Write every output into out_dir; README.md from template_dir (default out_dir)."""
    board = boardmod.load(board_path)
    hw = Hardware(board, board_path)
    tpl_path = os.path.join(template_dir or out_dir, TEMPLATE_NAME)
    try:
        with open(tpl_path, encoding="utf-8") as f:
            template_text = f.read()
    except OSError as e:
        raise HardwareError("cannot read the README template (%s)" % e) from None
    files = {}
    files["bom.csv"] = bom_csv(hw).encode("utf-8")
    wiring = wiring_svg(hw)
    files["wiring.svg"] = wiring.encode("utf-8")
    files["wiring.png"] = png(wiring, 1600)
    chain = chain_svg(hw)
    files["chain.svg"] = chain.encode("utf-8")
    files["chain.png"] = png(chain, 1290)
    tsvg = template_svg(hw)
    files["template.svg"] = tsvg.encode("utf-8")
    files["template.pdf"] = pdf_pages([tsvg], hw.size_mm, "Kahuna board template 1:1")
    pages, page = template_tiles(hw)
    files["template-a4.pdf"] = pdf_pages(pages, page, "Kahuna board template on A4")
    files["README.md"] = readme(hw, template_text).encode("utf-8")
    os.makedirs(out_dir, exist_ok=True)
    for name in OUTPUTS:
        with open(os.path.join(out_dir, name), "wb") as f:
            f.write(files[name])
    return hw


def stale(board_path, out_dir):
    """Names of outputs in out_dir that differ from a fresh generation (or are missing)."""
    tmp = tempfile.mkdtemp(prefix="kahuna-hw-")
    try:
        generate(board_path, tmp, template_dir=out_dir)
        bad = []
        for name in OUTPUTS:
            try:
                with open(os.path.join(out_dir, name), "rb") as f:
                    have = f.read()
            except OSError:
                have = None
            with open(os.path.join(tmp, name), "rb") as f:
                if f.read() != have:
                    bad.append(name)
        return bad
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv):
    ap = argparse.ArgumentParser(prog="python -m host_tools hardware",
                                 description="Generate the maker's hardware docs from "
                                 "board_def: BOM, wiring, power, LED chain, 1:1 template.")
    ap.add_argument("--board", default=DEFAULT_BOARD, help="board definition (default: "
                    "board_def/kahuna.json)")
    ap.add_argument("--out", default=DEFAULT_OUT, help="output folder, holding %s "
                    "(default: hardware/)" % TEMPLATE_NAME)
    ap.add_argument("--check", action="store_true", help="generate into a temporary folder "
                    "and fail if --out differs")
    args = ap.parse_args(argv)
    try:
        if args.check:
            bad = stale(args.board, args.out)
            if bad:
                print("hardware: stale in %s: %s (run make hardware)"
                      % (args.out, ", ".join(bad)), file=sys.stderr)
                return 1
            print("hardware: %s is up to date" % args.out)
            return 0
        hw = generate(args.board, args.out)
    except (boardmod.BoardError, HardwareError) as e:
        print("hardware: %s" % e, file=sys.stderr)
        return 2
    print("hardware: wrote %s to %s" % (", ".join(OUTPUTS), args.out))
    print("hardware: %d pixels; chain %.0f mm in LED order, %.0f mm suggested; supply %s"
          % (len(hw.pixels), hw.current_mm, hw.suggested_mm,
             _amps(hw.power["recommended_a"])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
