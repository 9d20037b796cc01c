"""One test per ruling the rules engine carries (docs/halunken.md, H1-H29, H32)."""

import pytest
from halunken_kit import BJ, c, given, m, report, sp

from core.outcome import Rejected
from games.halunken import deck, game


def refused(g, act, code):
    before = g.snapshot()
    with pytest.raises(Rejected) as e:
        g.apply(act)
    assert e.value.code == code
    assert g.snapshot() == before  # a refusal changes nothing


def placed(players=3, mode=None, spaces=("T1", "T5", "T9", "T12"), bj_space=None, **kw):
    g = given(players, mode, **kw)
    for t in spaces[:players]:
        g.apply(("place", sp(t)))
    if g.step == "place-bj":
        g.apply(("place_bj", sp(bj_space or "T3")))
    return g


def choose(g, words, bj=None):
    for s, w in enumerate(words):
        g.apply(("choose", s, m(w)))
    if bj is not None:
        g.apply(("choose", BJ, m(bj)))
    g.apply(("reveal",))


def test_H1_42_crew_cards_three_per_tavern():
    g = game.new_state(None, {"players": 3, "seed": 7})
    assert sorted(x for p in g.piles for x in p) == list(range(42))
    assert [len(p) for p in g.piles] == [3] * 14


def test_H2_values_are_data_default_k():
    g = placed(3, "beginner")
    assert [deck.crew_name(x) for x in g.crews[0]] == ["RED-1"]
    assert g.score(0) == 2  # RED-1 worth 1, doubled
    g.values[c("RED-1")] = 5
    assert g.score(0) == 10


def test_H3_T14_steps_to_T1():
    g = placed(3, "beginner", spaces=("T13", "T5", "T9"))
    choose(g, ("3", "1", "2"))
    assert report(g)["captains"]["p1"] == "T2"


def test_H4_first_seat_places_first_then_clockwise():
    g = given(3, "beginner", first="p2")
    assert g.to_act() == [1]
    g.apply(("place", 0))
    assert g.to_act() == [2]
    refused(g, ("place", 0), "not-offered")  # one captain per space


def test_H5_blind_set_up_then_top_cards_face_up():
    g = given(3, "standard")
    g.apply(("place", 0))
    g.apply(("place", 4))
    assert all(t["top"] is None for t in report(g)["taverns"].values())
    assert g.public()["top"] == [-1] * 14
    g.apply(("place", 8))
    assert report(g)["taverns"]["T1"]["top"] == "RED-2"
    assert g.public()["top"][0] == c("RED-2")


def test_H6_each_movement_card_once_the_last_forced():
    g = placed(3, "beginner")
    choose(g, ("1", "2", "3"))
    refused(g, ("choose", 0, m("1")), "card-already-played")
    snap = g.snapshot()
    snap["played"][0] = [m(w) for w in ("1", "2", "3", "4", "5", "6", "7")]
    g.restore(snap)
    assert [a for a in g.legal_actions() if a[1] == 0] == [("choose", 0, m("RUM"))]


def test_H7_rum_number_avoids_every_revealed_number_cancelled_included():
    g = placed(4, "beginner")
    choose(g, ("RUM", "3", "3", "5"))
    assert g.step == "rum" and g.options == [1, 2, 4, 6, 7]
    refused(g, ("rum", 3), "not-offered")
    g2 = placed(3, "beginner")
    choose(g2, ("RUM", "RUM", "2"))  # two rums cancel, no number to name
    assert g2.round == 2 and g2.played[0] == [m("RUM")]  # no number was asked for


def test_H8_stayers_take_before_movers():
    g = placed(3, "beginner", spaces=("T1", "T13", "T9"))
    choose(g, ("4", "2", "4"))  # p1, p3 stay; p2 T13 -> T1 lands on p1
    assert c("RED-2") in g.crews[0]  # p1 took before p2 arrived
    assert c("RED-3") in g.crews[1]


def test_H9_landing_on_a_captain_take_theft_then_displacement():
    g = placed(3, "beginner", spaces=("T1", "T13", "T2"))
    choose(g, ("5", "2", "5"))  # p1, p3 stay and take; p2 T13 -> T1 on p1
    r = report(g)
    assert r["step"] == "steal" and r["from"] == ["p1"]
    assert r["crews"]["p2"] == ["RED-3", "YELLOW-7"]  # the take comes first: 2 <= 2
    g.apply(("steal", c("RED-1")))
    # p1 is displaced past p3 on T2 to T3, the first vacant space, and takes nothing
    assert report(g)["captains"]["p1"] == "T3" and len(g.piles[sp("T3")]) == 3
    assert c("RED-1") in g.crews[1]


def test_H10_displaced_captain_moves_later_from_its_new_space():
    g = placed(3, "beginner", spaces=("T1", "T13", "T5"))
    choose(g, ("3", "2", "7"))  # p2 -> T1 on p1; p1 displaced to T2 then moves 3 to T5? p3 left
    if g.step == "steal":
        g.apply(("steal", -1))
    assert report(g)["captains"]["p1"] == "T5"


def test_H11_a_theft_may_be_declined():
    g = placed(3, "beginner", spaces=("T1", "T13", "T9"))
    choose(g, ("5", "2", "6"))
    crews = [list(x) for x in g.crews]
    g.apply(("steal", -1))
    assert sorted(g.crews[0]) == sorted(crews[0])


def test_H12_crews_and_port_are_public_choices_are_not():
    g = placed(3, "beginner")
    g.apply(("choose", 0, m("4")))
    pub = g.public()
    assert pub["crews"][0] == [c("RED-1")] and pub["chosen"] == [0]
    assert "4" not in str(pub["played"]) and g.seat_view(0) == {"choice": m("4")}
    assert g.seat_view(1) == {"choice": -1}


def test_H13_empty_tavern_gives_nothing_and_no_empty_theft():
    g = placed(3, "beginner", spaces=("T1", "T13", "T9"))
    snap = g.snapshot()
    snap["piles"][0] = []
    snap["crews"][0] = []
    g.restore(snap)
    choose(g, ("5", "2", "6"))
    # p2 T13 -> T1: nothing to take, p1 holds nothing: no theft, p1 displaced to T2.
    # p1 T2 -> T7. p3 T9 -> T1: nothing to take; 1 <= 1, p3 may rob p2.
    r = report(g)
    assert (r["step"], r["turn"], r["from"]) == ("steal", "p3", ["p2"])
    assert r["crews"]["p2"] == ["YELLOW-7"] and r["captains"]["p1"] == "T7"


def test_H14_tied_majority_doubles_the_highest_sum():
    g = placed(3, "beginner")
    g.crews[0] = [c("RED-9"), c("GREY-2")]
    assert g.score(0) == 11 + 9


def test_H15_equal_highest_scores_share_the_win():
    g = placed(3, "beginner")
    g.crews = [[c("RED-5")], [c("GREY-5")], [c("RED-1")]]
    assert g.winners() == [0, 1]


@pytest.mark.parametrize("obj, fault", [
    ({"players": 2, "mode": "standard"}, "mode standard"),
    ({"players": 4, "mode": "tactical"}, "mode tactical"),
    ({"players": 5}, "players"),
    ({"players": 3, "first": "p4"}, "first"),
    ({"players": 3, "colour": 1}, "unknown setting"),
])
def test_H17_player_counts_and_modes_agree(obj, fault):
    with pytest.raises(ValueError) as e:
        game.check_settings(obj)
    assert fault in str(e.value)
    assert game.check_settings({"players": 2})["mode"] == "tactical"


def test_H18_lowest_card_places_black_jack_highest_opens():
    g = given(3, "standard")
    for t in ("T5", "T1", "T9"):  # PURPLE-4, RED-1, GREY-6
        g.apply(("place", sp(t)))
    assert g.to_act() == [1] and report(g)["figure"] == "blackjack"
    g.apply(("place_bj", sp("T3")))
    assert report(g)["auction"]["opener"] == "p3"
    g2 = given(3, "standard")
    g2.values[c("RED-1")] = 6  # RED-1 worth 6 = GREY-6: the colour decides
    for t in ("T1", "T5", "T9"):
        g2.apply(("place", sp(t)))
    assert g2.low == 1 and g2.high == 2


def _auction(g):
    snap = g.snapshot()
    snap["crews"] = [[c("RED-1"), c("RED-8")], [c("GREY-3")], [c("YELLOW-5")]]
    snap["piles"][0] = snap["piles"][0][:1] + [c("PURPLE-1")]
    g.restore(snap)


def test_H20_one_offer_each_strictly_higher_public_winner_pays():
    g = placed(3, "standard")  # set-up cards RED-1, PURPLE-4, GREY-6: p3 opens
    assert g.auction["speaker"] == 2
    refused(g, ("offer", g.crews[0][0]), "out-of-turn")
    refused(g, ("offer", c("RED-9")), "not-in-crew")
    g.apply(("pass",))
    g.apply(("offer", c("RED-1")))
    refused(g, ("offer", c("GREY-6")), "out-of-turn")
    g.values[c("PURPLE-4")] = 1  # H2: configured values; equal is no raise
    refused(g, ("offer", c("PURPLE-4")), "bid-too-low")
    g.apply(("pass",))
    assert g.step == "choose" and g.auction["winner"] == 0
    assert g.port == [c("RED-1")] and g.crews[1] == [c("PURPLE-4")]
    assert [w[0] for w in g.auction["words"]] == [2, 0, 1]  # once round from the opener


def test_H19_H21_winner_controls_this_round_and_opens_the_next():
    g = placed(3, "standard")
    g.apply(("pass",))
    g.apply(("offer", g.crews[0][0]))
    g.apply(("pass",))
    assert g.winner_seat() == 0 and g.round == 1
    choose(g, ("1", "2", "3"))
    while g.round == 1:
        g.apply(g.legal_actions()[0])
    assert g.auction["opener"] == 0 == g.last_bidder


def test_H22_black_jack_goes_on_past_captains_spares_W_counts_at_each_theft():
    g = placed(3, "standard", spaces=("T1", "T5", "T9"), bj_space="T3",
               bj=["BJ-6"] + ["BJ-%d" % k for k in range(1, 13) if k != 6])
    g.apply(("pass",))  # p3 opens and passes
    g.apply(("offer", c("RED-1")))  # p1 wins with RED-1
    g.apply(("pass",))
    choose(g, ("6", "4", "1"))  # p3 T9->T10, p2 T5->T9, p1 T1->T7: 1, 2, 2 cards
    r = report(g)  # T3 + 6 = T9 (p2), T10 (p3): on to T11; p1 on T7 is W's own
    assert (r["blackjack"], r["step"], r["turn"], r["from"]) == ("T11", "rob", "p1", ["p2"])
    g.apply(("rob", g.crews[1][0]))
    r = report(g)  # p3 holds 2, not fewer than p1's 2: robbed too
    assert (r["step"], r["from"]) == ("rob", ["p3"])
    g.apply(("rob", -1))  # H11: W may decline
    assert g.round == 2 and [len(x) for x in g.crews] == [2, 1, 2]


def test_H23_nobody_bid_robbery_is_compulsory_into_the_port():
    g = placed(3, "standard", spaces=("T5", "T1", "T9"), bj_space="T3",
               bj=["BJ-4"] + ["BJ-%d" % k for k in range(1, 13) if k != 4])
    while g.step == "auction":
        g.apply(("pass",))
    choose(g, ("1", "3", "2"))  # p1 T5->T6, p3 T9->T11, p2 T1->T4; BJ T3 -> T7
    for victim in ("p2", "p1"):  # in the order passed
        r = report(g)
        assert (r["step"], r["turn"], r["figure"], r["from"]) == (
            "rob", victim, "blackjack", [victim])
        refused(g, ("rob", -1), "wrong-phase")
        g.apply(("rob", g.crews[int(victim[1]) - 1][0]))  # the victim chooses
    r = report(g)
    assert r["blackjack"] == "T7" and len(r["port"]) == 2 and r["round"] == 2
    assert [len(x) for x in g.crews] == [1, 1, 2]


def test_H24_captain_landing_on_black_jack_takes_a_port_card_and_displaces_him():
    g = placed(3, "standard", spaces=("T1", "T6", "T9"), bj_space="T3")
    g.apply(("offer", g.crews[g.auction["speaker"]][0]))
    while g.step == "auction":
        g.apply(("pass",))
    assert len(g.port) == 1
    port_card = g.port[0]
    choose(g, ("2", "5", "4"))  # p1 T1 -> T3 on Black-Jack
    r = report(g)
    assert (r["step"], r["from"], r["turn"]) == ("steal", ["port"], "p1")
    g.apply(("steal", port_card))
    assert port_card in g.crews[0]
    # displaced to T4, taking nothing; then his end move turns BJ-1: T4 -> T5
    assert len(g.piles[sp("T4")]) == 3 and g.bj_cards == [1] and g.bj == sp("T5")


def test_H25_four_black_jack_cards_stay_unturned():
    from halunken_play import play
    rep, _ = play(2)  # seed 2: 4 players, standard
    assert rep["mode"] == "standard" and len(rep["bj_cards"]) == 8
    assert len(rep["hidden"]["bj_deck"]) == 4


def _tactical(words_w, bj_card, word_o):
    g = placed(2, "tactical", spaces=("T1", "T5"), bj_space="T9")
    g.apply(("offer", g.crews[g.auction["speaker"]][0]))
    if g.step == "auction":
        g.apply(("pass",))
    w = g.winner_seat()
    words = [word_o, word_o]
    words[w] = words_w
    g.apply(("choose", 0, m(words[0])))
    g.apply(("choose", 1, m(words[1])))
    g.apply(("choose", BJ, m(bj_card)))
    return g, w


def test_H26_tactical_winner_plays_black_jack_as_a_second_captain():
    g, w = _tactical("3", "3", "5")  # same number for both: both W's figures stay
    assert report(g)["chosen"] == 3 and g.step == "reveal"
    g.apply(("reveal",))
    assert g.played[w] == [m("3")] and g.bj_cards == [m("3")]
    assert g.round == 2 or g.step in ("steal", "rum")
    refused_g, _ = _tactical("2", "4", "6")
    refused(refused_g, ("choose", BJ, m("1")), "already-chosen")


def test_H27_tactical_without_a_bid_black_jack_turns_after_the_reveal():
    g = placed(2, "tactical", spaces=("T1", "T5"), bj_space="T9")
    while g.step == "auction":
        g.apply(("pass",))
    assert g.winner_seat() == -1
    refused(g, ("choose", BJ, 0), "wrong-phase")
    g.apply(("choose", 0, m("1")))
    g.apply(("choose", 1, m("1")))  # players' cards alone cancel
    g.apply(("reveal",))
    assert g.bj_cards == [m("1")]  # the deck's first card, turned after the reveal
    assert report(g)["captains"] == {"p1": "T1", "p2": "T5"}  # both stayed


def test_H28_a_seat_without_crew_gets_no_word():
    g = placed(3, "standard")
    g.crews[0] = []
    g.port = []
    assert g.auction["speaker"] == 2
    g.apply(("pass",))
    assert g.auction["speaker"] == 1  # p1 (no crew) would be next after p2... order p3, p1
    g.apply(("pass",))
    assert g.step == "choose"


def test_H29_the_game_ends_after_the_8th_black_jack_move():
    from halunken_play import play
    rep, _ = play(5)  # 4 players? settings_for decides; any Black-Jack mode
    assert rep["phase"] == "over" and rep["round"] == 8 and rep["step"] is None


def test_H32_several_seats_choose_at_once_hidden_until_all_are_in():
    g = placed(3, "beginner")
    assert g.to_act() == [0, 1, 2]
    g.apply(("choose", 2, m("4")))
    assert g.to_act() == [0, 1]
    refused(g, ("choose", 2, m("5")), "already-chosen")
    refused(g, ("reveal",), "wrong-phase")
    refused(g, ("choose", 3, m("1")), "unknown-card")
    refused(g, ("choose", BJ, m("1")), "unknown-card")  # no Black-Jack in beginner
    refused(g, ("offer", 42), "unknown-card")  # the tag before the step
    assert report(g)["played"] == {"p1": [], "p2": [], "p3": []}


def _won_tactical(bj_space):
    g = placed(2, "tactical", spaces=("T1", "T5"), bj_space=bj_space)
    assert g.auction["speaker"] == 1  # p2's PURPLE-4 beats p1's RED-1 (H18)
    g.apply(("offer", c("PURPLE-4")))
    g.apply(("pass",))  # p1 withdraws: p2 is W and pays PURPLE-4 to the port
    assert g.winner_seat() == 1 and g.port == [c("PURPLE-4")] and g.crews[1] == []
    return g


def test_H26_black_jack_lands_on_the_opponent_takes_into_the_port_W_may_steal():
    g = _won_tactical("T9")
    g.apply(("choose", 0, m("7")))
    g.apply(("choose", 1, m("2")))  # p2 T5 -> T7 takes GREY-1 (count 1)
    g.apply(("choose", BJ, m("6")))  # T9 + 6 = T1, on p1 (count 1)
    g.apply(("reveal",))
    r = report(g)
    assert (r["step"], r["turn"], r["figure"], r["from"]) == ("steal", "p2", "blackjack", ["p1"])
    assert c("RED-2") in g.port  # his take goes into the port (H24)
    g.apply(("steal", c("RED-1")))
    r = report(g)
    assert c("RED-1") in g.crews[1] and r["blackjack"] == "T2"  # goes on, takes nothing
    assert len(g.piles[sp("T2")]) == 3
    assert r["captains"]["p1"] == "T8" and r["round"] == 2


def test_H26_opponent_landing_on_black_jack_takes_from_the_port_or_W():
    g = _won_tactical("T6")
    g.apply(("choose", 0, m("5")))  # p1 T1 -> T6, on Black-Jack
    g.apply(("choose", 1, m("2")))  # p2 T5 -> T7
    g.apply(("choose", BJ, m("7")))
    g.apply(("reveal",))
    r = report(g)
    assert (r["step"], r["turn"], r["from"]) == ("steal", "p1", ["port", "p2"])
    g.apply(("steal", g.crews[1][0]))  # from W, no count condition
    r = report(g)
    # displaced to T8 (T7 holds p2), he then moves 7 from there (H10): T8 -> T1, vacant
    assert r["blackjack"] == "T1" and r["round"] == 2
    assert c("RED-2") in g.port and len(g.crews[1]) == 0
