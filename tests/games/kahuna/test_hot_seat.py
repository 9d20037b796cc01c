"""Hot seat (`sim --seed N`: two players at one screen, host_tools/games/kahuna/play.py):
everything the terminal shows passes the serial link's privacy rule (core.link
`without_cards`): no card of a hand, a drawn card or a discarded one. Issue 15, defect 2:
`white drew ELAI-1, black's turn` was shown once the screen belonged to black."""

import io
import re

import pytest

from core import board as boardmod
from games.kahuna import rules
from host_tools.games.kahuna import play
from host_tools.simulator.cli import DEFAULT_BOARD

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


@pytest.fixture(scope="module")
def board():
    return boardmod.load(DEFAULT_BOARD)


def shown(s):
    return "\n".join(ANSI.sub("", x) for x in s.screen(100, 40))


def twin(board, seed, swap, draw):
    """A hot-seat game to white's first draw from the deck; with `swap` the deck's top
    card is swapped with the deck's bottom card (another card nobody has seen). Returns
    the screens from the draw on, while black is on turn."""
    s = play.Session(board, out=io.StringIO(), unicode=False, colour=0, seed=seed)
    t = s.table
    s.handle("done")  # white ends the play phase at once
    assert s.sim.app.game.phase == rules.DRAW
    assert len(t.display) == 3  # laid
    if swap:
        t.deck[-1], t.deck[0] = t.deck[0], t.deck[-1]
    top = t.deck[-1]
    screens = []
    for line in [draw(top), "done", "draw deck", "back", "undo"]:
        s.handle(line)
        if s.sim.app.game.turn != rules.BLACK:
            break
        screens.append(shown(s))
    assert screens and top in s.sim.app.game.hand("white")
    return top, screens


@pytest.mark.parametrize("draw", [lambda top: "draw deck", lambda top: "tap " + top,
                                  lambda top: top])
def test_the_card_white_drew_is_not_shown_to_black(board, draw):
    a, screens_a = twin(board, 8, False, draw)
    b, screens_b = twin(board, 8, True, draw)
    assert a != b
    assert screens_a == screens_b
    assert a not in screens_a[0]
    assert "white drew a card, black's turn" in screens_a[0]


def test_a_discard_and_a_refused_draw_name_no_card(board):
    s = play.Session(board, out=io.StringIO(), unicode=False, colour=0, seed=8)
    game = s.sim.app.game
    t = s.table
    s.handle("done")
    hidden = [n for n in game.card_names if game.place[game.card_index[n]] == rules.DRAWABLE
              and n not in t.display and n != t.deck[-1]][0]
    s.handle("tap " + hidden)  # neither on the display nor the deck's top: refused
    assert "refused" in s.message and hidden not in s.message
    s.handle("hold %s x" % hidden)  # not understood
    assert hidden not in s.message
    # Discard mode in the draw phase: the discarded card is not named.
    s.handle("discard")
    card = game.hand("white")[0]
    s.handle("tap " + card)
    s.handle("done")
    assert card not in s.message, s.message
