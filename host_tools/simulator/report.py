"""The simulator's JSON report in the contract's form, the same text on every runtime.

`canonical(report, board)` puts the keys in the contract's order and bridges and control
in the board's order; `dumps(report)` is CPython's `json.dumps` of it. Runs on CPython,
the MicroPython unix port and MicroPython in the browser (WebAssembly): MicroPython's
plain dicts do not keep their order and its json module writes non-ASCII characters as
they are, so there the mappings are OrderedDicts and `dumps` escapes like CPython does.
"""

import json
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
    out["rejected"] = [_pairs((("line", r["line"]), ("code", r["code"]),
                               ("message", r["message"]))) for r in report["rejected"]]
    return out


def dumps(value):
    """`json.dumps(value)` exactly as CPython writes it (", " and ": ", ASCII only)."""
    text = json.dumps(value)
    if sys.implementation.name != "micropython":
        return text
    return _ascii(text)


def _ascii(text):
    """Non-ASCII characters as \\uXXXX escapes (UTF-16 surrogate pairs above U+FFFF), as
    CPython's ensure_ascii does. They only occur inside strings, where this is their
    escape."""
    for ch in text:
        if ord(ch) > 0x7F:
            break
    else:
        return text
    out = []
    for ch in text:
        n = ord(ch)
        if n <= 0x7F:
            out.append(ch)
        elif n <= 0xFFFF:
            out.append("\\u%04x" % n)
        else:
            n -= 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 + (n >> 10), 0xDC00 + (n & 0x3FF)))
    return "".join(out)
