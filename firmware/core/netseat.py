"""A Pico W's own seat at a remote game (docs/remote.md, "A Pico W plays alone"): what the
host's bridge (host_tools/remote/boardbridge.py, boardfeed.py) does for a board on USB,
done on the board through its network driver (hw.net). The messages are the protocol's
(core.remoteproto, the one home both sides read); the dealer and the host tables see a
table like any other.

- Every message is checked before it touches the game: not one of this table's topics,
  malformed, another game's, a snapshot whose log differs from the events held: refused,
  one line said (`netseat: refused TOPIC: CODE: why`), nothing changed. An event held
  already is a duplicate and dropped; one that skips numbers is held back and the retained
  snapshot read again (`need_snapshot`: the runner subscribes to it anew), whose log fills
  the gap.
- The events are fed to the game's remote seat in order (the link's `remote` command's
  form: core.app.App.remote), with the card this table is to take on its own deal or
  deck draw: one of its hand (the dealer's hand message) that the board does not hold.
  Only the events the board has not taken are held: the board's journal holds the rest.
- This table's moves (the remote seat's `moves`, numbered by the board) go to the dealer
  as requests once the board is level with the dealer: one at a time, at most once per
  event count, and again after AGAIN_MS without an answer (a replay is refused as
  `replayed` by the dealer and changes nothing).
- After a power cut or a lost connection nothing here is needed: the board's journal
  holds its game and the remote seat's bookkeeping, the broker the retained snapshot and
  hand, and the runner subscribes again.

It plays Kahuna's remote seat (games/kahuna/remote.py: one other seat); Kami's and
Halunken's boards play remote games through a computer's bridge only. This module names
no game. Loaded only on a Pico W in a remote game (core.netplay, which main.py hands
hw.net's start).
"""

import json

from core import remoteproto as p

SNAPSHOT_MAX = 32768  # bytes: a Kahuna game's whole log is a few KB
AGAIN_MS = 3000  # a request that brings no event for this long is sent again
HELLO_MS = 1000  # the hello, said again this often until the table is seated


class NetSeat:
    """The table's seat for the board `app` (core.app.App) in game `code` as broker user
    `user`. `hello`: the hello to say until seated (remoteproto.hello); `publish(topic,
    payload)`: a QoS 1 publication (the runner's queue); `say(line)`: the log."""

    def __init__(self, app, code, user, hello, publish, say):
        self.app = app
        self.code = code
        self.user = user
        self.hello = hello
        self.publish = publish
        self.say = say
        self.seat = None  # learnt from the snapshot or the hand
        self.settings = None  # the game's settings, from the snapshot's public state
        self.seq = 0  # the dealer's events known in order
        self.events = {}  # seq -> [actor, action]: known, not taken by the board yet
        self.public_seq = -1  # the event the last public state was of
        self.hand = None
        self.hand_seq = -1
        self.done = 0  # this seat's last request the dealer counted (the snapshot's moves)
        self.need_snapshot = False
        self.asked = {}  # request number -> the event count it was sent at
        self.heard_ms = None  # when the dealer was last heard from, or a request sent
        self.hello_ms = None
        self.started = False  # this seat started the game on the board
        self.off = False  # the board plays a game of its own table: nothing more fed
        self.stuck = 0  # an event the board refused (said once)
        self._want = None  # want(), kept: the board's settings for this game

    def topics(self):
        """What this table subscribes to: the public topics and its own."""
        c, u = self.code, self.user
        return (p.topic(c, "snapshot"), p.topic(c, "event"), p.topic(c, "hand", u),
                p.topic(c, "reply", u))

    # ------------------------------------------------------------ the dealer's messages

    def message(self, topic, payload, now):
        """One message from the broker: a word for the log, or None when it was refused
        (said, nothing changed)."""
        try:
            code, kind, user = p.parse_topic(topic)
            if code != self.code or user not in (None, self.user) or kind in ("hello", "move"):
                raise p.Bad("forged", "not a topic of this table")
            msg = p.decode(payload, code, SNAPSHOT_MAX if kind == "snapshot" else p.MAX_PAYLOAD)
            word = getattr(self, "_" + kind)(msg)
        except p.Bad as e:
            self.say("netseat: refused %s: %s" % (topic[:64], e))
            return None
        self.heard_ms = now
        return word

    def _fed(self):
        board = self.board()
        return board.fed if board is not None else 0

    def _event(self, msg):
        seq = p.check_event(msg)
        entry = [msg["actor"], msg["action"]]
        if seq <= self.seq:
            held = self.events.get(seq)
            if held is not None and held != entry:
                raise p.Bad("forged", "event %d differs from the one held" % seq)
            return "duplicate %d" % seq
        if seq > self.seq + 1:
            self.need_snapshot = True
            return "gap %d > %d" % (seq, self.seq + 1)
        self.events[seq] = entry
        self.seq = seq
        if msg["public"] is not None:
            self.public_seq = seq
        return "event %d" % seq

    def _snapshot(self, msg):
        seq = p.check_snapshot(msg)
        public = msg["public"]
        if msg.get("kind", "kahuna") != self.app.game_def.NAME or (
                public is not None and not isinstance(public.get("settings"), dict)):
            raise p.Bad("malformed", "the snapshot is not of a game this board plays")
        log = msg["log"]
        fed = self._fed()
        for entry in log[fed:]:
            held = self.events.get(entry[0])
            if held is not None and held != entry[1:]:
                raise p.Bad("forged", "the snapshot's log differs from the events held")
        mine = sorted(s for s, u in msg["seats"].items() if u == self.user)
        if mine:
            if mine[0] != self.seat:
                self.seat = mine[0]
                self._want = None
            moves = msg["moves"].get(self.seat, 0)
            self.done = max(self.done, moves if type(moves) is int else 0)
        if public is not None and public["settings"] != self.settings:
            self.settings = public["settings"]
            self._want = None
        if seq < self.seq:
            return "old snapshot %d" % seq
        for entry in log[fed:]:
            if entry[0] > fed:
                self.events[entry[0]] = entry[1:]
        self.seq = seq
        self.public_seq = seq
        self.need_snapshot = False
        return "snapshot %d" % seq

    def _hand(self, msg):
        seq = p.check_hand(msg)
        if seq < self.hand_seq:
            return "old hand %d" % seq
        self.hand = msg["hand"]
        self.hand_seq = seq
        if msg["seat"] != self.seat:
            self.seat = msg["seat"]
            self._want = None
        return "hand %d" % seq

    def _reply(self, msg):
        if not isinstance(msg.get("refused"), str):
            raise p.Bad("malformed", "a reply says what was refused")
        self.say("netseat: the dealer refused request %s: %s: %s"
                 % (msg.get("n"), msg["refused"], str(msg.get("reason"))[:120]))
        return "refused"

    # ------------------------------------------------------------ the board

    def board(self):
        """The game's remote seat when the board plays this game, else None."""
        if self.settings is None:
            return None
        if self._want is None:
            self._want = self.want()
        solo = self.app.solo
        return solo if hasattr(solo, "remote") and self.app.settings == self._want else None

    def want(self):
        """The board's settings for this game: the dealer's, the other seat `remote`,
        checked as the board keeps them (ValueError when they do not fit this board)."""
        out = dict(self.settings)
        out["remote"] = [s for s in self.app.game_def.SEATS if s != self.seat][0]
        return self.app.game_def.check_settings(out)

    def tick(self, now):
        """What is due: the hello until seated, the game started on the board, the
        events fed to it, this table's next request."""
        if self.seat is None:  # not seated yet (the snapshot's seats say)
            if self.hello_ms is None or now - self.hello_ms >= HELLO_MS:
                self.hello_ms = now
                self.publish(p.topic(self.code, "hello", self.user), p.encode(self.hello))
            return
        if self.off or self.settings is None:  # stood down, or the game not begun
            return
        try:
            board = self.board()
        except ValueError as e:
            self.off = True
            self.say("netseat: the dealer's settings do not fit this board: %s" % e)
            return
        if board is None:
            if self.started:
                self.off = True  # a game started at the table: it goes on undisturbed
                self.say("netseat: the board plays a game of its own table; the remote "
                         "game %s waits" % self.code)
                return
            if getattr(self.app.menu, "shown", None) == self.code:
                self.app.menu = None  # the code spelled on the islands: the game begins
            try:
                self.app.new_game(self._want)
            except ValueError as e:
                self.off = True
                self.say("netseat: the dealer's settings do not fit this board: %s" % e)
                return
            self.app.show(now)
            board = self.board()
        self.started = True
        self._feed(board, now)
        self._request(board, now)

    def _feed(self, board, now):
        for k in [k for k in self.events if k <= board.fed]:
            del self.events[k]
        while board.want is None:
            seq = board.fed + 1
            entry = self.events.get(seq)
            if entry is None:
                return
            cmd = {"seq": seq, "actor": entry[0], "action": entry[1]}
            if entry[0] == self.seat and entry[1] in (["deal"], ["draw"]):
                card = self._card_to_take(board, seq)
                if card is None:
                    return  # its hand message is not here yet
                cmd["card"] = card
            try:
                self.app.remote(cmd, now)
            except ValueError as e:
                if self.stuck != seq:
                    self.stuck = seq
                    self.say("netseat: the board refused event %d: %s" % (seq, e))
                return
            del self.events[seq]

    def _card_to_take(self, board, seq):
        """A card of the seat's hand (the dealer's, of this event or later) that the board
        does not hold yet and no unconfirmed move of the board's names."""
        if self.hand is None or self.hand_seq < seq:
            return None
        seats = self.app.game_def.SEATS
        held = list(self.app.game_def.seat_view(self.app.game, seats.index(self.seat))["hand"])
        for _n, action in board.moves:
            held += action[1:]
        extra = sorted(c for c in self.hand if c not in held)
        return extra[0] if extra else None

    def _request(self, board, now):
        if (board.fed != self.seq or self.public_seq != self.seq or self.hand_seq < self.seq
                or self.need_snapshot):
            return
        if self.heard_ms is not None and now - self.heard_ms >= AGAIN_MS:
            self.asked = {}  # nothing came for a while: ask again
        for n, action in board.moves:
            if n <= self.done:
                continue
            if self.asked.get(n) == self.seq:
                return  # sent at this event count already: wait for the dealer
            self.asked[n] = self.seq
            self.heard_ms = now
            self.publish(p.topic(self.code, "move", self.user),
                         p.encode(p.move(self.code, self.seat, n, self.seq, action)))
            return


# ---------------------------------------------------------------- the remote game's record

def load(path):
    """The remote game this board takes part in ({"code", "hello"}), as written by
    `save`; ValueError, one line, if missing or broken."""
    try:
        with open(path) as f:
            obj = json.load(f)
    except OSError:
        raise ValueError("%s: no remote game on this board" % path) from None
    except ValueError:
        raise ValueError("%s: not valid JSON" % path) from None
    if not isinstance(obj, dict) or not isinstance(obj.get("hello"), dict):
        raise ValueError("%s: a remote game is {\"code\", \"hello\"}" % path)
    p.check_code(obj.get("code"))
    return obj


def save(path, code, hello):
    """Keep the remote game to take part in (write-new-then-rename)."""
    from core.storage import Storage, replace
    replace(Storage(), path, json.dumps({"code": code, "hello": hello}))


class Runner:
    """The seat on the board, with its network driver (`start_net`: hw.net.start, which
    main.py hands in: the core imports no driver), made once: `begin()` takes part in the
    remote game /remote.json names (a new one given is saved there first: the menu's
    create or join), `run()` is the task: the driver connecting, the game's topics
    subscribed, the seat's ticks every TICK_MS and its publications sent in order (each
    awaits the broker's acknowledgement, through a reconnection if need be: the board's
    own game runs on meanwhile). A broken record or /net.json is one line (`problem`) and
    the board plays on alone."""

    def __init__(self, app, start_net, remote_path, net_path, clock, say):
        self.app = app
        self.remote_path = remote_path
        self.clock = clock
        self.say = say
        self.seat = None
        self.fresh = False  # a new seat: its topics to subscribe
        self.queue = []
        self.problem = None
        try:
            self.drv = start_net(net_path, self._message, say)
        except ValueError as e:  # hw.net.NetError is one
            self.drv = None
            self.problem = str(e)
            say("netseat: %s" % e)

    def _message(self, topic, payload, retained):
        if self.seat is not None:
            self.seat.message(topic, payload, self.clock())

    def begin(self, code=None, hello=None):
        """Take part in the remote game of /remote.json (`code` and `hello` given: saved
        there first). False, said in one line, when it cannot."""
        if self.drv is None:
            return False
        try:
            if code is not None:
                save(self.remote_path, code, hello)
            record = load(self.remote_path)
        except (OSError, ValueError) as e:
            self.say("netseat: %s" % e)
            return False
        self.queue = []
        self.seat = NetSeat(self.app, record["code"], self.drv.conf["user"], record["hello"],
                            lambda topic, payload: self.queue.append((topic, payload)),
                            self.say)
        self.fresh = True
        return True

    async def run(self):
        import asyncio
        if self.drv is None:
            return
        connecting = None
        asked_snapshot = False
        while True:
            seat = self.seat
            if seat is not None:
                if self.fresh:
                    self.fresh = False
                    asked_snapshot = False
                    for topic in seat.topics():
                        await self.drv.subscribe(topic)
                if connecting is None:
                    connecting = asyncio.create_task(self.drv.run())
                seat.tick(self.clock())
                if seat.need_snapshot and not asked_snapshot:
                    asked_snapshot = True  # subscribed anew: the broker sends the retained one
                    await self.drv.subscribe(seat.topics()[0])
                elif not seat.need_snapshot:
                    asked_snapshot = False
                while self.queue and seat is self.seat:
                    await self.drv.publish(*self.queue.pop(0))
            await asyncio.sleep_ms(TICK_MS)


TICK_MS = 50
