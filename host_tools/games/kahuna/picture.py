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
rejection) and a legend.

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
import tempfile
import zlib
from xml.sax.saxutils import escape

from host_tools.paths import BOARD_DEF

BOARD_W = 1000  # the board area of the picture; the board's frame is scaled into it
BOARD_H = 800
PANEL_W = 400  # the text panel, right of the board
WIDTH = BOARD_W + PANEL_W
HEIGHT = BOARD_H

FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
MONO = "DejaVu Sans Mono, Menlo, Consolas, monospace"
NAVY = "#1b2c6b"  # the printed board's island names
INK = "#14213f"  # outlines of pixels and bridges
SAND = "#ecd77a"
OFF_GREY = "#34383f"
PANEL_BG = "#f4ecd2"
PANEL_MUTED = "#7a6a3e"

ISLAND_R = 21  # an island's pixel disc
LAND_R = 40  # mean radius of the land drawn around it
PIXEL_R = 7  # a connection's pixel dot
BRIDGE_W = 10
GAP = 7  # between an island's disc and the end of a bridge

STATUS_TITLES = {"turn_white": "turn white", "turn_black": "turn black"}


def demo_scenario():
    """The scenario behind the README's picture (docs/midgame.scn: the board's names stay
    out of code)."""
    from host_tools import mpy
    with open(os.path.join(mpy.ROOT, "docs", "midgame.scn")) as f:
        return f.read()


# ------------------------------------------------------------------ colours

def _hex(rgb):
    return "#%02x%02x%02x" % tuple(int(round(c)) for c in rgb)


def _luma(rgb):
    return 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]


def _bar_width(rgb):
    """A lit connection's bar is thick; a dark one (a free connection) slimmer."""
    return BRIDGE_W if _luma(rgb) >= 50 else BRIDGE_W - 4


def known_colours(board):
    """(name, rgb) of every colour the firmware shows at full level: the board's palette,
    then the view's defaults for the colours the board leaves out. Off is not listed."""
    out = list(board.palette.items())
    try:
        from games.kahuna.view import DEFAULTS
    except ImportError:  # the firmware is not importable: the palette alone
        DEFAULTS = {}
    for name in sorted(DEFAULTS):
        if name not in board.palette:
            out.append((name, tuple(DEFAULTS[name])))
    return [(n, tuple(c)) for n, c in out if tuple(c) != (0, 0, 0)]


def full_level(rgb, board, known=None):
    """(colour, name) of a pixel of the frame shown at full level: `name` is the palette
    colour it is, "off" for a dark pixel, or None for a colour the palette does not hold
    (then the colour is the pixel divided by the brightness, clamped to 255)."""
    rgb = tuple(int(c) for c in rgb)
    if rgb == (0, 0, 0):
        return (0, 0, 0), "off"
    if known is None:
        known = known_colours(board)
    b = board.brightness
    full = [min(255.0, c / b) for c in rgb]
    # The palette colour itself, give or take the rounding of the brightness scaling.
    tol = 1.5 / b + 1
    best = None
    for name, p in known:
        d = max(abs(f - c) for f, c in zip(full, p))
        if d <= tol and (best is None or d < best[0]):
            best = (d, name, p)
    if best is None and max(rgb) >= 8:
        # A dimmed palette colour: the same hue at a lower level (a pulse, the limiter).
        for name, p in known:
            ps = [c * b for c in p]
            k = sum(v * c for v, c in zip(rgb, ps)) / sum(c * c for c in ps)
            if not 0 < k <= 1.02:
                continue
            d = max(abs(v - k * c) for v, c in zip(rgb, ps))
            if d <= 2.5 and (best is None or d < best[0]):
                best = (d, name, p)
    if best is not None:
        return best[2], best[1]
    return tuple(int(round(c)) for c in full), None


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


# ------------------------------------------------------------------ SVG pieces

def _attrs(**kw):
    parts = []
    for k, v in kw.items():
        if v is None:
            continue
        k = k.rstrip("_").replace("_", "-")
        if isinstance(v, float):
            v = "%.1f" % v
        parts.append('%s="%s"' % (k, escape(str(v), {'"': "&quot;"})))
    return " ".join(parts)


def _el(tag, title=None, **kw):
    if title is None:
        return "<%s %s/>" % (tag, _attrs(**kw))
    return "<%s %s><title>%s</title></%s>" % (tag, _attrs(**kw), escape(title), tag)


def _text(x, y, s, size=14, fill=NAVY, weight=None, anchor=None, family=FONT,
          spacing=None, halo=None, id_=None):
    common = dict(x=x, y=y, font_family=family, font_size=size, font_weight=weight,
                  text_anchor=anchor, letter_spacing=spacing)
    out = []
    if halo:
        out.append("<text %s>%s</text>" % (_attrs(fill=halo, stroke=halo, stroke_width=5,
                                                  stroke_linejoin="round", opacity=0.85,
                                                  **common), escape(s)))
    out.append("<text %s>%s</text>" % (_attrs(id=id_, fill=fill, **common), escape(s)))
    return "".join(out)


class _Picture:
    """Collects the SVG of one picture; the gradients it needs go into <defs>."""

    def __init__(self):
        self.defs = []
        self.body = []
        self.glows = set()

    def add(self, s):
        self.body.append(s)

    def glow(self, rgb):
        """The id of a radial gradient that fades `rgb` out: the light around a pixel."""
        gid = "glow-%02x%02x%02x" % tuple(rgb)
        if gid not in self.glows:
            self.glows.add(gid)
            c = _hex(rgb)
            self.defs.append(
                '<radialGradient id="%s"><stop offset="0.35" stop-color="%s" '
                'stop-opacity="0.75"/><stop offset="1" stop-color="%s" stop-opacity="0"/>'
                '</radialGradient>' % (gid, c, c))
        return gid


def _pixel_disc(pic, x, y, r, rgb, name, id_, title, lit_apart=False):
    """A pixel: a disc in its colour with a glow when lit; dashed dark grey when off."""
    if name == "off":
        pic.add(_el("circle", title, id=id_, cx=x, cy=y, r=r, fill=OFF_GREY,
                    stroke="#9aa3ad", stroke_width=2, stroke_dasharray="4 3",
                    data_colour="off"))
        return
    if lit_apart or max(rgb) >= 110:
        pic.add(_el("circle", cx=x, cy=y, r=r * (2.3 if lit_apart else 1.7),
                    fill="url(#%s)" % pic.glow(rgb)))
    pic.add(_el("circle", title, id=id_, cx=x, cy=y, r=r, fill=_hex(rgb), stroke=INK,
                stroke_width=2.5, data_colour=name or _hex(rgb)))
    if max(rgb) >= 60:  # a small highlight: a lamp, not a flat dot
        pic.add(_el("ellipse", cx=x - r * 0.32, cy=y - r * 0.38, rx=r * 0.32, ry=r * 0.2,
                    fill="#ffffff", opacity=0.45))


def _rays(pic, x, y, r0, r1):
    """Short strokes around a pixel: it is lit apart from the game state (it blinks)."""
    d = []
    for j in range(8):
        a = math.pi / 8 + j * math.pi / 4
        d.append("M%.1f,%.1f L%.1f,%.1f" % (x + r0 * math.cos(a), y + r0 * math.sin(a),
                                           x + r1 * math.cos(a), y + r1 * math.sin(a)))
    pic.add(_el("path", d=" ".join(d), stroke=INK, stroke_width=2.5, stroke_linecap="round"))


def _stone(pic, x, y, rgb, title, id_):
    """A control stone in the player's colour, seen slightly from the side."""
    side = tuple(int(c * 0.6) for c in rgb)
    pic.add('<g id="%s"><title>%s</title>' % (id_, escape(title)))
    pic.add(_el("ellipse", cx=x, cy=y + 4, rx=12, ry=8, fill=_hex(side), stroke=INK,
                stroke_width=2))
    pic.add(_el("rect", x=x - 12, y=y - 1, width=24, height=5, fill=_hex(side)))
    pic.add(_el("ellipse", cx=x, cy=y - 1, rx=12, ry=8, fill=_hex(rgb), stroke=INK,
                stroke_width=2))
    pic.add(_el("line", x1=x - 12, y1=y - 1, x2=x - 12, y2=y + 4, stroke=INK, stroke_width=2))
    pic.add(_el("line", x1=x + 12, y1=y - 1, x2=x + 12, y2=y + 4, stroke=INK, stroke_width=2))
    pic.add("</g>")


def _turtle(pic, x, y, scale, rot):
    c = "#e35da6"
    pic.add('<g transform="translate(%.0f,%.0f) rotate(%.0f) scale(%.2f)" opacity="0.9">'
            % (x, y, rot, scale))
    for lx, ly in ((-16, -14), (16, -14), (-16, 14), (16, 14)):
        pic.add(_el("ellipse", cx=lx, cy=ly, rx=9, ry=5, fill=c,
                    transform="rotate(%d %d %d)" % (35 if lx * ly > 0 else -35, lx, ly)))
    pic.add(_el("ellipse", cx=0, cy=-25, rx=7, ry=8, fill=c))
    pic.add(_el("path", d="M-3,20 L0,30 L3,20 Z", fill=c))
    pic.add(_el("ellipse", cx=0, cy=0, rx=16, ry=20, fill=c))
    for d in ("M-16,-5 H16", "M-16,5 H16", "M-6,-19 V19", "M6,-19 V19"):
        pic.add(_el("path", d=d, stroke="#f8c5e0", stroke_width=2))
    pic.add("</g>")


def _fish(pic, x, y, scale, flip):
    c = "#f29a3a"
    pic.add('<g transform="translate(%.0f,%.0f) scale(%.2f,%.2f)" opacity="0.9">'
            % (x, y, -scale if flip else scale, scale))
    pic.add(_el("path", d="M18,0 L40,-14 L34,0 L40,14 Z", fill=c))
    pic.add(_el("path", d="M-8,-12 L4,-22 L10,-10 Z", fill=c))
    pic.add(_el("ellipse", cx=0, cy=0, rx=26, ry=13, fill=c))
    pic.add(_el("path", d="M-14,-8 Q-6,0 -14,8", stroke="#7a3b12", stroke_width=2,
                fill="none"))
    pic.add(_el("circle", cx=-18, cy=-2, r=3, fill="#3b1d08"))
    pic.add(_el("path", d="M0,-4 Q10,0 0,4 M6,-6 Q16,0 6,6", stroke="#7a3b12",
                stroke_width=1.5, fill="none"))
    pic.add("</g>")


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
    pic.add(_el("rect", x=0, y=0, width=BOARD_W, height=BOARD_H, fill="url(#sea)"))
    # Light swirls in the water, as on the printed board.
    for cx, cy, rx, ry in ((250, 130, 190, 50), (760, 110, 170, 40), (880, 690, 150, 45),
                           (150, 700, 140, 40), (520, 770, 220, 28)):
        pic.add(_el("ellipse", cx=cx, cy=cy, rx=rx, ry=ry, fill="url(#shallow)",
                    opacity=0.45))
    # Islets off the coasts (only where no island or bridge is near).
    for ix, iy, r in ((118, 190, 6), (262, 100, 5), (525, 88, 6), (640, 190, 4),
                      (930, 150, 5), (950, 480, 4), (880, 760, 6), (170, 600, 5),
                      (330, 760, 5), (610, 760, 4), (960, 330, 5), (70, 420, 4)):
        if all(math.hypot(ix - x, iy - y) > 80 for x, y in xy):
            pic.add(_el("circle", cx=ix, cy=iy, r=r + 3, fill=SAND, opacity=0.9))
            pic.add(_el("circle", cx=ix, cy=iy, r=r, fill="#4f9d34"))
    _turtle(pic, 62, 62, 0.9, 30)
    _turtle(pic, BOARD_W - 62, 62, 0.9, -30)
    _fish(pic, 70, BOARD_H - 52, 0.9, False)
    _fish(pic, BOARD_W - 70, BOARD_H - 52, 0.9, True)
    # Shallow water around each island, then the land with its sandy coast.
    for x, y in xy:
        pic.add(_el("circle", cx=x, cy=y, r=LAND_R * 2.3, fill="url(#shallow)"))
    for i, (x, y) in enumerate(xy):
        nearest = min(math.hypot(x - u, y - v) for j, (u, v) in enumerate(xy) if j != i)
        d = _land_path(board.islands[i], x, y, min(LAND_R + 8, 0.34 * nearest))
        pic.add(_el("path", d=d, fill="none", stroke="#f1f8dc", stroke_width=16,
                    opacity=0.55, stroke_linejoin="round"))
        pic.add(_el("path", id="land-" + board.islands[i], d=d, fill="url(#land)",
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
            pic.add(_el("line", stroke="#b9d3df", stroke_width=9, opacity=0.5,
                        stroke_linecap="round", **ends))
            pic.add(_el("line", title, id="conn-" + cid, stroke=OFF_GREY, stroke_width=7,
                        stroke_dasharray="12 8", data_led=led, data_colour="off",
                        data_owner=owner or "none", **ends))
        else:
            if lit_apart:
                pic.add(_el("line", stroke=_hex(rgb), stroke_width=BRIDGE_W + 16, opacity=0.35,
                            stroke_linecap="round", **ends))
            # A dark pixel (a free connection) gets a slimmer bar: the lit ones stand out.
            width = _bar_width(rgb)
            pic.add(_el("line", stroke=INK, stroke_width=width + 5, stroke_linecap="round",
                        opacity=0.9, **ends))
            pic.add(_el("line", title, id="conn-" + cid, stroke=_hex(rgb),
                        stroke_width=width, stroke_linecap="round", data_led=led,
                        data_colour=name or _hex(rgb), data_owner=owner or "none", **ends))
        _pixel_disc(pic, mx, my, PIXEL_R, rgb, name, "pixel-" + cid, title, False)
        if lit_apart:
            _rays(pic, mx, my, PIXEL_R + 4, PIXEL_R + 10)


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
        _pixel_disc(pic, x, y, ISLAND_R, rgb, name, "island-" + iid, title, lit_apart)
        if lit_apart:
            _rays(pic, x, y, ISLAND_R + 4, ISLAND_R + 10)
        if owner:
            stones.append((iid, x, y, pal.get(owner, (128, 128, 128)), owner))
    # Stones first, close to their island; then the names, clear of bridges, pixels,
    # stones and each other.
    obstacles = _obstacles(board, xy)
    for iid, x, y, rgb, owner in stones:
        sx, sy = _place_stone(x, y, obstacles)
        _stone(pic, sx, sy, rgb, "%s: stone of %s" % (iid, owner), "stone-" + iid)
    for i, iid in enumerate(board.islands):
        lx, ly = _place_label(board, xy, i, obstacles)
        pic.add(_text(lx, ly, iid, size=22, weight="bold", anchor="middle", spacing=2,
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


# ------------------------------------------------------------------ the panel

def _wrap(s, width):
    words = s.split()
    lines, cur = [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = (cur + " " + w).strip()
    if cur:
        lines.append(cur)
    return lines


def _heading(pic, x, y, s):
    pic.add(_text(x, y, s.upper(), size=12, fill=PANEL_MUTED, weight="bold", spacing=2))
    pic.add(_el("line", x1=x, y1=y + 6, x2=WIDTH - 24, y2=y + 6, stroke="#d8c896",
                stroke_width=1))


def _swatch(pic, x, y, rgb, r=8):
    pic.add(_el("circle", cx=x, cy=y, r=r, fill=_hex(rgb), stroke=INK, stroke_width=2))


def _player(name):
    return name.capitalize() if isinstance(name, str) else str(name)


def _panel(pic, board, report, leds, known):
    x0 = BOARD_W
    x = x0 + 24
    pal = board.palette
    pic.add(_el("rect", x=x0, y=0, width=PANEL_W, height=HEIGHT, fill=PANEL_BG))
    pic.add(_el("rect", x=x0, y=0, width=6, height=HEIGHT, fill=SAND))
    pic.add(_text(x, 50, "KAHUNA", size=36, weight="bold", spacing=6))
    pic.add(_text(x + 2, 72, "smart board \u00b7 simulator \u00b7 last LED frame", size=13,
                  fill=PANEL_MUTED))

    # Status pixels.
    y = 104
    _heading(pic, x, y, "Status pixels")
    names = list(board.status_leds)
    step = min(88, (PANEL_W - 48) / max(1, len(names)))
    for j, sname in enumerate(names):
        cx = x + step * j + step / 2
        led = board.status_leds[sname]
        raw = tuple(leds[led])
        rgb, cname = full_level(raw, board, known)
        title = "%s: LED %d = %s%s" % (sname, led, list(raw), " (%s)" % cname if cname else "")
        _pixel_disc(pic, cx, y + 30, 13, rgb, cname, "status-" + sname, title)
        label = STATUS_TITLES.get(sname, sname.replace("_", " "))
        pic.add(_text(cx, y + 60, label, size=12, anchor="middle"))
        shown = (cname or _hex(rgb)).replace("phase_", "").replace("_", " ")
        pic.add(_text(cx, y + 75, shown, size=11, anchor="middle", fill=PANEL_MUTED))

    # The game.
    y = 206
    _heading(pic, x, y, "Game")
    phase = report.get("phase", "?")
    line = "Round %s \u00b7 " % report.get("round", "?")
    if phase == "over":
        line += "game over"
    else:
        line += "%s%s phase" % ("final turns \u00b7 " if report.get("final_turns") else "",
                                phase)
    pic.add(_text(x, y + 28, line, size=17, weight="bold"))
    turn = report.get("turn")
    winner = report.get("winner")
    if phase == "over":
        if winner in pal:
            _swatch(pic, x + 8, y + 50, pal[winner])
            pic.add(_text(x + 24, y + 55, "Game over: %s wins" % _player(winner), size=16))
        else:
            pic.add(_text(x, y + 55, "Game over: a draw", size=16))
    elif turn:
        verb = {"deal": "'s cards are dealt", "handicap": " places handicap bridges",
                "draw": " draws or declines"}.get(phase, " to play")
        if turn in pal:
            _swatch(pic, x + 8, y + 50, pal[turn])
        text = _player(turn) + verb
        if report.get("must_draw"):
            text += " (must draw)"
        pic.add(_text(x + 24, y + 55, text, size=16))
    scores = report.get("scores") or {}
    line = "Score: White %s \u00b7 Black %s" % (scores.get("white", 0), scores.get("black", 0))
    pic.add(_text(x, y + 80, line, size=15))
    rounds = report.get("round_scores") or []
    if rounds:
        line = "Scorings: " + " \u00b7 ".join(
            "%d\u2013%d" % (r["white"], r["black"]) for r in rounds) + " (white\u2013black)"
    else:
        line = "No round scored yet"
    pic.add(_text(x, y + 100, line, size=13, fill=PANEL_MUTED))
    bridges = report.get("bridges") or {}
    control = report.get("control") or {}
    counts = []
    for p in ("white", "black"):
        n_isl = sum(1 for v in control.values() if v == p)
        n_br = sum(1 for v in bridges.values() if v == p)
        counts.append("%s: %d island%s, %d bridge%s" % (
            _player(p), n_isl, "" if n_isl == 1 else "s", n_br, "" if n_br == 1 else "s"))
    pic.add(_text(x, y + 118, " \u00b7 ".join(counts), size=12, fill=PANEL_MUTED))

    # The players.
    y = 352
    _heading(pic, x, y, "Players")
    supply = report.get("supply") or {}
    hands = report.get("hands") or {}
    y += 30
    for p in ("white", "black"):
        hand = list(hands.get(p) or [])
        if p in pal:
            _swatch(pic, x + 8, y - 5, pal[p])
        pic.add(_text(x + 24, y, _player(p), size=16, weight="bold"))
        pic.add(_text(x + 90, y, "%s bridges in supply \u00b7 %d in hand" % (
            supply.get(p, "?"), len(hand)), size=14))
        cy = y + 12
        if not hand:
            pic.add(_text(x + 24, cy + 18, "no cards", size=13, fill=PANEL_MUTED))
        for j, card in enumerate(hand):
            cx = x + 24 + j * 66
            pic.add(_el("rect", x=cx, y=cy, width=60, height=26, rx=4, fill="#fffdf4",
                        stroke=NAVY, stroke_width=1.5))
            pic.add(_text(cx + 30, cy + 18, card, size=12, weight="bold", anchor="middle",
                          family=MONO))
        y += 62
    pic.add(_text(x, y - 4, "Discard pile %s \u00b7 drawable %s" % (
        report.get("discard", "?"), report.get("drawable", "?")), size=14))

    # The last rejection.
    y = 530
    _heading(pic, x, y, "Last rejection")
    rejected = report.get("rejected") or []
    if rejected:
        r = rejected[-1]
        more = " (%d in all)" % len(rejected) if len(rejected) > 1 else ""
        pic.add(_text(x, y + 26, "line %s: %s%s" % (r.get("line"), r.get("code"), more),
                      size=15, weight="bold", fill="#b3261e"))
        for j, ln in enumerate(_wrap(str(r.get("message", "")), 44)[:2]):
            pic.add(_text(x, y + 46 + 18 * j, ln, size=14, fill="#5a1712"))
    else:
        pic.add(_text(x, y + 26, "none", size=15, fill=PANEL_MUTED))

    _legend(pic, board, x, 622)


def _legend(pic, board, x, y):
    pal = board.palette
    _heading(pic, x, y, "Legend")
    col = (PANEL_W - 48) / 2
    items = [("bridge", pal["white"], "white player"),
             ("bridge", pal["black"], "black player"),
             ("bridge", pal["free"], "free connection"),
             ("island", pal["uncontrolled"], "uncontrolled island"),
             ("stone", pal["white"], "controlled island"),
             ("halo", pal.get("option_place", (0, 255, 0)), "blinks: option, error"),
             ("island", pal.get("pending", (255, 160, 0)), "card pending"),
             ("off", None, "pixel off")]
    for j, (kind, rgb, label) in enumerate(items):
        cx = x + (j % 2) * col
        cy = y + 32 + (j // 2) * 38
        if rgb is not None and tuple(rgb) == (0, 0, 0):
            kind = "off" if kind == "bridge" else "off-island"
        if kind in ("bridge", "halo"):
            if kind == "halo":
                pic.add(_el("line", x1=cx, y1=cy, x2=cx + 40, y2=cy, stroke=_hex(rgb),
                            stroke_width=BRIDGE_W + 12, opacity=0.35, stroke_linecap="round"))
                _rays(pic, cx + 20, cy, PIXEL_R + 3, PIXEL_R + 8)
            width = _bar_width(rgb)
            pic.add(_el("line", x1=cx, y1=cy, x2=cx + 40, y2=cy, stroke=INK,
                        stroke_width=width + 5, stroke_linecap="round"))
            pic.add(_el("line", x1=cx, y1=cy, x2=cx + 40, y2=cy, stroke=_hex(rgb),
                        stroke_width=width, stroke_linecap="round"))
            pic.add(_el("circle", cx=cx + 20, cy=cy, r=PIXEL_R - 1, fill=_hex(rgb), stroke=INK,
                        stroke_width=2))
        elif kind == "island":
            pic.add(_el("circle", cx=cx + 20, cy=cy, r=13, fill=_hex(rgb), stroke=INK,
                        stroke_width=2.5))
        elif kind == "off-island":
            _pixel_disc(pic, cx + 20, cy, 13, (0, 0, 0), "off", None, None)
        elif kind == "stone":
            pic.add(_el("circle", cx=cx + 12, cy=cy, r=13, fill=_hex(rgb), stroke=INK,
                        stroke_width=2.5))
            _stone(pic, cx + 34, cy - 2, rgb, label, "legend-stone")
        else:
            pic.add(_el("line", x1=cx, y1=cy, x2=cx + 40, y2=cy, stroke=OFF_GREY,
                        stroke_width=7, stroke_dasharray="9 6"))
        pic.add(_text(cx + 54, cy + 5, label, size=13))


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
    pic = _Picture()
    _sea(pic, board, xy)
    _connections(pic, board, report, xy, leds, known)
    _islands(pic, board, report, xy, leds, known)
    _panel(pic, board, report, leds, known)
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
    pic = _Picture()
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
    try:
        import cairosvg
    except (ImportError, OSError) as e:  # OSError: cairocffi found no libcairo
        raise RuntimeError("PNG output needs the cairosvg package and the cairo library "
                           "(Debian: libcairo2): %s" % e) from e
    cairosvg.svg2png(bytestring=svg(board, report).encode("utf-8"), write_to=path,
                     scale=scale)


FORMATS = {".svg": "SVG (.svg)", ".png": "PNG (.png, needs the cairo library)"}


def check_output(out_path):
    """Why the picture cannot be written to `out_path` (a message), or None: a format we
    draw, the PNG library present, a folder we may write in. Asked before any work."""
    ext = os.path.splitext(out_path)[1].lower()
    if ext not in FORMATS:
        return ("cannot render to %r: the formats are %s; end the file name in .svg or .png"
                % (out_path, " and ".join(FORMATS.values())))
    if ext == ".png":
        try:
            import cairosvg  # noqa: F401
        except (ImportError, OSError) as e:  # OSError: cairocffi found no libcairo
            return ("cannot render PNG: the cairo library is missing (%s). Install it "
                    "(Debian/Ubuntu: apt-get install libcairo2; macOS: brew install cairo) "
                    "or render to .svg" % e)
    if os.path.isdir(out_path):
        return "cannot render to %r: it is a folder" % (out_path,)
    folder = os.path.dirname(os.path.abspath(out_path))
    try:  # the folder is made now (it would be anyway), and must take a file
        os.makedirs(folder, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as e:
        return "cannot render to %r: cannot write in %s (%s)" % (out_path, folder,
                                                                 e.strerror or e)
    return None


def write(board, report, out_path):
    """Write the picture to `out_path`: SVG for .svg, PNG for .png."""
    problem = check_output(out_path)
    if problem:
        raise ValueError(problem)
    ext = os.path.splitext(out_path)[1].lower()
    folder = os.path.dirname(out_path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    if ext == ".svg":
        with open(out_path, "w", encoding="utf-8") as f:
            f.write(svg(board, report))
    else:
        png(board, report, out_path)


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
