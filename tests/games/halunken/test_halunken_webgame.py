"""Halunken's side of the browser page (host_tools/games/halunken/webgame.py through
host_tools/web/game.py) without a browser: whole hot-seat games by the page's requests in
every mode, the same game in the MicroPython unix port, the secret choice invisible in
the state, the frame and the words until the reveal, the form's settings and bad requests."""

import json
import os

import halunken_webplayer
import pytest

import gamekit
from host_tools import mpy
from host_tools.web import game as webgame

ROOT = gamekit.ROOT
BOARD = os.path.join(ROOT, "board_def", "halunken.json")


def call(req):
    return json.loads(webgame.handle(json.dumps(req)))


def start(seed, options=()):
    return {"op": "start", "board": BOARD, "seed": seed, "options": list(options)}


@pytest.mark.parametrize("seed,options", [
    (1, ["players=3"]), (2, ["players=4", "mode=beginner", "first=p3"]),
    (3, ["players=2"]), (4, ["players=4", "mode=standard"])])
def test_whole_hot_seat_games_by_the_pages_requests(seed, options):
    seen = []

    def checked(req):
        resp = call(req)
        if "state" in resp:
            assert "hidden" not in resp["state"]["report"], req
            assert "seed" not in resp["state"]["settings"], req  # it would tell the piles
            seen.append(resp["state"]["report"]["step"])
        return resp

    final, steps, _ = halunken_webplayer.play_game(checked, start(seed, options))
    rep = final["state"]["report"]
    assert rep["phase"] == "over" and rep["round"] == 8 and rep["winner"]
    assert final["state"]["hint"].startswith("The game is over: won by")
    for step in ("place", "auction", "choose", "reveal"):
        if step != "auction" or rep["mode"] != "beginner":
            assert step in seen


def choice_seen(seed, index):
    """After p1 chose its `index`-th card: the state, the frame after a second, p1's cards
    as the page lists them, and the state and frame once p2 has chosen too."""
    call(start(seed, ["players=3"]))
    for t in ("T1", "T5", "T9"):
        call({"op": "pick", "option": t})
    state = call({"op": "state"})["state"]
    while state["report"]["step"] != "choose":
        if state["report"]["step"] == "place-bj":
            state = call({"op": "pick", "option": state["ui"]["options"][0]})["state"]
        else:
            state = call({"op": "press", "button": "done"})["state"]
    card = call({"op": "hand", "player": "p1"})["cards"][index]
    after = call({"op": "tap", "card": card})
    leds = call({"op": "tick", "ms": 1000})["leds"]
    cards = call({"op": "hand", "player": "p1"})["cards"]
    p2 = call({"op": "tap", "card": "P2-2"})
    return card, (after["state"], after["leds"], leds, cards, p2["state"], p2["leds"])


def test_nothing_outside_the_controller_tells_which_card_was_chosen():
    # 8.3: every choice of p1 gives the same state, words, frames and lists.
    first_card, first = choice_seen(6, 0)
    assert first[0]["message"]["text"] == "p1 has chosen"
    assert first[0]["report"]["chosen"] == 1 and first[4]["report"]["chosen"] == 2
    assert first_card == "P1-1" and "P1-1" in first[3]  # not played yet: still listed
    for index in range(1, 8):
        card, seen = choice_seen(6, index)
        assert card != first_card and seen == first, card


def test_the_forms_settings_and_what_the_state_shows_of_them():
    state = call(start(9, ["players=4", "mode=beginner", "first=p2"]))["state"]
    assert state["settings"] == {"players": 4, "mode": "beginner", "deal": "seed",
                                 "first": "p2"}
    assert state["report"]["turn"] == "p2" and state["report"]["players"] == 4
    assert state["message"]["text"] == "New game: 4 players, beginner game, p2 places first."
    state = call({"op": "new_game", "seed": 3, "options": ["players=2"]})["state"]
    assert state["report"]["mode"] == "tactical"


@pytest.mark.parametrize("req,words", [
    ({"op": "fly"}, "unknown request 'fly'"),
    ({"op": "press", "button": "jump"}, "unknown button 'jump'"),
    ({"op": "tap", "card": 5}, "a card is named by a text"),
    ({"op": "tap", "card": "NOPE-1"}, "'NOPE-1' is not one of Halunken's cards (cards are"),
    ({"op": "tap", "card": "p1-3"}, "'p1-3' is not one of Halunken's cards"),
    ({"op": "tap", "card": "uid:zz"}, "'uid:zz' is no tag: zz is not a 4-, 7- or 10-byte"),
    ({"op": "tap"}, 'tap names its card: {"op": "tap", "card": "P1-3"}'),
    ({"op": "press"}, "press names its button"),
    ({"op": "pick"}, "pick names its option"),
    ({"op": "pick", "option": 4}, "an option is a tavern"),
    ({"op": "hand", "player": "p4"}, "player must be one of p1, p2, p3"),
    ({"op": "new_game", "seed": 1, "options": ["players=5"]}, "players must be 2, 3 or 4"),
    ({"op": "new_game", "seed": 1, "options": ["players=2", "mode=standard"]},
     "the options disagree"),
    ({"op": "new_game", "seed": 1, "options": ["pile.T1=RED-1,RED-2,RED-3"]},
     "not the page's"),
    ({"op": "new_game", "seed": 1, "options": "players=3"}, "options must be a list"),
])
def test_bad_requests_answer_with_the_reason_and_change_nothing(req, words):
    before = call(start(8))
    resp = call(req)
    assert resp["ok"] is False and words in resp["error"], resp
    assert resp["error"].startswith("WebError: "), resp  # said by the page's side, not
    # a bare error from deep in the simulator (an unknown card gave `tuple.index`)
    assert call({"op": "state"})["state"] == before["state"]


def test_a_tag_that_is_no_card_is_the_boards_to_refuse():
    call(start(8))
    state = call({"op": "tap", "card": "uid:01020304"})["state"]
    assert state["message"]["kind"] == "refused" and state["message"]["code"] == "unknown-card"


def test_web_build_takes_halunken_as_the_pages_default_game(capsys):
    from host_tools.web import build, live
    assert live._build_game(["--game", "halunken", "--out", "x"]) == [
        "--out", "x", "--board", BOARD]
    assert build.offered("halunken")[0] == "halunken" and "kahuna" in build.offered()
    assert live._build_game(["--game", "chess"]) is None
    assert capsys.readouterr().err.startswith("web: unknown game 'chess' (the games: ")


@pytest.mark.parametrize("options", [["players=3", "ai=p2,p3"],
                                     ["players=4", "mode=beginner", "ai=p1,p3,p4"]])
def test_a_whole_game_against_the_boards_players(options):
    """The form offers the board's players (the scenario language takes `option ai=...`):
    the person plays its seat by the page's requests, the board the others as `sim --ai`
    does, to the end; the page never gets a board seat's hand, nor its choice before the
    reveal."""
    assert call(start(8))["state"]["board_players"] is True
    board = options[-1].split("=")[1].split(",")
    human = [s for s in ("p1", "p2", "p3", "p4")[:int(options[0][-1])] if s not in board]
    assert call({"op": "new_game", "seed": 5, "options": options})["ok"]
    for seat in board:
        resp = call({"op": "hand", "player": seat})
        assert resp["ok"] is False  # the board's hand is never the page's

    def checked(req):
        resp = call(req)
        for _ in range(30 if "state" in resp else 0):  # the page's animation ticks: the
            rep = resp["state"]["report"]  # board's seats play on after the walks they await
            if rep["phase"] == "over" or rep["step"] == "reveal" or rep["turn"] not in board:
                break
            ticked = call({"op": "tick", "ms": 1000})
            if "state" in ticked:  # what the board did comes with the frame, unasked
                resp = ticked
        if "state" in resp:
            assert resp["state"] == call({"op": "state"})["state"]  # and it is the latest
            rep = resp["state"]["report"]
            assert "hidden" not in rep
            assert resp["state"]["solo"]["ai"] == board
            if rep["step"] == "choose":
                assert rep["figure"] in human or rep["turn"] in human, rep
        return resp

    final, steps, refused = halunken_webplayer.play_game(checked, {"op": "state"})
    assert final["state"]["report"]["phase"] == "over" and not refused
    assert steps < 400  # the person's requests only: the board's seats need none


def test_a_refused_tap_is_explained():
    call(start(8))
    state = call({"op": "tap", "card": "P2-3"})["state"]
    assert state["message"] == {"kind": "refused", "code": "wrong-phase",
                                "text": "not now: no movement card is chosen in step place"}


SCRIPT = """
import json, sys
import halunken_webplayer
from host_tools.web import game as webgame
def call(req):
    return json.loads(webgame.handle(json.dumps(req)))
final, steps, refused = halunken_webplayer.play_game(call, json.loads(sys.argv[1]))
print(json.dumps({"steps": steps, "final": final}))
"""


@pytest.mark.micropython
def test_the_same_whole_game_in_the_micropython_unix_port(tmp_path):
    req = start(12, ["players=3", "mode=standard"])
    script = tmp_path / "game.py"
    script.write_text(SCRIPT)
    proc = mpy.run(str(script), args=[json.dumps(req)], heap="8M",
                   extra_path=[os.path.join(ROOT, "tests", "games", "halunken")])
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    final, steps, _ = halunken_webplayer.play_game(call, req)
    assert got["steps"] == steps
    assert got["final"] == final


def board_to_act_after_a_click(seeds, board):
    """A game against the board's players and the state right after a person's click
    that left a board's seat to act (its move falls in a later tick): (state, the click's
    message text)."""
    for seed in seeds:
        resp = call({"op": "new_game", "seed": seed, "options": ["players=3",
                                                                  "ai=" + ",".join(board)]})
        for _ in range(6):
            rep = resp["state"]["report"]
            if rep["phase"] == "over" or rep["turn"] in board or rep["step"] == "reveal":
                break
            resp = call(halunken_webplayer.move(call, resp["state"]))
            if resp["state"]["report"]["turn"] in board:
                return resp["state"]
    raise AssertionError("no click left a board's seat to act (seeds %r)" % (seeds,))


def test_what_the_board_does_between_requests_comes_with_the_tick():
    """The board's players act in its ticks (Halunken's wait while a figure walks, and
    each needs a tick of its own): a person's click often ends with one of them still to
    act. The page's next tick brings the new state and the board's words, unasked; a tick
    in which the board had no event brings the frame alone."""
    call(start(8))
    board = ["p2", "p3"]
    clicked = board_to_act_after_a_click(range(20, 60), board)
    seat = clicked["report"]["turn"]
    assert clicked["solo"]["asks"] == "the board plays %s" % seat
    ticks = [call({"op": "tick", "ms": 20}) for _ in range(100)]
    moved = [t for t in ticks if "state" in t]
    assert moved, "no tick brought the board's move"
    state = moved[-1]["state"]
    latest = call({"op": "state"})["state"]
    assert state["now"] < latest["now"]  # virtual time went on, but nothing else changed
    assert dict(state, now=0) == dict(latest, now=0)
    assert state["report"] != clicked["report"]
    assert state["message"]["text"].startswith(clicked["message"]["text"])
    assert len(state["message"]["text"]) > len(clicked["message"]["text"])  # its words
    assert "hidden" not in state["report"]
    quiet = ticks[ticks.index(moved[-1]) + 1:]
    assert quiet and all(set(t) == {"ok", "leds", "now"} for t in quiet)
