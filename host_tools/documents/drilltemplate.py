"""The 1:1 drilling template: the board with a hole for every pixel, on one page of the
board's size and tiled onto A4 pages with overlap marks. The game's places (hw.places) give
its title, where the title block goes, the guide lines and each kind's ink, legend and
labels."""

import math
import os

from host_tools import mpy
from host_tools.documents.chainorder import dist
from host_tools.documents.hwfigures import A4_MM, HOLE_MM, PICO_MM, TILE_MARGIN_MM, TILE_OVERLAP_MM
from host_tools.documents.svgkit import (
    num,
    svg_circle,
    svg_line,
    svg_open,
    svg_rect,
    svg_text,
    text_width,
)


def template_body(hw):
    """The template's drawing in board millimetres (0, 0 top left, y down)."""
    w, h = hw.size_mm
    r = HOLE_MM / 2
    out = [svg_rect(0, 0, w, h, width=0.5)]
    # the game's guides (Kahuna's bridges), faint and dashed between the holes
    for la, lb in hw.places.guides(hw.board):
        pa = hw.pixels[la].xy
        pb = hw.pixels[lb].xy
        d = dist(pa, pb)
        if d <= 2 * r + 2:
            continue
        ux, uy = (pb[0] - pa[0]) / d, (pb[1] - pa[1]) / d
        out.append(svg_line(pa[0] + ux * (r + 1), pa[1] + uy * (r + 1),
                         pb[0] - ux * (r + 1), pb[1] - uy * (r + 1), stroke="#9aa3ad",
                         width=0.25, extra=' stroke-dasharray="1.5 1.5"'))
    holes = [(px.xy[0] - r - 3, px.xy[1] - r - 3, px.xy[0] + r + 3, px.xy[1] + r + 3)
             for px in hw.pixels]  # each hole with its crosshair's arms
    labels = []
    for px in hw.pixels:
        x, y = px.xy
        c = hw.kinds[px.kind].ink
        out.append(svg_circle(x, y, r, stroke=c, width=0.35))
        out.append(svg_line(x - r - 3, y, x + r + 3, y, stroke=c, width=0.2))
        out.append(svg_line(x, y - r - 3, x, y + r + 3, stroke=c, width=0.2))
    for i, px in enumerate(hw.pixels):
        texts, box = _label(hw, px, r, holes[:i] + holes[i + 1:] + labels)
        out += texts
        labels.append(box)
    # the Pico's corner
    px, py = hw.pico_xy
    pw, ph = PICO_MM
    out.append(svg_rect(px - pw / 2, py - ph / 2, pw, ph, stroke="#555", width=0.3,
                     extra=' stroke-dasharray="2 1"'))
    out.append(svg_text(px, py - 1, "Pico + 74AHCT125", 3.0, anchor="middle", fill="#555"))
    out.append(svg_text(px, py + 3, "(under the board)", 2.4, anchor="middle", fill="#555"))
    out.append(svg_text(px, py + 6.5, "data line starts here", 2.4, anchor="middle",
                     fill="#555"))
    # scale bars: 100 mm each way, ticks every 10 mm
    x0, y0 = 12.0, 40.0
    out.append(svg_line(x0, y0, x0 + 100, y0, width=0.4))
    for i in range(11):
        t = 2.5 if i % 5 == 0 else 1.5
        out.append(svg_line(x0 + 10 * i, y0 - t, x0 + 10 * i, y0, width=0.25))
    out.append(svg_text(x0 + 50, y0 - 3.5, "100 mm: measure this before drilling", 3.0,
                     anchor="middle"))
    vx, vy = 12.0, 55.0
    out.append(svg_line(vx, vy, vx, vy + 100, width=0.4))
    for i in range(11):
        t = 2.5 if i % 5 == 0 else 1.5
        out.append(svg_line(vx, vy + 10 * i, vx + t, vy + 10 * i, width=0.25))
    out.append(svg_text(vx - 2, vy + 50, "100 mm", 3.0, anchor="middle",
                     extra=' transform="rotate(-90 %s %s)"' % (num(vx - 2), num(vy + 50))))
    out += _title_block(hw)
    return out


def _label(hw, px, r, taken):
    """A hole's two lines of label (their SVG texts, and their box), at the first of a few
    places around it that keeps them on the page and off `taken` (the other holes, the
    labels placed before); the first place if none does."""
    x, y = px.xy
    c = hw.kinds[px.kind].ink
    kind = hw.kinds[px.kind].label
    gap = 0.9  # between the lines
    if kind == "name":
        lines = [(px.name, 4.5, "bold"), ("#%d" % px.led, 3.2, "normal")]
    else:
        lines = [("#%d" % px.led, 3.0, "bold"),
                 (px.name.replace("_", " "), 2.1 if kind == "index" else 2.2, "normal")]
    height = sum(size for _, size, _ in lines) + gap
    above, below = y - r - height - 0.3, y + r + 0.3  # the box's top, clear of the hole
    if kind == "name":  # beside the hole, high or low
        places = [("start", x + r + 1.2, y - r - 4.0), ("start", x + r + 1.2, y + r - 0.5),
                  ("end", x - r - 1.2, y - r - 4.0), ("end", x - r - 1.2, y + r - 0.5)]
    elif kind == "index":  # under or over the hole, to one side
        places = [("start", x + r * 0.75, below), ("start", x + r * 0.75, above),
                  ("end", x - r * 0.75, below), ("end", x - r * 0.75, above)]
    else:
        places = [("middle", x, above), ("middle", x, below)]
    width = max(text_width(text, size, weight) for text, size, weight in lines)
    w, h = hw.size_mm

    def box(anchor, ax, top):
        left = {"start": ax, "middle": ax - width / 2, "end": ax - width}[anchor]
        return (left, top, left + width, top + height)

    def clear(b):
        return (0 <= b[0] and b[2] <= w and 0 < b[1] and b[3] <= h
                and not any(b[0] < t[2] and t[0] < b[2] and b[1] < t[3] and t[1] < b[3]
                            for t in taken))
    anchor, ax, top = next((p for p in places if clear(box(*p))), places[0])
    out, baseline = [], top
    for text, size, weight in lines:
        baseline += size
        out.append(svg_text(ax, baseline, text, size, anchor=anchor, weight=weight, fill=c))
        baseline += gap
    return out, box(anchor, ax, top)


def _title_block(hw):
    """The title, the scale's warning, the legend and the source, where the game's places
    put them (template_note: x, y, anchor, wrap width in mm or None)."""
    x, y, anchor, wrap = hw.places.template_note(hw.size_mm)
    kinds = ", ".join(k.legend for k in hw.places.KINDS)
    lines = [
        (hw.places.TEMPLATE_TITLE, 6.0, "bold", "#000", 0),
        ("%g x %g mm. Print at 100 %% (actual size, no fit to page) and check both 100 mm "
         "bars." % hw.size_mm, 3.4, "normal", "#000", 7.0),
        ("Circles: drill Ø%g mm at the crosshair. #n: the pixel's LED index. %s."
         % (HOLE_MM, kinds[:1].upper() + kinds[1:]), 3.0, "normal", "#000", 5.5),
        ("Generated from %s by make hardware." % board_file(hw), 2.6, "normal", "#555", 5.0),
    ]
    out = []
    for text, size, weight, fill, step in lines:
        y += step
        parts = _wrap(text, size, wrap, weight)
        for k, part in enumerate(parts):
            out.append(svg_text(x, y + k * size * 1.3, part, size, anchor=anchor,
                                weight=weight, fill=fill))
        y += (len(parts) - 1) * size * 1.3
    return out


def _wrap(text, size, width, weight="normal"):
    """`text` in lines at most `width` mm wide at font `size`, broken at spaces; one line
    when width is None."""
    if width is None:
        return [text]
    lines, line = [], ""
    for word in text.split(" "):
        longer = line + " " + word if line else word
        if line and text_width(longer, size, weight) > width:
            lines.append(line)
            line = word
        else:
            line = longer
    return lines + [line]


def board_file(hw):
    """The board definition's path as the docs name it: relative to the repository."""
    return board_file_of(hw.board_path)


def board_file_of(p):
    return os.path.relpath(p, mpy.ROOT) if os.path.isabs(p) else p


def template_svg(hw):
    w, h = hw.size_mm
    out = svg_open(w, h, unit="mm", bg="#fff")
    out += template_body(hw)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def a4_tiles(size_mm):
    """A4 pages covering the board: (orientation, (cols, rows), [(col, row, x0, y0)]),
    the orientation with fewer pages (portrait on a tie)."""
    best = None
    for orient, page in (("portrait", A4_MM), ("landscape", (A4_MM[1], A4_MM[0]))):
        uw, uh = page[0] - 2 * TILE_MARGIN_MM, page[1] - 2 * TILE_MARGIN_MM
        sw, sh = uw - TILE_OVERLAP_MM, uh - TILE_OVERLAP_MM
        cols = max(1, int(math.ceil((size_mm[0] - TILE_OVERLAP_MM) / sw)))
        rows = max(1, int(math.ceil((size_mm[1] - TILE_OVERLAP_MM) / sh)))
        tiles = [(c, r, c * sw, r * sh) for r in range(rows) for c in range(cols)]
        if best is None or len(tiles) < len(best[2]):
            best = (orient, (cols, rows), tiles, page)
    return best


def _join_marks(size_mm, cols, rows, sw, sh, uw, uh):
    """Marks to match neighbouring A4 pages by, in the middle of each strip two pages both
    print (board millimetres): two on each join on the board, whatever it has there."""
    out = []
    half = TILE_OVERLAP_MM / 2
    spots = [((c + 1) * sw + half, r * sh + uh * f) for c in range(cols - 1)
             for r in range(rows) for f in (0.25, 0.75)]
    spots += [(c * sw + uw * f, (r + 1) * sh + half) for r in range(rows - 1)
              for c in range(cols) for f in (0.25, 0.75)]
    for x, y in spots:
        if x > size_mm[0] - 3 or y > size_mm[1] - 3:
            continue  # beyond the board: the board's own edge matches those pages
        out.append(svg_circle(x, y, 1.5, stroke="#c00", width=0.2))
        out.append(svg_line(x - 3, y, x + 3, y, stroke="#c00", width=0.2))
        out.append(svg_line(x, y - 3, x, y + 3, stroke="#c00", width=0.2))
    return out


def template_tiles(hw):
    """One SVG per A4 page of the tiled template."""
    orient, (cols, rows), tiles, page = a4_tiles(hw.size_mm)
    pw, ph = page
    m = TILE_MARGIN_MM
    uw, uh = pw - 2 * m, ph - 2 * m
    sw, sh = uw - TILE_OVERLAP_MM, uh - TILE_OVERLAP_MM
    body = template_body(hw) + _join_marks(hw.size_mm, cols, rows, sw, sh, uw, uh)
    pages = []
    for n, (c, r, x0, y0) in enumerate(tiles):
        out = svg_open(pw, ph, unit="mm", bg="#fff")
        out.append('<defs><clipPath id="tile"><rect x="%s" y="%s" width="%s" height="%s"/>'
                   '</clipPath></defs>' % (num(x0), num(y0), num(uw), num(uh)))
        out.append('<g transform="translate(%s %s)"><g clip-path="url(#tile)">'
                   % (num(m - x0), num(m - y0)))
        out += body
        out.append("</g></g>")
        # this page's frame: trim along it when it goes on top of a neighbour
        out.append(svg_rect(m, m, uw, uh, stroke="#888", width=0.2))
        if c + 1 < cols:
            x = m + sw
            out.append(svg_line(x, m, x, m + uh, stroke="#c00", width=0.3,
                             extra=' stroke-dasharray="3 2"'))
            out.append(svg_text(x + 1.2, m + uh - 2, "page %d's frame goes here"
                             % (n + 2), 2.6, fill="#c00",
                             extra=' transform="rotate(-90 %s %s)"' % (num(x + 2.8),
                                                                       num(m + uh - 2))))
        if r + 1 < rows:
            y = m + sh
            out.append(svg_line(m, y, m + uw, y, stroke="#c00", width=0.3,
                             extra=' stroke-dasharray="3 2"'))
            out.append(svg_text(m + 2, y + 3.4, "page %d's frame goes here" % (n + 1 + cols),
                             2.6, fill="#c00"))
        foot = _wrap("%s template, A4 %s, page %d of %d (row %d, column %d). Print at 100 "
                     "%%. Trim a page's top and left margins along its grey frame and lay "
                     "that edge on the red dashed line of the page before; match the red join "
                     "marks, tape." % (hw.places.TITLE, orient, n + 1, len(tiles), r + 1, c + 1),
                     2.4, uw)
        for k, line in enumerate(foot):  # centred on where a one-line footer stands
            out.append(svg_text(m, ph - 5.5 + (k - (len(foot) - 1) / 2.0) * 2.9, line, 2.4))
        # a 50 mm check on every page
        out.append(svg_line(pw - m - 50, m - 4, pw - m, m - 4, width=0.35))
        for i in range(6):
            out.append(svg_line(pw - m - 50 + 10 * i, m - 5.5, pw - m - 50 + 10 * i, m - 4,
                             width=0.2))
        out.append(svg_text(pw - m - 52, m - 4, "50 mm", 2.6, anchor="end"))
        out.append("</svg>")
        pages.append("\n".join(out) + "\n")
    return pages, page
