"""Kami's controller (games/kami/controller.py): the plays as rules section 8.2 and the sim
contract's step table say, every refusal code of 8.4 in the contract's order, `back`
within the turn, and a refused event that changes nothing (game and claim cursor)."""

import pytest

from core import outcome as oc
from games.kami import game, report


class Table:
    """A game and its controller; every event checked: a refusal changes nothing."""

    def __init__(self, **settings):
        self.g = game.new_state(None, settings)
        self.c = game.controller(self.g)

    def _do(self, fn, arg):
        before = (self.g.snapshot(), self.c.sel)
        out = fn(arg)
        assert out is self.c.outcome
        if out.kind == oc.REFUSED:
            assert (self.g.snapshot(), self.c.sel) == before, out
        return out

    def tap(self, *cards):
        out = None
        for card in cards:
            out = self._do(self.c.tap, card)
            assert out.kind != oc.REFUSED, (card, out)
        return out

    def press(self, *buttons):
        out = None
        for b in buttons:
            out = self._do(self.c.press, b)
            assert out.kind != oc.REFUSED, (b, out)
        return out

    def refused_tap(self, card):
        out = self._do(self.c.tap, card)
        assert out.kind == oc.REFUSED, out
        return out.code

    def refused_press(self, button):
        out = self._do(self.c.press, button)
        assert out.kind == oc.REFUSED, out
        return out.code

    def refused_pick(self, name):
        out = self._do(self.c.pick, name)
        assert out.kind == oc.REFUSED, out
        return out.code

    @property
    def r(self):
        return report.game(self.g)


def test_the_rules_first_worked_example_at_a_table():
    """The contract's example (kami-4p-round.scn) through taps and presses."""
    t = Table(players=4)
    assert t.tap("SOLDAT-3").private  # p1's face-down defence (K6)
    t.tap("SOLDAT-1")
    assert (t.r["step"], t.r["turn"]) == ("respond", "p2")
    t.tap("SOLDAT-2", "OR-1")  # K1: an identical counter, then the compulsory attack (K3)
    assert t.refused_tap("CAVALIER-1") == "not-a-counter"  # K1: a Horseman is not a Dragon
    t.tap("IMPERATRICE-1", "LANCE-1")  # K4: an Empress counters a Gold Dragon
    assert t.r["empress_unlocked"] is True
    assert t.refused_tap("IMPERATRICE-2") == "not-a-counter"  # K4: not against a Spear
    t.press("done", "done", "done")  # K15, K16: everyone passes, p3 replays
    assert (t.r["turn"], t.r["step"]) == ("p3", "open")
    t.tap("FOU-1")
    t.press("back")  # undo within the turn
    assert t.r["step"] == "open" and t.r["hand_sizes"]["p3"] == 6
    t.tap("OR-3", "OR-2")
    r = t.r
    assert (r["turn"], r["step"], r["passed"]) == ("p4", "respond", [])
    assert r["hand_sizes"] == {"p1": 6, "p2": 6, "p3": 4, "p4": 8}
    assert r["lines"]["p3"]["defence"] == [
        {"card": "IMPERATRICE-1", "face": "up", "from": "hand"},
        {"card": "OR-3", "face": "down", "from": "hand"}]
    assert t.c.errors == 2


def test_every_face_down_defence_is_one_private_outcome_without_places():
    # 8.2, 8.3: the acknowledgement is the same for every card
    outs = set()
    for name in game.card_names():
        t = Table(players=3)
        outs.add(t.tap(name))
    assert outs == {oc.Outcome(oc.ACCEPTED, None, None, (), True)}


def test_an_attack_a_counter_and_a_pass_are_public():
    t = Table(players=3)
    t.tap("SOLDAT-1")
    assert not t.tap("SOLDAT-2").private
    assert not t.tap("SOLDAT-3").private  # p2's counter
    assert not t.tap("OR-1").private  # and its attack
    assert not t.press("done").private


def test_unknown_card_comes_first_in_every_phase_but_over():
    t = Table(players=4)
    for tag in (None, "KING-1", "SOLDAT-11", 7):
        assert t.refused_tap(tag) == "unknown-card"
    g = Table(players=3, deal="given")  # phase deal: a tap is wrong-phase, a uid tag unknown
    assert g.refused_tap(None) == "unknown-card"
    assert g.refused_tap("SOLDAT-1") == "wrong-phase"


def test_a_refusal_flashes_the_acting_seat_only():
    t = Table(players=4)
    t.tap("SOLDAT-3", "SOLDAT-1")
    t.refused_tap("OR-1")
    assert t.c.outcome.places == (("seat", 1),)  # p2 was to counter
    assert game.place_names(None, t.c.outcome.places) == ["p2"]


def test_wrong_phase_for_events_that_mean_nothing_now():
    t = Table(players=4)
    assert t.refused_press("done") == "wrong-phase"  # an opener cannot pass
    assert t.refused_press("back") == "wrong-phase"  # nothing to take back
    for b in ("next", "prev", "ok"):
        assert t.refused_press(b) == "wrong-phase"
    assert t.refused_pick("p2") == "wrong-phase"
    assert t.refused_press("jump") == "wrong-phase"  # not a button: refused, no exception
    t.tap("SOLDAT-3", "SOLDAT-1")
    assert t.refused_press("back") == "wrong-phase"  # a completed turn stays (8.2)
    assert t.refused_press("discard") == "wrong-phase"  # K11: after the first card


def test_back_takes_back_a_counter_and_the_responder_may_pass_instead():
    t = Table(players=3)
    t.tap("SOLDAT-3", "CAVALIER-1", "CAVALIER-2")  # p2 counters
    assert t.r["step"] == "attack" and t.c.can_undo()
    t.press("back")
    r = t.r
    assert (r["turn"], r["step"], r["hand_sizes"]["p2"]) == ("p2", "respond", 10)
    assert r["lines"]["p2"]["defence"] == []
    t.press("done")
    assert t.r["turn"] == "p3"


def test_card_already_played_at_a_table_also_for_a_face_down_card():
    t = Table(players=3)
    t.tap("TOUR-1", "SOLDAT-1")
    assert t.refused_tap("SOLDAT-1") == "card-already-played"  # face up
    assert t.refused_tap("TOUR-1") == "card-already-played"  # K20: face down, tapped again


def test_card_not_in_hand_with_a_known_deal_wherever_the_card_hides():
    t = Table(players=3, seed=4)
    hands = t.r["hands"]
    aside = t.r["hidden"]["aside"]
    other = hands["p2"][0]
    assert t.refused_tap(other) == "card-not-in-hand"  # another seat's hand
    assert t.refused_tap(aside[0]) == "card-not-in-hand"  # K12: set aside
    down = hands["p1"][0]
    t.tap(down)  # p1's face-down defence
    attack = t.r["hands"]["p1"][0]
    if attack.startswith("IMPERATRICE"):
        attack = t.r["hands"]["p1"][1]
    t.tap(attack)
    # p2 taps p1's face-down card: the same code as a card in a hand (8.4)
    assert t.refused_tap(down) == "card-not-in-hand"
    assert t.refused_tap(attack) == "card-already-played"  # face up: public


def test_empress_locked_and_the_last_card_and_k22_at_a_table():
    t = Table(players=4)
    t.tap("SOLDAT-3")
    assert t.refused_tap("IMPERATRICE-1") == "empress-locked"  # K4, K5
    t.tap("SOLDAT-1")
    t.press("done", "done", "done")
    t.tap("IMPERATRICE-1")  # K5: a face-down Empress does not unlock
    assert t.refused_tap("IMPERATRICE-2") == "empress-locked"


def test_a_counter_checks_the_role_after_the_card():
    # the contract's order: the card (card-already-played) before the role (not-a-counter)
    t = Table(players=3)
    t.tap("OR-1", "SOLDAT-1")
    assert t.refused_tap("OR-1") == "card-already-played"
    assert t.refused_tap("OR-2") == "not-a-counter"


def centre_table(**settings):
    """2 players at a table: the 8 face-up centre cards tapped, stack 1 to 8."""
    t = Table(players=2, **settings)
    assert t.r["phase"] == "centre" and t.r["step"] == "centre"
    assert t.refused_press("done") == "wrong-phase"
    t.tap("OR-3", "SOLDAT-1", "SOLDAT-2", "SOLDAT-3", "SOLDAT-4", "SOLDAT-5",
          "SOLDAT-6")
    assert t.refused_tap("OR-3") == "card-already-played"  # already on the centre
    t.tap("SOLDAT-7")
    assert t.r["phase"] == "play" and t.r["step"] == "open"
    return t


def test_two_players_a_centre_card_waits_for_the_card_turned_up_and_stays_played():
    t = centre_table()
    t.tap("OR-3")  # K13: the centre card as p1's defence, face down
    r = t.r
    assert (r["step"], r["turn"], r["hand_sizes"]["p1"]) == ("reveal", "p1", 8)
    assert t.refused_press("back") == "wrong-phase"  # its stack has been turned up
    assert t.refused_tap("SOLDAT-1") == "card-already-played"  # on a stack
    t.tap("TOUR-1")  # the card beneath, public
    assert t.r["centre"][0] == {"up": "TOUR-1", "left": 1}
    assert (t.r["step"], t.r["turn"]) == ("attack", "p1")
    assert t.refused_press("back") == "wrong-phase"  # a centre card stays played (8.2)
    t.tap("ARGENT-1")
    assert t.r["turn"] == "p2"


def test_two_players_last_card_defence():
    # K7: p1 plays down to one hand card while a centre card shows, then replays
    t = centre_table()
    t.tap("OR-3", "TOUR-1", "FOU-1")  # centre defence, the card beneath, the attack: 7
    t.press("done")
    attacks = [("CAVALIER-1", "CAVALIER-2"), ("ARGENT-1", "ARGENT-2"),
               ("LANCE-1", "LANCE-2")]
    for d, a in attacks:  # replays: 7 -> 5 -> 3 -> 1
        t.tap(d, a)
        t.press("done")
    assert t.r["hand_sizes"]["p1"] == 1 and t.r["step"] == "open"
    assert t.refused_tap("OR-1") == "last-card-defence"
    # the card checks come first: a played card is card-already-played
    assert t.refused_tap("FOU-1") == "card-already-played"
    t.tap("TOUR-1")  # a centre card may still be the defence (K13)
    assert t.r["step"] == "attack"


def test_k22_at_a_table_decides_on_public_facts():
    # K22: 2 players, no centre card shows, at most 2 cards in hand: an Empress may attack
    t = centre_table()
    t.tap("IMPERATRICE-1")
    assert t.refused_tap("IMPERATRICE-2") == "empress-locked"  # a centre card shows
    # The same attack step once the centre is used up (set up through a snapshot: the
    # rules' own tests play it out, tests/games/kami/test_kami_rules.py).
    snap = t.g.snapshot()
    snap["up"] = [-1] * 8
    snap["left"] = [0] * 8
    for size, code in ((3, "empress-locked"), (2, None)):
        snap["sizes"] = [size, 8]
        t.g.restore(snap)
        if code:
            assert t.refused_tap("IMPERATRICE-2") == code
        else:
            t.tap("IMPERATRICE-2")
            assert t.r["attack"] == {"seat": "p1", "card": "IMPERATRICE-2"}
            assert t.r["empress_unlocked"] is False  # an ordinary attack (K22)


def test_no_claim_in_two_and_three_players():
    assert Table(players=3).refused_press("discard") == "no-claim"
    assert centre_table().refused_press("discard") == "no-claim"


def test_the_five_soldier_claim_played_on_then_cancelled():
    # K11: discard, the claimant chosen, five different Soldiers, the partner answers
    t = Table(players=4, first="p2")
    t.press("discard")
    assert t.r["claim"] == {"seat": "p2", "step": "seat", "soldiers": []}
    assert t.c.cursor() == 1 and not t.c.is_idle()
    t.press("next", "next", "prev")
    assert t.c.cursor() == 2
    assert t.refused_press("done") == "wrong-phase"
    assert t.refused_tap("SOLDAT-1") == "wrong-phase"
    assert t.refused_pick("p9") == "wrong-phase"
    t.press("ok")
    assert t.r["claim"]["seat"] == "p3" and t.r["turn"] == "p2"
    t.tap("SOLDAT-1", "SOLDAT-2")
    assert t.refused_tap("SOLDAT-2") == "no-claim"  # the same Soldier again
    assert t.refused_tap("OR-1") == "no-claim"  # not a Soldier
    assert t.refused_press("done") == "no-claim"  # fewer than five
    assert t.refused_press("discard") == "wrong-phase"
    t.tap("SOLDAT-3", "SOLDAT-4", "SOLDAT-5")
    t.press("done")
    assert t.r["claim"]["step"] == "answer"
    t.press("back")  # p1, the partner, plays on
    assert (t.r["phase"], t.r["claim"], t.r["turn"]) == ("play", None, "p2")
    assert t.c.is_idle()
    t.press("discard")
    t.c.pick("p4")
    assert t.r["claim"] == {"seat": "p4", "step": "cards", "soldiers": []}
    t.tap("SOLDAT-6", "SOLDAT-7", "SOLDAT-8", "SOLDAT-9", "SOLDAT-10")
    t.press("done", "ok")  # p2 cancels: dealt again, same round and first player
    r = t.r
    assert (r["phase"], r["round"], r["first"], r["claim"]) == ("play", 1, "p2", None)


def test_a_claim_is_withdrawn_with_back():
    t = Table(players=4)
    t.press("discard", "back")
    assert t.r["phase"] == "play" and t.r["claim"] is None


def test_a_round_ends_on_the_last_card_and_the_game_is_over():
    # K7, K8, K18: 3 players, target 1: p1 replays until its last card
    t = Table(players=3, target=5)
    kinds = ["SOLDAT-%d" % i for i in range(1, 11)]
    for i in range(4):  # 10 -> 8 -> 6 -> 4 -> 2
        t.tap(kinds[2 * i], kinds[2 * i + 1])
        t.press("done", "done")
    t.tap("IMPERATRICE-1")  # face down
    out = t.tap("IMPERATRICE-2")  # the last card (K4): doubled (K8), 10 points
    assert out.kind == oc.GAME_OVER
    r = t.r
    assert r["winner"] == "p1" and r["rounds"][0]["doubled"] and r["rounds"][0]["points"] == 10
    assert t.refused_tap(None) == "wrong-phase"  # over: even an unknown tag
    assert t.refused_press("done") == "wrong-phase"
    assert t.c.outcome.places == ()


def test_a_scored_round_that_does_not_end_the_game_is_a_round_end():
    t = Table(players=3, target=15)
    kinds = ["SOLDAT-%d" % i for i in range(1, 11)]
    for i in range(4):
        t.tap(kinds[2 * i], kinds[2 * i + 1])
        t.press("done", "done")
    t.tap("OR-1")
    assert t.tap("ARGENT-1").kind == oc.ROUND_END  # 3 points, not doubled
    r = t.r
    assert (r["round"], r["first"], r["turn"], r["scores"]["p1"]) == (2, "p2", "p2", 3)


@pytest.mark.micropython
def test_the_controller_runs_on_micropython(mpy):
    script = (
        "from games.kami import game\n"
        "g = game.new_state(None, {'players': 4})\n"
        "c = game.controller(g)\n"
        "for name in ('SOLDAT-3', 'SOLDAT-1', 'CAVALIER-1', None):\n"
        "    print(tuple(c.tap(name)))\n"
        "print(tuple(c.press('back')), tuple(c.press('done')))\n")
    lines = mpy.run_code(script).strip().splitlines()
    assert lines[0] == "('accepted', None, None, (), True)"
    assert lines[2].startswith("('refused', 'not-a-counter'")
    assert lines[3].startswith("('refused', 'unknown-card'")
    assert lines[4].startswith("('refused', 'wrong-phase'")
