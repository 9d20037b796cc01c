"""Kami on the platform: the game interface (docs/platform.md). The rules live in
`rules`, the cards in `deck`, the options in `settings`, the public state and the report
in `report`; the controller, the view and the layout are still to come.
"""

from games.kami import controller as _controller
from games.kami import deck as _deck
from games.kami import report as _report
from games.kami import rules as _rules
from games.kami import settings as _settings

NAME = "kami"
TITLE = "Kami"
SEATS = ("p1", "p2", "p3", "p4")  # the first `players` of them take part
seats = _settings.seat_names
check_settings = _settings.check_settings
report = _report.game
public_state = _report.public
seat_view = _report.seat_view


def card_names(board=None):
    return _deck.NAMES


def new_state(board, settings):
    """A new game with `settings` in their JSON form (ValueError for bad ones)."""
    s = check_settings(settings)
    return _rules.Game(players=s["players"], mode=s["mode"],
                       first=int(s["first"][1:]) - 1, target=s["target"], deal=s["deal"],
                       seed=s["seed"] or 0)


def controller(state):
    return _controller.Controller(state)


def place_names(board, places):
    """The names of a refusal's places (core.outcome.Outcome.places): the seat light
    `p2` of the seat the board waited for (8.4)."""
    return ["p%d" % (i + 1) for kind, i in places]


def replay(state, record):
    """Apply one journal record: a whole-state record or an action."""
    if record[0] == "state":
        state.restore(record[1])
    else:
        state.apply(tuple(record))


def resume(state):
    """After a power cut an open 5-Soldier claim not yet answered is dropped (the
    contract): phase play, as before the `discard`."""
    state.drop_claim()
