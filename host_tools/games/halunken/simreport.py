"""Halunken & Spelunken's simulator report in the contract's form, the same on every
runtime.

`canonical(report, board)` puts every key, nested ones too, in the contract's order (seats
p1..pN, spaces T1..T14, figures seats then `blackjack`), so every runtime prints the very
same JSON (`host_tools.simulator.jsontext.dumps`); `summary(report)` is the report in a
few lines for the players (`sim` without --json): it shows nothing the board hides (no
`hidden`: no secret choice, no pile below its top card, no Black-Jack deck). MicroPython's
plain dicts do not keep their order, so there the mappings are OrderedDicts.
"""

import sys

from games.halunken.report import LINK_KEYS

if sys.implementation.name == "micropython":
    from collections import OrderedDict as _Map
else:
    _Map = dict

SETTING_KEYS = ("game", "players", "mode", "deal", "first")
# The game's keys (games/halunken/report.py), then the simulator's.
REPORT_KEYS = SETTING_KEYS + LINK_KEYS + ("rejected", "leds")
SPACES = tuple("T%d" % (t + 1) for t in range(14))
FIGURES = ("p1", "p2", "p3", "p4", "blackjack")


def _pairs(items):
    out = _Map()
    for key, value in items:
        out[key] = value
    return out


def _ordered(mapping, keys, each=None):
    """`mapping`'s entries in the order of `keys` (those it has), values through `each`."""
    return _pairs((k, mapping[k] if each is None else each(mapping[k]))
                  for k in keys if k in mapping)


def _fields(obj, keys):
    return None if obj is None else _pairs((k, obj[k]) for k in keys)


def canonical(report, board):
    """The report with every key in the contract's order."""
    out = _Map()
    for key in REPORT_KEYS:
        out[key] = report[key]
    for key in ("captains", "crews", "setup_cards", "played", "scores"):
        out[key] = _ordered(report[key], FIGURES)
    out["taverns"] = _ordered(report["taverns"], SPACES,
                              lambda t: _fields(t, ("left", "top")))
    a = report["auction"]
    if a is not None:
        out["auction"] = _pairs((("opener", a["opener"]),
                                 ("words", [_fields(w, ("seat", "card")) for w in a["words"]]),
                                 ("winner", a["winner"])))
    out["round_cards"] = _ordered(report["round_cards"], FIGURES,
                                  lambda c: _fields(c, ("card", "number", "cancelled")))
    h = report["hidden"]
    out["hidden"] = _pairs((
        ("choices", _ordered(h["choices"], FIGURES)),
        ("piles", None if h["piles"] is None else _ordered(h["piles"], SPACES)),
        ("bj_deck", h["bj_deck"])))
    out["rejected"] = [_fields(r, ("line", "code", "message")) for r in report["rejected"]]
    return out


def _cards(cards):
    return " ".join(cards) if cards else "none"


def summary(report):
    """The report for the players: what the board shows, nothing of `hidden`."""
    seats = list(report["captains"])
    head = "%s, %d players, %s game, %s deal" % (
        "Halunken & Spelunken", report["players"], report["mode"], report["deal"])
    lines = [head]
    if report["phase"] == "over":
        lines.append("phase over, round %d: the game is over, won by %s" % (
            report["round"], " and ".join(report["winner"])))
    else:
        who = report["turn"] or "anyone"
        fig = report["figure"]
        lines.append("phase %s, round %d, step %s: %s to act%s" % (
            report["phase"], report["round"], report["step"], who,
            " (for %s)" % fig if fig is not None and fig != who else ""))
        if report["options"] is not None:
            lines.append("options: %s" % " ".join(str(o) for o in report["options"]))
        if report["from"] is not None:
            lines.append("from: %s" % " ".join(report["from"]))
        if report["step"] in ("choose", "reveal"):
            lines.append("chosen so far: %d (face down)" % report["chosen"])
    for s in seats:
        played = report["played"][s]
        lines.append("%s: captain %s, crew %s, score %d%s" % (
            s, report["captains"][s] or "not placed", _cards(report["crews"][s]),
            report["scores"][s], ", played %s" % " ".join(played) if played else ""))
    if report["mode"] != "beginner":
        lines.append("Black-Jack: %s%s" % (
            report["blackjack"] or "not placed",
            ", cards used %s" % " ".join(report["bj_cards"]) if report["bj_cards"] else ""))
    lines.append("port: %s" % _cards(report["port"]))
    lines.append("taverns: %s" % " ".join(
        "%s:%d%s" % (t, v["left"], "/" + v["top"] if v["top"] else "")
        for t, v in report["taverns"].items()))
    a = report["auction"]
    if a is not None:
        words = ", ".join("%s %s" % (w["seat"], w["card"] or "passes") for w in a["words"])
        lines.append("auction: opened by %s%s%s" % (
            a["opener"], "; " + words if words else "",
            "; won by %s" % a["winner"] if a["winner"] else ""))
    for f, c in report["round_cards"].items():
        lines.append("%s revealed %s%s" % (f, c["card"], " (cancelled)" if c["cancelled"]
                                           else ""))
    for r in report["rejected"]:
        lines.append("line %d refused: %s (%s)" % (r["line"], r["code"], r["message"]))
    return "\n".join(lines)
