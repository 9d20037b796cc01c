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

from core.checks import BoardError, as_dict, as_list, at, get, is_num, led, no_extra, pos_num
from games.kami.places import SEATS, STACKS, TRACK_LEN, TRACKS, KamiBoard

SECTION = "layout"
KEYS = ("frame", "board_size_mm", "seats", "defences", "empress", "centre", "tracks")
SEAT_COLOURS = ("p1", "p2", "p3", "p4")  # 2 and 3 players: each seat is its own side
TEAM_COLOURS = ("team1", "team2")  # 4 players: p1+p3, p2+p4 (8.1: partners share one)
PALETTE = SEAT_COLOURS + TEAM_COLOURS + ("defence_down", "defence_up", "empress", "centre",
                                         "cursor", "error")


def new_board():
    return KamiBoard()


def _xy(d, w, bd, kx="x", ky="y"):
    out = []
    for key, lim in ((kx, 0), (ky, 1)):
        v = get(d, key, w)
        if not is_num(v) or v < 0 or (bd.frame and v > bd.frame[lim]):
            raise BoardError(w + "." + key, "position must be a number %s, got %r"
                             % ("0..%s" % bd.frame[lim] if bd.frame else ">= 0", v))
        out.append(v)
    return (out[0], out[1])


def _size(data, key, w0):
    where = at(w0, key)
    d = as_dict(data[key], where)
    no_extra(d, ("width", "height"), where)
    return (pos_num(get(d, "width", where), where + ".width"),
            pos_num(get(d, "height", where), where + ".height"))


def _entries(data, key, count, prefix, w0):
    """The list `key` of `count` objects; with a prefix, their ids are prefix1..prefixN."""
    where = at(w0, key)
    items = as_list(get(data, key, w0), where)
    if len(items) != count:
        raise BoardError(where, "%d expected, got %d" % (count, len(items)))
    for i, item in enumerate(items):
        w = "%s[%d]" % (where, i)
        as_dict(item, w)
        if prefix:
            want = "%s%d" % (prefix, i + 1)
            if get(item, "id", w) != want:
                raise BoardError(w + ".id", "expected %r, got %r" % (want, item["id"]))
    return items


def _lights(data, key, count, prefix, w0, bd, leds, xys, out):
    for i, item in enumerate(_entries(data, key, count, prefix, w0)):
        w = "%s.%s[%d]" % (w0, key, i)
        no_extra(item, ("id", "x", "y", "led") if prefix else ("x", "y", "led"), w)
        xys.append(_xy(item, w, bd))
        out.append(led(get(item, "led", w), w + ".led", leds))


def parse(data, bd, leds):
    """Check the `layout` section `data` into `bd` (a KamiBoard); `leds` maps each pixel
    index used to its field."""
    w0 = SECTION
    no_extra(data, KEYS, w0)
    if "frame" in data:
        bd.frame = _size(data, "frame", w0)
    if "board_size_mm" in data:
        bd.board_size_mm = _size(data, "board_size_mm", w0)
    _lights(data, "seats", SEATS, "p", w0, bd, leds, bd.seat_xy, bd.seat_led)
    _lights(data, "defences", SEATS, "p", w0, bd, leds, bd.defence_xy, bd.defence_led)
    w = at(w0, "empress")
    emp = as_dict(get(data, "empress", w0), w)
    no_extra(emp, ("x", "y", "led"), w)
    bd.empress_xy = _xy(emp, w, bd)
    bd.empress_led = led(get(emp, "led", w), w + ".led", leds)
    _lights(data, "centre", STACKS, None, w0, bd, leds, bd.centre_xy, bd.centre_led)
    for i, t in enumerate(_entries(data, "tracks", TRACKS, "t", w0)):
        w = "%s.tracks[%d]" % (w0, i)
        no_extra(t, ("id", "x", "y", "x2", "y2", "leds"), w)
        bd.track_xy.append((_xy(t, w, bd), _xy(t, w, bd, "x2", "y2")))
        lights = as_list(get(t, "leds", w), w + ".leds")
        if len(lights) != TRACK_LEN:
            raise BoardError(w + ".leds", "%d expected, got %d" % (TRACK_LEN, len(lights)))
        bd.track_led.append([led(lights[k], "%s.leds[%d]" % (w, k), leds)
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
