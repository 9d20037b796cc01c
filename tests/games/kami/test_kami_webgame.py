"""Kami's side of the browser page (host_tools/games/kami/webgame.py through
host_tools/web/game.py) without a browser: whole hot-seat games by the page's requests for
2, 3 and 4 players, the same game in the MicroPython unix port, the hidden cards invisible
in the state, the frame and the words (the face-down defence swapped, or another seed with
the same public history: the same answers), the form's settings, bad requests and games
against the board's players."""

import json
import os

import kami_webplayer
import pytest

import gamekit
from host_tools import mpy
from host_tools.web import game as webgame

ROOT = gamekit.ROOT
BOARD = os.path.join(ROOT, "board_def", "kami.json")


def call(req):
    return json.loads(webgame.handle(json.dumps(req)))


def start(seed, options=()):
    return {"op": "start", "board": BOARD, "seed": seed, "options": list(options)}


def face_down_named(rep):
    return [e for line in rep["lines"].values() for part in ("defence", "attack")
            for e in line[part] if e["face"] == "down" and e["card"] is not None]


@pytest.mark.parametrize("seed,options", [
    (1, ["players=2", "target=10"]), (2, ["players=3", "mode=seigneur", "target=8"]),
    (3, ["players=4", "first=p3"]), (4, ["players=4", "mode=kami", "target=6"])])
def test_whole_hot_seat_games_by_the_pages_requests(seed, options):
    seen = set()

    def checked(req):
        resp = call(req)
        if "state" in resp:
            st = resp["state"]
            assert "hidden" not in st["report"] and "hands" not in st["report"], req
            assert "seed" not in st["settings"], req  # it would tell every hand
            assert face_down_named(st["report"]) == [], req
            seen.add(st["report"]["step"])
        return resp

    final, steps, _ = kami_webplayer.play_game(checked, start(seed, options))
    rep = final["state"]["report"]
    assert rep["phase"] == "over" and rep["winner"] and rep["rounds"]
    target = rep["target"]
    if rep["mode"] == "soldat":
        assert rep["scores"][rep["winner"]] >= target
    else:
        assert rep["scores"][rep["winner"]] == target
    assert final["state"]["hint"] == ("The game is over: won by %s. Set up a new game below."
                                      % rep["winner"])
    assert "the game is over: won by %s" % rep["winner"] in final["state"]["message"]["text"]
    assert {"open", "attack", "respond"} <= seen
    assert call({"op": "hand", "player": "p1"})["ok"]  # still answered: the table's cards


def opened(seed, defence, attack):
    """p1 lays `defence` face down and attacks with `attack`, p2 passes: the answers seen
    (state and frame after each, and a second later)."""
    out = [call(start(seed, ["players=4"]))]
    out.append(call({"op": "tap", "card": defence}))
    out.append(call({"op": "tick", "ms": 1000}))
    out.append(call({"op": "tap", "card": attack}))
    out.append(call({"op": "press", "button": "done"}))
    out.append(call({"op": "tick", "ms": 1000}))
    assert out[-2]["state"]["message"]["kind"] == "accepted"
    return out


def hand_of(seed, seat="p1"):
    call(start(seed, ["players=4"]))
    return call({"op": "hand", "player": seat})["cards"]


def test_the_face_down_defence_swapped_gives_the_same_answers():
    # 8.3: whichever card p1 lays face down, the page sees the same state, words, frames.
    hand = hand_of(6)
    attack = next(c for c in hand if not c.startswith("IMPERATRICE"))
    others = [c for c in hand if c != attack]
    first = opened(6, others[0], attack)
    assert first[1]["state"]["message"]["text"] == "p1 lays a defence face down"
    assert first[1]["state"]["report"]["lines"]["p1"]["defence"] == [
        {"card": None, "face": "down", "from": "hand"}]
    for card in others[1:]:
        assert opened(6, card, attack) == first, card


def test_another_seed_with_the_same_public_history_gives_the_same_answers():
    # Two deals where p1 holds the same attack card but lays a different card face down:
    # nothing the page gets (the seed is never in it) tells the deals apart.
    hand_a = hand_of(1)
    for seed in range(2, 200):
        hand_b = hand_of(seed)
        common = [c for c in hand_a if c in hand_b and not c.startswith("IMPERATRICE")]
        only_a = [c for c in hand_a if c not in hand_b]
        only_b = [c for c in hand_b if c not in hand_a]
        if common and only_a and only_b:
            break
    else:
        raise AssertionError("no second seed found")
    a = opened(1, only_a[0], common[0])
    b = opened(seed, only_b[0], common[0])
    assert a == b
    assert hand_a != hand_b


def test_a_refused_face_down_defence_names_no_card():
    call(start(6, ["players=4"]))
    mine = call({"op": "hand", "player": "p1"})["cards"]
    theirs = call({"op": "hand", "player": "p2"})["cards"]
    seen = []
    for card in theirs[:3]:
        st = call({"op": "tap", "card": card})["state"]
        assert st["message"]["code"] == "card-not-in-hand"
        assert card not in json.dumps(st)
        seen.append(st["message"])
    assert seen[0]["text"] == "the card is not named (a face-down defence)"
    assert seen.count(seen[0]) == 3
    assert call({"op": "state"})["state"]["report"]["hand_sizes"]["p1"] == 8
    st = call({"op": "tap", "card": "uid:04AABBCCDDEEFF"})["state"]  # not a card: said as such
    assert st["message"]["code"] == "unknown-card"
    # A counter's refusal may name the card (the seat's own, face up): it does.
    call({"op": "tap", "card": mine[0]})
    attack = next(c for c in mine[1:] if not c.startswith("IMPERATRICE"))
    call({"op": "tap", "card": attack})
    wrong = next(c for c in theirs if c.rpartition("-")[0] not in (
        attack.rpartition("-")[0], "IMPERATRICE"))
    st = call({"op": "tap", "card": wrong})["state"]
    assert st["message"]["code"] == "not-a-counter" and wrong in st["message"]["text"]


def test_the_hand_is_one_seats_and_only_on_request():
    state = call(start(3, ["players=3"]))["state"]
    assert "SOLDAT" not in json.dumps(state["report"]).replace('"card": null', "")
    hands = [call({"op": "hand", "player": s})["cards"] for s in ("p1", "p2", "p3")]
    assert [len(h) for h in hands] == [10, 10, 10]
    assert not set(hands[0]) & set(hands[1]) and not set(hands[1]) & set(hands[2])
    assert call({"op": "state"})["state"] == state  # asking changes nothing


def test_the_forms_settings_and_what_the_state_shows_of_them():
    state = call(start(9, ["players=3", "mode=kami", "first=p2", "target=12"]))["state"]
    assert state["settings"] == {"players": 3, "mode": "kami", "first": "p2", "target": 12,
                                 "deal": "seed"}
    assert state["report"]["turn"] == "p2" and state["acting"] == "p2"
    assert state["message"]["text"] == "New game: 3 players, kami to 12, p2 opens."
    assert state["hint"].startswith("p2 shows its hand and clicks a card to lay face down")
    state = call({"op": "new_game", "seed": 3, "options": ["players=2"]})["state"]
    assert state["report"]["players"] == 2 and len(state["report"]["centre"]) == 8
    assert all(s["up"] and s["left"] == 2 for s in state["report"]["centre"])


@pytest.mark.parametrize("req,words", [
    ({"op": "fly"}, "unknown request 'fly'"),
    ({"op": "press", "button": "jump"}, "unknown button 'jump'"),
    ({"op": "tap", "card": 5}, "a card is named by a text"),
    ({"op": "tap", "card": "NOPE-3"}, "'NOPE-3' is not one of Kami's cards"),
    ({"op": "tap", "card": "uid:04AA"}, "is not a 4-, 7- or 10-byte tag UID"),
    ({"op": "pick", "seat": "p9"}, "pick names a seat p1..p4"),
    ({"op": "hand", "player": "p4"}, "player must be one of p1, p2, p3"),
    ({"op": "new_game", "seed": 1, "options": ["players=5"]}, "players must be 2, 3 or 4"),
    ({"op": "new_game", "seed": 1, "options": ["players=2", "first=p3"]},
     "the options disagree"),
    ({"op": "new_game", "seed": 1, "options": ["seed=4"]}, "not the page's"),
    ({"op": "new_game", "seed": 1, "options": ["deal=table"]}, "not the page's"),
    ({"op": "new_game", "seed": 1, "options": ["target=16"]}, "target must be a whole"),
    ({"op": "new_game", "seed": 1, "options": "players=3"}, "options must be a list"),
])
def test_bad_requests_answer_with_the_reason_and_change_nothing(req, words):
    before = call(start(8, ["players=3"]))
    resp = call(req)
    assert resp["ok"] is False and words in resp["error"], resp
    assert "Traceback" not in resp["error"]
    assert call({"op": "state"})["state"] == before["state"]


@pytest.mark.parametrize("options", [["players=2", "ai=p2"], ["players=3", "ai=p1,p3"],
                                     ["players=4", "ai=p2,p4", "first=p2"],
                                     ["players=4", "ai=p1,p2,p4", "mode=seigneur"]])
def test_a_whole_game_against_the_boards_players(options):
    """The form offers the board's players (the scenario language takes `option ai=...`):
    the people play their seats by the page's requests, the board the others after each
    request, to the end; the page never gets a board seat's hand."""
    assert call(start(8))["state"]["board_players"] is True
    board = options[1].split("=")[1].split(",")
    first = call({"op": "new_game", "seed": 5, "options": options})
    assert first["ok"] and first["state"]["solo"]["ai"] == board
    for seat in board:
        resp = call({"op": "hand", "player": seat})
        assert resp["ok"] is False and "its cards are its own" in resp["error"]

    attacked = set()  # the seats seen with an attack card on the table

    def checked(req):
        resp = call(req)
        if "state" in resp:
            st = resp["state"]
            assert face_down_named(st["report"]) == []
            attacked.update(s for s, line in st["report"]["lines"].items() if line["attack"])
            if st["report"]["phase"] != "over":
                assert st["acting"] not in board, st["report"]  # a person is to act
        return resp

    final, steps, _ = kami_webplayer.play_game(checked, {"op": "state"})
    rep = final["state"]["report"]
    assert rep["phase"] == "over" and rep["winner"]
    assert set(board) <= attacked  # the board's seats played by themselves


def test_a_refused_tap_is_explained():
    call(start(8, ["players=4"]))
    state = call({"op": "press", "button": "done"})["state"]
    assert state["message"]["kind"] == "refused" and state["message"]["code"] == "wrong-phase"
    assert state["message"]["text"]


SCRIPT = """
import json, sys
import kami_webplayer
from host_tools.web import game as webgame
def call(req):
    return json.loads(webgame.handle(json.dumps(req)))
final, steps, refused = kami_webplayer.play_game(call, json.loads(sys.argv[1]))
print(json.dumps({"steps": steps, "final": final}))
"""


@pytest.mark.micropython
def test_the_same_whole_game_in_the_micropython_unix_port(tmp_path):
    req = start(12, ["players=3", "target=8"])
    script = tmp_path / "game.py"
    script.write_text(SCRIPT)
    proc = mpy.run(str(script), args=[json.dumps(req)], heap="8M",
                   extra_path=[os.path.join(ROOT, "tests", "games", "kami")])
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    final, steps, _ = kami_webplayer.play_game(call, req)
    assert got["steps"] == steps
    assert got["final"] == final


def test_a_five_soldier_claim_by_the_pages_requests():
    # K11, 4 players: p3 (seed 10) holds five Soldiers; it claims, shows them, its partner
    # p1 cancels the round: dealt again, the same first player, nothing scored.
    call(start(10, ["players=4"]))
    dealt = call({"op": "hand", "player": "p3"})["cards"]
    soldiers = [c for c in dealt if c.startswith("SOLDAT")]
    assert len(soldiers) == 5
    st = call({"op": "press", "button": "discard"})["state"]
    assert st["report"]["phase"] == "claim" and st["message"]["text"] == (
        "a 5-Soldier claim is opened")
    assert st["hint"].startswith("A 5-Soldier claim: choose the claimant")
    st = call({"op": "pick", "seat": "p3"})["state"]
    assert st["acting"] == "p3" and st["message"]["text"] == (
        "p3 claims: it shows its Soldiers")
    for card in soldiers[:4]:
        st = call({"op": "tap", "card": card})["state"]
        assert st["message"]["text"] == "p3 shows %s" % card
    st = call({"op": "press", "button": "done"})["state"]  # four: not enough
    assert st["message"]["code"] == "no-claim"
    call({"op": "tap", "card": soldiers[4]})
    st = call({"op": "press", "button": "done"})["state"]
    assert st["acting"] == "p1" and st["report"]["claim"]["step"] == "answer"
    assert st["report"]["claim"]["soldiers"] == soldiers  # shown to all (K11)
    assert st["hint"].startswith("p1, the partner, answers")
    st = call({"op": "press", "button": "ok"})["state"]
    assert st["message"]["text"] == "the round is cancelled (K11) and dealt again, p1 first"
    assert st["report"]["phase"] == "play" and st["report"]["round"] == 1
    assert st["report"]["rounds"] == [] and st["report"]["claim"] is None
    again = call({"op": "hand", "player": "p3"})["cards"]
    assert len(again) == 8 and again != dealt  # dealt again
