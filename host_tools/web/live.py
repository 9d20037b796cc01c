"""`python -m host_tools web --port PORT`: the live board in the browser.

A local web server (aiohttp: HTTP and the WebSocket, nothing hand-written) that owns the
board's serial port (linkclient.open_port: exclusive, as the monitor and the other tools)
and serves the live page (web/live.html with the page's own drawing code, web/js/) on
localhost. Each browser is connected through a WebSocket at /ws:

server -> browser, JSON:
    {"type": "hello", "port": PORT}
    {"type": "board", "state": STATE, "message": TEXT, "style": "good"|"bad"|null,
     "refusal": TEXT|null, "hint": TEXT, "log": [ENTRY...], "game": G, "seq": S}
                            STATE as the link's (core.link), kept by linkclient.Tracker
                            in maker/boardnews.py, which the terminal monitor draws
                            too; G and S of the board's last event line;
                            ENTRY {"text", "style"}: the event in words, as the monitor's
    {"type": "cards", "cards": {UID: CARD}, "missing": [CARD...]}
    {"type": "enroll", "event": "enroll-wait"|"enrolled"|"enroll-refused"|"enroll-stopped", ...}
    {"type": "archive", "games": [{"slot", "game", "settings"}...]}
    {"type": "replay", "slot": N, ...replay.replay()'s answer}
    {"type": "device", "lines": [TEXT...]}        the board's lines that are not JSON
    {"type": "error", "message": TEXT}            a request refused, or the board went away

browser -> server, JSON:
    {"cmd": ...}            a link command, one of SAFE_CMDS (the board checks the rest)
    {"op": "archive"}       list the board's archived games
    {"op": "replay", "slot": N}   fetch one (core.link archive pieces) and replay it
    {"op": "record", "slot": N}   fetch one and write it as a scenario (the game's
                                  `record` part): {"type": "record", "slot", "text"};
                                  a game not played to its end from what is public
    {"op": "record"}        the game in play the same way, from the link's `moves` (its
                            public records: stand-ins for its hidden cards); "slot" null

Hidden cards: the server passes on what the board sends, and the board sends no card of a
hand unless a host asked for the hands with reveal (its state then says "revealed", and
the page says so). An archived game is replayed here, and the browser gets only what
the game's `replay` part (host_tools/games/<game>/replay.py) lets it show. Only this
computer is served by default, and the
WebSocket takes connections from this server's own page only (Origin and Host checked):
another site open in the same browser cannot reach the board.
"""

import argparse
import asyncio
import base64
import json
import os
import signal
import sys
import threading
import time
from urllib.parse import urlsplit

from core import board as boardmod
from host_tools import gamearg
from host_tools import games as hostgames
from host_tools.maker.boardnews import ASK_S, BoardNews
from host_tools.maker.linkclient import PortError, open_port
from host_tools.mpy import ROOT

WEB = os.path.join(ROOT, "web")
PAGE = "live.html"
SAFE_CMDS = ("state", "reveal", "new", "tap", "press", "pick", "selftest", "cards", "enroll")
LOG_KEEP = 200  # event log entries kept for a browser that connects later
ENROLL_EVENTS = ("enroll-wait", "enrolled", "enroll-refused", "enroll-stopped")
ARCHIVE_EVENTS = ("archived", "archive", "archive-part", "moves")
ANSWER_S = 5.0  # seconds the board has to answer an archive request


class LiveBoard:
    """The port, a thread reading its lines into the event loop, the board's news (its
    state and each event in words: maker/boardnews.py, as the terminal monitor has them)
    and the browsers."""

    def __init__(self, board, port_name, port):
        self.board = board
        self.port_name = port_name
        self.port = port
        self.mon = BoardNews(board)  # the board's state and each event in words
        self.track = self.mon.tracker  # what the board told: the one state both show
        self.log = []
        self.sockets = set()
        self.waiters = []  # [(predicate, future)]: answers to the archive requests
        self.archive_lock = asyncio.Lock()
        self.loop = None
        self.stopping = threading.Event()
        self.thread = None
        self.gone = None  # why the port stopped working
        self.revealed = False  # a page asked the board for the hands
        self.asked = time.time()  # when the state was last asked for

    # ------------------------------------------------------------ the serial side

    def start(self, loop):
        self.loop = loop
        self.thread = threading.Thread(target=self._read, name="serial", daemon=True)
        self.thread.start()
        self.send({"cmd": "state"})

    def _read(self):
        buf = b""
        while not self.stopping.is_set():
            try:
                data = self.port.read(self.port.in_waiting or 1)
            except (OSError, ValueError, TypeError) as e:  # unplugged, or closed by stop
                if not self.stopping.is_set():
                    self.loop.call_soon_threadsafe(self._lost, str(e))
                return
            if not data:
                if self.mon.state is None and time.time() - self.asked >= ASK_S:
                    # A board still booting lost the request: ask again until it answers.
                    self.asked = time.time()
                    self.loop.call_soon_threadsafe(self.send, {"cmd": "state"})
                continue
            buf += data
            *lines, buf = buf.split(b"\n")
            for raw in lines:
                self.loop.call_soon_threadsafe(self.line, raw)

    def _lost(self, why):
        self.gone = why
        self.broadcast({"type": "error", "message": "the board's port %s went away (%s)"
                                                    % (self.port_name, why)})

    def send(self, obj):
        try:
            self.port.write((json.dumps(obj) + "\n").encode())
        except OSError as e:
            self._lost(str(e))

    def stop(self):
        if self.revealed:  # the reveal is the board's: the next program must not inherit it
            self.send({"cmd": "reveal", "on": False})
        self.stopping.set()
        if self.thread is not None:
            self.thread.join(timeout=2)
        self.port.close()

    def line(self, raw):
        """One line from the board: the state, the log and the browsers follow it."""
        text = raw.decode("utf-8", "replace").strip()
        if not text:
            return
        try:
            msg = json.loads(text)
        except ValueError:
            msg = None
        if not isinstance(msg, dict):
            self.mon.line(text)
            self.broadcast({"type": "device", "lines": self.mon.device})
            return
        event = msg.get("event")
        if event in ARCHIVE_EVENTS or ("error" in msg and self.waiters):
            # An answer to an archive request: not the game's news.
            for i, (pred, fut) in enumerate(self.waiters):
                if "error" in msg or pred(msg):
                    del self.waiters[i]
                    if not fut.done():
                        fut.set_result(msg)
                    break
            return
        self.mon.line(text)
        if self.track.ask_state:
            self.track.ask_state = False
            self.send({"cmd": "state"})
        if event == "cards" and isinstance(msg.get("cards"), dict) \
                and isinstance(msg.get("missing"), list):
            self.broadcast({"type": "cards", "cards": msg["cards"], "missing": msg["missing"]})
        elif event in ENROLL_EVENTS:
            self.broadcast(dict(msg, type="enroll"))
            if event == "enrolled":
                self.send({"cmd": "cards"})  # the registry changed: show it whole
        self.log.append({"text": self.mon.message, "style": self.mon.style})
        del self.log[:-LOG_KEEP]
        self.broadcast(self.board_message(self.log[-1:]))

    def board_message(self, log):
        return {"type": "board", "state": self.track.state, "message": self.mon.message,
                "style": self.mon.style, "refusal": self.mon.refusal, "hint": self.hint(),
                "log": log, "game": self.track.game, "seq": self.track.seq}

    def hint(self):
        """What the player on turn can do now, as the monitor says it."""
        try:
            state = self.track.state
            textboard = hostgames.part(self.board.game, "textboard")
            return textboard.hint(self.board, state) if state else ""
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            return ""  # a state the board sent half of: the next one will do

    async def ask(self, cmd, pred):
        """Send `cmd`; the board's first line that `pred` accepts (or an error line)."""
        fut = self.loop.create_future()
        self.waiters.append((pred, fut))
        self.send(cmd)
        try:
            return await asyncio.wait_for(fut, ANSWER_S)
        except asyncio.TimeoutError:
            self.waiters = [w for w in self.waiters if w[1] is not fut]
            raise PortError("the board did not answer %s within %.0f s"
                            % (json.dumps(cmd), ANSWER_S)) from None

    # ------------------------------------------------------------ archived games

    def replays(self):
        """The game's `replay` part: its archived games replayed move by move; a game
        without one gets PortError (the page says it)."""
        try:
            return hostgames.part(self.board.game, "replay")
        except hostgames.NoGame as e:
            raise PortError(str(e)) from None

    async def archive_list(self):
        games = []

        def listed(msg):
            if msg.get("event") == "archived":
                games.append({"slot": msg.get("slot"), "game": msg.get("game"),
                              "settings": self.replays().full_settings(msg.get("settings"))})
                return False
            return msg.get("event") == "archive"

        async with self.archive_lock:
            msg = await self.ask({"cmd": "archive"}, listed)
        if "error" in msg:
            raise PortError(msg["error"])
        return sorted(games, key=lambda g: -(g["game"] or 0))

    async def archive_fetch(self, slot):
        data = b""
        async with self.archive_lock:
            while True:
                offset = len(data)
                msg = await self.ask(
                    {"cmd": "archive", "slot": slot, "offset": offset},
                    lambda m, o=offset: (m.get("event") == "archive-part"
                                         and m.get("slot") == slot and m.get("offset") == o))
                if "error" in msg:
                    raise PortError(msg["error"])
                try:
                    piece = base64.b64decode(msg.get("data", ""), validate=True)
                except ValueError:
                    raise PortError("the board sent a damaged piece of game %s" % slot) \
                        from None
                data += piece
                if msg.get("end") or not piece:
                    return data

    async def moves_fetch(self):
        """The game in play's public records (the link's `moves`), piece by piece."""
        items = []
        game = None
        async with self.archive_lock:
            start = 0
            while True:
                msg = await self.ask({"cmd": "moves", "from": start},
                                     lambda m, s=start: (m.get("event") == "moves"
                                                         and m.get("from") == s))
                if "error" in msg:
                    raise PortError(msg["error"])
                moves, nxt = msg.get("moves"), msg.get("next")
                if (not isinstance(moves, list) or type(nxt) is not int
                        or (game is not None and msg.get("game") != game)):
                    raise PortError("the game in play changed or its moves came damaged")
                game = msg.get("game")
                items += moves
                if msg.get("end"):
                    return items
                start = nxt

    # ------------------------------------------------------------ browsers

    def broadcast(self, obj):
        text = json.dumps(obj)
        for ws in list(self.sockets):
            if not ws.closed:
                asyncio.ensure_future(ws.send_str(text))

    async def request(self, ws, msg):
        """One request from a browser."""
        if not isinstance(msg, dict):
            raise PortError("a request is a JSON object")
        if "cmd" in msg:
            if msg["cmd"] not in SAFE_CMDS:
                raise PortError("the page cannot send %r to the board" % (msg["cmd"],))
            if msg["cmd"] == "reveal":
                self.revealed = msg.get("on") is True
            self.send(msg)
            return
        op = msg.get("op")
        if op == "archive":
            games = await self.archive_list()
            await ws.send_json({"type": "archive", "games": games})
        elif op == "replay":
            slot = msg.get("slot")
            data = await self.archive_fetch(slot)
            revealed = bool(self.mon.state and self.mon.state.get("revealed"))
            replays = self.replays()
            try:
                got = replays.replay(self.board, data, revealed=revealed)
            except replays.ReplayError as e:
                raise PortError("archived game in slot %s: %s" % (slot, e)) from None
            await ws.send_json(dict(got, type="replay", slot=slot))
        elif op == "record":
            slot = msg.get("slot")
            try:
                record = hostgames.part(self.board.game, "record")
            except hostgames.NoGame as e:
                raise PortError(str(e)) from None
            try:
                if slot is None:
                    text = record.from_records(self.board, await self.moves_fetch())
                else:
                    text = record.scenario(self.board, await self.archive_fetch(slot))
            except record.RecordError as e:
                raise PortError("game record of %s: %s" % (
                    "the game in play" if slot is None else "slot %s" % slot, e)) from None
            await ws.send_json({"type": "record", "slot": slot, "text": text})
        else:
            raise PortError("unknown request %r" % (msg,))


LOCAL_NAMES = ("127.0.0.1", "localhost", "::1")


def make_app(live, host="127.0.0.1"):
    from aiohttp import WSMsgType, web

    geometry = None
    names = set(LOCAL_NAMES) | {host}

    @web.middleware
    async def known_host(request, handler):
        # A page of another site whose name was pointed at 127.0.0.1 (DNS rebinding)
        # would pass the Origin check below: on this computer only, the Host must be ours.
        if host not in ("0.0.0.0", "::") and urlsplit("//" + request.host).hostname \
                not in names:
            raise web.HTTPForbidden(text="unknown host name")
        return await handler(request)

    async def index(request):
        return web.FileResponse(os.path.join(WEB, PAGE))

    async def board_json(request):
        nonlocal geometry
        if geometry is None:
            picture = hostgames.part(live.board.game, "picture")
            geometry = json.dumps(picture.page_geometry(live.board))
        return web.Response(text=geometry, content_type="application/json")

    async def socket(request):
        # Only the page this server serves may connect: a browser lets any site open a
        # WebSocket to localhost, and such a one could ask the board for the hands.
        origin = request.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc != request.host:
            raise web.HTTPForbidden(text="WebSocket connections come from this server's "
                                         "own page only")
        ws = web.WebSocketResponse(heartbeat=20)
        await ws.prepare(request)
        live.sockets.add(ws)
        try:
            await ws.send_json({"type": "hello", "port": live.port_name})
            if live.mon.state is not None:
                await ws.send_json(live.board_message(live.log[-50:]))
            if live.gone:
                await ws.send_json({"type": "error", "message": "the board's port went "
                                                                "away (%s)" % live.gone})
            async for m in ws:
                if m.type != WSMsgType.TEXT:
                    continue
                try:
                    await live.request(ws, json.loads(m.data))
                except (ValueError, PortError) as e:
                    await ws.send_json({"type": "error", "message": str(e)})
        finally:
            live.sockets.discard(ws)
        return ws

    app = web.Application(middlewares=[known_host])
    app.router.add_get("/", index)
    app.router.add_get("/board.json", board_json)
    app.router.add_get("/ws", socket)
    app.router.add_get("/style.css", lambda r: web.FileResponse(os.path.join(WEB, "style.css")))
    app.router.add_get("/live.css", lambda r: web.FileResponse(os.path.join(WEB, "live.css")))
    app.router.add_static("/js/", os.path.join(WEB, "js"))
    return app


async def serve(live, host, http_port):
    from aiohttp import web

    live.start(asyncio.get_running_loop())
    runner = web.AppRunner(make_app(live, host), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, http_port)
    await site.start()
    addr = runner.addresses[0]
    url = "http://%s:%d/" % (addr[0], addr[1])
    print("web: the board on %s, live at %s (Ctrl-C stops)" % (live.port_name, url),
          flush=True)
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):  # Ctrl-C or a kill: close cleanly
        asyncio.get_running_loop().add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()


def _build_game(argv):
    """`--build`'s arguments with `--game NAME` turned into that game's `--board` (the
    build itself knows boards, not games); None when the game cannot be built."""
    ap = argparse.ArgumentParser(prog="python -m host_tools web --build", add_help=False)
    gamearg.add(ap)
    ap.add_argument("--board")
    known, rest = ap.parse_known_args(argv)
    if known.game is None:
        return argv
    chosen = gamearg.resolve("web", known.game, known.board, "page")
    return None if chosen is None else rest + ["--board", chosen[1]]


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--build" in argv:
        argv.remove("--build")
        argv = _build_game(argv)
        if argv is None:
            return 2
        from host_tools.web import build
        return build.main(argv)
    ap = argparse.ArgumentParser(
        prog="python -m host_tools web",
        description="Serve the live board in the browser: the board's LEDs, its event log "
                    "and score, new games, the card registry and the archived games "
                    "replayed, over the board's USB serial link. --build builds the "
                    "browser simulator instead (make web).")
    ap.add_argument("--port", help="the board's serial device, e.g. /dev/ttyACM0 or a "
                                   "virtual board's pty (default: the first Pico found)")
    ap.add_argument("--board", help="board definition (default board_def/kahuna.json)")
    gamearg.add(ap)
    ap.add_argument("--host", default="127.0.0.1",
                    help="address to serve on (default 127.0.0.1: this computer only)")
    ap.add_argument("--http-port", type=int, default=8765,
                    help="TCP port of the page (default 8765; 0 picks a free one)")
    ap.add_argument("--build", action="store_true",
                    help="build the browser simulator into build/web/ instead (--out, "
                         "--board: see --build --help)")
    args = ap.parse_args(argv)
    if not 0 <= args.http_port <= 65535:
        ap.error("--http-port must be 0 to 65535")
    chosen = gamearg.resolve("web", args.game, args.board, "web")
    if chosen is None:
        return 2
    try:
        board = boardmod.load(chosen[1])
    except boardmod.BoardError as e:
        print("web: board: %s" % e, file=sys.stderr)
        return 2
    from host_tools.maker.findport import choose
    args.port = choose("web", args.port, "python -m host_tools web --port /dev/ttyACM0")
    if args.port is None:
        return 2
    from host_tools.maker import cards
    try:  # the board plays this page's game (a Halunken board lit a Kahuna page)
        link = cards.LinkClient(args.port)
        try:
            wrong = cards.other_game(cards.registry(link, cards.READY_S),
                                     cards.Deck(chosen[1]))
        finally:
            link.close()
        port = open_port(args.port)
    except PortError as e:
        print("web: %s" % e, file=sys.stderr)
        return 2
    if wrong:
        port.close()
        print("web: the board on %s %s" % (args.port, wrong), file=sys.stderr)
        return 2
    live = LiveBoard(board, args.port, port)
    try:
        asyncio.run(serve(live, args.host, args.http_port))
    except KeyboardInterrupt:
        return 0
    except OSError as e:  # the HTTP port is taken
        print("web: cannot serve on %s:%d: %s" % (args.host, args.http_port, e.strerror or e),
              file=sys.stderr)
        return 2
    finally:
        live.stop()
    return 0
