"""`python -m host_tools sim`: run scenarios on the simulated board (docs/scenarios.md),
or play interactively when no scenario is given."""

import argparse
import json
import os
import sys

from core import board as boardmod
from host_tools import gamearg, mpy
from host_tools import games as hostgames
from host_tools.paths import BOARD_DEF
from host_tools.simulator.jsontext import dumps
from host_tools.simulator.scenario import ScenarioError, parse

DEFAULT_BOARD = BOARD_DEF


def run(board_path, commands, runtime):
    """(report, failures) of running `commands` on the chosen runtime."""
    if runtime == "cpython":
        from host_tools.simulator.engine import run_commands
        return run_commands(boardmod.load(board_path), commands)
    job = json.dumps({"board": os.path.abspath(board_path), "commands": commands})
    proc = mpy.run(os.path.join(mpy.ROOT, "host_tools", "simulator", "mp_main.py"), stdin=job)
    if proc.returncode != 0:
        raise RuntimeError("the MicroPython runtime failed:\n" + proc.stderr + proc.stdout)
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    return out["report"], out["failures"]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools sim",
                                 description="Run the firmware on a simulated board.")
    gamearg.add(ap)
    ap.add_argument("--scenario", help="scenario file, or - for standard input; "
                                       "without it, play interactively")
    ap.add_argument("--json", action="store_true", help="print the JSON report only")
    ap.add_argument("--runtime", choices=("cpython", "micropython"), default="cpython")
    ap.add_argument("--board", help="board definition JSON (default %s)"
                                     % os.path.relpath(DEFAULT_BOARD, mpy.ROOT))
    ap.add_argument("--render", metavar="OUT", help="draw the final board to OUT.svg or OUT.png")
    ap.add_argument("--ai", metavar="SIDE",
                    help="play alone: the board plays this side (interactive play; Kahuna: "
                         "white or black; Halunken, Kami: its seats, e.g. p2,p3)")
    ap.add_argument("--seed", type=int, metavar="N",
                    help="a shuffled table of cards dealt from seed N (interactive play; "
                         "without --ai: hot seat, the other hand hidden)")
    ap.add_argument("--ai-level", type=int, choices=(1, 2, 3), dest="ai_level",
                    help="Kahuna: the board's strength with --ai (1..3; stronger is slower; "
                         "default its own level)")
    ap.add_argument("--players", type=int, choices=(2, 3, 4),
                    help="Halunken & Spelunken, Kami: the number of players (interactive play)")
    ap.add_argument("--mode", choices=("beginner", "standard", "tactical"),
                    help="Halunken & Spelunken: the mode (interactive play)")
    args = ap.parse_args(argv)
    if args.scenario is not None and (args.players or args.mode):
        print("sim: --players and --mode are for interactive play; a scenario says option "
              "players=N and option mode=M", file=sys.stderr)
        return 2
    if args.scenario is not None and (args.ai or args.seed is not None):
        print("sim: --ai and --seed are for interactive play; a scenario says option "
              "ai=black and option seed=N", file=sys.stderr)
        return 2
    if args.ai_level is not None and not args.ai:
        print("sim: --ai-level is the board's strength when it plays: give --ai too",
              file=sys.stderr)
        return 2
    chosen = gamearg.resolve("sim", args.game, args.board, "sim")
    if chosen is None:
        return 2
    for need, wanted in (("play", args.scenario is None), ("render", args.render)):
        if wanted and gamearg.resolve("sim", chosen[0], chosen[1], need) is None:
            return 2
    game, board_path = chosen
    picture = None
    if args.render:
        picture = hostgames.part(game, "picture")
        problem = picture.check_output(args.render)
        if problem:  # said before the scenario runs: nothing to throw away
            print("sim: %s" % problem, file=sys.stderr)
            return 2
    try:
        board = boardmod.load(board_path)
    except boardmod.BoardError as e:
        print("board: %s" % e, file=sys.stderr)
        return 2
    if args.scenario is None:
        seed = args.seed
        if args.ai and seed is None:
            seed = int.from_bytes(os.urandom(2), "little")  # said on screen: replayable
        play = hostgames.part(game, "play")
        sides = getattr(play, "AI_SIDES", ("white", "black"))
        if args.ai is not None and sides is not None and args.ai not in sides:
            print("sim: --ai must be %s, got %r" % (" or ".join(sides), args.ai),
                  file=sys.stderr)
            return 2
        extra = dict((k, getattr(args, k)) for k in ("players", "mode", "ai_level")
                     if getattr(args, k) is not None)
        if [k for k in extra if k not in getattr(play, "TAKES", ())]:
            flags = sorted(k.replace("_", "-") for k in extra)
            print("sim: %s takes no --%s" % (game, " or --".join(flags)), file=sys.stderr)
            return 2
        return play.main(board, board_path, args.runtime, args.ai, seed, **extra)
    try:
        if args.scenario == "-":
            text = sys.stdin.read()
        else:
            with open(args.scenario, encoding="utf-8") as f:
                text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        print("%s: cannot read the scenario: %s" % (args.scenario, e), file=sys.stderr)
        return 2
    try:
        commands = parse(text, board)
    except ScenarioError as e:
        print(str(e), file=sys.stderr)
        return 2
    try:
        report, failures = run(board_path, commands, args.runtime)
    except mpy.MicroPythonMissing as e:
        print("sim: %s" % e, file=sys.stderr)
        return 2
    simreport = hostgames.part(game, "simreport")
    report = simreport.canonical(report, board)
    if args.json:
        print(dumps(report))
    else:
        print(simreport.summary(report))
    for failure in failures:
        print(failure, file=sys.stderr)
    if picture is not None:
        try:
            picture.write(board, report, args.render)
        except (ValueError, OSError) as e:  # checked above; the disk can still say no
            print("sim: cannot write %s: %s" % (args.render, e), file=sys.stderr)
            return 2
    return 1 if failures else 0
