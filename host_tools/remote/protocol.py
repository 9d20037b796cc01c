"""Remote play's protocol (docs/remote.md): the topics and messages between two tables and
the dealer, through any MQTT 3.1.1 broker. No MQTT here: the dealer (host_tools/remote/
dealer.py) and the tables (host_tools/remote/table.py) move these messages with aiomqtt.

Topics, for a game whose code is CODE (six letters and digits) and a broker user USER:

    kb/CODE/hello/USER     table -> dealer   {"v", "op": "create", "game", "seat", "settings"}
                                             or {"v", "op": "join"}; either may carry the
                                             game's "token" (a private game's) (+ "also":
                                             [seats] or "seats": N, a table of several seats)
    kb/CODE/move/USER      table -> dealer   {"v", "game": CODE, "seat", "n", "base", "action"}
    kb/CODE/event          dealer -> all     {"v", "game", "seq", "actor", "action", "public"}
                                             (public: the state after the request's last
                                             event, on that one; null on the others)
    kb/CODE/snapshot       dealer -> all, retained: {"v", "game", "seq", "status", "seats",
                                             "moves", "public", "log"} (+ "kind" but for
                                             Kahuna)
    kb/CODE/hand/USER      dealer -> USER, retained: {"v", "game", "seq", "seat", "hand"}
                                             (+ "view" for Halunken and Kami: the seat's
                                             options and observation)
    kb/CODE/reply/USER     dealer -> USER    {"v", "game", "n", "refused", "reason"}

The broker's ACL (docs/remote.md) lets USER write only its own hello and move topics and
read only its own hand and reply topics besides the public event and snapshot: the USER in
a topic is who wrote it. Every message is checked here before it touches a game; a bad one
is refused with a reason and changes nothing.
"""

import json
import re

VERSION = 1
PREFIX = "kb"
MAX_PAYLOAD = 16384  # bytes: a table's message (hello, move), and the dealer's but below
# The snapshot carries the game's whole log: a few KB for Kahuna, up to 15 KB measured for
# a Kami game of 3 players to 15 points (docs/remote.md), more for a long one.
MAX_SNAPSHOT = 262144
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L
# No counted repetition ({6}): MicroPython's re (the page's, web/js/remote.js) lacks it.
CODE_RE = re.compile("^" + "[%s]" % CODE_LETTERS * 6 + "$")
USER_RE = re.compile(r"^[A-Za-z0-9_.-]+$")
USER_MAX = 40
TOKEN_RE = re.compile("^[%s]+$" % CODE_LETTERS)  # 6 to 20 of them (_token_ok)
TOKEN_SIZE = 10  # a new game's token: 31^10, some 8e14 to guess
MAX_NAME = 64  # characters of a name in an action: a commitment's SHA-256 in hex


class Bad(ValueError):
    """A message refused: `code` (malformed, forged, unknown-game, not-seated, replayed,
    stale, out-of-turn, game-over or the rules' own) and `text`, one line."""

    def __init__(self, code, text):
        super().__init__("%s: %s" % (code, text))
        self.code = code
        self.text = text


def new_code(rand):
    """A fresh game code from `rand` (a random.SystemRandom or random.Random)."""
    return "".join(rand.choice(CODE_LETTERS) for _ in range(6))


def new_token(rand):
    """A fresh per-game token (docs/remote.md, "Per-game tokens"): given with the code to
    the other table only; the dealer seats nobody without it."""
    return "".join(rand.choice(CODE_LETTERS) for _ in range(TOKEN_SIZE))


def _token_ok(token):
    return isinstance(token, str) and 6 <= len(token) <= 20 and bool(TOKEN_RE.match(token))


def check_token(token):
    token = token.strip().upper() if isinstance(token, str) else token
    if not _token_ok(token):
        raise ValueError("a game's token is 6 to 20 letters and digits (%s)" % CODE_LETTERS)
    return token


def check_code(code):
    code = code.strip().upper() if isinstance(code, str) else code
    if not isinstance(code, str) or not CODE_RE.match(code):
        raise ValueError("a game code is six letters and digits (%s), got %r"
                         % (CODE_LETTERS, code))
    return code


# ---------------------------------------------------------------------- topics

def topic(code, kind, user=None):
    return "/".join([PREFIX, code, kind] + ([user] if user is not None else []))


def parse_topic(name):
    """(code, kind, user or None) of one of our topics; Bad("malformed") otherwise."""
    parts = name.split("/")
    if (len(parts) in (3, 4) and parts[0] == PREFIX and CODE_RE.match(parts[1])
            and (len(parts) == 3 and parts[2] in ("event", "snapshot")
                 or len(parts) == 4 and parts[2] in ("hello", "move", "hand", "reply")
                 and USER_RE.match(parts[3]) and len(parts[3]) <= USER_MAX)):
        return parts[1], parts[2], parts[3] if len(parts) == 4 else None
    raise Bad("malformed", "not a topic of remote play: %r" % name[:80])


# ---------------------------------------------------------------------- messages

def encode(obj):
    return json.dumps(obj, separators=(",", ":"), sort_keys=True).encode()


def decode(payload, code, limit=MAX_PAYLOAD):
    """The JSON object of a message of game `code`, checked for what every message has
    (size, JSON, an object, our version, the game its topic names); Bad otherwise."""
    if len(payload) > limit:
        raise Bad("malformed", "message of %d bytes, more than %d" % (len(payload), limit))
    try:
        msg = json.loads(bytes(payload).decode("utf-8"))
    except ValueError:  # UnicodeDecodeError is one (MicroPython has only the base)
        raise Bad("malformed", "not JSON") from None
    if not isinstance(msg, dict):
        raise Bad("malformed", "not a JSON object")
    if msg.get("v") != VERSION:
        raise Bad("malformed", "protocol version %r, this side speaks %d"
                  % (msg.get("v"), VERSION))
    if "game" in msg and msg["game"] != code:
        raise Bad("forged", "game %r in a message on game %s's topic" % (msg["game"], code))
    return msg


def _int(msg, key, least=0):
    value = msg.get(key)
    if type(value) is not int or value < least:
        raise Bad("malformed", "%s must be a whole number >= %d" % (key, least))
    return value


def hello(op, seat=None, settings=None, game_name="kahuna", token=None, also=None, count=1):
    """A hello; a private game's carries its `token`; a table of several seats (Halunken,
    Kami) names the others it creates with (`also`, a list) or how many it joins with
    (`count`, as "seats")."""
    msg = {"v": VERSION, "op": op}
    if op == "create":
        msg.update({"kind": game_name, "seat": seat, "settings": settings or {}})
        if also:
            msg["also"] = list(also)
    elif count != 1:
        msg["seats"] = count
    if token is not None:
        msg["token"] = token
    return msg


def hello_token(msg):
    """The game's token a hello carries, or None; Bad("malformed") for a bad one."""
    token = msg.get("token")
    if token is None:
        return None
    if not _token_ok(token):
        raise Bad("malformed", "a token is 6 to 20 letters and digits")
    return token


def check_hello(msg, seats):
    """(op, seat, settings, kind) of a hello message; Bad otherwise."""
    op = msg.get("op")
    if op == "join":
        return op, None, None, None
    if op != "create":
        raise Bad("malformed", "hello's op must be create or join")
    seat = msg.get("seat")
    if seat not in seats:
        raise Bad("malformed", "seat must be one of %s" % ", ".join(seats))
    if not isinstance(msg.get("settings"), dict):
        raise Bad("malformed", "settings must be an object")
    if not isinstance(msg.get("kind"), str):
        raise Bad("malformed", "kind must name the game")
    return op, seat, msg["settings"], msg["kind"]


def move(code, seat, n, base, action):
    return {"v": VERSION, "game": code, "seat": seat, "n": n, "base": base,
            "action": action}


def check_move(msg, code):
    """(seat, n, base, action) of a move request; Bad("malformed") if a field is missing or
    of the wrong kind (the game's own check of the action comes after)."""
    if msg.get("game") != code:
        raise Bad("malformed", "a move names its game")
    seat = msg.get("seat")
    if not isinstance(seat, str):
        raise Bad("malformed", "a move names its seat")
    action = msg.get("action")
    if (not isinstance(action, list) or not action
            or not all(isinstance(a, str) and len(a) <= MAX_NAME for a in action)):
        raise Bad("malformed", "action must be a list of names")
    return seat, _int(msg, "n", 1), _int(msg, "base", 0), action


def event(code, seq, actor, action, public):
    return {"v": VERSION, "game": code, "seq": seq, "actor": actor, "action": action,
            "public": public}


def check_event(msg):
    seq = _int(msg, "seq", 1)
    if not isinstance(msg.get("action"), list) or not (
            msg.get("public") is None or isinstance(msg["public"], dict)):
        raise Bad("malformed", "an event has its action and the public state (or null)")
    if msg.get("actor") is not None and not isinstance(msg["actor"], str):
        raise Bad("malformed", "actor must be a seat or null")
    return seq


def check_snapshot(msg):
    seq = _int(msg, "seq", 0)
    log = msg.get("log")
    if (msg.get("status") not in ("waiting", "playing", "over")
            or not isinstance(msg.get("seats"), dict) or not isinstance(msg.get("moves"), dict)
            or not isinstance(log, list) or len(log) != seq
            or (seq and not isinstance(msg.get("public"), dict))
            or not isinstance(msg.get("kind", ""), str)):
        raise Bad("malformed", "a snapshot has status, seats, moves, public and the log")
    for i, entry in enumerate(log):
        if (not isinstance(entry, list) or len(entry) != 3 or entry[0] != i + 1
                or not isinstance(entry[2], list)):
            raise Bad("malformed", "the snapshot's log entry %d is not [seq, actor, action]"
                      % (i + 1))
    return seq


def check_hand(msg):
    seq = _int(msg, "seq", 0)
    if not _private(msg) or not isinstance(msg.get("seat"), str):
        raise Bad("malformed", "a hand message has the seat and its cards (and an object "
                  "for its view)")
    more = msg.get("seats", {})
    if not isinstance(more, dict) or not all(
            isinstance(k, str) and isinstance(v, dict) and _private(v) for k, v in more.items()):
        raise Bad("malformed", "a hand message's seats are {seat: {hand, view}}")
    return seq


def _private(entry):
    hand = entry.get("hand")
    view = entry.get("view", {})
    if not (isinstance(hand, list) and all(isinstance(c, str) for c in hand)
            and isinstance(view, dict)):
        return False
    options = view.get("options", [])  # requests: lists of names
    return (isinstance(options, list)
            and all(isinstance(o, list) and o and all(isinstance(a, str) for a in o)
                    for o in options)
            and isinstance(view.get("context", ""), (str, type(None))))


def check_action(action, requests, error=Bad):
    """A seat's action checked for its form (each game's `check_request`): a list, a known
    name of `requests` ({name: the numbers of names it takes}), names that are strings;
    `error(code, text)` otherwise (the game part's Refused)."""
    if not isinstance(action, list) or not action or not isinstance(action[0], str):
        raise error("malformed", "the action must be a list starting with its name")
    counts = requests.get(action[0])
    if counts is None:
        raise error("malformed", "unknown action %r" % (action[0][:40],))
    if len(action) - 1 not in counts or not all(isinstance(a, str) for a in action[1:]):
        raise error("malformed", "%s takes %s name(s)" % (
            action[0], " or ".join(str(n) for n in counts)))
