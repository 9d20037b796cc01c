"""The virtual board itself: the launcher behind `python -m host_tools vboard`
(host_tools/maker/vboard.py, the command line) that runs the board process, relays its
serial port, keeps the outside world and serves the control channel.

The board is the MicroPython unix port running host_tools/fakehw/pico/_supervisor.py, which
behaves like the Pico's MicroPython: boot.py, main.py, the friendly and raw REPLs, soft
reboots. Its file system is DIR (mounted at / inside the board). Host tools talk to it as
to a Pico's USB serial port: the first line the command line prints is the port, e.g.
/dev/pts/5, and `mpremote connect /dev/pts/5 ...` or `make flash PORT=/dev/pts/5` work
against it.

    host (mpremote, flash, a test)                     this launcher            the board
    /dev/pts/A (printed) <-> pty A master  <- relay ->  pty B master  <->  pty B slave: stdio of
                                                                           micropython (its
                                                                           controlling tty)

Two pseudo-terminals, because the device side needs a line discipline of its own: pty B is
raw except ONLCR (print's \\n goes out as \\r\\n, as the Pico's cooked stdout does) and,
while the board runs user code, ISIG (Ctrl-C from the host becomes SIGINT, i.e. a
KeyboardInterrupt, and clears the unread input, as the Pico's USB stack does). A hard
reset (machine.reset(), the watchdog, a crash, the control channel) ends the micropython
process and starts a new one on a fresh pty B, while pty A, the host's port, stays. A
process whose heap a Ctrl-C broke (the unix port raises the KeyboardInterrupt inside a
garbage collection too, where the Pico never does: see _supervisor.py) ends with one of
RESUME_EXIT_CODES, and the next one goes on where it stopped, on the same pty B, with the
board's state kept: not a reset.

Control channel, for tests and tools: a Unix socket (second line printed: `control PATH`)
carrying one JSON object per line each way; see VBoardClient
(host_tools/maker/vboardclient.py). The launcher keeps the outside world (the tag on the
reader, the levels driven onto input pins) and what the board shows (NeoPixel frames,
output pins, PWM, the watchdog) and passes the world on to the board over a second socket,
so it survives hard resets. Logs go to stderr.
"""

import errno
import hashlib
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import tty

from host_tools.maker.vboardclient import VBoardError
from host_tools.maker.vboardcommands import PROMPT_HELP, describe_reply, request_for
from host_tools.maker.vboarddef import example_card
from host_tools.maker.vboardio import Conn, isig_off, make_ctty, nonblock, set_device_termios
from host_tools.maker.vboardworld import PWRON_RESET, WDT_RESET, World
from host_tools.mpy import ROOT, find_micropython
from hw.pn532 import I2C_ADDRESS as PN532_ADDR

LIB = os.path.join(ROOT, "host_tools", "fakehw", "pico")
SUPERVISOR = os.path.join(LIB, "_supervisor.py")

# The GC heap of the board process. A Pico gives MicroPython 240 KiB; here the board's own
# "ROM" (the REPL supervisor, the chip emulators) lives in the same heap, so the process
# gets more, and the supervisor holds back a ballast block so that gc.mem_free() when
# main.py starts is what a freshly booted Pico has: 236 KiB, doubled on a 64-bit unix port
# (8-byte words, 32-byte GC blocks: the same objects take about twice the room). --free
# sets it in bytes (e.g. --free 241600 for the Pico's figure as it stands).
HEAP = "768K"

# host_tools/fakehw/pico/_supervisor.py's RESUME_*: a board process that ends with one of
# these lost its heap to a Ctrl-C, and the next one goes on at that step (VBOARD_RESUME).
RESUME_EXIT_CODES = (80, 81, 82, 83, 84)

_CONSOLE_KEEP = 65536  # bytes of recent board output kept for the control channel
_TO_BOARD_MAX = 1 << 20  # bytes from the host waiting for the board before we drop


def _log(msg):
    sys.stderr.write("vboard: %s\n" % msg)
    sys.stderr.flush()


class VBoard(World):
    """The launcher: the host's port, the board process on its own pty, the sockets, the
    terminal's prompt and the main loop, around the board's World."""

    def __init__(self, board_dir, control_dir=None, heap=HEAP, uid=None, pn532_bus=0,
                 free=None, pretend=None, pn532_reset=None, pico_w=False):
        super().__init__(os.path.abspath(board_dir))
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
        self.pico_w = pico_w  # a Pico W: `network` (host_tools/fakehw/pico/network.py) in ROM
        self.prompt = None  # the terminal's command line, when it has one
        # Processes and descriptors.
        self.proc = None
        self.master_b = None
        self.slave_b = None  # held open, so that what the host sent waits in it for the
        # next process when one goes on after a broken heap
        self.cause = PWRON_RESET
        self.broken_heaps = 0  # board processes that went on after a Ctrl-C broke their heap
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
        nonblock(self.master_a)
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
        nonblock(self.wake_r)
        nonblock(self.wake_w)
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
        """A hard reset or the power on: a new board process on a fresh pty B."""
        self.boots += 1
        self.wdt = None
        self.pn532_resets = 0
        self.phase = "booting"
        self.outputs = {}
        self.pwm = {}
        m, s = os.openpty()
        set_device_termios(s)
        nonblock(m)
        self.master_b, self.slave_b = m, s
        self.to_board = bytearray()
        self.cause = cause
        self._start_process(0)
        self.booted_at = time.monotonic()
        _log("boot %d (%s), pid %d" % (self.boots, why, self.proc.pid))

    def _go_on(self, code):
        """The board process ended with one of RESUME_EXIT_CODES: the next one goes on at
        that step, on the same pty B, with the world and what the board shows kept (the
        watchdog runs on), as the Pico's MicroPython goes on after a Ctrl-C."""
        self.proc.wait()
        while self.dev is not None:  # what the board said before it ended (a frame, ...)
            lines = self.dev.lines()
            if not lines:
                self.dev.close()
                self.dev = None
                break
            for line in lines:
                self._board_message(json.loads(line))
                if self.dev is None:  # the message was a reset: the main loop boots anew
                    return
        self.phase = "booting"
        self.broken_heaps += 1
        isig_off(self.slave_b)  # in case the process ended with it on
        self._start_process(code)
        _log("a Ctrl-C broke the board process's heap (the unix port interrupts a garbage "
             "collection too): pid %d goes on at step %d" % (self.proc.pid, code))

    def _start_process(self, resume):
        env = dict(os.environ)
        env.update({
            "MICROPYPATH": ":".join([LIB, ROOT, ".frozen"]),
            "VBOARD_ROOT": self.board_dir,
            "VBOARD_SOCK": self.dev_path,
            "VBOARD_CAUSE": str(self.cause),
            "VBOARD_UID": self.uid,
            "VBOARD_BOOT": str(self.boots),
            "VBOARD_PN532_BUS": str(self.pn532_bus),
            "VBOARD_PN532_ADDR": str(PN532_ADDR),
            "VBOARD_PN532_RESET": "" if self.pn532_reset is None else str(self.pn532_reset),
        })
        if resume:
            env["VBOARD_RESUME"] = str(resume)
        if self.free is not None:
            env["VBOARD_FREE"] = str(self.free)
        if self.pico_w:
            env["VBOARD_PICO_W"] = "1"
        if self.pretend is not None:
            version, mpy = self.pretend
            env["VBOARD_PRETEND"] = "%s:%d" % (".".join(str(v) for v in version), mpy)
        cmd = [find_micropython(), "-X", "heapsize=" + self.heap, SUPERVISOR]
        s = self.slave_b
        self.proc = subprocess.Popen(cmd, stdin=s, stdout=s, stderr=s, env=env,
                                     cwd=self.board_dir, preexec_fn=make_ctty,
                                     close_fds=True)

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
            os.close(self.slave_b)
            self.master_b = self.slave_b = None
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

    # ------------------------------------------------------------------ control clients
    def status(self):
        wdt = None
        if self.wdt is not None:
            wdt = {"timeout": self.wdt["timeout"],
                   "left_ms": int((self.wdt["deadline"] - time.monotonic()) * 1000)}
        return {
            "ok": True, "port": self.port, "dir": self.board_dir, "boots": self.boots,
            "main_runs": self.main_runs, "phase": self.phase, "resets": self.resets,
            "running": self.proc is not None, "broken_heaps": self.broken_heaps,
            "pid": self.proc.pid if self.proc is not None else None,
            "tag": self.tag, "pins": {str(k): v for k, v in self.driven.items()},
            "outputs": {str(k): v for k, v in self.outputs.items()},
            "pwm": {str(k): v for k, v in self.pwm.items()},
            "strips": {str(k): {"writes": v["writes"]} for k, v in self.strips.items()},
            "wdt": wdt, "uid": self.uid, "pn532": dict(self.pn532, resets=self.pn532_resets),
        }

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
                self.clients.append(Conn(sock))
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
        self.dev = Conn(sock)

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
        if code in RESUME_EXIT_CODES:
            self._go_on(code)
            return
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
