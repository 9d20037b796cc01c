"""The face-down defence seen from outside the controller (rules 8.2, 8.3; issue 18):
every card a seat may lay face down is tapped in its own fresh game, and what leaves the
board is printed: the event's outcome, the tunes asked for, the link's lines (core.link,
not revealed) and LED frames during and after the acknowledgement. Run as a script on
CPython or the MicroPython unix port (tests/games/kami/test_kami_secret.py): one line per
card, all identical within a case.
"""

import json

import conformance
from core import gameload
from core.app import App
from core.cards import Registry
from core.link import Link
from games.kami import deck

CASES = (
    # settings, the public events before the face-down tap (taps and presses)
    ({"players": 4}, ()),  # the opening at a table: any of the 32 cards (K6)
    ({"players": 3}, ("SOLDAT-1", "SOLDAT-2", "SOLDAT-3", "OR-1", "done", "done")),
    # p2 replays (K16) at a table: any card not played this round
    ({"players": 2, "seed": 4}, ()),  # a seeded deal: any card of p1's hand
    ({"players": 4, "seed": 8, "first": "p2"}, ()),  # p2 opens: any card of its hand
)
TIMES = (0, 60, 124, 125, 249, 250, 400, 777, 2000)  # ms after the tap
BUTTONS = ("done", "back", "next", "prev", "ok", "discard")


class Strip:
    def show(self, frame):
        pass


class Sound:
    def __init__(self):
        self.played = []

    def play(self, kind, now):
        self.played.append([kind, now])


def candidates(app):
    """The cards the acting seat may lay face down now."""
    g = app.game
    if g.hands is not None:
        return [deck.NAMES[c] for c in g.hands[g.turn]]
    return [deck.NAMES[c] for c in range(deck.COUNT) if not g.used[c]]


def fresh(settings, before):
    game_def = gameload.load("kami")
    board = conformance.board_for("kami")
    sound = Sound()
    app = App(game_def, board, Registry(game_def.card_names(board)), Strip(),
              dict(settings), sound=sound)
    lines = []
    link = Link(app, lines.append, lambda: 0)
    app.listen(link.on_event)
    for ev in before:
        if ev in BUTTONS:
            app.press(ev, 5)
        else:
            app.tap_card(ev, 5)
    return app, link, lines, sound


def vary(settings, before):
    """(card name, output) for every card the seat may lay face down."""
    out = []
    app = fresh(settings, before)[0]
    names = candidates(app)
    for name in names:
        app, link, lines, sound = fresh(settings, before)
        g = app.game
        assert g.step == "open"
        link.view.state()  # the host is up to date: what follows is the tap's alone
        del lines[:]
        del sound.played[:]
        outcome = app.tap_card(name, 1000)
        frames = [bytes(app.view.render(g, app.referee, 1000 + t)).hex() for t in TIMES]
        out.append((name, {"outcome": list(outcome), "lines": lines, "frames": frames,
                           "tunes": sound.played, "step": g.step}))
    return out


def main():
    for i in range(len(CASES)):
        settings, before = CASES[i]
        for name, result in vary(settings, before):
            print(i, name, json.dumps(result))


if __name__ == "__main__":
    main()
