"""An archived game of the board, replayed move by move on the host with the rules engine.

The board keeps its last finished or abandoned games as journal files (core.journal)
and sends one over the link in pieces (core.link, `{"cmd": "archive"}`); `replay`
reads its records and applies them to a fresh `rules.Game`, one step per record, each
step with the board's state in words and the LED frame the firmware's own view composes
for it (games.kahuna.view), so the browser draws a step exactly as it draws the live board.

What a replay shows of the hands (the live page's rule, stated in the README):
- a game played to its end (game over): both hands at every step, and every card named.
  Its cards are no secret any more: its players saw them played out, and a review is
  the point of a replay. The next game was dealt from the shuffled deck again, so they
  tell nothing of the game in play;
- a game abandoned before its end (a new game was started over it): hand sizes only,
  and no card of a hand, a draw, a deal or a discard named, as during play, unless the
  owner has the board's hands revealed (`reveal`, as for the live game).
The board sends the whole file either way; this module decides, so a browser is only
ever sent what it may show.
"""

import io

from core import journalread
from games.kahuna import game as kahunagame
from games.kahuna import rules
from games.kahuna import settings as kahunasettings
from games.kahuna.referee import Referee
from games.kahuna.view import View


class ReplayError(ValueError):
    """The archived game cannot be replayed at all (no readable first record)."""


def _player(game):
    return rules.PLAYERS[game.turn]


def _island(card):
    return card.split("-")[0]


def describe(item, who, shown):
    """One journal record as a move in words; cards of a hand named only when `shown`."""
    kind = item[0]
    args = item[1:]
    if kind == "deal":
        return "%s is dealt %s" % (who, args[0] if shown else "a card")
    if kind == "handicap":
        return "%s places a handicap bridge on %s" % (who, args[0])
    if kind == "place":
        card = args[0] if shown else "a %s card" % _island(args[0])
        return "%s plays %s: a bridge on %s" % (who, card, args[1])
    if kind == "remove":
        cards = ("%s and %s" % (args[0], args[1]) if shown
                 else "%s and %s cards" % (_island(args[0]), _island(args[1])))
        return "%s plays %s to remove the bridge on %s" % (who, cards, args[2])
    if kind == "refill":
        return "%s takes the free refill on %s" % (who, args[0])
    if kind == "skip_refill":
        return "%s lets the free refill go" % who
    if kind == "discard":
        return "%s discards %s" % (who, args[0] if shown else "a card")
    if kind == "end_play":
        return "%s ends the play phase" % who
    if kind == "resume_play":
        return "%s goes back to playing" % who
    if kind == "draw":
        return "%s draws %s" % (who, args[0] if shown else "a card")
    if kind == "decline":
        return "%s draws no card" % who
    if kind == "undo":
        return "%s takes back the last move" % who
    if kind == "takeback":
        return "the last %s taken back (R12)" % (
            "turn" if args[0] == 1 else "%d turns" % args[0])
    if kind == "tb":
        return "a step of the takeback done on the table"
    return kind


def state_of(game, shown):
    """The public state of `game` (the link's field names), hands only when `shown`."""
    board = game.board
    out = {
        "phase": game.phase, "round": game.round, "turn": _player(game),
        "winner": game.winner,
        "bridges": dict((board.connections[k], rules.PLAYERS[o])
                        for k, o in enumerate(game.bridges) if o != rules.NOBODY),
        "control": dict((board.islands[i], rules.PLAYERS[o])
                        for i, o in enumerate(game.control) if o != rules.NOBODY),
        "supply": {"white": game.supply[0], "black": game.supply[1]},
        "scores": {"white": game.scores[0], "black": game.scores[1]},
        "round_scores": [{"white": w, "black": b} for w, b in game.round_scores],
        "hand_sizes": {"white": len(game.hand("white")), "black": len(game.hand("black"))},
    }
    if shown:
        out["hands"] = {"white": list(game.hand("white")), "black": list(game.hand("black"))}
    return out


def frame(game):
    """The LED frame the firmware shows for `game` with nothing pending, as hex."""
    return View(game.board).render(game, Referee(game), 0).hex()


def replay(board, data, revealed=False):
    """The archived game in `data` (the journal file's bytes) step by step:
    {"game", "settings", "finished", "hands_shown", "steps": [{"text", "state", "leds"}],
    "problem"}. Hands are shown when the game was finished, or when `revealed`."""
    items, problem = journalread.records(io.BytesIO(bytes(data)))
    if not items or items[0][0] != "new" or len(items[0]) < 2:
        raise ReplayError("not an archived game: %s" % (problem or "it has no new-game record"))
    settings = items[0][1]
    try:
        game = kahunagame.new_state(board, settings)  # its last turns kept: a takeback
    except (ValueError, TypeError, AttributeError) as e:
        raise ReplayError("its settings cannot be read: %s" % (e,)) from None
    game_no = items[0][2] if len(items[0]) > 2 else None
    # Each step: (record or None, who moved, round scores before, state with hands, leds);
    # whether the hands may be shown is known only at the end (was the game finished?).
    moves = [(None, None, [], state_of(game, True), frame(game))]
    for item in items[1:]:
        if item and item[0] == "solo":
            continue  # a solo game's bookkeeping of the AI's stack and the display: no move
        who = _player(game)
        scored = list(game.round_scores)
        try:
            kahunagame.replay(game, item)  # an action, a state, a takeback or its step
        except (rules.Rejected, ValueError, TypeError, IndexError, KeyError) as e:
            problem = "record %d does not replay: %s" % (len(moves) + 1, e)
            break
        moves.append((item, who, scored, state_of(game, True), frame(game)))
    finished = game.phase == rules.OVER
    shown = finished or bool(revealed)
    steps = []
    for item, who, scored, state, leds in moves:
        if item is None:
            words = ["new game: %s" % settings_text(settings)]
        elif item[0] == "state":
            words = ["(the journal was compacted here: the game as it then stood)"]
        else:
            words = [describe(item, who, shown)]
        for s in state["round_scores"][len(scored):]:
            words.append("round scored: white +%d, black +%d" % (s["white"], s["black"]))
        if item is not None and state["phase"] == rules.OVER and state["winner"]:
            w = state["winner"]
            words.append("game over: " + ("a draw" if w == "draw" else w + " wins"))
        steps.append({"text": "; ".join(words), "state": _hide(state, shown), "leds": leds})
    return {"game": game_no, "settings": full_settings(settings), "finished": finished,
            "hands_shown": shown, "steps": steps, "problem": problem}


def _hide(state, shown):
    if not shown:
        state = dict(state)
        state.pop("hands", None)
    return state


def full_settings(settings):
    """A game's settings with the rules' defaults filled in (a journal keeps them as
    given), or None when they are not settings at all."""
    try:
        return kahunasettings.check_settings(settings)
    except (ValueError, TypeError, AttributeError):
        return None


def settings_text(settings):
    if not isinstance(settings, dict):
        return "?"
    h = settings.get("handicap")
    return "variant %s, %s starts, %s" % (
        settings.get("variant", "standard"), settings.get("first", "white"),
        "handicap %s %d" % (h[0], h[1]) if h else "no handicap")
