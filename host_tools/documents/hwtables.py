"""The hardware documents' tables, from the board definition: which Pico pin goes where
(wiring), what the board draws and the supply it needs (power), and the bill of materials
(bom.csv)."""

import csv
import io
import math

from core import board as boardmod
from core import checks
from host_tools.documents.hwfigures import (
    BULK_CAP,
    BUZZER_MA,
    DATA_RESISTOR,
    HOLE_MM,
    LED_FULL_WHITE_MA,
    LED_IDLE_MA,
    MIN_SPARES,
    PICO_GPIO_PIN,
    PICO_MA,
    PIN_3V3,
    PIN_GND_R,
    PIN_VSYS,
    PIXEL_SPARES,
    PN532_MA,
    SUPPLY_MARGIN,
    SUPPLY_RATINGS_A,
    WIRE_SLACK,
    HardwareError,
)


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


def amps(a):
    return ("%g" % a) + " A"


# ------------------------------------------------------------------ bill of materials

BOM_HEADER = ("item", "qty", "unit", "part", "details", "quantity_from")


def _spares(n):
    return max(MIN_SPARES, int(math.ceil(n * PIXEL_SPARES)))


def bom_rows(board, power, chain_mm, suggested_mm, cards):
    """The BOM rows. Wire is for `chain_mm`, the chain as board_def numbers it now (what
    the firmware drives); the suggested order's need is given beside it. `cards` is the
    game's (count, what they are, where the count comes from): one sticker each."""
    n = board.led_count
    cards, what, cards_from = cards
    buttons = len(board.pins["buttons"])
    wire_m = int(math.ceil(chain_mm * WIRE_SLACK / 100.0)) / 10.0  # per conductor, 0.1 m up
    if getattr(board, "network", "none") == "wifi":  # hardware.network: a Pico W
        pico = ("pcs", "Raspberry Pi Pico WH (or Pico W)", "RP2040 board with the CYW43 "
                "Wi-Fi radio, for remote play; the H has headers fitted", 1,
                "1 controller, hardware.network = wifi")
    else:
        pico = ("pcs", "Raspberry Pi Pico H (or Pico)", "RP2040 board; the H has headers "
                "fitted", 1, "1 controller")
    rows = [
        pico,
        ("pcs", "WS2812B pixel, 5 V",
         "single pixels on ~10 mm round boards (5V, GND, DIN / DOUT pads), or strip cut to "
         "single pixels", n + _spares(n),
         "led_count %d + %d spares" % (n, _spares(n))),
        ("pcs", "PN532 NFC module", "e.g. Elechouse PN532 V3 or Adafruit PN532 breakout; "
         "set to I2C mode", 1, "1 reader"),
        ("pcs", "NTAG213 NFC sticker", "round 25 mm or smaller, %s" % what,
         cards + _spares(cards), "%s + %d spares" % (cards_from, _spares(cards))),
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
        ("pcs", "5 V DC power supply, %s" % amps(power["recommended_a"]),
         "regulated; at least %s" % amps(power["minimum_a"]), 1, "power budget"),
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
