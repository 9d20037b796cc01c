"""The game record on the static page (issue 15): a game in play downloads its public
record (stand-ins for its hidden cards, said so) that replays to its public state; a
finished game downloads as a scenario file that replays to the same end on CPython; the
file opened in "Run a scenario" replays step by step on a board of its own. In headless
Chromium, the site as `make web` builds it."""

import json

import pytest

import gamekit
import webplayer
from core import board as boardmod
from host_tools.games.kahuna import record
from host_tools.simulator.engine import run_commands
from host_tools.simulator.scenario import parse
from websitekit import Page

pytestmark = pytest.mark.slow


@pytest.fixture
def page(context, server):
    pg = Page(context, server.url + "?seed=5")
    yield pg
    assert pg.errors == []
    pg.page.close()


def call_in(page):
    def call(req):
        return page.js("""(req) => {
            const g = kahuna.game;
            try {
              if (req.op === "hand") return { ok: true, cards: g.hand(req.player) };
              const arg = req.card || req.button || req.conn;
              const v = req.op === "start" ? g.newGame(req.options, req.seed) : g[req.op](arg);
              return { ok: true, state: v.state, leds: v.leds };
            } catch (e) { return { ok: false, error: String(e) }; }
        }""", req)
    return call


def test_a_game_in_play_downloads_its_public_record(page, tmp_path):
    call = call_in(page)
    resp = call({"op": "start", "seed": 4, "options": []})
    player = webplayer.Player()
    for _ in range(40):  # the deal and some turns
        state = resp["state"]
        resp = call(player.move(state, call({"op": "hand", "player": state["report"][
            "turn"]})["cards"]))
        assert resp["ok"], resp
    rep = resp["state"]["report"]
    assert rep["phase"] != "over"
    page.click("#record summary")
    with page.page.expect_download() as info:
        page.click("#record-download")
    assert page.text("#record-note") == ("Written: kahuna-game.scn, from what is public "
                                         "(stand-ins for the hidden cards)")
    path = tmp_path / "play.scn"
    info.value.save_as(str(path))
    text = path.read_text()
    assert text.startswith(record.PUBLIC_TITLE + "a game in play")
    board = boardmod.load(gamekit.BOARD_PATH)
    report, failures = run_commands(board, parse(text, board))
    assert failures == [] and report["rejected"] == []
    for key in ("phase", "round", "turn", "bridges", "control", "supply", "discard",
                "drawable", "scores"):
        assert report[key] == rep[key], key
    # Opened in "Run a scenario": replayed step by step, its expect lines holding.
    page.click("#scenarios summary")
    page.page.set_input_files("#scenario-file", str(path))
    page.wait("() => document.getElementById('scenario-text').value.startsWith('# Kahuna')")
    page.click("#steps-run")
    n = int(page.js("() => document.getElementById('steps-step').max"))
    commands = [ln for ln in text.split("\n")
                if ln.strip() and not ln.startswith(("#", "expect "))]
    assert n == len(commands)
    first = [k for k, ln in enumerate(commands) if ln.startswith("tap ")][0]
    page.page.fill("#steps-step", str(first + 1))
    page.page.dispatch_event("#steps-step", "input")
    shown = page.text("#steps-text")  # "line L: tap CARD", its mark a comment
    line = int(shown.split()[1].rstrip(":"))
    assert text.split("\n")[line - 1] == shown.split(": ", 1)[1] + record.STAND_IN
    page.page.fill("#steps-step", str(n))
    page.page.dispatch_event("#steps-step", "input")
    assert page.text("#steps-score").startswith("Round %d · %s · %s" % (
        rep["round"], rep["phase"], rep["turn"]))
    assert page.text("#scenario-out") == ""


def test_a_finished_game_downloads_and_replays_step_by_step(page, tmp_path):
    final, _, _ = webplayer.play_game(call_in(page), {"op": "start", "seed": 3, "options": [
        "variant=alternative", "handicap=black:1"]})
    rep = final["state"]["report"]
    assert rep["phase"] == "over"
    page.click("#record summary")
    with page.page.expect_download() as info:
        page.click("#record-download")
    path = tmp_path / "game.scn"
    info.value.save_as(str(path))
    assert info.value.suggested_filename == "kahuna-game.scn"
    text = path.read_text()
    assert "option variant=alternative" in text and "option handicap=black:1" in text
    board = boardmod.load(gamekit.BOARD_PATH)
    report, failures = run_commands(board, parse(text, board))
    assert failures == [] and report["rejected"] == []
    for key in ("winner", "scores", "round_scores", "bridges", "control"):
        assert report[key] == rep[key], key
    # Opened in the page and replayed step by step.
    page.click("#scenarios summary")
    page.page.set_input_files("#scenario-file", str(path))
    page.wait("() => document.getElementById('scenario-text').value.startsWith('# Kahuna')")
    page.click("#steps-run")
    n = int(page.js("() => document.getElementById('steps-step').max"))
    commands = [ln for ln in text.split("\n")
                if ln.strip() and not ln.startswith(("#", "expect "))]
    assert n == len(commands)
    assert page.text("#steps-count") == "step 0 of %d" % n
    page.click("#steps-next")
    assert page.text("#steps-text") == "line %d: %s" % (text.split("\n").index(commands[0]) + 1,
                                                        commands[0])
    page.page.fill("#steps-step", str(n))
    page.page.dispatch_event("#steps-step", "input")
    winner = rep["winner"]
    assert page.text("#steps-score").endswith("a draw" if winner == "draw" else winner + " wins")
    conn, owner = sorted(rep["bridges"].items())[0]  # the end's bridges, lit on its board
    assert page.js("(c) => document.querySelector('#steps-board [id=\"bar-' + c + '\"]')"
                   ".dataset.colour", conn) == owner
    page.click("#steps-prev")
    assert page.text("#steps-count") == "step %d of %d" % (n - 1, n)
    assert page.text("#scenario-out") == ""  # its expect lines held


def test_a_file_that_is_no_scenario_says_its_line(page):
    page.click("#scenarios summary")
    page.page.fill("#scenario-text", "tap HUNA-1\nfly away\n")
    page.click("#steps-run")
    assert page.text("#scenario-out") == "line 2: unknown command 'fly'"
    assert page.js("() => document.getElementById('steps').hidden") is True
    assert json.loads(page.js("() => JSON.stringify(kahuna.view().state.report.phase)")) == \
        "deal"
