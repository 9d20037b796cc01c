"""What Kahuna's picture (picture.py) and its panel (picturepanel.py) share: the sizes
and colours of the drawing, a pixel's colour at full level (`full_level`: undoing the
brightness and snapping to the palette), and the SVG pieces (elements, text, the pixel
discs, the control stones, the sea's creatures); the pieces every game's picture uses
are host_tools/drawing.py's."""

import math
from xml.sax.saxutils import escape

from host_tools.drawing import (
    INK,
    element,
    hex_rgb,
    luma,
)
from host_tools.drawing import full_level as drawing_full_level
from host_tools.drawing import known_colours as drawing_known

BOARD_W = 1000  # the board area of the picture; the board's frame is scaled into it
BOARD_H = 800
PANEL_W = 400  # the text panel, right of the board
WIDTH = BOARD_W + PANEL_W
HEIGHT = BOARD_H

SAND = "#ecd77a"
PANEL_BG = "#f4ecd2"
PANEL_MUTED = "#7a6a3e"

ISLAND_R = 21  # an island's pixel disc
LAND_R = 40  # mean radius of the land drawn around it
PIXEL_R = 7  # a connection's pixel dot
BRIDGE_W = 10
GAP = 7  # between an island's disc and the end of a bridge

STATUS_TITLES = {"turn_white": "turn white", "turn_black": "turn black"}


# ------------------------------------------------------------------ colours

def bar_width(rgb):
    """A lit connection's bar is thick; a dark one (a free connection) slimmer."""
    return BRIDGE_W if luma(rgb) >= 50 else BRIDGE_W - 4


def known_colours(board):
    """(name, rgb) of every colour the firmware shows at full level: the board's palette,
    then Kahuna's view's defaults for the colours the board leaves out. Off is not listed."""
    try:
        from games.kahuna.view import DEFAULTS
    except ImportError:  # the firmware is not importable: the palette alone
        DEFAULTS = {}
    return drawing_known(board, DEFAULTS)


def full_level(rgb, board, known=None):
    """drawing.full_level, with Kahuna's colours when `known` is not given."""
    return drawing_full_level(rgb, board, known_colours(board) if known is None else known)


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
