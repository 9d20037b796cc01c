"""Halunken & Spelunken's simulated board as a picture: the last LED frame of a simulator
report laid out on the board definition's ring (board_def/halunken.json), as SVG, or as PNG
through cairosvg; and the same layout for the web page (`page_geometry`).

    svg(board, report) -> str          the picture as SVG text
    write(board, report, path)         SVG or PNG by the file's extension
    check_output(path)                 why `path` cannot be written, or None
    page_geometry(board)               the ring without its lights, and where each light goes

    python -m host_tools sim --game halunken --scenario F --render out.png

The harbour's water, the ring of 14 taverns and, on top of it, every pixel of the strip in
its colour at full level (host_tools/drawing.py): each tavern's space light (the figure on
it: a captain in its seat's colour, marked 1-4, Black-Jack marked BJ; off when vacant), its
pile light beside it towards the centre (three levels of white for 3, 2, 1 cards: drawn at
the level the frame has, with the count), the seat lights at the table's edges, the port in
the centre and the 8 round lights. A panel on the right tells the public game
(picturepanel.py). Nothing of the report's `hidden` is read: no secret choice, no pile
below its top card, no deck order; a pile's top card is named only when the report shows it
(after the blind set-up, H5).
"""

import math

from host_tools import drawing
from host_tools.drawing import (
    FONT,
    INK,
    NAVY,
    Picture,
    draw_pixel_disc,
    element,
    full_level,
    hex_rgb,
    known_colours,
    luma,
    svg_text,
    unscaled,
)

BOARD_W = 800  # the ring's square; the board's frame is scaled into it
PANEL_W = 420
WIDTH = BOARD_W + PANEL_W
HEIGHT = BOARD_W
SPACE_R = 24  # a tavern's space light
PILE_R = 9  # its pile light
SEAT_R = 15
PORT_R = 20
ROUND_R = 8
TAVERN_HALF = 38  # half a tavern tile's width along the ring
# Distances from a tavern's space light towards the ring's centre: the tile reaches out
# TILE_OUT and in TILE_IN; on it the name under the light and the pile light; beyond it the
# pile's count and its top card's name.
TILE_OUT = 38
TILE_IN = 76
NAME_IN = 37
PILE_IN = 58
TOP_IN = 103
WATER = "#1d5f7a"
WATER_DEEP = "#16475d"
RING = "#c9a86a"  # the quay the taverns stand on
WOOD = "#8a5a2b"
WOOD_DARK = "#5a3716"
PAPER = "#f6efd9"
FIGURES = ("p1", "p2", "p3", "p4")


def _defaults():
    try:
        from games.halunken.view import DEFAULTS
    except ImportError:  # the firmware is not importable: the palette alone
        return {}
    return DEFAULTS


def colours(board):
    return known_colours(board, _defaults())


# ------------------------------------------------------------------ geometry

def layout(board):
    """Where everything goes, in picture units: a dict of the ring's centre and radius,
    and per tavern its space, pile, name and top card's positions; seats, port, rounds."""
    fw, fh = board.frame or (1000, 1000)
    s = min(BOARD_W / fw, BOARD_W / fh)

    def at(xy):
        return (round(xy[0] * s, 1), round(xy[1] * s, 1))

    spaces = [at(xy) for xy in board.tavern_xy]
    cx = sum(x for x, _ in spaces) / len(spaces)
    cy = sum(y for _, y in spaces) / len(spaces)
    radius = sum(math.hypot(x - cx, y - cy) for x, y in spaces) / len(spaces)
    taverns = []
    for x, y in spaces:
        d = math.hypot(x - cx, y - cy) or 1.0
        ux, uy = (cx - x) / d, (cy - y) / d  # towards the centre

        def step(k, ux=ux, uy=uy, x=x, y=y):
            return (round(x + ux * k, 1), round(y + uy * k, 1))

        side = abs(ux)  # 1 where the centre is to the side: texts are wide, not tall
        top = step(TOP_IN + 20 * side)  # the top card's name; the count just above it
        taverns.append({"space": (x, y), "tile": step((TILE_IN - TILE_OUT) / 2),
                        "name": step(NAME_IN + 4 * side), "pile": step(PILE_IN + 6 * side),
                        "count": (top[0], round(top[1] - 15, 1)), "top": top,
                        "angle": math.atan2(-uy, -ux)})
    return {"centre": (round(cx, 1), round(cy, 1)), "radius": round(radius, 1),
            "taverns": taverns, "seats": [at(xy) for xy in board.seat_xy],
            "port": at(board.port_xy), "rounds": [at(xy) for xy in board.round_xy]}


def _backdrop(pic, board, lay):
    """The ring without any light: water, the quay, the taverns' tiles and names, the
    places of the seats, port and rounds named."""
    cx, cy = lay["centre"]
    r = lay["radius"]
    pic.add(element("rect", x=0, y=0, width=BOARD_W, height=BOARD_W, rx=18, fill=WATER))
    for k in range(6):  # a few swells on the water
        y = 60 + k * 140
        pic.add(element("path", d="M20,%d q40,-14 80,0 t80,0 t80,0" % y, fill="none",
                        stroke=WATER_DEEP, stroke_width=3, stroke_linecap="round"))
        pic.add(element("path", d="M%d,%d q40,-14 80,0 t80,0" % (560, y + 70), fill="none",
                        stroke=WATER_DEEP, stroke_width=3, stroke_linecap="round"))
    quay_out, quay_in = TILE_OUT + 12, TILE_IN + 8
    pic.add(element("circle", cx=cx, cy=cy, r=r + (quay_out - quay_in) / 2, fill="none",
                    stroke=RING, stroke_width=quay_out + quay_in, opacity=0.95))
    pic.add(element("circle", cx=cx, cy=cy, r=r, fill="none", stroke="#a8884d",
                    stroke_width=2, stroke_dasharray="6 10"))
    pic.add(element("circle", cx=cx, cy=cy, r=r - quay_in, fill=WATER_DEEP, opacity=0.55))
    for t, tav in enumerate(lay["taverns"]):
        x, y = tav["tile"]
        half = (TILE_OUT + TILE_IN) / 2
        deg = math.degrees(tav["angle"]) + 90
        pic.add(element("rect", x=x - TAVERN_HALF, y=y - half, width=2 * TAVERN_HALF,
                        height=2 * half, rx=10, fill=WOOD, stroke=WOOD_DARK,
                        stroke_width=3,
                        transform="rotate(%.1f %.1f %.1f)" % (deg, x, y)))
        nx, ny = tav["name"]
        pic.add(svg_text(nx, ny + 5, "T%d" % (t + 1), size=14, weight="bold",
                         anchor="middle", fill=PAPER))
    for x, y in lay["seats"]:
        pic.add(element("rect", x=x - 34, y=y - 24, width=68, height=48, rx=12,
                        fill=WOOD_DARK, opacity=0.85))
    px, py = lay["port"]
    pic.add(element("circle", cx=px, cy=py, r=PORT_R + 16, fill=RING, stroke=WOOD_DARK,
                    stroke_width=3))
    pic.add(svg_text(px, py + PORT_R + 34, "PORT", size=14, weight="bold", anchor="middle",
                     fill=PAPER, spacing=2))
    if lay["rounds"]:
        xs = [x for x, _ in lay["rounds"]]
        y = lay["rounds"][0][1]
        pic.add(element("rect", x=min(xs) - 18, y=y - 18, width=max(xs) - min(xs) + 36,
                        height=36, rx=18, fill=WOOD_DARK, opacity=0.85))
        pic.add(svg_text((min(xs) + max(xs)) / 2, y + 36, "ROUNDS 1-8", size=13,
                         weight="bold", anchor="middle", fill=PAPER, spacing=2))


# ------------------------------------------------------------------ the lights

def _light(board, leds, led, known):
    return full_level(leds[led], board, known)


def _lights(pic, board, report, leds, known, lay):
    seats = list(report.get("captains") or {})
    on_space = {}  # a space's figures (two for a moment: a mover landed on a captain, H9)
    for s in sorted(seats):
        where = report["captains"][s]
        if where:
            on_space[where] = on_space.get(where, []) + [s[1:]]
    if report.get("blackjack"):
        on_space[report["blackjack"]] = on_space.get(report["blackjack"], []) + ["BJ"]
    taverns = report.get("taverns") or {}
    for t, tav in enumerate(lay["taverns"]):
        name = "T%d" % (t + 1)
        led = board.space_led[t]
        rgb, cname = _light(board, leds, led, known)
        x, y = tav["space"]
        draw_pixel_disc(pic, x, y, SPACE_R, rgb, cname, "space-" + name,
                        "%s: space light %s" % (name, cname or hex_rgb(rgb)))
        mark = "+".join(on_space.get(name, ()))
        if mark and cname != "off":
            pic.add(svg_text(x, y + 7, mark, size=19 if len(mark) == 1 else 14, weight="bold",
                             anchor="middle", fill="#ffffff" if luma(rgb) < 140 else INK))
        pled = board.pile_led[t]
        prgb = unscaled(leds[pled], board)
        _, pname = _light(board, leds, pled, known)
        draw_pixel_disc(pic, tav["pile"][0], tav["pile"][1], PILE_R,
                        prgb, "off" if pname == "off" else pname, "pile-" + name,
                        "%s: pile light" % name)
        info = taverns.get(name) or {}
        left = info.get("left")
        if left is not None:
            pic.add(svg_text(tav["count"][0], tav["count"][1] + 5, "%d" % left, size=14,
                             weight="bold", anchor="middle", fill=PAPER))
        if info.get("top"):
            pic.add(svg_text(tav["top"][0], tav["top"][1] + 4, info["top"], size=11,
                             anchor="middle", fill=PAPER, weight="bold"))
    for s, (x, y) in enumerate(lay["seats"]):
        rgb, cname = _light(board, leds, board.seat_led[s], known)
        draw_pixel_disc(pic, x - 14, y, SEAT_R, rgb, cname, "seat-p%d" % (s + 1),
                        "seat p%d" % (s + 1))
        playing = "p%d" % (s + 1) in seats
        pic.add(svg_text(x + 16, y + 6, "p%d" % (s + 1), size=16, weight="bold",
                         anchor="middle", fill=PAPER if playing else "#9b8a6a"))
    px, py = lay["port"]
    rgb, cname = _light(board, leds, board.port_led, known)
    draw_pixel_disc(pic, px, py, PORT_R, rgb, cname, "port", "port light")
    port = report.get("port")
    if port is not None:
        pic.add(svg_text(px, py + PORT_R + 52, "%d card%s" % (len(port), "" if len(port) == 1
                                                               else "s"),
                         size=12, anchor="middle", fill=PAPER))
    for r, (x, y) in enumerate(lay["rounds"]):
        led = board.round_led[r]
        rgb = unscaled(leds[led], board)
        _, cname = _light(board, leds, led, known)
        draw_pixel_disc(pic, x, y, ROUND_R, rgb, cname, "round-%d" % (r + 1),
                        "round %d" % (r + 1))


# ------------------------------------------------------------------ entry points

def svg(board, report):
    """The picture of `report` (the simulator's JSON report) on `board`, as SVG text."""
    from host_tools.games.halunken.picturepanel import draw_panel

    leds = report.get("leds")
    if not isinstance(leds, list) or len(leds) != board.led_count:
        raise ValueError("the report's leds must list the board's %d pixels, got %s"
                         % (board.led_count, "%d" % len(leds) if isinstance(leds, list)
                            else repr(leds)))
    known = colours(board)
    lay = layout(board)
    pic = Picture()
    _backdrop(pic, board, lay)
    _lights(pic, board, report, leds, known, lay)
    draw_panel(pic, board, report, leds, known, BOARD_W, WIDTH, HEIGHT)
    return drawing.svg_document(WIDTH, HEIGHT, "Halunken & Spelunken: round %s, step %s" % (
        report.get("round"), report.get("step")), pic)


check_output = drawing.check_output


def write(board, report, out_path):
    """Write the picture to `out_path`: SVG for .svg, PNG for .png."""
    drawing.write(lambda: svg(board, report), out_path)


def page_geometry(board):
    """The ring as the web page draws it: the backdrop without any light as SVG, and
    where this picture puts every light, so the page lights the same drawing from any LED
    frame."""
    lay = layout(board)
    pic = Picture()
    _backdrop(pic, board, lay)
    return {
        "width": BOARD_W, "height": BOARD_W,
        "backdrop": "<defs>%s</defs>%s" % ("".join(pic.defs), "".join(pic.body)),
        "taverns": [{"id": "T%d" % (t + 1), "space_led": board.space_led[t],
                     "pile_led": board.pile_led[t], "space": list(tav["space"]),
                     "pile": list(tav["pile"]), "count": list(tav["count"]),
                     "top": list(tav["top"])}
                    for t, tav in enumerate(lay["taverns"])],
        "seats": [{"id": "p%d" % (s + 1), "led": board.seat_led[s], "x": x, "y": y}
                  for s, (x, y) in enumerate(lay["seats"])],
        "port": {"led": board.port_led, "x": lay["port"][0], "y": lay["port"][1]},
        "rounds": [{"led": board.round_led[r], "x": x, "y": y}
                   for r, (x, y) in enumerate(lay["rounds"])],
        "palette": {name: list(rgb) for name, rgb in colours(board)},
        "brightness": board.brightness,
        "led_count": board.led_count,
        "style": {"ink": INK, "off": drawing.OFF_GREY, "navy": NAVY, "paper": PAPER,
                  "font": FONT, "space_r": SPACE_R, "pile_r": PILE_R, "seat_r": SEAT_R,
                  "port_r": PORT_R, "round_r": ROUND_R},
    }
