"""A Halunken board at seats of a remote game, the other seats at host tables, in one
process and without a broker (as tests/remote/kamiboardkit.py, whose board and match it
reuses): the board is the firmware on the virtual hardware (board_def/halunken.json) with
its link, fed by host_tools.remote.boardfeed with Halunken's part remoteboard.py; the
bridge's secrets (commit and reveal, H7, H32) in memory. The board's players tap and
press what the dealer offers their seats; the host tables play random options, committing
and revealing with their own secrets as a host table does."""

import random

from kamiboardkit import CODE, KamiBoard, KamiMatch

from core.board import load as load_board
from host_tools.games.halunken import remote as hremote
from host_tools.remote import commit, dealing
from host_tools.remote import protocol as p
from host_tools.remote.seat import Seat
from host_tools.simulator import engine as simcore
from mpy_runner import ROOT

BOARD = ROOT + "/board_def/halunken.json"


class HalBoard(KamiBoard):
    def __init__(self, user, journal_limit=None):
        self.user = user
        self.journal_limit = journal_limit
        self.sim = simcore.Simulation(load_board(BOARD, keep_raw=False))
        self.lines, self.sent, self.cuts = [], [], 0
        self.connect()
        from host_tools.remote.boardfeed import BoardFeed
        self.seat = Seat(CODE, user)
        self.feed = BoardFeed(self.seat)
        self.feed.secrets = commit.Secrets()


def drive(b, act, mode):
    """The board's player makes request `act` with the board's own inputs."""
    k = act[0]
    if k in ("place", "place_bj"):
        outs = b.send({"cmd": "pick", "conn": act[1]})
    elif k == "rum":
        outs = b.send({"cmd": "pick", "conn": act[1]})
    elif k in ("offer", "steal", "rob") and act[1] != "none":
        outs = b.send({"cmd": "tap", "card": act[1]})
    elif k in ("pass", "steal", "rob"):
        outs = b.send({"cmd": "press", "button": "done"})
    elif k == "commit":
        label = 3 if act[1] == "blackjack" else int(act[1][1:])
        outs = b.send({"cmd": "tap", "card": "P%d-%s" % (label, act[2])})
    else:
        raise AssertionError("no board input for %r" % (act,))
    bad = [o for o in outs if o.get("event") == "refused" or "error" in o]
    assert not bad, (act, bad)


class HalMatch(KamiMatch):
    """A whole game: the board at `board_seat` (a seat or a list), host tables of random
    players at the others, one dealer."""

    def __init__(self, seed, players=2, board_seat="p2", duplicate=0.0, delay=0.0,
                 journal_limit=None, mode=None):
        self.rng = random.Random(seed)
        self.faults = random.Random(seed + 1000)
        self.dealer = dealing.Dealer(lambda code: seed)
        self.names = ["p%d" % (i + 1) for i in range(players)]
        mine = [board_seat] if isinstance(board_seat, str) else list(board_seat)
        self.board_seat = mine[0]
        self.board_seats = mine
        self.user = {s: "ub" if s in mine else "u" + s[1:] for s in self.names}
        self.board = HalBoard("ub", journal_limit)
        self.hosts = {s: Seat(CODE, self.user[s]) for s in self.names if s not in mine}
        self.secrets = {s: commit.Secrets() for s in self.hosts}
        self.duplicate, self.delay = duplicate, delay
        self.queue, self.held = [], []
        self.refused = []
        self.cut = None
        settings = {"players": players}
        if mode is not None:
            settings["mode"] = mode
        said = []
        for s in self.names:
            u = self.user[s]
            if u in said:
                continue
            count = list(self.user.values()).count(u)
            also = [x for x in self.names[1:] if self.user[x] == u]
            self.say(u, "hello", p.hello("create", "p1", settings, "halunken", also=also)
                     if s == "p1" else p.hello("join", count=count))
            said.append(u)
        self.flush()
        self.refused = []
        self.board.start()

    def turn(self, swap=None):
        b = self.board
        s = b.seat
        news = b.feed.news
        able = []
        if news["fed"] == s.seq and not news["moves"] and s.current():
            for seat in self.board_seats:
                view = s.entries[seat].get("view") or {}
                opts = [o for o in view.get("options", ()) if o[0] != "reveal"]
                if opts:
                    able.append(("board", opts))
        for name, h in self.hosts.items():
            if h.current() and h.view and h.view["options"]:
                able.append((name, h.view["options"]))
        if not able:
            return False
        who, opts = self.rng.choice(able)
        act = hremote.random_request(opts, self.rng) or opts[0]
        if who == "board":
            drive(b, act, None)
            return True
        if swap is not None:
            swap(self)
        h = self.hosts[who]
        ctx = h.view["context"]
        if act[0] == "commit":
            act = self.secrets[who].commit(ctx, act[1], act[2])
        elif act[0] == "reveal":
            act = self.secrets[who].reveal(ctx, act[1])
        h.moves += 1
        self.say(h.user, "move", p.move(CODE, h.seat, h.moves, h.seq, act))
        return True


PUBLIC = ("round", "step", "turn", "captains", "blackjack", "crews", "port", "played",
          "bj_cards", "scores", "winner")


def check_end(m):
    """Every table's report is the dealer's log; the board's report's public keys are the
    dealer's."""
    game = m.dealer.games[CODE]
    reports = [s.report() for s in m.seats()]
    assert all(r == reports[0] for r in reports)
    assert reports[0]["log"] == game.log
    state = m.board.state()
    public = game.dealt.public()
    for key in PUBLIC:
        assert state.get(key) == public[key], (key, state.get(key), public[key])
    assert m.board.feed.news["moves"] == []
    assert m.refused == [], m.refused
    assert commit.audit(game.log) == []
    return reports[0]
