"""The page's seat in a remote game (docs/remote.md, "The browser"): what one table knows,
the requests it may make and the protocol's messages, exactly as a host table
(host_tools/remote/table.py) makes them: the same Seat (host_tools/remote/seat.py: events in
order by seq, duplicates dropped, gaps healed from the retained snapshot, the hand), the
same checks (host_tools/remote/protocol.py) and the game's remote part's options. The
page's web/js/remote.js moves the messages with the npm `mqtt` package over websockets and
keeps the clock (hello every second, a request without an answer sent again after 3 s);
no MQTT here. Runs in MicroPython (WebAssembly) and on CPython (the tests).

host_tools/web/game.py hands it the page's requests {"op": "remote", "do": ...}:

    open   {"code": CODE or "", "user", "create": bool, "seat", "settings", "entropy": [ints]}
           -> {"code", "subscribe": [topics], "view"}; a new game's code from `entropy`
           (the browser's crypto.getRandomValues: MicroPython's random is not seeded)
    feed   {"topic", "payload": text} -> {"word", "bad": text or null, "resubscribe":
           topic or null, "view"}: one message from the broker, checked
    hello  -> {"publish": {"topic", "message"} or null}: the hello, while it is needed
    move   {"action": [...]} -> {"publish", "view"}: one of the view's options, numbered
    again  -> {"publish" or null}: the request in flight, again with the next number
    reconnected -> {"view"}: a new connection; the request in flight is chosen again
    view   -> {"view"}

A request the page should not have sent (not an option now, no game open) is an answer
with ok false and the reason; a bad message from the broker is refused (`bad`) and changes
nothing.
"""

from host_tools.games import part
from host_tools.remote import protocol as p
from host_tools.remote.seat import Seat

GAME = "kahuna"  # the one game with a remote part yet

_table = {"t": None}


class Entropy:
    """`choice` over the browser's random numbers, for protocol.new_code."""

    def __init__(self, numbers):
        self.numbers = list(numbers)

    def choice(self, seq):
        return seq[self.numbers.pop() % len(seq)]


class PageTable:
    """One table of a remote game in the page: its Seat and its requests in flight (the
    host table's rules: a request is not asked twice at one event, a refused one is not
    offered again there)."""

    def __init__(self, code, user, hello):
        self.part = part(GAME, "remote")
        self.seat = Seat(code, user)
        self.hello_msg = hello
        self.asked = None  # the event count at our request in flight
        self.pending = None
        self.tried = {}  # event count -> requests refused (or sent) at it
        self.last = ""  # the last word worth telling (a refusal)

    def subscriptions(self):
        code, user = self.seat.code, self.seat.user
        return ([p.topic(code, kind) for kind in ("snapshot", "event")]
                + [p.topic(code, kind, user) for kind in ("hand", "reply")])

    def feed(self, topic, payload):
        out = {"word": None, "bad": None, "resubscribe": None}
        try:
            word = self.seat.feed(topic, payload.encode("utf-8"))
        except p.Bad as bad:
            out["bad"] = "refused %s on %s: %s" % (bad.code, topic[:80], bad.text)
            return out
        out["word"] = word
        if word.startswith("refused"):
            self.last = word
            if self.seat.refusals[-1].get("n") == self.seat.moves:
                self.asked = None  # our request in flight: choose again
        elif word.startswith("event") or word.startswith("snapshot"):
            self.last = ""
        if self.seat.need_snapshot:  # a gap: read the retained snapshot again
            out["resubscribe"] = p.topic(self.seat.code, "snapshot")
        return out

    def needs_hello(self):
        s = self.seat
        return (s.status is None or s.seat is None
                or s.status == "waiting" and self.hello_msg["op"] == "join")

    def options(self):
        s = self.seat
        if (not s.current() or s.public.get("turn") != s.seat or self.asked == s.seq
                or s.over()):
            return []
        tried = self.tried.get(s.seq, [])
        return [o for o in self.part.options(s.public, s.hand, s.seat) if o not in tried]

    def send(self, action):
        s = self.seat
        s.moves += 1
        self.asked = s.seq
        self.pending = action
        return {"topic": p.topic(s.code, "move", s.user),
                "message": p.move(s.code, s.seat, s.moves, s.seq, action)}

    def move(self, action):
        if not isinstance(action, list) or action not in self.options():
            raise ValueError("%r is not one of the moves open now" % (action,))
        self.tried.setdefault(self.seat.seq, []).append(action)
        return self.send(action)

    def reconnected(self):
        """A new connection: whatever was in flight on the lost one is chosen again, so
        it is an option again (it was sent, not refused; when it was the only option, the
        seat was left with none)."""
        if self.asked is not None and self.pending is not None:
            tried = self.tried.get(self.asked, [])
            if self.pending in tried:
                tried.remove(self.pending)
        self.asked = None

    def again(self):
        if self.asked == self.seat.seq and self.pending is not None and not self.seat.over():
            return self.send(self.pending)
        return None

    def view(self):
        s = self.seat
        over = s.over() and s.current()
        return {"code": s.code, "user": s.user, "seat": s.seat, "status": s.status,
                "seq": s.seq, "public": s.public, "hand": s.hand, "current": s.current(),
                "over": over, "options": self.options(), "asked": self.asked == s.seq,
                "needs_hello": self.needs_hello(), "last": self.last,
                "event": s.log[-1] if s.log else None,
                "report": s.report() if over else None}


def _open(req):
    user = req.get("user")
    if not isinstance(user, str) or not p.USER_RE.match(user) or len(user) > p.USER_MAX:
        raise ValueError("a user name is 1 to %d letters, digits, '_', '.' or '-'"
                         % p.USER_MAX)
    if req.get("create"):
        remote = part(GAME, "remote")
        code = req.get("code") or p.new_code(Entropy(req.get("entropy") or []))
        code = p.check_code(code)
        seat = req.get("seat", "white")
        if seat not in remote.SEATS:
            raise ValueError("the seat is one of %s" % ", ".join(remote.SEATS))
        hello = p.hello("create", seat, remote.check_settings(req.get("settings") or {}),
                        GAME)
    else:
        code = p.check_code(req.get("code"))
        hello = p.hello("join")
    t = PageTable(code, user, hello)
    _table["t"] = t
    return {"code": code, "subscribe": t.subscriptions(), "view": t.view()}


def handle(req):
    """One of the page's remote requests (a dict) -> its answer (a dict with "ok")."""
    do = req.get("do")
    try:
        if do == "open":
            return dict(_open(req), ok=True)
        t = _table["t"]
        if t is None:
            raise ValueError("no remote game is open")
        if do == "feed":
            out = t.feed(str(req.get("topic")), str(req.get("payload")))
        elif do == "hello":
            out = {"publish": {"topic": p.topic(t.seat.code, "hello", t.seat.user),
                               "message": t.hello_msg} if t.needs_hello() else None}
        elif do == "move":
            out = {"publish": t.move(req.get("action"))}
        elif do == "again":
            out = {"publish": t.again()}
        elif do == "reconnected":
            t.reconnected()
            out = {}
        elif do == "view":
            out = {}
        else:
            raise ValueError("unknown remote request %r" % (do,))
    except ValueError as e:  # protocol.Bad and the settings' checks are ValueErrors
        return {"ok": False, "error": str(e)}
    out["view"] = t.view()
    out["ok"] = True
    return out
