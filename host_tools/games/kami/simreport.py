"""Kami's simulator report in the contract's form, the same on every runtime.

`canonical(report, board)` puts every key, nested ones too, in the contract's order (seats
p1..pN, sides as the game names them), so every runtime prints the very same JSON
(`host_tools.simulator.jsontext.dumps`); `summary(report)` is the report in a few lines
for the players (`sim` without --json): it shows nothing the board hides (no hand, no
face-down card, no set-aside or face-down centre card, no `hidden`). MicroPython's plain
dicts do not keep their order, so there the mappings are OrderedDicts.
"""

import sys

from games.kami.report import REPORT_KEYS as GAME_KEYS
from games.kami.report import ROUND_KEYS

if sys.implementation.name == "micropython":
    from collections import OrderedDict as _Map
else:
    _Map = dict

REPORT_KEYS = GAME_KEYS + ("rejected", "leds")
SEATS = ("p1", "p2", "p3", "p4")
SIDES = ("p1+p3", "p2+p4") + SEATS
CARD_KEYS = ("card", "face", "from")


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


def _line(line):
    return _pairs((part, [_fields(e, CARD_KEYS) for e in line[part]])
                  for part in ("defence", "attack"))


def _round(r):
    out = _fields(r, ROUND_KEYS)
    out["defence"] = _fields(r["defence"], ("card", "face"))
    out["scores"] = _ordered(r["scores"], SIDES)
    return out


def canonical(report, board):
    """The report with every key in the contract's order."""
    out = _Map()
    for key in REPORT_KEYS:
        out[key] = report[key]
    out["attack"] = _fields(report["attack"], ("seat", "card"))
    out["lines"] = _ordered(report["lines"], SEATS, _line)
    out["hand_sizes"] = _ordered(report["hand_sizes"], SEATS)
    if report["hands"] is not None:
        out["hands"] = _ordered(report["hands"], SEATS)
    if report["centre"] is not None:
        out["centre"] = [_fields(s, ("up", "left")) for s in report["centre"]]
    out["claim"] = _fields(report["claim"], ("seat", "step", "soldiers"))
    out["scores"] = _ordered(report["scores"], SIDES)
    out["rounds"] = [_round(r) for r in report["rounds"]]
    out["hidden"] = _fields(report["hidden"], ("aside", "centre"))
    out["rejected"] = [_fields(r, ("line", "code", "message")) for r in report["rejected"]]
    return out


def _card(e):
    """A line's card as the table sees it: a face-down card is not named."""
    return e["card"] if e["face"] == "up" else "(face down)"


def line_text(line):
    return "defence %s; attack %s" % (
        ", ".join(_card(e) + ("*" if e["from"] == "centre" else "") for e in line["defence"])
        or "-",
        ", ".join(_card(e) + ("*" if e["from"] == "centre" else "") for e in line["attack"])
        or "-")


def centre_text(centre):
    return " ".join("%d:%s/%d" % (i + 1, s["up"] or "-", s["left"])
                    for i, s in enumerate(centre))


def summary(report):
    """The report for the players: what the board shows, nothing hidden."""
    lines = ["Kami, %d players, mode %s, target %d, %s deal" % (
        report["players"], report["mode"], report["target"], report["deal"])]
    if report["phase"] == "over":
        lines.append("round %d: the game is over, won by %s" % (report["round"],
                                                                report["winner"]))
    else:
        lines.append("round %d (first player %s), phase %s%s: %s to act" % (
            report["round"], report["first"], report["phase"],
            ", step %s" % report["step"] if report["step"] else "", report["turn"]))
    a = report["attack"]
    if a is not None:
        lines.append("attack: %s by %s%s" % (
            a["card"], a["seat"], "; passed: %s" % " ".join(report["passed"])
            if report["passed"] else ""))
    lines.append("Empress %s" % ("unlocked" if report["empress_unlocked"] else "locked"))
    for seat, line in report["lines"].items():
        lines.append("%s (%d in hand): %s" % (seat, report["hand_sizes"][seat],
                                             line_text(line)))
    if report["centre"] is not None:
        lines.append("centre: " + centre_text(report["centre"]))
    c = report["claim"]
    if c is not None:
        lines.append("5-Soldier claim by %s, step %s, shown %s" % (
            c["seat"], c["step"], " ".join(c["soldiers"]) or "none"))
    lines.append("scores: " + ", ".join("%s %d" % kv for kv in report["scores"].items()))
    for r in report["rounds"]:
        d = r["defence"]
        lines.append("round %d: %s (%s) ended with %s over %s%s: %d points" % (
            r["round"], r["seat"], r["side"], r["card"],
            "%s (%s)" % (d["card"], d["face"]) if d else "no defence",
            ", doubled" if r["doubled"] else "", r["points"]))
    for r in report["rejected"]:
        lines.append("line %d refused: %s (%s)" % (r["line"], r["code"], r["message"]))
    return "\n".join(lines)
