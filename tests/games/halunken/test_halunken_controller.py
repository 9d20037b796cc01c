"""The controller (games/halunken/controller.py): the turn flow of the sim contract's "How a
game is entered" for dealt decks, every refusal with its code in the contract's order, and
a refused event changing nothing (game and cursor)."""

import pytest
from halunken_kit import EXAMPLE1_PILES, given, report

from core import outcome as oc
from games.halunken import controller as ctl
from games.halunken import report as hreport


def example1():
    """Worked example 1's deal (beginner, 3 players)."""
    return given(3, "beginner", piles=[p.split(",") for p in EXAMPLE1_PILES])


def play(c, events):
    """Events as the simulator writes them: "tap X", "press B", "pick X"."""
    out = []
    for ev in events.split(";"):
        verb, arg = ev.split()
        out.append(getattr(c, verb)(arg))
    return out


def refused(c, verb, arg, code):
    """`verb arg` is refused with `code` and changes nothing (game and cursor)."""
    g = c.game
    snap, sel, errors = g.snapshot(), c.sel, c.errors
    out = getattr(c, verb)(arg)
    assert (out.kind, out.code) == (oc.REFUSED, code), out
    assert g.snapshot() == snap and c.sel == sel and c.errors == errors + 1
    assert c.outcome is out
    return out


def to_choice(players=3, mode="beginner", **kw):
    g = given(players, mode, **kw)
    c = ctl.Controller(g)
    for t in ("T1", "T3", "T6", "T9")[:players]:
        assert c.pick(t).kind == oc.ACCEPTED
    return g, c


def test_example1_through_the_controller():
    g = example1()
    c = ctl.Controller(g)
    assert c.option_names()[:3] == ["T1", "T2", "T3"]
    play(c, "pick T1")
    refused(c, "pick", "T1", "not-offered")  # p1 stands there
    play(c, "pick T3;pick T6")
    assert g.step == "choose"
    refused(c, "tap", "P2-3", "out-of-turn")  # H32: p1 first
    play(c, "tap P1-5;tap P2-3")
    refused(c, "press", "ok", "wrong-phase")  # not every choice is in
    play(c, "tap P3-5")
    assert report(g)["chosen"] == 3 and g.step == "reveal"
    play(c, "press ok")
    assert g.step == "steal" and report(g)["from"] == ["p3"]
    refused(c, "tap", "GREY-6", "not-in-crew")
    out = c.tap("GREY-8")
    assert out.kind == oc.ROUND_END
    r = report(g)
    assert r["captains"]["p3"] == "T7" and r["round"] == 2
    assert r["scores"] == {"p1": 14, "p2": 39, "p3": 4}


def test_option_lists_have_a_cursor_and_ok_confirms_it():
    g = example1()
    c = ctl.Controller(g)
    assert c.selected() == 0
    c.press("prev")
    assert c.selected() == 13 and g.pos[0] == -1  # cyclic, nothing placed yet
    c.press("next")
    c.press("next")
    assert c.selected() == 1
    c.press("ok")
    assert g.pos[0] == 1 and c.sel == 0  # the next seat's list starts on its first option
    assert 1 not in c.options


@pytest.mark.parametrize("verb,arg", [("press", "next"), ("press", "prev"), ("pick", "T5"),
                                      ("pick", "4")])
def test_cursor_and_pick_without_an_option_list_are_wrong_phase(verb, arg):
    g, c = to_choice()
    refused(c, verb, arg, "wrong-phase")


def test_H32_choices_in_seat_order_and_already_chosen_before_out_of_turn():
    g, c = to_choice()
    refused(c, "tap", "P3-2", "out-of-turn")
    play(c, "tap P1-2")
    refused(c, "tap", "P1-3", "already-chosen")  # the owner's check comes first
    refused(c, "tap", "P3-1", "out-of-turn")
    play(c, "tap P2-2;tap P3-2")
    refused(c, "tap", "P2-4", "already-chosen")  # reveal: every seat has chosen


def test_unknown_cards():
    g, c = to_choice()
    refused(c, "tap", None, "unknown-card")
    refused(c, "tap", "P4-2", "unknown-card")  # no fourth seat
    refused(c, "tap", "BJ-3", "unknown-card")  # no Black-Jack in the beginner game
    refused(c, "tap", "HUNA-1", "unknown-card")


def test_crew_cards_in_the_choice_and_discard_are_wrong_phase():
    g, c = to_choice()
    refused(c, "tap", "RED-1", "wrong-phase")
    refused(c, "press", "discard", "wrong-phase")
    refused(c, "press", "done", "wrong-phase")


def test_H6_a_card_played_in_an_earlier_round():
    g, c = to_choice()
    play(c, "tap P1-7;tap P2-6;tap P3-5;press ok")
    while g.step != "choose":  # thefts of round 1 declined
        c.press("done")
    assert g.round == 2
    refused(c, "tap", "P1-7", "card-already-played")


def test_back_takes_the_choices_back_last_first_until_the_reveal():
    g, c = to_choice()
    refused(c, "press", "back", "wrong-phase")  # nothing to take back
    play(c, "tap P1-2;tap P2-3;tap P3-4")
    assert g.step == "reveal"
    play(c, "press back")
    assert g.step == "choose" and report(g)["chosen"] == 2
    play(c, "press back")
    assert report(g)["turn"] == "p2"
    play(c, "tap P2-5;tap P3-4;press ok")
    assert g.played[1] == [4]
    if g.step in ("choose", "auction"):
        refused(c, "press", "back", "wrong-phase")  # H: after the reveal, no undo


def standard_round():
    """The contract's standard-round example: set-up, then p3 opens the auction."""
    g = given(3, "standard", bj=["BJ-10"] + ["BJ-%d" % k for k in range(1, 10)]
              + ["BJ-11", "BJ-12"])
    c = ctl.Controller(g)
    play(c, "pick T1;pick T5;pick T9")
    assert g.step == "place-bj" and report(g)["turn"] == "p1"
    play(c, "pick T3")
    assert report(g)["auction"]["opener"] == "p3"
    return g, c


def test_the_contracts_standard_round():
    g, c = standard_round()
    refused(c, "tap", "P1-1", "wrong-phase")  # a movement card during the auction
    play(c, "tap GREY-6")
    refused(c, "tap", "RED-1", "bid-too-low")
    refused(c, "tap", "GREY-6", "out-of-turn")  # still in p3's crew; p1 has the word
    play(c, "press done;press back")
    assert report(g)["turn"] == "p1"
    play(c, "press done;press done")
    r = report(g)
    assert r["auction"]["winner"] == "p3" and r["port"] == ["GREY-6"]
    refused(c, "press", "back", "wrong-phase")  # the auction is over
    play(c, "tap P1-1;tap P2-7;tap P3-6;press ok")
    r = report(g)
    assert (r["step"], r["turn"], r["from"], r["blackjack"]) == ("rob", "p3", ["p2"], "T13")
    refused(c, "tap", "BJ-2", "wrong-phase")  # the board turns his cards itself (H33)
    out = c.tap("YELLOW-4")
    assert out.kind == oc.ROUND_END
    r = report(g)
    assert r["round"] == 2 and len(r["crews"]["p3"]) == 2 and r["bj_cards"] == ["BJ-10"]


def test_auction_owner_before_card():
    g, c = standard_round()
    refused(c, "tap", "RED-1", "out-of-turn")  # p1's card: p3 has the word
    refused(c, "tap", "RED-3", "not-in-crew")  # still in a pile
    out = refused(c, "tap", "RED-1", "out-of-turn")
    assert ("seat", 0) in out.places


def test_the_secret_choice_is_acknowledged_the_same_for_every_card():
    outs = set()
    for m in ("1", "2", "3", "4", "5", "6", "7", "RUM"):
        g, c = to_choice()
        out = c.tap("P1-" + m)
        outs.add(out)
    assert outs == {oc.Outcome(oc.ACCEPTED, None, None, (), True)}


def test_a_game_over_refuses_everything_wrong_phase():
    g, c = to_choice()
    while not g.is_over():
        st = g.step
        if st == "choose":
            s = ctl.expected_figure(g)
            m = g.left_moves(s)[0]
            c.tap(hreport.move_name(g, s, m))
        elif st == "reveal":
            c.press("ok")
        elif st == "rum":
            c.press("ok")
        else:
            c.press("done")
        assert c.outcome.kind != oc.REFUSED, c.outcome
    for verb, arg in (("tap", None), ("tap", "RED-1"), ("tap", "P1-1"), ("press", "ok"),
                      ("press", "back"), ("press", "done"), ("pick", "T1")):
        out = refused(c, verb, arg, "wrong-phase")
        assert out.places == ()
