"""Kami's simulated card table as a picture: the last LED frame of a simulator report laid
out on the board definition's places (board_def/kami.json), as SVG, or as PNG through
cairosvg; and the same layout for the web page (`page_geometry`).

    svg(board, report) -> str          the picture as SVG text
    write(board, report, path)         SVG or PNG by the file's extension
    check_output(path)                 why `path` cannot be written, or None
    page_geometry(board)               the table without its lights, and where each goes

    python -m host_tools sim --game kami --scenario F --render out.png

The cloth of the table and, on it, every pixel of the strip in its colour at full level
(host_tools/drawing.py): each seat's light (pulsing: to act, drawn full; steady: the
attacker; dim: passed) named with its hand size, its defence light (blue face down, white
face up), the Empress light, the 8 centre stacks' lights of the 2-player game with the
face-up card and the cards left, and the three score tracks with their side and score. Each
seat's lines lie beside its lights as small cards (SOL-3, IMP-1: the legend names the
kinds): the defence line by the defence light, the attack line by the seat light; a
face-down card is a card's back, never named (rules 8.3). A panel on the right tells the
public game (picturepanel.py). Nothing of the report's `hands` or `hidden` is read, nor the
name of a face-down card in `lines`.
"""

from host_tools import drawing
from host_tools.drawing import (
    FONT,
    INK,
    NAVY,
    Picture,
    draw_pixel_disc,
    element,
    full_level,
    known_colours,
    svg_text,
    unscaled,
)

BOARD_W = 800  # the table's square; the board's frame is scaled into it
PANEL_W = 440
WIDTH = BOARD_W + PANEL_W
HEIGHT = BOARD_W
SEAT_R = 17
DEFENCE_R = 13
EMPRESS_R = 18
STACK_R = 12
TRACK_R = 10
CARD_W = 58
CARD_H = 22
CARD_GAP = 5
CLOTH = "#2f6b3f"
CLOTH_DARK = "#24573a"
RIM = "#5a3716"
PAPER = "#f3efe0"
BACK = "#27408b"  # a face-down card's back
GOLD = "#f2c14e"  # the current attack card's frame
SEATS = ("p1", "p2", "p3", "p4")
# The table's short names of the kinds (the legend names them in full).
SHORT = {"SOLDAT": "SOL", "LANCE": "LAN", "CAVALIER": "CAV", "ARGENT": "ARG", "OR": "OR",
         "TOUR": "TOUR", "FOU": "FOU", "IMPERATRICE": "IMP"}


def short(card):
    """`IMPERATRICE-1` -> `IMP-1`, as the table writes a card."""
    kind, _, n = card.rpartition("-")
    return "%s-%s" % (SHORT.get(kind, kind), n)


def _defaults():
    try:
        from games.kami.view import DEFAULTS
    except ImportError:  # the firmware is not importable: the palette alone
        return {}
    return DEFAULTS


def colours(board):
    return known_colours(board, _defaults())


# ------------------------------------------------------------------ geometry

def layout(board):
    """Where everything goes, in picture units: seats (their light, defence light, label
    and the direction their card lines run), Empress, stacks and each track's lights."""
    fw, fh = board.frame or (1000, 1000)
    s = min(BOARD_W / fw, BOARD_W / fh)

    def at(xy):
        return (round(xy[0] * s, 1), round(xy[1] * s, 1))

    mid = BOARD_W / 2
    seats = []
    for i in range(len(board.seat_led)):
        x, y = at(board.seat_xy[i])
        dx, dy = at(board.defence_xy[i])
        # Seats at the top and bottom edges lay their lines to the right, those at the
        # sides downwards; a seat's name and hand size on the other side of its light.
        across = abs(y - mid) >= abs(x - mid)
        seats.append({"id": SEATS[i], "light": (x, y), "defence": (dx, dy),
                      "run": "right" if across else "down",
                      "label": (x - SEAT_R - 10, y) if across else (x, y - SEAT_R - 22)})
    tracks = []
    for t in range(len(board.track_led)):
        (x1, y1), (x2, y2) = board.track_xy[t]
        n = len(board.track_led[t]) - 1
        tracks.append([at((x1 + (x2 - x1) * k / n, y1 + (y2 - y1) * k / n))
                       for k in range(n + 1)])
    return {"seats": seats, "empress": at(board.empress_xy),
            "stacks": [at(xy) for xy in board.centre_xy], "tracks": tracks}


def card_places(seat, count, which):
    """The top-left corners of `count` cards of a seat's `which` line ("defence" or
    "attack"), beside the line's light (the defence light, the seat light)."""
    x, y = seat["defence"] if which == "defence" else seat["light"]
    r = DEFENCE_R if which == "defence" else SEAT_R
    out = []
    for k in range(count):
        if seat["run"] == "right":
            out.append((x + r + 10 + k * (CARD_W + CARD_GAP), y - CARD_H / 2))
        else:
            out.append((x - CARD_W / 2, y + r + 10 + k * (CARD_H + CARD_GAP)))
    return out


def _backdrop(pic, board, lay):
    """The table without any light: the cloth, the seats' places, the Empress's, the
    centre's and the tracks' grooves with their point marks."""
    pic.add(element("rect", x=0, y=0, width=BOARD_W, height=BOARD_W, rx=18, fill=RIM))
    pic.add(element("rect", x=10, y=10, width=BOARD_W - 20, height=BOARD_W - 20, rx=12,
                    fill=CLOTH))
    pic.add(element("rect", x=24, y=24, width=BOARD_W - 48, height=BOARD_W - 48, rx=10,
                    fill="none", stroke=CLOTH_DARK, stroke_width=3))
    for seat in lay["seats"]:
        for (x, y), r in ((seat["light"], SEAT_R), (seat["defence"], DEFENCE_R)):
            pic.add(element("circle", cx=x, cy=y, r=r + 7, fill=CLOTH_DARK))
    ex, ey = lay["empress"]
    pic.add(element("circle", cx=ex, cy=ey, r=EMPRESS_R + 9, fill=CLOTH_DARK))
    pic.add(svg_text(ex, ey + EMPRESS_R + 24, "EMPRESS", size=12, weight="bold",
                     anchor="middle", fill=PAPER, spacing=2))
    st = lay["stacks"]
    if st:
        xs = [x for x, _ in st]
        y = st[0][1]
        pic.add(element("rect", x=min(xs) - 22, y=y - 22, width=max(xs) - min(xs) + 44,
                        height=44, rx=14, fill=CLOTH_DARK))
        for i, (x, y) in enumerate(st):
            pic.add(svg_text(x, y - STACK_R - 14, "%d" % (i + 1), size=10, anchor="middle",
                             fill="#a9c9b0"))
        pic.add(svg_text((min(xs) + max(xs)) / 2, y + 62, "CENTRE STACKS (2 PLAYERS)",
                         size=11, weight="bold", anchor="middle", fill="#a9c9b0", spacing=2))
    for lights in lay["tracks"]:
        (x1, y1), (x2, y2) = lights[0], lights[-1]
        pic.add(element("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=CLOTH_DARK,
                        stroke_width=2 * TRACK_R + 10, stroke_linecap="round"))
        for k in (4, 9, 14):  # points 5, 10, 15
            x, y = lights[k]
            pic.add(svg_text(x, y + TRACK_R + 16, "%d" % (k + 1), size=10, anchor="middle",
                             fill="#a9c9b0"))


# ------------------------------------------------------------------ the lights

def preferring(known, names):
    """`known` with `names` first: a colour two palette entries share (white: a face-up
    defence and the cursor; a seat's and its team's) is named as the light means it."""
    return [k for k in known if k[0] in names] + [k for k in known if k[0] not in names]


def _shown(board, raw, known, bright=False):
    """(colour to draw, name) of a pixel: at full level, or dimmed as the frame has it
    (a passed seat, a stack's last card) unless `bright` (a pulsing seat)."""
    rgb, name = full_level(raw, board, known)
    if name == "off" or bright:
        return rgb, name
    level = max(unscaled(raw, board)) / float(max(rgb) or 1)
    if level < 0.45:
        return tuple(int(c * 0.4) for c in rgb), name
    return rgb, name


def _card(pic, x, y, entry, current):
    """One card of a line: face up with its short name (a centre card dashed), or its
    back (face down, never named)."""
    if entry["face"] == "down":
        pic.add(element("rect", "a face-down card", x=x, y=y, width=CARD_W, height=CARD_H,
                        rx=4, fill=BACK, stroke=PAPER, stroke_width=1.5, data_face="down"))
        pic.add(element("rect", x=x + 4, y=y + 4, width=CARD_W - 8, height=CARD_H - 8, rx=2,
                        fill="none", stroke="#8ea2d8", stroke_width=1,
                        stroke_dasharray="3 2"))
        return
    pic.add(element("rect", entry["card"], x=x, y=y, width=CARD_W, height=CARD_H, rx=4,
                    fill=PAPER, stroke=GOLD if current else INK,
                    stroke_width=3 if current else 1.2,
                    stroke_dasharray="4 2" if entry["from"] == "centre" else None,
                    data_face="up"))
    pic.add(svg_text(x + CARD_W / 2, y + CARD_H / 2 + 4, short(entry["card"]), size=11,
                     weight="bold", anchor="middle", fill=NAVY))


def _side_names(report):
    return ("team1", "team2") if report.get("players") == 4 else SEATS


def _seat(pic, board, report, leds, known, seat, s):
    x, y = seat["light"]
    sid = seat["id"]
    known = preferring(known, _side_names(report))
    playing = sid in (report.get("hand_sizes") or {})
    rgb, name = _shown(board, leds[board.seat_led[s]], known, sid == report.get("turn"))
    draw_pixel_disc(pic, x, y, SEAT_R, rgb, name, "seat-" + sid, "seat %s" % sid)
    dx, dy = seat["defence"]
    drgb, dname = full_level(leds[board.defence_led[s]], board,
                             preferring(known, ("defence_down", "defence_up")))
    draw_pixel_disc(pic, dx, dy, DEFENCE_R, drgb, dname, "defence-" + sid,
                    "%s: defence light" % sid)
    lx, ly = seat["label"]
    anchor = "end" if seat["run"] == "right" else "middle"
    pic.add(svg_text(lx, ly + 2, sid, size=18, weight="bold", anchor=anchor,
                     fill=PAPER if playing else "#7f9c86"))
    if playing:
        n = report["hand_sizes"][sid]
        pic.add(svg_text(lx, ly + 18, "%d in hand" % n, size=11, anchor=anchor, fill=PAPER))
    line = (report.get("lines") or {}).get(sid)
    if not line:
        return
    attack = report.get("attack")
    for which in ("defence", "attack"):
        cards = line[which]
        for k, ((cx, cy), e) in enumerate(zip(card_places(seat, len(cards), which), cards)):
            current = (which == "attack" and k == len(cards) - 1 and attack is not None
                       and attack["seat"] == sid and attack["card"] == e["card"])
            _card(pic, cx, cy, e, current)


def _lights(pic, board, report, leds, known, lay):
    for s, seat in enumerate(lay["seats"]):
        _seat(pic, board, report, leds, known, seat, s)
    ex, ey = lay["empress"]
    rgb, name = full_level(leds[board.empress_led], board, known)
    draw_pixel_disc(pic, ex, ey, EMPRESS_R, rgb, name, "empress", "Empress light")
    centre = report.get("centre")
    for i, (x, y) in enumerate(lay["stacks"]):
        rgb, name = _shown(board, leds[board.centre_led[i]], known)
        draw_pixel_disc(pic, x, y, STACK_R, rgb, name, "stack-%d" % (i + 1),
                        "centre stack %d" % (i + 1))
        if centre and i < len(centre):
            st = centre[i]
            if st["up"]:
                pic.add(svg_text(x, y + STACK_R + 16, short(st["up"]), size=10,
                                 weight="bold", anchor="middle", fill=PAPER))
            pic.add(svg_text(x, y + STACK_R + 29, "%d left" % st["left"], size=9,
                             anchor="middle", fill="#cfe3d4"))
    sides = list((report.get("scores") or {}).items())
    known = preferring(known, _side_names(report))
    for t, lights in enumerate(lay["tracks"]):
        for k, (x, y) in enumerate(lights):
            led = board.track_led[t][k]
            rgb, name = full_level(leds[led], board, known)
            draw_pixel_disc(pic, x, y, TRACK_R, rgb, name, "track-t%d-%d" % (t + 1, k + 1),
                            "track t%d, point %d" % (t + 1, k + 1))
        x, y = lights[0]
        text = "%s: %d point%s" % (sides[t][0], sides[t][1], "" if sides[t][1] == 1 else
                                   "s") if t < len(sides) else "track t%d: unused" % (t + 1)
        pic.add(svg_text(x - TRACK_R, y - TRACK_R - 8, text, size=12, weight="bold",
                         fill=PAPER if t < len(sides) else "#7f9c86"))


# ------------------------------------------------------------------ entry points

def svg(board, report):
    """The picture of `report` (the simulator's JSON report) on `board`, as SVG text."""
    from host_tools.games.kami.picturepanel import draw_panel

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
    draw_panel(pic, report, known, BOARD_W, WIDTH, HEIGHT)
    return drawing.svg_document(WIDTH, HEIGHT, "Kami: round %s, %s" % (
        report.get("round"), report.get("step") or report.get("phase")), pic)


check_output = drawing.check_output


def write(board, report, out_path):
    """Write the picture to `out_path`: SVG for .svg, PNG for .png."""
    drawing.write(lambda: svg(board, report), out_path)


def page_geometry(board):
    """The table as the web page draws it: the backdrop without any light as SVG, and
    where this picture puts every light and card, so the page lights the same drawing
    from any LED frame."""
    lay = layout(board)
    pic = Picture()
    _backdrop(pic, board, lay)
    seats = []
    for s, seat in enumerate(lay["seats"]):
        seats.append({"id": seat["id"], "led": board.seat_led[s],
                      "defence_led": board.defence_led[s], "light": list(seat["light"]),
                      "defence": list(seat["defence"]), "label": list(seat["label"]),
                      "run": seat["run"]})
    return {
        "width": BOARD_W, "height": BOARD_W,
        "backdrop": "<defs>%s</defs>%s" % ("".join(pic.defs), "".join(pic.body)),
        "seats": seats,
        "empress": {"led": board.empress_led, "x": lay["empress"][0],
                    "y": lay["empress"][1]},
        "stacks": [{"led": board.centre_led[i], "x": x, "y": y}
                   for i, (x, y) in enumerate(lay["stacks"])],
        "tracks": [[{"led": board.track_led[t][k], "x": x, "y": y}
                    for k, (x, y) in enumerate(lights)]
                   for t, lights in enumerate(lay["tracks"])],
        "short": SHORT,
        "palette": {name: list(rgb) for name, rgb in colours(board)},
        "brightness": board.brightness,
        "led_count": board.led_count,
        "style": {"ink": INK, "off": drawing.OFF_GREY, "navy": NAVY, "paper": PAPER,
                  "back": BACK, "gold": GOLD, "font": FONT, "seat_r": SEAT_R,
                  "defence_r": DEFENCE_R, "empress_r": EMPRESS_R, "stack_r": STACK_R,
                  "track_r": TRACK_R, "card_w": CARD_W, "card_h": CARD_H,
                  "card_gap": CARD_GAP},
    }
