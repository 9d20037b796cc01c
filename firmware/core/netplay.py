"""A Pico W's remote play at boot and in the settings menu: flashed to a Pico W only
(host_tools/maker/flash.py NETWORK_ONLY) and imported by main.py only on a board whose
definition says `"hardware": {"network": "wifi"}`; without /net.json its task does
nothing. A plain Pico carries none of it (its heap: issue 20, tests/core/test_boot_heap.py).

- `task(app, game_def, clock, out, net_start)`: the board's own seat (core.netseat, with
  the driver hw.net), which takes part in the journal's remote game if /remote.json names it, and in
  the one the settings menu creates or joins. The seat and the driver are loaded only then.
- `NetMenu`, set as `App.netplay`: the menu's `remote` item (`ITEM`: none, create, join)
  for a game with a remote seat (`game_def.remote_settings`); `done` on create starts at
  once, says the code and spells it on the islands while the game waits (core.codeshow),
  on join asks for the code first (core.codeentry).

Without the network the board plays at its own table as ever (docs/remote.md, "A Pico W
plays alone").
"""

import asyncio

from core import outcome as oc
from core.files import NET_FILE, REMOTE_FILE

ITEM = ("net", (None, "create", "join"))
PIXELS = 6  # the menu's pixels then: Kahuna's five items and this one; a code's places


def new_code(letters):
    """A new remote game's code: six of `letters` from the system's random source, each
    byte taken only below the largest multiple of len(letters) (no letter favoured)."""
    import os
    n = len(letters)
    top = 256 - 256 % n
    out = ""
    while len(out) < 6:
        for b in os.urandom(6):
            if b < top and len(out) < 6:
                out += letters[b % n]
    return out


def letter_pixels(app, letters):
    """The pixel of each of `letters` from the game (`letter_pixels`: Kahuna's islands by
    initial), or None for a game without it (the code in words only)."""
    f = getattr(app.game_def, "letter_pixels", None)
    return None if f is None else f(app.board, letters)


def has_file(path):
    try:
        open(path).close()
        return True
    except OSError:
        return False


class NetMenu:
    """The settings menu's part of remote play; `ask(op, code, settings)` creates ("create",
    with the game's remote settings) or joins ("join", settings None) a remote game."""

    def __init__(self, ask):
        self.ask = ask

    def items(self, game_def, items):
        """The menu's items: the game's, and `remote` for a game that has a remote seat."""
        if hasattr(game_def, "remote_settings"):
            return tuple(items) + (ITEM,)
        return items

    def pixels(self, game_def, board):
        return game_def.menu_pixels(board, PIXELS)

    def drop(self, chosen):
        """The menu's settings without this item's (a game at this table)."""
        chosen.pop(ITEM[0], None)

    def start(self, app):
        """The menu's `done`: a create starts at once (its code said), a join asks for the
        code first and starts once it is entered. None when the menu starts a game at this
        table."""
        m = app.menu
        if hasattr(m, "code"):  # the code was entered: join
            code = m.code()
            app.menu = None
            self.ask("join", code, None)
            return oc.Outcome(oc.MENU, None, "remote game %s: joining" % code, (), False)
        op = m.settings({}).get(ITEM[0])
        if op is None:
            return None
        from core.remoteproto import NEW_CODE_LETTERS
        if op == "join":
            from core.codeentry import CodeEntry
            app.menu = CodeEntry(NEW_CODE_LETTERS, letter_pixels(app, NEW_CODE_LETTERS))
            return oc.Outcome(oc.MENU, None, app.menu.words(), (), False)
        chosen = m.settings(app.settings)
        del chosen[ITEM[0]]
        try:
            settings = app.game_def.remote_settings(chosen)
        except ValueError as e:
            return app.referee.refuse(oc.BAD_SETTINGS, "these settings make no remote game: "
                                      "%s" % e)
        code = new_code(NEW_CODE_LETTERS)
        app.menu = None
        pixels = letter_pixels(app, code)
        if pixels is not None:  # the code on the islands until the seat starts the game
            from core.codeshow import CodeShow
            app.menu = CodeShow(code, pixels)
        self.ask("create", code, settings)
        return oc.Outcome(oc.MENU, None, "remote game %s: give the other table this code"
                          % code, (), False)


def task(app, game_def, clock, out, net_start):
    """The seat's task on a Pico W set up for remote play, or None without /net.json.
    `net_start` is the driver's start (hw.net.start: main.py imports the driver, the core
    no hardware)."""
    if not has_file(NET_FILE):
        return None
    made = []

    def runner():
        if not made:
            from core import netseat
            made.append(netseat.Runner(app, net_start, REMOTE_FILE, NET_FILE, clock,
                                       lambda line: out({"event": "net", "say": line})))
        return made[0]

    if (app.settings or {}).get("remote") is not None and has_file(REMOTE_FILE):
        runner().begin()
    if hasattr(game_def, "remote_settings"):
        def ask(op, code, settings):
            from core.remoteproto import hello
            runner().begin(code, hello("create", "white", settings) if op == "create"
                           else hello("join"))
        app.netplay = NetMenu(ask)

    async def run():
        while not made:
            await asyncio.sleep_ms(250)
        await made[0].run()
    return run()
