"""`python -m host_tools soak [--games N] [--micropython M]`: random whole games through the
firmware's App (tag UIDs, buttons, picks, the journal on a virtual flash), with the
game's invariants checked after every event, garbage events mixed in (unknown tags, cards
of the wrong player, buttons that mean nothing: each must be refused and change nothing)
and reboots from the journal at random quiet moments. A share of the games runs inside
the MicroPython unix port, where the heap must come back to its level after every game
(the simulator's heap: the virtual flash's files live in it, which on the board they do not).

The game's events, garbage and invariants are its `soakplay` part
(host_tools/games/<game>/soakplay.py, `Soak(board)`).

The same file is the soak's core under MicroPython:
    micropython host_tools/measure/soak.py FIRST N [BOARD]
"""

import gc
import json
import sys

from core import board as boardmod
from host_tools import games as hostgames
from host_tools.paths import BOARD_DEF

MICRO = sys.implementation.name == "micropython"


def run(first, count, heap_report=False, board_path=BOARD_DEF):
    board = boardmod.load(board_path, keep_raw=False)
    soak = hostgames.part(board.game, "soakplay").Soak(board)
    drift = 0
    base = None
    for seed in range(first, first + count):
        soak.game(seed)
        if heap_report:
            gc.collect()
            level = gc.mem_alloc()
            if base is None:
                base = level  # after the first game: one-time allocations are done
            drift = max(drift, level - base)
    return {"games": soak.games, "events": soak.events, "garbage": soak.garbage,
            "reboots": soak.reboots, "flash_bytes_per_game": soak.flash_bytes // soak.games,
            "heap_drift_bytes": drift if heap_report else None}


def main(argv=None):
    import argparse
    import os
    import time

    from host_tools import gamearg, mpy

    def count(least):
        def parse(text):
            n = int(text)
            if n < least:
                raise ValueError
            return n
        parse.__name__ = "whole number >= %d" % least  # argparse's word for a bad value
        return parse

    ap = argparse.ArgumentParser(prog="python -m host_tools soak")
    ap.add_argument("--games", type=count(1), default=10000, help="games in all (default 10000)")
    ap.add_argument("--micropython", type=count(0), default=300,
                    help="how many of them run inside MicroPython (default 300)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--board", help="board definition (default board_def/kahuna.json)")
    gamearg.add(ap)
    args = ap.parse_args(argv)
    chosen = gamearg.resolve("soak", args.game, args.board, "soak")
    if chosen is None:
        return 2
    board_path = chosen[1]
    try:
        boardmod.load(board_path)
    except boardmod.BoardError as e:
        print("soak: board: %s" % e, file=sys.stderr)
        return 2
    n_mp = min(args.micropython, args.games)
    t = time.time()
    cp = run(args.seed, args.games - n_mp, board_path=board_path)
    print("cpython: %(games)d games, %(events)d events, %(garbage)d garbage events refused, "
          "%(reboots)d reboots, %(flash_bytes_per_game)d flash bytes per game" % cp)
    mp = None
    if n_mp:
        proc = mpy.run(os.path.join(mpy.ROOT, "host_tools", "measure", "soak.py"),
                       [str(args.seed + args.games - n_mp), str(n_mp), board_path],
                       heap=mpy.SIM_HEAP,
                       timeout=3600)
        if proc.returncode != 0:
            print(proc.stdout + proc.stderr, file=sys.stderr)
            print("0 passed, 1 failed")
            return 1
        mp = json.loads(proc.stdout.strip().splitlines()[-1])
        print("micropython: %(games)d games, %(events)d events, %(garbage)d garbage events "
              "refused, %(reboots)d reboots, heap after each game within %(heap_drift_bytes)d "
              "bytes of the first" % mp)
    print("soak: %d games in %.0f s" % (args.games, time.time() - t))
    if mp is not None and mp["heap_drift_bytes"] > 0:
        print("0 passed, 1 failed (MicroPython heap grew: a leak)")
        return 1
    print("%d passed, 0 failed" % args.games)
    return 0


if __name__ == "__main__" and MICRO:
    print(json.dumps(run(int(sys.argv[1]), int(sys.argv[2]), heap_report=True,
                         board_path=sys.argv[3] if len(sys.argv) > 3 else BOARD_DEF)))
