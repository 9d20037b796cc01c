"""`python -m host_tools remote create|join ... --port PORT`: a board at a remote table
(docs/remote.md, "A board at a table"). The board (a Pico on USB, or the virtual board
`python -m host_tools vboard`: the same serial link) plays this table's seat; this
program bridges its serial link to the broker: the dealer's events go to the board in
order (its link's `remote` command), the board's moves go to the dealer as requests
(host_tools/remote/boardfeed.py says which, when). The board tells its players which card
to take when the dealer deals or draws one for them; this program says it too, with the
display, on standard output.

Typed lines (standard input) go to the board as if done on it: `tap CARD`, `press
BUTTON`, `pick CONN` (a board without its reader or buttons: the virtual board). With
`--echo` every line of the board and what this table knows (the public state and its
hand, after each message of the dealer) are printed as JSON lines instead: tools and
tests read them.

A bridge that stops (killed, the computer's power cut) starts again with `remote join
CODE --port PORT` and the same user: the board kept its game (its journal), the bridge
reads how far it is and goes on.
"""

import asyncio
import json
import sys
import threading
import time

from host_tools import games as hostgames
from host_tools.maker.linkclient import PortError, merge, open_port
from host_tools.remote import broker
from host_tools.remote import protocol as p
from host_tools.remote.boardfeed import BoardFeed
from host_tools.remote.table import ASK_AGAIN, Table

WORDS = {"tap": "card", "press": "button", "pick": "conn"}  # typed: the link's command


def typed(text):
    """The link command for a typed line (`tap CARD`, `press BUTTON`, `pick CONN`), or a
    str saying what is wrong."""
    words = text.split()
    if not words:
        return None
    if len(words) != 2 or words[0] not in WORDS:
        return "type tap CARD, press BUTTON or pick CONN"
    return {"cmd": words[0], WORDS[words[0]]: words[1]}


class BoardTable(Table):
    """One table whose seat a board plays: the Table's broker side (hello, the Seat, the
    snapshot read again on a gap), the board's serial link on the other side."""

    def __init__(self, code, user, part, ser, log, hello, echo=False, out=print,
                 secrets=None):
        Table.__init__(self, code, user, part, None, log, hello, secrets=secrets)
        self.feed = BoardFeed(self.seat)
        self.feed.secrets = self.secrets  # Halunken's movement cards (remoteboard)
        self.ser = ser
        self.echo = echo
        self.out = out
        self.state = None  # the board's link state, merged
        self.started = False
        self.said = None
        self.lines = None  # asyncio.Queue of the board's lines (and typed commands)
        self.done = None
        self.last_told = None
        self.sent_at = 0.0
        self.closing = False

    # ------------------------------------------------------------------ the board

    def write(self, cmd):
        self.ser.write((json.dumps(cmd) + "\n").encode())

    def reader(self, loop, queue):
        """The serial port's lines (a thread: pyserial blocks), into `queue`."""
        buf = b""
        try:
            while not self.closing:
                try:
                    data = self.ser.read(4096)
                except Exception as e:  # noqa: BLE001  (pyserial's and the OS's)
                    if not self.closing:
                        loop.call_soon_threadsafe(queue.put_nowait, ("gone", str(e)))
                    return
                buf += data
                while b"\n" in buf:
                    raw, buf = buf.split(b"\n", 1)
                    try:
                        line = json.loads(raw.decode("utf-8", "replace"))
                    except ValueError:
                        continue  # the REPL, a traceback: not the link's
                    if isinstance(line, dict):
                        loop.call_soon_threadsafe(queue.put_nowait, ("board", line))
        except RuntimeError:
            return  # the loop closed: the game is over

    def typist(self, loop, queue):
        """Typed lines (standard input), into `queue`; stops at its end."""
        try:
            for text in sys.stdin:
                loop.call_soon_threadsafe(queue.put_nowait, ("typed", text))
        except RuntimeError:
            return  # the loop closed: the game is over

    def board_line(self, line):
        if self.echo:
            self.out(json.dumps({"board": line}), flush=True)
        if "error" in line:
            self.log("the board: %s" % line["error"])
        if line.get("event") == "boot":  # it restarted (a power cut): where is it now?
            self.log("the board restarted: asking its state")
            self.feed.ask_again()
            self.feed.news = None
            self.write({"cmd": "state"})
        self.state = merge(self.state, line)
        if self.feed.board_line(line):
            self.feed.taken()
            if not self.echo and line.get("say") != self.said:
                self.said = line.get("say")
                if self.said:
                    self.out("board: %s" % self.said, flush=True)
        elif line.get("event") == "refused" and not self.echo:
            self.out("board: refused %s: %s" % (line.get("code"), line.get("message")),
                     flush=True)

    # ------------------------------------------------------------------ the game

    async def work(self, client):
        code, user = self.seat.code, self.seat.user
        self.feed.ask_again()  # what was in flight on a lost connection is asked again
        for kind in ("snapshot", "event"):
            await client.subscribe(p.topic(code, kind), qos=1)
        for kind in ("hand", "reply"):
            await client.subscribe(p.topic(code, kind, user), qos=1)
        if self.lines is None:
            loop = asyncio.get_running_loop()
            self.lines = asyncio.Queue()
            self.done = asyncio.Event()
            threading.Thread(target=self.reader, args=(loop, self.lines), daemon=True).start()
            threading.Thread(target=self.typist, args=(loop, self.lines), daemon=True).start()
        self.write({"cmd": "state"})
        tasks = [asyncio.create_task(self.say_hello(client)),
                 asyncio.create_task(self.resend(client))]
        watched = [asyncio.create_task(self.listen(client)),
                   asyncio.create_task(self.from_board(client)),
                   asyncio.create_task(self.done.wait())]
        try:
            await asyncio.wait(watched, return_when=asyncio.FIRST_COMPLETED)
            for task in watched[:2]:
                if task.done():
                    task.result()  # a lost connection (the session retries), the port gone
            return self.seat.report()
        finally:
            for task in tasks + watched:
                task.cancel()

    async def listen(self, client):
        code = self.seat.code
        async for message in client.messages:
            try:
                word = self.seat.feed(message.topic.value, message.payload)
            except p.Bad as bad:
                self.log("refused %s on %s: %s" % (bad.code, message.topic.value, bad.text))
                continue
            if word.startswith("refused"):
                self.log(word)
            if self.seat.need_snapshot:
                self.log("%s: reading the snapshot again" % word)
                await client.unsubscribe(p.topic(code, "snapshot"))
                await client.subscribe(p.topic(code, "snapshot"), qos=1)
                continue
            await self.pump(client)

    async def from_board(self, client):
        while True:
            kind, item = await self.lines.get()
            if kind == "gone":
                raise broker.Fatal("the board's port went away: %s" % item)
            if kind == "typed":
                cmd = typed(item)
                if isinstance(cmd, str):
                    self.out(cmd, flush=True)
                elif cmd is not None:
                    self.write(cmd)
                continue
            self.board_line(item)
            await self.pump(client)

    async def resend(self, client):
        """No event for ASK_AGAIN seconds after a request: it goes again, with the same
        number (refused as replayed, and nothing changes, if it had counted)."""
        while True:
            await asyncio.sleep(ASK_AGAIN / 4)
            if self.sent_at and time.monotonic() - self.sent_at > ASK_AGAIN:
                self.sent_at = 0.0
                self.feed.ask_again()
                await self.pump(client)

    async def pump(self, client):
        s = self.seat
        self.tell()
        if not self.started:
            if self.state is None or self.feed.settings() is None:
                return
            if self.feed.news is None and self.state.get("settings", {}).get("remote"):
                return  # its news comes with the state
            cmd = self.feed.start(self.state)
            if cmd is not None:
                self.log("a new game on the board: %s" % json.dumps(cmd["settings"]))
                self.write(cmd)
                self.write({"cmd": "state"})
            self.started = True
            # On: a board that plays the game already may hold a move of its own (made
            # while no bridge ran, or its request lost): it goes to the dealer now, as
            # nothing else would ask for it (the dealer waits for this table).
        cmd = self.feed.to_board()
        if cmd is not None:
            self.write(cmd)
        req = self.feed.to_dealer(time.monotonic())
        if req is not None:
            await client.publish(req[0], req[1], qos=1)
            self.sent_at = time.monotonic()
        news = self.feed.news
        if news is not None and news["fed"] == s.seq and not news["moves"]:
            self.sent_at = 0.0
        if s.over() and s.current() and news is not None and news["fed"] == s.seq:
            self.done.set()

    def tell(self):
        """What this table knows, when it changed: JSON with --echo, else the events."""
        s = self.seat
        now = (s.seq, s.hand_seq, s.public_seq)
        if now == self.last_told or s.public is None:
            return
        if self.echo:
            self.out(json.dumps({"table": {"seat": s.seat, "seq": s.seq, "public": s.public,
                                           "hand": s.hand, "current": s.current(),
                                           "view": s.view}}),  # Kami's: its options
                     flush=True)
        else:
            told = self.last_told[0] if self.last_told else 0
            for seq, actor, action in s.log[told:]:
                words = [a if isinstance(a, str) else " ".join(a) for a in action]
                self.out("event %d: %s %s" % (seq, actor or "dealer", " ".join(words)),
                         flush=True)
            if s.public.get("display") is not None:
                self.out("display: %s" % (" ".join(s.public["display"]) or "empty"),
                         flush=True)
            screen = getattr(hostgames.part(s.kind, "remoteboard"), "screen", None)
            if screen is not None:  # what the board cannot show (Halunken's tops)
                for text in screen(s.public):
                    self.out(text, flush=True)
        self.last_told = now


def open_board(port):
    """The board's serial port, opened (exclusively), or broker.Fatal."""
    try:
        return open_port(port)
    except PortError as e:
        raise broker.Fatal(str(e)) from None


def run(ser, args, code, part, hello, kw, log, wrap=lambda run: run, secrets=None):
    """The bridge's run (table.main's --port) on the board's port `ser` (closed at the
    end): the game's report, or broker.Fatal. `wrap(coroutine)` runs beside it what the
    table runs too (its own dealer); `secrets` the table's kept commitments (commit.py)."""
    table = BoardTable(code, args.user, part, ser, log, hello, echo=args.echo,
                       secrets=secrets)
    args.kind = lambda: table.seat.kind  # the game the snapshot named (a join's)
    try:
        return asyncio.run(wrap(broker.session(kw, "kb-%s-%s" % (code, args.user), True,
                                               args.patience, table.work, log)))
    finally:
        table.closing = True
        time.sleep(0.15)  # the reader's read (0.1 s timeout) ends before the port closes
        ser.close()
