"""The figures the hardware documents (host_tools/documents/hardware.py) work from: the
Pico's header, the parts and what they draw, where things sit under the board; and
HardwareError, what every part of the documents raises for a board definition it cannot
document."""

from collections import namedtuple

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
# corner; the data line starts there. board_def can set it as {"hardware": {"pico_xy": [x,
# y]}} (frame units; a game's places may read more there, as Kahuna's `status_xy`).
PICO_XY = (0.07875, 0.9484)  # fractions of the frame: (31.5, 303.5) mm on a 400x320 board
PICO_MM = (51.0, 21.0)  # the Pico's outline, lying along the bottom edge
CLOSE_FACTOR = 1.5  # pixel centres closer than this x HOLE_MM are named in the README
HOLE_MM = 10.0  # drill diameter for a pixel (a 10 mm round WS2812B board shines through)
A4_MM = (210.0, 297.0)
TILE_MARGIN_MM = 10.0  # unprinted margin kept on each A4 page
TILE_OVERLAP_MM = 10.0  # board area printed on both neighbouring pages


# A kind of pixel as a game's places (host_tools/games/<game>/hwplaces.py) name it: its
# legend on the template ("blue islands": the colour's word first), the template's ink,
# the chain picture's fill, and how the template labels it: "name" (the name in bold
# beside the hole, the LED index under it), "index" (the index in bold below right, the
# name small under it) or "above" (index and name centred above the hole).
StyledKind = namedtuple("StyledKind", ("kind", "legend", "ink", "fill", "label"))


class HardwareError(Exception):
    """A board definition the hardware docs cannot be made from."""
