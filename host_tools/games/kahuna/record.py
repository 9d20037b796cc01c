"""A game record: a finished game of the board, from its journal, written as a scenario
(the project's notation, docs/scenarios.md) that replays it move by move in the simulator
(`python -m host_tools sim --scenario FILE`, the static page's "Replay a game record").

The journal comes from the board's link (`archive`, a finished game: the monitor's
`record`), or from the simulator running in the static page. Every move names its cards
(a scenario taps them), so only a game played to its end is written: while a game is in
play its hands and deck are hidden, and a record would show them to whoever reads the
file (the privacy rule of the link: no hand, no draw, no deal, no face-down discard named
before the end). A game against the board is written as both sides' moves, entered as a
two-player game would enter them (the AI's own card procedure is not replayed); the
record ends with `expect` lines for the result, so a replay checks itself.

Pure Python that runs on CPython and MicroPython (the page).
"""

import io

from core import journal as journalmod
from games.kahuna import rules
from games.kahuna import settings as kahunasettings
from host_tools.games.kahuna.actionlines import action_lines, settings_lines


class RecordError(ValueError):
    """No record can be written (a game in play, a journal that does not replay)."""


IN_PLAY = ("the game is not over: a record names every card played, drawn and dealt, so it "
           "is written once the game is over")


def scenario(board, data):
    """The finished game in journal bytes `data` -> scenario text; RecordError says why
    there is none."""
    items, problem = journalmod.records(io.BytesIO(bytes(data)))
    if not items or items[0][0] != "new" or len(items[0]) < 2:
        raise RecordError("no game in this journal: %s" % (problem or "no new-game record"))
    settings = items[0][1]
    try:
        game = kahunasettings.Settings.from_json(board, settings).new_game()
    except (ValueError, TypeError, AttributeError) as e:
        raise RecordError("its settings cannot be read: %s" % (e,)) from None
    moves = []
    for n, item in enumerate(items[1:], 2):
        if item and item[0] == "solo":
            continue  # the AI's stack and the display: bookkeeping, no move
        if item and item[0] == "state":
            raise RecordError("the journal was compacted (record %d holds the game as it "
                              "stood, not its moves)" % n)
        try:
            game.apply(tuple(item))
        except (rules.Rejected, ValueError, TypeError, IndexError, KeyError) as e:
            raise RecordError("record %d does not replay: %s" % (n, e)) from None
        moves.append(tuple(item))
    if game.phase != rules.OVER:
        raise RecordError(IN_PLAY)
    return _text(settings, game, moves, problem, items[0][2] if len(items[0]) > 2 else None)


def _text(settings, game, moves, problem, number):
    full = kahunasettings.check_settings(settings)
    lines = ["# Kahuna: a game record%s, written from the board's journal."
             % (" (game %s)" % number if number is not None else ""),
             "# Replay it: python -m host_tools sim --scenario FILE, or the web page's "
             "\"Replay a game record\"."]
    if full.get("ai"):
        lines.append("# Played against the board (it played %s%s); both sides' moves are "
                     "entered here as at one table." % (
                         full["ai"], ", level %d" % full["ai_level"]
                         if full.get("ai_level") else ""))
    if problem:
        lines.append("# The journal ended in a damaged record (%s): the moves before it."
                     % problem)
    lines += settings_lines(full)
    for act in moves:
        lines += action_lines(act)
    w = game.winner
    lines += ["# the result",
              "expect phase over",
              "expect winner %s" % w,
              "expect scores.white %d" % game.scores[0],
              "expect scores.black %d" % game.scores[1]]
    return "\n".join(lines) + "\n"
