"""A Pico W's own seat (core.netseat) in one process: the board's firmware on the
simulator's virtual hardware with its link, the seat handing the dealer's messages to its
remote seat and its moves to the dealer (host_tools.remote.dealing) as the broker would,
against a host table (host_tools.remote.seat) of random moves. Whole games end alike at
both tables and on the board; duplicated, delayed, forged and malformed messages change
nothing; a power cut at the board loses nothing. The same through a real Mosquitto, the
board under MicroPython: test_picow_seat_broker.py."""

import json
import random

import pytest
from boardkit import CODE, drive

import gamekit
from core import netseat
from core.link import Link
from host_tools.games.kahuna import remote as kremote
from host_tools.remote import dealing
from host_tools.remote import protocol as p
from host_tools.remote.seat import Seat
from host_tools.simulator import engine as simcore

PUBLIC = ("phase", "round", "turn", "final_turns", "must_draw", "winner", "bridges",
          "control", "supply", "scores", "round_scores", "discard", "drawable",
          "hand_sizes")


class PicoW:
    """The board at the creating table (white, broker user alice): firmware, link, seat.
    `eyes`: what its player sees at the board (a Seat on the same messages: the options
    the rules give the player, which the player enters with the board's inputs)."""

    def __init__(self, settings):
        self.sim = simcore.Simulation(gamekit.board())
        self.said = []
        self.out = []  # the seat's publications
        self.hello = p.hello("create", "white", settings)
        self.boot()
        self.eyes = Seat(CODE, "alice")

    def boot(self):
        self.lines = []
        self.link = Link(self.sim.app, self.lines.append, lambda: self.sim.now)
        self.sim.app.listen(self.link.on_event)
        self.sim.app.prompters.append(self.link.on_prompt)
        self.seat = netseat.NetSeat(self.sim.app, CODE, "alice", self.hello,
                                    lambda t, m: self.out.append((t, m)), self.said.append)

    def power_cut(self):
        self.sim.boot()
        self.boot()

    def send(self, obj):
        n = len(self.lines)
        self.link.line(json.dumps(obj))
        return [json.loads(line) for line in self.lines[n:]]

    def state(self):
        return [x for x in self.send({"cmd": "state"}) if x.get("event") == "state"][0]["state"]


class Game:
    """The dealer, the Pico W (white) and a host table (black, bob), the broker in
    between: `duplicate`, `delay` as in boardkit.Match."""

    def __init__(self, seed, settings=None, duplicate=0.0, delay=0.0):
        self.rng = random.Random(seed)
        self.faults = random.Random(seed + 1000)
        self.dealer = dealing.Dealer(lambda code: seed)
        self.board = PicoW(settings or {})
        self.bob = Seat(CODE, "bob")
        self.bob_asked = -1
        self.queue = []
        self.held = []
        self.duplicate = duplicate
        self.delay = delay
        self.refused = []
        self.now = 0
        self.bob_hello = True

    def deliver(self, out):
        for topic, payload, _retain in out:
            if self.faults.random() < self.delay:
                self.held.append((topic, payload))
                continue
            self.queue.append((topic, payload))
            if self.faults.random() < self.duplicate:
                self.queue.append((topic, payload))

    def to_dealer(self, topic, payload):
        out, lines = self.dealer.handle(topic, payload)
        self.refused += lines
        self.deliver(out)

    def flush(self):
        while self.queue or self.held:
            if not self.queue:
                self.queue, self.held = self.held, []
            topic, payload = self.queue.pop(0)
            _, kind, user = p.parse_topic(topic)
            if user in (None, "alice"):
                self.board.seat.message(topic, payload, self.now)
                self.board.eyes.feed(topic, payload)
                if self.board.seat.need_snapshot:  # subscribed anew: the retained one
                    self.queue.append(self.dealer.snapshot(self.dealer.games[CODE])[:2])
            if user in (None, "bob"):
                self.bob.feed(topic, payload)
                if self.bob.need_snapshot:
                    self.bob.feed(*self.dealer.snapshot(self.dealer.games[CODE])[:2])

    def pump(self):
        while True:
            self.now += 10
            self.flush()
            self.board.seat.tick(self.now)
            sent = self.board.out
            self.board.out = []
            for topic, payload in sent:
                self.to_dealer(topic, payload)
            if self.bob_hello and self.dealer.games.get(CODE) is not None:
                self.bob_hello = False
                self.to_dealer(p.topic(CODE, "hello", "bob"), p.encode(p.hello("join")))
            if not sent and not self.queue and not self.held:
                return

    def over(self):
        b = self.board
        return (self.bob.over() and b.eyes.over() and b.sim.app.solo.fed == self.bob.seq)

    def turn(self):
        """One player's step: the card the board asks for, the board's player's request
        or the host table's. False when nobody can act."""
        b = self.board
        remote = b.sim.app.solo
        if remote.want is not None:
            out = b.send({"cmd": "tap", "card": remote.want})
            assert out[0]["event"] != "refused", out
            return True
        e = b.eyes
        if (remote.fed == e.seq and not remote.moves and e.current() and not e.over()
                and e.public["turn"] == "white"):
            drive(b, kremote.random_request(kremote.options(e.public, e.hand, "white"),
                                            self.rng))
            return True
        s = self.bob
        if s.current() and not s.over() and s.public["turn"] == "black" \
                and self.bob_asked != s.seq:
            self.bob_asked = s.seq
            s.moves += 1
            act = kremote.random_request(kremote.options(s.public, s.hand, "black"), self.rng)
            self.to_dealer(p.topic(CODE, "move", "bob"),
                           p.encode(p.move(CODE, "black", s.moves, s.seq, act)))
            return True
        return False

    def play(self, limit=5000, every=None):
        for step in range(limit):
            self.pump()
            if self.over():
                return
            if every is not None:
                every(self, step)
            assert self.turn(), "nobody can act: %s %s" % (self.board.said, self.refused)
        raise AssertionError("no end after %d steps" % limit)


def check_end(g):
    dealer = g.dealer.games[CODE]
    report = g.bob.report()
    assert g.board.eyes.report() == report
    assert report["log"] == dealer.log
    state = g.board.state()
    for key in PUBLIC:  # the board's own rules state is the dealer's
        assert state[key] == dealer.dealt.public()[key], key
    assert sorted(g.board.sim.app.game.hand("white")) == dealer.dealt.hand("white")
    remote = g.board.sim.app.solo
    assert remote.moves == [] and remote.want is None and g.board.seat.events == {}
    assert [line for line in g.refused if "refused" in line] == []
    return report


@pytest.mark.parametrize("seed", [1, 2])
def test_whole_games_between_a_pico_w_and_a_host_table_end_alike(seed):
    g = Game(seed)
    g.play()
    end = check_end(g)
    assert end["public"]["winner"] in ("white", "black", "draw")
    assert g.board.said == []
    assert len(end["log"]) > 60  # a whole game: the deal, every turn, the end


def test_duplicated_and_delayed_messages_change_nothing():
    """QoS 1 delivers some twice; a delayed event leaves a gap that the retained snapshot
    heals (the seat subscribes to it anew)."""
    plain = Game(4)
    plain.play()
    g = Game(4, duplicate=0.3, delay=0.2)
    g.play()
    assert check_end(g) == check_end(plain)
    assert not [line for line in g.board.said if "refused" in line]


def test_a_power_cut_at_the_board_mid_game_loses_nothing():
    """The board's journal holds its game and the remote seat's bookkeeping; the seat
    starts again with nothing and learns the rest from the retained snapshot and hand,
    and its unconfirmed moves go again (counted ones refused as replayed, nothing
    changed)."""
    plain = Game(5)
    plain.play()
    g = Game(5)
    cuts = []

    def every(game, step):
        if step % 29 == 7:
            before = game.board.state()
            game.board.power_cut()
            dealer = game.dealer.games[CODE]  # the broker's retained messages, as on
            game.queue.append(game.dealer.snapshot(dealer)[:2])  # subscribing again
            game.queue += [m[:2] for m in game.dealer.hands(dealer) if "/alice" in m[0]]
            game.pump()
            after = game.board.state()
            for key in PUBLIC:
                assert after[key] == before[key], key
            cuts.append(step)
    g.play(every=every)
    assert len(cuts) > 3
    assert check_end(g) == check_end(plain)


SETTINGS = {"variant": "alternative", "first": "black", "handicap": ["white", 2]}


def test_the_game_starts_on_the_board_with_the_dealers_settings():
    g = Game(6, settings=SETTINGS)
    g.pump()
    s = g.board.sim.app.settings
    assert (s["variant"], s["first"], s["handicap"], s["remote"]) == (
        "alternative", "black", ["white", 2], "black")
    g.play()
    check_end(g)


def bad_messages():
    good = p.encode(p.event(CODE, 99, "black", ["end_play"], None))
    return [
        ("kb/K7QXM2/event", b"not json", "malformed: not JSON"),
        ("kb/K7QXM2/event", b"[1, 2]", "malformed: not a JSON object"),
        ("kb/K7QXM2/event", good.replace(b'"v":1', b'"v":2'), "malformed: protocol version"),
        ("kb/K7QXM2/event", good.replace(b"K7QXM2", b"ABCDEF"), "forged: game 'ABCDEF'"),
        ("kb/K7QXM2/event", good.replace(b'"seq":99', b'"seq":"x"'), "malformed: seq must"),
        ("kb/K7QXM2/hand/bob", p.encode({"v": 1, "game": CODE, "seq": 9, "seat": "black",
                                         "hand": ["HUNA-1"]}), "forged: not a topic"),
        ("kb/ABCDEF/event", good, "forged: not a topic"),
        ("kb/K7QXM2/move/alice", good, "forged: not a topic"),
        ("kb/K7QXM2/nonsense", good, "malformed: not a topic of remote play"),
        ("kb/K7QXM2/event", b"x" * (p.MAX_PAYLOAD + 1), "malformed: message of"),
        ("kb/K7QXM2/snapshot", p.encode({"v": 1, "game": CODE, "seq": 2, "status": "playing",
                                         "seats": {}, "moves": {}, "public": {},
                                         "log": [[1, None, []]]}), "malformed: a snapshot"),
    ]


@pytest.mark.parametrize("topic,payload,said", bad_messages())
def test_bad_messages_are_refused_with_a_reason_and_change_nothing(topic, payload, said):
    g = Game(7)
    g.pump()
    for _ in range(12):  # into the game
        g.turn()
        g.pump()
    seat = g.board.seat
    before = (dict(seat.__dict__), g.board.state())
    assert seat.message(topic, payload, g.now) is None
    assert g.board.said[-1].startswith("netseat: refused %s: %s" % (topic[:64], said)), \
        g.board.said
    assert (dict(seat.__dict__), g.board.state()) == before
    g.play()
    check_end(g)


def test_an_event_that_differs_from_the_one_held_is_forged():
    g = Game(8)
    g.pump()
    seat = g.board.seat
    seat.events[seat.seq + 1] = ["black", ["end_play"]]  # held, not fed (a gap before it)
    seat.seq += 1
    other = p.encode(p.event(CODE, seat.seq, "black", ["decline"], None))
    assert seat.message("kb/K7QXM2/event", other, 0) is None
    assert g.board.said[-1].endswith("forged: event %d differs from the one held" % seat.seq)


def test_the_board_plays_on_at_its_own_table_and_the_seat_stands_down():
    """A game started at the board (the held new-game button: the remote seat dropped,
    games.kahuna.game.fresh_settings) goes on undisturbed: nothing more is fed or asked."""
    g = Game(9)
    g.pump()
    app = g.board.sim.app
    app.new_game(app.game_def.fresh_settings(app.settings, 0))
    assert app.settings.get("remote") is None
    g.board.seat.tick(g.now)
    assert g.board.seat.off
    assert g.board.said == ["netseat: the board plays a game of its own table; the remote "
                            "game K7QXM2 waits"]
    out = g.board.send({"cmd": "tap", "card": "HUNA-1"})  # its own deal, at its table
    assert out[0]["event"] != "refused", out
    assert app.settings.get("remote") is None and g.board.out == []


def test_the_code_spelled_on_the_islands_shows_until_the_other_table_is_seated():
    """Issue 19: `remote: create` leaves the code on the islands (core.codeshow in the
    menu's place) while the game waits; the seat drops it when it starts the game."""
    from core.codeshow import CodeShow
    g = Game(7)
    app = g.board.sim.app
    app.menu = CodeShow(CODE, app.game_def.letter_pixels(app.board, CODE))
    g.bob_hello = False  # the other table not there yet
    g.pump()
    assert isinstance(app.menu, CodeShow) and g.board.seat.seat == "white"
    g.bob_hello = True
    g.pump()
    assert app.menu is None and app.settings.get("remote") == "black"
    g.play()
    check_end(g)
