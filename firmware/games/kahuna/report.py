"""The game as the JSON report tells it (the simulator's report, the serial link's state):
names and plain values, keyed as the scenario contract (docs/scenarios.md) fixes them.

The rules keep the game in indices; this is the one place that turns it into the report.
"""

from games.kahuna.rules import BLACK, NOBODY, PLAYERS, WHITE


def game(g):
    """The game fields of the report for the rules' game state `g`."""
    conns = g.board.connections
    islands = g.board.islands
    return {
        "phase": g.phase,
        "round": g.round,
        "final_turns": g.final_turns,
        "turn": PLAYERS[g.turn],
        "bridges": dict((conns[k], PLAYERS[o]) for k, o in enumerate(g.bridges)
                        if o != NOBODY),
        "control": dict((islands[i], PLAYERS[o]) for i, o in enumerate(g.control)
                        if o != NOBODY),
        "supply": {"white": g.supply[WHITE], "black": g.supply[BLACK]},
        "hands": {"white": g.hand("white"), "black": g.hand("black")},
        "discard": g.discard_count(),
        "drawable": g.drawable_count(),
        "must_draw": g.must_draw,
        "scores": {"white": g.scores[WHITE], "black": g.scores[BLACK]},
        "round_scores": [{"white": w, "black": b} for w, b in g.round_scores],
        "winner": g.winner,
    }
