"""What a board at a remote table is sent, and what it asks of the dealer (docs/remote.md,
"A board at a table"), without MQTT or a serial port: host_tools/remote/boardbridge.py
moves these messages between the board's link and the broker.

The board (firmware games/GAME/remote.py) takes the dealer's events in order, one link
command each ({"cmd": "remote", "seq", "actor", "action"}, with what the game's feed adds:
Kahuna's "card" where this table's player must take a card, Kami's hands, centre and
final defence); it says in its news line how many it has taken (`fed`) and this table's
moves the dealer has not confirmed yet (`moves`, [[n, action]], or [[n, action, seat]] from
a board of several seats, each seat numbering its own). The feed sends the next
event once the board has taken the one before, and each move as a request once the board
is level with the dealer; the request's number is the board's own, so a request sent
again (a bridge that restarted, a lost message) is refused as `replayed` if it counted
and changes nothing. Only the link's commands of the "remote" channel are used
(core.link.CHANNELS).

What differs by game (the board's settings, what an event's command carries) is the
game's part `remoteboard` (host_tools/games/GAME/remoteboard.py), found by the game the
snapshot names.
"""

from host_tools import games as hostgames
from host_tools.remote import protocol as p


class BoardFeed:
    """`seat` is the table's host_tools.remote.seat.Seat (the dealer's messages); `news`
    the board's last news line."""

    def __init__(self, seat):
        self.seat = seat
        self.news = None  # the board's {"event": "remote", ...} line
        self.sent_event = 0  # the last event number sent to the board, not yet taken
        self.asked = {}  # request number -> the dealer's event count when it was sent
        self.secrets = None  # the table's commit.Secrets (Halunken's movement cards)

    def board_line(self, line):
        """A line from the board's link: True when it is the remote seat's news."""
        if isinstance(line, dict) and line.get("event") == "remote" \
                and type(line.get("fed")) is int and isinstance(line.get("moves"), list):
            self.news = line
            return True
        return False

    def game(self):
        """The game's part `remoteboard` (the game the snapshot named); broker.Fatal (one
        line) for a game no board plays at a remote table."""
        try:
            return hostgames.part(self.seat.kind, "remoteboard")
        except hostgames.NoGame:
            from host_tools.remote.broker import Fatal
            raise Fatal("--port: a board plays Kahuna's, Kami's and Halunken's remote "
                        "games only, not %s's" % self.seat.kind) from None

    def settings(self):
        """The board's settings for this game (the dealer's, and the seats played
        elsewhere as `remote`), or None before the snapshot and the hand tell them."""
        s = self.seat
        if s.public is None or s.seat is None or not s.named:
            return None  # (a snapshot names the game)
        return self.game().settings(s)

    def start(self, state):
        """The command that starts this game on the board, or None when the board plays
        it already (`state`: the board's link state): the same settings, and no more
        events taken than the dealer has. A bridge that restarts goes on with the board's
        game; the link's `new` is the board's own port's (the game's start), the rest of
        the game uses the remote channel's commands only."""
        want = self.settings()
        if want is None:
            return None
        news = self.news
        if state.get("settings") == want and news is not None and news["fed"] <= self.seat.seq:
            return None
        self.news = None
        return {"cmd": "new", "settings": want}

    def to_board(self):
        """The next command for the board, or None: the event after the last it took."""
        news = self.news
        s = self.seat
        if news is None or s.seat is None or news.get("want") is not None:
            return None
        fed = news["fed"]
        if fed >= s.seq or self.sent_event == fed + 1:
            return None
        seq, actor, action = s.log[fed]
        extra = self.game().extra(self, seq, actor, action)
        if extra is None:
            return None  # what it needs (a hand, a public state) is not here yet
        cmd = {"cmd": "remote", "seq": seq, "actor": actor, "action": action}
        cmd.update(extra)
        self.sent_event = seq
        return cmd

    def taken(self):
        """The board answered (its news): the next event may go."""
        self.sent_event = 0

    def to_dealer(self, now):
        """The next request (topic payload bytes) for the dealer, or None: the board's
        first move the dealer has not taken, once the board is level with the dealer;
        sent again after `again` seconds without an answer."""
        news = self.news
        s = self.seat
        if news is None or s.seat is None or news["fed"] != s.seq or not s.current():
            return None
        for m in news["moves"]:  # [n, action], or [n, action, seat] (a board of seats)
            n, action = m[0], m[1]
            seat = m[2] if len(m) > 2 else s.seat
            if n <= (s.accepted.get(seat, 0) if len(m) > 2 else s.moves):
                continue
            if self.asked.get((seat, n)) == s.seq:
                return None  # sent at this event count already: wait for the dealer
            make = getattr(self.game(), "request", None)  # Halunken's commitments
            if make is not None:
                action = make(self, seat, action)
                if action is None:
                    return None
            self.asked[(seat, n)] = s.seq
            return (p.topic(s.code, "move", s.user),
                    p.encode(p.move(s.code, seat, n, s.seq, action)))
        return None

    def ask_again(self):
        """Forget what was sent (a new connection, or no answer for a while)."""
        self.asked = {}
        self.sent_event = 0
