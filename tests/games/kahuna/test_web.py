"""The browser simulator in a real browser (headless Chromium from Debian, Playwright):
the site built as `make web` builds it, served by a plain static server. Play the first
turns by clicking and see each bridge lit in its owner's colour, see a refusal explained,
keep the hand of the player not on turn hidden, play a whole game, run the scenario suite
in the page and get the very JSON of `python -m host_tools sim --json`, and play offline
once loaded. `pytest --update-screenshots tests/games/kahuna/test_web.py` (make web-screenshot)
rewrites docs/web-page.png, the README's picture of the page."""

import glob
import json
import os
import subprocess
import sys

import pytest

import browser
import gamekit
import webplayer
from games.kahuna.settings import card_names
from host_tools.games.kahuna.table import Table
from host_tools.web import build as webbuild
from websitekit import VIEWPORT, Page

ROOT = gamekit.ROOT
SCENARIOS = sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "*.scn")))
SCREENSHOT = os.path.join(ROOT, "docs", "web-page.png")
SEED = 5

pytestmark = pytest.mark.slow


@pytest.fixture
def page(context, server):
    pg = Page(context, server.url + "?seed=%d" % SEED)
    yield pg
    assert pg.errors == []
    pg.page.close()


def dealt(seed):
    """The hands the shuffled deck deals for `seed` (the first player's, then the other's),
    worked out on CPython: the page must deal the same cards from the same seed."""
    t = Table(card_names(gamekit.board()), seed)
    cards = [t.deal() for _ in range(6)]
    return sorted(cards[:3]), sorted(cards[3:])


def deal_all(pg):
    for _ in range(6):
        pg.click("#deck")


def shown_hand(pg):
    return pg.js("() => [...document.querySelectorAll('#hand .card')]"
                 ".map((c) => c.dataset.card)")


def wait_bar(pg, conn, colour):
    pg.wait("([c, col]) => document.getElementById('bar-' + c).dataset.colour === col",
            [conn, colour])


def watch(pg, element_id):
    """Record every colour the element is given from now on (an animation is quicker than
    a poll from the test could be sure to catch)."""
    pg.js("""(id) => {
        const e = document.getElementById(id);
        window.seen = window.seen || {};
        window.seen[id] = [];
        new MutationObserver(() => window.seen[id].push(e.dataset.colour))
            .observe(e, { attributes: true, attributeFilter: ["data-colour"] });
    }""", element_id)


def seen(pg, element_id):
    return pg.js("(id) => window.seen[id]", element_id)


def play_a_bridge(pg, player):
    """Show `player`'s hand, click its first card, then the first blinking connection on
    the board; return the connection."""
    if pg.js("() => !document.getElementById('hand-cover').hidden"):
        pg.click("#reveal")
    assert pg.view()["state"]["report"]["turn"] == player
    card = shown_hand(pg)[0]
    pg.click('#hand .card[data-card="%s"]' % card)
    options = pg.view()["state"]["ui"]["options"]
    assert options and options[0]["kind"] == "place"
    conn = options[0]["conn"]
    pg.click('#board .hit[data-conn="%s"]' % conn)
    return conn


def test_first_turns_by_clicking_light_each_bridge_in_its_owners_colour(page):
    white, black = dealt(SEED)
    deal_all(page)
    assert page.view()["state"]["report"]["phase"] == "play"
    # White's cards stay face down until white asks to see them.
    assert page.js("() => document.getElementById('hand').hidden") is True
    assert shown_hand(page) == []
    page.click("#reveal")
    assert shown_hand(page) == white
    conn = play_a_bridge(page, "white")
    wait_bar(page, conn, "white")
    board = gamekit.board()
    pal = board.palette
    leds = page.view()["leds"]
    scale = int(board.brightness * 256 + 0.5)
    assert leds[board.conn_led[board.conn_index[conn]]] == [v * scale >> 8 for v in pal["white"]]
    assert page.js("(c) => document.getElementById('bar-' + c).getAttribute('stroke')",
                   conn) == "#ffffff"
    assert "white bridge on %s" % conn in page.text("#message")
    # White ends the play phase and takes a face-up card: black's turn, white's hand hidden.
    page.click("#btn-done")
    page.click("#display .card")
    assert page.view()["state"]["report"]["turn"] == "black"
    assert shown_hand(page) == []
    assert "Black's cards are face down" in page.text("#hand-cover")
    page.click("#reveal")
    assert shown_hand(page) == black
    conn2 = play_a_bridge(page, "black")
    wait_bar(page, conn2, "black")
    assert page.js("(c) => document.getElementById('bar-' + c).getAttribute('stroke')",
                   conn2) == "#0050ff"
    assert page.text("#score-white") == "0"
    assert "Black" in page.text("#row-black") and "24" in page.text("#row-black")


def test_a_refusal_is_explained_and_flashes(page):
    deal_all(page)
    watch(page, "status-error")
    page.click("#btn-ok")  # nothing to choose
    assert page.js("() => document.getElementById('message').className") == "message refused"
    assert page.text("#message") == "Refused (wrong-phase): there is nothing to choose"
    assert "error" in seen(page, "status-error")  # the error pixel flashed red
    page.wait("() => document.getElementById('status-error').dataset.colour === 'off'")
    # A connection that is not on offer: refused by the firmware, which flashes it red.
    page.click("#reveal")
    card = shown_hand(page)[0]
    page.click('#hand .card[data-card="%s"]' % card)
    offered = set(o["conn"] for o in page.view()["state"]["ui"]["options"])
    other = [c for c in gamekit.board().connections if c not in offered][0]
    watch(page, "bar-" + other)
    page.click('#board .hit[data-conn="%s"]' % other)
    assert page.text("#message") == (
        "Refused (not-offered): %s is not among the options" % other)
    assert "error" in seen(page, "bar-" + other)  # the firmware flashes it red


def test_new_game_settings_from_the_form(page):
    page.click("#settings summary")
    page.page.select_option("#new-game select[name=variant]", "alternative")
    page.page.select_option("#new-game select[name=first]", "black")
    page.page.select_option("#new-game select[name=handicap]", "white:2")
    page.page.fill("#new-game input[name=seed]", "12")
    page.click("#new-game-button")
    state = page.view()["state"]
    assert state["settings"] == {"variant": "alternative", "first": "black",
                                 "handicap": ["white", 2]}
    assert "alternative variant, black starts, handicap: white places 2 bridges" in (
        page.text("#message"))
    deal_all(page)
    assert page.text("#status-line") == "Round 1 of 3 · HANDICAP · White places handicap bridges"
    black, white = dealt(12)  # black starts, so black's cards are dealt first
    page.click("#reveal")
    assert shown_hand(page) == white  # the handicap player is on turn
    assert white != black


def test_nothing_on_the_page_shows_a_hidden_hand(page):
    white, black = dealt(SEED)
    deal_all(page)
    visible = page.text("#play") + page.text("#panel").split("Run a scenario")[0]
    state = json.dumps(page.view()["state"])
    for c in white + black:
        assert c not in visible.replace("\n", " ").split()
        assert '"%s"' % c not in state


def test_a_whole_game_plays_in_the_page(page):
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

    final, steps, _ = webplayer.play_game(call, {"op": "start", "seed": 3, "options": [
        "variant=alternative", "handicap=black:1"]})
    rep = final["state"]["report"]
    assert rep["phase"] == "over" and len(rep["round_scores"]) == 3
    assert sum(r["white"] for r in rep["round_scores"]) == rep["scores"]["white"]
    assert "GAME OVER" in page.text("#message")
    assert "Round 3 of 3 · OVER" in page.text("#status-line")


def test_scenario_suite_in_the_page_matches_cpython_byte_for_byte(page):
    for path in SCENARIOS:
        proc = subprocess.run([sys.executable, "-m", "host_tools", "sim", "--json",
                               "--scenario", path], capture_output=True, text=True,
                              cwd=ROOT, timeout=120)
        assert proc.returncode == 0, proc.stderr
        with open(path, encoding="utf-8") as f:
            text = f.read()
        got = page.js("(t) => kahuna.runScenarioDetailed(t)", text)
        assert got["report"] + "\n" == proc.stdout, os.path.basename(path)
        assert got["failures"] == []


def test_a_scenario_the_page_cannot_read_gives_the_command_lines_message(page):
    text = "tap ALOA-1\ntap NOPE-1\n"
    proc = subprocess.run([sys.executable, "-m", "host_tools", "sim", "--json",
                           "--scenario", "-"], input=text, capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert proc.returncode == 2
    got = page.js("(t) => { try { kahuna.runScenario(t); return null; }"
                  " catch (e) { return e.message; } }", text)
    assert got == proc.stderr.strip()


def test_the_offline_copy_is_exactly_the_files_the_page_loads(site):
    sw = (site / "sw.js").read_text()
    listed = json.loads(sw.split("const FILES = ", 1)[1].split(";\n", 1)[0])
    assert listed == ["./"] + ["./" + rel for rel in webbuild.page_files(
        site, extra=webbuild.game_files(webbuild.offered()))]
    assert "./js/live.js" not in listed


def test_everything_comes_from_the_site_itself_and_plays_offline(context, site):
    srv = browser.StaticServer(site)
    pg = Page(context, srv.url)
    assert pg.requests and all(u.startswith(srv.url) or u.startswith("data:")
                               for u in pg.requests), pg.requests
    pg.js("async () => { await navigator.serviceWorker.ready; }")
    pg.wait("() => navigator.serviceWorker.controller !== null", timeout=10000)
    srv.close()  # the site is gone: the browser's offline copy must do
    pg.page.reload()
    pg.js("async () => { await kahuna.ready; }")
    pg.click("#deck")
    assert pg.view()["state"]["report"]["hand_sizes"]["white"] == 1
    report = json.loads(pg.js("() => kahuna.runScenario('tap ALOA-1')"))
    assert report["hands"]["white"] == ["ALOA-1"]
    assert pg.errors == []
    pg.page.close()


def test_screenshot_of_a_game_under_way(page, request, tmp_path):
    """The README's picture: white has two bridges and a pending card whose options
    blink; black has one bridge. Rewritten with --update-screenshots."""
    deal_all(page)
    play_a_bridge(page, "white")
    page.click("#btn-done")
    page.click("#display .card")
    conn = play_a_bridge(page, "black")
    page.click("#btn-done")
    page.click("#deck")
    page.click("#reveal")
    page.click("#hand .card")
    page.click("#btn-next")
    wait_bar(page, conn, "black")
    page.js("() => window.scrollTo(0, 0)")
    page.page.wait_for_timeout(300)
    out = SCREENSHOT if request.config.getoption("--update-screenshots") else str(
        tmp_path / "web-page.png")
    page.page.screenshot(path=out)
    with open(out, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    width = int.from_bytes(head[16:20], "big")
    height = int.from_bytes(head[20:24], "big")
    assert (width, height) == (VIEWPORT["width"], VIEWPORT["height"])
    assert os.path.exists(SCREENSHOT), "docs/web-page.png is missing: make web-screenshot"


def test_a_game_against_the_board_from_the_form(page):
    """Opponent: the board plays black. The table deals; white plays a bridge by
    clicking, ends the play phase and draws; the board takes its turn (the simulator
    does its card procedure): a black bridge lights, its hand is a count only, and no
    card of its hand that was never face up is anywhere in the page (text or DOM)."""
    from host_tools.web import game as webgame

    seed = 18  # a seed whose board keeps a card never face up after its first turn
    page.click("#settings summary")
    page.page.select_option("#new-game select[name=ai]", "black")
    page.page.fill("#new-game input[name=seed]", str(seed))
    page.click("#new-game-button")
    state = page.view()["state"]
    assert state["settings"]["ai"] == "black" and state["solo"]["human"] == "white"
    assert "you play white, the board plays black" in page.text("#message")
    # The same game on CPython, request for request: it knows the board's hand.
    webgame.handle(json.dumps({"op": "start", "board": gamekit.BOARD_PATH, "seed": seed,
                               "options": ["ai=black"]}))
    cpython = webgame._session["game"]
    assert state["report"]["phase"] == "play" and state["report"]["turn"] == "white"
    assert page.js("() => document.getElementById('hand-cover').hidden") is True
    hand = shown_hand(page)
    assert hand == cpython.hand("white") and len(hand) == 3
    # The page cannot even ask for the board's hand.
    assert "face down" in page.js(
        "() => { try { kahuna.game.hand('black'); return ''; } catch (e) { return e.message; } }")

    card = hand[0]
    page.click('#hand .card[data-card="%s"]' % card)
    conn = page.view()["state"]["ui"]["options"][0]["conn"]
    page.click('#board .hit[data-conn="%s"]' % conn)
    wait_bar(page, conn, "white")
    page.click("#btn-done")
    page.click("#deck")
    for req in ({"op": "play", "card": card}, {"op": "pick", "conn": conn},
                {"op": "press", "button": "done"}, {"op": "deck"}):
        json.loads(webgame.handle(json.dumps(req)))

    state = page.view()["state"]
    rep = state["report"]
    assert rep["turn"] == "white" and rep["bridges"] == cpython.state()["report"]["bridges"]
    theirs = [k for k, o in rep["bridges"].items() if o == "black"]
    assert theirs, "the board built no bridge"
    wait_bar(page, theirs[0], "black")
    assert "The AI plays its" in page.text("#ai-log")
    ai_hand = cpython.game.hand("black")
    assert rep["hand_sizes"]["black"] == len(ai_hand)
    assert str(len(ai_hand)) == page.text("#row-black td:nth-child(2)")
    seen_face_up = set(state["table"]["display"]) | {
        w.rsplit("(", 1)[1].rstrip(")") for w in state["solo"]["did"] if w.endswith(")")} | {
        w.split()[3] for w in state["solo"]["did"] if w.startswith("the AI takes ")}
    secret = [c for c in ai_hand if c not in seen_face_up]
    assert secret, "the board's hand should hold a card never face up"
    # All of the page but the scenario box (its sample scenario names cards of its own).
    dom = page.js("""() => { const d = document.documentElement.cloneNode(true);
        d.querySelector('#scenarios').remove(); return d.outerHTML; }""")
    text = page.text("#play") + page.text("#panel").split("Run a scenario")[0]
    for c in secret:
        assert c not in dom and c not in text
        assert '"%s"' % c not in json.dumps(state)
