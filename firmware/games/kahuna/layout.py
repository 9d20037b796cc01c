"""Kahuna's layout on a board definition: its places and their pixels, the `layout`
section of `board_def/kahuna.json`, and the colours its view needs from the `palette`.

    "layout": {"frame": {...}, "board_size_mm": {...},
               "islands": [{"id", "x", "y", "led"}...],
               "connections": [{"id", "a", "b", "led"}...],
               "status_leds": {"turn_white", "turn_black", "phase", "error"}}

Islands and connections become small integers, in file order; the board holds parallel
lists. Faults are named by their field (`layout.connections[3].b: unknown island 'XYZ'`).
"""

import math

from core.checks import (
    BoardError,
    as_dict,
    as_list,
    as_str,
    at,
    get,
    is_num,
    keys,
    led,
    no_extra,
    pos_num,
)
from games.kahuna.places import KahunaBoard

SECTION = "layout"
KEYS = ("frame", "board_size_mm", "islands", "connections", "status_leds")
STATUS_LEDS = ("turn_white", "turn_black", "phase", "error")
PALETTE = ("white", "black", "free", "uncontrolled", "error",
           "option_place", "option_remove", "pending")


def new_board():
    return KahunaBoard()


def _clockwise(x0, y0, x1, y1):
    """Angle of (x1, y1) seen from (x0, y0): 0 at 12 o'clock, growing clockwise (y down)."""
    a = math.atan2(x1 - x0, y0 - y1)
    if a < 0:
        a += 2 * math.pi
    return a


def parse(data, bd, leds):
    """Check the `layout` section `data` into `bd` (a KahunaBoard); `leds` maps each
    pixel index used to its field."""
    w0 = SECTION
    no_extra(data, KEYS, w0)
    if "frame" in data:
        where = at(w0, "frame")
        fr = as_dict(data["frame"], where)
        bd.frame = (pos_num(get(fr, "width", where), where + ".width"),
                    pos_num(get(fr, "height", where), where + ".height"))
    if "board_size_mm" in data:
        where = at(w0, "board_size_mm")
        sz = as_dict(data["board_size_mm"], where)
        bd.board_size_mm = (pos_num(get(sz, "width", where), where + ".width"),
                            pos_num(get(sz, "height", where), where + ".height"))

    islands = as_list(get(data, "islands", w0), at(w0, "islands"))
    if not islands:
        raise BoardError(at(w0, "islands"), "no islands")
    for i, isl in enumerate(islands):
        w = "%s.islands[%d]" % (w0, i)
        as_dict(isl, w)
        iid = as_str(get(isl, "id", w), w + ".id")
        if "-" in iid:
            raise BoardError(w + ".id", "island id must not contain '-', got %r" % (iid,))
        if iid in bd.island_index:
            raise BoardError(w + ".id", "island %s listed twice (also %s.islands[%d])"
                             % (iid, w0, bd.island_index[iid]))
        xy = []
        for key, lim in (("x", 0), ("y", 1)):
            v = get(isl, key, w)
            if not is_num(v) or v < 0 or (bd.frame and v > bd.frame[lim]):
                raise BoardError(w + "." + key, "position must be a number %s, got %r"
                                 % ("0..%s" % bd.frame[lim] if bd.frame else ">= 0", v))
            xy.append(v)
        bd.island_index[iid] = i
        bd.islands.append(iid)
        bd.island_xy.append((xy[0], xy[1]))
        bd.island_led.append(led(get(isl, "led", w), w + ".led", leds))

    conns = as_list(get(data, "connections", w0), at(w0, "connections"))
    touching = [[] for _ in islands]
    for k, c in enumerate(conns):
        w = "%s.connections[%d]" % (w0, k)
        as_dict(c, w)
        a = as_str(get(c, "a", w), w + ".a")
        b = as_str(get(c, "b", w), w + ".b")
        for key, end in (("a", a), ("b", b)):
            if end not in bd.island_index:
                raise BoardError(w + "." + key, "unknown island %r" % (end,))
        if a == b:
            raise BoardError(w, "self-loop %s-%s" % (a, b))
        lo, hi = (a, b) if a < b else (b, a)
        expected = lo + "-" + hi
        cid = get(c, "id", w)
        if cid != expected:
            raise BoardError(w + ".id", "expected %r for ends %s, %s, got %r"
                             % (expected, a, b, cid))
        if cid in bd.conn_index:
            raise BoardError(w, "%s listed twice (also %s.connections[%d])"
                             % (cid, w0, bd.conn_index[cid]))
        ia, ib = bd.island_index[lo], bd.island_index[hi]
        bd.conn_index[cid] = k
        bd.connections.append(cid)
        bd.conn_ends.append((ia, ib))
        bd.conn_led.append(led(get(c, "led", w), w + ".led", leds))
        touching[ia].append(k)
        touching[ib].append(k)

    for i, ks in enumerate(touching):
        if not ks:
            raise BoardError("%s.islands[%d]" % (w0, i),
                             "island %s has no connection" % bd.islands[i])
        x0, y0 = bd.island_xy[i]
        order = []
        for k in ks:
            x1, y1 = bd.island_xy[bd.other_end(k, i)]
            order.append((_clockwise(x0, y0, x1, y1), k))
        order.sort()
        bd.island_conns.append([k for _, k in order])
    bd.island_degree = [len(ks) for ks in bd.island_conns]

    where = at(w0, "status_leds")
    st = as_dict(get(data, "status_leds", w0), where)
    for name in STATUS_LEDS:
        get(st, name, where)
    for name in keys(st, STATUS_LEDS):
        bd.status_leds[name] = led(st[name], where + "." + name, leds)


def check_palette(bd):
    """The colours Kahuna's view needs, and that tell its pieces apart."""
    for name in PALETTE:
        get(bd.palette, name, "palette")
    for name in ("white", "black"):
        if bd.palette[name] == (0, 0, 0):
            raise BoardError("palette." + name, "a player's colour must not be off")
    for name in ("free", "uncontrolled"):
        for player in ("white", "black"):
            if bd.palette[name] == bd.palette[player]:
                raise BoardError("palette." + name, "must differ from palette." + player)
    if bd.palette["option_remove"] == bd.palette["option_place"]:
        raise BoardError("palette.option_remove", "must differ from palette.option_place")
