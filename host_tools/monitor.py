"""`python -m host_tools monitor --port PORT`: the live board in the terminal.

It asks the board for its state over the serial link, then redraws the same picture as
the simulator (`play.Picture`) after every event the board reports. Lines that are not
JSON (a REPL banner, a traceback) are shown as device output; nothing the board sends can
stop the monitor. `--once` draws the current state and exits (for scripts and tests).
"""

import argparse
import json
import os
import shutil
import sys
import time

from host_tools import play

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "firmware"))

from kahuna import board as boardmod  # noqa: E402
from kahuna import rules  # noqa: E402

DEFAULT_BOARD = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                             "board_def", "kahuna.json")


class NoUI:
    """The monitor sees the board's lights, not its option lists."""

    options = ()
    sel = 0
    pending = ()
    picked = rules.NOBODY
    discarding = False


def game_from_state(board, state):
    """A rules.Game showing the reported state (for drawing only)."""
    g = rules.Game(board)
    g.phase = state["phase"]
    g.round = state["round"]
    g.final_turns = state["final_turns"]
    g.turn = rules.player_index(state["turn"])
    g.must_draw = state["must_draw"]
    g.winner = state["winner"]
    g.bridges = [rules.NOBODY] * len(board.connections)
    for conn, owner in state["bridges"].items():
        g.bridges[board.conn_index[conn]] = rules.player_index(owner)
    g.control = [rules.NOBODY] * len(board.islands)
    for island, owner in state["control"].items():
        g.control[board.island_index[island]] = rules.player_index(owner)
    g.supply = [state["supply"]["white"], state["supply"]["black"]]
    g.scores = [state["scores"]["white"], state["scores"]["black"]]
    g.round_scores = [(r["white"], r["black"]) for r in state["round_scores"]]
    for player in rules.PLAYERS:
        for card in state["hands"][player]:
            g.place[g.card_index[card]] = rules.player_index(player)
    return g


def leds_of(state):
    flat = state.get("leds") or []
    return [list(flat[j:j + 3]) for j in range(0, len(flat), 3)]


class Monitor:
    def __init__(self, board, out, colour=None):
        self.board = board
        self.out = out
        mode = play.colour_mode(out) if colour is None else colour
        self.painter = play.Painter(mode)
        self.state = None
        self.message = "waiting for the board..."
        self.device = []  # non-JSON lines from the board, last few

    def line(self, raw):
        """One line from the board; returns True when the picture should be redrawn."""
        text = raw.decode("utf-8", "replace").strip() if isinstance(raw, bytes) else raw
        if not text:
            return False
        try:
            msg = json.loads(text)
        except ValueError:
            msg = None
        if not isinstance(msg, dict):
            self.device = (self.device + [text[:100]])[-3:]
            return True
        if isinstance(msg.get("state"), dict):
            self.state = msg["state"]
        event = msg.get("event")
        if event == "refused":
            self.message = "refused: %s: %s" % (msg.get("code"), msg.get("message"))
        elif event == "accepted":
            self.message = "accepted (%s)" % msg.get("outcome")
        elif event == "boot":
            self.message = "board booted: firmware %s, reader %s" % (
                msg.get("firmware"), "ok" if msg.get("pn532") else "MISSING")
        elif "error" in msg:
            self.message = "board says: " + str(msg["error"])
        elif event:
            self.message = event
        return True

    def screen(self, columns=100, rows=40):
        lines = []
        if self.state is not None:
            try:
                game = game_from_state(self.board, self.state)
                height = max(9, min(rows - 12, 30))
                unicode = (getattr(self.out, "encoding", "") or "").lower().startswith("utf")
                pic = play.Picture(self.board, min(columns - 1, max(48, int(height * 4.5)), 110),
                                   height, unicode)
                lines += pic.render(game, NoUI(), leds_of(self.state), self.painter,
                                    self.board.brightness)
                s = self.state
                lines.append("")
                lines.append("Round %d · %s%s · %s to play%s" % (
                    s["round"], s["phase"].upper(), " · FINAL TURNS" if s["final_turns"] else "",
                    s["turn"], " · MUST DRAW" if s["must_draw"] else ""))
                for p in rules.PLAYERS:
                    lines.append("%-6s score %d  supply %2d  hand %s" % (
                        p, s["scores"][p], s["supply"][p], " ".join(s["hands"][p]) or "-"))
                if s["winner"]:
                    lines.append("winner: %s" % s["winner"])
            except (KeyError, ValueError, TypeError) as e:
                lines.append("(the board's state could not be drawn: %s)" % e)
        lines.append("> " + self.message)
        for d in self.device:
            lines.append("device: " + d)
        return lines


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools monitor",
                                 description="Show the live board over its USB serial link.")
    ap.add_argument("--port", help="serial device, e.g. /dev/ttyACM0 (default: the first "
                                   "Pico found)")
    ap.add_argument("--board", default=DEFAULT_BOARD)
    ap.add_argument("--once", action="store_true", help="draw the current state and exit")
    ap.add_argument("--timeout", type=float, default=5.0, help="seconds to wait with --once")
    args = ap.parse_args(argv)
    import serial  # pyserial, installed with mpremote
    try:
        board = boardmod.load(args.board)
    except boardmod.BoardError as e:
        print("monitor: board: %s" % e, file=sys.stderr)
        return 2
    if args.port is None:
        from host_tools.findport import find_port, no_board
        args.port = find_port()
        if args.port is None:
            print(no_board("monitor", "python -m host_tools monitor --port /dev/ttyACM0"),
                  file=sys.stderr)
            return 2
    from host_tools.findport import missing
    problem = missing("monitor", args.port)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    try:
        port = serial.Serial(args.port, 115200, timeout=0.1)
    except (serial.SerialException, OSError) as e:
        print("monitor: cannot open %s: %s" % (args.port, e), file=sys.stderr)
        return 2
    mon = Monitor(board, sys.stdout)
    port.write(b'{"cmd": "state"}\n')
    deadline = time.time() + args.timeout
    tty = sys.stdout.isatty() and not args.once
    try:
        while True:
            raw = port.readline()
            if raw and mon.line(raw):
                if args.once and mon.state is not None:
                    print("\n".join(mon.screen()))
                    return 0
                if not args.once:
                    cols, rows = shutil.get_terminal_size((100, 40))
                    sys.stdout.write(("\x1b[H\x1b[2J" if tty else "")
                                     + "\n".join(mon.screen(cols, rows)) + "\n")
                    sys.stdout.flush()
            if args.once and time.time() > deadline:
                print("monitor: no state from the board within %.0f s" % args.timeout,
                      file=sys.stderr)
                return 1
    except KeyboardInterrupt:
        return 0
    except (serial.SerialException, OSError) as e:  # unplugged, or the port went away
        print("\nmonitor: lost the board on %s: %s" % (args.port, e), file=sys.stderr)
        return 1
    finally:
        port.close()
