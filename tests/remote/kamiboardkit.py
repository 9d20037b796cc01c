"""A Kami board at one seat of a remote game, the other seats at host tables, in one
process and without a broker: the board is the firmware on the simulator's virtual
hardware (board_def/kami.json) with its serial link (core.link), fed by
host_tools.remote.boardfeed as the bridge feeds it (Kami's part:
host_tools/games/kami/remoteboard.py); the dealer is host_tools.remote.dealing's, its
messages handed to every table's Seat as the broker would (duplicates and delays on
request). The board's player taps and presses what the dealer offers its seat (`drive`);
the host tables play random options (host_tools/games/kami/remote.py random_request)."""

import json
import random

from core.board import load as load_board
from core.link import Link
from host_tools.fakehw.flash import PowerCut
from host_tools.games.kami import remote as kremote
from host_tools.remote import dealing
from host_tools.remote import protocol as p
from host_tools.remote.boardfeed import BoardFeed
from host_tools.remote.seat import Seat
from host_tools.simulator import engine as simcore
from mpy_runner import ROOT

CODE = "K7QXM2"
BOARD = ROOT + "/board_def/kami.json"


class KamiBoard:
    """The board's table: a simulation with its link, and the bridge's feed."""

    def __init__(self, user, journal_limit=None):
        self.user = user
        self.journal_limit = journal_limit
        self.sim = simcore.Simulation(load_board(BOARD, keep_raw=False))
        self.lines = []  # every line the board sent
        self.sent = []  # every command it was sent
        self.cuts = 0
        self.connect()
        self.seat = Seat(CODE, user)
        self.feed = BoardFeed(self.seat)

    def connect(self):
        if self.journal_limit is not None:
            self.sim.app.journal.limit = self.journal_limit
        self.link = Link(self.sim.app, self.lines.append, lambda: self.sim.now)
        self.sim.app.listen(self.link.on_event)
        self.sim.app.prompters.append(self.link.on_prompt)

    def start(self):
        cmd = self.feed.start(self.state())
        if cmd is not None:
            self.send(cmd)
        self.send({"cmd": "state"})

    def power_cut(self):
        self.sim.boot()
        self.connect()
        self.feed.ask_again()
        self.start()

    def send(self, obj):
        n = len(self.lines)
        self.sent.append(obj)
        try:
            self.link.line(json.dumps(obj))
        except PowerCut:
            self.cuts += 1
            self.power_cut()
            return []
        out = [json.loads(line) for line in self.lines[n:]]
        for line in out:
            if self.feed.board_line(line):
                self.feed.taken()
        return out

    def state(self):
        return [x for x in self.send({"cmd": "state"}) if x.get("event") == "state"][0]["state"]


def drive(b, act):
    """The board's player makes request `act` with the board's own inputs."""
    k = act[0]
    if k in ("defend", "attack", "counter", "show"):
        outs = b.send({"cmd": "tap", "card": act[1]})
    elif k in ("pass", "shown"):
        outs = b.send({"cmd": "press", "button": "done"})
    elif k == "cancel":
        outs = b.send({"cmd": "press", "button": "ok"})
    else:  # back, keep, withdraw
        outs = b.send({"cmd": "press", "button": "back"})
    bad = [o for o in outs if o.get("event") == "refused" or "error" in o]
    assert not bad, (act, bad)


class KamiMatch:
    """A whole game: the board at `board_seat` (a seat, or a list of seats: one user's,
    p1's with others, or the seats that join next), host tables of random players at the
    others, one dealer."""

    def __init__(self, seed, players=2, board_seat="p2", target=5, duplicate=0.0,
                 delay=0.0, journal_limit=None, mode="soldat"):
        self.rng = random.Random(seed)
        self.faults = random.Random(seed + 1000)
        self.dealer = dealing.Dealer(lambda code: seed)
        self.names = ["p%d" % (i + 1) for i in range(players)]
        mine = [board_seat] if isinstance(board_seat, str) else list(board_seat)
        self.board_seat = mine[0]
        self.board_seats = mine
        self.user = {s: "ub" if s in mine else "u" + s[1:] for s in self.names}
        self.board = KamiBoard("ub", journal_limit)
        self.hosts = {s: Seat(CODE, self.user[s]) for s in self.names if s not in mine}
        self.duplicate, self.delay = duplicate, delay
        self.queue, self.held = [], []
        self.refused = []
        self.cut = None
        settings = {"players": players, "target": target, "mode": mode}
        said = []
        for s in self.names:
            u = self.user[s]
            if u in said:
                continue
            count = list(self.user.values()).count(u)
            also = [x for x in self.names[1:] if self.user[x] == u]
            self.say(u, "hello", p.hello("create", "p1", settings, "kami", also=also)
                     if s == "p1" else p.hello("join", count=count))
            said.append(u)
        self.flush()
        self.refused = []  # the dealer's log lines from here on: a refusal each
        self.board.start()

    def seats(self):
        return [self.board.seat] + list(self.hosts.values())

    def say(self, user, kind, msg):
        out, lines = self.dealer.handle(p.topic(CODE, kind, user), p.encode(msg))
        self.refused += lines
        self.deliver(out)

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
            for s in self.seats():
                if user in (None, s.user):
                    s.feed(topic, payload)
                    if s.need_snapshot:
                        s.feed(*self.dealer.snapshot(self.dealer.games[CODE])[:2])

    def pump(self):
        b = self.board
        while True:
            self.flush()
            moved = False
            cmd = b.feed.to_board()
            if cmd is not None:
                if self.cut is not None:
                    self.cut(b, cmd)
                errors = [x for x in b.send(cmd) if "error" in x]
                b.sim.flash.cut = None
                assert not errors, (cmd, errors)
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
        b = self.board
        return all(s.over() for s in self.seats()) and b.feed.news["fed"] == b.seat.seq

    def turn(self, swap=None):
        """One step: the board's player or a host table makes a request. False when
        nobody can."""
        b = self.board
        s = b.seat
        news = b.feed.news
        able = []
        if news["fed"] == s.seq and not news["moves"] and s.current():
            for seat in self.board_seats:
                view = s.entries[seat].get("view") or {}
                opts = [o for o in view.get("options", ()) if o[0] != "claim"]
                if opts:
                    able.append(("board", opts))
        for name, h in self.hosts.items():
            if h.current() and h.view and h.view["options"]:
                able.append((name, h.view["options"]))
        if not able:
            return False
        who, opts = self.rng.choice(able)
        act = kremote.random_request(opts, self.rng) or opts[0]
        if who == "board":
            drive(b, act)
        else:
            if swap is not None:
                swap(self)
            h = self.hosts[who]
            h.moves += 1
            self.say(h.user, "move", p.move(CODE, h.seat, h.moves, h.seq, act))
        return True

    def play(self, limit=20000, every=None, swap=None):
        for step in range(limit):
            self.pump()
            if self.over():
                return
            if every is not None:
                every(self, step)
            assert self.turn(swap), "nobody can act: %s" % (self.board.feed.news,)
        raise AssertionError("no end after %d steps" % limit)


PUBLIC = ("phase", "round", "turn", "step", "attack", "passed", "empress_unlocked",
          "lines", "hand_sizes", "centre", "claim", "scores", "rounds", "winner")


def check_end(m):
    """Every table's report is the dealer's log; the board's rules state is the dealer's
    public state, its seat's hand the dealer's."""
    game = m.dealer.games[CODE]
    reports = [s.report() for s in m.seats()]
    assert all(r == reports[0] for r in reports)
    assert reports[0]["log"] == game.log
    state = m.board.state()
    public = game.dealt.public()
    for key in PUBLIC:
        assert state[key] == public[key], key
    for seat in m.board_seats:
        assert m.board.feed.news["hands"][seat] == game.dealt.hand(seat)
    assert m.board.feed.news["moves"] == []
    assert m.refused == []
    return reports[0]
