"""The host's end of the board's serial link (firmware/core/link.py): one owner per port,
JSON lines both ways, and the board's state kept from its messages.

Whoever opens the port takes it exclusively (pyserial's `exclusive=True`, an advisory
flock that mpremote takes too): a second tool gets PortError("... is in use by another
program (the monitor?)") and the board is left exactly as it was.
"""

import errno
import json
import os
import time


class PortError(Exception):
    """The port cannot be used; the message is one line for the user (exit status 2)."""


class PortBusy(PortError):
    """Another program holds the port."""


def open_port(port, timeout=0.1):
    """The serial port, opened exclusively, or PortError."""
    import serial  # pyserial, installed with mpremote
    try:
        return serial.Serial(port, 115200, timeout=timeout, exclusive=True)
    except (serial.SerialException, OSError) as e:
        code = getattr(e, "errno", None)
        if code in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EBUSY) or "lock" in str(e):
            raise PortBusy("%s is in use by another program (the monitor?)" % port) from None
        reason = os.strerror(code) if isinstance(code, int) else str(e)
        raise PortError("cannot open %s: %s" % (port, reason)) from None


def merge(state, msg):
    """The board's state after `msg`: a "state" replaces it, a "changed" updates its keys
    (see the link's protocol). `state` may be None before the first full state."""
    if isinstance(msg.get("state"), dict):
        return dict(msg["state"])
    if state is not None and isinstance(msg.get("changed"), dict):
        state = dict(state)
        state.update(msg["changed"])
        if not state.get("revealed"):
            state.pop("hands", None)  # a board that restarted has hidden them again
    return state


oc_new_game = "new-game"  # core.outcome.NEW_GAME: the event that starts a game's count


class Tracker:
    """The board as a host knows it from the link's lines: the one home of what the
    monitor, the live page and the other tools show (they are views of it).

    state     the public state, every part merged into it (`merge`); None before the first
    step/say  a solo game's step and the board's words for the player ("ai" events)
    refusal   the last refusal: {"code", "message", "places"}, None once the game moved
              on to a new one
    game, seq the game's number and its action count at the last event line (core.link);
              `ask_state` turns True when a line was missed (the count jumped, or the game
              changed without a new-game line), a part came with no state to merge into,
              or the board booted: the host asks for the state and sets it False again
    device    the board's last lines that were not JSON (a traceback...)
    """

    def __init__(self, keep_device=12):
        self.state = None
        self.step = None
        self.say = ""
        self.refusal = None
        self.game = None
        self.seq = None
        self.gaps = 0
        self.ask_state = False
        self.device = []
        self.keep_device = keep_device

    def text(self, text):
        """A line that is not JSON: kept as the board's own output."""
        self.device = (self.device + [text])[-self.keep_device:]

    def feed(self, msg):
        """One JSON object from the board."""
        event = msg.get("event")
        if self.state is None and "changed" in msg or event == "boot":
            self.ask_state = True
        game = msg.get("game")
        seq = msg.get("seq")
        if "state" in msg:  # a whole state: the count starts again from the next event
            self.game = self.seq = None
        elif isinstance(seq, int) and isinstance(game, int):
            if self.seq is not None and (
                    seq > self.seq + 1 if game == self.game else event != oc_new_game):
                self.gaps += 1  # a line went missing (or the board restarted)
                self.ask_state = True
            self.game = game
            self.seq = seq
        self.state = merge(self.state, msg)
        if event == "refused":
            self.refusal = {"code": msg.get("code"), "message": msg.get("message"),
                            "places": msg.get("places", [])}
        elif event in ("new", "new-game"):
            self.refusal = None
        elif event == "ai":
            self.step = msg.get("step")
            self.say = msg.get("say") or ""


def leds(state):
    """The LED frame of a state: a list of [r, g, b], in chain order."""
    text = state.get("leds") or ""
    try:
        raw = bytes.fromhex(text)
    except (TypeError, ValueError):
        return []
    return [list(raw[j:j + 3]) for j in range(0, len(raw) - 2, 3)]


class LinkClient:
    """JSON lines to and from the board; other lines (REPL output) are kept in `device`.
    `state` follows the board's messages (ask for it with `send({"cmd": "state"})`)."""

    def __init__(self, port):
        self.port = open_port(port)
        self.tracker = Tracker()

    @property
    def state(self):
        return self.tracker.state

    @property
    def device(self):
        return self.tracker.device

    def send(self, obj):
        self.port.write((json.dumps(obj) + "\n").encode())

    def next(self, deadline):
        """The next JSON object from the board, or None at the deadline."""
        while time.time() < deadline:
            line = self.port.readline()
            if not line:
                continue
            text = line.decode("utf-8", "replace")
            try:
                msg = json.loads(text)
            except ValueError:
                self.tracker.text(text.rstrip())
                continue
            if isinstance(msg, dict):
                self.tracker.feed(msg)
                return msg
        return None

    def wait(self, want, timeout):
        """The first message whose event is in `want` (or an error), else None."""
        deadline = time.time() + timeout
        while True:
            msg = self.next(deadline)
            if msg is None or "error" in msg or msg.get("event") in want:
                return msg

    def close(self):
        self.port.close()
