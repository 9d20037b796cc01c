"""One test (or a few) per rule of docs/rules.md and per ruling R1-R11."""

import pytest

from gamekit import (
    BLACK_DEAL,
    WHITE_DEAL,
    controller,
    dealt_game,
    new_game,
    owner,
    position,
    rejected_code,
)
from games.kahuna import report, rules
from games.kahuna import settings as kahunasettings
from host_tools.games.kahuna.invariants import problems

# ------------------------------------------------------------------ 3. setup


def test_setup_deal_registers_starting_player_first():
    g = new_game()
    assert (g.phase, report.game(g)["turn"], g.drawable_count()) == ("deal", "white", 24)
    for card in WHITE_DEAL:
        g.deal(card)
    assert report.game(g)["turn"] == "black"
    assert g.drawable_count() == 21
    for card in BLACK_DEAL:
        g.deal(card)
    d = report.game(g)
    assert (d["phase"], d["turn"], d["drawable"]) == ("play", "white", 18)
    assert d["hands"] == {"white": sorted(WHITE_DEAL), "black": sorted(BLACK_DEAL)}


def test_setup_first_player_setting():
    g = dealt_game(first="black")
    assert report.game(g)["turn"] == "black"
    assert g.hand("black") == sorted(BLACK_DEAL)


def test_setup_a_dealt_card_cannot_be_dealt_again():
    g = new_game()
    g.deal("HUNA-1")
    assert rejected_code(g, ("deal", "HUNA-1")) == "card-not-drawable"
    assert rejected_code(g, ("deal", "NOPE-1")) == "unknown-card"


def test_setup_actions_outside_the_deal_are_wrong_phase():
    g = new_game()
    assert rejected_code(g, ("end_play",)) == "wrong-phase"
    assert rejected_code(g, ("place", "HUNA-1", "ALOA-HUNA")) == "wrong-phase"
    g2 = dealt_game()
    assert rejected_code(g2, ("deal", "JOJO-1")) == "wrong-phase"


def test_handicap_bridges_without_cards_can_give_control():
    g = dealt_game(handicap=("black", 3))
    assert (g.phase, report.game(g)["turn"]) == ("handicap", "black")
    assert rejected_code(g, ("place", "HUNA-1", "ALOA-HUNA")) == "wrong-phase"
    g.apply(("handicap", "ALOA-BARI"))
    assert rejected_code(g, ("handicap", "ALOA-BARI")) == "not-offered"
    g.apply(("handicap", "ALOA-HUNA"))
    assert controller(g, "ALOA") == "black"  # 2 of 3: section 5 applies to handicap bridges
    g.apply(("handicap", "KAHU-LALE"))
    d = report.game(g)
    assert (d["phase"], d["turn"], d["supply"]["black"]) == ("play", "white", 22)
    assert sorted(g.hand("black")) == sorted(BLACK_DEAL)  # no card was used


def test_R10_handicap_bridges_cannot_be_taken_back():
    g = dealt_game(handicap=("white", 1))
    g.apply(("handicap", "ELAI-HUNA"))
    assert g.phase == "play"
    assert rejected_code(g, ("undo",)) == "wrong-phase"
    assert owner(g, "ELAI-HUNA") == "white"


def test_settings_are_validated():
    with pytest.raises(ValueError):
        new_game(variant="chaos")
    with pytest.raises(ValueError):
        new_game(first="red")
    with pytest.raises(ValueError):
        new_game(handicap=("white", 4))


# ------------------------------------------------------------------- 4. turn


def test_place_needs_a_card_of_an_end_island_and_a_free_connection():
    g = dealt_game()
    assert rejected_code(g, ("place", "HUNA-1", "JOJO-KAHU")) == "not-offered"
    g.apply(("place", "HUNA-1", "ALOA-HUNA"))
    assert owner(g, "ALOA-HUNA") == "white"
    assert g.supply == [24, 25]
    assert g.place[g.card_index["HUNA-1"]] == rules.DISCARD  # played cards are discarded
    assert rejected_code(g, ("place", "DUDA-1", "ALOA-HUNA")) == "not-offered"


def test_R2_only_cards_in_the_active_hand_can_be_played():
    g = dealt_game()
    assert rejected_code(g, ("place", "ALOA-1", "ALOA-BARI")) == "card-not-in-hand"
    assert rejected_code(g, ("discard", "JOJO-1")) == "card-not-in-hand"
    assert rejected_code(g, ("place", "ZZZZ-1", "ALOA-BARI")) == "unknown-card"


def test_R2_only_drawable_cards_can_be_drawn():
    g = dealt_game()
    g.apply(("discard", "HUNA-1"))
    g.apply(("end_play",))
    assert rejected_code(g, ("draw", "HUNA-1")) == "card-not-drawable"  # discard pile
    assert rejected_code(g, ("draw", "ALOA-1")) == "card-not-drawable"  # black's hand
    g.apply(("draw", "JOJO-1"))
    assert g.hand("white") == ["DUDA-1", "ELAI-1", "JOJO-1"]


def test_no_bridge_in_supply_means_no_placement():
    g = dealt_game()
    g.supply[rules.WHITE] = 0  # every white bridge is (notionally) on the board
    assert g.placements("HUNA-1") == []
    assert rejected_code(g, ("place", "HUNA-1", "ALOA-HUNA")) == "no-option"


def test_no_option_when_the_card_allows_neither_bridge_nor_removal():
    g = position(new_game(), bridges={"ALOA-BARI": "white", "ALOA-DUDA": "white",
                                      "ALOA-HUNA": "white"},
                 hands={"white": ["ALOA-1", "HUNA-1"], "black": ["BARI-1"]})
    assert rejected_code(g, ("place", "ALOA-1", "ALOA-BARI")) == "no-option"


def test_remove_pairs_a_a_b_b_and_a_b():
    for pair in (("ELAI-1", "ELAI-2"), ("HUNA-1", "HUNA-2"), ("ELAI-1", "HUNA-2")):
        g = position(new_game(), bridges={"ELAI-HUNA": "black", "DUDA-ELAI": "black"},
                     hands={"white": list(pair), "black": []})
        g.apply(("remove", pair[0], pair[1], "ELAI-HUNA"))
        assert owner(g, "ELAI-HUNA") is None
        assert g.supply == [25, 24]  # the bridge went back to its owner's supply
        assert g.discard_count() == 2


def test_remove_with_a_a_may_take_any_opponent_bridge_touching_a():
    g = position(new_game(), bridges={"ELAI-HUNA": "black", "DUDA-ELAI": "black"},
                 hands={"white": ["ELAI-1", "ELAI-2"], "black": []})
    assert sorted(g.pair_targets("ELAI-1", "ELAI-2")) == ["DUDA-ELAI", "ELAI-HUNA"]
    g.apply(("remove", "ELAI-2", "ELAI-1", "DUDA-ELAI"))
    assert owner(g, "DUDA-ELAI") is None


def test_remove_refuses_pairs_that_do_not_name_the_bridge():
    g = position(new_game(), bridges={"ELAI-HUNA": "black", "ALOA-BARI": "white"},
                 hands={"white": ["ELAI-1", "DUDA-1", "HUNA-1"], "black": []})
    assert rejected_code(g, ("remove", "ELAI-1", "DUDA-1", "ELAI-HUNA")) == "bad-pair"
    assert rejected_code(g, ("remove", "ELAI-1", "ELAI-1", "ELAI-HUNA")) == "bad-pair"
    # Own bridges cannot be removed.
    g2 = position(new_game(), bridges={"ELAI-HUNA": "white"},
                  hands={"white": ["ELAI-1", "HUNA-1"], "black": []})
    assert rejected_code(g2, ("remove", "ELAI-1", "HUNA-1", "ELAI-HUNA")) == "bad-pair"
    g3 = position(new_game(), bridges={"ELAI-HUNA": "black", "DUDA-ELAI": "black"},
                  hands={"white": ["ELAI-1", "HUNA-1"], "black": []})
    assert rejected_code(g3, ("remove", "ELAI-1", "HUNA-1", "DUDA-ELAI")) == "not-offered"


def test_discard_in_play_and_draw_phases_without_effect():
    g = dealt_game()
    g.apply(("discard", "HUNA-1"))
    g.apply(("end_play",))
    g.apply(("discard", "ELAI-1"))
    assert g.hand("white") == ["DUDA-1"]
    assert g.discard_count() == 2
    assert g.bridges == [rules.NOBODY] * 27


def test_drawing_or_declining_ends_the_turn():
    g = dealt_game()
    g.apply(("end_play",))
    g.apply(("draw", "JOJO-1"))
    assert (g.phase, report.game(g)["turn"]) == ("play", "black")
    g.apply(("end_play",))
    g.apply(("decline",))
    assert (g.phase, report.game(g)["turn"]) == ("play", "white")


def test_back_from_draw_to_play():
    g = dealt_game()
    g.apply(("end_play",))
    g.apply(("resume_play",))
    assert g.phase == "play"
    g.apply(("place", "HUNA-1", "ELAI-HUNA"))
    assert owner(g, "ELAI-HUNA") == "white"


def test_R3_hand_limit_discard_before_drawing_and_declining_stays_possible():
    hand = ["ALOA-1", "BARI-1", "COCO-1", "DUDA-1", "ELAI-1"]
    g = position(new_game(), hands={"white": hand, "black": ["HUNA-1"]}, phase="draw")
    assert not g.can_draw()
    assert rejected_code(g, ("draw", "JOJO-1")) == "hand-full"
    assert g.can_decline()
    g.apply(("discard", "ALOA-1"))
    g.apply(("draw", "JOJO-1"))
    assert len(g.hand("white")) == 5


def test_R3_hand_full_is_checked_before_must_draw_and_card_before_hand():
    hand = ["ALOA-1", "BARI-1", "COCO-1", "DUDA-1", "ELAI-1"]
    g = position(new_game(), hands={"white": hand, "black": []}, phase="draw",
                 must_draw=True)
    assert rejected_code(g, ("draw", "ALOA-1")) == "card-not-drawable"
    assert rejected_code(g, ("draw", "JOJO-1")) == "hand-full"
    assert rejected_code(g, ("decline",)) == "must-draw"


def test_R4_forced_draw_after_a_declined_draw():
    g = dealt_game()
    g.apply(("end_play",))
    g.apply(("decline",))
    assert g.must_draw and report.game(g)["turn"] == "black"
    g.apply(("end_play",))
    assert not g.can_decline()
    assert rejected_code(g, ("decline",)) == "must-draw"
    g.apply(("draw", "KAHU-1"))
    assert not g.must_draw  # a forced draw does not force the next player
    g.apply(("end_play",))
    g.apply(("decline",))
    assert g.must_draw


def test_R4_does_not_apply_to_the_final_turns():
    g = position(new_game(), hands={"white": ["HUNA-1"], "black": []}, phase="draw",
                 round=3, discard=[c for c in new_game().card_names
                                   if c not in ("HUNA-1", "JOJO-1")])
    g.apply(("draw", "JOJO-1"))  # the last drawable card of round 3
    assert g.final_turns and not g.must_draw
    assert report.game(g)["turn"] == "black"


# --------------------------------------------------------------- 5. control


@pytest.mark.parametrize("island,needed", [("ALOA", 2), ("COCO", 3), ("BARI", 3),
                                           ("ELAI", 4), ("LALE", 2), ("KAHU", 3)])
def test_R1_control_by_more_than_half(island, needed):
    g = new_game()
    conns = [g.board.connections[k] for k in g.board.island_conns[g.board.island_index[island]]]
    bridges = {}
    for conn in conns[:needed - 1]:
        bridges[conn] = "white"
    position(g, bridges=bridges, hands={"white": [island + "-1"], "black": []})
    assert controller(g, island) is None  # half or less is not control
    g.apply(("place", island + "-1", conns[needed - 1]))
    assert controller(g, island) == "white"


def test_takeover_removes_all_opponent_bridges_of_the_island():
    g = position(new_game(), bridges={"BARI-DUDA": "white", "BARI-ELAI": "white",
                                      "ALOA-BARI": "black", "BARI-COCO": "black"},
                 hands={"white": ["BARI-1"], "black": []})
    g.apply(("place", "BARI-1", "BARI-FAAA"))
    assert controller(g, "BARI") == "white"
    assert owner(g, "ALOA-BARI") is None and owner(g, "BARI-COCO") is None
    assert g.supply == [22, 25]


def test_takeover_of_both_end_islands_at_once():
    g = position(new_game(), bridges={"ALOA-BARI": "white", "HUNA-LALE": "white",
                                      "ALOA-DUDA": "black", "IFFI-LALE": "black"},
                 hands={"white": ["ALOA-1"], "black": []})
    g.apply(("place", "ALOA-1", "ALOA-HUNA"))
    assert controller(g, "ALOA") == "white"
    assert owner(g, "ALOA-DUDA") is None
    # HUNA (5 connections) is not taken with 2: only ALOA's take-over happened.
    assert controller(g, "HUNA") is None
    g2 = position(new_game(), bridges={"ALOA-BARI": "white", "KAHU-LALE": "white",
                                       "ALOA-DUDA": "black", "IFFI-LALE": "black",
                                       "HUNA-IFFI": "black", "ELAI-HUNA": "white",
                                       "DUDA-HUNA": "white"},
                  hands={"white": ["HUNA-1"], "black": []})
    g2.apply(("place", "HUNA-1", "HUNA-LALE"))
    assert controller(g2, "HUNA") == "white" and controller(g2, "LALE") == "white"
    assert owner(g2, "HUNA-IFFI") is None and owner(g2, "IFFI-LALE") is None
    assert owner(g2, "ALOA-DUDA") == "black"


def test_cascade_losing_control_removes_no_bridges():
    g = position(new_game(), bridges={"ALOA-BARI": "black", "ALOA-HUNA": "black",
                                      "ALOA-DUDA": "white"},
                 hands={"white": ["ALOA-1", "BARI-1"], "black": []})
    assert controller(g, "ALOA") == "black"
    g.apply(("remove", "ALOA-1", "BARI-1", "ALOA-BARI"))
    assert controller(g, "ALOA") is None  # black lost the stone...
    assert owner(g, "ALOA-HUNA") == "black"  # ...and nothing else happened
    assert owner(g, "ALOA-DUDA") == "white"


def test_cascade_takeover_makes_the_opponent_lose_other_islands():
    g2 = position(new_game(), bridges={"ALOA-HUNA": "black", "HUNA-LALE": "black",
                                       "HUNA-IFFI": "black", "IFFI-KAHU": "white",
                                       "KAHU-LALE": "white"},
                  hands={"white": ["IFFI-1"], "black": []})
    g2.apply(("place", "IFFI-1", "IFFI-LALE"))
    # White takes LALE (2 of 3), removes black's HUNA-LALE; black drops to 2 of 5 on HUNA.
    assert controller(g2, "LALE") == "white"
    assert owner(g2, "HUNA-LALE") is None
    assert controller(g2, "HUNA") is None


def test_R8_control_always_equals_majority_after_a_removal():
    g = position(new_game(), bridges={"COCO-FAAA": "black", "COCO-GOLA": "black",
                                      "COCO-KAHU": "black"},
                 hands={"white": ["COCO-1", "GOLA-1"], "black": []})
    assert controller(g, "COCO") == "black"
    g.apply(("remove", "COCO-1", "GOLA-1", "COCO-GOLA"))
    assert controller(g, "COCO") is None
    assert problems(g) == []


def test_R9_control_is_not_capped_by_the_ten_stones():
    g = new_game()
    position(g, bridges=dict((c, "white") for c in g.board.connections[:24]))
    assert g.controlled_count(rules.WHITE) > 10
    assert problems(g) == []


def test_R11_no_second_takeover_on_an_island_already_controlled():
    g = position(new_game(), bridges={"ALOA-BARI": "white", "ALOA-DUDA": "white"},
                 hands={"white": ["ALOA-1"], "black": ["HUNA-1"]}, turn="black")
    assert controller(g, "ALOA") == "white"
    g.apply(("place", "HUNA-1", "ALOA-HUNA"))  # standard: black may build on white's island
    assert owner(g, "ALOA-HUNA") == "black"
    # White adds a bridge to BARI, which it already controls: nothing is removed.
    h = position(new_game(), bridges={"BARI-COCO": "white", "BARI-DUDA": "white",
                                      "BARI-ELAI": "white", "ALOA-BARI": "black"},
                 hands={"white": ["BARI-1"], "black": []})
    assert controller(h, "BARI") == "white" and owner(h, "ALOA-BARI") == "black"
    h.apply(("place", "BARI-1", "BARI-FAAA"))
    assert owner(h, "ALOA-BARI") == "black"  # R11: the stone was already there


def test_R11_losing_and_regaining_control_is_a_new_takeover():
    g = position(new_game(), bridges={"ALOA-BARI": "white", "ALOA-DUDA": "white"},
                 hands={"white": ["ALOA-1", "HUNA-1", "BARI-1"], "black": ["DUDA-1"]})
    g.control[g.board.island_index["ALOA"]] = rules.WHITE
    g.bridges[g.board.conn_index["ALOA-DUDA"]] = rules.NOBODY  # black removed it earlier
    g.supply[rules.WHITE] += 1
    g.control = [g.majority(i) for i in range(len(g.control))]  # R8, as the cascade leaves it
    g.bridges[g.board.conn_index["ALOA-HUNA"]] = rules.BLACK
    g.supply[rules.BLACK] -= 1
    assert controller(g, "ALOA") is None and problems(g) == []
    g.apply(("place", "ALOA-1", "ALOA-DUDA"))
    assert controller(g, "ALOA") == "white"
    assert owner(g, "ALOA-HUNA") is None


# ------------------------------------------------------- 6. rounds, scoring


def _last_card_position(round, white_islands, black_islands, scores=(0, 0)):
    """White in the draw phase; JOJO-1 is the last drawable card."""
    g = new_game()
    cards = g.card_names
    bridges = {}
    for isl in white_islands:
        for k in g.board.island_conns[g.board.island_index[isl]]:
            bridges[g.board.connections[k]] = "white"
    for isl in black_islands:
        for k in g.board.island_conns[g.board.island_index[isl]]:
            bridges.setdefault(g.board.connections[k], "black")
    position(g, bridges=bridges, hands={"white": ["HUNA-1"], "black": ["HUNA-2"]},
             discard=[c for c in cards if c not in ("HUNA-1", "HUNA-2", "JOJO-1")],
             phase="draw", round=round)
    g.scores = list(scores)
    g.round_scores = [(scores[0], scores[1])] if scores != (0, 0) else []
    assert problems(g) == []
    return g


def test_R5_round_end_scores_at_once_and_reshuffles_the_discard_pile():
    g = _last_card_position(1, ["ALOA", "COCO"], ["LALE"])
    g.apply(("draw", "JOJO-1"))
    d = report.game(g)
    assert d["round"] == 2 and d["round_scores"] == [{"white": 1, "black": 0}]
    assert d["scores"] == {"white": 1, "black": 0}
    assert d["drawable"] == 21 and d["discard"] == 0
    assert d["turn"] == "black" and d["phase"] == "play"  # the other player goes on
    assert d["bridges"] and d["hands"]["white"] == ["HUNA-1", "JOJO-1"]  # all stays


def test_round_two_scores_two_points_and_a_tie_scores_nothing():
    g = _last_card_position(2, ["ALOA"], ["COCO", "LALE"])
    g.apply(("draw", "JOJO-1"))
    assert report.game(g)["round_scores"][-1] == {"white": 0, "black": 2}
    g2 = _last_card_position(1, ["ALOA"], ["LALE"])
    g2.apply(("draw", "JOJO-1"))
    assert report.game(g2)["round_scores"] == [{"white": 0, "black": 0}]


def test_round_three_final_turns_without_draw_then_difference_scored():
    g = _last_card_position(3, ["ALOA", "COCO", "LALE"], ["GOLA"])
    g.apply(("draw", "JOJO-1"))
    d = report.game(g)
    assert d["final_turns"] and d["phase"] == "play" and d["turn"] == "black"
    g.apply(("end_play",))  # black's final turn: no draw phase
    assert g.phase == "play" and report.game(g)["turn"] == "white"
    assert ("draw", "JOJO-2") not in g.legal_actions()
    g.apply(("end_play",))
    d = report.game(g)
    assert d["phase"] == "over"
    assert d["round_scores"][-1] == {"white": 2, "black": 0}  # 3 - 1 islands
    assert d["winner"] == "white" and d["must_draw"] is False and d["final_turns"]


def test_game_over_refuses_everything():
    g = _last_card_position(3, ["ALOA"], ["GOLA"])
    g.apply(("draw", "JOJO-1"))
    g.apply(("end_play",))
    g.apply(("end_play",))
    assert g.is_over() and g.legal_actions() == []
    for act in (("end_play",), ("undo",), ("discard", "HUNA-1"), ("draw", "JOJO-2"),
                ("deal", "JOJO-2"), ("decline",), ("resume_play",)):
        assert rejected_code(g, act) == "wrong-phase"


def test_R6_tie_break_more_islands_at_the_final_scoring():
    g = _last_card_position(3, ["ALOA", "COCO"], ["LALE"], scores=(0, 1))
    g.apply(("draw", "JOJO-1"))
    g.apply(("end_play",))
    g.apply(("end_play",))
    assert g.scores == [1, 1] and g.final_islands == (2, 1)
    assert g.winner == "white"


def test_R6_tie_break_then_more_bridges_on_the_board_then_a_draw():
    g = _last_card_position(3, ["ALOA"], ["LALE"])  # 1 island each, 3 bridges each
    g.bridges[g.board.conn_index["JOJO-KAHU"]] = rules.BLACK
    g.supply[rules.BLACK] -= 1
    g.apply(("draw", "JOJO-1"))
    g.apply(("end_play",))
    g.apply(("end_play",))
    assert g.scores == [0, 0] and g.final_islands == (1, 1)
    assert g.winner == "black"
    g2 = _last_card_position(3, ["ALOA"], ["LALE"])
    g2.apply(("draw", "JOJO-1"))
    g2.apply(("end_play",))
    g2.apply(("end_play",))
    assert g2.winner == "draw"


def test_R7_early_end_removing_the_last_bridge_in_round_two_wins():
    g = position(new_game(), bridges={"ELAI-HUNA": "black", "ALOA-BARI": "white"},
                 hands={"white": ["ELAI-1", "HUNA-1"], "black": ["JOJO-1"]}, round=2)
    g.apply(("remove", "ELAI-1", "HUNA-1", "ELAI-HUNA"))
    d = report.game(g)
    assert d["phase"] == "over" and d["winner"] == "white"
    assert d["must_draw"] is False and d["turn"] == "white"


def test_R7_not_in_round_one():
    g = position(new_game(), bridges={"ELAI-HUNA": "black"},
                 hands={"white": ["ELAI-1", "HUNA-1"], "black": []}, round=1)
    g.apply(("remove", "ELAI-1", "HUNA-1", "ELAI-HUNA"))
    assert g.phase == "play" and g.winner is None


def test_R7_takeover_removing_the_last_bridges_wins():
    g = position(new_game(), bridges={"ALOA-BARI": "white", "ALOA-DUDA": "black"},
                 hands={"white": ["ALOA-1"], "black": []}, round=3)
    g.apply(("place", "ALOA-1", "ALOA-HUNA"))
    assert g.winner == "white" and g.phase == "over"


def test_R7_merely_having_no_bridges_does_not_lose():
    g = position(new_game(), bridges={"ALOA-BARI": "white"},
                 hands={"white": ["ELAI-1"], "black": ["HUNA-1"]}, round=2)
    g.apply(("place", "ELAI-1", "ELAI-HUNA"))
    assert g.winner is None and g.phase == "play"


def test_R7_early_end_comes_before_the_free_refill():
    g = position(new_game(variant="alternative"),
                 bridges={"ELAI-HUNA": "black", "ALOA-BARI": "white"},
                 hands={"white": ["ELAI-1", "HUNA-1"], "black": []}, round=2)
    g.apply(("remove", "ELAI-1", "HUNA-1", "ELAI-HUNA"))
    assert g.phase == "over" and g.refill == rules.NOBODY


# -------------------------------------------------------------- 7. variants


def test_alternative_variant_no_bridge_next_to_an_opponent_island():
    hands = {"white": [], "black": ["DUDA-1", "ELAI-1"]}
    bridges = {"ALOA-BARI": "white", "ALOA-HUNA": "white"}
    g = position(new_game(variant="alternative"), bridges=bridges, hands=hands, turn="black")
    assert "ALOA-DUDA" not in g.placements("DUDA-1")
    assert rejected_code(g, ("place", "DUDA-1", "ALOA-DUDA")) == "not-offered"
    s = position(new_game(), bridges=bridges, hands=hands, turn="black")
    assert "ALOA-DUDA" in s.placements("DUDA-1")  # the standard variant allows it


def test_alternative_variant_free_refill_after_a_removal():
    g = position(new_game(variant="alternative"), bridges={"ELAI-HUNA": "black"},
                 hands={"white": ["ELAI-1", "HUNA-1", "DUDA-1"], "black": []})
    g.apply(("remove", "ELAI-1", "HUNA-1", "ELAI-HUNA"))
    assert g.legal_actions() == [("refill", "ELAI-HUNA"), ("skip_refill",)]
    assert rejected_code(g, ("discard", "DUDA-1")) == "wrong-phase"
    assert rejected_code(g, ("refill", "DUDA-ELAI")) == "not-offered"
    g.apply(("refill", "ELAI-HUNA"))
    assert owner(g, "ELAI-HUNA") == "white"
    assert g.hand("white") == ["DUDA-1"]  # no card was played for it
    assert g.supply == [24, 25]


def test_alternative_variant_no_refill_next_to_an_opponent_island():
    g = position(new_game(variant="alternative"),
                 bridges={"ELAI-HUNA": "black", "ALOA-HUNA": "black", "HUNA-IFFI": "black",
                          "HUNA-LALE": "black"},
                 hands={"white": ["ELAI-1", "HUNA-1"], "black": []})
    g.apply(("remove", "ELAI-1", "HUNA-1", "ELAI-HUNA"))
    assert controller(g, "HUNA") == "black"  # still 3 of 5 after the removal
    assert g.refill == rules.NOBODY


def test_alternative_variant_skip_refill_and_standard_offers_none():
    g = position(new_game(variant="alternative"), bridges={"ELAI-HUNA": "black"},
                 hands={"white": ["ELAI-1", "HUNA-1"], "black": []})
    g.apply(("remove", "ELAI-1", "HUNA-1", "ELAI-HUNA"))
    g.apply(("skip_refill",))
    assert owner(g, "ELAI-HUNA") is None and ("end_play",) in g.legal_actions()
    s = position(new_game(), bridges={"ELAI-HUNA": "black"},
                 hands={"white": ["ELAI-1", "HUNA-1"], "black": []})
    s.apply(("remove", "ELAI-1", "HUNA-1", "ELAI-HUNA"))
    assert s.refill == rules.NOBODY
    assert rejected_code(s, ("refill", "ELAI-HUNA")) == "wrong-phase"


# --------------------------------------------------------------- R10 undo


def test_R10_undo_takes_back_the_turn_last_first():
    g = position(new_game(), bridges={"ELAI-HUNA": "black"},
                 hands={"white": ["ELAI-1", "HUNA-1", "DUDA-1", "ALOA-1"], "black": []})
    start = g.snapshot()
    g.apply(("place", "ALOA-1", "ALOA-BARI"))
    after_place = g.snapshot()
    g.apply(("remove", "ELAI-1", "HUNA-1", "ELAI-HUNA"))
    g.apply(("discard", "DUDA-1"))
    g.apply(("undo",))
    assert g.hand("white") == ["DUDA-1"]
    g.apply(("undo",))
    assert owner(g, "ELAI-HUNA") == "black"
    assert g.snapshot() == after_place
    g.apply(("undo",))
    assert g.snapshot()[0] == start[0]
    assert rejected_code(g, ("undo",)) == "wrong-phase"


def test_R10_undo_a_discard_made_in_the_draw_phase():
    g = dealt_game()
    g.apply(("end_play",))
    g.apply(("discard", "DUDA-1"))
    assert rejected_code(g, ("undo",)) == "wrong-phase"  # in the draw phase, back = play
    g.apply(("resume_play",))
    g.apply(("undo",))
    assert g.phase == "play" and "DUDA-1" in g.hand("white")


def test_R10_undo_a_refill_keeps_the_removal_and_offers_no_refill():
    g = position(new_game(variant="alternative"), bridges={"ELAI-HUNA": "black"},
                 hands={"white": ["ELAI-1", "HUNA-1"], "black": []})
    g.apply(("remove", "ELAI-1", "HUNA-1", "ELAI-HUNA"))
    g.apply(("refill", "ELAI-HUNA"))
    g.apply(("undo",))
    assert owner(g, "ELAI-HUNA") is None and g.refill == rules.NOBODY
    assert g.hand("white") == []
    g.apply(("undo",))
    assert owner(g, "ELAI-HUNA") == "black"
    assert g.hand("white") == ["ELAI-1", "HUNA-1"]


def test_R10_a_drawn_card_ends_the_turn_and_cannot_be_undone():
    g = dealt_game()
    g.apply(("place", "HUNA-1", "ALOA-HUNA"))
    g.apply(("end_play",))
    g.apply(("draw", "JOJO-1"))
    g.apply(("end_play",))
    g.apply(("resume_play",))
    assert rejected_code(g, ("undo",)) == "wrong-phase"  # black's turn: nothing to undo
    assert "JOJO-1" in g.hand("white") and owner(g, "ALOA-HUNA") == "white"


# ------------------------------------------------------- worked example (001)


def test_worked_example_of_the_rulebook():
    """Seed 001, end of section 7 of the rules page. The rulebook prints no starting
    position; this one is consistent with every consequence it describes."""
    g = position(new_game(),
                 bridges={"ALOA-DUDA": "white", "DUDA-ELAI": "white", "DUDA-HUNA": "white",
                          "BARI-ELAI": "white", "ELAI-HUNA": "white", "BARI-FAAA": "white",
                          "ALOA-BARI": "black", "ALOA-HUNA": "black", "HUNA-IFFI": "black",
                          "HUNA-LALE": "black", "ELAI-FAAA": "black", "ELAI-IFFI": "black",
                          "ELAI-JOJO": "black"},
                 hands={"white": ["BARI-1", "ALOA-1", "KAHU-1"],
                        "black": ["HUNA-1", "HUNA-2", "ELAI-1"]})
    assert report.game(g)["control"] == {"ALOA": "black", "DUDA": "white", "HUNA": "black"}
    # White places BARI-DUDA, takes BARI and removes black's ALOA-BARI; black loses ALOA.
    g.apply(("place", "BARI-1", "BARI-DUDA"))
    assert controller(g, "BARI") == "white" and owner(g, "ALOA-BARI") is None
    assert controller(g, "ALOA") is None
    # White places ALOA-BARI, takes ALOA, removes black's ALOA-HUNA; black loses HUNA.
    g.apply(("place", "ALOA-1", "ALOA-BARI"))
    assert controller(g, "ALOA") == "white" and owner(g, "ALOA-HUNA") is None
    assert controller(g, "HUNA") is None
    g.apply(("end_play",))
    g.apply(("draw", "JOJO-1"))
    # Black plays HUNA+HUNA to remove white's ELAI-HUNA...
    g.apply(("remove", "HUNA-1", "HUNA-2", "ELAI-HUNA"))
    assert owner(g, "ELAI-HUNA") is None
    # ...then ELAI to place ELAI-HUNA, takes HUNA and ELAI, removes white's DUDA-HUNA,
    # DUDA-ELAI and BARI-ELAI; white loses DUDA.
    g.apply(("place", "ELAI-1", "ELAI-HUNA"))
    assert controller(g, "HUNA") == "black" and controller(g, "ELAI") == "black"
    for conn in ("DUDA-HUNA", "DUDA-ELAI", "BARI-ELAI"):
        assert owner(g, conn) is None
    assert controller(g, "DUDA") is None
    assert report.game(g)["control"] == {"ALOA": "white", "BARI": "white", "ELAI": "black",
                                   "HUNA": "black"}
    assert problems(g) == []


# ----------------------------------------------------------- state & report


def test_snapshot_restore_round_trip_including_undo_history():
    g = dealt_game()
    g.apply(("place", "HUNA-1", "ALOA-HUNA"))
    snap = g.snapshot()
    dump = report.game(g)
    g.apply(("place", "ELAI-1", "ELAI-HUNA"))
    g.apply(("end_play",))
    g.restore(snap)
    assert report.game(g) == dump and g.snapshot() == snap
    g.apply(("undo",))  # the history came back with the snapshot
    assert owner(g, "ALOA-HUNA") is None


def test_dump_has_the_contract_fields():
    g = dealt_game()
    g.apply(("place", "HUNA-1", "ALOA-HUNA"))
    d = report.game(g)
    assert set(d) == {"phase", "round", "final_turns", "turn", "bridges", "control",
                      "supply", "hands", "discard", "drawable", "must_draw", "scores",
                      "round_scores", "winner"}
    assert d["bridges"] == {"ALOA-HUNA": "white"} and d["control"] == {}
    assert d["supply"] == {"white": 24, "black": 25}
    assert d["hands"] == {"white": ["DUDA-1", "ELAI-1"], "black": ["ALOA-1", "DUDA-2",
                                                                   "ELAI-2"]}
    assert (d["discard"], d["drawable"], d["winner"]) == (1, 18, None)


def test_legal_listing_for_a_card_and_a_pair():
    g = position(new_game(), bridges={"ELAI-HUNA": "black", "DUDA-HUNA": "white"},
                 hands={"white": ["HUNA-1", "ELAI-1"], "black": []})
    assert set(g.placements("HUNA-1")) == {"ALOA-HUNA", "HUNA-IFFI", "HUNA-LALE"}
    assert g.opponent_bridges("HUNA-1") == ["ELAI-HUNA"]
    assert g.pair_targets("HUNA-1", "ELAI-1") == ["ELAI-HUNA"]
    assert g.pair_targets("HUNA-1", "HUNA-1") == []
    assert not g.can_draw() and not g.can_decline()
    g.apply(("end_play",))
    assert g.can_draw() and g.can_decline()


def test_index_api_options_of_a_card_around_its_island():
    g = position(new_game(), bridges={"ELAI-HUNA": "black", "DUDA-HUNA": "white"},
                 hands={"white": ["HUNA-1", "ELAI-1", "LALE-2"], "black": ["ALOA-1"]})
    b = g.board
    c = g.card_index["HUNA-1"]
    opts = g.card_options(c)
    # every connection of HUNA in its clockwise order, but DUDA-HUNA (white's own)
    assert [k for _, k in opts] == [k for k in b.island_conns[c // 2]
                                    if b.connections[k] != "DUDA-HUNA"]
    kinds = dict((b.connections[k], kind) for kind, k in opts)
    assert kinds.pop("ELAI-HUNA") == rules.REMOVE
    assert set(kinds.values()) == {rules.PLACE}
    assert sorted(kinds) == sorted(g.placements("HUNA-1"))


def test_index_api_refuses_with_the_actions_codes_and_messages():
    g = position(new_game(), bridges={"ELAI-HUNA": "black"},
                 hands={"white": ["HUNA-1", "ELAI-1", "ALOA-1"], "black": ["DUDA-1"]})
    ci = g.card_index

    def refusal(fn, *args):
        try:
            fn(*args)
        except rules.Rejected as e:
            return e.code, e.message
        raise AssertionError("not refused")

    assert refusal(g.card_options, ci["DUDA-1"]) == refusal(
        g.apply, ("place", "DUDA-1", "ALOA-DUDA")) == (rules.NOT_IN_HAND,
                                                       "DUDA-1 is not in white's hand")
    assert refusal(g.pair_options, ci["HUNA-1"], ci["ALOA-1"]) == refusal(
        g.apply, ("remove", "HUNA-1", "ALOA-1", "ELAI-HUNA"))[:2]
    assert refusal(g.pair_options, ci["HUNA-1"], ci["HUNA-1"])[0] == rules.BAD_PAIR
    assert g.pair_options(ci["HUNA-1"], ci["ELAI-1"]) == [g.board.conn_index["ELAI-HUNA"]]
    k = g.board.conn_index["ELAI-HUNA"]
    g.check_second(ci["HUNA-1"], ci["ELAI-1"], k)  # ELAI names an end: no refusal
    assert refusal(g.check_second, ci["HUNA-1"], ci["ALOA-1"], k) == (
        rules.BAD_PAIR, "ALOA-1 does not name an end of ELAI-HUNA")
    g.phase = rules.DRAW
    assert refusal(g.card_options, ci["HUNA-1"])[0] == rules.WRONG_PHASE


def test_index_api_no_option_and_handicap_options():
    bridges = dict((c, "white") for c in ("ALOA-HUNA", "HUNA-IFFI", "HUNA-LALE",
                                          "DUDA-HUNA", "ELAI-HUNA"))
    g = position(new_game(), bridges=bridges, hands={"white": ["HUNA-1"], "black": []})
    try:
        g.card_options(g.card_index["HUNA-1"])
        raise AssertionError("not refused")
    except rules.Rejected as e:
        assert (e.code, e.message) == (rules.NO_OPTION, "HUNA-1 allows no bridge and no removal")
    free = g.handicap_options()
    assert sorted(free) == [k for k in range(len(g.bridges)) if g.bridges[k] == rules.NOBODY]
    assert len(free) == len(g.board.connections) - 5


def test_settings_are_fixed_apart_from_the_state_and_checked_in_one_place():
    g = new_game(variant="alternative", first="black", handicap=("white", 2))
    s = g.settings
    assert (s.variant, s.first, s.handicap) == ("alternative", rules.BLACK, (rules.WHITE, 2))
    assert s.to_json() == {"variant": "alternative", "first": "black",
                           "handicap": ["white", 2]}
    again = kahunasettings.Settings.from_json(g.board, s.to_json()).new_game()
    assert again.settings.to_json() == s.to_json() and again.turn == rules.BLACK
    assert kahunasettings.check_settings({}) == {"variant": "standard", "first": "white",
                                        "handicap": None}
    for bad, words in (([], "settings must be an object"),
                       ({"speed": 1}, "unknown setting 'speed'"),
                       ({"variant": "fast"}, "variant must be standard or alternative"),
                       ({"first": "red"}, "first must be white or black"),
                       ({"handicap": ["white", 4]}, "handicap must place 1 to 3 bridges"),
                       ({"handicap": ["white", True]}, "handicap must place 1 to 3"),
                       ({"handicap": "white"}, "handicap must be a player")):
        with pytest.raises(ValueError):
            kahunasettings.check_settings(bad)
        try:
            kahunasettings.check_settings(bad)
        except ValueError as e:
            assert words in str(e), (bad, str(e))
    with pytest.raises(ValueError):
        new_game(handicap=("black", 0))


def test_the_recorder_sees_each_action_before_it_changes_anything():
    """The journal writes an action from the recorder; if the write fails, the action is
    refused. So at that moment the state must still be the one before the action."""
    seen = []
    g = dealt_game(variant="alternative", handicap=("black", 1))

    def recorder(action):
        seen.append((action, g.snapshot()))
        if action[0] == "place" and len(seen) == 3:
            raise rules.Rejected("storage", "flash full")

    g.recorder = recorder
    g.apply(("handicap", "KAHU-LALE"))
    g.apply(("place", "HUNA-1", "ALOA-HUNA"))
    before = g.snapshot()
    with pytest.raises(rules.Rejected):
        g.apply(("place", "ELAI-1", "ELAI-HUNA"))
    assert g.snapshot() == before
    g.recorder = lambda action: seen.append((action, g.snapshot()))
    for action in (("place", "ELAI-1", "ELAI-HUNA"), ("discard", "DUDA-1"), ("undo",),
                   ("end_play",), ("resume_play",), ("end_play",), ("draw", "JOJO-1")):
        snap = g.snapshot()
        g.apply(action)
        assert seen[-1] == (action, snap)
