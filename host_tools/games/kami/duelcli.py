"""`python -m host_tools duel --game kami`: the board player's strength and speed against
the baselines (duelgames plays the games).

    python -m host_tools duel --game kami [--players 4] [--lineup ai,greedy,ai,greedy] \\
        [--mode soldat] [--target 15] [--games 40] [--seed 1] \\
        [--runtime cpython|micropython] [--json]

The lineup names a player per seat (ai, greedy, random); game i deals seed S + i // N and
rotates the lineup (and the first player) by i % N seats, so each player sits in every
seat on the same deals. It prints each entry's win rate and its rate in each seat, its
fair share (1/N; 1/2 for a team of 4 players), the rate of each team (4 players: the
entries in seats of one side, p1+p3 and p2+p4, K-section 2), and the AI's time per
decision (median, p95, max; under MicroPython the unix port's figures and their x100
projection to the RP2040, a projection, not a measurement).
"""

import argparse
import json
import sys

from host_tools import gamearg, mpy
from host_tools.games.kami import baselines
from host_tools.measure.duel import RP2040_FACTOR, percentile

DUEL_HEAP = "2M"
DEFAULT_LINEUP = {2: "ai,greedy", 3: "ai,greedy,random", 4: "ai,greedy,ai,greedy"}
MODES = ("soldat", "seigneur", "kami")  # K18


def _games(text):
    n = int(text) if text.isdigit() else 0
    if n < 1:
        raise argparse.ArgumentTypeError("games must be a positive integer, got %r" % (text,))
    return n


def parser():
    ap = argparse.ArgumentParser(prog="python -m host_tools duel --game kami",
                                 description="whole Kami games, the lineup rotated")
    ap.add_argument("--players", type=int, choices=(2, 3, 4), default=4)
    ap.add_argument("--mode", choices=MODES, default="soldat")
    ap.add_argument("--target", type=int, default=15, help="points to win (default 15)")
    ap.add_argument("--lineup", help="a player per seat, comma-separated (%s; default %s "
                    "for 4 players)" % (", ".join(baselines.KINDS), DEFAULT_LINEUP[4]))
    ap.add_argument("--games", type=_games, default=40, help="number of games (default 40)")
    ap.add_argument("--seed", type=int, default=1, help="first deal seed (default 1)")
    ap.add_argument("--runtime", choices=("cpython", "micropython"), default="cpython")
    ap.add_argument("--json", action="store_true", help="one JSON object")
    ap.add_argument("--board", help="board definition (default board_def/kami.json)")
    gamearg.add(ap)
    return ap


def check(args):
    """The spec of the duel, or a one-line message for a bad argument."""
    lineup = (args.lineup or DEFAULT_LINEUP[args.players]).split(",")
    if len(lineup) != args.players:
        return None, "the lineup names %d players for %d seats" % (len(lineup), args.players)
    for kind in lineup:
        if kind not in baselines.KINDS:
            return None, "unknown player %r in the lineup (%s)" % (kind,
                                                                 ", ".join(baselines.KINDS))
    if not 1 <= args.target <= 15:
        return None, "target must be from 1 to 15, got %d" % args.target
    return {"players": args.players, "mode": args.mode, "target": args.target,
            "lineup": lineup, "games": args.games, "seed": args.seed}, None


def run(duelgames, spec, runtime):
    if runtime == "cpython":
        return duelgames.duel(spec)
    proc = mpy.run(duelgames.__file__, [json.dumps(spec)], heap=DUEL_HEAP, timeout=24 * 3600)
    if proc.returncode != 0:
        raise RuntimeError("the duel under MicroPython failed:\n" + proc.stderr + proc.stdout)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _rate(wins, played):
    n = sum(played)
    return sum(wins) / n if n else None


def summary(result, spec, runtime):
    times = sorted(result["times_us"])
    n = spec["players"]
    entries = []
    for j, kind in enumerate(spec["lineup"]):
        wins, played = result["wins"][j], result["played"][j]
        entries.append({"player": "%s(%d)" % (kind, j + 1), "wins": sum(wins),
                        "rate": sum(wins) / result["games"],
                        "by_seat": [None if played[s] == 0 else wins[s] / played[s]
                                    for s in range(n)]})
    out = dict(spec)
    out.update({"runtime": runtime, "share": 0.5 if n == 4 else 1.0 / n,
                "results": entries, "decisions": len(times), "claims": result["claims"],
                "rounds": result["rounds"]})
    if n == 4:
        # entries j and j + 2 always sit on one side (the lineup turns as a whole)
        out["teams"] = []
        for j in (0, 1):
            w = [a + b for a, b in zip(result["wins"][j], result["wins"][j + 2])]
            kinds = "%s+%s" % (spec["lineup"][j], spec["lineup"][j + 2])
            by_side = []
            for side in (0, 1):
                p = result["played"][j][side] + result["played"][j][side + 2]
                by_side.append(None if p == 0 else (w[side] + w[side + 2]) / 2.0 / p)
            out["teams"].append({"team": "%s(%d+%d)" % (kinds, j + 1, j + 3),
                                 "wins": sum(w) // 2, "rate": sum(w) / 2.0 / result["games"],
                                 "by_side": by_side})
    ms = dict((k, None if v is None else v / 1000.0) for k, v in (
        ("median", percentile(times, 0.5)), ("p95", percentile(times, 0.95)),
        ("max", times[-1] if times else None)))
    out["decision_ms"] = ms
    allocs = sorted(result.get("alloc_bytes", ()))
    if allocs:
        out["alloc_bytes"] = {"median": percentile(allocs, 0.5),
                              "p95": percentile(allocs, 0.95), "max": allocs[-1]}
    if runtime == "micropython" and times:
        out["rp2040_projection_ms"] = dict((k, v * RP2040_FACTOR) for k, v in ms.items())
    return out


def _pct(r):
    return "--" if r is None else "%3.0f%%" % (100 * r)


def text(out):
    n = out["players"]
    lines = ["%d games (%d rounds, %d 5-Soldier claims), %d players, %s to %d, lineup %s, "
             "seeds %d.., %s; a fair share is %.1f%%" % (
                 out["games"], out["rounds"], out["claims"], n, out["mode"], out["target"],
                 ",".join(out["lineup"]), out["seed"], out["runtime"], 100.0 * out["share"])]
    lines.append("  %-12s %5s %7s   %s" % ("player", "wins", "rate",
                                           "  ".join(" p%d " % (s + 1) for s in range(n))))
    for p in out["results"]:
        lines.append("  %-12s %5d %6.1f%%   %s" % (
            p["player"], p["wins"], 100 * p["rate"], "  ".join(_pct(r) for r in p["by_seat"])))
    for t in out.get("teams", ()):
        lines.append("  team %-16s %5d %6.1f%%   p1+p3 %s  p2+p4 %s" % (
            t["team"], t["wins"], 100 * t["rate"], _pct(t["by_side"][0]),
            _pct(t["by_side"][1])))
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
