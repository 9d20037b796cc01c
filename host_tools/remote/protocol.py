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

The part both sides need (the topics, a table's hello and move, the checks of the dealer's
messages) lives in the firmware, core/remoteproto.py, since a Pico W's own seat
(core.netseat) speaks it too; it is imported here whole, and this module adds the dealer's
side: codes and tokens, the checks of a hello, a move and an action, the event's form.
"""

import re

from core.remoteproto import (  # noqa: F401  (the protocol's names, one home)
    CODE_LETTERS,
    CODE_RE,
    MAX_PAYLOAD,
    MAX_SNAPSHOT,
    NEW_CODE_LETTERS,
    PREFIX,
    USER_MAX,
    USER_RE,
    VERSION,
    Bad,
    _int,
    check_code,
    check_event,
    check_hand,
    check_snapshot,
    decode,
    encode,
    hello,
    move,
    parse_topic,
    topic,
)

TOKEN_RE = re.compile("^[%s]+$" % CODE_LETTERS)  # 6 to 20 of them (_token_ok)
TOKEN_SIZE = 10  # a new game's token: 31^10, some 8e14 to guess
MAX_NAME = 64  # characters of a name in an action: a commitment's SHA-256 in hex


def new_code(rand):
    """A fresh game code from `rand` (a random.SystemRandom or random.Random): six of
    NEW_CODE_LETTERS, the island initials a board spells and takes (issue 19)."""
    return "".join(rand.choice(NEW_CODE_LETTERS) for _ in range(6))


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


# ---------------------------------------------------------------------- messages

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
