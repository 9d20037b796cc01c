"""Remote play's messages as both sides read and write them (docs/remote.md, "Topics and
messages"): the topics, the forms a table sends (hello, move) and the checks of what the
dealer sends a table (event, snapshot, hand), each refused with a reason (`Bad`). One home
for the host's tables and dealer (host_tools/remote/protocol.py takes these from here and
adds the dealer's own checks) and for a Pico W's own seat (core.netseat): MicroPython and
CPython alike, no MQTT.
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
# A new game's code, by any creator (host, page, board): only the ten of CODE_LETTERS that
# are Kahuna's island initials (A-L without I and L), so a board can spell it on its islands
# and a player enter it there (issue 19). 10^6 codes: a code names a game, the broker's
# users and a private game's token keep strangers out. The checks accept every CODE_LETTERS code.
NEW_CODE_LETTERS = "ABCDEFGHJK"
# No counted repetition ({6}): MicroPython's re (the page's, web/js/remote.js) lacks it.
CODE_RE = re.compile("^" + "[%s]" % CODE_LETTERS * 6 + "$")
USER_RE = re.compile(r"^[A-Za-z0-9_.-]+$")
USER_MAX = 40


class Bad(ValueError):
    """A message refused: `code` (malformed, forged, unknown-game, not-seated, replayed,
    stale, out-of-turn, game-over or the rules' own) and `text`, one line."""

    def __init__(self, code, text):
        super().__init__("%s: %s" % (code, text))
        self.code = code
        self.text = text


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
    try:
        return json.dumps(obj, separators=(",", ":"), sort_keys=True).encode()  # type: ignore[call-overload]  # CPython's
    except TypeError:  # MicroPython's json sorts no keys (the reader needs no order)
        return json.dumps(obj, separators=(",", ":")).encode()


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


def move(code, seat, n, base, action):
    return {"v": VERSION, "game": code, "seat": seat, "n": n, "base": base,
            "action": action}


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
