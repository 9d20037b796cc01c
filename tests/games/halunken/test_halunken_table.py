"""The table deal (H33; sim contract, `deal=table`): face-down piles known by their counts,
every take and turned Black-Jack card an action tapped at the table, their refusals and
undo; the values of the enrolled tags (H2) and the seats' colours (H31) as settings."""

import json

import pytest
from halunken_kit import BJ, c, m, report, sp

from core.outcome import Rejected
from games.halunken import game, settings


def table(players=3, mode=None, **extra):
    s = {"players": players, "deal": "table"}
    if mode:
        s["mode"] = mode
    s.update(extra)
    return game.new_state(None, s)


def refused(g, act, code):
    before = g.snapshot()
    with pytest.raises(Rejected) as e:
        g.apply(act)
    assert e.value.code == code
    assert g.snapshot() == before  # a refusal changes nothing


def set_up(g, seats, bj_space=None):
    """Each seat picks its space and taps the card it took: [(space, card name)]."""
    for space, card in seats:
        g.apply(("place", sp(space)))
        g.apply(("take", c(card)))
    if bj_space is not None:
        g.apply(("place_bj", sp(bj_space)))


def test_H33_the_default_deal_is_the_table_and_its_piles_are_counts():
    g = game.new_state(None, {"players": 3})
    assert g.deal == "table"
    assert [len(p) for p in g.piles] == [3] * 14
    r = report(g)
    assert all(t["top"] is None and t["left"] == 3 for t in r["taverns"].values())
    assert r["hidden"]["piles"] is None and r["hidden"]["bj_deck"] is None
    assert g.public()["top"] == [-1] * 14


def test_H33_H5_a_set_up_take_is_tapped_and_back_places_again():
    g = table(3, "beginner")
    g.apply(("place", sp("T4")))
    r = report(g)
    assert (r["phase"], r["step"], r["turn"], r["figure"]) == ("setup", "take", "p1", "p1")
    assert g.legal_actions()[-1] == ("undo",)
    assert len(g.legal_actions()) == 42 + 1  # any card not seen yet, or back
    g.apply(("undo",))  # the contract's Undo: the seat places again
    assert (g.step, g.pos[0], g.placer) == ("place", -1, 0)
    g.apply(("place", sp("T5")))
    g.apply(("take", c("GREY-7")))
    r = report(g)
    assert r["setup_cards"]["p1"] == "GREY-7" and r["crews"]["p1"] == ["GREY-7"]
    assert r["taverns"]["T5"] == {"left": 2, "top": None}
    assert (r["step"], r["turn"]) == ("place", "p2")
    refused(g, ("undo",), "wrong-phase")  # the take closed the seat's set-up


def test_H33_a_card_already_in_a_crew_or_the_port_is_not_available():
    g = table(3, "standard")
    set_up(g, [("T1", "RED-1"), ("T5", "PURPLE-4")])
    g.apply(("place", sp("T9")))
    refused(g, ("take", c("RED-1")), "card-not-available")
    refused(g, ("take", 42), "unknown-card")  # the tag before the card
    refused(g, ("steal", c("RED-2")), "wrong-phase")  # the step before the card
    g.apply(("take", c("GREY-6")))
    g.apply(("place_bj", sp("T3")))
    g.apply(("offer", c("GREY-6")))  # p3 opens (highest) and wins: GREY-6 to the port
    g.apply(("pass",))
    g.apply(("pass",))
    assert g.port == [c("GREY-6")]
    for s, w in enumerate(("1", "7", "6")):
        g.apply(("choose", s, m(w)))
    g.apply(("reveal",))
    assert (g.step, g.to_act()) == ("take", [0])
    refused(g, ("take", c("GREY-6")), "card-not-available")  # in the port


def test_H8_H33_stayers_tap_their_takes_in_seat_order():
    g = table(3, "beginner")
    set_up(g, [("T1", "RED-4"), ("T3", "GREY-6"), ("T6", "YELLOW-2")])
    for s, w in enumerate(("5", "3", "5")):
        g.apply(("choose", s, m(w)))
    g.apply(("reveal",))
    assert (g.step, g.to_act(), g.taking) == ("take", [0], [0, sp("T1"), 1])
    g.apply(("take", c("PURPLE-5")))
    assert (g.step, g.to_act()) == ("take", [2])
    refused(g, ("undo",), "wrong-phase")  # a stayer's take is not taken back
    g.apply(("take", c("GREY-8")))
    # then the mover p2 (3): T3 -> T6, onto p3; it takes first (H9)
    assert (g.step, g.to_act(), g.pos[1]) == ("take", [1], sp("T6"))


def test_H9_H33_the_take_before_the_theft_counts_and_back_takes_it_back():
    g = table(3, "beginner")
    set_up(g, [("T1", "RED-4"), ("T3", "GREY-6"), ("T6", "YELLOW-2")])
    for s, w in enumerate(("5", "3", "5")):
        g.apply(("choose", s, m(w)))
    g.apply(("reveal",))
    g.apply(("take", c("PURPLE-5")))
    g.apply(("take", c("GREY-8")))
    before = g.snapshot()
    g.apply(("take", c("YELLOW-11")))  # p2 holds 2 after the take, as many as p3: theft
    r = report(g)
    assert (r["step"], r["turn"], r["from"]) == ("steal", "p2", ["p3"])
    assert r["taverns"]["T6"]["left"] == 0
    g.apply(("undo",))  # the take tapped just before
    assert g.snapshot()["taking"] == before["taking"] and report(g) == report(
        _restored(before))
    g.apply(("take", c("YELLOW-11")))
    g.apply(("steal", c("GREY-8")))
    r = report(g)
    assert r["captains"] == {"p1": "T1", "p2": "T6", "p3": "T7"} and r["round"] == 2
    assert r["scores"] == {"p1": 14, "p2": 39, "p3": 4}  # the rules' worked example 1
    refused(g, ("undo",), "wrong-phase")


def _restored(snap):
    g = table(3, "beginner")
    g.restore(snap)
    return g


def test_H13_H33_no_take_is_asked_at_an_empty_tavern():
    g = table(3, "beginner")
    set_up(g, [("T1", "RED-4"), ("T3", "GREY-6"), ("T6", "YELLOW-2")])
    g.piles[sp("T4")] = []  # emptied (a state the rules could reach)
    for s, w in enumerate(("3", "4", "6")):  # p1 T1->T4 (empty), p2 T3->T7, p3 T6->T12
        g.apply(("choose", s, m(w)))
    g.apply(("reveal",))
    assert (g.step, g.to_act(), g.pos[0]) == ("take", [1], sp("T4"))
    assert len(g.crews[0]) == 1


def test_H25_H33_black_jacks_turned_card_is_tapped_and_taken_back_while_he_robs():
    g = table(3, "standard")
    set_up(g, [("T1", "RED-1"), ("T5", "PURPLE-4"), ("T9", "GREY-6")], "T3")
    g.apply(("offer", c("GREY-6")))
    g.apply(("pass",))
    g.apply(("pass",))
    for s, w in enumerate(("1", "7", "6")):
        g.apply(("choose", s, m(w)))
    g.apply(("reveal",))
    for card in ("RED-4", "RED-2", "YELLOW-4"):
        g.apply(("take", c(card)))
    r = report(g)
    assert (r["step"], r["turn"], r["figure"]) == ("bj-card", "p3", "blackjack")
    assert g.legal_actions() == [("bj_card", n) for n in range(1, 13)]
    refused(g, ("bj_card", 13), "unknown-card")
    refused(g, ("take", c("RED-3")), "wrong-phase")
    before = report(g)
    g.apply(("bj_card", 10))
    r = report(g)
    assert (r["step"], r["turn"], r["from"], r["blackjack"]) == ("rob", "p3", ["p2"], "T13")
    assert r["bj_cards"] == ["BJ-10"]
    g.apply(("undo",))
    assert report(g) == before
    g.apply(("bj_card", 10))
    g.apply(("rob", c("YELLOW-4")))
    assert g.round == 2 and g.undo == []
    refused(g, ("undo",), "wrong-phase")
    # Round 2, to its Black-Jack card: a card turned already is card-already-played.
    g.apply(("pass",))  # p3 opens: passes, and so do the others
    while g.step == "auction":
        g.apply(("pass",))
    for s, w in enumerate(("2", "1", "1")):
        g.apply(("choose", s, m(w)))
    g.apply(("reveal",))
    while g.step == "take":
        g.apply(next(a for a in g.legal_actions() if a[0] == "take"))
    while g.step == "steal":
        g.apply(("steal", -1))
        while g.step == "take":
            g.apply(next(a for a in g.legal_actions() if a[0] == "take"))
    assert g.step == "bj-card" and g.to_act() == [0, 1, 2]  # nobody bid: anyone
    assert report(g)["turn"] is None
    refused(g, ("bj_card", 10), "card-already-played")


def test_H27_H33_tactical_without_a_bid_taps_the_turned_card_before_rum():
    g = table(2, "tactical")
    set_up(g, [("T1", "RED-1"), ("T8", "GREY-3")], "T4")
    g.apply(("pass",))
    g.apply(("pass",))
    g.apply(("choose", 0, m("RUM")))
    g.apply(("choose", 1, m("1")))
    g.apply(("reveal",))
    assert (g.step, report(g)["figure"]) == ("bj-card", "blackjack")
    assert g.legal_actions() == [("bj_card", k) for k in range(8)]
    refused(g, ("rum", 4), "wrong-phase")
    refused(g, ("undo",), "wrong-phase")  # the reveal is not taken back
    g.apply(("bj_card", m("RUM")))  # his RUM: the lowest number not shown, 2 (H27)
    assert g.numbers[BJ] == 2
    assert (g.step, g.options) == ("rum", [2, 3, 4, 5, 6, 7])  # then p1's RUM is named


def test_H24_H26_H33_W_taps_black_jacks_take_into_the_port():
    g = table(2, "tactical")
    set_up(g, [("T1", "RED-1"), ("T5", "PURPLE-4")], "T9")
    g.apply(("offer", c("PURPLE-4")))
    g.apply(("pass",))  # p2 is W
    g.apply(("choose", 0, m("7")))
    g.apply(("choose", 1, m("2")))  # p2 T5 -> T7
    g.apply(("choose", BJ, m("6")))  # T9 + 6 = T1, on p1
    g.apply(("reveal",))
    g.apply(("take", c("GREY-1")))  # p2's own take
    r = report(g)
    assert (r["step"], r["turn"], r["figure"]) == ("take", "p2", "blackjack")
    g.apply(("take", c("RED-2")))
    assert c("RED-2") in g.port
    r = report(g)
    assert (r["step"], r["turn"], r["figure"], r["from"]) == (
        "steal", "p2", "blackjack", ["p1"])
    g.apply(("undo",))  # Black-Jack's take before W's theft for him
    assert c("RED-2") not in g.port and report(g)["figure"] == "blackjack"


def test_H33_a_dealt_deck_asks_for_no_take():
    g = game.new_state(None, {"players": 3, "seed": 4})
    refused(g, ("take", 0), "wrong-phase")
    refused(g, ("bj_card", 1), "wrong-phase")


def test_H2_the_enrolled_values_come_with_the_settings():
    g = table(3, "beginner", values={"RED-1": 12, "GREY-2": 0})
    assert g.values[c("RED-1")] == 12 and g.values[c("GREY-2")] == 0
    assert g.values[c("RED-2")] == 2  # not given: the default table
    set_up(g, [("T1", "RED-1"), ("T3", "YELLOW-11"), ("T6", "GREY-2")])
    assert g.score(0) == 24 and g.score(2) == 0
    assert (g.low, g.high) == (2, 0)  # H18 ranks by the recorded value
    for bad, words in (({"RED-10": 3}, "not a crew card"), ({"RED-1": -1}, "0 to 99"),
                       ({"RED-1": True}, "0 to 99"), ([1], "map")):
        with pytest.raises(ValueError) as e:
            settings.check_settings({"values": bad})
        assert words in str(e.value)


def test_H31_seat_colours_are_settings_for_the_lights_only():
    from conformance import board_for
    board = board_for("halunken")
    plain = game.new_state(board, {"players": 3, "seed": 1})
    coloured = game.new_state(board, {"players": 3, "seed": 1,
                                      "colours": {"p2": "#102030"}})
    assert coloured.snapshot() == plain.snapshot()  # nothing of the game changes
    assert json.dumps(report(coloured)) == json.dumps(report(plain))
    for g in (plain, coloured):
        g.apply(("place", sp("T1")))
        g.apply(("place", sp("T2")))
    frames = []
    for g in (plain, coloured):
        v = game.view(board)
        frames.append(bytes(v.render(g, game.controller(g), 0)))
    led = board.space_led[sp("T2")]
    assert frames[0][:3 * led] == frames[1][:3 * led]  # p1's space: the palette's colour
    assert frames[0][3 * led:3 * led + 3] != frames[1][3 * led:3 * led + 3]
    assert settings.seat_colours(settings.check_settings(
        {"colours": {"p2": "#102030"}})) == (None, (16, 32, 48), None, None)
    for bad in ({"p4": "#102030"}, {"p1": "102030"}, {"p1": "#10203g"}):
        with pytest.raises(ValueError):
            settings.check_settings({"players": 3, "colours": bad})


def test_H16_a_state_is_one_game_of_its_match():
    """`games` is a match of games added up (test_halunken_match.py): each state is one
    game of it, with the number and the totals carried in its settings."""
    g = table(games=3)
    assert (g.games, g.game_k, g.carried) == (3, 1, [0, 0, 0])
    with pytest.raises(ValueError) as e:
        settings.check_settings({"games": 4})
    assert "games" in str(e.value)

