"""The page's seat in a remote game without a browser or a broker
(host_tools/web/remoteplay.py, through host_tools/web/game.py's "remote" request): a whole
game against the dealer (host_tools/remote/dealing.py) in this process, every message
delivered twice; its report is the dealer's game; it refuses a move that is not open and a
forged message, changing nothing; and the page's MicroPython gives the very same answers
(the unix port here, the same code as the page's WebAssembly one)."""

import json
import random

import pytest

from host_tools import games as hostgames
from host_tools.remote import dealing
from host_tools.remote import protocol as p
from host_tools.web import game as webgame
from mpy_runner import MicroPython

CODE = "K7QXM2"
part = hostgames.part("kahuna", "remote")


def call(req):
    return json.loads(webgame.handle(json.dumps(dict(req, op="remote"))))


def publish(dealer, out):
    """The page's publication to the dealer: what the dealer publishes back."""
    msgs, lines = dealer.handle(out["topic"], json.dumps(out["message"]).encode())
    assert not [line for line in lines if line.startswith("refused")], lines
    return msgs


def play(seed, transcript=None):
    """A whole game: alice's table the page's, bob's requests straight to the dealer.
    Returns (the page's last view, the dealer's game); `transcript` gets every request
    made of the page and its answer."""
    def page(req):
        resp = call(req)
        if transcript is not None:
            transcript.append((req, resp))
        return resp

    d = dealing.Dealer(lambda code: seed)
    opened = page({"do": "open", "create": True, "code": CODE, "user": "alice",
                   "seat": "white", "settings": {"variant": "standard"}})
    assert opened["ok"], opened
    mine = set(opened["subscribe"])
    inbox = publish(d, page({"do": "hello"})["publish"])
    inbox += d.handle(p.topic(CODE, "hello", "bob"), p.encode(p.hello("join")))[0]
    rng = random.Random(seed)
    view = opened["view"]
    for _ in range(5000):
        for topic, payload, _retain in inbox:
            if topic in mine:
                for _twice in range(2):  # QoS 1 delivers some twice
                    r = page({"do": "feed", "topic": topic, "payload": payload.decode()})
                    assert r["ok"] and r["bad"] is None, r
                    view = r["view"]
        inbox = []
        g = d.games[CODE]
        if g.dealt.to_act() is None:
            break
        if view["options"]:
            action = part.random_request(view["options"], rng)
            inbox = publish(d, page({"do": "move", "action": action})["publish"])
        else:
            assert g.dealt.to_act() == "black", view  # the page waits only for bob
            opts = part.options(g.dealt.public(), g.dealt.hand("black"), "black")
            action = part.random_request(opts, rng)
            inbox = d.handle(p.topic(CODE, "move", "bob"), p.encode(p.move(
                CODE, "black", g.moves.get("black", 0) + 1, len(g.log), action)))[0]
    return view, d.games[CODE]


@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_game_from_the_pages_seat_is_the_dealers_game(seed):
    view, g = play(seed)
    assert view["over"] and view["options"] == []
    assert view["report"] == {"game": CODE, "seq": len(g.log), "log": g.log,
                              "public": g.dealt.public()}
    assert view["hand"] == g.dealt.hand("white")


def test_a_move_not_open_and_a_forged_message_change_nothing():
    d = dealing.Dealer(lambda code: 3)
    call({"do": "open", "create": True, "code": CODE, "user": "alice", "seat": "white",
          "settings": {}})
    for topic, payload, _ in publish(d, call({"do": "hello"})["publish"]) + d.handle(
            p.topic(CODE, "hello", "bob"), p.encode(p.hello("join")))[0]:
        if "/bob" not in topic:
            call({"do": "feed", "topic": topic, "payload": payload.decode()})
    before = call({"do": "view"})["view"]
    assert before["options"] and before["seat"] == "white"
    bad = call({"do": "move", "action": ["place", "HUNA-1", "NOWHERE"]})
    assert bad["ok"] is False and "is not one of the moves open now" in bad["error"]
    for topic, text in (("kb/%s/event" % CODE, "\x00garbage"),
                        ("kb/%s/hand/bob" % CODE, '{"v": 1}'),
                        ("kb/%s/event" % CODE, json.dumps({"v": 1, "game": CODE, "seq": 1,
                                                           "actor": "white",
                                                           "action": ["undo"],
                                                           "public": None}))):
        r = call({"do": "feed", "topic": topic, "payload": text})
        assert r["ok"] and r["bad"].startswith("refused "), r
    assert call({"do": "view"})["view"] == before
    # Before any game is open, and for an unknown request: a reason, no exception.
    assert call({"do": "open", "create": False, "code": "AB1", "user": "x"})["ok"] is False
    assert "unknown remote request" in call({"do": "fly"})["error"]


MPY_SCRIPT = """
import json, sys
from host_tools.web import game as webgame
with open(sys.argv[1]) as f:
    requests = json.load(f)
for req in requests:
    print(webgame.handle(json.dumps(req)))
"""


def test_the_pages_micropython_answers_the_same(mpy, tmp_path):
    transcript = []
    play(4, transcript)
    requests = [dict(req, op="remote") for req, _ in transcript]
    path = tmp_path / "requests.json"
    path.write_text(json.dumps(requests))
    script = tmp_path / "page.py"
    script.write_text(MPY_SCRIPT)
    # The page's heap (web/js/runtime.js: 16 MB), not the board's.
    page_heap = MicroPython(mpy.executable, heap_kib=16 * 1024)
    out = page_heap.run_script(str(script), str(path), timeout=300)
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == len(transcript) > 100
    for (req, want), got in zip(transcript, answers):
        assert got == want, req


def test_the_pages_new_code_is_island_letters():
    """Issue 19: a game the page creates without a code gets one of the ten island
    initials (core.remoteproto.NEW_CODE_LETTERS), from the browser's random numbers."""
    seen = set()
    for i in range(40):
        numbers = [(i * 7919 + k * 104729) % 4294967296 for k in range(6)]
        opened = call({"do": "open", "create": True, "user": "alice", "seat": "white",
                       "settings": {"variant": "standard"}, "entropy": numbers})
        assert opened["ok"], opened
        code = opened["code"]
        assert len(code) == 6 and set(code) <= set("ABCDEFGHJK"), code
        seen |= set(code)
    assert len(seen) == 10
