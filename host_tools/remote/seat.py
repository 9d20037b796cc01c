"""What one table knows of a remote game (docs/remote.md), without MQTT: the public log
and state, numbered by the dealer's sequence, and its own seat's hand.
host_tools/remote/table.py feeds it the broker's messages.

Events come in order 1, 2, 3...: one already held is a duplicate (QoS 1 delivers some
twice) and is dropped, and refused if it says something else than the one held; one that
skips numbers shows a gap, healed by reading the retained snapshot again (`need_snapshot`).
A snapshot newer than what the table holds replaces it. Every message is checked first
(host_tools/remote/protocol.py); a bad one is refused with a reason and changes nothing.
"""

from host_tools import games as hostgames
from host_tools.remote import protocol as p


class Seat:
    """What the table knows for one of its seats: the `index`-th of the seats its user
    holds, in order (a table of Halunken or Kami may hold several; Kahuna's one)."""

    def __init__(self, code, user, index=0):
        self.code = code
        self.user = user
        self.index = index
        self.seat = None  # learnt from the snapshot's seats
        self.seq = 0
        self.log = []  # [[seq, actor, action]]
        self.public = None
        self.public_seq = -1  # the event the public state is of
        self.publics = {}  # event number -> the public state after it (those that came)
        self.status = None
        self.hand = None
        self.view = None  # the hand message's view (Halunken, Kami): options, observation
        self.kind = "kahuna"  # the game, from the snapshot (Kahuna's names none)
        self.named = False  # a snapshot told the game (an old one too)
        self.hand_seq = -1
        self.moves = 0  # the number of our seat's last request the dealer accepted
        self.accepted = {}  # each of our user's seats: its last request the dealer accepted
        self.entries = {}  # each of them: {"hand", "view"} of the last hand message
        self.need_snapshot = False
        self.refusals = []  # the dealer's replies to our requests

    def feed(self, topic, payload):
        """One message: a word for the log ("event 5", "duplicate 4", "gap 7 > 5",
        "snapshot 12", "hand 12", "refused ...") or raises protocol.Bad."""
        code, kind, user = p.parse_topic(topic)
        if code != self.code or user not in (None, self.user) or kind in ("hello", "move"):
            raise p.Bad("forged", "%s is not a topic of this table" % topic[:80])
        msg = p.decode(payload, code, p.MAX_SNAPSHOT if kind == "snapshot" else p.MAX_PAYLOAD)
        return getattr(self, "_" + kind)(msg)

    def _event(self, msg):
        seq = p.check_event(msg)
        entry = [seq, msg["actor"], msg["action"]]
        if seq <= self.seq:
            if self.log[seq - 1] != entry:
                raise p.Bad("forged", "event %d differs from the one held" % seq)
            if msg["public"] is not None:  # a late one after a gap read the snapshot
                self.publics[seq] = msg["public"]
            return "duplicate %d" % seq
        if seq > self.seq + 1:
            self.need_snapshot = True
            return "gap %d > %d" % (seq, self.seq + 1)
        self.log.append(entry)
        self.seq = seq
        if msg["public"] is not None:
            self.public = msg["public"]
            self.public_seq = seq
            self.publics[seq] = msg["public"]
        return "event %d" % seq

    def _snapshot(self, msg):
        seq = p.check_snapshot(msg)
        kind = msg.get("kind", "kahuna")
        if "remote" not in hostgames.provides(kind):
            raise p.Bad("malformed", "the snapshot names game %r, which has no remote play "
                        "here" % kind[:20])
        self.need_snapshot = False
        self.kind = kind
        self.named = True
        mine = sorted(s for s, u in msg["seats"].items() if u == self.user)
        for x in mine:
            n = msg["moves"].get(x, 0)
            self.accepted[x] = max(self.accepted.get(x, 0), n if type(n) is int else 0)
        if len(mine) > self.index:
            self.seat = mine[self.index]
            moves = msg["moves"].get(self.seat, 0)
            self.moves = max(self.moves, moves if type(moves) is int else 0)
        if seq < self.seq:
            return "old snapshot %d" % seq
        if self.log != msg["log"][:len(self.log)]:
            raise p.Bad("forged", "the snapshot's log differs from the events held")
        self.log = msg["log"]
        self.seq = seq
        self.public = msg["public"]
        self.public_seq = seq
        self.publics[seq] = msg["public"]
        self.status = msg["status"]
        return "snapshot %d" % seq

    def _hand(self, msg):
        seq = p.check_hand(msg)
        if seq < self.hand_seq:
            return "old hand %d" % seq
        entry, seat = msg, msg["seat"]
        self.entries = msg["seats"] if "seats" in msg else {seat: msg}
        if "seats" in msg:  # a table of several seats: ours is the index-th
            names = sorted(msg["seats"])
            if self.index >= len(names):
                return "no hand %d" % seq
            seat = names[self.index]
            entry = msg["seats"][seat]
        elif self.index:
            return "no hand %d" % seq
        self.hand = entry["hand"]
        self.view = entry.get("view")
        self.hand_seq = seq
        self.seat = seat
        return "hand %d" % seq

    def _reply(self, msg):
        if not isinstance(msg.get("refused"), str):
            raise p.Bad("malformed", "a reply says what was refused")
        self.refusals.append(msg)
        return "refused %s: %s" % (msg["refused"], msg.get("reason"))

    # ------------------------------------------------------------------ reading

    def over(self):
        return self.public is not None and self.public.get("winner") is not None

    def current(self):
        """True when the public state and our hand are both of the latest event."""
        return (self.public is not None and self.public_seq == self.hand_seq == self.seq
                and not self.need_snapshot)

    def report(self):
        """What both tables must agree on at the end: the public log and state."""
        return {"game": self.code, "seq": self.seq, "log": self.log, "public": self.public}
