"""Two boards at two tables of one remote game, in one process and without a broker: each
board is the firmware on the simulator's virtual hardware with its serial link
(core.link), fed by host_tools.remote.boardfeed as the bridge feeds it; the dealer is
host_tools.remote.dealing's, its messages handed to both tables' Seats as the broker would
(duplicates and delays on request). Each table's player is simulated: it taps, presses and
picks on its own board what the rules allow its seat (`drive`). `Player` is the same
simulated player at a bridge's typed lines (test_board_broker.py: a board and its bridge
in subprocesses)."""

import json
import random
import time

import gamekit
from core.link import Link
from host_tools.fakehw.flash import PowerCut
from host_tools.games.kahuna import remote as kremote
from host_tools.remote import dealing
from host_tools.remote import protocol as p
from host_tools.remote.boardfeed import BoardFeed
from host_tools.remote.seat import Seat
from host_tools.simulator import engine as simcore

SEATS = ("white", "black")
USERS = {"white": "alice", "black": "bob"}
CODE = "K7QXM2"


class Board:
    """One table: its board (a simulation with its link) and the bridge's feed."""

    def __init__(self, seat, code=CODE, journal_limit=None):
        self.seat_name = seat
        self.journal_limit = journal_limit  # bytes before the journal compacts
        self.sim = simcore.Simulation(gamekit.board())
        self.lines = []  # every line the board sent
        self.sent = []  # every command the board was sent
        self.cuts = 0  # power cuts in the middle of a command (the flash's cut_at)
        self.connect()
        self.seat = Seat(code, USERS[seat])
        self.feed = BoardFeed(self.seat)

    def start(self):
        """The game on the board, as the bridge starts it (once the dealer said its
        settings): a new game, or none when the board plays it already."""
        cmd = self.feed.start(self.state())
        if cmd is not None:
            self.send(cmd)
        self.send({"cmd": "state"})

    def connect(self):
        if self.journal_limit is not None:
            self.sim.app.journal.limit = self.journal_limit
        self.link = Link(self.sim.app, self.lines.append, lambda: self.sim.now)
        self.sim.app.listen(self.link.on_event)
        self.sim.app.prompters.append(self.link.on_prompt)

    def power_cut(self):
        """The board loses power and boots again from its journal; the host asks its
        state (the feed learns the board's news again)."""
        self.sim.boot()
        self.connect()
        self.feed.ask_again()
        self.start()

    def send(self, obj):
        """A command; the lines it brought, parsed (none when the power failed meanwhile:
        the board boots again at once)."""
        n = len(self.lines)
        self.sent.append(obj)
        try:
            self.link.line(json.dumps(obj))
        except PowerCut:
            self.cuts += 1
            self.power_cut()
            return []
        out = [json.loads(line) for line in self.lines[n:]]
        if hasattr(self, "feed"):
            for line in out:
                if self.feed.board_line(line):
                    self.feed.taken()
        return out

    def state(self):
        return [x for x in self.send({"cmd": "state"}) if x.get("event") == "state"][0]["state"]


def drive(b, act):
    """The player at board `b` makes request `act` (host_tools.games.kahuna.remote's form)
    with the board's own inputs: cards tapped, buttons pressed, connections picked."""
    k = act[0]

    def tap(c):
        return b.send({"cmd": "tap", "card": c})

    def press(x):
        return b.send({"cmd": "press", "button": x})

    def pick(c):
        return b.send({"cmd": "pick", "conn": c})
    if k == "place":
        outs = tap(act[1]) + pick(act[2])
    elif k == "remove":
        outs = tap(act[1]) + tap(act[2]) + pick(act[3])
    elif k == "discard":
        outs = press("discard") + tap(act[1]) + press("done")
    elif k == "draw" and len(act) == 2:
        outs = tap(act[1])
    elif k == "draw":
        outs = press("ok")
    elif k in ("handicap", "refill"):
        outs = pick(act[1])
    elif k in ("skip_refill", "resume_play", "undo"):
        outs = press("back")
    else:  # end_play, decline
        outs = press("done")
    bad = [o for o in outs if o.get("event") == "refused" or "error" in o]
    assert not bad, (act, bad)


class Match:
    """A whole game between two boards through the dealer (in process). `duplicate` and
    `delay` (0..1): the share of the dealer's messages delivered twice, or held back and
    delivered after later ones (the event gaps then heal through the snapshot)."""

    def __init__(self, seed, settings=None, duplicate=0.0, delay=0.0, journal_limit=None):
        self.rng = random.Random(seed)  # the players' choices
        self.faults = random.Random(seed + 1000)  # the broker's duplicates and delays
        self.dealer = dealing.Dealer(lambda code: seed)
        self.boards = {s: Board(s, journal_limit=journal_limit) for s in SEATS}
        self.queue = []
        self.held = []
        self.duplicate = duplicate
        self.delay = delay
        self.cut = None  # cut(board, command) before each event command (power cuts)
        self.refused = []  # the dealer's log lines (a refusal each)
        self.deliver(self.dealer.handle(p.topic(CODE, "hello", "alice"), p.encode(
            p.hello("create", "white", settings or {})))[0])
        self.deliver(self.dealer.handle(p.topic(CODE, "hello", "bob"),
                                        p.encode(p.hello("join")))[0])
        self.flush()
        for b in self.boards.values():
            b.start()

    def deliver(self, out):
        for topic, payload, _retain in out:
            if self.faults.random() < self.delay:
                self.held.append((topic, payload))
                continue
            self.queue.append((topic, payload))
            if self.faults.random() < self.duplicate:
                self.queue.append((topic, payload))

    def flush(self):
        while self.queue or self.held:
            if not self.queue:
                self.queue, self.held = self.held, []
            topic, payload = self.queue.pop(0)
            _, kind, user = p.parse_topic(topic)
            for b in self.boards.values():
                if user in (None, b.seat.user):
                    b.seat.feed(topic, payload)
                    if b.seat.need_snapshot:  # a gap: the retained snapshot again
                        b.seat.feed(*self.dealer.snapshot(self.dealer.games[CODE])[:2])

    def pump(self):
        """Commands to the boards and requests to the dealer until none is due."""
        while True:
            self.flush()
            moved = False
            for b in self.boards.values():
                cmd = b.feed.to_board()
                if cmd is not None and self.cut is not None:
                    self.cut(b, cmd)
                if cmd is not None:
                    errors = [x for x in b.send(cmd) if "error" in x]
                    b.sim.flash.cut = None  # a cut only among this event's writes
                    assert not errors, (b.seat_name, cmd, errors)
                    moved = True
                req = b.feed.to_dealer(0)
                if req is not None:
                    out, lines = self.dealer.handle(*req)
                    self.refused += lines
                    self.deliver(out)
                    moved = True
            if not moved:
                return

    def over(self):
        return all(b.seat.over() and b.feed.news["fed"] == b.seat.seq
                   for b in self.boards.values())

    def turn(self, before_act=None):
        """One player's step: a card the board asked for, or a request of the rules'
        choosing made with the board's inputs. False when nobody can act."""
        for name, b in self.boards.items():
            news = b.feed.news
            if news["want"]:
                out = b.send({"cmd": "tap", "card": news["want"]})
                assert out[0]["event"] != "refused", out
                return True
            s = b.seat
            if (news["fed"] != s.seq or news["moves"] or not s.current() or s.over()
                    or s.public["turn"] != name):
                continue
            act = kremote.random_request(kremote.options(s.public, s.hand, name), self.rng)
            if before_act is not None:
                before_act(b, act)
            drive(b, act)
            return True
        return False

    def play(self, limit=5000, every=None):
        """The game to its end; `every(match, step)` after each step (faults)."""
        for step in range(limit):
            self.pump()
            if self.over():
                return
            if every is not None:
                every(self, step)
            assert self.turn(), "nobody can act: %s" % (
                [b.feed.news for b in self.boards.values()],)
        raise AssertionError("no end after %d steps" % limit)


TYPED = {"place": ["tap 1", "pick 2"], "remove": ["tap 1", "tap 2", "pick 3"],
         "discard": ["press discard", "tap 1", "press done"], "handicap": ["pick 1"],
         "refill": ["pick 1"], "skip_refill": ["press back"], "resume_play": ["press back"],
         "undo": ["press back"], "end_play": ["press done"], "decline": ["press done"]}


def typed_lines(act):
    """The lines a player types at the bridge for request `act` (`drive`'s inputs)."""
    if act[0] == "draw":
        words = ["tap 1"] if len(act) == 2 else ["press ok"]
    else:
        words = TYPED[act[0]]
    out = []
    for w in words:
        verb, i = w.split()
        out.append("%s %s" % (verb, act[int(i)] if i.isdigit() else i))
    return out


def taken(before, news):
    """The board took the move typed when its news was `before`: a move held, an event
    taken or a card asked for. Its words alone change with the move's first line (a
    discard's "press discard"), before the rest of it has reached the board."""
    return any(news[k] != before[k] for k in ("fed", "moves", "want"))


class Player:
    """The simulated player at a board whose bridge runs with --echo: it reads the bridge's JSON
    lines (the board's, and what the table knows: `line`) and types its taps, presses and picks
    (`type(text)`) when the rules let its seat act (`act`).

    As a person at the board would: after typing a move it waits until the board's news shows it
    taken (`taken`: a move held, a card taken), not for just any line: a board that rebooted
    meanwhile (its reset) says its news again, the same as before the move, and that is no
    answer to it. If the move is not taken AGAIN seconds after the typing (or after the board's
    last news), the lines went nowhere (the board was rebooting, the bridge was down): it types
    them again. A refusal is the test's failure, but one after a reboot the player saw while
    waiting or once it typed the move again: a move can reach the board in part (its tap
    arrived, its pick was lost with the bridge killed or the board reset), and the move typed
    again then runs into the card held (docs/remote.md, "A board at a table", Faults); the
    player reads the board's news on, as a person would."""

    AGAIN = 3.0  # seconds

    def __init__(self, seat, seed, type, clock=time.monotonic):
        self.seat = seat
        self.rng = random.Random(seed)
        self.type = type
        self.clock = clock
        self.table = None  # what the table knows (the bridge's "table" line)
        self.news = None  # the board's last news line
        self.state = None  # the board's link state, merged
        self.typed = None  # (the news when typed, the lines, when) while waiting
        self.rebooted = False  # the board rebooted while the player waited
        self.tries = 0  # how often the move awaited was typed
        self.again = 0  # moves typed again
        self.seen = []  # the last lines and what was typed (for a failure's message)

    def line(self, line):
        """One JSON line of the bridge's (--echo)."""
        self.seen = self.seen[-40:] + [line]
        if "table" in line:
            self.table = line["table"]
        board = line.get("board") or {}
        if board.get("event") == "boot" and self.typed is not None:
            self.rebooted = True
        if board.get("event") == "remote":
            self.news = board
            if self.typed is not None and taken(self.typed[0], board):
                self.typed = None  # the board took the move
            elif self.typed is not None and board != self.typed[0]:
                # a part of the move taken (its words changed): the rest is on its way
                self.typed = (self.typed[0], self.typed[1], self.clock())
        if board.get("event") == "refused" and not self.rebooted and self.tries < 2:
            raise AssertionError("the board refused a move of the player: %s; before: %s"
                                 % (board, "\n".join(map(str, self.seen))))
        if isinstance(board.get("state"), dict):
            self.state = board["state"]
        elif self.state is not None and isinstance(board.get("changed"), dict):
            self.state.update(board["changed"])

    def act(self):
        """The player's next step, if it is theirs: True when one was typed."""
        if self.typed is not None:
            news, lines, when = self.typed
            if self.clock() - when < self.AGAIN:
                return False
            self.again += 1  # nothing changed: the lines went nowhere, typed again
            return self.enter(news, lines, self.tries + 1)
        news, t = self.news, self.table
        if news is None or t is None:
            return False
        if news["want"]:
            return self.enter(news, ["tap %s" % news["want"]])
        public = t["public"]
        if (news["fed"] != t["seq"] or news["moves"] or not t["current"]
                or public["turn"] != self.seat or public["winner"] is not None):
            return False
        act = kremote.random_request(kremote.options(public, t["hand"], self.seat), self.rng)
        return self.enter(news, typed_lines(act))

    def enter(self, news, lines, tries=1):
        """The move's lines typed (`tries`: 1 the first time)."""
        self.tries = tries
        if tries == 1:
            self.rebooted = False  # a new move: a refusal fails the test again
        for text in lines:
            self.type(text)
            self.seen.append("typed: " + text)
        self.typed = (news, lines, self.clock())
        return True

    def over(self):
        return (self.table is not None and self.table["public"]["winner"] is not None
                and self.news is not None and self.news["fed"] == self.table["seq"])
