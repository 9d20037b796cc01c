"""The page's seat in a remote game (docs/remote.md, "The browser"): what one table knows,
the requests it may make and the protocol's messages, exactly as a host table
(host_tools/remote/table.py) makes them: the same Seat (host_tools/remote/seat.py: events in
order by seq, duplicates dropped, gaps healed from the retained snapshot, the hand), the
same checks (host_tools/remote/protocol.py) and the game's remote part's options. The
page's web/js/remote.js moves the messages with the npm `mqtt` package over websockets and
keeps the clock (hello every second, a request without an answer sent again after 3 s);
no MQTT here. Runs in MicroPython (WebAssembly) and on CPython (the tests).

It serves the three games with remote play (Kahuna, Halunken & Spelunken, Kami): a
create names the page's game (`?game=`), a join learns it from the snapshot. Halunken's and
Kami's options come from the dealer (the hand message's view); Kahuna's from its remote part.

Halunken's movement cards go by commit and reveal (H7, H32; host_tools/remote/commit.py):
the page commits itself (SHA-256 of context, figure, card and a 128-bit nonce from the
browser's random numbers) and hands the card and nonce back to the page (`keep`), which
stores them in its local storage until the game is over and gives them again at `open`, so
a page reloaded between its commitment and the reveal still reveals. The reveal asks the
player nothing: it is sent as soon as the dealer announces it (`publish` of a feed). Kami's
face-down defence (K6, K21) is a request like any other: it goes on the page's move topic,
which only the dealer reads; no message of the page's names it anywhere else.

host_tools/web/game.py hands it the page's requests {"op": "remote", "do": ...}:

    open   {"code": CODE or "", "user", "create": bool, "game", "seat", "settings",
           "entropy": [ints], "secrets": {slot: [card, nonce]} or null}
           -> {"code", "subscribe": [topics], "view"}; a new game's code from `entropy`
           (the browser's crypto.getRandomValues: MicroPython's random is not seeded);
           `secrets` the commitments kept for this game and user (Halunken)
    feed   {"topic", "payload": text} -> {"word", "bad": text or null, "resubscribe":
           topic or null, "other_game": GAME or null, "publish": {...} or null, "view"}:
           one message from the broker, checked; `publish` a reveal now due;
           `other_game` when the joined code is a game of another page
    hello  -> {"publish": {"topic", "message"} or null}: the hello, while it is needed
    move   {"action": [...], "entropy": [ints]} -> {"publish", "keep", "view"}: one of the
           view's options, numbered (a secret choice committed: `keep` the secrets to
           store, the nonce made from `entropy`)
    again  -> {"publish" or null}: the request in flight, again with the next number
    reconnected -> {"view"}: a new connection; the request in flight is chosen again
    view   -> {"view"}

A request the page should not have sent (not an option now, no game open) is an answer
with ok false and the reason; a bad message from the broker is refused (`bad`) and changes
nothing.
"""

import json

from host_tools.games import NoGame, part
from host_tools.remote import commit
from host_tools.remote import protocol as p
from host_tools.remote.seat import Seat

GAMES = ("kahuna", "halunken", "kami")  # the games the page plays across tables

_table = {"t": None}


class Entropy:
    """`choice` over the browser's random numbers, for protocol.new_code."""

    def __init__(self, numbers):
        self.numbers = list(numbers)

    def choice(self, seq):
        return seq[self.numbers.pop() % len(seq)]


def nonce_of(numbers):
    """A commitment's nonce (128 bits, hex) from four of the browser's 32-bit numbers."""
    if (not isinstance(numbers, list) or len(numbers) < 4
            or not all(type(n) is int and 0 <= n < 1 << 32 for n in numbers[:4])):
        raise ValueError("a secret choice needs four random 32-bit numbers (entropy)")
    return "".join("%08x" % n for n in numbers[:4])


class PageTable:
    """One table of a remote game in the page: its Seat and its requests in flight (the
    host table's rules: a request is not asked twice at one event, a refused one is not
    offered again there), and its secrets (Halunken's commitments)."""

    def __init__(self, code, user, hello, game=None, held=None):
        self.game = game  # known at a create; a join learns it from the snapshot
        self.part = part(game, "remote") if game else None
        self.seat = Seat(code, user)
        self.secrets = commit.Secrets(held=held or {})
        self.hello_msg = hello
        self.asked = None  # the event count at our request in flight
        self.pending = None
        self.chosen = None  # the option the request in flight chose (a commit: its card)
        self.tried = {}  # event count -> requests refused (or sent) at it
        self.last = ""  # the last word worth telling (a refusal)
        self.lost = []  # reveals due without their secret

    def subscriptions(self):
        code, user = self.seat.code, self.seat.user
        return ([p.topic(code, kind) for kind in ("snapshot", "event")]
                + [p.topic(code, kind, user) for kind in ("hand", "reply")])

    def feed(self, topic, payload):
        out = {"word": None, "bad": None, "resubscribe": None, "other_game": None,
               "publish": None}
        try:
            word = self.seat.feed(topic, payload.encode("utf-8"))
        except p.Bad as bad:
            out["bad"] = "refused %s on %s: %s" % (bad.code, topic[:80], bad.text)
            out["other_game"] = self._other_game(topic, payload)
            return out
        out["word"] = word
        if word.startswith("snapshot") and self.part is None:
            self.game = self.seat.kind
            self.part = part(self.game, "remote")
        if word.startswith("refused"):
            self.last = word
            if self.seat.refusals[-1].get("n") == self.seat.moves:
                self.asked = None  # our request in flight: choose again
        elif word.startswith("event") or word.startswith("snapshot"):
            self.last = ""
        if self.seat.need_snapshot:  # a gap: read the retained snapshot again
            out["resubscribe"] = p.topic(self.seat.code, "snapshot")
        out["publish"] = self.reveal()
        return out

    def _other_game(self, topic, payload):
        """The game a refused snapshot names, when the page has no remote play for it here
        (a code of another game's page): its name, else None."""
        if not topic.endswith("/snapshot"):
            return None
        try:
            kind = json.loads(payload).get("kind", "kahuna")
        except (ValueError, AttributeError):
            return None
        return kind if kind in GAMES and kind != self.game else None

    def needs_hello(self):
        s = self.seat
        return (s.status is None or s.seat is None
                or s.status == "waiting" and self.hello_msg["op"] == "join")

    def _open(self):
        """The requests open to the seat now (before the ones tried at this event are
        taken out): the dealer's (Halunken, Kami: the view's), or Kahuna's own."""
        s = self.seat
        if (self.part is None or not s.current() or self.asked == s.seq or s.over()):
            return []
        if s.view is not None or not hasattr(self.part, "options"):
            return (s.view or {}).get("options") or []  # the dealer's (Halunken, Kami)
        if s.public.get("turn") != s.seat:
            return []
        return self.part.options(s.public, s.hand, s.seat)

    def options(self):
        """What the player may choose now: a reveal is no choice (it is sent by itself)."""
        tried = self.tried.get(self.seat.seq, [])
        return [o for o in self._open() if o not in tried and o[0] != "reveal"]

    def reveal(self):
        """The reveal the dealer announced (["reveal", FIGURE] open), as the request to
        publish, or None. One without its secret (the browser's storage lost) is not
        sent: the page says so while it is open (`lost`), and the game waits."""
        s = self.seat
        tried = self.tried.setdefault(s.seq, [])
        context = (s.view or {}).get("context")
        for option in self._open():
            if option[0] != "reveal" or len(option) != 2 or option in tried:
                continue
            tried.append(option)
            action = (self.secrets.reveal(context, option[1])
                      if isinstance(context, str) else None)
            if action is None:
                if option not in self.lost:
                    self.lost.append(option)
                continue
            return self.send(action)
        return None

    def lost_word(self):
        """What the page says of reveals it cannot make, while the dealer waits for them."""
        s = self.seat
        lost = [o[1] for o in self.lost if s.view and o in (s.view.get("options") or [])]
        if not lost:
            return None
        return ("cannot reveal %s: this page holds no secret for it (the browser's storage "
                "was cleared); the game waits" % " and ".join(lost))

    def send(self, action):
        s = self.seat
        s.moves += 1
        self.asked = s.seq
        self.pending = action
        return {"topic": p.topic(s.code, "move", s.user),
                "message": p.move(s.code, s.seat, s.moves, s.seq, action)}

    def move(self, action, entropy=None):
        """One of the options, as its request; a secret choice (["commit", FIGURE, CARD])
        is committed (the card stays in the page: `keep`)."""
        if not isinstance(action, list) or action not in self.options():
            raise ValueError("%r is not one of the moves open now" % (action,))
        keep = None
        request = action
        if action[0] == "commit" and len(action) == 3:
            context = (self.seat.view or {}).get("context")
            if not isinstance(context, str):
                raise ValueError("the dealer offers a secret choice without its context")
            request = self.secrets.commit(context, action[1], action[2], nonce_of(entropy))
            keep = dict(self.secrets.held)
        self.tried.setdefault(self.seat.seq, []).append(action)
        self.chosen = action
        return self.send(request), keep

    def reconnected(self):
        """A new connection: whatever was in flight on the lost one is asked again. The
        choice sent is an option again (it was sent, not refused; when it was the only
        option, the seat was left with none); a reveal is sent again once the snapshot or
        hand comes."""
        if self.asked is not None and self.chosen is not None:
            tried = self.tried.get(self.asked, [])
            if self.chosen in tried:
                tried.remove(self.chosen)
        tried = self.tried.get(self.seat.seq)
        if tried:
            tried[:] = [o for o in tried if o[0] != "reveal"]
        self.asked = None

    def again(self):
        if self.asked == self.seat.seq and self.pending is not None and not self.seat.over():
            return self.send(self.pending)
        return None

    def view(self):
        s = self.seat
        over = s.over() and s.current()
        own = {k: v for k, v in (s.view or {}).items() if k in ("context", "defence_down")}
        return {"code": s.code, "user": s.user, "game": self.game, "seat": s.seat,
                "status": s.status, "seq": s.seq, "public": s.public, "hand": s.hand,
                "own": own, "current": s.current(), "over": over, "options": self.options(),
                "asked": self.asked == s.seq, "needs_hello": self.needs_hello(),
                "last": self.lost_word() or self.last, "event": s.log[-1] if s.log else None,
                "report": s.report() if over else None}


def _open(req):
    user = req.get("user")
    if not isinstance(user, str) or not p.USER_RE.match(user) or len(user) > p.USER_MAX:
        raise ValueError("a user name is 1 to %d letters, digits, '_', '.' or '-'"
                         % p.USER_MAX)
    held = req.get("secrets")
    if held is not None and not isinstance(held, dict):
        raise ValueError("the kept secrets are an object")
    game = None
    if req.get("create"):
        game = req.get("game", "kahuna")
        if game not in GAMES:
            raise ValueError("the page plays %s across tables, not %r"
                             % (", ".join(GAMES), game))
        try:
            remote = part(game, "remote")
        except NoGame:
            raise ValueError("this page has no remote play for %s" % game) from None
        code = req.get("code") or p.new_code(Entropy(req.get("entropy") or []))
        code = p.check_code(code)
        settings = remote.check_settings(req.get("settings") or {})
        seats = remote.seats_of(settings) if hasattr(remote, "seats_of") else remote.SEATS
        seat = req.get("seat") or seats[0]
        if seat not in seats:
            raise ValueError("the seat is one of %s" % ", ".join(seats))
        hello = p.hello("create", seat, settings, game)
    else:
        code = p.check_code(req.get("code"))
        hello = p.hello("join")
    t = PageTable(code, user, hello, game, held)
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
            publish, keep = t.move(req.get("action"), req.get("entropy"))
            out = {"publish": publish, "keep": keep}
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
