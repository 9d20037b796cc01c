"""A game on the web page replays the same whatever time passed before its new game
(host_tools/web/game.py: a new game is a new simulator, its clock at 0). The page keeps a
game as its requests from its new game on and replays them after a reload
(web/js/localgame.js); the board's own players act on the firmware's task ticks, so with
the clock going on from the game before, a replay ran on a shifted grid: Halunken's p3
had not yet placed Black-Jack when p1's click was replayed, the check failed, and the
kept game was lost (tests/games/halunken/test_halunken_web_keep.py flaked)."""

import json
import os

import pytest

import gamekit
from host_tools.web import game as webgame

FRAMES = (17, 16, 33, 17, 50, 16)  # the page's animation frames, irregular
GAMES = {
    # game: (the new game's options, the requests after it: ms of a frame, or a request)
    "halunken": (["players=3", "first=p1", "ai=p2,p3"],
                 [119, {"op": "pick", "option": "T1"}, 17, 300, 1000]),
    "kami": (["players=3", "first=p2", "ai=p2,p3"], [17, 33, 300, 1000]),
    "kahuna": (["ai=black"], [17, 33, 300, 1000]),
}


def call(req):
    resp = json.loads(webgame.handle(json.dumps(req)))
    assert resp["ok"], (req, resp)
    return resp


def played(game, before_ms):
    """The states the page was shown from the new game on, after `before_ms` of the game
    before it (the clock apart: the page's check leaves it out too)."""
    options, script = GAMES[game]
    board = os.path.join(gamekit.ROOT, "board_def", game + ".json")
    call({"op": "start", "board": board, "options": [], "seed": 7})
    for i in range(before_ms):  # frame by frame, as the page's loop ticks
        call({"op": "tick", "ms": FRAMES[i % len(FRAMES)]})
    shown = [call({"op": "new_game", "options": options, "seed": 5})["state"]]
    for step in script:
        if isinstance(step, int):
            resp = call({"op": "tick", "ms": step})
            if "state" in resp:
                shown.append(resp["state"])
        else:
            shown.append(call(step)["state"])
    shown.append(call({"op": "state"})["state"])
    for st in shown:
        st.pop("now")
    return shown


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_new_games_play_does_not_depend_on_the_time_before_it(game):
    alone = played(game, 0)  # the replay's: its new game comes right after the start
    for frames in (1, 2, 3, 5, 8, 13):
        assert played(game, frames) == alone, frames


def test_bad_settings_for_a_new_game_change_nothing():
    board = os.path.join(gamekit.ROOT, "board_def", "halunken.json")
    call({"op": "start", "board": board, "options": ["players=4"], "seed": 7})
    call({"op": "pick", "option": "T1"})
    before = call({"op": "state"})["state"]
    resp = json.loads(webgame.handle(json.dumps(
        {"op": "new_game", "options": ["players=9"], "seed": 5})))
    assert not resp["ok"] and "players" in resp["error"] and "\n" not in resp["error"]
    assert call({"op": "state"})["state"] == before
