"""The panel right of Kami's table picture (picture.py): the game as the report tells it,
public information only (never the report's `hands` or `hidden`, never a face-down card's
name): the settings, round and who acts, the current attack and who passed, the Empress,
the scores, each seat's hand size and lines, a 5-Soldier claim, the scored rounds (their
final defence is revealed, K21), the last refusal, and a legend of the lights and of the
table's short card names."""

import textwrap

from host_tools.drawing import INK, MONO, element, hex_rgb, svg_text

PANEL_BG = "#f1ece0"
MUTED = "#6b6450"
LINE = "#d5cbb0"
STEPS = {"open": "lays a defence face down, then attacks",
         "attack": "attacks",
         "respond": "counters or passes",
         "reveal": "taps the card turned up on the centre"}


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


def who(report):
    """Who acts now and what for, in words."""
    if report["phase"] == "over":
        return "Game over: won by %s" % report["winner"]
    phase = report["phase"]
    if phase == "deal":
        return "waiting for the deal (first player %s)" % report["first"]
    if phase == "centre":
        return "%s taps the centre's face-up cards, stack 1 to 8" % report["turn"]
    if phase == "claim":
        c = report["claim"]
        return "5-Soldier claim by %s (step %s)" % (c["seat"], c["step"])
    return "%s %s" % (report["turn"], STEPS.get(report["step"], report["step"]))


def card_text(e):
    """A line's card for everyone: a face-down card is `##`; `*` a centre card."""
    return (e["card"] if e["face"] == "up" else "##") + ("*" if e["from"] == "centre" else "")


def draw_panel(pic, report, known, x0, width, height):
    pal = dict(known)
    right = width - 24
    pic.add(element("rect", x=x0, y=0, width=width - x0, height=height, fill=PANEL_BG))
    x = x0 + 24
    pic.add(svg_text(x, 44, "KAMI", size=26, weight="bold", spacing=3))
    pic.add(svg_text(x + 2, 66, "smart board \u00b7 simulator \u00b7 last LED frame", size=13,
                     fill=MUTED))
    y = 100
    pic.add(svg_text(x, y, "Round %s \u00b7 %d players \u00b7 %s to %d" % (
        report["round"], report["players"], report["mode"], report["target"]), size=16,
        weight="bold"))
    y = _lines(pic, x, y + 22, who(report), 46, size=14)
    a = report.get("attack")
    if a is not None:
        y = _lines(pic, x, y, "attack: %s by %s%s" % (
            a["card"], a["seat"], "; passed: " + " ".join(report["passed"])
            if report["passed"] else ""), 52, size=12)
    y = _lines(pic, x, y, "Empress attack %s" % (
        "unlocked (an Empress lies face up in defence)" if report["empress_unlocked"]
        else "locked"), 52, size=12)
    y += 8
    _heading(pic, x, y, "scores", right)
    y += 24
    for side, score in report["scores"].items():
        colour = pal.get("team1" if side == "p1+p3" else "team2" if side == "p2+p4"
                         else side, (128, 128, 128))
        pic.add(element("rect", x=x, y=y - 12, width=14, height=14, rx=3,
                        fill=hex_rgb(colour), stroke=INK, stroke_width=1.5))
        pic.add(svg_text(x + 22, y, side, size=14, weight="bold"))
        pic.add(svg_text(x + 120, y, "%d of %d" % (score, report["target"]), size=14))
        y += 20
    y += 6
    _heading(pic, x, y, "seats: defence / attack", right)
    y += 24
    for seat, line in report["lines"].items():
        pic.add(svg_text(x, y, seat, size=14, weight="bold"))
        pic.add(svg_text(right, y, "%d in hand" % report["hand_sizes"][seat], size=12,
                         anchor="end", fill=MUTED))
        text = "%s / %s" % (" ".join(card_text(e) for e in line["defence"]) or "-",
                            " ".join(card_text(e) for e in line["attack"]) or "-")
        y = _lines(pic, x + 30, y + 17, text, 50, size=11, family=MONO, step=15) + 4
    c = report.get("claim")
    if c is not None:
        y = _lines(pic, x, y, "claim by %s: %s" % (c["seat"], " ".join(c["soldiers"])
                                                   or "no Soldier shown yet"), 52, size=12)
    if report["rounds"]:
        y += 4
        _heading(pic, x, y, "rounds scored", right)
        y += 22
        for r in report["rounds"][-3:]:
            d = r["defence"]
            y = _lines(pic, x, y, "%d: %s ended with %s over %s%s: %d" % (
                r["round"], r["seat"], r["card"], d["card"] if d else "no defence",
                ", doubled" if r["doubled"] else "", r["points"]), 56, size=12)
    rejected = report.get("rejected") or []
    if rejected:
        r = rejected[-1]
        y = _lines(pic, x, y + 4, "last refusal (line %s): %s" % (r["line"], r["code"]), 52,
                   size=12, fill="#b3261e")
    _legend(pic, x, max(y + 14, height - 168), right, pal)


def _legend(pic, x, y, right, pal):
    _heading(pic, x, y, "the lights", right)
    items = (("seat: to act (pulsing), attacker (steady), passed (dim)", pal.get("p1")),
             ("defence: blue face down, white face up", pal.get("defence_down")),
             ("Empress: lit while an Empress may attack", pal.get("empress")),
             ("centre: a card on a hidden one (bright), last (dim)", pal.get("centre")),
             ("tracks: one light per point, in the side's colour", pal.get("team2")))
    y += 22
    for text, rgb in items:
        pic.add(element("circle", cx=x + 7, cy=y - 4, r=6, fill=hex_rgb(rgb or (90, 90, 90)),
                        stroke=INK, stroke_width=1.5))
        pic.add(svg_text(x + 20, y, text, size=11))
        y += 18
    _lines(pic, x, y + 2, "cards: SOL Soldat, LAN Lance, CAV Cavalier, ARG Argent, OR Or, "
           "TOUR, FOU, IMP Imp\u00e9ratrice; a blue back is face down; dashed: from the "
           "centre; gold: the attack to answer", 66, size=10, fill=MUTED, step=13)
