"""`python -m host_tools vboard`: a virtual Kahuna board on a pseudo-terminal.

For a maker (the README's "Rehearse without hardware"): it prints its port, then takes
commands at its own `vboard>` prompt, or from another terminal as
`python -m host_tools vboard tap ISLAND-1`: lay a card on the virtual scanner, press a
button by name, reset. Its flash is ~/.cache/kahuna-vboard/flash (XDG_CACHE_HOME is
honoured; --dir for another), kept between runs like a Pico's; its control socket is
~/.cache/kahuna-vboard/control.sock (--control for another).

The board is the MicroPython unix port running host_tools/fakehw/pico/_supervisor.py, which
behaves like the Pico's MicroPython: boot.py, main.py, the friendly and raw REPLs, soft
reboots. Its file system is DIR (mounted at / inside the board). Host tools talk to it as
to a Pico's USB serial port: the first line this prints is the port, e.g. /dev/pts/5, and
`mpremote connect /dev/pts/5 ...` or `make flash PORT=/dev/pts/5` work against it.

    host (mpremote, flash, a test)                     this launcher            the board
    /dev/pts/A (printed) <-> pty A master  <- relay ->  pty B master  <->  pty B slave: stdio of
                                                                           micropython (its
                                                                           controlling tty)

Two pseudo-terminals, because the device side needs a line discipline of its own: pty B is
raw except ONLCR (print's \\n goes out as \\r\\n, as the Pico's cooked stdout does) and,
while the board runs user code, ISIG (Ctrl-C from the host becomes SIGINT, i.e. a
KeyboardInterrupt, and clears the unread input, as the Pico's USB stack does). A hard
reset (machine.reset(), the watchdog, a crash, the control channel) ends the micropython
process and starts a new one on a fresh pty B, while pty A, the host's port, stays.

Control channel, for tests and tools: a Unix socket (second line printed: `control PATH`)
carrying one JSON object per line each way; see VBoardClient. The launcher keeps the
outside world (the tag on the reader, the levels driven onto input pins) and what the board
shows (NeoPixel frames, output pins, PWM, the watchdog) and passes the world on to the
board over a second socket, so it survives hard resets. Logs go to stderr.
"""

import argparse
import errno
import fcntl
import hashlib
import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import termios
import time
import tty

from core import board as boardmod
from core import gameload
from core.files import BOARD_FILE, CARDS_FILE
from host_tools import gamearg
from host_tools.mpy import ROOT, find_micropython
from host_tools.paths import BOARD_DEF
from hw.pn532 import I2C_ADDRESS as PN532_ADDR

LIB = os.path.join(ROOT, "host_tools", "fakehw", "pico")
SUPERVISOR = os.path.join(LIB, "_supervisor.py")

# The GC heap of the board process. A Pico gives MicroPython ~190 KB; here the board's own
# "ROM" (the REPL supervisor, the chip emulators) lives in the same heap, so the process
# gets more, and the supervisor holds back a ballast block so that gc.mem_free() when
# main.py starts is what a freshly booted Pico has: 186 KiB, doubled on a 64-bit unix port
# (8-byte words, 32-byte GC blocks: the same objects take about twice the room). --free
# sets it in bytes (e.g. --free 190464 for the Pico's figure as it stands).
HEAP = "512K"

PWRON_RESET = 1
WDT_RESET = 3
PN532_SETTINGS = ("ack_polls", "response_ms", "present")  # the control channel's "pn532"


def _project_board():
    """The project's board definition, checked (None if it does not load)."""
    try:
        return boardmod.load(BOARD_DEF, keep_raw=False)
    except boardmod.BoardError:
        return None


def example_card():
    """A card of this board to show in help texts: its game's first card."""
    board = _project_board()
    if board is None:
        return "CARD-1"
    return gameload.load(board.game).card_names(board)[0]


def board_pin(key):
    """A GPIO the board definition wires (its hardware's `pins`), or None."""
    board = _project_board()
    return None if board is None else board.pins.get(key)

TAP_MS = 400  # a tapped card stays on the reader this long: a few reader polls
PRESS_MS = 150  # a pressed button is held this long unless told
COMMANDS = ("tap", "place", "lift", "press", "status", "reset")  # from the terminal


def home():
    """The virtual board's own folder: its flash and its control socket live there."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "kahuna-vboard")


def mpy_version_of(version):
    """The .mpy format a MicroPython release loads (docs: reference/mpyfiles)."""
    for first, mpy in (((1, 19), 6), ((1, 12), 5), ((1, 11), 4), ((1, 9, 3), 3), ((1, 9), 2)):
        if tuple(version) >= first:
            return mpy
    return 0


def sticker_uid(card):
    """The UID of the virtual NTAG213 sticker on `card`: the same every time, so a card
    enrolled once is known on every later tap. NXP UIDs start with 04."""
    return "04" + hashlib.sha256(("kahuna-vboard " + card).encode()).hexdigest()[:12].upper()

_CONSOLE_KEEP = 65536  # bytes of recent board output kept for the control channel
_TO_BOARD_MAX = 1 << 20  # bytes from the host waiting for the board before we drop


def _log(msg):
    sys.stderr.write("vboard: %s\n" % msg)
    sys.stderr.flush()


def _set_device_termios(fd):
    """Raw, except that \\n goes out as \\r\\n; Ctrl-C is the only signal character, for
    when the supervisor turns ISIG on (while user code runs: it starts off, so a Ctrl-C
    during the board's own start-up is just a byte)."""
    tty.setraw(fd)
    a = termios.tcgetattr(fd)
    a[1] |= termios.OPOST | termios.ONLCR
    cc = a[6]
    cc[termios.VINTR] = b"\x03"
    cc[termios.VQUIT] = b"\x00"  # _POSIX_VDISABLE: 0x1C must not be SIGQUIT
    cc[termios.VSUSP] = b"\x00"  # nor 0x1A SIGTSTP
    termios.tcsetattr(fd, termios.TCSANOW, a)


def _make_ctty():
    # In the child: a session of its own, with pty B (already its stdin) as controlling
    # terminal, so the line discipline's SIGINT reaches it.
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def _nonblock(fd):
    fl = fcntl.fcntl(fd, fcntl.F_GETFL)
    fcntl.fcntl(fd, fcntl.F_SETFL, fl | os.O_NONBLOCK)


class _Conn:
    def __init__(self, sock):
        self.sock = sock
        self.buf = b""
        sock.setblocking(False)

    def fileno(self):
        return self.sock.fileno()

    def lines(self):
        """Complete lines received, or None when the peer has closed."""
        try:
            data = self.sock.recv(65536)
        except BlockingIOError:
            return []
        except OSError:
            return None
        if not data:
            return None
        self.buf += data
        *lines, self.buf = self.buf.split(b"\n")
        return [ln for ln in lines if ln.strip()]

    def send(self, obj):
        data = json.dumps(obj).encode() + b"\n"
        self.sock.setblocking(True)
        try:
            self.sock.sendall(data)
        except OSError:
            pass
        finally:
            self.sock.setblocking(False)

    def close(self):
        self.sock.close()


class VBoard:
    def __init__(self, board_dir, control_dir=None, heap=HEAP, uid=None, pn532_bus=0,
                 free=None, pretend=None, pn532_reset=None):
        self.board_dir = os.path.abspath(board_dir)
        os.makedirs(self.board_dir, exist_ok=True)
        self.own_control = control_dir is None
        self.control_dir = control_dir or tempfile.mkdtemp(prefix="vboard-")
        os.makedirs(self.control_dir, exist_ok=True)
        self.ctl_path = os.path.join(self.control_dir, "control.sock")
        self.dev_path = os.path.join(self.control_dir, "board.sock")
        self.heap = heap
        self.uid = uid or hashlib.sha256(self.board_dir.encode()).hexdigest()[:16]
        self.pn532_bus = pn532_bus
        self.pn532_reset = pn532_reset  # the GPIO wired to the PN532's RSTPDN, or None
        self.free = free
        self.pretend = pretend  # (version tuple, mpy version): an older MicroPython
        self.timers = []  # [(monotonic s, fn)]: a tapped card lifted, a button released
        self.prompt = None  # the terminal's command line, when it has one
        # The PN532 as the world has it: on the bus or not, how slowly it answers.
        self.pn532 = {"present": True, "ack_polls": 0, "response_ms": 2}
        self.pn532_resets = 0  # times the board released the chip's reset pin (this boot)
        # The world outside the board, and what the board shows.
        self.tag = None  # {"uid": hex, "user": hex or None} of the tag on the reader
        self.tag_mem = {}  # UID -> hex of the tag's whole memory, as the board last wrote it
        self.driven = {}
        self.outputs = {}
        self.pwm = {}
        self.strips = {}
        self.wdt = None  # {"timeout": ms, "deadline": monotonic s}
        self.phase = "off"
        self.boots = 0
        self.main_runs = 0
        self.resets = []  # [{"boot": n, "why": text}]
        self.console = bytearray()
        # Processes and descriptors.
        self.proc = None
        self.master_b = None
        self.dev = None
        self.clients = []
        self.to_board = bytearray()
        self.stopping = False
        self._reset_pending = None
        self._crashes = 0
        self.ctl_listener = None

    # ------------------------------------------------------------------ setup
    def open(self):
        self.master_a, self.slave_a = os.openpty()
        # Raw, no echo: a serial line. Keeping our own handle on the slave keeps the port
        # usable between host connections (no EIO on the master, settings kept).
        tty.setraw(self.slave_a)
        _nonblock(self.master_a)
        self.port = os.ttyname(self.slave_a)
        if os.path.exists(self.ctl_path):
            probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                probe.connect(self.ctl_path)
            except OSError:
                pass  # left by a board that was killed: ours now
            else:
                for fd in (self.master_a, self.slave_a):
                    os.close(fd)
                raise VBoardError(
                    "a virtual board is already running with the control socket %s: stop "
                    "it (Ctrl-C or `quit` in its terminal), or give this one --control DIR"
                    % self.ctl_path)
            finally:
                probe.close()
        for path in (self.ctl_path, self.dev_path):
            if os.path.exists(path):
                os.unlink(path)
        self.ctl_listener = self._listen(self.ctl_path)
        self.dev_listener = self._listen(self.dev_path)
        self.wake_r, self.wake_w = os.pipe()
        _nonblock(self.wake_r)
        _nonblock(self.wake_w)
        signal.set_wakeup_fd(self.wake_w)
        signal.signal(signal.SIGTERM, self._on_stop)
        signal.signal(signal.SIGINT, self._on_stop)
        signal.signal(signal.SIGHUP, self._on_stop)
        signal.signal(signal.SIGCHLD, lambda *a: None)
        return self.port

    @staticmethod
    def _listen(path):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(path)
        s.listen(8)
        s.setblocking(False)
        return s

    def _on_stop(self, signum, frame):
        self.stopping = True

    # ------------------------------------------------------------------ the board process
    def _spawn(self, cause, why):
        self.boots += 1
        self.wdt = None
        self.pn532_resets = 0
        self.phase = "booting"
        self.outputs = {}
        self.pwm = {}
        m, s = os.openpty()
        _set_device_termios(s)
        env = dict(os.environ)
        env.update({
            "MICROPYPATH": ":".join([LIB, ROOT, ".frozen"]),
            "VBOARD_ROOT": self.board_dir,
            "VBOARD_SOCK": self.dev_path,
            "VBOARD_CAUSE": str(cause),
            "VBOARD_UID": self.uid,
            "VBOARD_BOOT": str(self.boots),
            "VBOARD_PN532_BUS": str(self.pn532_bus),
            "VBOARD_PN532_ADDR": str(PN532_ADDR),
            "VBOARD_PN532_RESET": "" if self.pn532_reset is None else str(self.pn532_reset),
        })
        if self.free is not None:
            env["VBOARD_FREE"] = str(self.free)
        if self.pretend is not None:
            version, mpy = self.pretend
            env["VBOARD_PRETEND"] = "%s:%d" % (".".join(str(v) for v in version), mpy)
        cmd = [find_micropython(), "-X", "heapsize=" + self.heap, SUPERVISOR]
        self.proc = subprocess.Popen(cmd, stdin=s, stdout=s, stderr=s, env=env,
                                     cwd=self.board_dir, preexec_fn=_make_ctty,
                                     close_fds=True)
        os.close(s)
        _nonblock(m)
        self.master_b = m
        self.to_board = bytearray()
        self.booted_at = time.monotonic()
        _log("boot %d (%s), pid %d" % (self.boots, why, self.proc.pid))

    def _kill(self):
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
            self.proc = None
        if self.master_b is not None:
            self._drain_board_output()
            os.close(self.master_b)
            self.master_b = None
        if self.dev is not None:
            self.dev.close()
            self.dev = None
        self.phase = "off"

    def hard_reset(self, why, cause):
        """End the board process; the main loop starts the next one."""
        self.resets.append({"boot": self.boots, "why": why})
        _log("reset: %s" % why)
        self._kill()
        self._reset_pending = (cause, why)

    # ------------------------------------------------------------------ relaying bytes
    def _drain_board_output(self):
        while True:
            try:
                data = os.read(self.master_b, 65536)
            except (BlockingIOError, OSError):
                return
            if not data:
                return
            self._to_host(data)

    def _to_host(self, data):
        self.console += data
        if len(self.console) > _CONSOLE_KEEP:
            del self.console[:len(self.console) - _CONSOLE_KEEP]
        while data:
            try:
                data = data[os.write(self.master_a, data):]
            except BlockingIOError:
                return  # nobody is reading the port and its buffer is full: output is lost
            except OSError as e:
                if e.errno != errno.EIO:
                    raise
                return

    def _from_host(self):
        try:
            data = os.read(self.master_a, 65536)
        except (BlockingIOError, OSError):
            return
        if self.master_b is not None and len(self.to_board) < _TO_BOARD_MAX:
            self.to_board += data  # else the board is resetting: the bytes are lost

    def _write_board(self):
        try:
            n = os.write(self.master_b, self.to_board)
        except BlockingIOError:
            return
        except OSError:
            self.to_board = bytearray()
            return
        del self.to_board[:n]

    # ------------------------------------------------------------------ the board's socket
    def _board_message(self, msg):
        if "hello" in msg:
            self.dev.send({"world": {"tag": self._tag_desc(),
                                     "pins": {str(k): v for k, v in self.driven.items()},
                                     "pn532": self.pn532}})
        elif "tagmem" in msg:
            self.tag_mem[msg["tagmem"]] = msg["mem"]
        elif "out" in msg:
            gpio, level = msg["out"]
            self.outputs[gpio] = level
        elif "np" in msg:
            gpio = msg["np"]
            st = self.strips.setdefault(gpio, {"data": None, "writes": 0})
            st["data"] = msg["data"]
            st["writes"] += 1
        elif "pwm" in msg:
            gpio, freq, duty = msg["pwm"]
            self.pwm[gpio] = {"freq": freq, "duty_u16": duty}
        elif "wdt" in msg:
            self.wdt = {"timeout": msg["wdt"], "deadline": time.monotonic() + msg["wdt"] / 1000}
        elif "feed" in msg:
            if self.wdt is not None:
                self.wdt["deadline"] = time.monotonic() + self.wdt["timeout"] / 1000
        elif "pn532_resets" in msg:
            self.pn532_resets = msg["pn532_resets"]
        elif "phase" in msg:
            self.phase = msg["phase"]
            if self.phase == "main.py":
                self.main_runs += 1
        elif "reset" in msg:
            self.hard_reset(msg["reset"], WDT_RESET)

    def _tag_desc(self):
        if self.tag is None:
            return None
        return {"uid": self.tag["uid"], "user": self.tag["user"],
                "mem": self.tag_mem.get(self.tag["uid"])}

    def _tell_board(self, obj):
        if self.dev is not None:
            self.dev.send(obj)

    # ------------------------------------------------------------------ control clients
    def status(self):
        wdt = None
        if self.wdt is not None:
            wdt = {"timeout": self.wdt["timeout"],
                   "left_ms": int((self.wdt["deadline"] - time.monotonic()) * 1000)}
        return {
            "ok": True, "port": self.port, "dir": self.board_dir, "boots": self.boots,
            "main_runs": self.main_runs, "phase": self.phase, "resets": self.resets,
            "running": self.proc is not None,
            "pid": self.proc.pid if self.proc is not None else None,
            "tag": self.tag, "pins": {str(k): v for k, v in self.driven.items()},
            "outputs": {str(k): v for k, v in self.outputs.items()},
            "pwm": {str(k): v for k, v in self.pwm.items()},
            "strips": {str(k): {"writes": v["writes"]} for k, v in self.strips.items()},
            "wdt": wdt, "uid": self.uid, "pn532": dict(self.pn532, resets=self.pn532_resets),
        }

    def _control(self, req):
        cmd = req.get("cmd")
        if cmd == "status":
            return self.status()
        if cmd == "tag":
            uid = req.get("uid")
            if uid is None:
                self.tag = None
            else:
                uid = str(uid).replace(":", "").replace(" ", "").upper()
                try:
                    raw = bytes.fromhex(uid)
                except ValueError:
                    return {"ok": False, "error": "tag uid %r is not hex" % req.get("uid")}
                if len(raw) not in (4, 7):
                    return {"ok": False, "error": "tag uid must be 4 or 7 bytes (NTAG213: 7)"}
                self.tag = {"uid": uid, "user": req.get("user")}
                if req.get("user") is not None:
                    self.tag_mem.pop(uid, None)  # a fresh tag with this user memory
            self._tell_board({"tag": self._tag_desc()})
            return {"ok": True}
        if cmd == "tagmem":
            uid = str(req.get("uid", "")).upper()
            return {"ok": True, "uid": uid, "mem": self.tag_mem.get(uid)}
        if cmd == "pin":
            pin, level = req.get("pin"), req.get("level")
            if not isinstance(pin, int) or not 0 <= pin <= 29 or level not in (0, 1, None):
                return {"ok": False, "error": "pin needs \"pin\": 0..29, \"level\": 0, 1 or null"}
            if level is None:
                self.driven.pop(pin, None)
            else:
                self.driven[pin] = level
            self._tell_board({"pin": [pin, level]})
            return {"ok": True}
        if cmd == "frame":
            pin = req.get("pin")
            if pin is None and self.strips:
                pin = min(self.strips)
            st = self.strips.get(pin)
            if st is None:
                return {"ok": True, "pin": pin, "data": None, "writes": 0}
            return {"ok": True, "pin": pin, "data": st["data"], "writes": st["writes"]}
        if cmd in ("tap", "place"):
            card = str(req.get("card", ""))
            uid = self.card_uid(card)
            if uid is None:
                return {"ok": False, "error": "unknown card %r: cards are ISLAND-1 or "
                                              "ISLAND-2 (%s), or uid:HEX for any tag"
                                              % (card, example_card())}
            reply = self._control({"cmd": "tag", "uid": uid})
            if not reply["ok"]:
                return reply
            if cmd == "tap":
                self.later(TAP_MS, lambda: self._control({"cmd": "tag", "uid": None}))
            return {"ok": True, "uid": uid}
        if cmd == "lift":
            return self._control({"cmd": "tag", "uid": None})
        if cmd == "press":
            buttons = self.buttons()
            name, ms = req.get("button"), req.get("ms", PRESS_MS)
            if name not in buttons:
                return {"ok": False, "error": "unknown button %r (%s)"
                                              % (name, ", ".join(buttons))}
            if not isinstance(ms, int) or not 0 < ms <= 60000:
                return {"ok": False, "error": "a press lasts 1 to 60000 ms"}
            pin = buttons[name]
            self._control({"cmd": "pin", "pin": pin, "level": 0})  # buttons pull to ground
            self.later(ms, lambda: self._control({"cmd": "pin", "pin": pin, "level": None}))
            return {"ok": True, "pin": pin}
        if cmd == "pn532":
            return self._control_pn532(req)
        if cmd == "reset":
            self.hard_reset("control channel (RUN pin)", PWRON_RESET)
            return {"ok": True}
        if cmd == "console":
            return {"ok": True, "text": self.console.decode("utf-8", "replace")}
        return {"ok": False, "error": "unknown command %r" % (cmd,)}

    def later(self, ms, fn):
        self.timers.append((time.monotonic() + ms / 1000, fn))

    def _run_timers(self):
        now = time.monotonic()
        due = [t for t in self.timers if t[0] <= now]
        self.timers = [t for t in self.timers if t[0] > now]
        for _, fn in sorted(due, key=lambda t: t[0]):
            fn()

    def _board_def(self):
        """The board definition the board runs (flashed with it), else the project's."""
        for path in (self.board_dir + BOARD_FILE, BOARD_DEF):
            try:
                with open(path) as f:
                    return json.load(f)
            except (OSError, ValueError):
                continue
        return {}

    def card_names(self):
        """The cards of the board's game, by its board definition ([] if it is broken)."""
        try:
            board = boardmod.parse(self._board_def(), keep_raw=False)
        except boardmod.BoardError:
            return []
        return gameload.load(board.game).card_names(board)

    def buttons(self):
        """{name: GPIO} of the board's buttons, from its board definition."""
        pins = self._board_def().get("hardware", {}).get("pins", {})
        buttons = dict(pins.get("buttons", {}))
        return {k: v for k, v in buttons.items() if isinstance(v, int)}

    def card_uid(self, card):
        """The UID to lay on the reader for `card`: `uid:HEX` as given; a card name as the
        board's registry (/cards.json) knows it, else its virtual sticker (sticker_uid)."""
        if card.lower().startswith("uid:"):
            return card[4:]
        card = card.upper()
        if card not in self.card_names():
            return None
        try:
            with open(self.board_dir + CARDS_FILE) as f:
                registry = json.load(f)
            for uid, name in registry.items():
                if name == card:
                    return uid
        except (OSError, ValueError, AttributeError):
            pass
        return sticker_uid(card)

    # ------------------------------------------------------------------ the terminal
    def _prompt_line(self, line):
        """One command typed at the vboard> prompt; the answer, for the terminal."""
        words = line.split()
        if not words:
            return ""
        head = words[0].lower()
        if head in ("help", "?"):
            return PROMPT_HELP % {"port": self.port, "card": example_card()}
        if head in ("quit", "exit"):
            self.stopping = True
            return "stopping the virtual board"
        try:
            req = request_for(words)
        except ValueError as e:
            return "%s (type help)" % e
        return describe_reply(req, self._control(req))

    def _read_prompt(self):
        try:
            data = os.read(0, 4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # end of input: the board runs on, without a prompt
            self.prompt = None
            return
        self.prompt += data
        while b"\n" in self.prompt:
            line, self.prompt = self.prompt.split(b"\n", 1)
            answer = self._prompt_line(line.decode("utf-8", "replace"))
            if answer:
                sys.stdout.write(answer + "\n")
        if sys.stdin.isatty() and not self.stopping:
            sys.stdout.write("vboard> ")
        sys.stdout.flush()

    def _control_pn532(self, req):
        """{"cmd": "pn532", "present": bool, "ack_polls": n, "response_ms": n,
        "wedge": true}: the chip leaves or rejoins the bus, answers more slowly, or hangs
        until its reset pin is pulsed."""
        change = {}
        for key in PN532_SETTINGS:
            if key in req:
                v = req[key]
                ok = isinstance(v, bool) if key == "present" else (
                    isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10000)
                if not ok:
                    return {"ok": False, "error": "pn532 %s: bad value %r" % (key, v)}
                change[key] = v
        wedge = req.get("wedge", False)
        if not isinstance(wedge, bool):
            return {"ok": False, "error": "pn532 wedge: true or false"}
        self.pn532.update(change)
        msg = {"pn532": dict(self.pn532)}
        if wedge:
            msg["wedge"] = True
        self._tell_board(msg)
        return {"ok": True, "pn532": dict(self.pn532)}

    # ------------------------------------------------------------------ main loop
    def serve(self, prompt=False):
        if prompt:
            self.prompt = b""
            if sys.stdin.isatty():
                sys.stdout.write("vboard> ")
                sys.stdout.flush()
        self._spawn(PWRON_RESET, "power on")
        while not self.stopping:
            if self._reset_pending is not None:
                cause, why = self._reset_pending
                self._reset_pending = None
                self._spawn(cause, why)
            rlist = [self.master_a, self.ctl_listener, self.dev_listener, self.wake_r]
            rlist += self.clients
            if self.prompt is not None:
                rlist.append(0)
            wlist = []
            if self.master_b is not None:
                rlist.append(self.master_b)
                if self.to_board:
                    wlist.append(self.master_b)
            if self.dev is not None:
                rlist.append(self.dev)
            timeout = 0.2
            if self.wdt is not None:
                timeout = max(0.0, min(timeout, self.wdt["deadline"] - time.monotonic()))
            if self.timers:
                timeout = max(0.0, min([timeout] + [t - time.monotonic()
                                                    for t, _ in self.timers]))
            try:
                readable, writable, _ = select.select(rlist, wlist, [], timeout)
            except InterruptedError:
                continue
            if self.wake_r in readable:
                try:
                    os.read(self.wake_r, 4096)
                except BlockingIOError:
                    pass
            if self.master_a in readable:
                self._from_host()
            if self.master_b is not None and self.master_b in writable:
                self._write_board()
            if self.master_b is not None and self.master_b in readable:
                self._read_board()
            if self.dev_listener in readable:
                self._accept_board()
            if self.dev is not None and self.dev in readable:
                lines = self.dev.lines()
                for line in lines or []:
                    self._board_message(json.loads(line))
                    if self.dev is None:  # the message was a reset
                        break
                if lines is None and self.dev is not None:
                    self.dev.close()
                    self.dev = None
            if self.ctl_listener in readable:
                sock, _ = self.ctl_listener.accept()
                self.clients.append(_Conn(sock))
            for c in [c for c in self.clients if c in readable]:
                self._serve_client(c)
            if self.prompt is not None and 0 in readable:
                self._read_prompt()
            self._run_timers()
            self._check_board()
        self.close()

    def _read_board(self):
        try:
            data = os.read(self.master_b, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: the board process has closed its terminal
            data = b""
        if data:
            self._to_host(data)

    def _accept_board(self):
        sock, _ = self.dev_listener.accept()
        if self.dev is not None:
            self.dev.close()
        self.dev = _Conn(sock)

    def _serve_client(self, c):
        lines = c.lines()
        if lines is None:
            self.clients.remove(c)
            c.close()
            return
        for line in lines:
            try:
                req = json.loads(line)
                reply = self._control(req) if isinstance(req, dict) else None
                if reply is None:
                    reply = {"ok": False, "error": "a request is a JSON object"}
            except ValueError as e:
                reply = {"ok": False, "error": "not JSON: %s" % e}
            c.send(reply)

    def _check_board(self):
        if self.proc is None:
            return
        if self.wdt is not None and time.monotonic() >= self.wdt["deadline"]:
            self.hard_reset("watchdog not fed for %d ms" % self.wdt["timeout"], WDT_RESET)
            return
        code = self.proc.poll()
        if code is None:
            return
        self._drain_board_output()
        quick = time.monotonic() - self.booted_at < 2
        self._crashes = self._crashes + 1 if quick else 0
        why = "board process ended (exit code %s)" % code
        self.hard_reset(why, PWRON_RESET)
        if self._crashes >= 3:
            _log("the board keeps crashing at boot: waiting 2 s before the next try")
            time.sleep(2)

    def close(self):
        if self.ctl_listener is None:
            return
        self._kill()
        for c in self.clients:
            c.close()
        self.clients = []
        for s in (self.ctl_listener, self.dev_listener):
            s.close()
        self.ctl_listener = self.dev_listener = None
        for path in (self.ctl_path, self.dev_path):
            if os.path.exists(path):
                os.unlink(path)
        if self.own_control:
            shutil.rmtree(self.control_dir, ignore_errors=True)
        signal.set_wakeup_fd(-1)
        for fd in (self.master_a, self.slave_a, self.wake_r, self.wake_w):
            os.close(fd)


# ---------------------------------------------------------------------- client side
class VBoardError(RuntimeError):
    pass


class VBoardClient:
    """The control channel of a running virtual board.

        c = VBoardClient(path)          # path: the socket printed after `control`
        c.place_tag("04A224B2C35E80")   # an NTAG213 on the reader (c.remove_tag())
        c.tag_memory("04A224B2C35E80")  # what the board has written to it (45 pages)
        c.set_pin(10, 0)                # drive GP10 low (a button to ground); None releases
        c.frame()                       # last NeoPixel frame, bytes in strip order (GRB)
        c.status()                      # boots, phase, resets, outputs, pwm, wdt, ...
        c.reset()                       # a hard reset (the RUN pin)
        c.pn532(present=False)          # the reader off the bus; ack_polls=, response_ms=,
                                        # wedge=True (hung until its reset pin is pulsed)
    """

    def __init__(self, path, timeout=10):
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.buf = b""

    def request(self, **req):
        reply = self.request_raw(req)
        if not reply.get("ok"):
            raise VBoardError(reply.get("error", "request failed"))
        return reply

    def request_raw(self, req):
        """The reply to `req`, refusals included ({"ok": false, "error": ...})."""
        self.sock.sendall(json.dumps(req).encode() + b"\n")
        while b"\n" not in self.buf:
            data = self.sock.recv(65536)
            if not data:
                raise VBoardError("the virtual board closed its control channel")
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def status(self):
        return self.request(cmd="status")

    def place_tag(self, uid, user=None):
        """An NTAG213 (7-byte UID) or another ISO14443A tag (4 bytes) on the reader; user:
        bytes for its user memory (page 4 on), e.g. an NDEF message."""
        if isinstance(uid, (bytes, bytearray)):
            uid = uid.hex()
        self.request(cmd="tag", uid=uid, user=user.hex() if user is not None else None)

    def remove_tag(self):
        self.request(cmd="tag", uid=None)

    def tag_memory(self, uid):
        """The whole memory (45 pages) of a tag the board has written to, or None."""
        if isinstance(uid, (bytes, bytearray)):
            uid = uid.hex()
        mem = self.request(cmd="tagmem", uid=uid)["mem"]
        return bytes.fromhex(mem) if mem is not None else None

    def set_pin(self, pin, level):
        self.request(cmd="pin", pin=pin, level=level)

    def press(self, pin, ms=100, active=0):
        self.set_pin(pin, active)
        time.sleep(ms / 1000)
        self.set_pin(pin, None)

    def frame(self, pin=None):
        reply = self.request(cmd="frame", pin=pin)
        return bytes.fromhex(reply["data"]) if reply["data"] is not None else None

    def reset(self):
        self.request(cmd="reset")

    def pn532(self, **settings):
        return self.request(cmd="pn532", **settings)["pn532"]

    def console(self):
        return self.request(cmd="console")["text"]

    def wait_for(self, pred, timeout=10, what="the virtual board"):
        """Poll status() until pred(status) is true; returns that status."""
        end = time.monotonic() + timeout
        while True:
            st = self.status()
            if pred(st):
                return st
            if time.monotonic() > end:
                raise VBoardError("timed out after %s s waiting for %s; status: %s"
                                  % (timeout, what, st))
            time.sleep(0.05)

    def close(self):
        self.sock.close()


class Running:
    """A virtual board started in a subprocess (for tests and tools): .port, .control,
    .client; stop() ends it. Use as a context manager."""

    def __init__(self, board_dir, args=(), timeout=30, log=None):
        self.board_dir = board_dir
        args = list(args)
        if "--control" not in args:  # a board of its own, beside any the user runs
            self.control_dir = tempfile.mkdtemp(prefix="vboard-")
            args += ["--control", self.control_dir]
        cmd = [sys.executable, "-m", "host_tools.maker.vboard", "--dir", board_dir] + args
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                     stderr=log if log is not None else subprocess.DEVNULL,
                                     stdin=subprocess.DEVNULL, cwd=ROOT)
        self.client = None
        try:
            self.port = self._line(timeout)
            control = self._line(timeout)
            if not control.startswith("control "):
                raise VBoardError("unexpected second line from vboard: %r" % control)
            self.control = control[len("control "):]
            self.client = VBoardClient(self.control)
        except BaseException:
            self.stop()
            raise

    def _line(self, timeout):
        end = time.monotonic() + timeout
        buf = b""
        fd = self.proc.stdout.fileno()
        while not buf.endswith(b"\n"):
            left = end - time.monotonic()
            if left <= 0 or self.proc.poll() is not None:
                raise VBoardError("the virtual board did not start (got %r)" % buf)
            r, _, _ = select.select([fd], [], [], left)
            if r:
                ch = os.read(fd, 1)
                if not ch:
                    raise VBoardError("the virtual board exited at start (got %r)" % buf)
                buf += ch
        return buf.decode().strip()

    def stop(self, timeout=10):
        if self.client is not None:
            self.client.close()
            self.client = None
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=timeout)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        if getattr(self, "control_dir", None):
            shutil.rmtree(self.control_dir, ignore_errors=True)
        return self.proc.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


# ---------------------------------------------------------------------- command line
PROMPT_HELP = """\
The virtual board's port is %(port)s: flash, cards and monitor use it as a Pico's.
  tap CARD          lay a card on the scanner and lift it (tap %(card)s; uid:HEX any tag)
  place CARD, lift  leave a card on the scanner, take it off
  press BUTTON [MS] press a button: next prev ok back done discard (press done 1500)
  status            boots, resets, what the board runs, the card on the scanner
  reset             a hard reset (the RUN pin); quit stops the board"""


def request_for(words):
    """A command (`tap ISLAND-1`, `press done 1500`, ...) as a control-channel request;
    ValueError says what is wrong."""
    head, args = words[0].lower(), words[1:]
    if head not in COMMANDS:
        raise ValueError("unknown command %r: %s" % (words[0], ", ".join(COMMANDS)))
    if head in ("tap", "place"):
        if len(args) != 1:
            raise ValueError("usage: %s CARD (a card, e.g. %s, or uid:HEX)"
                             % (head, example_card()))
        return {"cmd": head, "card": args[0]}
    if head == "press":
        if len(args) not in (1, 2):
            raise ValueError("usage: press BUTTON [MS]")
        req = {"cmd": "press", "button": args[0].lower()}
        if len(args) == 2:
            try:
                req["ms"] = int(args[1])
            except ValueError:
                raise ValueError("press %s: %r is not a whole number of ms"
                                 % (args[0], args[1])) from None
        return req
    if args:
        raise ValueError("usage: %s" % head)
    return {"cmd": "tag", "uid": None} if head == "lift" else {"cmd": head}


def describe_reply(req, reply):
    """A control-channel reply in words, for the terminal."""
    if not reply.get("ok"):
        return "refused: %s" % reply.get("error", "failed")
    cmd = req["cmd"]
    if cmd == "tap":
        return "%s tapped (tag %s)" % (req["card"], reply["uid"])
    if cmd == "place":
        return "%s on the scanner (tag %s); lift takes it off" % (req["card"], reply["uid"])
    if cmd == "tag":
        return "the scanner is empty"
    if cmd == "press":
        return "%s pressed (GP%d)" % (req["button"], reply["pin"])
    if cmd == "reset":
        return "hard reset"
    tag = reply.get("tag")
    return ("port %s, boot %d, %s, %d reset(s)%s, flash %s"
            % (reply["port"], reply["boots"], reply["phase"], len(reply["resets"]),
               ", card on the scanner: %s" % tag["uid"] if tag else "", reply["dir"]))


def control_socket(control):
    """The control socket: `control` itself if it names one, else control.sock in it."""
    if control.endswith(".sock") and not os.path.isdir(control):
        return control
    return os.path.join(control, "control.sock")


def command(argv):
    """`python -m host_tools vboard tap ISLAND-1` and friends, to the running board."""
    control = home()
    if "--control" in argv:
        i = argv.index("--control")
        if i + 1 >= len(argv):
            print("vboard: --control needs the directory (or socket) the board printed",
                  file=sys.stderr)
            return 2
        control = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    try:
        req = request_for(argv)
    except ValueError as e:
        print("vboard: %s" % e, file=sys.stderr)
        return 2
    path = control_socket(control)
    try:
        client = VBoardClient(path)
    except OSError:
        print("vboard: no virtual board is running at %s: start one with "
              "`python -m host_tools vboard` (or give --control DIR of the one you started)"
              % path, file=sys.stderr)
        return 2
    try:
        reply = client.request_raw(req)
    finally:
        client.close()
    print(describe_reply(req, reply))
    return 0 if reply.get("ok") else 2


def _heap(text):
    if not re.fullmatch(r"[0-9]+[KkMm]?", text):
        raise argparse.ArgumentTypeError("%r: bytes, or a number with K or M (512K)" % text)
    return text


def _version(text):
    try:
        version = tuple(int(x) for x in text.split("."))
        if len(version) not in (2, 3):
            raise ValueError
    except ValueError:
        raise argparse.ArgumentTypeError("%r: a MicroPython version, e.g. 1.20.0"
                                         % text) from None
    return version + (0,) * (3 - len(version))


def main(argv):
    if argv and argv[0].lower() in COMMANDS:
        return command(argv)
    ap = argparse.ArgumentParser(
        prog="python -m host_tools vboard",
        description="Run a virtual Kahuna board (MicroPython unix port) behind a "
                    "pseudo-terminal, until Ctrl-C or `quit`. Prints its port, then "
                    "`control SOCKET`, then takes commands at its vboard> prompt (help). "
                    "From another terminal: python -m host_tools vboard tap "
                    + example_card() + " | "
                    "place CARD | lift | press BUTTON [MS] | status | reset.")
    ap.add_argument("--dir", default=None,
                    help="the board's flash, a folder (created if missing; default %s)"
                         % os.path.join(home(), "flash"))
    ap.add_argument("--control", default=None,
                    help="directory for the control sockets (default %s)" % home())
    ap.add_argument("--heap", default=HEAP, type=_heap,
                    help="MicroPython GC heap (default %s)" % HEAP)
    ap.add_argument("--uid", default=None,
                    help="machine.unique_id() as 16 hex digits (default: from --dir)")
    ap.add_argument("--free", type=int, default=None,
                    help="bytes of free heap when main.py starts (default: the Pico's "
                         "186 KiB, doubled on a 64-bit unix port)")
    ap.add_argument("--pn532-bus", type=int, default=0, choices=(0, 1),
                    help="the I2C controller the PN532 is wired to (default 0)")
    ap.add_argument("--pretend-version", type=_version, default=None, metavar="X.Y.Z",
                    help="report this MicroPython version in sys.implementation, as an "
                         "older Pico would (and its .mpy version; see --pretend-mpy)")
    ap.add_argument("--pretend-mpy", type=int, default=None, metavar="N",
                    help="the .mpy version to report (default: the one of "
                         "--pretend-version's release)")
    ap.add_argument("--no-prompt", action="store_true",
                    help="take no commands from standard input")
    ap.add_argument("--pn532-reset", type=int, default=board_pin("pn532_reset"),
                    help="the GPIO wired to the PN532's RSTPDN (default: board_def's "
                         "pins.pn532_reset); -1: not wired")
    gamearg.add(ap)
    args = ap.parse_args(argv)
    if args.game is not None and gamearg.resolve("vboard", args.game, None, "vboard") is None:
        return 2  # the board runs the board definition flashed on it (else the project's)
    if args.pn532_reset is not None and args.pn532_reset < 0:
        args.pn532_reset = None
    if args.uid is not None:
        try:
            if len(bytes.fromhex(args.uid)) != 8:
                raise ValueError
        except ValueError:
            ap.error("--uid needs 16 hex digits")
    pretend = None
    if args.pretend_version is not None or args.pretend_mpy is not None:
        version = args.pretend_version or (1, 29, 0)
        mpy = args.pretend_mpy if args.pretend_mpy is not None else mpy_version_of(version)
        pretend = (version, mpy)
    board_dir = args.dir or os.path.join(home(), "flash")
    control = args.control or home()
    for path, what in ((board_dir, "--dir"), (control, "--control")):
        try:
            os.makedirs(path, exist_ok=True)
        except OSError as e:
            print("vboard: cannot use %s as %s: %s" % (path, what, e.strerror), file=sys.stderr)
            return 2
        if not os.access(path, os.W_OK):
            print("vboard: cannot use %s as %s: not writable" % (path, what), file=sys.stderr)
            return 2
    try:
        find_micropython()
    except RuntimeError as e:
        print("vboard: %s" % e, file=sys.stderr)
        return 2
    board = VBoard(board_dir, control, args.heap, args.uid, args.pn532_bus, args.free,
                   pretend, args.pn532_reset)
    try:
        port = board.open()
    except VBoardError as e:
        print("vboard: %s" % e, file=sys.stderr)
        return 2
    except OSError as e:  # e.g. a control path too long for a Unix socket
        print("vboard: cannot open the control socket %s: %s" % (board.ctl_path, e),
              file=sys.stderr)
        return 2
    sys.stdout.write(port + "\n")
    sys.stdout.write("control %s\n" % board.ctl_path)
    if sys.stdin.isatty() and not args.no_prompt:
        sys.stdout.write("flash %s; type help for the commands\n" % board.board_dir)
    sys.stdout.flush()
    try:
        board.serve(prompt=not args.no_prompt)
    except BaseException:
        board.close()
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
