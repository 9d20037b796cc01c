"""The dealer's games (docs/remote.md), without MQTT: `Dealer.handle(topic, payload)`
takes one message as the broker delivered it and returns what to publish, as
(topic, payload bytes, retain) triples, and the lines to log. host_tools/remote/dealer.py
runs it on a broker.

The dealer holds each game whole (its game's `remote` part: the rules' state, the deck's
secret order, the display) and is the one that numbers its events. A table's request is
checked before it touches the game: a refusal is logged with its reason, answered on the
requester's reply topic, and changes nothing. Each game is saved (its secret, settings,
seats and accepted requests) before its events go out, so a dealer that restarts replays
it to the same state. A game's secret (128 bits, host_tools/remote/shuffle.py) is in its
file alone: no message carries it.
"""

import hmac
import json
import os

from host_tools import games as hostgames
from host_tools.remote import protocol as p
from host_tools.remote import shuffle


class Game:
    """One game: its code, its kind (the game's name), settings, secret (32 hex digits: the
    deck's order follows from it; never published), seats {seat: user},
    the accepted requests [[seat, action]], moves {seat: n of its last accepted request},
    the public log [[seq, actor, action]] and, once every seat is taken, `dealt` (the
    game's remote part's Dealt)."""

    def __init__(self, code, kind, settings, secret):
        self.part = hostgames.part(kind, "remote")
        self.settings = self.part.check_settings(settings)
        self.code = code
        self.kind = kind
        self.secret = shuffle.check_secret(secret)
        self.seats = {}
        self.moves = {}
        self.requests = []
        self.log = []
        self.dealt = None
        self.token = None  # a private game's token: nobody takes a seat without it

    def seat_names(self):
        """The game's seats: the part's SEATS, or as many as its settings say (a part with
        `seats_of`: Halunken and Kami seat 2 to 4)."""
        seats_of = getattr(self.part, "seats_of", None)
        return tuple(seats_of(self.settings)) if seats_of else self.part.SEATS

    def start(self):
        if getattr(self.part, "COMMITS", False):  # commitments name their game (commit.py)
            self.dealt = self.part.Dealt(self.settings, shuffle.Shuffle(self.secret),
                                         self.code)
        else:
            self.dealt = self.part.Dealt(self.settings, shuffle.Shuffle(self.secret))
        self._note(self.dealt.events)

    def _note(self, events):
        for actor, action in events:
            self.log.append([len(self.log) + 1, actor, action])

    def seats_of(self, user):
        """The seats `user` holds, in order (a table may hold several: Halunken, Kami)."""
        return sorted(seat for seat, who in self.seats.items() if who == user)

    def seat_of(self, user):
        for seat, who in self.seats.items():
            if who == user:
                return seat
        return None

    def status(self):
        if self.dealt is None:
            return "waiting"
        return "over" if self.dealt.to_act() is None else "playing"

    def apply(self, seat, n, action):
        events = self.dealt.request(seat, action)  # Refused: nothing changed
        self.requests.append([seat, action])
        self.moves[seat] = n
        first = len(self.log) + 1
        self._note(events)
        return first

    def save(self):
        return {"code": self.code, "kind": self.kind, "settings": self.settings,
                "secret": self.secret, "seats": self.seats, "moves": self.moves,
                "requests": self.requests, "token": self.token}

    @classmethod
    def load(cls, obj):
        g = cls(obj["code"], obj["kind"], obj["settings"], obj.get("secret"))
        g.token = obj.get("token")
        g.seats = dict(obj["seats"])
        if len(g.seats) == len(g.seat_names()):
            g.start()
            for seat, action in obj["requests"]:
                g.requests.append([seat, action])
                g._note(g.dealt.request(seat, action))
        g.moves = dict(obj["moves"])
        return g


def load_game(path):
    """A game from its file in the state dir; ValueError naming the file when it cannot be
    read, is not a game's JSON or has no 128-bit secret (a corrupt or foreign file)."""
    name = os.path.basename(path)
    try:
        with open(path) as f:
            obj = json.load(f)
    except OSError as e:
        raise ValueError("%s: %s" % (name, e.strerror)) from None
    except ValueError as e:
        raise ValueError("%s: not a game's JSON (%s)" % (name, e)) from None
    if not isinstance(obj, dict) or "secret" not in obj:
        raise ValueError("%s: no game's secret in it (a corrupt file, or one of a dealer "
                         "before the 128-bit secrets)" % name)
    try:
        return Game.load(obj)
    except KeyError as e:
        raise ValueError("%s: not a game this dealer can replay (no %s in it)"
                         % (name, e)) from None
    except (TypeError, ValueError, IndexError) as e:
        raise ValueError("%s: not a game this dealer can replay (%s: %s)"
                         % (name, type(e).__name__, e)) from None


class Dealer:
    """Every game on one broker. `secret_of(code)` gives a new game's secret (default: a
    new one from the system's random source, shuffle.new_secret); an int there is a test's
    deal number (shuffle.test_secret: reproducible, no secret); `state_dir` (optional)
    keeps the games, with their secrets, across restarts; `require_token`: every game is
    private (its create carries a token)."""

    def __init__(self, secret_of=None, state_dir=None, require_token=False):
        self.secret_of = secret_of
        self.state_dir = state_dir
        self.require_token = require_token
        self.games = {}
        if state_dir:
            for name in sorted(os.listdir(state_dir)):
                if name.endswith(".json"):
                    g = load_game(os.path.join(state_dir, name))
                    self.games[g.code] = g

    def new_secret(self, code):
        if self.secret_of is None:
            return shuffle.new_secret()
        secret = self.secret_of(code)
        return shuffle.test_secret(secret) if isinstance(secret, int) else secret

    # ------------------------------------------------------------------ output

    def _save(self, g):
        if not self.state_dir:
            return
        path = os.path.join(self.state_dir, g.code + ".json")
        # The game's secret and both hands: readable by the dealer's own user alone.
        fd = os.open(path + ".new", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with open(fd, "w") as f:
            json.dump(g.save(), f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(path + ".new", path)

    def snapshot(self, g):
        public = g.dealt.public() if g.dealt is not None else None
        msg = {"v": p.VERSION, "game": g.code, "seq": len(g.log), "status": g.status(),
               "seats": g.seats, "moves": g.moves, "public": public, "log": g.log}
        if g.kind != "kahuna":  # a joining table learns the game from it (Kahuna's: none)
            msg["kind"] = g.kind
        return (p.topic(g.code, "snapshot"), p.encode(msg), True)

    def hands(self, g):
        """Each user's hand message (retained: one per user). A user holding several
        seats gets them all in one, under "seats", the first also at the top."""
        out = []
        users = []  # in the order of their first seats, as Kahuna's always were
        for _seat, user in sorted(g.seats.items()):
            if user not in users:
                users.append(user)
        for user in users:
            mine = g.seats_of(user)
            private = {}
            for seat in mine:
                private[seat] = {"hand": g.dealt.hand(seat)}
                if hasattr(g.dealt, "view"):  # the seat's private view: options, observation
                    private[seat]["view"] = g.dealt.view(seat)
            msg = {"v": p.VERSION, "game": g.code, "seq": len(g.log), "seat": mine[0]}
            msg.update(private[mine[0]])
            if len(mine) > 1:
                msg["seats"] = private
            out.append((p.topic(g.code, "hand", user), p.encode(msg), True))
        return out

    def everything(self, g, first=1):
        """The game's messages: events from `first` on, the hands, the snapshot."""
        out = []
        if g.dealt is not None:
            public = g.dealt.public()
            last = len(g.log)
            # The public state rides on the request's last event: an earlier one (a deal
            # before the display is laid) must not show what comes after it.
            out += [(p.topic(g.code, "event"),
                     p.encode(p.event(g.code, seq, actor, action,
                                      public if seq == last else None)), False)
                    for seq, actor, action in g.log[first - 1:]]
            out += self.hands(g)
        out.append(self.snapshot(g))
        return out

    def news(self, g):
        """The game as it is, for a table that comes back: its hands and the snapshot
        (retained, so every table reads it too; one that holds it already drops it)."""
        return (self.hands(g) if g.dealt is not None else []) + [self.snapshot(g)]

    def republish(self):
        """Every game's retained messages (a dealer that restarted says them again)."""
        out = []
        for g in self.games.values():
            out += self.news(g)
        return out

    def refuse(self, code, user, n, bad):
        line = "refused %s from %s on %s: %s" % (bad.code, user or "?", code or "?", bad.text)
        out = []
        if code and user:
            out.append((p.topic(code, "reply", user),
                        p.encode({"v": p.VERSION, "game": code, "n": n, "refused": bad.code,
                                  "reason": bad.text}), False))
        return out, [line]

    # ------------------------------------------------------------------ input

    def handle(self, topic, payload):
        """One message from the broker: (messages to publish, lines to log)."""
        code = user = n = None
        try:
            code, kind, user = p.parse_topic(topic)
            if kind not in ("hello", "move"):
                return [], []  # our own publications, echoed
            msg = p.decode(payload, code)
            if kind == "hello":
                return self.hello(code, user, msg)
            n = msg.get("n") if type(msg.get("n")) is int else None
            return self.move(code, user, msg)
        except p.Bad as bad:
            return self.refuse(code, user, n, bad)
        except hostgames.NoGame as e:
            return self.refuse(code, user, n, p.Bad("malformed", str(e)))

    def hello(self, code, user, msg):
        g = self.games.get(code)
        if g is not None:
            seats = g.seat_names()
        elif msg.get("op") == "create" and isinstance(msg.get("kind"), str):
            seats = hostgames.part(msg["kind"], "remote").SEATS  # NoGame: malformed
        else:
            seats = ("white", "black")
        op, seat, settings, kind = p.check_hello(msg, seats)
        token = p.hello_token(msg)
        if op == "create":
            if token is None and self.require_token:
                raise p.Bad("bad-token", "this dealer's games are private: create one with "
                            "a token (remote create --private)")
            if g is not None:
                if g.seats.get(seat) != user:
                    raise p.Bad("code-taken", "game %s exists already" % code)
                return self.news(g), []  # a create said again: the game as it is
            try:
                g = Game(code, kind, settings, self.new_secret(code))
            except ValueError as e:
                raise p.Bad("malformed", str(e)) from None
            also = msg.get("also", [])
            if seat not in g.seat_names():
                raise p.Bad("malformed", "seat must be one of %s" % ", ".join(g.seat_names()))
            if (not isinstance(also, list) or seat in also or len(set(also)) != len(also)
                    or not all(s in g.seat_names() for s in also)
                    or also and not hasattr(g.part, "seats_of")):
                raise p.Bad("malformed", "also must list other seats of %s, each once"
                            % ", ".join(g.seat_names()) if hasattr(g.part, "seats_of")
                            else "a table of %s holds one seat" % kind)
            for s in [seat] + also:
                g.seats[s] = user
            g.token = token
            self.games[code] = g
            if len(g.seats) == len(g.seat_names()):
                g.start()
            self._save(g)
            return self.everything(g), ["created %s (%s) for %s as %s"
                                        % (code, kind, user, " ".join([seat] + also))]
        if g is None:
            raise p.Bad("unknown-game", "no game %s" % code)
        if g.seat_of(user) is not None:  # a table that comes back: the snapshot says all
            return self.news(g), ["%s rejoined %s" % (user, code)]
        if g.token is not None and not hmac.compare_digest((token or "").encode(),
                                                           g.token.encode()):
            raise p.Bad("bad-token", "game %s is private: join it with its token "
                        "(remote join CODE --token TOKEN)" % code)
        free = [s for s in g.seat_names() if s not in g.seats]
        if not free:
            raise p.Bad("game-full", "every seat of %s is taken" % code)
        count = msg.get("seats", 1)
        if type(count) is not int or count < 1 or count > 1 and not hasattr(g.part, "seats_of"):
            raise p.Bad("malformed", "seats must be a whole number >= 1 (a table of %s "
                        "holds one)" % g.kind)
        if count > len(free):
            raise p.Bad("game-full", "%s has %d seat(s) free, not %d" % (code, len(free), count))
        for s in free[:count]:
            g.seats[s] = user
        if len(free) == count:
            g.start()
        self._save(g)
        return self.everything(g), ["%s joined %s as %s" % (user, code, " ".join(free[:count]))]

    def move(self, code, user, msg):
        g = self.games.get(code)
        if g is None:
            raise p.Bad("unknown-game", "no game %s" % code)
        seat, n, base, action = p.check_move(msg, code)
        try:
            g.part.check_request(action)
        except g.part.Refused as e:
            raise p.Bad(e.code, e.text) from None
        mine = g.seats_of(user)
        if not mine:
            raise p.Bad("not-seated", "%s holds no seat in %s" % (user, code))
        if seat not in mine:
            raise p.Bad("forged", "%s holds %s, not %s" % (user, " and ".join(mine), seat))
        if g.dealt is None:
            raise p.Bad("out-of-turn", "the game waits for its players")
        if n <= g.moves.get(seat, 0):
            raise p.Bad("replayed", "request %d of %s was taken already (last %d)"
                        % (n, seat, g.moves.get(seat, 0)))
        # A commitment or a reveal is made by every seat at once (commit.py): its base is
        # the event count its seat saw, which the others' may have passed meanwhile.
        simultaneous = getattr(g.part, "COMMITS", False) and action[0] in ("commit", "reveal")
        if base != len(g.log) and not (simultaneous and base < len(g.log)):
            raise p.Bad("stale", "made at event %d, the game is at %d" % (base, len(g.log)))
        try:
            first = g.apply(seat, n, action)
        except g.part.Refused as e:
            raise p.Bad(e.code, e.text) from None
        self._save(g)
        return self.everything(g, first), []
