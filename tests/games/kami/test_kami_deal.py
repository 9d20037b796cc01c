"""A stated deal on the board (deal=given): its text form (games/kami/dealing.py `parse`,
`text`), the controller's `pick "deal ..."` (the simulator's `deal` command, a host on the
link), refused where it means nothing, journaled and kept across a power cut; the same
on the MicroPython unix port."""

import pytest

from core import board as boardmod
from core import outcome as oc
from games.kami import dealing, deck, game
from host_tools.paths import ROOT
from host_tools.simulator.engine import Simulation

BOARD = ROOT + "/board_def/kami.json"


def shuffled_deal(players, seed):
    cards, _ = deck.shuffled(deck.seed_state(seed))
    return dealing.split(cards, players)


@pytest.mark.parametrize("players", (2, 3, 4))
def test_a_deal_reads_back_from_its_text(players):
    hands, aside, centre = shuffled_deal(players, players)
    text = dealing.text(hands, aside, centre)
    assert ("aside:" in text) == (players == 3) and ("centre:" in text) == (players == 2)
    action = dealing.parse(text, players)
    assert action == ("deal", [list(h) for h in hands],
                      None if aside is None else list(aside),
                      None if centre is None else [list(s) for s in centre])
    if players == 3:  # without aside: the two cards not dealt are set aside
        short = dealing.parse(text.rsplit(" aside:", 1)[0], 3)
        assert short[2] is None
        g = game.new_state(None, {"players": 3, "deal": "given"})
        g.apply(short)
        assert g.aside == sorted(aside)


@pytest.mark.parametrize("text,words", [
    ("p1:OR-1", "no hand for p2"),
    ("p1:KING-1", "unknown card 'KING-1'"),
    ("hands:OR-1", "fields are p1/p2/p3/p4/aside/centre"),
    ("p1", "fields are"),
    ("p1:OR-1 p1:OR-2", "p1 given twice"),
    ("p1:OR-1 p2:OR-2 p3:OR-3 p4:OR-4", "p1 must get 8 cards, got 1"),
    ("p1:OR-1 p2:OR-2 p3:OR-3 p4:OR-4 centre:OR-1", "a centre stack is UP/DOWN"),
])
def test_a_malformed_deal_is_a_value_error_naming_its_fault(text, words):
    with pytest.raises(ValueError) as e:
        dealing.parse(text, 4)
    assert words in str(e.value)


def table(**settings):
    g = game.new_state(None, dict({"deal": "given"}, **settings))
    return g, game.controller(g)


def test_the_controller_takes_a_deal_in_phase_deal_privately():
    g, c = table(players=3)
    hands, aside, centre = shuffled_deal(3, 9)
    assert g.phase == "deal"
    out = c.pick("deal " + dealing.text(hands, aside, centre))
    assert out.kind == oc.ACCEPTED and out.private  # 8.3: the answer names no card
    assert g.phase == "play" and g.hands == [sorted(h) for h in hands]
    assert g.aside == sorted(aside)
    # a well-formed deal outside phase deal means nothing
    before = g.snapshot()
    out = c.pick("deal " + dealing.text(hands, aside, centre))
    assert (out.kind, out.code) == (oc.REFUSED, "wrong-phase")
    assert g.snapshot() == before


def test_a_malformed_deal_on_the_link_is_bad_deal_and_changes_nothing():
    g, c = table(players=4)
    before = g.snapshot()
    out = c.pick("deal p1:OR-1,OR-2")
    assert (out.kind, out.code, out.private) == (oc.REFUSED, "bad-deal", True)
    assert g.snapshot() == before and g.phase == "deal"
    assert c.pick("p2").code == "wrong-phase"  # a seat: no claim is open


def test_a_stated_deal_is_journaled_and_survives_a_power_cut():
    sim = Simulation(boardmod.load(BOARD))
    sim.kit.start(game.check_settings({"players": 2, "deal": "given"}))
    hands, aside, centre = shuffled_deal(2, 4)
    sim.execute([1, "deal", dealing.text(hands, aside, centre)])
    sim.execute([2, "tap", deck.NAMES[hands[0][0]]])  # p1's face-down defence
    before = sim.report()
    sim.execute([3, "power-cut"])
    after = sim.report()
    assert sim.boots == 2 and after["hands"] == before["hands"]
    assert after["hidden"] == before["hidden"] and after["lines"] == before["lines"]
    assert after["step"] == "attack" and sim.rejected == []


@pytest.mark.micropython
def test_a_stated_deal_on_micropython(mpy):
    hands, aside, centre = shuffled_deal(2, 7)
    text = dealing.text(hands, aside, centre)
    script = (
        "from games.kami import game, dealing\n"
        "g = game.new_state(None, {'players': 2, 'deal': 'given'})\n"
        "c = game.controller(g)\n"
        "print(tuple(c.pick('deal p1:OR-1')))\n"
        "print(tuple(c.pick(%r)))\n"
        "print(g.phase, g.hands, g.up, g.down)\n"
        "print(dealing.text(g.hands, None, [[g.up[i], g.down[i]] for i in range(8)]))\n"
        % ("deal " + text))
    lines = mpy.run_code(script).strip().splitlines()
    assert lines[0].startswith("('refused', 'bad-deal'")
    assert lines[1] == "('accepted', None, None, (), True)"
    g, c = table(players=2)
    c.pick("deal " + text)
    assert lines[2] == "%s %s %s %s" % (g.phase, g.hands, g.up, g.down)
    assert lines[3] == dealing.text(g.hands, None, [[g.up[i], g.down[i]]
                                                    for i in range(8)])
