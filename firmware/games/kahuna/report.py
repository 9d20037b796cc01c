"""Kahuna's public state, the one home of it: the game as the simulator's JSON report
tells it (`game`, keyed as the scenario contract, docs/scenarios.md, fixes them) and as the
serial link's state tells it (`PublicState`: hand sizes instead of hands unless revealed,
the settings, the referee's open move, the frame). The rules keep the game in indices;
this is the one place that turns them into names.
"""

from binascii import hexlify

from games.kahuna import settings as kahunasettings
from games.kahuna.referee import ISLAND
from games.kahuna.rules import BLACK, NOBODY, PLAYERS, WHITE

# The game's keys of the JSON report, in the contract's order (the simulator adds
# "rejected" and "leds" after them).
GAME_KEYS = ("phase", "round", "final_turns", "turn", "bridges", "control", "supply",
             "hands", "discard", "drawable", "must_draw", "scores", "round_scores", "winner")


def owners(names, owned):
    """{name: player} of the owned ones: bridges by connection, control by island."""
    return dict((names[k], PLAYERS[o]) for k, o in enumerate(owned) if o != NOBODY)


def players(pair):
    return {"white": pair[WHITE], "black": pair[BLACK]}


def round_scores(g):
    return [{"white": w, "black": b} for w, b in g.round_scores]


def takeback(g):
    """A takeback's walk through the table, while one is under way: {"step": n (1 first),
    "steps": count, "say": its words}; else None (games.kahuna.takeback)."""
    if g.turns is None or g.turns.walk is None:
        return None
    from games.kahuna import takeback as tb  # loaded: a takeback is under way
    return {"step": g.turns.walk[1] + 1, "steps": len(tb.steps(g)), "say": tb.say(g)}


def game(g):
    """The game fields of the report for the rules' game state `g` (and "takeback" while
    a takeback's walk is under way: an extension of the contract)."""
    out = {
        "phase": g.phase,
        "round": g.round,
        "final_turns": g.final_turns,
        "turn": PLAYERS[g.turn],
        "bridges": owners(g.board.connections, g.bridges),
        "control": owners(g.board.islands, g.control),
        "supply": players(g.supply),
        "hands": {"white": g.hand("white"), "black": g.hand("black")},
        "discard": g.discard_count(),
        "drawable": g.drawable_count(),
        "must_draw": g.must_draw,
        "scores": players(g.scores),
        "round_scores": round_scores(g),
        "winner": g.winner,
    }
    walk = takeback(g)
    if walk is not None:
        out["takeback"] = walk
    return out


class PublicState:
    """The link's state of a Kahuna board (core/link.py's docstring), field by field:
    `raws(app, reveal)` gives every field of FIELDS as cheap to compare as can be (one
    pass, as this runs after every event), `value(app, name, raw)` its JSON form."""

    FIELDS = ("phase", "round", "turn", "final_turns", "must_draw", "winner", "bridges",
              "control", "supply", "scores", "round_scores", "discard", "drawable",
              "hand_sizes", "hands", "revealed", "settings", "ui", "leds")
    HIDDEN = ("hands",)  # fields left out of the state while their raw value is None

    @staticmethod
    def raws(app, reveal):
        g = app.game
        r = app.referee
        white = len(g.hand("white"))
        black = len(g.hand("black"))
        hands = (tuple(g.hand("white")), tuple(g.hand("black"))) if reveal else None
        return (g.phase, g.round, PLAYERS[g.turn], g.final_turns, g.must_draw,
                g.winner, tuple(g.bridges), tuple(g.control), (g.supply[0], g.supply[1]),
                (g.scores[0], g.scores[1]), len(g.round_scores), g.discard_count(),
                g.drawable_count(), (white, black), hands, reveal, app.settings,
                (tuple(r.options), r.sel, tuple(r.pending), r.picked, r.discarding,
                 g.refill, g.handicap_left, len(g.history) > 0,
                 (r.asking, g.turns.walk[1] if g.turns.walk is not None else -1)
                 if r.taking_back() else None),
                bytes(app.view.frame))

    @staticmethod
    def value(app, name, raw):
        board = app.board
        if name == "bridges":
            return owners(board.connections, raw)
        if name == "control":
            return owners(board.islands, raw)
        if name == "supply" or name == "scores" or name == "hand_sizes":
            return players(raw)
        if name == "round_scores":
            return round_scores(app.game)
        if name == "hands":
            return {"white": list(raw[0]), "black": list(raw[1])}
        if name == "settings":
            return kahunasettings.check_settings(raw)  # the defaults filled in
        if name == "ui":
            options, sel, pending, picked, discarding, refill, left, undo, tb = raw
            conns = board.connections
            return {"options": [[kind, conns[k]] for kind, k in options], "sel": sel,
                    "pending": [board.islands[c // 2] for c in pending],
                    "picked": conns[picked] if picked != NOBODY else None,
                    "discarding": discarding,
                    "refill": conns[refill] if refill != NOBODY else None,
                    "handicap_left": left, "undo": undo,
                    "takeback": None if tb is None else {
                        "asking": bool(tb[0]), "say": app.referee.say()}}
        if name == "leds":
            return hexlify(raw).decode()
        return raw


def place_names(board, places):
    """The names of a refusal's places (core.outcome.Outcome.places): islands and
    connections as the board names them."""
    out = []
    for kind, i in places:
        out.append(board.islands[i] if kind == ISLAND else board.connections[i])
    return out
