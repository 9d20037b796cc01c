"""The secret choice seen from outside the controller (section 8.3, H32): a seat's every
possible movement card (and, in a won tactical round, every card W may choose for
Black-Jack) is tapped in its own fresh game, and what leaves the board is printed: the
event's outcome, the link's lines (core.link, not revealed) and LED frames during and
after the acknowledgement. Run as a script on CPython or the MicroPython unix port
(tests/games/halunken/test_halunken_secret.py): one line per card, all identical.
"""

import json

import conformance
from core import gameload
from core.app import App
from core.cards import Registry
from core.link import Link
from games.halunken import controller as ctl
from games.halunken import deck, report

CASES = (
    # settings, which figure's choice varies: "seat" (the first seat to choose after
    # p1) or "bj" (Black-Jack's, chosen by W)
    ({"players": 3, "mode": "standard", "seed": 5}, "seat"),
    ({"players": 4, "mode": "beginner", "seed": 8}, "seat"),
    ({"players": 2, "mode": "tactical", "seed": 3}, "bj"),
    # At a table (H33): the takes tapped, nothing of a pile known.
    ({"players": 3, "mode": "standard", "deal": "table"}, "seat"),
    ({"players": 2, "mode": "tactical", "deal": "table"}, "bj"),
)
TIMES = (0, 60, 130, 249, 250, 400, 777, 2000)  # ms after the tap


class Strip:
    def show(self, frame):
        pass


def to_the_choice(app, bid):
    """Set-up, Black-Jack's placement, the auction (a bid by the opener when `bid`)."""
    g = app.game
    t = 0
    while g.step in ("place", "place-bj", "take"):
        if g.step == "take":  # at a table: the card taken, the first one not yet seen
            app.tap_card(deck.crew_name(g.legal_actions()[0][1]), t)
        else:
            app.press("ok", t)
    while g.step == "auction":
        s = g.auction["speaker"]
        if bid and g.auction["seat"] < 0 and g.crews[s]:
            app.tap_card(deck.crew_name(g.crews[s][0]), t)  # an offer; the other withdraws
        else:
            app.press("done", t)


def vary(settings, which):
    """(card name, output) for every card the varying figure may choose."""
    game_def = gameload.load("halunken")
    board = conformance.board_for("halunken")
    out = []
    names = None
    k = 0
    while names is None or k < len(names):
        app = App(game_def, board, Registry(game_def.card_names(board)), Strip(),
                  dict(settings))
        lines = []
        link = Link(app, lines.append, lambda: 0)
        app.listen(link.on_event)
        to_the_choice(app, which == "bj")
        g = app.game
        # Choices before the varying one: each figure its first card left.
        while True:
            f = ctl.expected_figure(g)
            if (which == "bj" and f == 4) or (which == "seat" and f >= 1 and f != 4):
                break
            app.tap_card(report.move_name(g, f, g.left_moves(f)[0]), 5)
        if names is None:
            names = [report.move_name(g, f, m) for m in g.left_moves(f)]
        link.view.state()  # the host is up to date: what follows is the tap's alone
        del lines[:]
        outcome = app.tap_card(names[k], 1000)
        frames = [bytes(app.view.render(g, app.referee, 1000 + t)).hex() for t in TIMES]
        out.append((names[k], {"outcome": list(outcome), "lines": lines, "frames": frames,
                               "chosen": report.game(g)["chosen"]}))
        k += 1
    return out


def main():
    for i in range(len(CASES)):
        settings, which = CASES[i]
        for name, result in vary(settings, which):
            print(i, name, json.dumps(result))


if __name__ == "__main__":
    main()
