"""A player alone at the browser takes a seat in a remote game (docs/remote.md, "The
browser"): the static page (as `make web` builds it, in Debian's Chromium) against a host
table (`python -m host_tools remote join ... --player random`), through a private
Mosquitto's websockets listener and the dealer. Both tables' reports are the same at the
end; a page reloaded mid-game, old and future events, the other table killed and a
broker restarted mid-game are healed; no card is on the
wire before its owner plays it or the rules reveal it; a wrong code, a wrong password and a
broker that is not there each get one clear line on the page.

The page's seat is played by clicking its option buttons (#remote-options) at random, with
the host random player's weighting (PLAY, the benchmark's player:
host_tools/measure/remotepage.py).
(A virtual board against the page: test_board_page.py.)"""

import json
import os
import signal

import pytest
from remotekit import Spy, finish, output, path_in, report, start, stop
from test_remote_game import check_privacy

from host_tools.measure.remotepage import PLAY
from host_tools.remote.localbroker import Broker
from mpy_runner import ROOT
from websitekit import Page

SCREENSHOT = os.path.join(ROOT, "docs", "web-remote.png")
pytestmark = pytest.mark.slow

@pytest.fixture
def wsbroker(tmp_path):
    b = Broker(tmp_path / "broker", websockets=True)
    yield b
    b.stop()


@pytest.fixture
def dealer(wsbroker, tmp_path):
    proc = start(["dealer"] + wsbroker.args("dealer") + ["--seed", "11"],
                 path_in(tmp_path, "dealer.log"))
    yield proc
    stop(proc)


@pytest.fixture
def page(context, server):
    pg = Page(context, server.url)
    yield pg
    assert pg.errors == []
    pg.page.close()


def fill(pg, broker, user, password=None, code=None):
    pg.click("#remote summary")
    pg.page.fill("#remote-form [name=url]", broker.ws_url)
    pg.page.fill("#remote-form [name=user]", user)
    pg.page.fill("#remote-form [name=password]",
                 broker.passwords[user] if password is None else password)
    if code is not None:
        pg.page.fill("#remote-form [name=code]", code)


def create(pg, broker, user="alice"):
    """Create a game on the page: its code."""
    fill(pg, broker, user)
    pg.click("#remote-create")
    pg.wait("() => kahuna.remote.view() && kahuna.remote.state === 'online'", timeout=15000)
    return pg.js("() => kahuna.remote.view().code")


def host_table(broker, tmp_path, code, seed=2, user="bob"):
    return start(["remote", "join", code, "--player", "random", "--seed", str(seed),
                  "--report", path_in(tmp_path, user + ".json")] + broker.args(user),
                 path_in(tmp_path, user + ".log"))


def message(pg):
    return pg.text("#remote-message")


def test_a_whole_game_between_the_page_and_a_host_table_ends_the_same_unseen(
        wsbroker, dealer, page, server, tmp_path):
    spy = Spy(wsbroker)  # every topic (#), the whole game long
    code = create(page, wsbroker)
    assert "Game code: %s" % code in message(page)
    bob = host_table(wsbroker, tmp_path, code)
    try:
        ours = page.js(PLAY, [7, 0])
        finish(bob, "bob's table")
    finally:
        stop(bob)
    theirs = report(path_in(tmp_path, "bob.json"))
    assert ours == theirs
    assert ours["public"]["winner"] in ("white", "black", "draw")
    assert [e[0] for e in ours["log"]] == list(range(1, ours["seq"] + 1))
    # The page's seat did play: bridges of white's, and requests on alice's move topic.
    assert any(e[1] == "white" and e[2][0] == "place" for e in ours["log"])
    assert check_privacy(spy.got(), {"white": "alice", "black": "bob"}) == ours["seq"]
    assert any(m[0] == "kb/%s/move/alice" % code for m in spy.got())
    spy.close()
    # The MQTT client came from the site itself (no CDN), and nothing else from elsewhere
    # (its timer worker is a blob of the page's own making).
    assert server.url + "vendor/mqtt/mqtt.esm.js" in page.requests
    local = (server.url, "data:", "blob:" + server.url)
    assert all(u.startswith(local) for u in page.requests), page.requests
    # The page shows the end: the winner, and no option left.
    assert "wins" in page.text("#remote-status") or "draw" in page.text("#remote-status")
    assert page.js("() => document.querySelectorAll('#remote-options button').length") == 0


def test_a_page_reloaded_a_table_killed_and_a_broker_restarted_mid_game_lose_no_move(
        wsbroker, dealer, page, context, server, tmp_path):
    code = create(page, wsbroker)
    bob = host_table(wsbroker, tmp_path, code, seed=3)
    pages = [page]
    try:
        assert page.js(PLAY, [5, 30]) is None  # the game at event 30 or more
        page.page.close()  # the tab closed (or reloaded) mid-game...
        again = Page(context, server.url, keep=True)  # ...and the page opened again
        pages.append(again)
        assert again.js("() => document.getElementById('remote').open") is True
        assert again.page.input_value("#remote-form [name=code]") == code
        assert ("Your game %s goes on: type your password and press Join." % code
                in message(again))
        again.page.fill("#remote-form [name=password]", wsbroker.passwords["alice"])
        again.click("#remote-join")  # the same user joins again: its hand and the snapshot
        again.wait("() => kahuna.remote.view().current", timeout=15000)
        assert again.js("() => kahuna.remote.view().seat") == "white"
        seq = again.js("() => kahuna.remote.view().seq")
        assert seq >= 30

        # Old events said again (QoS 1 may) and one from the future (a gap): dropped, and
        # the gap healed from the retained snapshot.
        as_dealer = Spy(wsbroker, "dealer", topics=("kb/none",))
        snap = Spy(wsbroker, "spy", topics=("kb/%s/snapshot" % code,))
        log = json.loads(snap.wait_for(lambda m: True, "the snapshot")[0][1])["log"]
        snap.close()
        for s, actor, action in log[:10]:
            as_dealer.publish("kb/%s/event" % code, json.dumps(
                {"v": 1, "game": code, "seq": s, "actor": actor, "action": action,
                 "public": None}))
        as_dealer.publish("kb/%s/event" % code, json.dumps(
            {"v": 1, "game": code, "seq": len(log) + 1000, "actor": None,
             "action": ["display", []], "public": None}))
        as_dealer.close()
        again.wait("() => kahuna.remote.healed >= 1", timeout=15000)
        assert again.js("() => kahuna.remote.view().seq") >= seq

        # The other table killed outright mid-game, and started again with join.
        assert again.js(PLAY, [6, seq + 20]) is None
        bob.send_signal(signal.SIGKILL)
        bob.wait(10)
        bob = host_table(wsbroker, tmp_path, code, seed=4)
        assert again.js(PLAY, [7, seq + 40]) is None
        wsbroker.restart()  # the broker restarted mid-game: both tables connect again
        ours = again.js(PLAY, [8, 0])
        finish(bob, "bob's table, started again")
    finally:
        stop(bob)
    assert ours == report(path_in(tmp_path, "bob.json"))
    assert [e[0] for e in ours["log"]] == list(range(1, ours["seq"] + 1))
    assert "no connection to the broker" in output(bob)  # it lived through the restart
    websocket_noise(again)
    assert again.errors == []
    again.page.close()


def websocket_noise(pg):
    """Chromium's own console lines for a websocket that could not connect or was closed
    under the client (the broker down, refusing, restarting): the browser's, not the
    page's; the page says it in its words."""
    pg.errors[:] = [e for e in pg.errors if not e.startswith(
        ("WebSocket connection to", "WebSocket is already in CLOSING or CLOSED state"))]


def test_bad_input_on_the_page_is_one_clear_line_and_changes_nothing(
        wsbroker, dealer, page, tmp_path):
    def attempt(button, expected, state="off", **form):
        page.page.fill("#remote-form [name=url]", form.get("url", wsbroker.ws_url))
        page.page.fill("#remote-form [name=user]", form.get("user", "bob"))
        page.page.fill("#remote-form [name=password]",
                       form.get("password", wsbroker.passwords["bob"]))
        page.page.fill("#remote-form [name=code]", form.get("code", ""))
        page.click(button)
        page.wait("(t) => document.getElementById('remote-message').textContent.includes(t)",
                  expected, timeout=15000)
        text = message(page)
        assert "\n" not in text.strip() and "Traceback" not in text, text
        return text

    before = page.view()["state"]
    page.click("#remote summary")
    attempt("#remote-join", "A game code is six letters and digits", code="AB1")
    attempt("#remote-join", "ws://HOST:PORT or wss://HOST:PORT", url="http://127.0.0.1:1",
            code="K7QXM2")
    attempt("#remote-create", "A user name is 1 to 40 letters", user="bob smith")
    attempt("#remote-join", "Type the user name and password", password="", code="K7QXM2")
    for button in ("#remote-create", "#remote-join"):
        attempt(button, "The broker refused user bob: wrong user name or password.",
                password="not-it", code="K7QXM2")
        assert page.js("() => kahuna.remote.state") == "failed"
    wsbroker.stop()
    try:
        attempt("#remote-join", "No broker answers at %s" % wsbroker.ws_url, code="K7QXM2")
    finally:
        wsbroker.start()
    websocket_noise(page)
    # None of it touched the page's own game, nor left it for a remote one.
    assert page.view()["state"] == before
    assert page.js("() => document.body.classList.contains('remote')") is False
    # A well-formed code of no game: the dealer says so (and the page keeps asking, as a
    # join that comes before its game's create is answered once the game exists).
    attempt("#remote-join", "The dealer refused: unknown-game: no game K7QXM2 (still asking)",
            code="K7QXM2")
    assert page.js("() => kahuna.remote.state") == "online"
    page.click("#remote-leave")
    assert page.js("() => document.body.classList.contains('remote')") is False
    websocket_noise(page)


def test_screenshot_of_a_game_across_tables(wsbroker, dealer, page, request, tmp_path):
    """docs/web-remote.png, the README's picture of the page at a remote table: the
    page's turn, its options offered (rewritten with --update-screenshots, make
    web-screenshot); then a bridge placed by clicking its connection on the board."""
    code = create(page, wsbroker)
    bob = host_table(wsbroker, tmp_path, code, seed=4)
    try:
        assert page.js(PLAY, [9, 40]) is None
        page.wait("() => document.querySelectorAll('#remote-options button').length > 2",
                  timeout=30000)
        page.js("() => window.scrollTo(0, 0)")
        out = SCREENSHOT if request.config.getoption("--update-screenshots") else str(
            tmp_path / "web-remote.png")
        page.page.screenshot(path=out)
        # A connection clicked on the board makes the one move open there.
        opts = page.js("() => kahuna.remote.view().options")
        ends = [o[-1] for o in opts]
        one = [o for o in opts if o[0] in ("place", "remove") and ends.count(o[-1]) == 1]
        assert one, opts
        page.click('#remote-board .hit[data-conn="%s"]' % one[0][-1])
        page.wait("(a) => JSON.stringify(kahuna.remote.view().event.slice(1)) === "
                  "JSON.stringify(['white', a])", one[0], timeout=15000)
    finally:
        stop(bob)
    with open(out, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    assert os.path.exists(SCREENSHOT), "docs/web-remote.png is missing: make web-screenshot"
