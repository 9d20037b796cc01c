"""The emulated RP2040 of `make bench-chip` (host_tools/measure/chipbench.py): the Pico's
file system as a littlefs image holding the firmware as `make flash` builds it, the emulator
process (`python -m rp2040py micropython`, PyPI rp2040py) with the board spec
host_tools/fakehw/chiprig.py and its control socket, and the board's USB serial link on the
emulator's pty."""

import json
import os
import re
import socket
import subprocess
import sys
import time

from host_tools.mpy import ROOT

SPEC = "host_tools.fakehw.chiprig:SPEC"


class ChipError(Exception):
    """The run cannot go on; the message says why (exit status 1)."""


# ---------------------------------------------------------------------- the image
def fs_layout():
    """(block size, block count) of MicroPython's file system on a Pico, as rp2040py
    loads it."""
    from rp2040py.utils.firmware_retrieve import MICROPYTHON, flash_layout

    lay = flash_layout(MICROPYTHON, "pico")
    return lay["fs_blocksize"], lay["fs_blockcount"]


def build_image(out, build_dir, board_def=None, opt=None, extra=()):
    """The files `make flash` would put on the board (for `board_def`, at mpy-cross's
    optimisation level `opt`: make flash's defaults), in a littlefs image at `out`;
    returns the board paths. `extra`: [(board path, bytes)] laid beside them (a measurement's
    own files; a path the build has too is replaced)."""
    from littlefs import LittleFS, UserContext

    from host_tools.maker import flash

    files = flash.build(board_def=board_def or flash.BOARD_DEF, out=build_dir,
                        opt=flash.OPT if opt is None else opt)
    block_size, block_count = fs_layout()
    # Disk version 2.0: what MicroPython's littlefs (1.21 on) mounts.
    lfs = LittleFS(context=UserContext(buffsize=block_size * block_count),
                   block_size=block_size, block_count=block_count, prog_size=256,
                   disk_version=0x00020000)
    blobs = []
    for rel, local in files:
        with open(local, "rb") as f:
            blobs.append((rel, f.read()))
    replaced = dict(extra)
    blobs = [(rel, replaced.pop(rel, data)) for rel, data in blobs] + list(replaced.items())
    made = set()
    for rel, data in blobs:
        parts = rel.split("/")
        for i in range(1, len(parts)):
            folder = "/".join(parts[:i])
            if folder not in made:
                lfs.mkdir(folder)
                made.add(folder)
        with lfs.open(rel, "wb") as dst:
            dst.write(data)
    lfs.unmount()
    with open(out, "wb") as f:
        f.write(lfs.context.buffer)
    return [rel for rel, _ in blobs]


# ---------------------------------------------------------------------- the emulator
def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Emulator:
    """rp2040py running the UF2 with the image; `pty` is the board's serial link, `ctl()`
    the rig's control socket."""

    def __init__(self, uf2, image, log, profile=None, quiet_usb=False):
        """`profile`: a file for the core's samples (host_tools/measure/chipprofile.py);
        `quiet_usb`: the USB host sends OUT packets only with bytes in them (chiprig's
        `quiet_usb_host`)."""
        self.ctl_port = free_port()
        env = dict(os.environ, CHIPRIG_CTL="127.0.0.1:%d" % self.ctl_port,
                   PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
        env.pop("CHIPRIG_PROFILE", None)
        env.pop("CHIPRIG_USB", None)
        if profile:
            env["CHIPRIG_PROFILE"] = profile
        if quiet_usb:
            env["CHIPRIG_USB"] = "quiet"
        self.log = log
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rp2040py", "micropython", "--image", uf2,
             "--board-spec", SPEC, "--pty", "--littlefs", image],
            cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.PIPE,
            text=True)
        self.pty = None
        end = time.monotonic() + 120
        while self.pty is None:
            line = self.proc.stderr.readline()
            if not line:
                raise ChipError("the emulator stopped before it opened its pty:\n%s"
                                % self.tail())
            log.write(line)
            m = re.search(r"PTY REPL listening on (\S+)", line)
            if m:
                self.pty = m.group(1)
            elif time.monotonic() > end:
                raise ChipError("the emulator did not open its pty within 120 s")
        # The rest of its messages go to the log.
        import threading
        threading.Thread(target=self._copy, daemon=True).start()
        self.sock = None
        for _ in range(100):
            try:
                self.sock = socket.create_connection(("127.0.0.1", self.ctl_port), timeout=30)
                break
            except OSError:
                time.sleep(0.1)
        if self.sock is None:
            raise ChipError("the board spec's control socket does not answer")
        self.f = self.sock.makefile("rw")

    def _copy(self):
        for line in self.proc.stderr:
            self.log.write(line)
            self.log.flush()

    def tail(self):
        self.log.flush()
        try:
            with open(self.log.name) as f:
                return "".join(f.readlines()[-15:])
        except OSError:
            return ""

    def ctl(self, obj):
        self.f.write(json.dumps(obj) + "\n")
        self.f.flush()
        line = self.f.readline()
        if not line:
            raise ChipError("the emulator went away:\n%s" % self.tail())
        ans = json.loads(line)
        if "error" in ans:
            raise ChipError("the rig refused %s: %s" % (obj, ans["error"]))
        return ans

    def ns(self):
        return self.ctl({"clock": 1})["ns"]

    def alive(self):
        return self.proc.poll() is None

    def stop(self):
        if self.sock is not None:
            self.sock.close()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Link:
    """The board's serial link on the pty: JSON lines; the board's state and the AI's
    words kept as they come."""

    def __init__(self, emu, log=None):
        """`log` (optional): a text file that gets every line sent ("> ") and read ("< "),
        in order: what the board was asked and said, for a run that went wrong."""
        import serial

        from host_tools.maker.linkclient import merge

        self.emu = emu
        self.log = log
        self.merge = merge
        self.ser = serial.Serial(emu.pty, 115200, timeout=0.05)
        self.buf = b""
        self.lines = []
        self.state = None
        self.say = ""
        self.step = None
        self.events = 0  # messages with "changed" (one per referee event)
        self.event_ns = []  # the emulated ns when each of them was read
        self.ai_steps = []  # (emulated ns when read, step, say)

    def send(self, obj):
        line = json.dumps(obj)
        if self.log is not None:
            self.log.write("> %s\n" % line)
        self.ser.write((line + "\n").encode())

    def read(self):
        """The messages waiting (a short wait), each also handled."""
        got = []
        data = self.ser.read(4096)
        if not data:
            if not self.emu.alive():
                raise ChipError("the emulator stopped:\n%s" % self.emu.tail())
            return got
        self.buf += data
        while b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            if self.log is not None:
                self.log.write("< %s\n" % line.decode("utf-8", "replace"))
            try:
                msg = json.loads(line.decode("utf-8", "replace"))
            except ValueError:
                continue
            if isinstance(msg, dict):
                self.handle(msg)
                got.append(msg)
        return got

    def handle(self, msg):
        self.lines.append(msg)
        if msg.get("event") == "ai":
            self.say = msg.get("say") or ""
            self.step = msg.get("step")
            self.ai_steps.append((self.emu.ns(), self.step, self.say))
        if "changed" in msg:
            self.events += 1
            self.event_ns.append(self.emu.ns())
        self.state = self.merge(self.state, msg)

    def wait(self, pred, wall=120.0, what="an answer"):
        """Read until `pred(msg)` holds for a message; that message."""
        end = time.monotonic() + wall
        while time.monotonic() < end:
            for msg in self.read():
                if pred(msg):
                    return msg
        raise ChipError("the board did not send %s within %s s (wall); its last lines: %s"
                        % (what, wall, self.lines[-3:]))

    def settle(self, quiet=0.6):
        """Read until the link has been quiet for `quiet` s (wall)."""
        last = time.monotonic()
        while time.monotonic() - last < quiet:
            if self.read():
                last = time.monotonic()

    def command(self, obj, wall=120.0):
        """Send a command that makes a referee event; its event, once the link is synced."""
        self.send(obj)
        msg = self.wait(lambda m: "changed" in m or "error" in m, wall,
                        "the event of %s" % (obj,))
        if "error" in msg:
            raise ChipError("the board refused %s: %s" % (obj, msg["error"]))
        self.sync(wall)
        return msg

    def sync(self, wall=120.0):
        """Everything the board sent before now is read: a selftest's answer comes after
        the lines of the event before it (the AI's next words included), so a step is
        never acted on twice."""
        self.send({"cmd": "selftest"})
        self.wait(lambda m: m.get("event") == "selftest", wall, "the selftest answer")

    def close(self):
        self.ser.close()
