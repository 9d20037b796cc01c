"""The face-down defence's acknowledgement takes the same time for every card (rules 8.2,
8.3; issue 18): what the board does between the tap and its acknowledgement, measured
without a wall clock (tests/tapwork.py). For each case of secret_defence.py (the same
games: an opening and a replay at a table, two known deals), every card the seat may lay
face down is tapped in its own fresh App, with a journal on a virtual flash, the serial
link listening and a buzzer stand-in; the tap is the App's whole event (`tap_card`: the
controller, the rules and the journal's record, the view's note, the tune, the frame
pushed to the strip, the link's line), after which the acknowledgement is lit. Printed,
one line per card: on CPython the calls, lines and bytecode instructions per function
(sys.settrace), on MicroPython the bytes allocated with the collector off; on both the
frames pushed (and whether the last is the acknowledgement), the tunes, the journal's
bytes and the link's lines. The same for the `back` that takes the face-down card back
(undo within the turn, 8.2).

tests/games/kami/test_kami_secret.py checks that every card of a case prints the same
line, on each runtime.
"""

import json

import secret_defence

import conformance
import tapwork
from core import gameload
from core.app import App
from core.cards import Registry
from core.journal import Journal
from core.link import Link
from host_tools.fakehw.flash import VirtualFlash

NOW = 1000


def one_card(settings, before, k, event="tap"):
    """(card name, the candidates' names, the event's measures) for the k-th candidate:
    its tap as the face-down defence, or (event "back") the `back` that takes it back
    (8.2's undo within the turn: the card returns to the hand, a known deal's sorted)."""
    game_def = gameload.load("kami")
    board = conformance.board_for("kami")
    flash = VirtualFlash()
    strip = tapwork.Strip()
    buzzer = tapwork.Buzzer()
    app = App(game_def, board, Registry(game_def.card_names(board)), strip, dict(settings),
              sound=buzzer, journal=Journal("/game.jnl", flash))
    lines = []
    link = Link(app, lines.append, lambda: NOW)
    app.listen(link.on_event)
    for ev in before:
        if ev in secret_defence.BUTTONS:
            app.press(ev, 5)
        else:
            app.tap_card(ev, 5)
    g = app.game
    assert g.step == "open"
    names = secret_defence.candidates(app)
    name = names[k]
    now = NOW
    if event == "back":
        app.tap_card(name, NOW)
        now = NOW + 2000
    link.view.state()  # the host is up to date: what follows is the event's alone
    del lines[:]
    if event == "back":
        outcome, out = tapwork.measure(app.press, ("back", now), strip, buzzer, flash)
    else:
        outcome, out = tapwork.measure(app.tap_card, (name, now), strip, buzzer, flash)
    acknowledged = bytes(app.view.render(g, app.referee, now)).hex()
    out["outcome"] = list(outcome)
    out["last_frame_is_the_acknowledgement"] = (bool(strip.shown)
                                                and strip.shown[-1] == acknowledged)
    out["link_lines"] = len(lines)
    out["lines"] = lines
    out["step"] = g.step
    return name, names, out


def vary(settings, before, event="tap"):
    out = []
    names = None
    k = 0
    while names is None or k < len(names):
        name, names, measures = one_card(settings, before, k, event)
        out.append((name, measures))
        k += 1
    return out


def main():
    """One line per case, event and card: `case card {...}`; the cases of the `back`
    are numbered after the taps' (4 to 7 for cases 0 to 3)."""
    n = len(secret_defence.CASES)
    for event in ("tap", "back"):
        for i in range(n):
            settings, before = secret_defence.CASES[i]
            for name, measures in vary(settings, before, event):
                print(i + (n if event == "back" else 0), name, json.dumps(measures))


if __name__ == "__main__":
    main()
