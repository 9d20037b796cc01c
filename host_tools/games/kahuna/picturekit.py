"""What Kahuna's picture (picture.py) and its panel (picturepanel.py) share: the sizes
and colours of the drawing, a pixel's colour at full level (`full_level`: undoing the
brightness and snapping to the palette), and the SVG pieces (elements, text, the pixel
discs, the control stones, the sea's creatures)."""

import math
from xml.sax.saxutils import escape

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


# ------------------------------------------------------------------ colours

def hex_rgb(rgb):
    return "#%02x%02x%02x" % tuple(int(round(c)) for c in rgb)


def _luma(rgb):
    return 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]


def bar_width(rgb):
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


def element(tag, title=None, **kw):
    if title is None:
        return "<%s %s/>" % (tag, _attrs(**kw))
    return "<%s %s><title>%s</title></%s>" % (tag, _attrs(**kw), escape(title), tag)


def svg_text(x, y, s, size=14, fill=NAVY, weight=None, anchor=None, family=FONT,
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


class Picture:
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
            c = hex_rgb(rgb)
            self.defs.append(
                '<radialGradient id="%s"><stop offset="0.35" stop-color="%s" '
                'stop-opacity="0.75"/><stop offset="1" stop-color="%s" stop-opacity="0"/>'
                '</radialGradient>' % (gid, c, c))
        return gid


def draw_pixel_disc(pic, x, y, r, rgb, name, id_, title, lit_apart=False):
    """A pixel: a disc in its colour with a glow when lit; dashed dark grey when off."""
    if name == "off":
        pic.add(element("circle", title, id=id_, cx=x, cy=y, r=r, fill=OFF_GREY,
                    stroke="#9aa3ad", stroke_width=2, stroke_dasharray="4 3",
                    data_colour="off"))
        return
    if lit_apart or max(rgb) >= 110:
        pic.add(element("circle", cx=x, cy=y, r=r * (2.3 if lit_apart else 1.7),
                    fill="url(#%s)" % pic.glow(rgb)))
    pic.add(element("circle", title, id=id_, cx=x, cy=y, r=r, fill=hex_rgb(rgb), stroke=INK,
                stroke_width=2.5, data_colour=name or hex_rgb(rgb)))
    if max(rgb) >= 60:  # a small highlight: a lamp, not a flat dot
        pic.add(element("ellipse", cx=x - r * 0.32, cy=y - r * 0.38, rx=r * 0.32, ry=r * 0.2,
                    fill="#ffffff", opacity=0.45))


def draw_rays(pic, x, y, r0, r1):
    """Short strokes around a pixel: it is lit apart from the game state (it blinks)."""
    d = []
    for j in range(8):
        a = math.pi / 8 + j * math.pi / 4
        d.append("M%.1f,%.1f L%.1f,%.1f" % (x + r0 * math.cos(a), y + r0 * math.sin(a),
                                           x + r1 * math.cos(a), y + r1 * math.sin(a)))
    pic.add(element("path", d=" ".join(d), stroke=INK, stroke_width=2.5, stroke_linecap="round"))


def draw_stone(pic, x, y, rgb, title, id_):
    """A control stone in the player's colour, seen slightly from the side."""
    side = tuple(int(c * 0.6) for c in rgb)
    pic.add('<g id="%s"><title>%s</title>' % (id_, escape(title)))
    pic.add(element("ellipse", cx=x, cy=y + 4, rx=12, ry=8, fill=hex_rgb(side), stroke=INK,
                stroke_width=2))
    pic.add(element("rect", x=x - 12, y=y - 1, width=24, height=5, fill=hex_rgb(side)))
    pic.add(element("ellipse", cx=x, cy=y - 1, rx=12, ry=8, fill=hex_rgb(rgb), stroke=INK,
                stroke_width=2))
    pic.add(element("line", x1=x - 12, y1=y - 1, x2=x - 12, y2=y + 4, stroke=INK, stroke_width=2))
    pic.add(element("line", x1=x + 12, y1=y - 1, x2=x + 12, y2=y + 4, stroke=INK, stroke_width=2))
    pic.add("</g>")


def draw_turtle(pic, x, y, scale, rot):
    c = "#e35da6"
    pic.add('<g transform="translate(%.0f,%.0f) rotate(%.0f) scale(%.2f)" opacity="0.9">'
            % (x, y, rot, scale))
    for lx, ly in ((-16, -14), (16, -14), (-16, 14), (16, 14)):
        pic.add(element("ellipse", cx=lx, cy=ly, rx=9, ry=5, fill=c,
                    transform="rotate(%d %d %d)" % (35 if lx * ly > 0 else -35, lx, ly)))
    pic.add(element("ellipse", cx=0, cy=-25, rx=7, ry=8, fill=c))
    pic.add(element("path", d="M-3,20 L0,30 L3,20 Z", fill=c))
    pic.add(element("ellipse", cx=0, cy=0, rx=16, ry=20, fill=c))
    for d in ("M-16,-5 H16", "M-16,5 H16", "M-6,-19 V19", "M6,-19 V19"):
        pic.add(element("path", d=d, stroke="#f8c5e0", stroke_width=2))
    pic.add("</g>")


def draw_fish(pic, x, y, scale, flip):
    c = "#f29a3a"
    pic.add('<g transform="translate(%.0f,%.0f) scale(%.2f,%.2f)" opacity="0.9">'
            % (x, y, -scale if flip else scale, scale))
    pic.add(element("path", d="M18,0 L40,-14 L34,0 L40,14 Z", fill=c))
    pic.add(element("path", d="M-8,-12 L4,-22 L10,-10 Z", fill=c))
    pic.add(element("ellipse", cx=0, cy=0, rx=26, ry=13, fill=c))
    pic.add(element("path", d="M-14,-8 Q-6,0 -14,8", stroke="#7a3b12", stroke_width=2,
                fill="none"))
    pic.add(element("circle", cx=-18, cy=-2, r=3, fill="#3b1d08"))
    pic.add(element("path", d="M0,-4 Q10,0 0,4 M6,-6 Q16,0 6,6", stroke="#7a3b12",
                stroke_width=1.5, fill="none"))
    pic.add("</g>")
