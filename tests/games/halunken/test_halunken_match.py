"""A match of several games added up (H16; issue 17): setting `games` (1 to 3) on the board.
The held `done` after a game of the match deals the next one (a new seed with a dealt deck,
a new set-up at a table) with the totals carried; the last game names the winners by total
(equal highest all win, as H15) and lights them; a power cut mid-match comes back with the
game number and the totals; the buttons' menu offers `games`. The platform part runs as a
script (match_play.py) on CPython and on the MicroPython unix port, with the same output.
The simulator's scenarios stay one game (the sim contract): `option games` is exit 2."""

import json
import os
import subprocess
import sys

import pytest

from games.halunken import game, report, settings
from host_tools.games.halunken import verbs
from host_tools.simulator.scenario import ScenarioError
from mpy_runner import MicroPython

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
SCRIPT = "tests/games/halunken/match_play.py"


def checks(text):
    return {row["check"]: row["value"] for row in
            (json.loads(line) for line in text.strip().splitlines())}


def cpython_output():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "firmware"), ROOT,
                                         os.path.join(ROOT, "tests")])
    return subprocess.run([sys.executable, os.path.join(ROOT, SCRIPT)], env=env, cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout


def check(c):
    # The held button starts nothing while a game of the match is under way.
    assert c["held-mid-game"] == ["refused", "wrong-phase", 1]
    games = c["games"]
    assert [g["match"]["game"] for g in games] == [1, 2, 3]
    assert all(g["match"]["of"] == 3 and g["step"] == "place" for g in games)
    assert all(g["seed_hidden"] for g in games)  # the link never shows a seed (8.3)
    assert len({g["seed"] for g in games}) == 3  # each game a new deal
    # H16: the totals carried into each game are the sums of the games before.
    running = {"p1": 0, "p2": 0, "p3": 0}
    for g in games:
        assert g["match"]["totals"] == running
        running = {s: running[s] + g["scores"][s] for s in running}
        assert g["end"]["totals"] == running
    # Only the last game names the match's winners: the highest totals (H16, H15).
    assert [g["end"]["winner"] for g in games[:2]] == [None, None]
    best = max(running.values())
    assert games[2]["end"]["winner"] == sorted(s for s in running if running[s] == best)
    # Each game keeps its own winner (H15) and lights it at its end (8.1).
    for g in games:
        top = max(g["scores"].values())
        assert g["winner"] == sorted(s for s in g["scores"] if g["scores"][s] == top)
    assert [g["lit"] for g in games[:2]] == [games[0]["winner"], games[1]["winner"]]
    assert games[2]["lit"] == games[2]["end"]["winner"]
    # A power cut in game 2: the same position, the game number and the totals.
    same_state, same_totals, same_settings, k, carried = c["power-cut"]
    assert same_state and same_totals and same_settings and k == 2
    assert carried == [games[0]["scores"][s] for s in ("p1", "p2", "p3")]
    # After the match's last game the held button starts a new match.
    m, step, over = c["after-match"]
    assert m == {"game": 1, "of": 3, "totals": {"p1": 0, "p2": 0, "p3": 0},
                 "winner": None} and step == "place" and not over
    # At a table the next game is a new physical set-up, the totals carried.
    m, step, deal, carried_ok = c["table-next"]
    assert m["game"] == 2 and step == "place" and deal == "table" and carried_ok
    # The last game's winners are by total, not the game's own (p1 carried 500).
    own, m, lit = c["by-total"]
    assert own == ["p3"] and m["winner"] == ["p1"] and lit == ["p1"]
    assert m["totals"]["p1"] >= 500
    # The menu: players, mode, games on the seat lights; games 3 mid-match is a new
    # match (game 1, nothing carried, a new seed); a mode that does not go with the
    # players is bad-settings and changes nothing; games 1 drops the match from the
    # settings and the link's state; the journal keeps the menu's settings.
    items, closed, games_set, match, reseeded = c["menu-3"]
    assert items == [["players", 3], ["games", 2], ["games", 3]]
    assert closed and games_set == 3 and reseeded
    assert match == {"game": 1, "totals": {"p1": 0, "p2": 0, "p3": 0}}
    assert c["menu-bad"] == ["refused", "bad-settings", True, True]
    assert c["menu-1"] == [True, 4, "standard", False, False, False]
    assert c["menu-journaled"] is True


def test_a_match_through_the_platform_on_cpython():
    check(checks(cpython_output()))


@pytest.mark.micropython
def test_a_match_through_the_platform_on_micropython():
    out = checks(MicroPython(heap_kib=512).run_script(SCRIPT, timeout=300))
    check(out)
    assert out == checks(cpython_output())


def test_H16_games_is_a_setting_of_one_to_three_games():
    assert "games" not in settings.check_settings({"games": 1})  # one game as before
    assert settings.check_settings({"games": 1}) == settings.check_settings({})
    s = settings.check_settings({"players": 4, "games": 3})
    assert s["games"] == 3
    assert s["match"] == {"game": 1, "totals": {"p1": 0, "p2": 0, "p3": 0, "p4": 0}}
    later = {"players": 2, "games": 2, "match": {"game": 2, "totals": {"p1": 7, "p2": 9}}}
    assert settings.check_settings(later)["match"] == later["match"]
    g = game.new_state(None, later)
    assert (g.game_k, g.games, g.carried) == (2, 2, [7, 9])


@pytest.mark.parametrize("bad,words", [
    ({"games": 4}, "games must be a whole number 1 to 3"),
    ({"games": 0}, "games must be a whole number 1 to 3"),
    ({"games": "2"}, "games must be"),
    ({"games": True}, "games must be"),
    ({"match": {"game": 1}}, "match needs games 2 to 3"),
    ({"games": 2, "match": {"game": 3, "totals": {"p1": 0, "p2": 0, "p3": 0}}},
     "match.game must be a whole number 1 to 2"),
    ({"games": 2, "match": {"game": 2, "totals": {"p1": 0, "p2": 0}}},
     "every seat p1..p3"),
    ({"games": 2, "match": {"game": 2, "totals": {"p1": 0, "p2": 0, "p3": 0, "p4": 0}}},
     "every seat p1..p3"),
    ({"games": 2, "match": {"game": 1, "totals": {"p1": 5, "p2": 0, "p3": 0}}},
     "nothing is carried into game 1"),
    ({"games": 2, "match": {"game": 2, "totals": {"p1": -1, "p2": 0, "p3": 0}}},
     "match.totals.p1 must be a whole number 0 to 99999"),
    ({"games": 2, "match": {"game": 2, "turn": 1}}, "match must be"),
    ({"games": 2, "match": [2]}, "match must be"),
])
def test_H16_bad_match_settings_are_refused_with_their_fault(bad, words):
    with pytest.raises(ValueError) as e:
        settings.check_settings(bad)
    assert words in str(e.value)


def test_H16_a_one_game_report_has_no_match_key():
    """The sim contract's reports are one game: their keys do not change."""
    g = game.new_state(None, {"players": 3, "seed": 1})
    assert "match" not in report.game(g)
    m = game.new_state(None, {"players": 3, "seed": 1, "games": 2})
    assert report.game(m)["match"] == {"game": 1, "of": 2, "winner": None,
                                       "totals": {"p1": 0, "p2": 0, "p3": 0}}


def test_H16_fresh_settings_follow_a_finished_game_only_within_the_match():
    base = {"players": 3, "seed": 6, "games": 2}
    unfinished = game.new_state(None, base)
    # Not over: a new match (e.g. the menu mid-game), never the next game.
    assert game.fresh_settings(base, 1, unfinished)["match"]["game"] == 1
    assert game.fresh_settings(base, 1)["match"]["game"] == 1
    # A stale match with games changed to 1 is dropped, not refused.
    stale = dict(base, games=1, match={"game": 2, "totals": {"p1": 1, "p2": 2, "p3": 3}})
    assert "match" not in game.fresh_settings(stale, 1)


def test_H16_scenarios_play_one_game():
    """The sim contract: "There is no `games=N` in a scenario" (exit 2, test_halunken_sim)."""
    for arg in ("games=2", "match=2"):
        with pytest.raises(ScenarioError) as e:
            verbs.check_option(arg, 1)
        assert "unknown option" in str(e.value)
