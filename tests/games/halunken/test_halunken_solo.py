"""The board's seats at a Halunken table (games/halunken/solo.py, setting `ai`): played in
the simulator on virtual time, in the terminal (`sim --ai p2,p3`) and on the flashed
virtual board, to the end; the board's secret card chosen before any person's card of the
round is read, and never shown before the reveal."""

import json
import subprocess
import sys
import time

import pytest

from core import board as boardmod
from games.halunken import ai, deck, game
from host_tools.games.halunken import play
from host_tools.simulator.engine import Simulation
from host_tools.simulator.scenario import card_names
from mpy_runner import ROOT
from vboardkit import BoardLink, flash_vboard

BOARD = "board_def/halunken.json"


def sim_with(settings):
    sim = Simulation(boardmod.load(ROOT + "/" + BOARD, keep_raw=False))
    sim.kit.start(settings)
    sim.advance(100)
    return sim


def test_settings_ai_lists_seats_once():
    assert game.check_settings({"seed": 1, "ai": ["p3", "p2"]})["ai"] == ["p2", "p3"]
    assert "ai" not in game.check_settings({"seed": 1, "ai": []})
    for bad, words in ((["p4"], "'p4' is not a seat p1..p3"), (["p2", "p2"], "twice"),
                       ("p2", "must list")):
        with pytest.raises(ValueError, match=words):
            game.check_settings({"players": 3, "seed": 1, "ai": bad})
    with pytest.raises(ValueError, match="need a dealt deck"):  # no physical takes yet
        game.check_settings({"players": 3, "ai": ["p2"]})  # deal=table, the default
    assert game.solo(game.new_state(None, {}), None, None) is None


@pytest.mark.parametrize("settings", [
    {"players": 3, "mode": "standard", "seed": 5}, {"players": 4, "mode": "beginner", "seed": 6},
    {"players": 2, "seed": 7}])
def test_the_board_plays_every_seat_to_the_end(settings):
    n = settings["players"]
    s = dict(settings, ai=["p%d" % (i + 1) for i in range(n)])
    sim = sim_with(s)
    sim.advance(60000)
    g = sim.app.game
    assert g.is_over() and sim.rejected == []
    assert all(len(g.played[i]) == 8 for i in range(n))
    # The same game without the board: the rules' actions it chose, replayed, agree.
    twin = game.new_state(None, settings)
    while not twin.is_over():
        if twin.step == "reveal":
            twin.apply(("reveal",))
        else:
            twin.apply(ai.choose(twin, ai.expected_seat(twin)))
    assert twin.snapshot() == g.snapshot()


def to_first_choice(sim):
    """p1 places (the board's p2, p3 place and pass), p1 passes: round 1's choice."""
    sim.kit.pick("T1")
    sim.advance(200)
    while sim.app.game.step != "choose":
        sim.press("done")
        sim.advance(200)


def test_the_boards_card_does_not_depend_on_the_persons():
    seen = set()
    for m in range(7):
        sim = sim_with({"players": 3, "seed": 9, "ai": ["p2", "p3"]})
        to_first_choice(sim)
        g = sim.app.game
        assert g.step == "choose" and g.choices[:3] == [-1, -1, -1]
        sim.present(sim.uid_of("P1-%d" % (m + 1)), 0)
        sim.advance(200)
        assert g.step == "reveal" and sim.rejected == []
        seen.add((tuple(g.choices[1:3]), bytes(sim.app.view.frame), sim.now))
    assert len(seen) == 1  # the board's cards, and the lights once they are chosen


def test_back_takes_the_boards_cards_back_with_the_persons():
    sim = sim_with({"players": 3, "seed": 9, "ai": ["p2", "p3"]})
    to_first_choice(sim)
    g = sim.app.game
    sim.present(sim.uid_of("P1-3"), 0)
    sim.advance(200)
    assert g.step == "reveal"
    sim.press("back")
    sim.advance(200)
    assert g.step == "choose" and g.choices[:3] == [-1, -1, -1] and sim.rejected == []
    solo = sim.app.solo
    g.apply(("choose", 0, 2))
    g.apply(("choose", 1, 2))
    del g.undo[0]  # only the board's choice left to take back
    out = solo.press("back")
    assert out.code == "wrong-phase" and g.choices[1] == 2


def test_a_person_cannot_play_the_boards_seat():
    g = game.new_state(None, {"players": 3, "seed": 9, "ai": ["p1"]})
    solo = game.solo(g, game.controller(g), None)
    before = g.snapshot()
    out = solo.tap("RED-1")
    assert (out.code, out.places) == ("out-of-turn", (("seat", 0),))
    assert solo.press("ok").code == "out-of-turn" and g.snapshot() == before
    assert solo.say() == "the board plays p1"


def test_a_power_cut_comes_back_and_the_board_plays_on_the_same():
    settings = {"players": 3, "seed": 12, "ai": ["p1", "p2", "p3"]}
    whole = sim_with(settings)
    whole.advance(60000)
    cut = sim_with(settings)
    cut.advance(150)
    assert not cut.app.game.is_over()
    cut.execute([1, "power-cut"])
    cut.advance(60000)
    assert cut.app.game.is_over()
    assert cut.app.game.snapshot() == whole.app.game.snapshot()


def test_a_scenario_takes_option_ai():
    text = ("option players=3\noption seed=4\noption ai=p2,p3\npick T1\npress done\n"
            "tap P1-4\nwait 500\npress ok\nwait 1000\nexpect round 2\n")
    proc = subprocess.run([sys.executable, "-m", "host_tools", "sim", "--game", "halunken",
                           "--scenario", "-", "--json"], input=text, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["rejected"] == []
    proc = subprocess.run([sys.executable, "-m", "host_tools", "sim", "--game", "halunken",
                           "--scenario", "-"], input="option ai=p2,p2\n", cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "option ai must list seats" in proc.stderr


# ------------------------------------------------------------------ terminal play

def human_lines(settings):
    """p1's lines for a whole game against the board's p2, p3 (p1 plays as the board's
    player would), found by playing the same game in-process through play.run_line."""
    sim = sim_with(settings)
    cards = card_names(sim.board)
    lines = []
    while not sim.app.game.is_over():
        g = sim.app.game
        if g.step == "reveal":
            text = "ok"
        else:
            act = ai.choose(g, 0)
            kind, arg = act[0], act[-1]
            if kind == "choose":
                text = deck.move_name("P1", arg)
            elif kind in ("place", "place_bj"):
                text = deck.space_name(arg)
            elif kind == "rum":
                text = str(arg)
            elif kind == "pass" or arg < 0:
                text = "done"
            else:
                text = deck.crew_name(arg)
        said = play.run_line(sim, text, len(lines) + 1, cards)
        assert said in (None, "p1 has chosen."), (text, said)
        lines.append(text)
        assert len(lines) < 200
    return lines


def test_a_solo_game_plays_to_the_end_in_the_terminal():
    settings = {"players": 3, "deal": "seed", "seed": 42, "ai": ["p2", "p3"]}
    lines = human_lines(settings)
    proc = subprocess.run([sys.executable, "-m", "host_tools", "sim", "--game", "halunken",
                           "--seed", "42", "--players", "3", "--ai", "p2,p3"],
                          input="\n".join(lines) + "\n", cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "the board plays p2, p3" in out and "The game is over: won by" in out
    assert "refused" not in out
    assert out.count("p2 (the board) has chosen.") == 8
    for line in out.splitlines():  # the board's cards: only once played (revealed)
        if "P2-" in line or "P3-" in line:
            assert line.startswith(("  p2 on", "  p3 on", "  p2 revealed", "  p3 revealed"))
    proc = subprocess.run([sys.executable, "-m", "host_tools", "sim", "--game", "halunken",
                           "--ai", "p9"], input="", cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr == "sim: ai: 'p9' is not a seat p1..p3\n"


# ------------------------------------------------------------------ the virtual board

@pytest.fixture
def board(tmp_path):
    yield from flash_vboard(tmp_path, BOARD)


def test_a_solo_game_plays_to_the_end_on_the_virtual_board(board):
    link = BoardLink(board.port)
    link.send({"cmd": "new", "settings": {"players": 3, "mode": "beginner", "seed": 7,
                                          "ai": ["p2", "p3"]}})
    link.until(lambda x: x.get("event") == "new")
    end = time.monotonic() + 120
    while time.monotonic() < end:
        link.send({"cmd": "state"})
        st = link.until(lambda x: x.get("event") == "state")["state"]
        if st["phase"] == "over":
            break
        if st["step"] == "reveal":
            cmd = {"cmd": "press", "button": "ok"}
        elif st["turn"] != "p1":
            time.sleep(0.05)  # the board's seats play
            continue
        elif st["step"] == "choose":
            left = [m for m in range(1, 8) if "P1-%d" % m not in st["played"]["p1"]]
            cmd = {"cmd": "tap", "card": "P1-%d" % left[0] if left else "P1-RUM"}
        elif st["step"] in ("place", "rum"):
            cmd = {"cmd": "pick", "conn": str(st["ui"]["options"][0])}
        else:
            cmd = {"cmd": "press", "button": "done"}
        line = link.event(cmd)
        assert line["event"] != "refused", line
        if st["step"] == "choose":
            # the board's p2, p3 choose after p1: nothing on the link names their cards
            later = link.until(lambda x: x.get("changed", {}).get("chosen") == 3)
            assert "P2-" not in json.dumps(later) and "P3-" not in json.dumps(later)
    assert st["phase"] == "over" and st["winner"]
