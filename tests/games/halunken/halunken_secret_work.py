"""The secret choice's acknowledgement takes the same time for every card (section 8.3,
H32): what the board does between a movement card's tap and its acknowledgement, measured
without a wall clock. For each case of secret_choice.py (the same games, the same varying
figure) every card the figure may choose is tapped in its own fresh App, with a journal on
a virtual flash, the serial link listening and a buzzer stand-in; the tap is the App's
whole event (`tap_card`: the controller, the rules and the journal's record, the view's
note, the tune, the frame pushed to the strip, the link's lines), after which the
acknowledgement is lit. Printed, one line per card:

- on CPython, the work done: sys.settrace's line events and bytecode instructions
  (`f_trace_opcodes`), per function (file:function) and in all; the calls per function;
- on both runtimes, the bytes allocated during the event with the collector off
  (gc.mem_alloc on MicroPython, whose unix port here has no sys.settrace; tracemalloc's
  peak-free count of allocations on CPython is not comparable, so CPython prints the
  sizes of the journal's records instead, below);
- the event as the loop sees it: how many frames were pushed to the strip during the
  event and the last one (the acknowledgement is shown in the tap's own tick, at its
  `now`), the tunes started, the journal's bytes written.

tests/games/halunken/test_halunken_secret.py checks that every card of a case prints the
same line, on each runtime.
"""

import gc
import json
import sys

import secret_choice

import conformance
from core import gameload
from core.app import App
from core.cards import Registry
from core.journal import Journal
from core.link import Link
from games.halunken import controller as ctl
from games.halunken import report
from host_tools.fakehw.flash import VirtualFlash

TRACING = hasattr(sys, "settrace")
NOW = 1000


class Strip:
    def __init__(self):
        self.shown = []

    def show(self, frame):
        self.shown.append(bytes(frame).hex())


class Buzzer:
    def __init__(self):
        self.played = []

    def play(self, kind, now):
        self.played.append((kind, now))

    def tick(self, now):
        pass


class Work:
    """sys.settrace's count of the Python work of one call: per function, its calls,
    lines and bytecode instructions (CPython; the whole event, every frame below)."""

    def __init__(self):
        self.per = {}

    def _key(self, code):
        path = code.co_filename.replace("\\", "/")
        for root in ("/firmware/", "/host_tools/", "/tests/"):
            if root in path:
                path = path[path.index(root) + 1:]
                break
        return "%s:%s" % (path, code.co_name)

    def _global(self, frame, event, arg):
        if event == "call":
            key = self._key(frame.f_code)
            row = self.per.setdefault(key, [0, 0, 0])
            row[0] += 1
            frame.f_trace_opcodes = True
            return self._local
        return None

    def _local(self, frame, event, arg):
        if event == "line":
            self.per[self._key(frame.f_code)][1] += 1
        elif event == "opcode":
            self.per[self._key(frame.f_code)][2] += 1
        return self._local

    def run(self, fn, *args):
        sys.settrace(self._global)
        try:
            return fn(*args)
        finally:
            sys.settrace(None)

    def totals(self):
        out = [0, 0, 0]
        for row in self.per.values():
            for i in range(3):
                out[i] += row[i]
        return out


def one_card(settings, which, k):
    """(card name, the figure's card names, the event's measures) for the k-th card."""
    game_def = gameload.load("halunken")
    board = conformance.board_for("halunken")
    flash = VirtualFlash()
    strip = Strip()
    buzzer = Buzzer()
    app = App(game_def, board, Registry(game_def.card_names(board)), strip, dict(settings),
              sound=buzzer, journal=Journal("/game.jnl", flash))
    lines = []
    link = Link(app, lines.append, lambda: NOW)
    app.listen(link.on_event)
    secret_choice.to_the_choice(app, which == "bj")
    g = app.game
    while True:  # the choices before the varying one: each figure its first card left
        f = ctl.expected_figure(g)
        if (which == "bj" and f == 4) or (which == "seat" and f >= 1 and f != 4):
            break
        app.tap_card(report.move_name(g, f, g.left_moves(f)[0]), 5)
    names = [report.move_name(g, f, m) for m in g.left_moves(f)]
    link.view.state()  # the host is up to date: what follows is the tap's alone
    del lines[:]
    del strip.shown[:]
    del buzzer.played[:]
    written = flash.bytes_written
    name = names[k]
    gc.collect()
    gc.disable()
    before = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
    work = None
    if TRACING:
        work = Work()
        outcome = work.run(app.tap_card, name, NOW)
    else:
        outcome = app.tap_card(name, NOW)
    allocated = gc.mem_alloc() - before if hasattr(gc, "mem_alloc") else None
    gc.enable()
    acknowledged = bytes(app.view.render(g, app.referee, NOW)).hex()
    out = {
        "outcome": list(outcome),
        "frames_pushed": len(strip.shown),
        "last_frame_is_the_acknowledgement": bool(strip.shown) and strip.shown[-1]
        == acknowledged,
        "tunes": [list(p) for p in buzzer.played],
        "journal_bytes": flash.bytes_written - written,
        "link_lines": len(lines),
        "allocated": allocated,
    }
    if work is not None:
        out["work"] = work.totals()
        out["per_function"] = dict((key, work.per[key]) for key in sorted(work.per))
    return name, names, out


def vary(settings, which):
    out = []
    names = None
    k = 0
    while names is None or k < len(names):
        name, names, measures = one_card(settings, which, k)
        out.append((name, measures))
        k += 1
    return out


def main():
    for i in range(len(secret_choice.CASES)):
        settings, which = secret_choice.CASES[i]
        for name, measures in vary(settings, which):
            print(i, name, json.dumps(measures))


if __name__ == "__main__":
    main()
