"""The browser page's Python side (host_tools/web/game.py) without a browser: whole hot-seat
games on a shuffled table, where the physical cards and the firmware's rules never
disagree and the public state never shows a hand; the same game in the MicroPython unix
port; bad requests; settings; the site's build (which Python it bundles)."""

import json
import os

import pytest

import gamekit
import webplayer
from games.kahuna import rules
from host_tools import mpy
from host_tools.games import part
from host_tools.web import build as webbuild
from host_tools.web import game as webgame

ROOT = gamekit.ROOT
BOARD = os.path.join(ROOT, "board_def", "kahuna.json")


def call(req):
    return json.loads(webgame.handle(json.dumps(req)))


def start(seed, options=()):
    return {"op": "start", "board": BOARD, "seed": seed, "options": list(options)}


def hidden_cards_in(state, game):
    """Cards of either hand that the public state names (pending cards are on the
    scanner, so public; a refusal is shown to the player who tapped the card)."""
    shown = dict(state)
    if shown["message"]["kind"] == "refused":
        shown = dict(shown, message=None)
    text = json.dumps(shown)
    pending = set(state["ui"]["pending"])
    return [c for p in rules.PLAYERS for c in game.hand(p)
            if c not in pending and '"%s"' % c in text]


@pytest.mark.parametrize("seed,options", [(0, []), (1, ["variant=alternative"]),
                                          (2, ["handicap=black:2", "first=black"])])
def test_whole_game_the_table_follows_the_rules_and_hides_the_hands(seed, options):
    def checked(req):
        resp = call(req)
        if "state" in resp:
            web = webgame._session["game"]
            g = web.game
            if g.phase != rules.DEAL:
                # The deck and face-up cards are exactly the rules' drawable cards (R2, R5).
                assert web.table.drawable() == g.drawable_count(), req
                assert sorted(web.table.pile) == sorted(
                    n for n in g.card_names if g.place[g.card_index[n]] == rules.DISCARD)
            assert hidden_cards_in(resp["state"], g) == [], req
        return resp

    final, steps, seen = webplayer.play_game(checked, start(seed, options))
    rep = final["state"]["report"]
    assert rep["phase"] == "over" and rep["winner"] in ("white", "black", "draw")
    assert len(rep["round_scores"]) == 3
    assert [r["state"]["report"]["round"] for r in seen if "state" in r][-1] == 3
    kinds = set(r["state"]["message"]["kind"] for r in seen if "state" in r)
    assert "accepted" in kinds


def test_a_secret_discard_and_a_draw_name_no_card():
    call(start(4))
    for _ in range(6):
        call({"op": "deck"})
    hand = call({"op": "hand", "player": "white"})["cards"]
    call({"op": "press", "button": "discard"})
    resp = call({"op": "play", "card": hand[0]})
    assert resp["state"]["message"] == {"kind": "accepted", "code": None,
                                        "text": "white discarded a card"}
    call({"op": "press", "button": "done"})  # leave discard mode
    call({"op": "press", "button": "done"})  # end the play phase
    resp = call({"op": "deck"})
    assert resp["state"]["message"]["text"] == "white drew a card, black's turn"
    assert len(call({"op": "hand", "player": "white"})["cards"]) == 3


def test_a_refusal_comes_from_the_firmware_and_changes_nothing():
    call(start(5))
    for _ in range(6):
        call({"op": "deck"})
    before = call({"op": "tick", "ms": 2000})
    resp = call({"op": "press", "button": "ok"})
    assert resp["state"]["message"] == {"kind": "refused", "code": "wrong-phase",
                                        "text": "there is nothing to choose"}
    assert resp["state"]["report"]["hand_sizes"] == {"white": 3, "black": 3}
    # The error status pixel flashes, then the frame is as before.
    error_led = gamekit.board().status_leds["error"]
    assert resp["leds"][error_led] != [0, 0, 0]
    assert call({"op": "tick", "ms": 2000})["leds"] == before["leds"]


def test_the_deck_is_not_tapped_outside_the_deal_and_the_draw():
    call(start(6))
    for _ in range(6):
        call({"op": "deck"})
    resp = call({"op": "deck"})  # play phase: tapping it would name the top card
    assert resp["state"]["message"]["kind"] == "note"
    assert "done" in resp["state"]["message"]["text"]
    assert resp["state"]["table"]["deck"] == 15


def test_settings_handicap_and_bad_options():
    resp = call(start(7, ["handicap=black:2", "variant=alternative"]))
    assert resp["state"]["settings"] == {"variant": "alternative", "first": "white",
                                         "handicap": ["black", 2]}
    for _ in range(6):
        resp = call({"op": "deck"})
    rep = resp["state"]
    assert rep["report"]["phase"] == "handicap" and rep["report"]["turn"] == "black"
    assert len(rep["ui"]["options"]) == len(gamekit.board().connections)
    resp = call({"op": "pick", "conn": "ALOA-BARI"})
    assert resp["state"]["report"]["bridges"] == {"ALOA-BARI": "black"}
    bad = call({"op": "new_game", "options": ["variant=fancy"], "seed": 1})
    assert bad == {"ok": False, "error": "WebError: option variant must be standard or "
                                         "alternative, got 'fancy'"}
    assert call({"op": "state"})["state"]["report"]["bridges"] == {"ALOA-BARI": "black"}


@pytest.mark.parametrize("req,words", [
    ("not json", "the request is not JSON"),
    ("[1, 2]", "a request is a JSON object"),
    (json.dumps({"op": "fly"}), "unknown request 'fly'"),
    (json.dumps({"op": "press", "button": "jump"}), "unknown button 'jump'"),
    (json.dumps({"op": "play", "card": "HUNA-1"}), "not in the hand on turn"),
    (json.dumps({"op": "pick", "conn": "HUNA-ALOA"}), "unknown connection"),
    (json.dumps({"op": "hand", "player": "green"}), "player must be"),
])
def test_bad_requests_answer_with_the_reason(req, words):
    call(start(8))
    resp = json.loads(webgame.handle(req))
    assert resp["ok"] is False and words in resp["error"]


def test_scenario_request_gives_the_command_lines_report_or_the_lines_error():
    call(start(9))
    path = os.path.join(ROOT, "tests", "scenarios", "first-turns.scn")
    with open(path) as f:
        text = f.read()
    resp = call({"op": "scenario", "text": text})
    assert resp["ok"] and resp["failures"] == []
    assert list(json.loads(resp["report"])) == list(part("kahuna", "simreport").REPORT_KEYS)
    bad = call({"op": "scenario", "text": "tap ALOA-1\nfly away\n"})
    assert bad == {"ok": False, "kind": "scenario", "error": "line 2: unknown command 'fly'"}
    failing = call({"op": "scenario", "text": "expect phase play\n"})
    assert failing["failures"] == ["line 1: expect phase play: got deal"]


SCRIPT = """
import json, sys
import webplayer
from host_tools.web import game as webgame
out = []
def call(req):
    return json.loads(webgame.handle(json.dumps(req)))
final, steps, seen = webplayer.play_game(call, json.loads(sys.argv[1]))
print(json.dumps({"steps": steps, "final": final}))
"""


@pytest.mark.micropython
def test_the_same_whole_game_in_the_micropython_unix_port(tmp_path):
    req = start(11, ["variant=alternative"])
    script = tmp_path / "game.py"
    script.write_text(SCRIPT)
    proc = mpy.run(str(script), args=[json.dumps(req)], heap="8M",
                   extra_path=[os.path.join(ROOT, "tests")])
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    final, steps, _ = webplayer.play_game(call, req)
    assert got["steps"] == steps
    assert got["final"] == final


def test_the_site_bundles_every_module_the_page_imports_and_no_host_only_one():
    files = webbuild.python_files()
    for rel in ("host_tools/web/game.py", "host_tools/simulator/engine.py",
                "host_tools/games/kahuna/table.py", "host_tools/games/kahuna/simgame.py",
                "host_tools/games/__init__.py",
                "host_tools/fakehw/pn532_chip.py", "firmware/core/app.py",
                "firmware/hw/pn532.py", "firmware/games/kahuna/__init__.py",
                "host_tools/__init__.py", "host_tools/games/kahuna/webgame.py",
                "host_tools/games/halunken/webgame.py", "host_tools/games/halunken/simgame.py",
                "firmware/games/halunken/rules.py"):
        assert rel in files
    for rel in ("host_tools/simulator/cli.py", "host_tools/games/kahuna/play.py",
                "host_tools/mpy.py", "host_tools/games/kahuna/picture.py", "firmware/main.py",
                "host_tools/games/halunken/picture.py", "host_tools/games/halunken/play.py",
                "host_tools/drawing.py"):
        assert rel not in files


def test_the_site_takes_the_modules_its_page_imports_and_not_the_live_pages():
    loads = webbuild.page_files(webbuild.WEB, extra=webbuild.game_files(["kahuna", "halunken"]))
    for rel in ("index.html", "style.css", "js/main.js", "js/runtime.js", "js/colours.js",
                "js/kahuna/page.js", "js/halunken/page.js", "js/halunken/ring.js",
                "boards/kahuna.json", "games.json"):
        assert rel in loads
    assert "js/live.js" not in loads and "live.html" not in loads


def _site(root, files):
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return sorted(files)


def test_a_site_with_a_file_its_page_never_loads_or_lacking_one_is_refused(tmp_path):
    page = {"index.html": '<link href="style.css"><link rel="icon" href="data:,">'
                          '<script type="module" src="js/main.js"></script>',
            "style.css": "",
            "js/main.js": 'import { a } from "./a.js";\nfetch("board.json");\n',
            "js/a.js": 'import { m } from "../vendor/micropython/micropython.mjs";\n',
            "board.json": "{}",
            "vendor/micropython/micropython.mjs": "", "vendor/micropython/micropython.wasm": ""}
    files = _site(tmp_path, page)
    assert webbuild.page_files(tmp_path) == files
    webbuild.check_site(tmp_path, files)
    files = _site(tmp_path, dict(page, **{"js/live.js": ""}))
    with pytest.raises(webbuild.BuildError, match="never loaded: js/live.js"):
        webbuild.check_site(tmp_path, files)
    (tmp_path / "js" / "live.js").unlink()
    (tmp_path / "board.json").unlink()
    with pytest.raises(webbuild.BuildError, match="missing: board.json"):
        webbuild.check_site(tmp_path, [f for f in page if f != "board.json"])


# ---------------------------------------------------------------- against the board


def solo_turn(state, act):
    """The player's turn, simply: the first card of the hand on the first place offered,
    done, then a card drawn (the deck, else the first face-up card) or declined."""
    rep = state["report"]
    if rep["phase"] == "play":
        hand = call({"op": "hand", "player": state["solo"]["human"]})["cards"]
        if hand:
            state = act({"op": "play", "card": hand[0]})
            places = [o for o in state["ui"]["options"] if o["kind"] == "place"]
            state = act({"op": "pick", "conn": places[0]["conn"]} if places
                        else {"op": "press", "button": "back"})
        if state["report"]["refill"] if "refill" in state["report"] else False:
            state = act({"op": "press", "button": "back"})
        state = act({"op": "press", "button": "done"})
    if state["report"]["phase"] == "draw" and state["report"]["turn"] == state["solo"]["human"]:
        table = state["table"]
        state = act({"op": "deck"} if table["deck"] else
                    {"op": "take", "card": table["display"][0]} if table["display"] else
                    {"op": "press", "button": "done"})
        if state["report"]["phase"] == "draw" and state["report"]["turn"] == state["solo"]["human"]:
            state = act({"op": "press", "button": "done"})  # a full hand declines
    return state


@pytest.mark.parametrize("ai,options", [("black", []), ("white", ["variant=alternative"])])
def test_a_game_against_the_board_never_shows_its_hand(ai, options):
    """The simulator's table deals and does the AI's card procedure (solohands.Seated);
    the page gets the player's hand only: the AI's is a count, and no state names a card
    of it that was never face up (played, or taken from the display)."""
    public = set()

    def act(req):
        resp = call(req)
        assert resp["ok"], (req, resp)
        state = resp["state"]
        game = webgame._session["game"]
        public.update(state["table"]["display"])
        for words in state["solo"]["did"]:
            if words.startswith("the AI plays") or words.startswith("lay the deck"):
                public.add(words.rsplit("(", 1)[1].rstrip(")"))  # turned face up
            if words.startswith("the AI takes "):
                public.add(words.split()[3])  # a face-up card, named by the board
        unseen = [c for c in game.game.hand(ai) if c not in public]
        text = json.dumps(state)
        assert [c for c in unseen if '"%s"' % c in text or "%s)" % c in text] == [], req
        assert state["report"]["hand_sizes"][ai] == len(game.game.hand(ai))
        return state

    state = act(start(7, options + ["ai=" + ai]))
    assert state["solo"]["ai"] == ai and state["solo"]["human"] != ai
    assert state["report"]["turn"] == state["solo"]["human"]  # the AI's first turn ran
    refused = call({"op": "hand", "player": ai})
    assert not refused["ok"] and "face down" in refused["error"]
    ai_bridges = set()
    for _ in range(200):
        if state["report"]["phase"] == "over":
            break
        state = solo_turn(state, act)
        ai_bridges |= {k for k, o in state["report"]["bridges"].items() if o == ai}
        assert state["report"]["phase"] == "over" or (
            state["report"]["turn"] == state["solo"]["human"]), state["message"]
    assert state["report"]["phase"] == "over", state["report"]
    assert ai_bridges


def test_a_new_game_goes_back_to_two_players_at_one_screen():
    call(start(3, ["ai=black"]))
    state = call({"op": "new_game", "seed": 3, "options": ["ai=none"]})["state"]
    assert state["solo"] is None and "ai" not in state["settings"]
    assert state["report"]["phase"] == "deal"  # the deck is clicked to deal again
    assert call({"op": "hand", "player": "black"})["ok"]
