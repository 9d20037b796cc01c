"""`python -m host_tools duel --game halunken`: the board player's strength and speed
against the baselines (duelgames plays the games).

    python -m host_tools duel --game halunken [--players 3] [--mode standard] \\
        [--lineup ai,greedy,random] [--games 60] [--seed 1] [--runtime cpython|micropython] \\
        [--json]

The lineup names a player per seat (ai, greedy, random); game i deals seed S + i // N and
rotates the lineup by i % N seats, so each player sits in every seat on the same deals.
It prints each player's win rate (a shared win counts 1/k, H15), its rate in each seat,
its fair share (1/N), and the AI's time per decision (median, p95, max; under MicroPython
the unix port's figures and their x100 projection to the RP2040).
"""

import argparse
import json
import sys

from host_tools import gamearg, mpy
from host_tools.games.halunken import baselines

RP2040_FACTOR = 100  # the project's projection: RP2040 time / unix port time (README)
DUEL_HEAP = "2M"
DEFAULT_LINEUP = {2: "ai,greedy", 3: "ai,greedy,random", 4: "ai,greedy,random,greedy"}


def _games(text):
    n = int(text) if text.isdigit() else 0
    if n < 1:
        raise argparse.ArgumentTypeError("games must be a positive integer, got %r" % (text,))
    return n


def parser():
    ap = argparse.ArgumentParser(prog="python -m host_tools duel --game halunken",
                                 description="whole Halunken games, the lineup rotated")
    ap.add_argument("--players", type=int, choices=(2, 3, 4), default=3)
    ap.add_argument("--mode", choices=("beginner", "standard", "tactical"),
                    help="default: tactical for 2 players, else standard")
    ap.add_argument("--lineup", help="a player per seat, comma-separated (%s; default %s "
                    "for 3 players)" % (", ".join(baselines.KINDS), DEFAULT_LINEUP[3]))
    ap.add_argument("--games", type=_games, default=60, help="number of games (default 60)")
    ap.add_argument("--seed", type=int, default=1, help="first deal seed (default 1)")
    ap.add_argument("--runtime", choices=("cpython", "micropython"), default="cpython")
    ap.add_argument("--json", action="store_true", help="one JSON object")
    ap.add_argument("--board", help="board definition (default board_def/halunken.json)")
    gamearg.add(ap)
    return ap


def check(args):
    """The spec of the duel, or a one-line message for a bad argument."""
    mode = args.mode or ("tactical" if args.players == 2 else "standard")
    if (mode == "tactical") != (args.players == 2):  # H17
        return None, "mode %s is for %s players" % (mode, "2" if mode == "tactical"
                                                    else "3 or 4")
    lineup = (args.lineup or DEFAULT_LINEUP[args.players]).split(",")
    if len(lineup) != args.players:
        return None, "the lineup names %d players for %d seats" % (len(lineup), args.players)
    for kind in lineup:
        if kind not in baselines.KINDS:
            return None, "unknown player %r in the lineup (%s)" % (kind,
                                                                 ", ".join(baselines.KINDS))
    return {"players": args.players, "mode": mode, "lineup": lineup, "games": args.games,
            "seed": args.seed}, None


def run(duelgames, spec, runtime):
    if runtime == "cpython":
        return duelgames.duel(spec)
    proc = mpy.run(duelgames.__file__, [json.dumps(spec)], heap=DUEL_HEAP, timeout=24 * 3600)
    if proc.returncode != 0:
        raise RuntimeError("the duel under MicroPython failed:\n" + proc.stderr + proc.stdout)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def percentile(values, q):
    if not values:
        return None
    i = min(len(values) - 1, max(0, int(q * len(values) + 0.999999) - 1))
    return values[i]


def summary(result, spec, runtime):
    times = sorted(result["times_us"])
    n = spec["players"]
    players = []
    for j, kind in enumerate(spec["lineup"]):
        wins, played = result["wins"][j], result["played"][j]
        players.append({"player": "%s(%d)" % (kind, j + 1), "wins": round(sum(wins), 2),
                        "rate": sum(wins) / result["games"],
                        "by_seat": [None if played[s] == 0 else wins[s] / played[s]
                                    for s in range(n)]})
    out = dict(spec)
    out.update({"runtime": runtime, "share": 1.0 / n, "results": players,
                "decisions": len(times)})
    ms = dict((k, None if v is None else v / 1000.0) for k, v in (
        ("median", percentile(times, 0.5)), ("p95", percentile(times, 0.95)),
        ("max", times[-1] if times else None)))
    out["decision_ms"] = ms
    allocs = sorted(result.get("alloc_bytes", ()))
    if allocs:
        out["alloc_bytes"] = {"median": percentile(allocs, 0.5), "p95": percentile(allocs, 0.95),
                              "max": allocs[-1]}
    if runtime == "micropython" and times:
        out["rp2040_projection_ms"] = dict((k, v * RP2040_FACTOR) for k, v in ms.items())
    return out


def text(out):
    n = out["players"]
    lines = ["%d games, %d players, %s, lineup %s, seeds %d.., %s; a fair share is %.1f%%" % (
        out["games"], n, out["mode"], ",".join(out["lineup"]), out["seed"], out["runtime"],
        100.0 * out["share"])]
    lines.append("  %-10s %6s %7s   %s" % ("player", "wins", "rate",
                                          "  ".join("p%d" % (s + 1) for s in range(n))))
    for p in out["results"]:
        seats = "  ".join("--" if r is None else "%2.0f%%" % (100 * r) for r in p["by_seat"])
        lines.append("  %-10s %6.1f %6.1f%%   %s" % (p["player"], p["wins"], 100 * p["rate"],
                                                    seats))
    ms = out["decision_ms"]
    if out["decisions"]:
        lines.append("AI time per decision (%d decisions): median %.2f ms, p95 %.2f ms, "
                     "max %.2f ms" % (out["decisions"], ms["median"], ms["p95"], ms["max"]))
        if "rp2040_projection_ms" in out:
            pr = out["rp2040_projection_ms"]
            lines.append("RP2040 projection (x%d, a projection, not a measurement): median "
                         "%.0f ms, p95 %.0f ms, max %.0f ms"
                         % (RP2040_FACTOR, pr["median"], pr["p95"], pr["max"]))
        if "alloc_bytes" in out:
            al = out["alloc_bytes"]
            lines.append("Allocated per decision (unix port, 64-bit objects): median %.1f KB, "
                         "p95 %.1f KB, max %.1f KB" % (al["median"] / 1024.0,
                                                      al["p95"] / 1024.0, al["max"] / 1024.0))
    return "\n".join(lines)


def main(argv, duelgames):
    """The command line; `duelgames` is the part that plays (it calls this)."""
    args = parser().parse_args(argv)
    spec, problem = check(args)
    if problem:
        print("duel: %s" % problem, file=sys.stderr)
        return 2
    try:
        result = run(duelgames, spec, args.runtime)
    except mpy.MicroPythonMissing as e:
        print("duel: %s" % (e,), file=sys.stderr)
        return 2
    except (RuntimeError, duelgames.DuelError) as e:
        print("duel: %s" % (e,), file=sys.stderr)
        return 1
    out = summary(result, spec, args.runtime)
    print(json.dumps(out, sort_keys=True) if args.json else text(out))
    return 0
