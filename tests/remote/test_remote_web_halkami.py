"""A player alone at the browser takes a seat in a remote game of Halunken & Spelunken or
Kami (docs/remote.md, "The browser"): the static page (as `make web` builds it, in
Debian's Chromium, `?game=halunken` or `?game=kami`) creates the game and plays one seat,
host tables (`python -m host_tools remote join ... --player random|ai`) the others,
through a private Mosquitto's websockets listener and the dealer. Every table's report is
the same at the end, and a spy on `#` finds no hidden card on the wire before the rules
show it (Kami: check_kami_wire; Halunken: no card before every commitment is in, H7, and
the page's commitments digests). The Halunken page is closed right after a commitment and
opened again: it reveals from the card and nonce kept in the browser's local storage. A
Kami code joined from Kahuna's page opens Kami's page.

The page's seat is played by clicking its option buttons at random (PLAY, the benchmark's
player: host_tools/measure/remotepage.py)."""

import json
import os

import pytest
from remotekit import Spy, finish, path_in, report, start, stop
from test_remote_halkami import check_kami_wire
from test_remote_web import dealer, websocket_noise, wsbroker  # noqa: F401 (fixtures)

from host_tools.measure.remotepage import PLAY, WEIGHTS
from host_tools.remote import commit
from mpy_runner import ROOT
from websitekit import Page

SCREENSHOT = os.path.join(ROOT, "docs", "web-remote-halunken.png")
pytestmark = pytest.mark.slow


def open_page(context, server, game, keep=False):
    pg = Page(context, server.url + "?game=" + game, keep=keep)
    assert pg.js("() => kahuna.gameName") == game
    return pg


def create(pg, broker, players, target=None):
    pg.click("#remote summary")
    if target is not None:
        pg.page.fill("#remote-form [name=target]", str(target))
    pg.page.fill("#remote-form [name=url]", broker.ws_url)
    pg.page.fill("#remote-form [name=user]", "alice")
    pg.page.fill("#remote-form [name=password]", broker.passwords["alice"])
    pg.page.select_option("#remote-form [name=players]", str(players))
    pg.click("#remote-create")
    pg.wait("() => kahuna.remote.view() && kahuna.remote.state === 'online'", timeout=15000)
    return pg.js("() => kahuna.remote.view().code")


def host_tables(broker, tmp_path, code, kinds):
    return [start(["remote", "join", code, "--player", kind, "--seed", str(i + 2), "--report",
                   path_in(tmp_path, user + ".json"), "--secrets",
                   path_in(tmp_path, "secrets-" + user)] + broker.args(user),
                  path_in(tmp_path, user + ".log"))
            for i, (user, kind) in enumerate(zip(("bob", "carol", "dave"), kinds))]


# The page plays (random clicks) until it is offered a movement card to choose.
TO_CHOICE = """async () => {
  const end = performance.now() + 60000;
  for (;;) {
    const buttons = [...document.querySelectorAll("#remote-options button")];
    if (buttons.some((x) => JSON.parse(x.dataset.action)[0] === "commit")) return;
    if (buttons.length) buttons[Math.floor(Math.random() * buttons.length)].click();
    if (performance.now() > end) throw new Error("no movement card offered");
    await new Promise((r) => setTimeout(r, 5));
  }
}"""

# The page plays on (random clicks) until round `round`; then it clicks its first movement
# card offered and stops sending anything right after that commitment has gone out (as if
# the tab were closed then): the commitment counts, the reveal is left to the page opened
# again. Returns the option clicked.
COMMIT_AND_DIE = """async (round) => {
  const t = kahuna.remote.table;
  const end = performance.now() + 90000;
  for (;;) {
    const v = kahuna.remote.view();
    const buttons = [...document.querySelectorAll("#remote-options button")];
    const commits = buttons.filter((x) => JSON.parse(x.dataset.action)[0] === "commit");
    if (v.public && v.public.round >= round && commits.length) {
      const publish = t.publish.bind(t);
      window.dead = false;
      t.publish = (out) => {
        if (window.dead) return false;
        const sent = publish(out);
        if (out && out.message.action[0] === "commit") window.dead = true;
        return sent;
      };
      commits[0].click();
      return JSON.parse(commits[0].dataset.action);
    }
    if (buttons.length) buttons[Math.floor(Math.random() * buttons.length)].click();
    if (performance.now() > end) throw new Error("no commitment offered");
    await new Promise((r) => setTimeout(r, 5));
  }
}"""


def test_halunken_the_page_at_one_of_three_seats_its_screenshot_a_reload_after_committing(
        wsbroker, dealer, context, server, request, tmp_path):  # noqa: F811 (fixtures)
    spy = Spy(wsbroker)
    page = open_page(context, server, "halunken")
    code = create(page, wsbroker, 3)
    tables = host_tables(wsbroker, tmp_path, code, ("random", "ai"))
    pages = [page]
    try:
        # The page plays the set-up; its turn to choose a movement card: the picture
        # (make web-screenshot).
        page.js(TO_CHOICE)
        page.js("() => window.scrollTo(0, 0)")
        out = SCREENSHOT if request.config.getoption("--update-screenshots") else str(
            tmp_path / "web-remote-halunken.png")
        page.page.screenshot(path=out)
        assert "movement card" in page.text("#remote-options")
        assert page.js("() => kahuna.remote.view().seat") == "p1"
        # On in round 3: a commitment, then the page dies before it reveals.
        chosen = page.js(COMMIT_AND_DIE, 3)
        page.wait("() => window.dead", timeout=15000)
        key = "smartboard.remote.secrets.%s/alice" % code
        held = json.loads(page.js("(k) => localStorage.getItem(k)", key))
        assert [v[0] for v in held.values()].count(chosen[2]) >= 1
        figure = chosen[1]
        spy.wait_for(lambda m: m[0] == "kb/%s/event" % code
                      and json.loads(m[1])["action"][:2] == ["commit", figure],
                      "the page's commitment on the event topic")
        page.page.close()
        again = open_page(context, server, "halunken", keep=True)
        pages.append(again)
        assert ("Your game %s goes on: type your password and press Join." % code
                in again.text("#remote-message"))
        again.page.fill("#remote-form [name=password]", wsbroker.passwords["alice"])
        again.click("#remote-join")
        # The reveal comes from the kept secret: the figure is revealed and the round goes on.
        spy.wait_for(lambda m: m[0] == "kb/%s/move/alice" % code
                     and json.loads(m[1])["action"][:2] == ["reveal", figure],
                     "the page's reveal after the reload")
        ours = again.js(PLAY, [11, 0, WEIGHTS["halunken"]])
        for t in tables:
            finish(t, "a host table")
    finally:
        for t in tables:
            stop(t)
    assert ours == report(path_in(tmp_path, "bob.json")) == report(path_in(tmp_path,
                                                                           "carol.json"))
    assert ours["public"]["winner"] and commit.audit(ours["log"]) == []
    # Over: the page forgot its secrets.
    assert again.js("(k) => localStorage.getItem(k)", key) is None
    # The wire: the page's commitments are digests; no move names a card before its
    # figure's commitments were all announced.
    announced = commits = 0
    for topic, payload, _ in spy.got():
        action = json.loads(payload).get("action") or []
        if topic.endswith("/event") and action[:1] == ["reveal"]:
            announced += 1
        if topic == "kb/%s/move/alice" % code and action[:1] == ["commit"]:
            assert commit.is_digest(action[2])
            commits += 1
        if "/move/" in topic and action[:1] == ["reveal"]:
            assert announced >= 1
    assert commits >= 8 and announced == 8
    spy.close()
    with open(out, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    assert os.path.exists(SCREENSHOT), "docs/web-remote-halunken.png is missing: make " \
                                       "web-screenshot"
    websocket_noise(again)
    assert again.errors == []
    again.page.close()


def test_kami_the_page_against_a_host_table_ends_the_same_unseen(
        wsbroker, dealer, context, server, tmp_path):  # noqa: F811 (fixtures)
    spy = Spy(wsbroker)
    page = open_page(context, server, "kami")
    code = create(page, wsbroker, 2, target=5)
    tables = host_tables(wsbroker, tmp_path, code, ("ai",))
    try:
        # A card clicked in the hand: the one move open with it.
        page.wait("() => kahuna.remote.view().options.some((o) => o.length === 2)",
                  timeout=15000)
        move = page.js("() => kahuna.remote.view().options.find((o) => o.length === 2)")
        page.click('#remote-hand [data-card="%s"]' % move[1])
        page.wait("(c) => !kahuna.remote.view().hand.includes(c)", move[1], timeout=15000)
        ours = page.js(PLAY, [5, 0, WEIGHTS["kami"]])
        finish(tables[0], "bob's table")
    finally:
        stop(tables[0])
    assert ours == report(path_in(tmp_path, "bob.json"))
    assert ours["public"]["winner"] and ours["public"]["settings"]["target"] == 5
    snapshots = [json.loads(m[1]) for m in spy.got() if m[0].endswith("/snapshot")]
    seats = snapshots[-1]["seats"]
    assert seats == {"p1": "alice", "p2": "bob"}
    assert check_kami_wire(spy.got(), seats) >= ours["seq"]
    # The page laid face-down defences: on its move topic, named to the dealer alone.
    mine = [json.loads(m[1])["action"] for m in spy.got()
            if m[0] == "kb/%s/move/alice" % code]
    assert any(a[0] == "defend" and len(a) == 2 for a in mine)
    assert any(e[1] == "p1" and e[2] == ["defend"] for e in ours["log"])
    spy.close()
    assert "won by" in page.text("#remote-status")
    assert page.errors == []
    page.page.close()
    # Its code joined from Kahuna's page: the page of Kami opens, the game kept for a join.
    kahuna = open_page(context, server, "kahuna", keep=True)  # (keep: across the redirect)
    kahuna.click("#remote summary")
    for name, value in (("url", wsbroker.ws_url), ("user", "alice"),
                        ("password", wsbroker.passwords["alice"]), ("code", code)):
        kahuna.page.fill("#remote-form [name=%s]" % name, value)
    kahuna.click("#remote-join")
    kahuna.page.wait_for_url("**?game=kami", timeout=15000)
    kahuna.page.evaluate("async () => { await kahuna.ready; }")
    assert kahuna.js("() => kahuna.gameName") == "kami"
    assert ("Your game %s goes on: type your password and press Join." % code
            in kahuna.text("#remote-message"))
    websocket_noise(kahuna)
    assert kahuna.errors == []
    kahuna.page.close()
