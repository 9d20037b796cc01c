"""The panel right of Halunken & Spelunken's ring picture (picture.py): the game as the
report tells it, public information only (never the report's `hidden`): round and step,
who acts, each seat's captain, crew and score, the port, the auction, the cards revealed
this round, how many have chosen, the last refusal, and a legend of the lights."""

import textwrap

from host_tools.drawing import INK, MONO, element, hex_rgb, svg_text

PANEL_BG = "#f4ecd2"
MUTED = "#7a6a3e"
LINE = "#d8c896"


def _heading(pic, x, y, s, right):
    pic.add(svg_text(x, y, s.upper(), size=12, fill=MUTED, weight="bold", spacing=2))
    pic.add(element("line", x1=x, y1=y + 6, x2=right, y2=y + 6, stroke=LINE, stroke_width=1))


def _lines(pic, x, y, text, width, size=13, fill=INK, family=None, step=17):
    for line in textwrap.wrap(text, width) or [""]:
        if family:
            pic.add(svg_text(x, y, line, size=size, fill=fill, family=family))
        else:
            pic.add(svg_text(x, y, line, size=size, fill=fill))
        y += step
    return y


def _who(report):
    if report["phase"] == "over":
        return "Game over: won by %s" % " and ".join(report["winner"] or ["nobody"])
    step = report["step"]
    turn = report["turn"]
    fig = report["figure"]
    for_ = " (for %s)" % ("Black-Jack" if fig == "blackjack" else fig) if (
        fig is not None and fig != turn) else ""
    if step == "choose":
        return "%s chooses a movement card%s" % (turn, for_)
    if step == "reveal":
        return "every choice is in: ok reveals"
    return "%s to act in step %s%s" % (turn or "nobody", step, for_)


def draw_panel(pic, board, report, leds, known, x0, width, height):
    pal = dict(known)
    right = width - 24
    pic.add(element("rect", x=x0, y=0, width=width - x0, height=height, fill=PANEL_BG))
    x = x0 + 24
    pic.add(svg_text(x, 44, "HALUNKEN & SPELUNKEN", size=24, weight="bold", spacing=2))
    pic.add(svg_text(x + 2, 66, "smart board \u00b7 simulator \u00b7 last LED frame", size=13,
                     fill=MUTED))
    y = 100
    pic.add(svg_text(x, y, "Round %s of 8 \u00b7 %s game, %d players" % (
        report["round"], report["mode"], report["players"]), size=16, weight="bold"))
    y = _lines(pic, x, y + 22, _who(report), 44, size=14)
    if report.get("options"):
        y = _lines(pic, x, y, "options: " + " ".join(str(o) for o in report["options"]), 48,
                   size=12, fill=MUTED)
    if report["step"] in ("choose", "reveal"):
        y = _lines(pic, x, y, "%d movement card%s chosen, face down" % (
            report["chosen"], "" if report["chosen"] == 1 else "s"), 48, size=12, fill=MUTED)
    y += 8
    _heading(pic, x, y, "seats", right)
    y += 26
    for s in report["captains"]:
        rgb = pal.get(s, (128, 128, 128))
        pic.add(element("circle", cx=x + 8, cy=y - 5, r=8, fill=hex_rgb(rgb), stroke=INK,
                        stroke_width=2))
        pic.add(svg_text(x + 24, y, "%s on %s" % (s, report["captains"][s] or "-"), size=14,
                         weight="bold"))
        pic.add(svg_text(right, y, "score %d" % report["scores"][s], size=14, weight="bold",
                         anchor="end"))
        crew = report["crews"][s]
        y = _lines(pic, x + 24, y + 17, "crew: " + (" ".join(crew) if crew else "none"), 48,
                   size=11, family=MONO, step=15)
        played = report["played"][s]
        if played:
            y = _lines(pic, x + 24, y, "played: " + " ".join(played), 48, size=11,
                       fill=MUTED, family=MONO, step=15)
        y += 6
    if report["mode"] != "beginner":
        y = _lines(pic, x, y, "Black-Jack on %s%s" % (
            report["blackjack"] or "-", "; turned " + " ".join(report["bj_cards"])
            if report["bj_cards"] else ""), 52, size=12)
    y = _lines(pic, x, y, "port: " + (" ".join(report["port"]) or "empty"), 52, size=12)
    a = report.get("auction")
    if a is not None:
        words = ", ".join("%s %s" % (w["seat"], w["card"] or "passes") for w in a["words"])
        y = _lines(pic, x, y, "auction (opened by %s): %s%s" % (
            a["opener"], words or "no word yet",
            "; won by %s" % a["winner"] if a["winner"] else ""), 52, size=12)
    if report.get("round_cards"):
        y = _lines(pic, x, y, "revealed: " + ", ".join(
            "%s %s%s" % (f, c["card"], " (cancelled)" if c["cancelled"] else "")
            for f, c in report["round_cards"].items()), 52, size=12)
    rejected = report.get("rejected") or []
    if rejected:
        r = rejected[-1]
        y = _lines(pic, x, y + 4, "last refusal (line %s): %s, %s" % (
            r["line"], r["code"], r["message"]), 50, size=12, fill="#b3261e")
    _legend(pic, x, max(y + 14, height - 150), right, pal)


def _legend(pic, x, y, right, pal):
    _heading(pic, x, y, "the lights", right)
    items = (("space: the figure on it (1-4 a captain, BJ Black-Jack)", pal.get("p1")),
             ("pile: 3, 2, 1 cards left as three levels of white", pal.get("pile")),
             ("seat: who acts (pulsing), has chosen (steady)", pal.get("p2")),
             ("port: cards in it (dim), the high bid's colour", pal.get("port")),
             ("rounds: played steady, the current one dim", pal.get("round")))
    y += 24
    for text, rgb in items:
        pic.add(element("circle", cx=x + 7, cy=y - 4, r=6, fill=hex_rgb(rgb or (90, 90, 90)),
                        stroke=INK, stroke_width=1.5))
        pic.add(svg_text(x + 20, y, text, size=11))
        y += 20
