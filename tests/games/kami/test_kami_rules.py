"""Kami's rules: one test per ruling (K1-K22, docs/kami.md), the worked examples, the
refusal codes in the contract's order of checks. Every refusal is checked to change
nothing."""

import sys

import pytest

from core.outcome import Rejected
from games.kami import deck, game, report, rules

I = deck.index  # noqa: E741  (a card's index by name)
KEYS = {"d": "defend", "a": "attack", "c": "counter", "r": "reveal", "x": "centre",
        "s": "show"}


def act(step):
    """"d:SOLDAT-3" -> ("defend", card); "pass" -> ("pass",)."""
    if ":" in step:
        k, name = step.split(":")
        card = I(name) if name != "uid" else 99
        return (KEYS[k], card)
    return (step,)


def do(g, *steps):
    for s in steps:
        g.apply(act(s))
    return g


def refused(g, step, code):
    """`step` is refused with `code` and changes nothing. (try/except rather than
    pytest.raises: this module also runs inside MicroPython, tests/mp/run_tests.py.)"""
    before = g.snapshot()
    try:
        g.apply(act(step) if isinstance(step, str) else step)
    except Rejected as e:
        assert e.code == code, e.message
        assert g.snapshot() == before
        return e
    raise AssertionError("%r was accepted, expected %s" % (step, code))


def value_error(fn, *args, word=""):
    """fn(*args) raises ValueError naming `word`."""
    try:
        fn(*args)
    except ValueError as e:
        assert word in str(e), str(e)
        return
    raise AssertionError("no ValueError for %r" % (args,))


def given(players=4, hands=None, centre=None, aside=None, **kw):
    """A game with a given deal: `hands` {seat: [names]} partly stated, the rest filled
    from the unused cards in index order; `centre` {stack: (up, down)} likewise."""
    g = rules.Game(players=players, deal="given", **kw)
    hands = hands or {}
    centre = centre or {}
    taken = set()
    for names in hands.values():
        taken.update(I(n) for n in names)
    for up, down in centre.values():
        taken.update((I(up), I(down)))
    taken.update(I(n) for n in (aside or ()))
    free = [c for c in range(deck.COUNT) if c not in taken]
    full = rules.dealt(players)
    hs = []
    for s in range(players):
        h = [I(n) for n in hands.get(s, ())]
        while len(h) < full:
            h.append(free.pop(0))
        hs.append(h)
    stacks = None
    if players == 2:
        stacks = []
        for i in range(8):
            if i in centre:
                stacks.append([I(centre[i][0]), I(centre[i][1])])
            else:
                stacks.append([free.pop(0), free.pop(0)])
    asides = [I(n) for n in aside] if aside else None
    g.apply(("deal", hs, asides, stacks))
    return g


def rep(g):
    return report.game(g)


def table(players=4, **kw):
    return rules.Game(players=players, **kw)


def table2(first=0, ups=("SOLDAT-1", "SOLDAT-2", "SOLDAT-3", "SOLDAT-4", "SOLDAT-5",
                         "SOLDAT-6", "SOLDAT-7", "SOLDAT-8"), **kw):
    g = rules.Game(players=2, first=first, **kw)
    for name in ups:
        g.apply(("centre", I(name)))
    return g


# ---- the rulings

def test_K1_identical_means_same_name():
    g = do(table(), "d:SOLDAT-3", "a:LANCE-1")
    refused(g, "c:CAVALIER-1", "not-a-counter")  # both worth 2, not identical
    do(g, "c:LANCE-2")
    assert g.step == "attack"
    do(g, "a:ARGENT-1")
    refused(g, "c:OR-1", "not-a-counter")  # the two Dragons differ
    do(g, "c:ARGENT-2")


def test_K2_counters_are_face_up_openings_face_down():
    g = do(table(), "d:SOLDAT-3", "a:SOLDAT-1", "c:SOLDAT-2")
    assert g.lines[0][0] == [[I("SOLDAT-3"), 0, 0]]
    assert g.lines[1][0] == [[I("SOLDAT-2"), 1, 0]]
    lines = rep(g)["lines"]
    assert lines["p1"]["defence"][0]["face"] == "down"
    assert lines["p2"]["defence"][0]["face"] == "up"


def test_K3_the_attack_after_a_counter_or_a_defence_is_compulsory():
    g = do(table(), "d:SOLDAT-3")
    assert g.step == "attack" and g.to_act() == [0]
    refused(g, "pass", "wrong-phase")  # no passing out of the attack
    refused(g, "d:SOLDAT-4", "wrong-phase")  # one defence per turn
    do(g, "a:SOLDAT-1", "c:SOLDAT-2")
    assert g.step == "attack" and g.to_act() == [1]
    refused(g, "pass", "wrong-phase")
    refused(g, "c:SOLDAT-4", "wrong-phase")
    do(g, "a:OR-1")
    assert g.to_act() == [2] and g.step == "respond"


def test_K4_empress_counters_all_but_soldier_and_spear():
    g = do(table(), "d:SOLDAT-3", "a:SOLDAT-1")
    refused(g, "c:IMPERATRICE-1", "not-a-counter")
    do(g, "c:SOLDAT-2", "a:LANCE-1")
    refused(g, "c:IMPERATRICE-1", "not-a-counter")
    do(g, "c:LANCE-2", "a:FOU-1")
    do(g, "c:IMPERATRICE-1")
    assert g.empress_unlocked()


def test_K4_empress_attack_locked_until_a_face_up_empress_defence():
    g = do(table(), "d:SOLDAT-3")
    e = refused(g, "a:IMPERATRICE-1", "empress-locked")
    assert "K4" in e.message
    do(g, "a:OR-1", "c:IMPERATRICE-1", "a:TOUR-1")
    # unlocked for everyone, the counter's partner and opponents alike
    do(g, "pass", "pass", "pass", "d:SOLDAT-4", "a:IMPERATRICE-2")
    assert g.attack == [1, I("IMPERATRICE-2")]


def test_K4_taking_back_an_empress_counter_locks_again():
    # the last-card exception is example 2's first ending (test_example_2_*)
    g = do(table(), "d:SOLDAT-3", "a:OR-1", "c:IMPERATRICE-1")
    assert g.empress_unlocked()
    do(g, "back")
    assert not g.empress_unlocked() and g.step == "respond" and g.sizes[1] == 8


def test_K5_a_hidden_empress_does_not_unlock():
    g = do(table(), "d:IMPERATRICE-1")
    assert not g.empress_unlocked()
    refused(g, "a:IMPERATRICE-2", "empress-locked")
    assert not rep(g)["empress_unlocked"]


def test_K6_any_card_face_down():
    for name in ("IMPERATRICE-1", "SOLDAT-1", "TOUR-2"):
        g = do(table(), "d:" + name)
        assert g.lines[0][0] == [[I(name), 0, 0]]


def test_K7_the_last_hand_card_is_an_attack_and_ends_the_round():
    g = given(2, hands={0: ["SOLDAT-1"]}, centre={0: ("OR-1", "OR-2")})
    g.sizes[0] = 1
    g.hands[0] = [I("SOLDAT-1")]
    refused(g, "d:SOLDAT-1", "last-card-defence")  # 2 players: never in defence
    do(g, "d:OR-1")  # a centre card as the defence
    assert g.up[0] == I("OR-2")  # the card beneath turned up (K13)
    do(g, "a:SOLDAT-1")
    r = rep(g)["rounds"][0]
    assert (r["seat"], r["card"], r["points"], r["doubled"]) == ("p1", "SOLDAT-1", 1, False)


def test_K7_a_last_card_counter_is_refused_in_2_players():
    g = given(2, hands={0: ["OR-1"], 1: ["OR-2"]}, first=1)
    g.sizes[0] = 1
    g.hands[0] = [I("OR-1")]
    do(g, "d:SOLDAT-9", "a:OR-2")
    refused(g, "c:OR-1", "last-card-defence")


def test_K8_master_stroke_doubles_a_face_down_identical_pair():
    g = given(3, hands={1: ["SOLDAT-2", "ARGENT-1", "ARGENT-2", "ARGENT-3", "TOUR-1",
                            "TOUR-2", "FOU-1", "CAVALIER-3", "IMPERATRICE-1",
                            "IMPERATRICE-2"],
                        0: ["SOLDAT-9", "SOLDAT-1"]})
    example2_first_ending(g)
    r = rep(g)["rounds"][0]
    assert r["doubled"] and r["points"] == 10  # an Empress pair: 5 x 2


def test_K8_identical_but_both_face_up_is_not_doubled():
    g = example2_other_ending()
    r = rep(g)["rounds"][0]
    assert r["defence"] == {"card": "CAVALIER-2", "face": "up"}
    assert not r["doubled"] and r["points"] == 2


def test_K8_a_centre_card_as_face_down_defence_counts_as_face_down():
    g = given(2, hands={0: ["OR-2"]}, centre={0: ("OR-1", "SOLDAT-9")})
    g.sizes[0] = 1
    g.hands[0] = [I("OR-2")]
    do(g, "d:OR-1")
    assert g.lines[0][0] == [[I("OR-1"), 0, 1]]
    do(g, "a:OR-2")
    r = rep(g)["rounds"][0]
    assert r["doubled"] and r["points"] == 6
    assert r["defence"] == {"card": "OR-1", "face": "down"}


def test_K9_the_next_first_player_is_the_seat_after():
    g = given(3, first=2, hands={2: ["IMPERATRICE-1"]})
    g.sizes[2] = 1
    g.hands[2] = [I("IMPERATRICE-1")]
    g.step = "attack"  # p3 plays its last card: the round ends
    do(g, "a:IMPERATRICE-1")
    assert g.first == 0 and g.round == 2 and g.phase == "deal"
    assert rep(g)["first"] == "p1" and rep(g)["turn"] == "p1"


def test_K10_the_first_player_is_a_setting():
    assert game.check_settings({})["first"] == "p1"
    g = game.new_state(None, {"players": 3, "first": "p3"})
    assert g.to_act() == [2] and rep(g)["turn"] == "p3"
    value_error(game.check_settings, {"players": 2, "first": "p3"}, word="first")


def test_K11_five_soldier_claim_cancels_and_redeals():
    soldiers = ["SOLDAT-%d" % i for i in range(1, 6)]
    g = given(4, hands={1: soldiers})
    dealt_before = [list(h) for h in g.hands]
    do(g, "discard")
    assert g.phase == "claim" and rep(g)["claim"] == {"seat": "p1", "step": "seat",
                                                      "soldiers": []}
    g.apply(("pick", 1))
    refused(g, "s:OR-1", "card-not-in-hand")
    refused(g, "shown", "no-claim")
    for name in soldiers[:4]:
        do(g, "s:" + name)
    refused(g, "s:SOLDAT-1", "no-claim")  # shown already
    refused(g, "shown", "no-claim")  # four are not five
    do(g, "s:SOLDAT-5", "shown")
    assert g.to_act() == [3]  # the partner answers
    do(g, "cancel")
    assert g.phase == "deal" and g.round == 1 and g.first == 0 and g.scores == [0, 0]
    assert g.sizes == [0, 0, 0, 0] and g.claim is None  # waiting for the new deal
    deal = g.legal_actions()[0]
    g.apply(deal)
    assert g.phase == "play" and g.to_act() == [0] and g.hands != dealt_before


def test_K11_claim_again_after_play_on_and_any_seat_any_order():
    g = table(4)
    do(g, "discard")
    g.apply(("pick", 2))
    for i in range(1, 6):
        do(g, "s:SOLDAT-%d" % i)
    refused(g, "s:OR-1", "no-claim")
    do(g, "shown", "keep")
    assert g.phase == "play" and g.claim is None
    do(g, "discard")
    g.apply(("pick", 0))
    do(g, "withdraw")
    do(g, "discard", "back")  # back in step seat withdraws
    assert g.phase == "play"
    do(g, "d:SOLDAT-1", "a:SOLDAT-2")
    g2 = g
    refused(g2, "discard", "wrong-phase")  # after the round's first card


def test_K11_no_claim_in_2_or_3_players():
    refused(table(3), "discard", "no-claim")
    refused(table2(), "discard", "no-claim")
    refused(table(2), "discard", "wrong-phase")  # still laying out the centre


def test_K12_three_players_ten_cards_and_two_aside_in_no_hand():
    g = given(3, aside=["TOUR-1", "FOU-2"])
    assert g.sizes == [10, 10, 10]
    assert rep(g)["hidden"]["aside"] == ["FOU-2", "TOUR-1"]
    refused(g, "d:TOUR-1", "card-not-in-hand")
    g2 = given(3)  # without `aside` the two cards not dealt
    assert len(g2.aside) == 2


def test_K13_centre_card_keeps_the_hand_size_and_turns_up_the_one_beneath():
    g = given(2, centre={2: ("OR-3", "TOUR-1")}, first=1, hands={1: ["OR-4"]})
    do(g, "d:SOLDAT-9", "a:OR-4", "c:OR-3")
    assert g.sizes[0] == 8 and g.up[2] == I("TOUR-1") and g.left[2] == 1
    refused(g, "back", "wrong-phase")  # a centre card stays played
    refused(g, "c:OR-3", "wrong-phase")


def test_K13_at_a_table_the_turned_up_card_is_tapped():
    g = table2()
    do(g, "d:SOLDAT-1")  # stack 1's card as the face-down defence
    assert rep(g)["step"] == "reveal" and g.to_act() == [0]
    refused(g, "a:OR-1", "wrong-phase")
    refused(g, "r:SOLDAT-2", "card-already-played")  # on stack 2
    do(g, "r:OR-2")
    assert rep(g)["step"] == "attack" and rep(g)["centre"][0] == {"up": "OR-2", "left": 1}
    do(g, "a:OR-2")  # a centre card as the attack: never ends the round
    assert g.sizes[0] == 8 and g.left[0] == 0 and rep(g)["step"] == "respond"


def test_K13_a_lone_last_card_with_no_centre_is_the_attack_alone():
    g = given(2, hands={0: ["SOLDAT-9", "SOLDAT-8", "LANCE-1"]})
    g.up = [-1] * 8  # every centre card used up
    g.down = [-1] * 8
    g.left = [0] * 8
    do(g, "d:SOLDAT-9", "a:SOLDAT-8")
    g.hands[0] = [I("LANCE-1")]  # p1 is down to its last card
    g.sizes[0] = 1
    do(g, "pass")
    assert g.turn == 0 and g.step == "attack"  # straight to the attack, no defence
    refused(g, "back", "wrong-phase")
    do(g, "a:LANCE-1")
    r = rep(g)["rounds"][0]
    assert r["defence"] is None and not r["doubled"] and r["points"] == 2


def test_K14_lines_are_not_limited_to_four_cards():
    g = given(3, hands={0: ["SOLDAT-%d" % i for i in range(1, 11)]})
    for k in range(4):
        do(g, "d:SOLDAT-%d" % (2 * k + 1), "a:SOLDAT-%d" % (2 * k + 2), "pass", "pass")
    do(g, "d:SOLDAT-9")
    assert len(g.lines[0][0]) == 5 and len(g.lines[0][1]) == 4
    do(g, "a:SOLDAT-10")  # the last of ten cards ends the round: doubled Soldiers
    assert rep(g)["rounds"][0]["points"] == 2


def test_K15_passing_is_free_while_holding_a_counter():
    g = given(4, hands={0: ["SOLDAT-1", "SOLDAT-2"], 1: ["SOLDAT-3"]})
    do(g, "d:SOLDAT-2", "a:SOLDAT-1")
    assert ("counter", I("SOLDAT-3")) in g.legal_actions()
    do(g, "pass")
    assert g.passed == [1] and g.to_act() == [2]


def test_K16_everyone_else_passes_once_then_the_attacker_replays():
    g = do(table(), "d:SOLDAT-3", "a:SOLDAT-1", "pass", "pass")
    assert g.to_act() == [3]
    do(g, "pass")
    assert g.to_act() == [0] and g.step == "open" and g.passed == [1, 2, 3]
    do(g, "d:OR-1", "a:OR-2")
    assert g.passed == [] and g.to_act() == [1]
    do(g, "c:OR-3", "a:TOUR-1")  # p2 passed before and counters now
    assert g.attack == [1, I("TOUR-1")] and g.to_act() == [2]
    refused(g, "d:SOLDAT-4", "wrong-phase")  # a responder has no face-down defence


def test_K17_scores_pass_the_tokens_in_soldat():
    g = given(2, hands={0: ["IMPERATRICE-1"]}, target=15)
    g.scores = [14, 0]
    g.sizes[0] = 1
    g.hands[0] = [I("IMPERATRICE-1")]
    g.step = "attack"  # a lone last card
    do(g, "a:IMPERATRICE-1")
    assert g.scores == [19, 0] and g.is_over() and rep(g)["winner"] == "p1"


@pytest.mark.parametrize("mode,score,over", [("soldat", 16, True), ("seigneur", 14, False),
                                             ("kami", 0, False)])
def test_K18_modes_after_overshooting(mode, score, over):
    g = example3(mode)
    assert g.scores[0] == score and g.is_over() == over


@pytest.mark.parametrize("mode", ["seigneur", "kami"])
def test_K18_exactly_the_target_wins(mode):
    g = example3(mode, scores=(12, 10))
    assert g.scores == [15, 10] and g.is_over() and rep(g)["winner"] == "p1"


def test_K18_seigneur_never_below_zero():
    g = given(2, hands={0: ["IMPERATRICE-1"]}, target=1, mode="seigneur")
    g.sizes[0] = 1
    g.hands[0] = [I("IMPERATRICE-1")]
    g.step = "attack"
    do(g, "a:IMPERATRICE-1")  # 0 + 5 over a target of 1: 2 - 5 < 0
    assert g.scores == [0, 0]


def test_K19_the_public_view_holds_what_the_lights_show():
    g = do(table(), "d:SOLDAT-3", "a:OR-1", "c:IMPERATRICE-1", "a:LANCE-1", "pass")
    p = report.public(g)
    assert p["turn"] == "p4" and p["attack"] == {"seat": "p2", "card": "LANCE-1"}
    assert p["passed"] == ["p3"] and p["empress_unlocked"]
    assert p["lines"]["p1"]["defence"] == [{"card": None, "face": "down", "from": "hand"}]
    assert p["hand_sizes"] == {"p1": 6, "p2": 6, "p3": 8, "p4": 8}


def test_K20_a_card_is_learnt_when_played_and_refused_twice():
    g = do(table(), "d:SOLDAT-3", "a:SOLDAT-1")
    assert g.hands is None and g.sizes == [6, 8, 8, 8]
    refused(g, "c:SOLDAT-1", "card-already-played")
    refused(g, "c:SOLDAT-3", "card-already-played")  # face down, at a table
    g2 = given(4, hands={0: ["SOLDAT-3", "SOLDAT-1"]})
    do(g2, "d:SOLDAT-3", "a:SOLDAT-1")
    refused(g2, "c:SOLDAT-1", "card-already-played")
    refused(g2, "c:SOLDAT-3", "card-not-in-hand")  # never tells where a hidden card is


def test_K21_only_the_final_defence_is_revealed():
    g = given(3, hands={1: ["SOLDAT-2", "ARGENT-1", "ARGENT-2", "ARGENT-3", "TOUR-1",
                            "TOUR-2", "FOU-1", "CAVALIER-3", "IMPERATRICE-1",
                            "IMPERATRICE-2"],
                        0: ["SOLDAT-9", "SOLDAT-1"]})
    example2_first_ending(g)
    p = report.public(g)
    assert p["rounds"][0]["defence"] == {"card": "IMPERATRICE-1", "face": "down"}
    text = repr(p)
    for hidden in ("SOLDAT-9", "ARGENT-2", "TOUR-1", "FOU-1"):  # earlier face-down cards
        assert hidden not in text
    assert "hands" not in p and "hidden" not in p
    mine = game.seat_view(g, 0)
    assert mine["hand"] is not None and "IMPERATRICE-1" not in mine["hand"]


def test_K22_two_players_only_empresses_and_no_centre_card():
    g = given(2, hands={0: ["IMPERATRICE-1", "IMPERATRICE-2", "SOLDAT-1"]})
    g.up = [-1] * 8
    g.down = [-1] * 8
    g.left = [0] * 8
    do(g, "d:SOLDAT-1")
    g.sizes[0] = 2
    g.hands[0] = [I("IMPERATRICE-1"), I("IMPERATRICE-2")]
    do(g, "a:IMPERATRICE-1")  # K22: an ordinary attack
    assert g.phase == "play" and not g.empress_unlocked() and g.sizes[0] == 1


def test_K22_refused_while_holding_another_card_or_a_centre_card_shows():
    g = given(2, hands={0: ["IMPERATRICE-1", "IMPERATRICE-2", "SOLDAT-1", "SOLDAT-2"]})
    g.up = [-1] * 8
    g.down = [-1] * 8
    g.left = [0] * 8
    do(g, "d:SOLDAT-1")
    g.sizes[0] = 3
    g.hands[0] = [I("IMPERATRICE-1"), I("IMPERATRICE-2"), I("SOLDAT-2")]
    refused(g, "a:IMPERATRICE-1", "empress-locked")
    g2 = given(2, hands={0: ["IMPERATRICE-1", "IMPERATRICE-2", "SOLDAT-1"]})
    do(g2, "d:SOLDAT-1")
    g2.sizes[0] = 2
    g2.hands[0] = [I("IMPERATRICE-1"), I("IMPERATRICE-2")]
    refused(g2, "a:IMPERATRICE-1", "empress-locked")  # centre cards show


def test_K22_at_a_table_at_most_two_cards_on_public_facts():
    g = table2()
    for i in range(8):
        g.up[i] = -1
        g.left[i] = 0
    do(g, "d:TOUR-1")
    g.sizes[0] = 3
    refused(g, "a:IMPERATRICE-1", "empress-locked")
    g.sizes[0] = 2
    do(g, "a:IMPERATRICE-1")


# ---- the worked examples

def test_example_1_the_seeds_four_player_opening():
    g = do(table(), "d:SOLDAT-3", "a:SOLDAT-1", "c:SOLDAT-2", "a:OR-1")
    refused(g, "c:CAVALIER-1", "not-a-counter")
    do(g, "c:IMPERATRICE-1", "a:LANCE-1")
    assert g.empress_unlocked()
    refused(g, "c:CAVALIER-1", "not-a-counter")  # had p4 tapped a Horseman
    refused(g, "c:IMPERATRICE-2", "not-a-counter")
    do(g, "pass", "pass", "pass")
    assert g.to_act() == [2] and g.step == "open"
    do(g, "d:FOU-1", "back", "d:OR-3", "a:OR-2")
    snap = g.snapshot()
    again = table()
    again.restore(snap)  # a power cut: the same state back
    d = rep(again)
    assert d["turn"] == "p4" and d["attack"] == {"seat": "p3", "card": "OR-2"}
    assert d["hand_sizes"] == {"p1": 6, "p2": 6, "p3": 4, "p4": 8}
    assert d["empress_unlocked"] and d["passed"] == []
    assert d["lines"]["p3"]["defence"] == [
        {"card": "IMPERATRICE-1", "face": "up", "from": "hand"},
        {"card": "OR-3", "face": "down", "from": "hand"}]


def example2_first_ending(g):
    # p1 opens; p2 counters and attacks; then p2 replays until it holds 3 cards
    do(g, "d:SOLDAT-9", "a:SOLDAT-1", "c:SOLDAT-2", "a:ARGENT-1", "pass", "pass",
       "d:ARGENT-2", "a:ARGENT-3", "pass", "pass", "d:TOUR-1", "a:TOUR-2", "pass", "pass",
       "d:FOU-1")
    assert sorted(g.hands[1]) == sorted(I(n) for n in ("CAVALIER-3", "IMPERATRICE-1",
                                                       "IMPERATRICE-2"))
    assert not g.empress_unlocked()
    refused(g, "a:IMPERATRICE-1", "empress-locked")
    do(g, "a:CAVALIER-3", "pass", "pass", "d:IMPERATRICE-1", "a:IMPERATRICE-2")


def test_example_2_first_ending_doubled():
    g = given(3, hands={1: ["SOLDAT-2", "ARGENT-1", "ARGENT-2", "ARGENT-3", "TOUR-1",
                            "TOUR-2", "FOU-1", "CAVALIER-3", "IMPERATRICE-1",
                            "IMPERATRICE-2"],
                        0: ["SOLDAT-9", "SOLDAT-1"]})
    example2_first_ending(g)
    d = rep(g)
    assert d["scores"] == {"p1": 0, "p2": 10, "p3": 0} and d["first"] == "p2"
    assert d["round"] == 2 and d["phase"] == "deal"


def test_example_2_with_target_10_matches_the_contract():
    g = given(3, target=10, hands={1: ["SOLDAT-2", "ARGENT-1", "ARGENT-2", "ARGENT-3",
                                       "TOUR-1", "TOUR-2", "FOU-1", "CAVALIER-3",
                                       "IMPERATRICE-1", "IMPERATRICE-2"],
                                   0: ["SOLDAT-9", "SOLDAT-1"]})
    example2_first_ending(g)
    d = rep(g)
    assert sorted(d["rounds"][0]) == sorted(report.ROUND_KEYS)
    if CPYTHON:
        assert list(d["rounds"][0]) == list(report.ROUND_KEYS)
    assert d["rounds"][0] == {"round": 1, "first": "p1", "seat": "p2", "side": "p2",
                              "card": "IMPERATRICE-2",
                              "defence": {"card": "IMPERATRICE-1", "face": "down"},
                              "doubled": True, "points": 10,
                              "scores": {"p1": 0, "p2": 10, "p3": 0}}
    assert d["phase"] == "over" and d["winner"] == "p2" and d["turn"] is None
    assert d["step"] is None and d["attack"] == {"seat": "p2", "card": "IMPERATRICE-2"}
    refused(g, "c:SOLDAT-5", "wrong-phase")
    refused(g, "c:uid", "wrong-phase")  # even an unknown tag once over


def example2_other_ending():
    g = given(3, hands={0: ["SOLDAT-%d" % i for i in range(1, 8)] + ["OR-1", "CAVALIER-2",
                                                                      "CAVALIER-4"],
                        2: ["OR-2", "CAVALIER-1"]})
    for k in range(3):
        do(g, "d:SOLDAT-%d" % (2 * k + 1), "a:SOLDAT-%d" % (2 * k + 2), "pass", "pass")
    do(g, "d:SOLDAT-7", "a:OR-1", "pass", "c:OR-2", "a:CAVALIER-1")
    assert g.sizes[0] == 2
    do(g, "c:CAVALIER-2", "a:CAVALIER-4")
    return g


def test_example_2_other_ending_not_doubled():
    g = example2_other_ending()
    assert g.scores == [2, 0, 0] and g.first == 1


def example3(mode, scores=(13, 10)):
    g = table2(first=1, mode=mode,
               ups=("SOLDAT-1", "SOLDAT-2", "OR-3", "SOLDAT-4", "SOLDAT-5", "SOLDAT-6",
                    "SOLDAT-7", "SOLDAT-8"))
    g.scores = list(scores)
    g.sizes[0] = 1  # p1 holds one card, ARGENT-2
    do(g, "d:SOLDAT-9", "a:OR-4")
    refused(g, "c:ARGENT-2", "not-a-counter")
    do(g, "c:OR-3")
    assert rep(g)["step"] == "reveal" and rep(g)["centre"][2] == {"up": None, "left": 1}
    do(g, "r:TOUR-1")
    assert rep(g)["centre"][2] == {"up": "TOUR-1", "left": 1}
    do(g, "a:ARGENT-2")
    return g


def test_example_3_two_players_centre_card_seigneur():
    g = example3("seigneur")
    d = rep(g)
    assert d["scores"] == {"p1": 14, "p2": 10} and d["phase"] == "centre"
    assert d["rounds"][0]["points"] == 3 and not d["rounds"][0]["doubled"]
    assert d["first"] == "p1"  # the seat after p2


def test_example_3_last_card_as_a_replay_defence_is_refused():
    g = table2()
    g.sizes[0] = 1
    refused(g, "d:ARGENT-2", "last-card-defence")


# ---- refusal codes and their order

def test_unknown_card_before_the_phase_except_once_over():
    g = rules.Game(deal="given")
    refused(g, "d:uid", "unknown-card")  # a uid tag in phase deal
    refused(g, "d:SOLDAT-1", "wrong-phase")  # a card in phase deal
    refused(table(), "x:SOLDAT-1", "wrong-phase")


def test_order_card_checks_before_role_checks():
    g = do(table(), "d:SOLDAT-3", "a:SOLDAT-1")
    refused(g, "c:SOLDAT-1", "card-already-played")  # not not-a-counter
    g2 = given(4, hands={0: ["OR-1", "OR-2"]})
    do(g2, "d:OR-2", "a:OR-1")
    other = g2.hands[2][0]
    refused(g2, ("counter", other), "card-not-in-hand")


def test_not_a_counter_before_last_card_defence():
    g = given(2, hands={0: ["SOLDAT-1"], 1: ["OR-2"]}, first=1)
    g.sizes[0] = 1
    g.hands[0] = [I("SOLDAT-1")]
    do(g, "d:SOLDAT-9", "a:OR-2")
    refused(g, "c:SOLDAT-1", "not-a-counter")


def test_press_done_by_an_opener_is_wrong_phase():
    refused(table(), "pass", "wrong-phase")
    refused(table(), "back", "wrong-phase")


def test_a_face_down_defence_is_never_refused_for_its_face():
    for c in range(deck.COUNT):
        g = table()
        g.apply(("defend", c))


def test_the_recorder_sees_accepted_actions_before_they_change_anything():
    g = table()
    seen = []

    def rec(action):
        seen.append((action, g.step))

    g.recorder = rec
    do(g, "d:SOLDAT-3")
    refused(g, "a:IMPERATRICE-1", "empress-locked")
    do(g, "a:SOLDAT-1")
    assert seen == [(("defend", I("SOLDAT-3")), "open"), (("attack", I("SOLDAT-1")), "attack")]


def test_a_malformed_deal_is_a_value_error_and_changes_nothing():
    g = rules.Game(players=3, deal="given")
    before = g.snapshot()
    value_error(g.apply, ("deal", [[0] * 10, list(range(10, 20)), list(range(20, 30))],
                          None, None), word="twice")
    value_error(g.apply, ("deal", [list(range(10)), list(range(10, 20)),
                                   list(range(20, 30))], None, [[30, 31]] * 8),
                word="2 players")
    assert g.snapshot() == before


def test_settings_defaults_and_faults():
    assert game.check_settings({}) == {"players": 4, "mode": "soldat", "first": "p1",
                                       "target": 15, "deal": "table", "seed": None}
    s = game.check_settings({"seed": 5, "players": 2})
    assert s["deal"] == "seed" and s["seed"] == 5
    assert game.check_settings({"deal": "table", "seed": 3})["deal"] == "seed"
    assert game.check_settings({"deal": "seed"})["seed"] == 0
    for bad, word in (({"players": 5}, "players"), ({"mode": "lord"}, "mode"),
                      ({"target": 16}, "target"), ({"deal": "x"}, "deal"),
                      ({"seed": -1}, "seed"), ({"colour": 1}, "colour"),
                      ({"players": True}, "players"), ({"seed": "3"}, "seed")):
        value_error(game.check_settings, bad, word=word)


def test_seeded_deals_are_reproducible_and_differ_by_seed():
    a = game.new_state(None, {"seed": 1})
    b = game.new_state(None, {"seed": 1})
    c = game.new_state(None, {"seed": 2})
    assert a.hands == b.hands and a.hands != c.hands
    assert a.phase == "play" and rep(a)["hands"]["p1"] == sorted(
        deck.NAMES[x] for x in a.hands[0])


CPYTHON = sys.implementation.name == "cpython"  # MicroPython's dicts keep no order


def test_the_contracts_example_report_key_for_key():
    # the simulator contract's example (kami-4p-round.scn), its report without the
    # simulator's own `rejected` and `leds`
    g = do(table(), "d:SOLDAT-3", "a:SOLDAT-1", "c:SOLDAT-2", "a:OR-1", "c:IMPERATRICE-1",
           "a:LANCE-1", "pass", "pass", "pass", "d:FOU-1", "back", "d:OR-3", "a:OR-2")

    def e(card, face="up"):
        return {"card": card, "face": face, "from": "hand"}

    expected = {
        "game": "kami", "players": 4, "mode": "soldat", "target": 15, "deal": "table",
        "phase": "play", "round": 1, "first": "p1", "turn": "p4", "step": "respond",
        "attack": {"seat": "p3", "card": "OR-2"}, "passed": [], "empress_unlocked": True,
        "lines": {
            "p1": {"defence": [e("SOLDAT-3", "down")], "attack": [e("SOLDAT-1")]},
            "p2": {"defence": [e("SOLDAT-2")], "attack": [e("OR-1")]},
            "p3": {"defence": [e("IMPERATRICE-1"), e("OR-3", "down")],
                   "attack": [e("LANCE-1"), e("OR-2")]},
            "p4": {"defence": [], "attack": []}},
        "hand_sizes": {"p1": 6, "p2": 6, "p3": 4, "p4": 8},
        "hands": None, "centre": None, "claim": None,
        "scores": {"p1+p3": 0, "p2+p4": 0}, "rounds": [], "winner": None,
        "hidden": {"aside": None, "centre": None}}
    d = rep(g)
    assert d == expected
    assert sorted(d) == sorted(report.REPORT_KEYS) and sorted(expected) == sorted(d)
    if CPYTHON:  # the contract's key order (the JSON is compared as text)
        assert list(d) == list(report.REPORT_KEYS)
        assert list(d["lines"]) == ["p1", "p2", "p3", "p4"]


def test_report_in_phase_deal_and_with_a_known_2_player_deal():
    g = rules.Game(players=2, deal="given")
    d = rep(g)
    assert d["phase"] == "deal" and d["step"] is None and d["turn"] == "p1"
    assert d["hands"] == {"p1": [], "p2": []} and d["hand_sizes"] == {"p1": 0, "p2": 0}
    assert d["centre"] == [{"up": None, "left": 0}] * 8
    g = given(2, centre={0: ("OR-1", "OR-2")}, hands={0: ["SOLDAT-10", "SOLDAT-2"]})
    d = rep(g)
    assert d["centre"][0] == {"up": "OR-1", "left": 2}
    assert d["hidden"]["centre"][0] == "OR-2" and d["hidden"]["aside"] is None
    assert d["hands"]["p1"].index("SOLDAT-10") < d["hands"]["p1"].index("SOLDAT-2")
    p = report.public(g)
    assert "OR-2" not in repr(p) and "SOLDAT-10" not in repr(p)
