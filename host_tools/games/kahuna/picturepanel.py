"""The panel right of Kahuna's picture (picture.py): the status pixels, the game as the
report tells it (phase, round, turn, scores, supply, hands, the last rejection) and a
legend of what the picture's marks mean."""

from host_tools.drawing import (
    INK,
    MONO,
    NAVY,
    OFF_GREY,
    draw_pixel_disc,
    element,
    hex_rgb,
    svg_text,
)
from host_tools.games.kahuna.picturekit import (
    BOARD_W,
    BRIDGE_W,
    HEIGHT,
    PANEL_BG,
    PANEL_MUTED,
    PANEL_W,
    PIXEL_R,
    SAND,
    STATUS_TITLES,
    WIDTH,
    bar_width,
    draw_rays,
    draw_stone,
    full_level,
)


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
    pic.add(svg_text(x, y, s.upper(), size=12, fill=PANEL_MUTED, weight="bold", spacing=2))
    pic.add(element("line", x1=x, y1=y + 6, x2=WIDTH - 24, y2=y + 6, stroke="#d8c896",
                stroke_width=1))


def _swatch(pic, x, y, rgb, r=8):
    pic.add(element("circle", cx=x, cy=y, r=r, fill=hex_rgb(rgb), stroke=INK, stroke_width=2))


def _player(name):
    return name.capitalize() if isinstance(name, str) else str(name)


def draw_panel(pic, board, report, leds, known):
    x0 = BOARD_W
    x = x0 + 24
    pal = board.palette
    pic.add(element("rect", x=x0, y=0, width=PANEL_W, height=HEIGHT, fill=PANEL_BG))
    pic.add(element("rect", x=x0, y=0, width=6, height=HEIGHT, fill=SAND))
    pic.add(svg_text(x, 50, "KAHUNA", size=36, weight="bold", spacing=6))
    pic.add(svg_text(x + 2, 72, "smart board \u00b7 simulator \u00b7 last LED frame", size=13,
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
        draw_pixel_disc(pic, cx, y + 30, 13, rgb, cname, "status-" + sname, title)
        label = STATUS_TITLES.get(sname, sname.replace("_", " "))
        pic.add(svg_text(cx, y + 60, label, size=12, anchor="middle"))
        shown = (cname or hex_rgb(rgb)).replace("phase_", "").replace("_", " ")
        pic.add(svg_text(cx, y + 75, shown, size=11, anchor="middle", fill=PANEL_MUTED))

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
    pic.add(svg_text(x, y + 28, line, size=17, weight="bold"))
    turn = report.get("turn")
    winner = report.get("winner")
    if phase == "over":
        if winner in pal:
            _swatch(pic, x + 8, y + 50, pal[winner])
            pic.add(svg_text(x + 24, y + 55, "Game over: %s wins" % _player(winner), size=16))
        else:
            pic.add(svg_text(x, y + 55, "Game over: a draw", size=16))
    elif turn:
        verb = {"deal": "'s cards are dealt", "handicap": " places handicap bridges",
                "draw": " draws or declines"}.get(phase, " to play")
        if turn in pal:
            _swatch(pic, x + 8, y + 50, pal[turn])
        text = _player(turn) + verb
        if report.get("must_draw"):
            text += " (must draw)"
        pic.add(svg_text(x + 24, y + 55, text, size=16))
    scores = report.get("scores") or {}
    line = "Score: White %s \u00b7 Black %s" % (scores.get("white", 0), scores.get("black", 0))
    pic.add(svg_text(x, y + 80, line, size=15))
    rounds = report.get("round_scores") or []
    if rounds:
        line = "Scorings: " + " \u00b7 ".join(
            "%d\u2013%d" % (r["white"], r["black"]) for r in rounds) + " (white\u2013black)"
    else:
        line = "No round scored yet"
    pic.add(svg_text(x, y + 100, line, size=13, fill=PANEL_MUTED))
    bridges = report.get("bridges") or {}
    control = report.get("control") or {}
    counts = []
    for p in ("white", "black"):
        n_isl = sum(1 for v in control.values() if v == p)
        n_br = sum(1 for v in bridges.values() if v == p)
        counts.append("%s: %d island%s, %d bridge%s" % (
            _player(p), n_isl, "" if n_isl == 1 else "s", n_br, "" if n_br == 1 else "s"))
    pic.add(svg_text(x, y + 118, " \u00b7 ".join(counts), size=12, fill=PANEL_MUTED))

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
        pic.add(svg_text(x + 24, y, _player(p), size=16, weight="bold"))
        pic.add(svg_text(x + 90, y, "%s bridges in supply \u00b7 %d in hand" % (
            supply.get(p, "?"), len(hand)), size=14))
        cy = y + 12
        if not hand:
            pic.add(svg_text(x + 24, cy + 18, "no cards", size=13, fill=PANEL_MUTED))
        for j, card in enumerate(hand):
            cx = x + 24 + j * 66
            pic.add(element("rect", x=cx, y=cy, width=60, height=26, rx=4, fill="#fffdf4",
                        stroke=NAVY, stroke_width=1.5))
            pic.add(svg_text(cx + 30, cy + 18, card, size=12, weight="bold", anchor="middle",
                          family=MONO))
        y += 62
    pic.add(svg_text(x, y - 4, "Discard pile %s \u00b7 drawable %s" % (
        report.get("discard", "?"), report.get("drawable", "?")), size=14))

    # The last rejection.
    y = 530
    _heading(pic, x, y, "Last rejection")
    rejected = report.get("rejected") or []
    if rejected:
        r = rejected[-1]
        more = " (%d in all)" % len(rejected) if len(rejected) > 1 else ""
        pic.add(svg_text(x, y + 26, "line %s: %s%s" % (r.get("line"), r.get("code"), more),
                      size=15, weight="bold", fill="#b3261e"))
        for j, ln in enumerate(_wrap(str(r.get("message", "")), 44)[:2]):
            pic.add(svg_text(x, y + 46 + 18 * j, ln, size=14, fill="#5a1712"))
    else:
        pic.add(svg_text(x, y + 26, "none", size=15, fill=PANEL_MUTED))

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
                pic.add(element("line", x1=cx, y1=cy, x2=cx + 40, y2=cy, stroke=hex_rgb(rgb),
                            stroke_width=BRIDGE_W + 12, opacity=0.35, stroke_linecap="round"))
                draw_rays(pic, cx + 20, cy, PIXEL_R + 3, PIXEL_R + 8)
            width = bar_width(rgb)
            pic.add(element("line", x1=cx, y1=cy, x2=cx + 40, y2=cy, stroke=INK,
                        stroke_width=width + 5, stroke_linecap="round"))
            pic.add(element("line", x1=cx, y1=cy, x2=cx + 40, y2=cy, stroke=hex_rgb(rgb),
                        stroke_width=width, stroke_linecap="round"))
            pic.add(element("circle", cx=cx + 20, cy=cy, r=PIXEL_R - 1, fill=hex_rgb(rgb),
                            stroke=INK, stroke_width=2))
        elif kind == "island":
            pic.add(element("circle", cx=cx + 20, cy=cy, r=13, fill=hex_rgb(rgb), stroke=INK,
                        stroke_width=2.5))
        elif kind == "off-island":
            draw_pixel_disc(pic, cx + 20, cy, 13, (0, 0, 0), "off", None, None)
        elif kind == "stone":
            pic.add(element("circle", cx=cx + 12, cy=cy, r=13, fill=hex_rgb(rgb), stroke=INK,
                        stroke_width=2.5))
            draw_stone(pic, cx + 34, cy - 2, rgb, label, "legend-stone")
        else:
            pic.add(element("line", x1=cx, y1=cy, x2=cx + 40, y2=cy, stroke=OFF_GREY,
                        stroke_width=7, stroke_dasharray="9 6"))
        pic.add(svg_text(cx + 54, cy + 5, label, size=13))
