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

from core.checks import BoardError, as_dict, as_list, at, get, is_num, led, no_extra, pos_num
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


def _xy(d, w, bd):
    out = []
    for key, lim in (("x", 0), ("y", 1)):
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


def parse(data, bd, leds):
    """Check the `layout` section `data` into `bd` (a HalunkenBoard); `leds` maps each
    pixel index used to its field."""
    w0 = SECTION
    no_extra(data, KEYS, w0)
    if "frame" in data:
        bd.frame = _size(data, "frame", w0)
    if "board_size_mm" in data:
        bd.board_size_mm = _size(data, "board_size_mm", w0)
    for i, t in enumerate(_entries(data, "taverns", TAVERNS, "T", w0)):
        w = "%s.taverns[%d]" % (w0, i)
        no_extra(t, ("id", "x", "y", "space_led", "pile_led"), w)
        bd.tavern_xy.append(_xy(t, w, bd))
        bd.space_led.append(led(get(t, "space_led", w), w + ".space_led", leds))
        bd.pile_led.append(led(get(t, "pile_led", w), w + ".pile_led", leds))
    for i, s in enumerate(_entries(data, "seats", SEATS, "p", w0)):
        w = "%s.seats[%d]" % (w0, i)
        no_extra(s, ("id", "x", "y", "led"), w)
        bd.seat_xy.append(_xy(s, w, bd))
        bd.seat_led.append(led(get(s, "led", w), w + ".led", leds))
    w = at(w0, "port")
    port = as_dict(get(data, "port", w0), w)
    no_extra(port, ("x", "y", "led"), w)
    bd.port_xy = _xy(port, w, bd)
    bd.port_led = led(get(port, "led", w), w + ".led", leds)
    for i, r in enumerate(_entries(data, "rounds", ROUNDS, None, w0)):
        w = "%s.rounds[%d]" % (w0, i)
        no_extra(r, ("x", "y", "led"), w)
        bd.round_xy.append(_xy(r, w, bd))
        bd.round_led.append(led(get(r, "led", w), w + ".led", leds))


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
