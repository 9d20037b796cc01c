"""The controller (games/halunken/controller.py): the turn flow of the sim contract's "How a
game is entered" for dealt decks, every refusal with its code in the contract's order, and
a refused event changing nothing (game and cursor)."""

import pytest
import table_events
from halunken_kit import EXAMPLE1_PILES, given, report

import conformance
from core import outcome as oc
from games.halunken import controller as ctl
from games.halunken import deck, game, rules
from games.halunken import report as hreport
from mpy_runner import MicroPython


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
    refused(c, "tap", "P2-6", "out-of-turn")  # the owner comes before the card
    play(c, "tap P1-1")
    refused(c, "tap", "P1-7", "already-chosen")  # ... and already-chosen before both


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


@pytest.mark.parametrize("settings", table_events.GAMES)
def test_random_events_play_whole_games_and_refusals_change_nothing(settings):
    """Events as a table makes them, legal or not: every refusal has a code and changes
    neither the game nor the cursor; every game reaches its end through the controller."""
    events, codes, _, over = table_events.play(settings)
    assert over, events
    assert "wrong-phase" in codes and len(codes) >= 2


@pytest.mark.micropython
def test_the_same_table_games_on_micropython():
    out = MicroPython(heap_kib=256).run_script("tests/games/halunken/table_events.py",
                                               timeout=300)
    expected = []
    for settings in table_events.GAMES:
        events, codes, digest, over = table_events.play(settings)
        expected.append("%d %s %s %s" % (events, over, conformance.canonical(codes), digest))
    assert out.strip().splitlines() == expected


def test_rum_number_with_a_cursor_H7():
    g, c = to_choice()
    play(c, "tap P1-RUM;tap P2-2;tap P3-5;press ok")
    assert g.step == "rum" and c.options == [1, 3, 4, 6, 7]  # 2 and 5 are taken (H7)
    refused(c, "pick", "2", "not-offered")
    refused(c, "pick", "T4", "not-offered")
    refused(c, "tap", "P1-3", "wrong-phase")  # the step rum takes no movement card
    c.press("prev")
    assert c.selected() == 7
    refused(c, "press", "back", "wrong-phase")  # a RUM number cannot be taken back
    c.press("ok")
    assert g.round == 2 and g.pos[0] == 7  # T1 + 7 = T8


def test_H11_a_theft_may_be_declined_with_done():
    g = example1()
    c = game.controller(g)
    play(c, "pick T1;pick T3;pick T6;tap P1-5;tap P2-3;tap P3-5;press ok")
    assert g.step == "steal"
    refused(c, "press", "back", "wrong-phase")  # no take was tapped with a dealt deck
    c.press("done")
    r = report(g)
    assert r["crews"]["p2"] == ["GREY-6", "YELLOW-11"] and r["captains"]["p3"] == "T7"


def robbery(nobody_bid):
    """Worked example 3's round, entered at the table: p1 W, or nobody bidding."""
    g = given(3, "standard", bj=["BJ-5"] + ["BJ-%d" % k for k in range(1, 5)]
              + ["BJ-%d" % k for k in range(6, 13)])
    c = game.controller(g)
    play(c, "pick T10;pick T2;pick T4;pick T7")
    g.crews = [[deck.crew_card(n) for n in crew] for crew in (
        ["RED-8", "RED-1", "RED-2", "RED-3", "RED-5"], ["YELLOW-3", "GREY-1", "GREY-2",
                                                      "GREY-3"],
        ["GREY-7", "PURPLE-1", "PURPLE-2", "PURPLE-3"])]
    g.auction["opener"] = g.auction["speaker"] = g.last_bidder = 1
    if nobody_bid:
        play(c, "press done;press done;press done")
    else:
        play(c, "tap YELLOW-3;tap GREY-7;tap RED-8")
        assert report(g)["auction"]["winner"] == "p1"
    play(c, "tap P1-2;tap P2-6;tap P3-5;press ok")
    assert g.step == "rob"
    return g, c


def test_H22_W_robs_a_captain_not_fewer_and_spares_the_next():
    g, c = robbery(False)
    r = report(g)
    assert (r["turn"], r["from"], r["blackjack"]) == ("p1", ["p2"], "T13")
    refused(c, "tap", "RED-1", "not-in-crew")  # W's own card
    stolen = deck.crew_name(g.crews[1][0])
    play(c, "tap " + stolen)
    assert g.round == 2  # p3 (5 cards, fewer than W's 6) is spared
    assert len(g.crews[0]) == 6 and len(g.crews[1]) == 4 and len(g.crews[2]) == 5
    assert stolen in report(g)["crews"]["p1"] and report(g)["last_bidder"] == "p1"


def test_H23_nobody_bid_the_robbed_give_and_cannot_decline_and_back_takes_back():
    g, c = robbery(True)
    r = report(g)
    assert (r["turn"], r["from"]) == ("p2", ["p2"])
    refused(c, "press", "done", "wrong-phase")  # compulsory (H23)
    before = g.snapshot()
    give = deck.crew_name(g.crews[1][-1])
    play(c, "tap " + give)
    assert report(g)["turn"] == "p3" and give in report(g)["port"]
    play(c, "press back")  # Black-Jack's move: its thefts, last first
    assert g.snapshot() == before
    play(c, "tap " + give)
    play(c, "tap " + deck.crew_name(g.crews[2][0]))
    assert report(g)["turn"] == "p1"
    play(c, "tap " + deck.crew_name(g.crews[0][0]))
    assert g.round == 2 and len(g.port) == 3
    assert [len(x) for x in g.crews] == [5, 4, 4]  # example 3's variant


def tactical():
    """A tactical game at its first auction (p1 and p2; the P3 set is Black-Jack's)."""
    g = given(2, "tactical")
    c = game.controller(g)
    play(c, "pick T1;pick T8")
    c.press("ok")  # Black-Jack on the first vacant space
    assert g.step == "auction"
    return g, c


def test_H26_W_taps_Black_Jacks_card_right_after_its_own():
    g, c = tactical()
    s = g.auction["speaker"]
    other = 1 - s
    play(c, "tap " + deck.crew_name(g.crews[s][0]))
    refused(c, "press", "ok", "wrong-phase")
    play(c, "press done")  # the other withdraws: s is W
    assert g.winner_seat() == s
    seq = []
    for f in (0, 1):
        seq.append(f)
        if f == s:
            seq.append(rules.BJ)
    # Black-Jack's card before its turn, and a seat's card when his is expected
    refused(c, "tap", "P3-4", "out-of-turn" if seq[0] != rules.BJ else "already-chosen")
    names = {0: "P1-4", 1: "P2-4", rules.BJ: "P3-4"}
    for i, f in enumerate(seq):
        if i + 1 < len(seq):
            nxt = seq[i + 1]
            refused(c, "tap", names[nxt], "out-of-turn")
        out = c.tap(names[f])
        assert out == oc.Outcome(oc.ACCEPTED, None, None, (), True)
    assert g.step == "reveal"
    assert report(g)["chosen"] == 3 and other in (0, 1)


def test_H27_Black_Jacks_card_without_a_bid_is_wrong_phase():
    g, c = tactical()
    play(c, "press done;press done")
    assert g.step == "choose" and g.winner_seat() < 0
    refused(c, "tap", "P3-2", "wrong-phase")
    refused(c, "tap", "P4-2", "unknown-card")
    refused(c, "tap", "BJ-2", "unknown-card")  # no BJ deck outside standard


def test_auction_back_takes_the_last_word_only():
    g, c = standard_round()
    play(c, "press done")  # p3 passes
    snap = g.snapshot()
    play(c, "press done")  # p1 passes
    play(c, "press back")
    r = report(g)
    assert r["turn"] == "p1" and len(r["auction"]["words"]) == 1
    assert g.snapshot()["auction"] == snap["auction"]
    refused(c, "press", "back", "wrong-phase")  # the last word only


def test_a_power_cut_in_the_secret_choice_keeps_the_choices_secret_and_in_place():
    import conformance
    from core.app import App
    from core.cards import Registry
    from core.journal import Journal
    from host_tools.fakehw.flash import VirtualFlash

    class Strip:
        def show(self, frame):
            self.frame = bytes(frame)

    board = conformance.board_for("halunken")
    settings = {"players": 3, "mode": "beginner", "seed": 9}
    flash = VirtualFlash()

    def boot():
        return App(game, board, Registry(game.card_names(board)), Strip(), dict(settings),
                   journal=Journal("/game.jnl", flash))

    app = boot()
    for t in ("T1", "T2", "T3"):
        app.pick(t, 0)
    app.tap_card("P1-6", 0)
    app.tap_card("P2-1", 0)
    app.press("next", 0)  # nothing to choose: refused, nothing journaled
    before = app.game.snapshot()
    again = boot()
    assert again.game.snapshot() == before
    assert report(again.game)["chosen"] == 2 and report(again.game)["turn"] == "p3"
    assert again.referee.sel == 0
    again.press("back", 0)  # the undo history came back with the journal
    assert report(again.game)["turn"] == "p2"
    again = boot()
    assert report(again.game)["turn"] == "p2" and report(again.game)["chosen"] == 1
    again.tap_card("P2-1", 0)
    again.tap_card("P3-6", 0)
    again.press("ok", 0)
    assert again.game.played[0] == [5] and again.game.played[1] == [0]
