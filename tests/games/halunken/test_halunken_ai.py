"""Halunken's board player (games/halunken/ai.py), its baselines and `duel --game halunken`.

- no peeking: a twin game that differs only in hidden information (other seats' unrevealed
  choices, the cards below the tops, Black-Jack's deck order) gets the same decisions, on
  both runtimes; a player that peeks is caught by the same check;
- every decision of the AI and both baselines is legal, in every mode, and the AI chooses
  among the actions the rules give it (a kind it does not know is still answered);
- the duel: its games are the same on both runtimes, its command line prints a rate per
  player and seat (a handful of games: the strength itself is the README's figure).
"""

import json
import subprocess
import sys

import pytest
from halunken_ai_peek import peek_check, twin

from games.halunken import ai, game
from host_tools.games.halunken import duelgames, randgame
from mpy_runner import ROOT

PEEK_SEEDS = range(12)  # randgame.random_settings: every mode and player count among them


def test_no_peeking_decisions_do_not_depend_on_hidden_information():
    modes = set()
    choices = 0
    for seed in PEEK_SEEDS:
        settings = randgame.random_settings(randgame.Rng(seed))  # as peek_check's
        modes.add(settings["mode"])
        decisions, changed, by_choice, differing = peek_check(seed)
        assert differing == [], (seed, differing[:3])
        assert decisions and changed == len(decisions)  # every twin hid something else
        choices += by_choice
    assert modes == {"beginner", "standard", "tactical"}
    assert choices > 50  # many twins with another seat's secret card swapped


def peeking_at_choices(g, seat):
    acts = ai.seat_actions(g, seat)
    return acts[sum(c for c in g.choices if c >= 0) % len(acts)]


def peeking_below_the_tops(g, seat):
    acts = ai.seat_actions(g, seat)
    below = [c for pile in g.piles for c in pile[1:2]]
    return acts[sum(below) % len(acts)]


@pytest.mark.parametrize("cheat", [peeking_at_choices, peeking_below_the_tops])
def test_a_peeking_player_is_caught(cheat):
    assert any(peek_check(seed, cheat)[3] for seed in PEEK_SEEDS[:4])


def test_the_twin_swaps_only_hidden_information():
    settings = {"players": 3, "mode": "standard", "seed": 5}
    g = randgame.new_game(settings)
    rng = randgame.Rng(1)
    while not (g.step == "choose" and g.choices[0] >= 0):
        g.apply(rng.choice(randgame.choices(g)))
    t, changed = twin(g, 1, settings)
    assert changed == 2 and t.choices[0] != g.choices[0]
    assert ai.observe(t, 1) == ai.observe(g, 1)
    assert [p[1:] for p in t.piles] != [p[1:] for p in g.piles] and t.bj_deck != g.bj_deck


def test_no_peeking_on_micropython(mpy):
    for seed in (0, 3):
        out = mpy.run_script("tests/mp/halunken_ai.py", "peek", str(seed), timeout=300)
        decisions, changed, by_choice, differing = json.loads(out.strip().splitlines()[-1])
        assert differing == [] and changed == len(decisions) and by_choice > 0
        assert decisions == [list(d) for d in peek_check(seed)[0]]  # the same player


# ---------------------------------------------------------------------- decisions

@pytest.mark.parametrize("players,mode", [(3, "standard"), (4, "standard"), (3, "beginner"),
                                          (4, "beginner"), (2, "tactical")])
def test_every_decision_is_legal_in_every_mode(players, mode):
    n = players
    for i, lineup in enumerate((["ai"] * n, ["ai", "random"] * 2, ["greedy", "ai"] * 2)):
        res = duelgames.play_game({"players": n, "mode": mode, "seed": 30 + i},
                                  lineup[:n], 30 + i)
        assert res["winners"] and len(res["scores"]) == n  # checked action by action


def test_a_kind_the_ai_does_not_know_is_still_answered():
    obs = {"seat": 0}
    assert ai.decide(obs, [("take", 5), ("take", 7)]) == ("take", 5)  # the first of equals
    assert ai.decide(obs, [("undo",)]) is None


def test_it_takes_the_better_theft_and_declines_a_harmful_one():
    g = game.new_state(None, {"players": 3, "mode": "beginner", "seed": 1})
    obs = ai.observe(g, 0)
    obs["crews"] = [[0, 1, 2], [41, 3], []]  # RED-1..3 against YELLOW-12, RED-4
    obs["from"] = [1]
    acts = [("steal", 41), ("steal", 3), ("steal", -1)]
    assert ai.decide(obs, acts) == ("steal", 41)
    # H11, H14: RED-9 and YELLOW-1 score 10 + 9 (a tie of counts doubles the higher sum);
    # with YELLOW-2 yellow is the majority: 12 + 3. Declining is better.
    obs["crews"] = [[8, 30], [31], []]
    assert ai.decide(obs, [("steal", 31), ("steal", -1)]) == ("steal", -1)


def test_a_robbed_seat_gives_its_least_costly_card():
    g = game.new_state(None, {"players": 3, "mode": "standard", "seed": 1})
    obs = ai.observe(g, 1)
    obs["crews"] = [[], [30, 31, 41, 0], []]
    obs["robs"] = [[1, 1]]  # nobody bid: p2 gives a card to the port (H23)
    acts = [("rob", c) for c in (0, 30, 31, 41)]
    assert ai.decide(obs, acts) == ("rob", 0)


def test_choose_is_none_when_it_is_not_the_seats_turn():
    g = game.new_state(None, {"players": 3, "mode": "beginner", "seed": 1})
    assert ai.choose(g, 1) is None and ai.choose(g, 0)[0] == "place"


# ---------------------------------------------------------------------- the duel

def test_duel_games_are_the_same_on_micropython(mpy):
    spec = {"players": 3, "mode": "standard", "lineup": ["ai", "greedy", "random"],
            "games": 3, "seed": 4}
    out = mpy.run_script("host_tools/games/halunken/duelgames.py", json.dumps(spec),
                         timeout=300)
    got = json.loads(out.strip().splitlines()[-1])
    want = duelgames.duel(spec)
    assert (got["wins"], got["played"]) == (want["wins"], want["played"])
    assert len(got["times_us"]) == len(want["times_us"]) > 0


def run_duel(*args):
    return subprocess.run([sys.executable, "-m", "host_tools", "duel", "--game", "halunken"]
                          + list(args), cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_duel_prints_rates_per_player_and_seat():
    proc = run_duel("--games", "3", "--seed", "2")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("3 games, 3 players, standard, lineup ai,greedy,random")
    assert "a fair share is 33.3%" in lines[0]
    assert lines[1].split() == ["player", "wins", "rate", "p1", "p2", "p3"]
    rows = [line.split() for line in lines[2:5]]
    assert [r[0] for r in rows] == ["ai(1)", "greedy(2)", "random(3)"]
    assert abs(sum(float(r[1]) for r in rows) - 3.0) < 0.01  # shared wins add up to 1 a game
    assert lines[5].startswith("AI time per decision (")
    proc = run_duel("--games", "4", "--players", "4", "--mode", "beginner", "--json")
    out = json.loads(proc.stdout)
    assert out["lineup"] == ["ai", "greedy", "random", "greedy"] and out["share"] == 0.25
    assert [len(p["by_seat"]) for p in out["results"]] == [4] * 4
    assert all(r is not None for p in out["results"] for r in p["by_seat"])  # a game a seat


def test_duel_tactical_and_the_projection_on_micropython(mpy):
    proc = run_duel("--games", "2", "--players", "2", "--runtime", "micropython")
    assert proc.returncode == 0, proc.stderr
    assert "2 players, tactical, lineup ai,greedy" in proc.stdout
    assert "RP2040 projection (x100, a projection, not a measurement)" in proc.stdout
    assert "Allocated per decision (unix port, 64-bit objects): median " in proc.stdout


@pytest.mark.parametrize("args,words", [
    (("--lineup", "ai,chess,random"), "unknown player 'chess'"),
    (("--lineup", "ai,greedy"), "the lineup names 2 players for 3 seats"),
    (("--players", "2", "--mode", "standard"), "mode standard is for 3 or 4 players"),
])
def test_duel_refuses_bad_arguments_in_one_line(args, words):
    proc = run_duel(*args)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == "duel: %s\n" % words or (
        words in proc.stderr and proc.stderr.count("\n") == 1), proc.stderr
