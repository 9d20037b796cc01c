"""The client side of a virtual board (host_tools/maker/vboardserver.py): `VBoardClient`
speaks its control channel, a Unix socket carrying one JSON object per line each way;
`Running` starts a board in a subprocess (`python -m host_tools.maker.vboard`) for tests
and tools and hands out its port and a client."""

import json
import os
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from host_tools.mpy import ROOT


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
