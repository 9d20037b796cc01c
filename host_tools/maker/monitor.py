"""`python -m host_tools monitor --port PORT`: the live board in the terminal, and a prompt
to drive it, so that a maker needs no second tool on the port.

It takes the port for itself (a second tool is told the port is in use), asks the board
for its state over the serial link (firmware/core/link.py), then redraws the
simulator's picture (the game's `textboard` part, host_tools/games/: the board, the
option list with its highlight, the hint, the last refusal with its code and message)
after every event the board reports.
Hands are shown as sizes: the board keeps them secret unless `reveal on` is typed, and
the screen then says so. Lines that are not JSON (a REPL banner, a traceback) are shown
as device output; nothing the board sends can stop the monitor.

Commands at the prompt (see HELP): new game with settings, the card registry, enrolling
a card, reveal, the board's buttons, taps and picks, selftest. `--once` draws the current
state and exits (for scripts); with commands piped in, it runs them and exits once the
board has gone quiet.
"""

import argparse
import json
import os
import select
import shutil
import sys
import time

from core import board as boardmod
from host_tools import gamearg
from host_tools import games as hostgames
from host_tools.maker.boardnews import ASK_S, BoardNews
from host_tools.maker.linkclient import PortError, leds, open_port
from host_tools.maker.monitorrecord import Recorder
from host_tools.paths import BOARD_DEF

DEFAULT_BOARD = BOARD_DEF
BUTTONS = ("next", "prev", "ok", "back", "done", "discard")
QUIET_S = 1.5  # piped commands: leave once the board said nothing for this long
PROMPT = "monitor> "

HELP = """\
Commands
  new [SETTING=VALUE ...]
                 once a game is over, start a new one with these settings (the game's:
                 %s); `new anyway ...` abandons a game in progress (the journal
                 archives it)
  cards          the card registry: which tag is which card, which are missing
  enroll CARD    the board lights CARD's place: lay the new tag on the reader
  enroll CARD N  the same for a card that carries a value (Halunken's crew, H2)
  enroll stop    stop waiting for a tag
  reveal on|off  ask the board for both hands (off: hand sizes only, the default);
                 board-wide until off, a new game, or this monitor leaving
  next prev ok back done discard   the board's buttons
  tap CARD       as if CARD's tag were tapped;  pick CONN  choose an offered connection
  record         the board's archived games;  record SLOT FILE  writes one as a
                 scenario file (a game record: sim --scenario FILE replays it);
                 record FILE  the game in play, from what is public (stand-ins for
                 its hidden cards)
  selftest       the board's self-test;  help  this text;  quit (or Ctrl-D) leaves"""


class CommandError(ValueError):
    pass


def help_text(board):
    """HELP with the settings of the board's game (its textboard part's SETTINGS_HELP)."""
    return HELP % hostgames.part(board.game, "textboard").SETTINGS_HELP


def command(text, board, names, state=None):
    """A typed line -> the link's JSON command, "help", "quit" or None (blank)."""
    words = text.split("#", 1)[0].split()
    if not words:
        return None
    head, rest = words[0].lower(), words[1:]
    if head in ("quit", "exit"):
        return "quit"
    if head == "help":
        return "help"
    if head in BUTTONS and not rest:
        return {"cmd": "press", "button": head}
    if head == "press" and len(rest) == 1:
        return {"cmd": "press", "button": rest[0].lower()}
    if head == "tap" and len(rest) == 1:
        return {"cmd": "tap", "card": rest[0].upper()}
    if head == "pick" and len(rest) == 1:
        return {"cmd": "pick", "conn": rest[0].upper()}
    if head == "new":
        text_part = hostgames.part(board.game, "textboard")
        new_anyway = text_part.NEW_ANYWAY
        anyway = [w for w in rest if w.lower() == new_anyway]
        try:
            settings = text_part.parse_settings([w for w in rest if w.lower() != new_anyway])
        except ValueError as e:
            raise CommandError(str(e)) from None
        if not anyway and state is not None and state.get("phase") != "over":
            raise CommandError("this game is not over: `new anyway%s` abandons it (the "
                               "journal archives it)" % "".join(" " + w for w in rest))
        return {"cmd": "new", "settings": settings}
    if head in ("cards", "selftest") and not rest:
        return {"cmd": head}
    if head == "reveal" and len(rest) == 1 and rest[0].lower() in ("on", "off"):
        return {"cmd": "reveal", "on": rest[0].lower() == "on"}
    if head == "enroll" and len(rest) in (1, 2):
        if rest[0].lower() == "stop" and len(rest) == 1:
            return {"cmd": "enroll", "stop": True}
        card = rest[0].upper()
        if card not in names:
            raise CommandError("%s is not a card of %s (%s, ...)"
                               % (rest[0], board.game, ", ".join(names[:3])))
        if len(rest) == 1:
            return {"cmd": "enroll", "card": card}
        if not rest[1].isdigit():  # the board checks the range and whether CARD has one
            raise CommandError("%s's value is a whole number, got %s" % (card, rest[1]))
        return {"cmd": "enroll", "card": card, "value": int(rest[1])}
    raise CommandError("not understood: %s (type help for the commands)" % text.strip())


class Monitor(BoardNews):
    """The board's news drawn in the terminal: the game's picture and status, the panel,
    the device's lines."""

    def __init__(self, board, out, colour=None):
        super().__init__(board)
        self.out = out
        mode = self.text.colour_mode(out) if colour is None else colour
        self.painter = self.text.Painter(mode)
        self.unicode = (getattr(out, "encoding", "") or "").lower().startswith("utf")

    def screen(self, columns=100, rows=40):
        lines = []
        width = max(40, columns - 1)
        s = self.state
        if s is not None:
            try:
                status = self.text.status(self.board, s, self.painter, self.unicode, width,
                                          self.message, self.style)
                height = max(9, min(rows - len(status) - len(self.panel) - 4, 30))
                bwidth = min(width, max(48, int(height * 4.5)), 110)
                pic = self.text.Picture(self.board, bwidth, height, self.unicode)
                lines += pic.render(s, leds(s), self.painter, self.board.brightness)
                lines.append("")
                if s.get("revealed"):
                    lines.append(self.painter.paint(
                        "HANDS REVEALED: a host asked the board for them (reveal off hides "
                        "them)", (255, 80, 80), bold=True))
                lines += status
                if self.refusal:
                    lines.append("last refusal: " + self.refusal)
            except (KeyError, ValueError, TypeError, IndexError, AttributeError) as e:
                lines.append("(the board's state could not be drawn as %s's (%s %s): a board "
                             "flashed with another game? --game NAME draws that game)"
                             % (self.board.game, type(e).__name__, e))
                lines.append("> " + self.message)
        else:
            lines.append("> " + self.message)
        lines += self.panel
        for d in self.device:
            lines.append("device: " + d)
        return lines


class Session:
    """The port, the monitor and the keyboard."""

    def __init__(self, port, mon, out, tty):
        self.port = port
        self.mon = mon
        self.out = out
        self.tty = tty
        self.buf = b""
        self.revealed = False  # this monitor asked the board for the hands
        self.asked = time.time()  # when the state was last asked for
        self.recorder = Recorder(mon.board, mon.say, self._panel)

    def _panel(self, lines):
        self.mon.panel = lines

    def received(self, raw):
        """One line from the board: a game record's answer, else the board's news; True
        when the screen should be redrawn."""
        if self.recorder.job is not None:
            try:
                msg = json.loads(raw.decode("utf-8", "replace") if isinstance(raw, bytes)
                                 else raw)
            except ValueError:
                msg = None
            if isinstance(msg, dict):
                mine, then = self.recorder.take(msg)
                if then is not None:
                    self.send(then)
                if mine:
                    return True
        return self.mon.line(raw)

    def keep_asking(self):
        """Until the board answers, ask for the state again every ASK_S: a board still
        booting (right after `make flash` or plugging in) loses what it is sent."""
        if self.mon.state is None and time.time() - self.asked >= ASK_S:
            self.asked = time.time()
            self.send({"cmd": "state"})

    def draw(self):
        cols, rows = shutil.get_terminal_size((100, 40))
        self.out.write(("\x1b[H\x1b[2J" if self.tty else "")
                       + "\n".join(self.mon.screen(cols, rows)) + "\n")
        if self.tty:
            self.out.write(PROMPT)
        self.out.flush()

    def send(self, obj):
        self.port.write((json.dumps(obj) + "\n").encode())

    def pump(self, wait):
        """Read what the board sent within `wait` s; True when something came."""
        self.keep_asking()
        got = False
        r, _, _ = select.select([self.port.fileno()], [], [], wait)
        if r:
            data = self.port.read(self.port.in_waiting or 1)
            self.buf += data
            *lines, self.buf = self.buf.split(b"\n")
            for raw in lines:
                if self.received(raw):
                    got = True
            if self.mon.ask_state:
                self.mon.ask_state = False
                self.send({"cmd": "state"})
        return got

    def typed(self, text):
        """Run a typed line; returns False to leave."""
        words = text.split("#", 1)[0].split()
        if words and words[0].lower() == "record":
            cmd = self.recorder.command(words[1:])
            if cmd is not None:
                self.send(cmd)
            return True
        try:
            cmd = command(text, self.mon.board, self.mon.names, self.mon.state)
        except CommandError as e:
            self.mon.say(str(e), "bad")
            return True
        if cmd == "quit":
            return False
        if cmd == "help":
            self.mon.panel = help_text(self.mon.board).split("\n")
        elif cmd is not None:
            if cmd.get("cmd") == "reveal":
                self.revealed = cmd["on"]
            self.send(cmd)
        return True

    def leave(self):
        """A monitor that asked for the hands hides them again as it goes: the reveal is
        the board's, and the next program on the port must not inherit it."""
        if self.revealed:
            self.revealed = False
            self.send({"cmd": "reveal", "on": False})


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools monitor",
                                 description="Show the live board over its USB serial link, "
                                 "and drive it from a prompt (type help).")
    ap.add_argument("--port", help="serial device, e.g. /dev/ttyACM0 (default: the first "
                                   "Pico found)")
    ap.add_argument("--board", help="board definition (default board_def/kahuna.json)")
    gamearg.add(ap)
    ap.add_argument("--once", action="store_true", help="draw the current state and exit")
    ap.add_argument("--timeout", type=float, default=5.0, help="seconds to wait with --once")
    args = ap.parse_args(argv)
    chosen = gamearg.resolve("monitor", args.game, args.board, "monitor")
    if chosen is None:
        return 2
    try:
        board = boardmod.load(chosen[1])
    except boardmod.BoardError as e:
        print("monitor: board: %s" % e, file=sys.stderr)
        return 2
    from host_tools.maker.findport import choose
    args.port = choose("monitor", args.port, "python -m host_tools monitor --port /dev/ttyACM0")
    if args.port is None:
        return 2
    try:
        port = open_port(args.port)
    except PortError as e:
        print("monitor: %s" % e, file=sys.stderr)
        return 2
    mon = Monitor(board, sys.stdout)
    tty = sys.stdout.isatty() and sys.stdin.isatty() and not args.once
    session = Session(port, mon, sys.stdout, tty)
    session.send({"cmd": "state"})
    try:
        if args.once:
            deadline = time.time() + args.timeout
            while time.time() < deadline:
                session.pump(0.1)
                if mon.state is not None:
                    print("\n".join(mon.screen()))
                    return 0
            print("monitor: no state from the board within %.0f s" % args.timeout,
                  file=sys.stderr)
            return 1
        return run(session, sys.stdin)
    except KeyboardInterrupt:
        return 0
    except OSError as e:  # pyserial's SerialException too: the board was unplugged
        print("\nmonitor: %s went away (%s)" % (args.port, e), file=sys.stderr)
        return 1
    finally:
        try:
            session.leave()
        except OSError:
            pass  # the board is gone: nothing to hide any more
        port.close()


def run(session, stdin):
    """Events from the board and lines from the keyboard (or a pipe) until quit, end of
    input (once the board has been quiet for QUIET_S) or Ctrl-C."""
    fd = stdin.fileno()
    open_input = True
    pending = b""
    quiet_since = time.time()
    session.draw()
    while True:
        fds = [session.port.fileno()] + ([fd] if open_input else [])
        r, _, _ = select.select(fds, [], [], 0.2)
        session.keep_asking()
        if session.port.fileno() in r and session.pump(0):
            quiet_since = time.time()
            session.draw()
        if open_input and fd in r:
            data = os.read(fd, 4096)
            if not data:
                open_input = False
                quiet_since = time.time()
                if session.tty:
                    return 0
            pending += data
            *typed, pending = pending.split(b"\n")
            for raw in typed:
                text = raw.decode("utf-8", "replace")
                if not session.tty:
                    session.out.write(PROMPT + text + "\n")
                if not session.typed(text):
                    return 0
                session.draw()
                quiet_since = time.time()
        if not open_input and time.time() - quiet_since > QUIET_S:
            return 0
