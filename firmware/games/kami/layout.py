"""Kami's layout on a board definition (docs/kami.md "Lights", K19; rules section 8.1):
the `layout` section of `board_def/kami.json` and the colours its view needs from the
`palette`.

    "layout": {"frame": {"width", "height"}, "board_size_mm": {"width", "height"},
               "seats": [{"id": "p1", "x", "y", "led"}] x 4, clockwise,
               "defences": [{"id": "p1", "x", "y", "led"}] x 4,
               "empress": {"x", "y", "led"},
               "centre": [{"x", "y", "led"}] x 8, stack 1 first,
               "tracks": [{"id": "t1", "x", "y", "x2", "y2", "leds": [15 LEDs]}] x 3}

A track's lights run evenly from (x, y), point 1, to (x2, y2), point 15. Faults are named
by their field (`layout.tracks[1].leds[3]: LED index 5 used twice (also ...)`).
"""

from core.checks import (
    BoardError,
    as_list,
    entries,
    get,
    led,
    light,
    lights,
    no_extra,
    position,
    size,
)
from games.kami.places import SEATS, STACKS, TRACK_LEN, TRACKS, KamiBoard

SECTION = "layout"
KEYS = ("frame", "board_size_mm", "seats", "defences", "empress", "centre", "tracks")
SEAT_COLOURS = ("p1", "p2", "p3", "p4")  # 2 and 3 players: each seat is its own side
TEAM_COLOURS = ("team1", "team2")  # 4 players: p1+p3, p2+p4 (8.1: partners share one)
PALETTE = SEAT_COLOURS + TEAM_COLOURS + ("defence_down", "defence_up", "empress", "centre",
                                         "cursor", "error")


def new_board():
    return KamiBoard()


def parse(data, bd, leds):
    """Check the `layout` section `data` into `bd` (a KamiBoard); `leds` maps each pixel
    index used to its field."""
    w0 = SECTION
    no_extra(data, KEYS, w0)
    if "frame" in data:
        bd.frame = size(data, "frame", w0)
    if "board_size_mm" in data:
        bd.board_size_mm = size(data, "board_size_mm", w0)
    lights(data, "seats", SEATS, "p", w0, bd.frame, leds, bd.seat_xy, bd.seat_led)
    lights(data, "defences", SEATS, "p", w0, bd.frame, leds, bd.defence_xy, bd.defence_led)
    bd.empress_xy, bd.empress_led = light(data, "empress", w0, bd.frame, leds)
    lights(data, "centre", STACKS, None, w0, bd.frame, leds, bd.centre_xy, bd.centre_led)
    for i, t in enumerate(entries(data, "tracks", TRACKS, "t", w0)):
        w = "%s.tracks[%d]" % (w0, i)
        no_extra(t, ("id", "x", "y", "x2", "y2", "leds"), w)
        bd.track_xy.append((position(t, w, bd.frame), position(t, w, bd.frame, "x2", "y2")))
        track = as_list(get(t, "leds", w), w + ".leds")
        if len(track) != TRACK_LEN:
            raise BoardError(w + ".leds", "%d expected, got %d" % (TRACK_LEN, len(track)))
        bd.track_led.append([led(track[k], "%s.leds[%d]" % (w, k), leds)
                             for k in range(TRACK_LEN)])


def check_palette(bd):
    """The colours the view needs (8.1): every one present; the seats' colours, and the
    teams', lit, all different and none the refusal's red; the two defence colours lit
    and different (blue face down, white face up)."""
    for name in PALETTE:
        get(bd.palette, name, "palette")
    for group in (SEAT_COLOURS, TEAM_COLOURS, ("defence_down", "defence_up")):
        for i, name in enumerate(group):
            if bd.palette[name] == (0, 0, 0):
                raise BoardError("palette." + name, "must not be off")
            others = group[:i] if name.startswith("defence") else group[:i] + ("error",)
            for other in others:
                if bd.palette[name] == bd.palette[other]:
                    raise BoardError("palette." + name, "must differ from palette." + other)
