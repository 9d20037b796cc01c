"""The simulator's interactive command line (host_tools/games/kahuna/play.py) at a table of
cards (`sim --seed N`, hot seat, and `sim --ai black|white --seed N`, solo), fed thousands
of random commands, legal and not: never an internal error, and after every command the
table of cards (deck, display, pile, the AI's face-down stack) agrees with the firmware's
game. Issue 15, defect 1: a tapped draw of a card that was neither on the display nor the
deck's top was accepted, and the table went out of step until `internal error`."""

import io
import random

import pytest

from core import board as boardmod
from games.kahuna import rules
from host_tools.games.kahuna import play
from host_tools.simulator.cli import DEFAULT_BOARD


@pytest.fixture(scope="module")
def board():
    return boardmod.load(DEFAULT_BOARD)


def check_table(s):
    """The table of cards agrees with the game: the deck and display are the game's
    drawable cards, the pile its discards, the AI's stack its hand."""
    game = s.sim.app.game
    seated = s.sim.kit.seated
    t = seated.table
    names = game.card_names
    drawable = sorted(n for n in names if game.place[game.card_index[n]] == rules.DRAWABLE)
    discarded = sorted(n for n in names if game.place[game.card_index[n]] == rules.DISCARD)
    on_table = list(t.deck) + list(t._display)
    assert sorted(on_table) == drawable, (on_table, drawable)
    assert sorted(t.pile) == discarded, (t.pile, discarded)
    assert len(t._display) <= 3 and (len(t._display) == 3 or not t.deck or not t.laid)
    solo = s.sim.app.solo
    if solo is not None:
        assert sorted(seated.hands.stack) == game.hand(rules.PLAYERS[solo.side])
        assert all(c in t._display for c in seated.hands.tapped)


def random_command(rng, s):
    game = s.sim.app.game
    ref = s.sim.app.referee
    names = list(game.card_names)
    conns = list(s.board.connections)
    turn = rules.PLAYERS[game.turn] if game.turn in (0, 1) else "white"
    hand = game.hand(turn) if game.phase != rules.OVER else []
    t = s.table
    r = rng.random()
    if r < 0.25 and hand:
        return "tap " + rng.choice(hand)
    if r < 0.40 and ref.option_names():
        return "pick " + rng.choice(ref.option_names())
    if r < 0.55:
        return rng.choice(["done", "ok", "next", "prev", "back", "undo", "discard"])
    if r < 0.68:
        return "draw " + rng.choice(["1", "2", "3", "4", "0", "deck", "deck", "-1", "x",
                                     "", "1 2", rng.choice(names)])
    if r < 0.78:
        # a tapped draw: a display card, the deck's top, or any other card
        pool = list(t.display) + (t.deck[-1:] if t.deck else []) + [rng.choice(names)]
        return rng.choice(["tap ", "", "hold "]) + rng.choice(pool) + (
            " 300" if rng.random() < 0.2 else "")
    if r < 0.84:
        return rng.choice(["tap ", "pick ", "", "hold "]) + rng.choice(names + conns)
    if r < 0.88:
        return rng.choice(["wait 500", "wait 7000", "power-cut", "press ok", "press x",
                           "hold %s 1500" % rng.choice(names), "tap uid:04A224B2C35E80"])
    if r < 0.91:
        return rng.choice(["new", "new anyway", "new variant=alternative", "option first=black",
                           "new anyway first=black", "new anyway handicap=white:2",
                           "new anyway variant=bogus", "expect phase draw",
                           "expect hands.white 3"])
    return rng.choice(["", "# a comment", "garbage", "tap", "pick", "draw", "help",
                       "tap NOPE-9", "pick ALOA-ALOA", "HUNA-7", "uid:zz", "press",
                       "hold", "wait", "wait x", "expect", "new x=y", "%$#", "tap tap tap"])


def fuzz(board, ai, seed, n):
    rng = random.Random(seed)
    s = play.Session(board, out=io.StringIO(), unicode=False, ai=ai, seed=seed)
    check_table(s)
    typed = []
    for _ in range(n):
        line = random_command(rng, s)
        typed.append(line)
        s.handle(line)
        assert "internal error" not in s.message, (typed[-20:], s.message)
        try:
            check_table(s)
        except AssertionError as e:
            raise AssertionError("the table left the game after %r: %s"
                                 % (typed[-20:], e)) from None
        if s.sim.app.game.phase == rules.OVER and rng.random() < 0.3:
            s.handle("new")
    s.screen(100, 40)
    return s


@pytest.mark.parametrize("ai,seed", [(None, 8), (None, 21), ("black", 3), ("white", 5),
                                     ("black", 17)])
def test_random_commands_at_a_table_of_cards(board, ai, seed):
    fuzz(board, ai, seed, 500)


def test_a_tapped_draw_must_be_a_display_card_or_the_deck_top(board):
    """Defect 1's reproduction: in the draw phase a tap of a card that lies neither on the
    display nor on the deck's top is refused and changes nothing; the deck's top and a
    display card are taken as `draw deck` and `draw N` take them."""
    s = play.Session(board, out=io.StringIO(), unicode=False, ai="black", seed=3)
    s.handle("done")
    game = s.sim.app.game
    t = s.table
    assert game.phase == rules.DRAW
    wrong = [n for n in game.card_names if game.place[game.card_index[n]] == rules.DRAWABLE
             and n not in t.display and n != t.deck[-1]][0]
    before = (s.sim.report(), list(t.deck), t.display, list(t.pile))
    s.handle("tap " + wrong)
    assert s.message == ("tap %s: refused: card-not-drawable: %s is not a card you can take: "
                         "draw 1..3 takes that display card, draw deck the deck's top card"
                         % (wrong, wrong))
    after = s.sim.report()
    del before[0]["rejected"], after["rejected"]
    assert (after, list(t.deck), t.display, list(t.pile)) == before
    top = t.deck[-1]
    s.handle(top)  # a bare name: the deck's top card
    assert game.hand("white").count(top) == 1 and top not in t.deck
    check_table(s)
    for _ in range(40):  # the game goes on: the AI's procedure and the player's draws
        if game.phase == rules.DRAW and game.turn == rules.WHITE:
            s.handle("tap " + t.display[0])
            check_table(s)
        s.handle("done")
        assert "internal error" not in s.message
        check_table(s)
