"""hardware/README.md: the hand-written template filled in with the tables, figures and
pictures of the hardware documents."""

import string

from host_tools.documents.drilltemplate import a4_tiles, board_file, board_file_of
from host_tools.documents.hwfigures import (
    BUZZER_MA,
    CLOSE_FACTOR,
    HOLE_MM,
    LED_FULL_WHITE_MA,
    LED_IDLE_MA,
    PICO_GPIO_PIN,
    PICO_MA,
    PN532_MA,
    TILE_OVERLAP_MM,
    HardwareError,
)
from host_tools.documents.hwtables import amps
from host_tools.documents.svgkit import mm_text

TEMPLATE_NAME = "README.template.md"  # hand-written prose of README.md, in the out folder


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
                     [(px.led, px.name, px.kind, mm_text(px.xy[0]), mm_text(px.xy[1]),
                       sugg_pos[px.led]) for px in hw.pixels],
                     ["--:", "---", "---", "--:", "--:", "--:"])
    order = " → ".join("%s (%d)" % (pixel_names[i].name, i) for i in hw.suggested)
    tiles = a4_tiles(hw.size_mm)
    saving = hw.current_mm - hw.suggested_mm
    fields = {
        "board_file": board_file(hw),
        "name": b.name[:1].upper() + b.name[1:],
        "led_count": b.led_count,
        "cards": hw.cards[0],
        "buttons": len(b.pins["buttons"]),
        "neopixel_gpio": b.pins["neopixel"],
        "neopixel_pin": PICO_GPIO_PIN[b.pins["neopixel"]],
        "bom_table": bom,
        "wiring_table": wiring,
        "power_table": power,
        "brightness": "%g" % b.brightness,
        "max_current_ma": b.max_current_ma,
        "minimum_a": amps(p["minimum_a"]),
        "recommended_a": amps(p["recommended_a"]),
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
        "wire_m": "%.1f" % (hw.current_mm / 1000.0),
        "same_electronics": ", ".join("`%s`" % board_file_of(p) for p in hw.same_electronics)
                            or "none",
    }
    fields.update(hw.places.readme_fields(b))
    return fields


def readme(hw, template_text):
    try:
        return string.Template(template_text).substitute(readme_fields(hw))
    except (KeyError, ValueError) as e:
        raise HardwareError("%s: bad placeholder %s" % (TEMPLATE_NAME, e)) from None
