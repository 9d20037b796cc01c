"""The reference's worked examples (docs/halunken.md, Worked examples) and the contract's
example scenarios, played through the rules' state object."""

import pytest
from halunken_kit import BJ, c, given, m, names, report, sp

from core.outcome import Rejected


def example1_state():
    piles = [p.split(",") for p in __import__("halunken_kit").EXAMPLE1_PILES]
    return given(3, "beginner", piles=piles)


def test_example1_cancellation_displacement_and_theft():
    g = example1_state()
    g.apply(("place", sp("T1")))
    with pytest.raises(Rejected) as e:
        g.apply(("place", sp("T1")))
    assert e.value.code == "not-offered"
    g.apply(("place", sp("T3")))
    g.apply(("place", sp("T6")))
    assert g.step == "choose" and g.round == 1
    for seat, word in ((0, "5"), (1, "3"), (2, "5")):
        g.apply(("choose", seat, m(word)))
    assert g.step == "reveal"
    g.apply(("reveal",))
    r = report(g)
    assert (r["step"], r["turn"], r["from"]) == ("steal", "p2", ["p3"])
    assert r["crews"]["p2"] == ["GREY-6", "YELLOW-11"]
    with pytest.raises(Rejected) as e:
        g.apply(("steal", c("GREY-6")))
    assert e.value.code == "not-in-crew"
    g.apply(("steal", c("GREY-8")))
    r = report(g)
    assert r["captains"] == {"p1": "T1", "p2": "T6", "p3": "T7"}
    assert r["crews"] == {"p1": ["PURPLE-5", "RED-4"],
                          "p2": ["GREY-6", "GREY-8", "YELLOW-11"], "p3": ["YELLOW-2"]}
    assert [r["taverns"][t]["left"] for t in ("T1", "T3", "T6", "T7")] == [1, 2, 0, 3]
    assert r["taverns"]["T1"]["top"] == "RED-1" and r["taverns"]["T6"]["top"] is None
    assert r["scores"] == {"p1": 14, "p2": 39, "p3": 4}
    assert (r["round"], r["step"], r["turn"], r["figure"]) == (2, "choose", "p1", "p1")
    assert r["played"] == {"p1": ["P1-5"], "p2": ["P2-3"], "p3": ["P3-5"]}
    assert r["round_cards"] == {} and r["chosen"] == 0 and r["auction"] is None


def _mid_round(g, pos, counts, bj=-1):
    """Put captains on `pos` with `counts` crew cards each: the old crews go to the piles'
    bottoms, the new ones come from below the top cards (every tavern keeps cards)."""
    snap = g.snapshot()
    piles = snap["piles"]
    old = [x for crew in snap["crews"] for x in crew]
    spare = [x for pile in piles for x in pile[1:]]
    for s in range(g.players):
        snap["pos"][s] = sp(pos[s])
        snap["crews"][s] = [spare.pop() for _ in range(counts[s])]
        for x in snap["crews"][s]:
            for pile in piles:
                if x in pile:
                    pile.remove(x)
    for x in old:
        min(piles, key=len).append(x)
    snap["bj"] = bj
    g.restore(snap)
    assert sum(len(p) for p in piles) + sum(len(x) for x in snap["crews"]) == 42


def test_example2_rum_a_captain_displaced_before_it_moves_no_theft():
    g = given(4, "beginner")
    for t in ("T2", "T4", "T9", "T10"):
        g.apply(("place", sp(t)))
    _mid_round(g, ("T2", "T4", "T9", "T10"), (3, 2, 2, 4))
    for seat, word in ((0, "RUM"), (1, "2"), (2, "1"), (3, "3")):
        g.apply(("choose", seat, m(word)))
    g.apply(("reveal",))
    assert g.step == "rum" and g.options == [4, 5, 6, 7]
    g.apply(("rum", 4))
    r = report(g)  # p3 (1) landed on p4 and took a card: 3 <= 4, p3 may steal (H9)
    assert (r["step"], r["turn"], r["from"], r["captains"]["p3"]) == ("steal", "p3", ["p4"], "T10")
    g.apply(("steal", g.crews[3][0]))
    r = report(g)
    assert r["captains"] == {"p1": "T6", "p2": "T7", "p3": "T10", "p4": "T14"}
    assert [len(r["crews"]["p%d" % k]) for k in (1, 2, 3, 4)] == [4, 3, 4, 4]
    assert r["played"] == {"p1": ["P1-RUM"], "p2": ["P2-2"], "p3": ["P3-1"],
                           "p4": ["P4-3"]}


def _example3(bid):
    g = given(3, "standard", bj=["BJ-5"] + ["BJ-%d" % k for k in range(1, 13) if k != 5])
    for t in ("T10", "T2", "T4"):
        g.apply(("place", sp(t)))
    g.apply(("place_bj", sp("T7")))
    snap = g.snapshot()
    _mid_round(g, ("T10", "T2", "T4"), (5, 4, 4), bj=sp("T7"))
    snap = g.snapshot()
    crews = snap["crews"]
    # the offered cards: p2 YELLOW-3, p3 GREY-7, p1 RED-8 (swapped in where needed)
    for s, name in ((1, "YELLOW-3"), (2, "GREY-7"), (0, "RED-8")):
        x = c(name)
        for other in crews + snap["piles"]:
            if x in other:
                other[other.index(x)] = crews[s][0]
        crews[s][0] = x
    snap["last_bidder"] = 1
    snap["auction"]["opener"] = snap["auction"]["speaker"] = 1
    g.restore(snap)
    if bid:
        g.apply(("offer", c("YELLOW-3")))
        g.apply(("offer", c("GREY-7")))
        g.apply(("offer", c("RED-8")))
    else:
        for _ in range(3):
            g.apply(("pass",))
    for seat, word in ((0, "2"), (1, "6"), (2, "5")):
        g.apply(("choose", seat, m(word)))
    g.apply(("reveal",))
    return g


def test_example3_auction_and_black_jacks_robbery_for_W():
    g = _example3(True)
    r = report(g)
    assert r["auction"]["winner"] == "p1" and r["port"] == ["RED-8"]
    assert r["captains"] == {"p1": "T12", "p2": "T8", "p3": "T9"}
    assert (r["step"], r["turn"], r["figure"], r["from"]) == ("rob", "p1", "blackjack", ["p2"])
    assert r["blackjack"] == "T13"
    g.apply(("rob", g.crews[1][0]))
    r = report(g)
    assert [len(r["crews"][s]) for s in ("p1", "p2", "p3")] == [6, 4, 5]
    assert r["port"] == ["RED-8"] and r["bj_cards"] == ["BJ-5"]
    assert r["last_bidder"] == "p1" and r["auction"]["opener"] == "p1" and r["round"] == 2


def test_example3_variant_nobody_bid_robs_everyone_passed_into_the_port():
    g = _example3(False)
    for victim in ("p2", "p3", "p1"):
        r = report(g)
        assert (r["step"], r["turn"], r["from"]) == ("rob", victim, [victim])
        assert ("rob", -1) not in g.legal_actions()
        with pytest.raises(Rejected) as e:
            g.apply(("rob", -1))
        assert e.value.code == "wrong-phase"
        g.apply(("rob", g.crews[int(victim[1]) - 1][0]))
    r = report(g)
    assert len(r["port"]) == 3 and r["blackjack"] == "T13"
    assert [len(r["crews"][s]) for s in ("p1", "p2", "p3")] == [5, 4, 4]
    assert BJ == 4


def test_contract_standard_round_example():
    g = given(3, "standard", bj=["BJ-10"] + ["BJ-%d" % k for k in range(1, 13) if k != 10])
    g.apply(("place", sp("T1")))
    assert report(g)["taverns"]["T1"]["top"] is None  # H5: blind set-up
    g.apply(("place", sp("T5")))
    g.apply(("place", sp("T9")))
    r = report(g)
    assert (r["step"], r["turn"], r["phase"]) == ("place-bj", "p1", "setup")
    assert r["taverns"]["T1"]["top"] == "RED-2"
    g.apply(("place_bj", sp("T3")))
    assert report(g)["auction"]["opener"] == "p3"
    g.apply(("offer", c("GREY-6")))
    with pytest.raises(Rejected) as e:
        g.apply(("offer", c("RED-1")))
    assert e.value.code == "bid-too-low"
    g.apply(("pass",))
    g.apply(("pass",))
    r = report(g)
    assert r["auction"]["winner"] == "p3" and r["port"] == ["GREY-6"]
    for seat, word in ((0, "1"), (1, "7"), (2, "6")):
        g.apply(("choose", seat, m(word)))
    g.apply(("reveal",))
    r = report(g)
    assert (r["step"], r["turn"], r["from"], r["blackjack"]) == ("rob", "p3", ["p2"], "T13")
    g.apply(("rob", c("YELLOW-4")))
    r = report(g)
    assert r["round"] == 2 and len(r["crews"]["p3"]) == 2 and len(r["crews"]["p2"]) == 1
    assert r["bj_cards"] == ["BJ-10"] and r["last_bidder"] == "p3"
    assert names(g.crews[2]) == ["RED-2", "YELLOW-4"]


def test_report_keys_in_the_contracts_order():
    keys = ("game players mode deal first phase round step turn figure options from captains "
            "blackjack taverns crews port setup_cards auction last_bidder chosen played "
            "round_cards bj_cards scores winner hidden").split()
    g = example1_state()
    assert list(report(g)) == keys
    assert list(report(g)["hidden"]) == ["choices", "piles", "bj_deck"]
    assert report(g)["deal"] == "given" and report(g)["hidden"]["bj_deck"] is None
