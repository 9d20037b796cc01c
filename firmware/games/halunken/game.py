"""Halunken & Spelunken's interface for the platform (docs/platform.md): so far the
settings, a new state and the report's game keys; layout, controller and view come later."""

from games.halunken import deck, report, rules
from games.halunken import settings as _settings

NAME = "halunken"
TITLE = "Halunken & Spelunken"
ALL_SEATS = ("p1", "p2", "p3", "p4")
SEATS = ALL_SEATS  # 2 to 4 of them play (H17): seats(players) names those at the table


def seats(players):
    return ALL_SEATS[:players]


check_settings = _settings.check_settings


def new_state(board, settings):
    """A new game; `board` (the layout) is not needed by the rules."""
    return rules.Game(check_settings(settings))


def report_keys(state):
    return report.game(state)


report_state = report.game
CREW_NAMES = tuple(deck.crew_name(c) for c in range(deck.CREW))
