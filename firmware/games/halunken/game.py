"""Halunken & Spelunken's interface for the platform (docs/platform.md): so far the
settings, a new state and the report's game keys; layout, controller and view come later."""

from games.halunken import deck, rules
from games.halunken import report as _report
from games.halunken import settings as _settings

NAME = "halunken"
TITLE = "Halunken & Spelunken"
SEATS = ("p1", "p2", "p3", "p4")  # 2 to 4 of them play (H17): seats(players)
CREW_NAMES = tuple(deck.crew_name(c) for c in range(deck.CREW))

check_settings = _settings.check_settings


def seats(players):
    return SEATS[:players]


def new_state(board, settings):
    """A new game from settings in their JSON form; the rules need nothing of `board`."""
    return rules.Game(check_settings(settings))


def report(state):
    """The JSON report's game keys, in the contract's order (no `rejected`, no `leds`)."""
    return _report.game(state)
