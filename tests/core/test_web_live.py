"""The live page (`python -m host_tools web --port PORT`) in headless Chromium, connected to
a virtual board running the flashed firmware: a card tapped on the virtual scanner shows
on the page within a second, hands stay hidden (sizes only) until revealed and the page
says so, a bridge is placed from the page, a card is enrolled from the page, a new game
starts from the form, and the board's archived games are replayed move by move (both
hands for a finished game, sizes only for an abandoned one). The server owns the port.
`pytest --update-screenshots tests/core/test_web_live.py` rewrites docs/web-live.png."""

import json
import os
import select
import subprocess
import sys
import time

import pytest

import browser
import gamekit
from core import journal
from games.kahuna import settings as kahunasettings
from games.kahuna.settings import card_names
from host_tools.games.kahuna import randgame
from host_tools.maker.vboardclient import Running
from host_tools.maker.vboarddef import sticker_uid

ROOT = gamekit.ROOT
SCREENSHOT = os.path.join(ROOT, "docs", "web-live.png")
VIEWPORT = {"width": 1360, "height": 1200}
DEAL = ("HUNA-1", "ELAI-1", "DUDA-1", "ALOA-1", "DUDA-2", "ELAI-2")  # white's 3, black's 3
SECOND = 1000  # ms: how soon the page must show what the board did
BUSY = "%s is in use by another program (the monitor?)"

pytestmark = pytest.mark.slow


@pytest.fixture
def board(tmp_path):
    try:
        browser.check()
    except browser.BrowserMissing as e:
        pytest.fail("%s; `make test` installs them when CI=true" % e, pytrace=False)
    d = tmp_path / "board"
    d.mkdir()
    log = open(tmp_path / "vboard.log", "w")
    b = Running(str(d), log=log)
    b.dir = str(d)
    try:
        proc = subprocess.run(["make", "flash", "PORT=" + b.port,
                               "ARGS=--build-dir " + str(tmp_path / "build")],
                              capture_output=True, text=True, timeout=180, cwd=ROOT,
                              stdin=subprocess.DEVNULL)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        # Every card but HUNA-1 known to the board (HUNA-1 is enrolled from the page).
        names = card_names(gamekit.board())
        registry = tmp_path / "cards.json"
        registry.write_text(json.dumps({sticker_uid(c): c for c in names if c != "HUNA-1"}))
        proc = subprocess.run([sys.executable, "-m", "host_tools", "cards", "import",
                               str(registry), "--port", b.port], cwd=ROOT,
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        # A finished game in the board's archive (slot 5), as its journal would have kept it.
        (d / "game-5.jnl").write_bytes(finished_game_journal())
        yield b
    finally:
        b.stop()
        log.close()


def finished_game_scores():
    settings = {"variant": "standard", "first": "white", "handicap": None}
    game = kahunasettings.Settings.from_json(gamekit.board(), settings).new_game()
    randgame.play_game(game, 7)
    return {"white": game.scores[0], "black": game.scores[1]}


def finished_game_journal():
    settings = {"variant": "standard", "first": "white", "handicap": None}
    game = kahunasettings.Settings.from_json(gamekit.board(), settings).new_game()
    actions = randgame.play_game(game, 7)
    assert game.is_over()
    return (journal.encode(["new", settings, 5])
            + b"".join(journal.encode(list(a)) for a in actions))


def form(page):
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '#new-game select')].map((s) => [s.name, s.value]))""")


class Server:
    """`python -m host_tools web --port PORT --http-port 0`; `url` from its first line."""

    def __init__(self, port):
        self.proc = subprocess.Popen([sys.executable, "-m", "host_tools", "web", "--port", port,
                                      "--http-port", "0"], cwd=ROOT, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        r, _, _ = select.select([self.proc.stdout], [], [], 30)
        line = self.proc.stdout.readline() if r else ""
        assert " live at http://127.0.0.1:" in line, (line, self.proc.poll())
        self.url = line.split(" live at ")[1].split()[0]

    def stop(self):
        self.proc.terminate()
        try:
            return self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise


def websocket_hello(url, origin):
    """The first message of the server's WebSocket to a client from `origin`, or the
    HTTP status that refused it."""
    import asyncio

    import aiohttp

    async def connect():
        async with aiohttp.ClientSession() as session:
            try:
                async with session.ws_connect(url + "ws", origin=origin) as ws:
                    return await ws.receive_json(timeout=5)
            except aiohttp.WSServerHandshakeError as e:
                return e.status

    return asyncio.run(connect())


def http_status(url, host):
    """The status of GET / with the Host header naming `host`."""
    import urllib.error
    import urllib.request

    port = url.rstrip("/").rsplit(":", 1)[1]
    req = urllib.request.Request(url, headers={"Host": "%s:%s" % (host, port)})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def text(page, selector):
    return page.inner_text(selector)


def wait_text(page, selector, words, timeout=5000):
    page.wait_for_function("([s, w]) => { const e = document.querySelector(s);"
                           " return e !== null && e.innerText.includes(w); }",
                           arg=[selector, words], timeout=timeout)


def hand_size_shown(page, player):
    return page.evaluate("(p) => document.querySelectorAll('#hand-' + p + ' .card').length",
                         player)


def tap(board, page, card, player, size):
    """Lay `card` on the virtual scanner; the page shows `player`'s hand at `size` within
    a second of the tap."""
    board.client.request(cmd="tap", card=card)
    page.wait_for_function("([p, n]) => document.querySelectorAll('#hand-' + p + ' .card')"
                           ".length === n", arg=[player, size], timeout=SECOND)
    board.client.wait_for(lambda s: s["tag"] is None, timeout=5, what="the tap's lift")
    time.sleep(0.3)  # the reader sees the card gone before the next one comes


def test_the_live_page_follows_and_drives_the_virtual_board(board, tmp_path, request):
    from playwright.sync_api import sync_playwright

    server = Server(board.port)
    try:
        # One owner: another tool on the port is told it is in use, and changes nothing.
        busy = subprocess.run([sys.executable, "-m", "host_tools", "cards", "list", "--port",
                               board.port], capture_output=True, text=True, cwd=ROOT,
                              timeout=60)
        assert busy.returncode == 2 and busy.stderr.strip() == "cards: " + BUSY % board.port
        second = subprocess.run([sys.executable, "-m", "host_tools", "web", "--port",
                                 board.port, "--http-port", "0"], capture_output=True,
                                text=True, cwd=ROOT, timeout=60)
        assert second.returncode == 2 and second.stderr.strip() == "web: " + BUSY % board.port
        assert websocket_hello(server.url, server.url.rstrip("/"))["type"] == "hello"
        assert websocket_hello(server.url, "http://elsewhere.example") == 403
        assert http_status(server.url, "127.0.0.1") == 200
        assert http_status(server.url, "rebound.example") == 403  # DNS rebinding
        with sync_playwright() as p:
            ctx = browser.launch(p, tmp_path / "profile", viewport=VIEWPORT)
            page = ctx.new_page()
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(server.url)
            page.evaluate("async () => { await kahuna.ready; }")
            assert page.get_attribute("body", "data-connected") == "yes"
            assert "board on " + board.port in text(page, "#port")
            assert text(page, "#status-line") == "Round 1 of 3 · DEAL · White is dealt"
            run_the_story(board, page, request, tmp_path)
            assert errors == []
            ctx.close()
    finally:
        assert server.stop() == 0


def run_the_story(board, page, request, tmp_path):
    # Enrol HUNA-1 from the page: the board lights its island and waits for the tag.
    page.click("#cards summary")
    wait_text(page, "#cards-summary", "23 cards enrolled, 1 missing")
    assert text(page, "#reg-HUNA-1 td:nth-child(2)") == "missing"
    page.click('#reg-HUNA-1 button[data-card="HUNA-1"]')
    wait_text(page, "#enroll-status", "Lay the tag for HUNA-1 on the reader")
    board.client.place_tag(sticker_uid("HUNA-1"))
    wait_text(page, "#enroll-status", "Enrolled HUNA-1 as tag " + sticker_uid("HUNA-1"))
    wait_text(page, "#cards-summary", "24 cards enrolled, 0 missing")
    assert text(page, "#reg-HUNA-1 td:nth-child(2)") == sticker_uid("HUNA-1")
    board.client.remove_tag()
    time.sleep(0.5)
    page.click("#cards summary")  # closed again
    # The deal, card by card on the virtual scanner: the page follows within a second.
    for i, card in enumerate(DEAL):
        player, size = ("white", i + 1) if i < 3 else ("black", i - 2)
        tap(board, page, card, player, size)
    wait_text(page, "#status-line", "PLAY · White to play")
    assert text(page, "#hint").startswith("Tap a card to place a bridge")
    # Hands hidden: sizes only, no card named anywhere on the page.
    # (The log's older entries name HUNA-1's enrolment: the registry, not a hand.)
    shown = (text(page, "#hands-area") + text(page, "#panel")
             + page.text_content("#board")
             + page.evaluate("() => [...document.querySelectorAll('#log li')].slice(0, 6)"
                             ".map((e) => e.innerText).join('\\n')"))
    assert "white took 1 card" in shown
    for card in DEAL:
        assert card not in shown, card
    assert page.evaluate("() => document.querySelectorAll('#hands [data-card]').length") == 0
    assert "Hand sizes only" in text(page, "#hands-note")
    assert page.is_hidden("#revealed-banner")
    assert hand_size_shown(page, "white") == 3 and hand_size_shown(page, "black") == 3
    # The owner reveals: the cards show, and the page says so; hidden again after.
    page.click("#reveal")
    page.wait_for_selector("#revealed-banner", state="visible", timeout=SECOND)
    assert "HANDS REVEALED" in text(page, "#revealed-banner")
    assert page.evaluate("() => [...document.querySelectorAll('#hand-white [data-card]')]"
                         ".map((e) => e.dataset.card)") == sorted(DEAL[:3])
    page.click("#reveal")
    page.wait_for_selector("#revealed-banner", state="hidden", timeout=SECOND)
    assert page.evaluate("() => document.querySelectorAll('#hands [data-card]').length") == 0
    # A bridge: HUNA-1 tapped on the scanner, the connection picked on the page.
    board.client.request(cmd="tap", card="HUNA-1")
    page.wait_for_selector('#options button[data-conn="ELAI-HUNA"]', timeout=SECOND)
    assert "Pending: HUNA card" in text(page, "#options")
    page.click('#options button[data-conn="ELAI-HUNA"]')
    page.wait_for_function("() => document.getElementById('bar-ELAI-HUNA').dataset.owner"
                           " === 'white'", timeout=SECOND)
    page.wait_for_function("() => document.getElementById('bar-ELAI-HUNA').dataset.colour"
                           " === 'white'", timeout=SECOND)
    wait_text(page, "#log", "white bridge on ELAI-HUNA")
    assert text(page, "#row-white td:nth-child(4)") == "1"  # one bridge on the board
    # The take-back button holds back on the board: mid-turn, the board refuses it.
    page.click("#btn-takeback")
    wait_text(page, "#message", "mid-turn")
    board.client.wait_for(lambda s: s["tag"] is None, timeout=5, what="the tap's lift")
    # The archive: the finished game of slot 5, replayed move by move with both hands.
    page.click("#archive summary")
    # The game in play's record (issue 15): from the link's public moves, no dealt card.
    with page.expect_download() as info:
        page.click("#record-play")
    play_path = tmp_path / "play.scn"
    info.value.save_as(str(play_path))
    assert info.value.suggested_filename == "kahuna-game-in-play.scn"
    wait_text(page, "#message", "Game record of the game in play downloaded")
    from host_tools.games.kahuna import record as gamerecord
    played = play_path.read_text()
    assert played.startswith(gamerecord.PUBLIC_TITLE + "a game in play")
    assert "expect bridges.ELAI-HUNA white" in played
    assert played.count(gamerecord.STAND_IN) == len(DEAL)  # the deal: stand-ins only
    page.wait_for_selector('#archive-list button[data-slot="5"]', timeout=5000)
    page.click('#archive-list button[data-slot="5"]')
    page.wait_for_selector("#replay", state="visible", timeout=5000)
    wait_text(page, "#replay-title", "Game 5 · variant standard, white starts, no handicap"
                                     " · played to its end")
    assert "Both hands are shown: the game is over" in text(page, "#replay-note")
    assert "game over" in text(page, "#replay-text")
    last = int(page.get_attribute("#replay-step", "max"))
    page.fill("#replay-step", "1")
    page.dispatch_event("#replay-step", "input")
    assert text(page, "#replay-count") == "move 1 of %d" % last
    assert text(page, "#replay-text").startswith("white is dealt ")
    page.click("#replay-next")
    assert text(page, "#replay-count") == "move 2 of %d" % last
    assert page.evaluate("() => document.querySelectorAll('#replay-hand-white [data-card]')"
                         ".length") == 2
    # Its game record (issue 15): a scenario file that replays to the same end.
    assert page.is_visible("#replay-record")
    with page.expect_download() as info:
        page.click("#replay-record")
    record_path = tmp_path / "record.scn"
    info.value.save_as(str(record_path))
    assert info.value.suggested_filename == "kahuna-game-slot5.scn"
    wait_text(page, "#message", "Game record of slot 5 downloaded")
    from host_tools.simulator.engine import run_commands
    from host_tools.simulator.scenario import parse
    report, failures = run_commands(gamekit.board(), parse(record_path.read_text(),
                                                           gamekit.board()))
    assert failures == [] and report["phase"] == "over"
    assert report["scores"] == finished_game_scores()
    # The README's picture: the live game (a white bridge, hands hidden) and the finished
    # game of the archive halfway through its replay, both hands shown.
    page.fill("#replay-step", str(last * 2 // 3))
    page.dispatch_event("#replay-step", "input")
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_timeout(300)
    out = SCREENSHOT if request.config.getoption("--update-screenshots") else str(
        tmp_path / "web-live.png")
    page.screenshot(path=out, full_page=True)
    with open(out, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    assert os.path.exists(SCREENSHOT), "docs/web-live.png is missing: make web-screenshot"
    # A new game from the form: the game in play is archived, and replays with sizes only.
    page.click("#settings summary")
    assert form(page) == {"ai": "none", "ai_level": "default", "variant": "standard",
                          "first": "white", "handicap": "none"}  # the settings in force
    page.select_option("#new-game select[name=variant]", "alternative")
    page.select_option("#new-game select[name=first]", "black")
    page.select_option("#new-game select[name=handicap]", "white:2")
    page.select_option("#new-game select[name=ai]", "white")
    page.select_option("#new-game select[name=ai_level]", "2")
    page.click("#new-game-button")
    wait_text(page, "#settings-line", "variant alternative, black starts, handicap: white "
                                      "places 2, the board plays white at level 2",
              timeout=SECOND)
    wait_text(page, "#status-line", "DEAL · Black is dealt")
    page.click("#archive-refresh")
    page.wait_for_selector('#archive-list button[data-slot="1"]', timeout=5000)
    assert "Game 1 · variant standard" in text(page, '#archive-list button[data-slot="1"]')
    page.click('#archive-list button[data-slot="1"]')
    wait_text(page, "#replay-title", "Game 1 · variant standard, white starts, no handicap"
                                     " · abandoned")
    assert "hand sizes only" in text(page, "#replay-note")
    assert page.is_visible("#replay-record")  # an abandoned game: its public record
    assert text(page, "#replay-text") == "white plays a HUNA card: a bridge on ELAI-HUNA"
    for step in range(1, 7):
        page.fill("#replay-step", str(step))
        page.dispatch_event("#replay-step", "input")
        assert text(page, "#replay-text").endswith("is dealt a card")
    assert page.evaluate("() => document.querySelectorAll('#replay-hands [data-card]').length"
                         ) == 0
    shown = text(page, "#hands-area") + text(page, "#panel")
    for card in DEAL:
        assert card not in shown, card
    page.reload()  # the form shows the settings in force, the board's level too
    wait_text(page, "#settings-line", "the board plays white at level 2", timeout=5000)
    assert form(page) == {"ai": "white", "ai_level": "2", "variant": "alternative",
                          "first": "black", "handicap": "white:2"}


def test_the_command_line_says_what_is_wrong(tmp_path):
    def web(*args):
        return subprocess.run([sys.executable, "-m", "host_tools", "web"] + list(args),
                              capture_output=True, text=True, cwd=ROOT, timeout=60)

    proc = web("--port", str(tmp_path / "ttyNONE"))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("web: cannot open %s: there is no such device"
                                  % (tmp_path / "ttyNONE"))
    proc = web("--port", "/dev/null", "--http-port", "70000")
    assert proc.returncode == 2 and "--http-port must be 0 to 65535" in proc.stderr
    bad = tmp_path / "board.json"
    bad.write_text("{")
    proc = web("--port", "/dev/null", "--board", str(bad))
    assert proc.returncode == 2 and proc.stderr.startswith("web: board: ")
    for proc in (web("--help"), web("--build", "--help")):
        assert proc.returncode == 0
    assert "--build" in web("--help").stdout
    assert "Build the browser simulator" in web("--build", "--help").stdout
    assert "Traceback" not in proc.stderr


def test_the_live_page_asks_again_while_the_board_boots():
    """Issue 15, defect 4: the state request the server sends at start is lost by a board
    still booting; it is asked again until the board answers."""
    import asyncio
    import threading

    import gamekit
    from core.link import Link
    from host_tools.simulator.engine import Simulation
    from host_tools.web.live import LiveBoard

    sim = Simulation(gamekit.board())
    sent = []
    Link(sim.app, sent.append, lambda: sim.now).feed(b'{"cmd": "state"}\n')
    state_line = sent[0].rstrip("\n").encode() + b"\n"

    class Booting:
        """A port whose board listens only after 2 s, then answers a state request."""

        def __init__(self):
            self.t0 = time.time()
            self.asked = 0
            self.out = []
            self.lock = threading.Lock()
            self.in_waiting = 0

        def write(self, data):
            with self.lock:
                self.asked += data.count(b'"state"')
                if time.time() - self.t0 > 2.0:
                    self.out.append(state_line)

        def read(self, n):
            time.sleep(0.05)
            with self.lock:
                return self.out.pop(0) if self.out else b""

        def close(self):
            pass

    async def run(live):
        live.start(asyncio.get_running_loop())
        for _ in range(100):
            await asyncio.sleep(0.1)
            if live.mon.state is not None:
                return

    port = Booting()
    live = LiveBoard(gamekit.board(), "fake", port)
    try:
        asyncio.run(run(live))
    finally:
        live.stop()
    assert live.mon.state is not None and port.asked >= 2
