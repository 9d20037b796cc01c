"""The board's game rebuilt from its journal at boot (core.app.App): every record
replayed into the app, the game's settings, the number of its actions (the link's
`seq`), and the board's own player following them. A board replays its journal at boot
only: this code is loaded for it and given back after it (core.unload)."""

from core.journal import JournalError
from core.outcome import Rejected


def replay(app):
    """Replay `app.journal` into `app`: its `game` (None when the journal holds none),
    `settings`, `seq` and `solo`, and `boot_problem` when a record does not replay or the
    journal is damaged (core.journal: reading stops there)."""

    def each(item):
        if item[0] == "new":
            if app.game is not None or len(item) < 2 or not isinstance(item[1], dict):
                raise JournalError("a new-game record in the middle of the journal")
            try:
                app.game = app.game_def.new_state(app.board, item[1])
            except ValueError as e:
                raise JournalError("the journal's game settings: %s" % (e,)) from None
            app.settings = item[1]
            app._make_solo(None)
            return
        if app.game is None:
            raise JournalError("the journal does not start with a new game")
        if app.boot_problem is not None:
            return  # stop applying after a record that did not replay
        if item[0] == "solo":
            if app.solo is not None and len(item) > 1 and isinstance(item[1], dict):
                app.solo.load(item[1])
            return
        try:
            actor = app.game.to_act()[0]
            app.game_def.replay(app.game, item)
            if item[0] == "state":
                if len(item) > 2 and type(item[2]) is int:
                    app.seq = item[2]
                return
            app.seq += 1
            if app.solo is not None:
                app.solo.note(app.game, item, actor)
        except (Rejected, ValueError, TypeError, IndexError, KeyError) as e:
            app.boot_problem = "a record does not replay: %s" % (e,)

    try:
        _, problem = app.journal.replay(each)
    except JournalError as e:
        problem = str(e)
        app.game = None
    app.boot_problem = app.boot_problem or problem
