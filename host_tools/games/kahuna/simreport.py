"""Kahuna's simulator report in the contract's form, the same on every runtime.

`canonical(report, board)` puts the keys in the contract's order and bridges and control
in the board's order (`host_tools.simulator.jsontext.dumps` then writes it as CPython
does); `summary(report)` is the same report in a few lines for a person (`sim` without
--json). Runs on CPython, the MicroPython unix port and MicroPython in the browser
(WebAssembly): MicroPython's plain dicts do not keep their order, so there the mappings
are OrderedDicts.
"""

import sys

from games.kahuna.report import GAME_KEYS

if sys.implementation.name == "micropython":
    from collections import OrderedDict as _Map
else:
    _Map = dict

# The game's keys, listed once in the game (games/kahuna/report.py), then the simulator's.
REPORT_KEYS = GAME_KEYS + ("rejected", "leds")


def _pairs(items):
    out = _Map()
    for key, value in items:
        out[key] = value
    return out


def _players(values):
    return _pairs((("white", values["white"]), ("black", values["black"])))


def canonical(report, board):
    """The report with its keys in the contract's order and the board's order for
    bridges and control, so every runtime prints the very same JSON."""
    out = _Map()
    for key in REPORT_KEYS:
        out[key] = report[key]
    out["bridges"] = _pairs((c, report["bridges"][c]) for c in board.connections
                            if c in report["bridges"])
    out["control"] = _pairs((i, report["control"][i]) for i in board.islands
                            if i in report["control"])
    for key in ("supply", "scores"):
        out[key] = _players(report[key])
    out["hands"] = _pairs((("white", sorted(report["hands"]["white"])),
                           ("black", sorted(report["hands"]["black"]))))
    out["round_scores"] = [_players(r) for r in report["round_scores"]]
    if "ai_moves" in report:  # a solo game only: the AI's actions, in order
        out["ai_moves"] = report["ai_moves"]
    if "takeback" in report:  # only while a takeback's walk is under way
        t = report["takeback"]
        out["takeback"] = _pairs((("step", t["step"]), ("steps", t["steps"]),
                                  ("say", t["say"])))
    out["rejected"] = [_pairs((("line", r["line"]), ("code", r["code"]),
                               ("message", r["message"]))) for r in report["rejected"]]
    return out


def summary(report):
    if report["phase"] == "over":
        # Nobody is to play once the game is over: say so, not whose turn it was.
        lines = ["phase over, round %d: the game is over" % report["round"]]
    else:
        lines = ["phase %s, round %d%s, %s to play" % (
            report["phase"], report["round"],
            " (final turns)" if report["final_turns"] else "", report["turn"])]
    lines.append("scores: white %d, black %d%s" % (
        report["scores"]["white"], report["scores"]["black"],
        ", winner: %s" % report["winner"] if report["winner"] else ""))
    lines.append("bridges: %s" % (", ".join("%s %s" % kv for kv in report["bridges"].items())
                                  or "none"))
    lines.append("control: %s" % (", ".join("%s %s" % kv for kv in report["control"].items())
                                  or "none"))
    for player in ("white", "black"):
        lines.append("%s: hand %s, supply %d" % (player, " ".join(report["hands"][player]),
                                                 report["supply"][player]))
    if "takeback" in report:
        lines.append(report["takeback"]["say"])
    for r in report["rejected"]:
        lines.append("line %d refused: %s (%s)" % (r["line"], r["code"], r["message"]))
    return "\n".join(lines)
