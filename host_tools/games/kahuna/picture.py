"""Kahuna's simulated board as a picture: the last LED frame of a simulator report, laid out on the
board definition's island positions, as SVG, or as PNG through cairosvg.

    svg(board, report) -> str          the picture as SVG text
    png(board, report, path)           the same picture as a PNG file (needs cairosvg)
    write(board, report, path)         SVG or PNG by the file's extension

    python -m host_tools.games.kahuna.picture --demo docs/midgame.png

The sea, the islands and the connections are drawn like the printed board; on top of them
every pixel of the strip: each connection as a thick bar in its LED's colour with the pixel
itself as a dot at its middle, each island as a disc in its LED's colour, and a stone beside
an island that the report says is controlled. A panel on the right holds the status pixels,
the game as the report tells it (phase, round, turn, scores, supply, hands, the last
rejection) and a legend (picturepanel.py; the sizes, colours and SVG pieces both use are in
picturekit.py).

Colours: the report's `leds` are the frame after brightness (and current limiting), so a lit
pixel is dim (63 for white at brightness 0.25). Each one is shown at full level: divided by
the brightness and clamped, then snapped to the board's palette colour it is, give or take
the strip's rounding, or to the palette colour it is a dimmed copy of (a pulse, a fade, the
current limiter). A pixel that is off is drawn dashed in dark grey, so it never disappears.
A pixel lit differently from what the report's bridges and control would show (a blinking
option, a pending card's island, an error flash) gets a halo.
"""

import math
import os
import sys
import zlib
from xml.sax.saxutils import escape

from host_tools import drawing
from host_tools.drawing import (
    FONT,
    INK,
    NAVY,
    OFF_GREY,
    Picture,
    draw_pixel_disc,
    element,
    hex_rgb,
    svg_text,
)
from host_tools.games.kahuna.picturekit import (
    BOARD_H,
    BOARD_W,
    BRIDGE_W,
    GAP,
    HEIGHT,
    ISLAND_R,
    LAND_R,
    PIXEL_R,
    SAND,
    STATUS_TITLES,
    WIDTH,
    bar_width,
    draw_fish,
    draw_rays,
    draw_stone,
    draw_turtle,
    full_level,
    known_colours,
)
from host_tools.games.kahuna.picturepanel import draw_panel
from host_tools.paths import BOARD_DEF


def demo_scenario():
    """The scenario behind the README's picture (docs/midgame.scn: the board's names stay
    out of code)."""
    from host_tools import mpy
    with open(os.path.join(mpy.ROOT, "docs", "midgame.scn")) as f:
        return f.read()


# ------------------------------------------------------------------ geometry

def _layout(board):
    """Island centres in picture coordinates (the board's frame scaled to the board area)."""
    fw, fh = board.frame or (BOARD_W, BOARD_H)
    s = min(BOARD_W / fw, BOARD_H / fh)
    ox = (BOARD_W - fw * s) / 2
    oy = (BOARD_H - fh * s) / 2
    return [(ox + x * s, oy + y * s) for x, y in board.island_xy]


def _gaps(board, xy, i):
    """Directions (radians, y down) into the free sectors around island i, widest first."""
    x0, y0 = xy[i]
    angles = sorted(math.atan2(xy[board.other_end(k, i)][1] - y0,
                               xy[board.other_end(k, i)][0] - x0)
                    for k in board.island_conns[i])
    out = []
    for j, a in enumerate(angles):
        nxt = angles[(j + 1) % len(angles)]
        width = (nxt - a) % (2 * math.pi) or 2 * math.pi
        out.append((width, a + width / 2))
    out.sort(reverse=True)
    return [mid for _, mid in out]


def _seg_point(px, py, x1, y1, x2, y2):
    """Distance from point (px, py) to the segment (x1, y1)-(x2, y2)."""
    dx, dy = x2 - x1, y2 - y1
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / n))
    return math.hypot(px - x1 - t * dx, py - y1 - t * dy)


def _box_point(px, py, box):
    x0, y0, x1, y1 = box
    return math.hypot(max(x0 - px, 0, px - x1), max(y0 - py, 0, py - y1))


def _box_segment(box, seg):
    """Distance from a box (x0, y0, x1, y1) to a segment: 0 when they meet."""
    x0, y0, x1, y1 = box
    sx, sy, ex, ey = seg
    # The segment meets the box if clipping it to the box leaves something (Liang-Barsky).
    t0, t1 = 0.0, 1.0
    dx, dy = ex - sx, ey - sy
    inside = True
    for p, q in ((-dx, sx - x0), (dx, x1 - sx), (-dy, sy - y0), (dy, y1 - sy)):
        if p == 0:
            if q < 0:
                inside = False
                break
        else:
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
            if t0 > t1:
                inside = False
                break
    if inside:
        return 0.0
    corners = ((x0, y0), (x1, y0), (x0, y1), (x1, y1))
    return min([_box_point(sx, sy, box), _box_point(ex, ey, box)]
               + [_seg_point(cx, cy, sx, sy, ex, ey) for cx, cy in corners])


def _place(x, y, half_w, half_h, near, obstacles, prefer=None, enough=12):
    """The centre of a box of half sizes (half_w, half_h) beside the point (x, y), at least
    `near` from it, where it keeps clearest of `obstacles` and inside the board area.
    An obstacle is (kind, shape, pad): ("seg", (x1, y1, x2, y2), half width),
    ("disc", (x, y), radius) or ("box", (x0, y0, x1, y1), margin). A clearance of
    `enough` is as good as any more; then the closest place wins, and `prefer` (radians)
    breaks near-ties."""
    best = None
    for step in range(36):
        a = step * math.pi / 18
        ux, uy = math.cos(a), math.sin(a)
        for extra in (0, 8, 16, 26):
            d = near + abs(ux) * half_w + abs(uy) * half_h + extra
            cx, cy = x + ux * d, y + uy * d
            box = (cx - half_w, cy - half_h, cx + half_w, cy + half_h)
            if box[0] < 6 or box[1] < 6 or box[2] > BOARD_W - 6 or box[3] > BOARD_H - 6:
                continue
            clear = 99.0
            for kind, shape, pad in obstacles:
                if kind == "seg":
                    c = _box_segment(box, shape)
                elif kind == "disc":
                    c = _box_point(shape[0], shape[1], box)
                else:
                    c = max(shape[0] - box[2], box[0] - shape[2], shape[1] - box[3],
                            box[1] - shape[3], 0)
                clear = min(clear, c - pad)
            score = 10 * min(clear, enough) - extra
            if prefer is not None:
                score += 4 * math.cos(a - prefer)
            if best is None or score > best[0]:
                best = (score, cx, cy)
    if best is None:
        return x, y + near + half_h
    return best[1], best[2]


def _land_path(name, x, y, radius=LAND_R):
    """An island's coast: a closed wobbly curve, the same for the same name."""
    seed = zlib.crc32(name.encode())
    rnd = [((seed >> (3 * j)) & 7) / 7.0 for j in range(10)]
    stretch = 1.0 + 0.3 * rnd[0]
    turn = math.pi * rnd[1]
    pts = []
    n = 72
    for j in range(n):
        t = 2 * math.pi * j / n
        r = radius * (1 + 0.10 * math.sin(2 * t + 6 * rnd[2]) + 0.07 * math.sin(3 * t + 6 * rnd[3])
                      + 0.05 * math.sin(5 * t + 6 * rnd[4]) + 0.03 * math.sin(9 * t + 6 * rnd[5]))
        ex, ey = r * math.cos(t) * stretch, r * math.sin(t) / stretch ** 0.5
        pts.append((x + ex * math.cos(turn) - ey * math.sin(turn),
                    y + ex * math.sin(turn) + ey * math.cos(turn)))
    return "M" + " L".join("%.1f,%.1f" % p for p in pts) + " Z"


# ------------------------------------------------------------------ the board area

def _sea(pic, board, xy):
    pic.defs.append(
        '<radialGradient id="sea" cx="0.5" cy="0.52" r="0.72">'
        '<stop offset="0" stop-color="#a9def0"/><stop offset="0.45" stop-color="#6cbfe2"/>'
        '<stop offset="0.8" stop-color="#2f86c4"/><stop offset="1" stop-color="#1d5aa3"/>'
        '</radialGradient>'
        '<radialGradient id="shallow"><stop offset="0.3" stop-color="#effcff" '
        'stop-opacity="0.7"/><stop offset="1" stop-color="#effcff" stop-opacity="0"/>'
        '</radialGradient>'
        '<linearGradient id="land" x1="0" y1="0" x2="0.4" y2="1">'
        '<stop offset="0" stop-color="#6fb83c"/><stop offset="1" stop-color="#2f7f2a"/>'
        '</linearGradient>')
    pic.add(element("rect", x=0, y=0, width=BOARD_W, height=BOARD_H, fill="url(#sea)"))
    # Light swirls in the water, as on the printed board.
    for cx, cy, rx, ry in ((250, 130, 190, 50), (760, 110, 170, 40), (880, 690, 150, 45),
                           (150, 700, 140, 40), (520, 770, 220, 28)):
        pic.add(element("ellipse", cx=cx, cy=cy, rx=rx, ry=ry, fill="url(#shallow)",
                    opacity=0.45))
    # Islets off the coasts (only where no island or bridge is near).
    for ix, iy, r in ((118, 190, 6), (262, 100, 5), (525, 88, 6), (640, 190, 4),
                      (930, 150, 5), (950, 480, 4), (880, 760, 6), (170, 600, 5),
                      (330, 760, 5), (610, 760, 4), (960, 330, 5), (70, 420, 4)):
        if all(math.hypot(ix - x, iy - y) > 80 for x, y in xy):
            pic.add(element("circle", cx=ix, cy=iy, r=r + 3, fill=SAND, opacity=0.9))
            pic.add(element("circle", cx=ix, cy=iy, r=r, fill="#4f9d34"))
    draw_turtle(pic, 62, 62, 0.9, 30)
    draw_turtle(pic, BOARD_W - 62, 62, 0.9, -30)
    draw_fish(pic, 70, BOARD_H - 52, 0.9, False)
    draw_fish(pic, BOARD_W - 70, BOARD_H - 52, 0.9, True)
    # Shallow water around each island, then the land with its sandy coast.
    for x, y in xy:
        pic.add(element("circle", cx=x, cy=y, r=LAND_R * 2.3, fill="url(#shallow)"))
    for i, (x, y) in enumerate(xy):
        nearest = min(math.hypot(x - u, y - v) for j, (u, v) in enumerate(xy) if j != i)
        d = _land_path(board.islands[i], x, y, min(LAND_R + 8, 0.34 * nearest))
        pic.add(element("path", d=d, fill="none", stroke="#f1f8dc", stroke_width=16,
                    opacity=0.55, stroke_linejoin="round"))
        pic.add(element("path", id="land-" + board.islands[i], d=d, fill="url(#land)",
                    stroke=SAND, stroke_width=6, stroke_linejoin="round"))


def _pixel(board, leds, led, known, state, what):
    """A pixel as drawn: its full-level colour and name, whether it is lit apart from
    its place's colour (an animation, a highlight), and its title."""
    raw = tuple(leds[led])
    rgb, name = full_level(raw, board, known)
    lit_apart = name != "off" and tuple(rgb) != tuple(board.palette.get(state, (-1, -1, -1)))
    title = "%s; LED %d = %s%s" % (what, led, list(raw), " (%s)" % name if name else "")
    return rgb, name, lit_apart, title


def _connections(pic, board, report, xy, leds, known):
    bridges = report.get("bridges") or {}
    for k, (cid, seg) in enumerate(zip(board.connections, _segments(board, xy))):
        sx, sy, ex, ey = seg
        mx, my = (sx + ex) / 2, (sy + ey) / 2
        led = board.conn_led[k]
        owner = bridges.get(cid)
        rgb, name, lit_apart, title = _pixel(
            board, leds, led, known, owner or "free",
            "%s: %s" % (cid, "bridge of " + owner if owner else "free"))
        ends = dict(x1=sx, y1=sy, x2=ex, y2=ey)
        if name == "off":
            pic.add(element("line", stroke="#b9d3df", stroke_width=9, opacity=0.5,
                        stroke_linecap="round", **ends))
            pic.add(element("line", title, id="conn-" + cid, stroke=OFF_GREY, stroke_width=7,
                        stroke_dasharray="12 8", data_led=led, data_colour="off",
                        data_owner=owner or "none", **ends))
        else:
            if lit_apart:
                pic.add(element("line", stroke=hex_rgb(rgb), stroke_width=BRIDGE_W + 16,
                                opacity=0.35, stroke_linecap="round", **ends))
            # A dark pixel (a free connection) gets a slimmer bar: the lit ones stand out.
            width = bar_width(rgb)
            pic.add(element("line", stroke=INK, stroke_width=width + 5, stroke_linecap="round",
                        opacity=0.9, **ends))
            pic.add(element("line", title, id="conn-" + cid, stroke=hex_rgb(rgb),
                        stroke_width=width, stroke_linecap="round", data_led=led,
                        data_colour=name or hex_rgb(rgb), data_owner=owner or "none", **ends))
        draw_pixel_disc(pic, mx, my, PIXEL_R, rgb, name, "pixel-" + cid, title, False)
        if lit_apart:
            draw_rays(pic, mx, my, PIXEL_R + 4, PIXEL_R + 10)


def _islands(pic, board, report, xy, leds, known):
    control = report.get("control") or {}
    pal = board.palette
    stones = []
    for i, iid in enumerate(board.islands):
        x, y = xy[i]
        led = board.island_led[i]
        owner = control.get(iid)
        rgb, name, lit_apart, title = _pixel(
            board, leds, led, known, owner or "uncontrolled",
            "%s: %s" % (iid, "controlled by " + owner if owner else "uncontrolled"))
        draw_pixel_disc(pic, x, y, ISLAND_R, rgb, name, "island-" + iid, title, lit_apart)
        if lit_apart:
            draw_rays(pic, x, y, ISLAND_R + 4, ISLAND_R + 10)
        if owner:
            stones.append((iid, x, y, pal.get(owner, (128, 128, 128)), owner))
    # Stones first, close to their island; then the names, clear of bridges, pixels,
    # stones and each other.
    obstacles = _obstacles(board, xy)
    for iid, x, y, rgb, owner in stones:
        sx, sy = _place_stone(x, y, obstacles)
        draw_stone(pic, sx, sy, rgb, "%s: stone of %s" % (iid, owner), "stone-" + iid)
    for i, iid in enumerate(board.islands):
        lx, ly = _place_label(board, xy, i, obstacles)
        pic.add(svg_text(lx, ly, iid, size=22, weight="bold", anchor="middle", spacing=2,
                      halo="#f6f1d0", id_="label-" + iid))


def _obstacles(board, xy):
    """What a stone or a name must keep clear of: the bridges' bars and the islands."""
    obstacles = [("seg", seg, BRIDGE_W / 2 + 3) for seg in _segments(board, xy)]
    obstacles += [("disc", p, ISLAND_R + 3) for p in xy]
    return obstacles


def _place_stone(x, y, obstacles):
    """Where the control stone of the island at (x, y) goes: close to it, clear of the
    obstacles but its own island, which then include the stone."""
    own = ("disc", (x, y), ISLAND_R + 3)
    sx, sy = _place(x, y, 13, 10, ISLAND_R - 4, [o for o in obstacles if o != own], enough=3)
    obstacles.append(("box", (sx - 13, sy - 10, sx + 13, sy + 10), 2))
    return sx, sy


def _place_label(board, xy, i, obstacles):
    """Where island i's name goes (its baseline's middle): clear of the obstacles, which
    then include it."""
    x, y = xy[i]
    half_w, half_h = 9.3 * len(board.islands[i]) + 2, 10
    lx, ly = _place(x, y, half_w, half_h, ISLAND_R + 6, obstacles,
                    prefer=_gaps(board, xy, i)[0])
    obstacles.append(("box", (lx - half_w, ly - half_h, lx + half_w, ly + half_h), 4))
    return lx, ly + 8


def _segments(board, xy):
    """Each connection's bar, (x1, y1, x2, y2), shortened to clear the islands' discs."""
    out = []
    for a, b in board.conn_ends:
        (x1, y1), (x2, y2) = xy[a], xy[b]
        length = math.hypot(x2 - x1, y2 - y1)
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        cut = ISLAND_R + GAP
        out.append((x1 + ux * cut, y1 + uy * cut, x2 - ux * cut, y2 - uy * cut))
    return out


# ------------------------------------------------------------------ entry points

def svg(board, report):
    """The picture of `report` (the simulator's JSON report) on `board`, as SVG text."""
    leds = report.get("leds")
    if not isinstance(leds, list) or len(leds) != board.led_count:
        raise ValueError("the report's leds must list the board's %d pixels, got %s"
                         % (board.led_count, "%d" % len(leds) if isinstance(leds, list)
                            else repr(leds)))
    known = known_colours(board)
    xy = _layout(board)
    pic = Picture()
    _sea(pic, board, xy)
    _connections(pic, board, report, xy, leds, known)
    _islands(pic, board, report, xy, leds, known)
    draw_panel(pic, board, report, leds, known)
    head = ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
            'viewBox="0 0 %d %d">' % (WIDTH, HEIGHT, WIDTH, HEIGHT))
    title = "<title>Kahuna board: %s phase, round %s, %s's turn</title>" % (
        escape(str(report.get("phase"))), escape(str(report.get("round"))),
        escape(str(report.get("turn"))))
    return "\n".join([head, title, "<defs>" + "".join(pic.defs) + "</defs>"]
                     + pic.body + ["</svg>", ""])


def page_geometry(board):
    """The board as a live page draws it (the browser simulator, later the live board):
    the printed board without any pixel as SVG (`backdrop`: the sea, the islands' land),
    and where this picture puts every pixel, bar, control stone and name, so the page
    lights the same drawing from any LED frame instead of laying the board out again.
    Stones are placed for every island (any may be controlled) and names clear of them."""
    xy = _layout(board)
    pic = Picture()
    _sea(pic, board, xy)
    segs = _segments(board, xy)
    obstacles = _obstacles(board, xy)
    stones = [_place_stone(x, y, obstacles) for x, y in xy]
    labels = [_place_label(board, xy, i, obstacles) for i in range(len(board.islands))]

    def r1(v):
        return round(v, 1)

    return {
        "width": BOARD_W, "height": BOARD_H,
        "backdrop": "<defs>%s</defs>%s" % ("".join(pic.defs), "".join(pic.body)),
        "islands": [{"id": iid, "led": board.island_led[i], "x": r1(xy[i][0]),
                     "y": r1(xy[i][1]), "r": ISLAND_R,
                     "stone": [r1(stones[i][0]), r1(stones[i][1])],
                     "label": [r1(labels[i][0]), r1(labels[i][1])]}
                    for i, iid in enumerate(board.islands)],
        "connections": [{"id": cid, "led": board.conn_led[k],
                         "ends": [board.islands[a] for a in board.conn_ends[k]],
                         "seg": [r1(v) for v in segs[k]]}
                        for k, cid in enumerate(board.connections)],
        "status": [{"name": name, "led": board.status_leds[name],
                    "title": STATUS_TITLES.get(name, name.replace("_", " "))}
                   for name in board.status_leds],
        "palette": {name: list(rgb) for name, rgb in known_colours(board)},
        "brightness": board.brightness,
        "led_count": board.led_count,
        "style": {"ink": INK, "off": OFF_GREY, "navy": NAVY, "sand": SAND, "font": FONT,
                  "pixel_r": PIXEL_R, "bridge_w": BRIDGE_W, "label_size": 22},
    }


def png(board, report, path, scale=1.0):
    """Write the picture as a PNG file (WIDTH x HEIGHT pixels times `scale`)."""
    drawing.png(svg(board, report), path, scale)


check_output = drawing.check_output


def write(board, report, out_path):
    """Write the picture to `out_path`: SVG for .svg, PNG for .png."""
    drawing.write(lambda: svg(board, report), out_path)


def demo_report(board):
    """The report of the demo scenario, played on the simulator core."""
    from host_tools.games.kahuna.simreport import canonical
    from host_tools.simulator.engine import Simulation
    from host_tools.simulator.scenario import parse

    simulation = Simulation(board)
    report = simulation.run(parse(demo_scenario(), board))
    if simulation.failures:
        raise RuntimeError("the demo scenario failed: %s" % "; ".join(simulation.failures))
    return canonical(report, board)


def main(argv=None):
    import argparse

    from core import board as boardmod

    ap = argparse.ArgumentParser(prog="python -m host_tools.games.kahuna.picture",
                                 description="Draw a mid-game position of the simulated "
                                             "board (the README's picture).")
    ap.add_argument("--demo", metavar="OUT", required=True,
                    help="play the demo scenario and draw it to OUT.svg or OUT.png")
    ap.add_argument("--board", default=BOARD_DEF)
    args = ap.parse_args(argv)
    problem = check_output(args.demo)
    if problem:
        print("picture: %s" % problem, file=sys.stderr)
        return 2
    try:
        board = boardmod.load(args.board)
    except boardmod.BoardError as e:
        print("picture: board: %s" % e, file=sys.stderr)
        return 2
    try:
        write(board, demo_report(board), args.demo)
    except (ValueError, RuntimeError, OSError) as e:
        print("picture: %s" % e, file=sys.stderr)
        return 2
    print("wrote %s" % args.demo)
    return 0


if __name__ == "__main__":
    sys.exit(main())
