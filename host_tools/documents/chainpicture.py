"""chain.svg: the LED chain drawn over the board, the current order (LED index order)
beside the suggested shorter one. What the board's game draws under the chain (its guide
lines, its named places, the ground's colour) comes from its places (hw.places)."""

import math

from host_tools.documents.hwfigures import PICO_MM
from host_tools.documents.svgkit import num, svg_circle, svg_line, svg_open, svg_rect, svg_text

PANEL_PX = 600.0  # a board panel is at most this wide (1.5 px per mm up to 400 mm)
SAND = "#ecd77a"
INK = "#14213f"
WIRE = "#c0392b"


def _arrow(x1, y1, x2, y2, size, fill):
    """A small arrowhead at the middle of a segment, pointing from 1 to 2."""
    d = math.hypot(x2 - x1, y2 - y1)
    if d < size * 2.5:
        return ""
    ux, uy = (x2 - x1) / d, (y2 - y1) / d
    mx, my = (x1 + x2) / 2 + ux * size / 2, (y1 + y2) / 2 + uy * size / 2
    pts = [(mx, my), (mx - ux * size - uy * size * 0.55, my - uy * size + ux * size * 0.55),
           (mx - ux * size + uy * size * 0.55, my - uy * size - ux * size * 0.55)]
    return '<polygon points="%s" fill="%s"/>' % (
        " ".join("%s,%s" % (num(x), num(y)) for x, y in pts), fill)


def _crossings(box, pts):
    """How many segments of the polyline `pts` pass through `box` (x0, y0, x1, y1),
    sampled every few pixels."""
    n = 0
    for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
        steps = max(1, int(math.hypot(x2 - x1, y2 - y1) / 3))
        if any(box[0] <= x1 + (x2 - x1) * i / steps <= box[2]
               and box[1] <= y1 + (y2 - y1) * i / steps <= box[3] for i in range(steps + 1)):
            n += 1
    return n


def _label_place(x, y, name, dots, pts, panel):
    """(dx, dy, anchor) of a place's name beside its disc at (x, y): above, else below,
    left or right, where no pixel is and inside the panel, then where the fewest wires of
    `pts` cross it."""
    tw = 6.6 * len(name)
    places = ((0, -19, "middle", -tw / 2), (0, 28, "middle", -tw / 2),
              (-18, 4, "end", -18 - tw), (18, 4, "start", 18))

    def cost(place):
        box = (x + place[3] - 2, y + place[1] - 10, x + place[3] + tw + 2, y + place[1] + 2)
        near = sum(1 for qx, qy in dots if (qx, qy) != (x, y)
                   and box[0] - 9 < qx < box[2] + 9 and box[1] - 9 < qy < box[3] + 9)
        outside = not (panel[0] <= box[0] and box[2] <= panel[2] and panel[1] <= box[1]
                       and box[3] <= panel[3])
        return (near + outside, _crossings(box, pts))

    return min(places, key=cost)[:3]


def _chain_panel(hw, order, ox, oy, k, title):
    """One board drawing at (ox, oy), k px per mm, with `order` as the wire."""
    w, h = hw.size_mm
    b = hw.board

    def at(xy):
        return ox + xy[0] * k, oy + xy[1] * k

    out = [svg_rect(ox, oy, w * k, h * k, stroke=INK, width=1, fill=hw.places.GROUND)]
    out.append(svg_text(ox, oy - 10, title, 17, weight="bold", fill=INK))
    for la, lb in hw.places.guides(b):
        (x1, y1), (x2, y2) = at(hw.pixels[la].xy), at(hw.pixels[lb].xy)
        out.append(svg_line(x1, y1, x2, y2, stroke="#9fb4c7", width=3))
    dots = [at(p.xy) for p in hw.pixels]
    px, py = at(hw.pico_xy)
    pw, ph = PICO_MM[0] * k, PICO_MM[1] * k
    pts = [(px + pw / 2 - 4, py)] + [at(hw.pixels[i].xy) for i in order]
    for name, led in hw.places.landmarks(b):
        x, y = at(hw.pixels[led].xy)
        out.append(svg_circle(x, y, 15, stroke="#b59a3a", width=1, fill=SAND))
        dx, dy, anchor = _label_place(x, y, name, dots, pts, (ox, oy, ox + w * k, oy + h * k))
        out.append(svg_text(x + dx, y + dy, name, 10, anchor=anchor, weight="bold", fill=INK))
    out.append(svg_rect(px - pw / 2, py - ph / 2, pw, ph, stroke="#1e5c2e", width=1,
                     fill="#3b8f4f"))
    out.append(svg_text(px, py + 4, "Pico", 11, anchor="middle", weight="bold", fill="#fff"))
    out.append('<polyline points="%s" fill="none" stroke="%s" stroke-width="2" '
               'stroke-linejoin="round"/>' % (" ".join("%s,%s" % (num(x), num(y))
                                                        for x, y in pts), WIRE))
    for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
        a = _arrow(x1, y1, x2, y2, 7, WIRE)
        if a:
            out.append(a)
    pos = {led: i for i, led in enumerate(order)}
    for p in hw.pixels:
        x, y = at(p.xy)
        r = 8.5
        fill = hw.kinds[p.kind].fill
        out.append(svg_circle(x, y, r, stroke=INK, width=1, fill=fill))
        out.append(svg_text(x, y + 3.3, str(pos[p.led]), 9, anchor="middle", weight="bold",
                         fill=INK))
    return out


def chain_svg(hw):
    k = min(1.5, PANEL_PX / hw.size_mm[0])  # px per mm
    w, h = hw.size_mm
    pad, top, gap = 20, 48, 30
    pw, ph = w * k, h * k
    W = pad * 2 + pw * 2 + gap
    H = top + ph + 44
    out = svg_open(W, H, bg="#fff")
    out += _chain_panel(hw, hw.current, pad, top, k,
                        "Current order (LED index): %.0f mm of wire" % hw.current_mm)
    out += _chain_panel(hw, hw.suggested, pad + pw + gap, top, k,
                        "Suggested order: %.0f mm of wire" % hw.suggested_mm)
    out.append(svg_text(pad, top + ph + 22, "Numbers: position along the data line, from the "
                     "Pico (0 = first pixel). Red: the data wire (with +5 V and GND beside "
                     "it), straight-line lengths at %g x %g mm." % (w, h), 12, fill=INK))
    out.append(svg_text(pad, top + ph + 38, hw.places.chain_note(hw.board), 12, fill=INK))
    out.append("</svg>")
    return "\n".join(out) + "\n"
