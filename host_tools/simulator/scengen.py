"""`python -m host_tools scengen SEED`: a whole random game as a scenario
(docs/scenarios.md) on standard output, with expect lines; the game's `scengen` part
(host_tools/games/<game>/scenwrite.py, `annotated_game(board, seed)`) writes it."""

import argparse
import sys

from core import board as boardmod
from host_tools import gamearg
from host_tools import games as hostgames


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="python -m host_tools scengen",
        description="Write a whole random game as a scenario (docs/scenarios.md) on standard "
                    "output, with expect lines at every scoring and at the end. The same "
                    "SEED always gives the same game.")
    ap.add_argument("seed", type=int, metavar="SEED", nargs="?",
                    help="a whole number, e.g. 7 (or --seed SEED)")
    ap.add_argument("--seed", type=int, metavar="SEED", dest="seed_option",
                    help="the same as SEED")
    ap.add_argument("--board", help="board definition (default board_def/kahuna.json)")
    gamearg.add(ap)
    args = ap.parse_args(argv)
    if args.seed is not None and args.seed_option is not None:
        ap.error("give the seed once: SEED or --seed SEED")
    if args.seed is None:
        args.seed = args.seed_option
    if args.seed is None:
        ap.error("the following arguments are required: SEED (or --seed SEED)")
    chosen = gamearg.resolve("scengen", args.game, args.board, "scengen")
    if chosen is None:
        return 2
    game, board_path = chosen
    try:
        board = boardmod.load(board_path)
    except boardmod.BoardError as e:
        print("scengen: board: %s" % e, file=sys.stderr)
        return 2
    sys.stdout.write(hostgames.part(board.game, "scenwrite").annotated_game(board, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
