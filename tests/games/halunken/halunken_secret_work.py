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

import json

import secret_choice

import conformance
import tapwork
from core import gameload
from core.app import App
from core.cards import Registry
from core.journal import Journal
from core.link import Link
from games.halunken import controller as ctl
from games.halunken import report
from host_tools.fakehw.flash import VirtualFlash

NOW = 1000


def one_card(settings, which, k):
    """(card name, the figure's card names, the event's measures) for the k-th card."""
    game_def = gameload.load("halunken")
    board = conformance.board_for("halunken")
    flash = VirtualFlash()
    strip = tapwork.Strip()
    buzzer = tapwork.Buzzer()
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
    name = names[k]
    outcome, measured = tapwork.measure(app.tap_card, (name, NOW), strip, buzzer, flash)
    acknowledged = bytes(app.view.render(g, app.referee, NOW)).hex()
    out = {
        "outcome": list(outcome),
        "last_frame_is_the_acknowledgement": bool(strip.shown) and strip.shown[-1]
        == acknowledged,
        "link_lines": len(lines),
    }
    out.update(measured)  # frames pushed, tunes, journal bytes, allocation, traced work
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
