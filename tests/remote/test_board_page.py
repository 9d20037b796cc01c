"""A virtual board against the web page (docs/remote.md, "A board at a table" and "The
browser"): the page (as `make web` builds it, in Debian's Chromium) creates a Kahuna game
and plays white by clicking its options at random (PLAY); a virtual board with the
firmware flashed on it (`make flash`) takes black through its bridge (`remote join --port
--echo`), its simulated player typing taps, presses and picks (test_board_broker.Bridge);
both through a private Mosquitto (its websockets listener for the page) and the dealer.
On the way the page is closed and opened again (it joins its game again) and the broker
restarts. Both tables' reports are the same at the end, and the board's own state is the
game's; the spy on `#` sees no card before the rules show it."""

import json

import pytest
from pagekit import BoardPlayer, rejoin
from remotekit import Spy, path_in
from test_board_broker import Bridge
from test_remote_game import check_privacy
from test_remote_web import create, dealer, page, websocket_noise, wsbroker  # noqa: F401

from host_tools.games.kahuna import remote as kremote
from host_tools.measure.remotepage import PLAY
from vboardkit import flash_vboard

pytestmark = pytest.mark.slow
WAIT = 60


@pytest.fixture
def board(tmp_path):
    """A virtual board with Kahuna flashed on it (about 6 s)."""
    d = tmp_path / "black"
    d.mkdir()
    gen = flash_vboard(d)
    yield next(gen)
    for _ in gen:
        pass


def test_a_virtual_board_plays_the_page_through_a_reload_and_a_broker_restart(
        wsbroker, dealer, page, context, server, board, tmp_path):  # noqa: F811
    spy = Spy(wsbroker)
    code = create(page, wsbroker)  # the page's user alice creates: white
    mine = path_in(tmp_path, "black.json")
    table = Bridge(["remote", "join", code, "--port", board.port, "--echo", "--report", mine]
                   + wsbroker.args("bob"), path_in(tmp_path, "black.log"), "black", 3)
    player = BoardPlayer(table)
    pages = [page]

    def play(pg, seed, until):
        """The page's seat played to event `until` (0: the end), with the board's side
        told when it does not get there."""
        try:
            return pg.js(PLAY, [seed, until])
        except Exception as e:
            v = pg.js("() => kahuna.remote.view()") or {}
            public = v.get("public") or {}
            view = {k: v.get(k) for k in ("seq", "current", "asked", "options", "last",
                                          "hand", "event")}
            view.update({k: public.get(k) for k in ("turn", "phase", "hand_sizes")})
            if public and v.get("hand") is not None:  # what the page's seat may do
                view["rules"] = kremote.options(public, v["hand"], "white")
            raise AssertionError("%s; the page: %s; the board: %s %s; its bridge: %s" % (
                e, view, player.error, table.player.news,
                open(table.log_path).read()[-1500:])) from None
    try:
        assert play(page, 5, 25) is None  # the game at event 25 or more
        player.check()
        page.page.close()  # the tab closed (or reloaded) mid-game, and opened again
        again = rejoin(context, server, wsbroker, code)
        pages.append(again)
        assert again.js("() => kahuna.remote.view().seat") == "white"
        seq = again.js("() => kahuna.remote.view().seq")
        assert seq >= 25
        assert play(again, 6, seq + 30) is None
        player.check()
        wsbroker.restart()  # the broker restarted mid-game: the page and the bridge again
        ours = play(again, 7, 0)
        player.finish(WAIT)
        assert table.proc.wait(WAIT) == 0, open(table.log_path).read()[-2000:]
    finally:
        player.stop()
        if table.proc.poll() is None:
            table.kill()
    theirs = json.load(open(mine))
    assert ours == theirs
    assert ours["public"]["winner"] in ("white", "black", "draw")
    assert [e[0] for e in ours["log"]] == list(range(1, ours["seq"] + 1))
    # Both seats played: bridges of each, the board's through its bridge (bob's moves).
    assert {e[1] for e in ours["log"] if e[2][0] == "place"} == {"white", "black"}
    for key in ("bridges", "control", "scores", "winner", "round", "hand_sizes"):
        assert table.player.state[key] == ours["public"][key], key  # the board's own state
    assert check_privacy(spy.got(), {"white": "alice", "black": "bob"}) >= ours["seq"]
    assert "no connection to the broker" in open(table.log_path).read()  # the restart
    spy.close()
    websocket_noise(again)
    assert again.errors == []
    again.page.close()
