"""Halunken & Spelunken's layout on a board definition (docs/halunken.md, section "The
board's lights", H30, H31): the `layout` section of `board_def/halunken.json` and the
colours its view needs from the `palette`.

    "layout": {"frame": {"width", "height"}, "board_size_mm": {"width", "height"},
               "taverns": [{"id": "T1", "x", "y", "space_led", "pile_led"}] x 14, clockwise,
               "seats": [{"id": "p1", "x", "y", "led"}] x 4,
               "port": {"x", "y", "led"},
               "rounds": [{"x", "y", "led"}] x 8}

Faults are named by their field (`layout.taverns[3].id: expected 'T4', got 'T5'`).
"""

from core.checks import BoardError, entries, get, led, light, lights, no_extra, position, size
from games.halunken.places import ROUNDS, SEATS, TAVERNS, HalunkenBoard

SECTION = "layout"
KEYS = ("frame", "board_size_mm", "taverns", "seats", "port", "rounds")
# H31: the seats' colours and Black-Jack's; the piles' and the port's neutral white; the
# cursor of a pick; the refusal's red.
PLAYER_COLOURS = ("p1", "p2", "p3", "p4")
PALETTE = PLAYER_COLOURS + ("blackjack", "pile", "port", "round", "cursor", "cancelled",
                            "error")


def new_board():
    return HalunkenBoard()


def parse(data, bd, leds):
    """Check the `layout` section `data` into `bd` (a HalunkenBoard); `leds` maps each
    pixel index used to its field."""
    w0 = SECTION
    no_extra(data, KEYS, w0)
    if "frame" in data:
        bd.frame = size(data, "frame", w0)
    if "board_size_mm" in data:
        bd.board_size_mm = size(data, "board_size_mm", w0)
    for i, t in enumerate(entries(data, "taverns", TAVERNS, "T", w0)):
        w = "%s.taverns[%d]" % (w0, i)
        no_extra(t, ("id", "x", "y", "space_led", "pile_led"), w)
        bd.tavern_xy.append(position(t, w, bd.frame))
        bd.space_led.append(led(get(t, "space_led", w), w + ".space_led", leds))
        bd.pile_led.append(led(get(t, "pile_led", w), w + ".pile_led", leds))
    lights(data, "seats", SEATS, "p", w0, bd.frame, leds, bd.seat_xy, bd.seat_led)
    bd.port_xy, bd.port_led = light(data, "port", w0, bd.frame, leds)
    lights(data, "rounds", ROUNDS, None, w0, bd.frame, leds, bd.round_xy, bd.round_led)


def check_palette(bd):
    """The colours the view needs, and that tell the figures apart (H31): every captain's
    colour and Black-Jack's lit and all different, none of them the refusal's red."""
    for name in PALETTE:
        get(bd.palette, name, "palette")
    figures = PLAYER_COLOURS + ("blackjack",)
    for i, name in enumerate(figures):
        if bd.palette[name] == (0, 0, 0):
            raise BoardError("palette." + name, "a figure's colour must not be off")
        for other in figures[:i] + ("error",):
            if bd.palette[name] == bd.palette[other]:
                raise BoardError("palette." + name, "must differ from palette." + other)
