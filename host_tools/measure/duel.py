"""`python -m host_tools duel`: the computer opponent's strength and speed, measured.

    python -m host_tools duel --white ai --black greedy --games 400 --seed 1 \\
        [--variant standard|alternative] [--level 1-3] [--handicap white:2] \\
        [--runtime cpython|micropython] [--json]

Plays whole games (the rules engine referees, the game's simulated table deals the cards) with
the seats swapped every other game (game i uses deck seed S + i // 2), and prints the
wins of each player, the draws, and the AI's time per decision (median, 95th percentile,
max). Under MicroPython the games run in the unix port (with a heap for the whole duel;
`make bench` measures the AI within the RP2040's heap), and the times are projected to
the Pico (about 100 times slower than the unix port here).
"""

import argparse
import json
import sys

from host_tools import gamearg, mpy
from host_tools import games as hostgames
from host_tools.paths import BOARD_DEF

BOARD = BOARD_DEF
KINDS = ("ai", "greedy", "random", "majority", "lookahead")
# The duel keeps every decision time and both players: more than the Pico's heap. The
# AI's own heap on the RP2040's 240 KB is measured by `make bench`.
DUEL_HEAP = "8M"
RP2040_FACTOR = 100  # RP2040 time / unix port time for this firmware (see README)


def _handicap(text):
    who, _, n = text.partition(":")
    if who not in ("white", "black") or n not in ("1", "2", "3"):
        raise argparse.ArgumentTypeError("handicap must be PLAYER:N with PLAYER white or "
                                         "black and N 1, 2 or 3, got %r" % (text,))
    return [who, int(n)]


def _games(text):
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError("games must be a positive integer, got %r" % (text,))
    return n


def parser():
    ap = argparse.ArgumentParser(prog="python -m host_tools duel",
                                 description="whole games between two players, seats swapped")
    ap.add_argument("--white", choices=KINDS, required=True, help="the first player")
    ap.add_argument("--black", choices=KINDS, required=True, help="the second player")
    ap.add_argument("--games", type=_games, default=20, help="number of games (default 20)")
    ap.add_argument("--seed", type=int, default=1, help="first deck seed (default 1)")
    ap.add_argument("--variant", choices=("standard", "alternative"), default="standard")
    ap.add_argument("--level", type=int, choices=(1, 2, 3), default=2,
                    help="the AI's level (default 2)")
    ap.add_argument("--handicap", type=_handicap, default=None, metavar="PLAYER:N",
                    help="handicap bridges for white or black (1-3)")
    ap.add_argument("--runtime", choices=("cpython", "micropython"), default="cpython")
    ap.add_argument("--json", action="store_true", help="one JSON object")
    ap.add_argument("--board", help="board definition (default board_def/kahuna.json)")
    gamearg.add(ap)
    return ap


def percentile(values, q):
    """The q-quantile (0..1) of sorted `values`, nearest rank."""
    if not values:
        return None
    i = min(len(values) - 1, max(0, int(q * len(values) + 0.999999) - 1))
    return values[i]


def run(spec, runtime, board_path=BOARD):
    """The duel's figures; the games are the board's game's `duelgames` part (its
    duel(board, spec), and the same file as a script under MicroPython)."""
    games = hostgames.part(gamearg.board_game(board_path), "duelgames")
    if runtime == "cpython":
        from core import board as boardmod
        return games.duel(boardmod.load(board_path, keep_raw=False), spec)
    proc = mpy.run(games.__file__, [board_path, json.dumps(spec)], heap=DUEL_HEAP,
                   timeout=24 * 3600)
    if proc.returncode != 0:
        raise RuntimeError("the duel under MicroPython failed:\n" + proc.stderr + proc.stdout)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def summary(result, spec, runtime):
    times = sorted(result.pop("times_us"))
    ms = dict((k, None if v is None else v / 1000.0) for k, v in (
        ("median", percentile(times, 0.5)), ("p95", percentile(times, 0.95)),
        ("max", times[-1] if times else None)))
    out = dict(result)
    out.update({"white": spec["white"], "black": spec["black"], "variant": spec["variant"],
                "level": spec["level"], "seed": spec["seed"], "runtime": runtime,
                "decisions": len(times), "decision_ms": ms})
    if runtime == "micropython" and times:
        out["rp2040_projection_ms"] = dict((k, v * RP2040_FACTOR) for k, v in ms.items())
    return out


def text(out):
    lines = ["%d games, %s vs %s, %s variant, AI level %d, seeds %d.., %s" % (
        out["games"], out["white"], out["black"], out["variant"], out["level"], out["seed"],
        out["runtime"])]
    for name, n in sorted(out["wins"].items()):
        lines.append("  %-10s %4d wins (%.1f%%)" % (name, n, 100.0 * n / out["games"]))
    lines.append("  %-10s %4d" % ("draws", out["draws"]))
    ms = out["decision_ms"]
    if out["decisions"]:
        lines.append("AI time per decision (%d decisions): median %.2f ms, p95 %.2f ms, "
                     "max %.2f ms" % (out["decisions"], ms["median"], ms["p95"], ms["max"]))
        if "rp2040_projection_ms" in out:
            pr = out["rp2040_projection_ms"]
            lines.append("RP2040 projection (x%d): median %.0f ms, p95 %.0f ms, max %.0f ms"
                         % (RP2040_FACTOR, pr["median"], pr["p95"], pr["max"]))
    return "\n".join(lines)


def _own_cli(argv):
    """The duel's command line of a game whose `duelgames` part has its own (`cli`: games
    of more than two seats, Halunken), or None (Kahuna's, below)."""
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--game")
    pre.add_argument("--board")
    known, _ = pre.parse_known_args(argv)
    try:
        game, _ = gamearg.choose(known.game, known.board, "duel")
        games = hostgames.part(game, "duelgames")
    except hostgames.NoGame:
        return None  # said by the parse below, as before
    return getattr(games, "cli", None)


def main(argv=None):
    cli = _own_cli(sys.argv[1:] if argv is None else argv)
    if cli is not None:
        return cli(sys.argv[1:] if argv is None else argv)
    args = parser().parse_args(argv)
    chosen = gamearg.resolve("duel", args.game, args.board, "duel")
    if chosen is None:
        return 2
    spec = {"white": args.white, "black": args.black, "games": args.games,
            "seed": args.seed, "variant": args.variant, "level": args.level,
            "handicap": args.handicap}
    try:
        result = run(spec, args.runtime, chosen[1])
    except mpy.MicroPythonMissing as e:
        print("duel: %s" % (e,), file=sys.stderr)
        return 2
    except RuntimeError as e:
        print("duel: %s" % (e,), file=sys.stderr)
        return 1
    out = summary(result, spec, args.runtime)
    print(json.dumps(out, sort_keys=True) if args.json else text(out))
    return 0
