"""Helpers for the rules tests: the shipped board, new games and hand-built positions."""

import os
import sys


def _parent(path):
    # Without os.path: this module also runs inside the MicroPython unix port.
    i = path.rstrip("/").rfind("/")
    return path[:i] if i > 0 else "/"


_here = __file__ if __file__.startswith("/") else os.getcwd() + "/" + __file__
ROOT = _parent(_parent(_here))
for _p in (ROOT + "/firmware", ROOT):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from core import board as boardmod  # noqa: E402
from games.kahuna import rules  # noqa: E402
from games.kahuna import settings as kahunasettings  # noqa: E402

BOARD_PATH = ROOT + "/board_def/kahuna.json"
_board = None


def board():
    global _board
    if _board is None:
        _board = boardmod.load(BOARD_PATH, keep_raw=False)
    return _board


def new_game(**settings):
    return rules.Game(board(), **settings)


WHITE_DEAL = ("HUNA-1", "ELAI-1", "DUDA-1")
BLACK_DEAL = ("ALOA-1", "DUDA-2", "ELAI-2")


def dealt_game(white=WHITE_DEAL, black=BLACK_DEAL, **settings):
    """A game after the deal: white's cards are registered first unless first=black."""
    g = new_game(**settings)
    first, second = (black, white) if settings.get("first") == "black" else (white, black)
    for card in tuple(first) + tuple(second):
        g.deal(card)
    return g


def position(g, bridges=(), hands=None, discard=(), turn="white", phase=rules.PLAY,
             round=1, must_draw=False):
    """Put `g` in a hand-built position: `bridges` maps connection -> owner, control is
    derived by majority (R8), `hands` maps player -> card names, `discard` lists cards on
    the discard pile; every other card is drawable."""
    b = g.board
    g.bridges = [rules.NOBODY] * len(b.connections)
    g.supply = [rules.SUPPLY, rules.SUPPLY]
    for conn, owner in dict(bridges).items():
        p = kahunasettings.player_index(owner)
        g.bridges[b.conn_index[conn]] = p
        g.supply[p] -= 1
    g.control = [g.majority(i) for i in range(len(b.islands))]
    g.place = [rules.DRAWABLE] * len(g.card_names)
    for owner, cards in (hands or {}).items():
        for card in cards:
            g.place[g.card_index[card]] = kahunasettings.player_index(owner)
    for card in discard:
        g.place[g.card_index[card]] = rules.DISCARD
    g.turn = kahunasettings.player_index(turn)
    g.phase = phase
    g.round = round
    g.must_draw = must_draw
    g.history = []
    g.refill = rules.NOBODY
    from host_tools.games.kahuna.invariants import (
        problems,  # only here: the MicroPython tests' heap is tight
    )

    assert problems(g) == []
    return g


def owner(g, conn):
    o = g.bridges[g.board.conn_index[conn]]
    return None if o == rules.NOBODY else rules.PLAYERS[o]


def controller(g, island):
    o = g.control[g.board.island_index[island]]
    return None if o == rules.NOBODY else rules.PLAYERS[o]


def rejected_code(g, action):
    """Apply an action expected to be refused; check nothing changed; return the code."""
    before = g.snapshot()
    try:
        g.apply(action)
    except rules.Rejected as e:
        assert g.snapshot() == before, "a refused action changed the state"
        return e.code
    raise AssertionError("%r was accepted" % (action,))
