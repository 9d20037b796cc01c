"""`python -m host_tools soak [--games N] [--micropython M]`: random whole games through the
firmware's App (tag UIDs, buttons, picks, the journal on a virtual flash), with the
game's invariants checked after every event, garbage events mixed in (unknown tags, cards
of the wrong player, buttons that mean nothing: each must be refused and change nothing)
and reboots from the journal at random quiet moments. A share of the games runs inside
the MicroPython unix port, where the heap must come back to its level after every game
(the simulator's heap: the virtual flash's files live in it, which on the board they do not).

The same file is the soak's core under MicroPython:  micropython host_tools/measure/soak.py FIRST N
"""

import gc
import json
import sys

from core import board as boardmod
from core import gameload
from core.app import App
from core.files import JOURNAL_FILE
from core.journal import Journal
from games.kahuna import rules
from games.kahuna.rules import card_names
from host_tools.fakehw.flash import VirtualFlash
from host_tools.paths import BOARD_DEF
from host_tools.simulator import engine as simcore
from host_tools.simulator import randgame, scengen
from tests.invariants import problems as invariant_problems

GARBAGE_PERCENT = 8
REBOOT_PERCENT = 3
MICRO = sys.implementation.name == "micropython"


class NullStrip:
    def show(self, frame):
        pass


class Soak:
    def __init__(self, board):
        self.board = board
        self.registry = simcore.sim_registry(board)
        self.names = card_names(board)
        self.events = 0
        self.garbage = 0
        self.reboots = 0
        self.games = 0
        self.flash_bytes = 0

    def boot(self, flash, settings):
        return App(gameload.load(self.board.game), self.board, self.registry, NullStrip(), settings,
                   journal=Journal(JOURNAL_FILE, flash))

    def check(self, app, what):
        problems = invariant_problems(app.game)
        if problems:
            raise AssertionError("%s: %s" % (what, "; ".join(problems)))

    def event(self, app, line, now):
        """One scenario line as the board's inputs would deliver it."""
        words = line.split()
        if words[0] == "tap":
            app.tap_uid(simcore.sim_uid(self.names.index(words[1])), now)
        elif words[0] == "press":
            app.press(words[1], now)
        else:
            app.pick(words[1], now)
        self.events += 1

    def garbage_event(self, app, rng, now):
        """Something that must be refused: state and journal stay as they were."""
        before = app.game.snapshot()
        ui = (app.referee.pending, app.referee.options, app.referee.discarding)
        roll = rng.below(3)
        if roll == 0:
            app.tap_uid(bytes((0x04, rng.below(256), rng.below(256), 0x99, 1, 2, 3)), now)
            expected = "unknown-card" if app.game.phase != "over" else "wrong-phase"
        elif roll == 1:
            # A card of the other player's hand, if any.
            opp = 1 - app.game.turn
            cards = [c for c in range(len(self.names)) if app.game.place[c] == opp]
            if not cards or app.game.phase in ("deal", "draw") or app.referee.discarding:
                return
            app.tap_uid(simcore.sim_uid(rng.choice(cards)), now)
            expected = None  # wrong-phase or card-not-in-hand, by the phase
        else:
            if app.referee.options:
                return
            app.press("next", now)
            expected = "wrong-phase"
        if app.referee.outcome.kind != "refused":
            raise AssertionError("garbage event accepted")
        if expected and app.referee.outcome.code != expected:
            raise AssertionError("garbage refused as %s, not %s"
                                 % (app.referee.outcome.code, expected))
        if app.game.snapshot() != before or (app.referee.pending, app.referee.options,
                                             app.referee.discarding) != ui:
            raise AssertionError("a refused event changed something")
        self.garbage += 1

    def game(self, seed):
        rng = randgame.Rng(seed)
        settings = randgame.random_settings(rng)
        jsettings = rules.check_settings(settings)  # the journal's JSON form
        flash = VirtualFlash()
        app = self.boot(flash, jsettings)
        player = randgame.Player(randgame.Rng(seed))
        now = 0
        while not app.game.is_over():
            act = player.choose(app.game)
            for line in scengen.action_lines(act):
                if rng.chance(GARBAGE_PERCENT):
                    self.garbage_event(app, rng, now)
                self.event(app, line, now)
                now += 100
                if app.referee.outcome is not None and app.referee.outcome.kind == "refused":
                    raise AssertionError("seed %d: %s refused: %s"
                                         % (seed, line, app.referee.outcome.message))
                self.check(app, "seed %d after %s" % (seed, line))
            if app.referee.is_idle() and rng.chance(REBOOT_PERCENT):
                snap = app.game.snapshot()
                app = self.boot(flash, jsettings)
                self.reboots += 1
                if app.game.snapshot() != snap:
                    raise AssertionError("seed %d: a reboot changed the game" % seed)
        self.games += 1
        self.flash_bytes += flash.bytes_written
        return app.game.winner


def run(first, count, heap_report=False, board_path=BOARD_DEF):
    board = boardmod.load(board_path, keep_raw=False)
    soak = Soak(board)
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

    from host_tools import mpy
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
    args = ap.parse_args(argv)
    n_mp = min(args.micropython, args.games)
    t = time.time()
    cp = run(args.seed, args.games - n_mp, board_path=BOARD_DEF)
    print("cpython: %(games)d games, %(events)d events, %(garbage)d garbage events refused, "
          "%(reboots)d reboots, %(flash_bytes_per_game)d flash bytes per game" % cp)
    mp = None
    if n_mp:
        proc = mpy.run(os.path.join(mpy.ROOT, "host_tools", "measure", "soak.py"),
                       [str(args.seed + args.games - n_mp), str(n_mp)], heap=mpy.SIM_HEAP,
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
    print(json.dumps(run(int(sys.argv[1]), int(sys.argv[2]), heap_report=True)))
