"""Helpers of the tests that put the web page at a remote table against something else
than a host table (test_board_page.py): the page opened again on its game, and a virtual
board's simulated player driven in a thread while the page plays in the browser."""

import threading
import time

from websitekit import Page

WAIT = 60  # seconds without news from the board's bridge before the player gives up


def rejoin(context, server, broker, code, user="alice"):
    """The page opened again (a reload: the game kept in the browser's storage) and its
    user joined again: the new Page, once its table is current."""
    pg = Page(context, server.url, keep=True)
    assert pg.js("() => document.getElementById('remote').open") is True
    assert pg.page.input_value("#remote-form [name=code]") == code
    pg.page.fill("#remote-form [name=password]", broker.passwords[user])
    pg.click("#remote-join")
    pg.wait("() => kahuna.remote.view() && kahuna.remote.view().current", timeout=15000)
    return pg


class BoardPlayer:
    """The player at a virtual board, in a thread: `table` (test_board_broker.Bridge: the
    bridge's process and the player's taps, presses and picks) reads its bridge and acts
    until the game is over at that table, `stop()` is called or no news came for WAIT s;
    `error` holds what went wrong."""

    def __init__(self, table):
        self.table = table
        self.error = None
        self.halt = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        t = self.table
        quiet_since = time.monotonic()
        try:
            while not self.halt.is_set() and not t.player.over():
                news = t.take()
                moved = t.player.act()
                if news or moved:
                    quiet_since = time.monotonic()
                elif time.monotonic() - quiet_since > WAIT:
                    raise AssertionError("no news from the board's bridge for %d s: %s"
                                         % (WAIT, (t.player.news,
                                                   t.player.table and t.player.table["seq"])))
                time.sleep(0.005)
        except Exception as e:  # the test raises it (check)
            self.error = e

    def check(self):
        if self.error is not None:
            raise self.error

    def finish(self, timeout):
        """Wait for the game's end at the board's table; the player's error, if any."""
        self.thread.join(timeout)
        self.check()
        assert self.table.player.over(), "the board's table did not end within %d s" % timeout

    def stop(self):
        self.halt.set()
        self.thread.join(10)
