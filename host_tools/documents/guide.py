"""`python -m host_tools guide [--game NAME] [--board PATH] [--out DIR] [--check]` (`make
guide`): the player's guide of a game, pages to print and keep beside the board, generated
from the board definition and the firmware's own tables, so it is never stale.

The game's `guidepages` part (host_tools/games/<game>/guidepages.py) writes its pages
(`build(board)` -> {file name: bytes}, the names in its OUTPUTS) with
host_tools/documents/guidekit.py;
this is the command: the board definition loaded and checked, the files written into
`docs/` (or --out), or with `--check` compared without writing (exit 1 naming the stale
files). Kahuna's: docs/guide-1.svg, docs/guide-2.svg and docs/guide.pdf.
"""

import argparse
import os
import sys

from core.board import BoardError
from core.board import load as load_board
from host_tools import gamearg, mpy
from host_tools.games import part

DEFAULT_OUT = os.path.join(mpy.ROOT, "docs")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools guide",
                                 description="Write the player's guide (for Kahuna: "
                                             "docs/guide-*.svg, docs/guide.pdf) from the board "
                                             "definition and the firmware's tables.")
    gamearg.add(ap)
    ap.add_argument("--board", help="board definition (default: the game's, "
                                    "board_def/kahuna.json)")
    ap.add_argument("--out", default=DEFAULT_OUT, help="folder (default: %(default)s)")
    ap.add_argument("--check", action="store_true",
                    help="compare with the files in --out instead of writing; exit 1 if stale")
    args = ap.parse_args(argv)
    chosen = gamearg.resolve("guide", args.game, args.board, "guide")
    if chosen is None:
        return 2
    try:
        board = load_board(chosen[1])
    except BoardError as e:
        print("guide: %s" % e, file=sys.stderr)
        return 2
    guide = part(board.game, "guidepages")
    files = guide.build(board)
    if args.check:
        stale = []
        for name in guide.OUTPUTS:
            path = os.path.join(args.out, name)
            if not os.path.isfile(path) or open(path, "rb").read() != files[name]:
                stale.append(name)
        if stale:
            print("guide: stale in %s: %s (make guide)" % (args.out, ", ".join(stale)),
                  file=sys.stderr)
            return 1
        print("guide: %s is up to date" % args.out)
        return 0
    if not os.path.isdir(args.out):
        print("guide: no folder %s" % args.out, file=sys.stderr)
        return 2
    for name in guide.OUTPUTS:
        path = os.path.join(args.out, name)
        with open(path + ".new", "wb") as f:
            f.write(files[name])
        os.replace(path + ".new", path)
    print("guide: wrote %s" % ", ".join(os.path.join(args.out, n) for n in guide.OUTPUTS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
