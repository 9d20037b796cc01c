"""The referee's refusals that depend on the moment: what they say, and that the referee
asks the rules (their public index API) rather than reaching into them."""

import re

import gamekit
from gamekit import position
from games.kahuna import rules
from games.kahuna.referee import Referee


def refusal(ref, *event):
    if event[0] == "tap":
        out = ref.tap(event[1])
    elif event[0] == "pick":
        out = ref.pick(event[1])
    else:
        out = ref.press(event[1])
    assert out.kind == "refused", "%r was accepted" % (event,)
    return out.code, out.message


def over_game():
    g = position(gamekit.new_game(), bridges={"ELAI-HUNA": "white"},
                 hands={"white": ["HUNA-1"], "black": []})
    g.phase = rules.OVER
    g.winner = "white"
    return g


def test_done_after_the_game_is_over_says_how_to_start_a_new_one():
    ref = Referee(over_game())
    code, message = refusal(ref, "press", "done")
    # board_def holds done for a new game (inputs.hold): the message names that button.
    assert code == rules.WRONG_PHASE
    assert message == "the game is over: hold done for a new game"


def test_a_pick_while_a_removal_waits_names_the_bridge_and_the_cards_awaited():
    g = position(gamekit.new_game(), bridges={"ELAI-HUNA": "black"},
                 hands={"white": ["HUNA-1", "DUDA-1"], "black": []})
    ref = Referee(g)
    ref.tap("HUNA-1")
    ref.pick("ELAI-HUNA")  # an opponent bridge with one card: it waits for the second
    assert ref.picked == g.board.conn_index["ELAI-HUNA"]
    for event in (("pick", "HUNA-IFFI"), ("press", "next"), ("press", "ok")):
        code, message = refusal(ref, *event)
        assert code == rules.WRONG_PHASE
        assert message == "ELAI-HUNA waits for a second card (ELAI or HUNA): tap it, or back"
    # And the awaited card does it.
    code, message = refusal(ref, "tap", "DUDA-1")
    assert (code, message) == (rules.BAD_PAIR, "DUDA-1 does not name an end of ELAI-HUNA")


def test_refusals_are_the_rules_own_words():
    g = position(gamekit.new_game(), bridges={"ELAI-HUNA": "black"},
                 hands={"white": ["HUNA-1", "ALOA-1", "LALE-2"], "black": ["ELAI-1"]})
    ref = Referee(g)
    for tap, action in ((("tap", "ELAI-1"), ("place", "ELAI-1", "ELAI-HUNA")),):
        try:
            g.apply(action)
        except rules.Rejected as e:
            assert refusal(ref, *tap) == (e.code, e.message)
    ref.tap("HUNA-1")
    try:
        g.apply(("remove", "HUNA-1", "ALOA-1", "ELAI-HUNA"))
        raise AssertionError("accepted")
    except rules.Rejected as e:
        assert refusal(ref, "tap", "ALOA-1") == (e.code, e.message)


def test_the_referee_uses_no_private_name_of_the_rules():
    with open(gamekit.ROOT + "/firmware/games/kahuna/referee.py") as f:
        source = f.read()
    assert not re.search(r"\b(g|game|self\.game|rules)\._", source)
