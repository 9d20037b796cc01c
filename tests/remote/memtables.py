"""Whole remote games of Halunken and Kami without a broker: the dealer (dealing.Dealer)
and one table per seat (seat.Seat, commit.Secrets) in one process, every message routed
as the broker's ACL would (a seat reads the public topics and its own hand and reply
topics). `wire` keeps every message in order, as a spy on `#` would see it."""

import random

from host_tools import games as hostgames
from host_tools.remote import commit, dealing
from host_tools.remote import protocol as p
from host_tools.remote.seat import Seat

CODE = "H7QXM2"


class Tables:
    """`counts`: how many seats each table holds, in order (default one each); a table of
    several seats is one user, its seats named USER.0, USER.1, ... in `seats`."""

    def __init__(self, kind, settings, seed=5, ai=(), counts=None):
        self.kind = kind
        self.part = hostgames.part(kind, "remote")
        n = settings.get("players", 2)
        counts = list(counts or [1] * n)
        users = ["u%d" % (i + 1) for i in range(len(counts))]
        self.dealer = dealing.Dealer(lambda code: seed)
        self.seats = {}
        for user, count in zip(users, counts):
            for k in range(count):
                self.seats[user if count == 1 else "%s.%d" % (user, k)] = Seat(CODE, user, k)
        self.users = list(self.seats)  # one name per seat: the tables' players
        self.secrets = {u: commit.Secrets() for u in users}
        self.ai = {u: self.part.AiSeat() for u in ai}
        self.wire = []  # (topic, payload, retain)
        self.lines = []
        names = ["p%d" % (i + 1) for i in range(n)]
        self.say(users[0], "hello", p.hello("create", "p1", settings, kind,
                                            also=names[1:counts[0]]))
        for u, count in zip(users[1:], counts[1:]):
            self.say(u, "hello", p.hello("join", count=count))

    def say(self, user, kind, msg):
        topic = p.topic(CODE, kind, user)
        payload = p.encode(msg)
        self.wire.append((topic, payload, False))
        out, lines = self.dealer.handle(topic, payload)
        self.lines += lines
        self.deliver(out)
        return out, lines

    def deliver(self, out):
        for topic, payload, retain in out:
            self.wire.append((topic, payload, retain))
            _, kind, user = p.parse_topic(topic)
            for s in self.seats.values():
                if user in (None, s.user):
                    s.feed(topic, payload)

    def send(self, name, action):
        s = self.seats[name]
        s.moves += 1
        return self.say(s.user, "move", p.move(CODE, s.seat, s.moves, s.seq, action))

    def request_of(self, name, rng):
        """The request this seat's table sends now, or None: a random option (or the
        AI's), a secret choice committed, a reveal once announced."""
        s = self.seats[name]
        user, secrets = name, self.secrets[s.user]
        if not s.current() or s.view is None:
            return None
        opts = s.view["options"]
        if not opts:
            return None
        if opts[0][0] == "reveal":
            return secrets.reveal(s.view["context"], opts[0][1])
        if user in self.ai:
            if s.view.get("context"):  # as host_tools/remote/table.py does
                s.view["committed"] = secrets.cards(s.view["context"])
            option = self.ai[user].choose(s.seat, s.public, s.hand, s.log, opts, view=s.view)
        else:
            option = self.part.random_request(opts, rng)
        if option is None:
            return None
        if option[0] == "commit":
            return secrets.commit(s.view["context"], option[1], option[2])
        return option

    def play(self, rng=None, limit=20000, each=None):
        """Play to the end, the tables in a random order; `each(self)` after every
        request. Returns the number of requests."""
        rng = rng or random.Random(1)
        done = 0
        while not self.over():
            users = list(self.users)
            rng.shuffle(users)
            moved = False
            for u in users:
                action = self.request_of(u, rng)
                if action is None:
                    continue
                out, lines = self.send(u, action)
                assert lines == [], lines  # honest tables: nothing refused
                moved = True
                done += 1
                if each is not None:
                    each(self)
                break
            assert moved, "nobody can move: %s" % self.game().dealt.public()
            assert done < limit, "the game did not end"
        return done

    def game(self):
        return self.dealer.games[CODE]

    def over(self):
        g = self.game()
        return g.dealt is not None and g.dealt.to_act() is None

    def reports(self):
        return {u: s.report() for u, s in self.seats.items()}
