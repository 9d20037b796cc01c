"""A virtual board for the tests: the firmware flashed on it with `make flash` (any board
definition), and its serial link as the games' tests speak it: JSON lines out, the first
line a test waits for in (every wait bounded, lines before it dropped)."""

import json
import time

import serial


def flash_vboard(tmp_path, board_def=None):
    """A virtual board (host_tools vboard) with the firmware put on it by `make flash`
    (BOARD=board_def, default Kahuna's): `port`, `dir` (its file system), `build` (the
    build folder). A generator: stopped once the test is done (yield from it in a fixture)."""
    import subprocess

    from host_tools.maker.vboardclient import Running
    from mpy_runner import ROOT
    d = tmp_path / "board"
    d.mkdir()
    log = open(tmp_path / "vboard.log", "w")
    b = Running(str(d), log=log)
    b.dir = str(d)
    b.build = str(tmp_path / "build")
    try:
        proc = subprocess.run(["make", "flash", "PORT=" + b.port, "ARGS=--build-dir " + b.build]
                              + (["BOARD=" + board_def] if board_def else []),
                              capture_output=True, text=True, timeout=240, cwd=ROOT,
                              stdin=subprocess.DEVNULL)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        yield b
    finally:
        b.stop()
        log.close()


class BoardLink:
    def __init__(self, port):
        self.s = serial.Serial(port, 115200, timeout=0.05)
        self.buf = b""

    def send(self, obj):
        self.s.write((json.dumps(obj) + "\n").encode())

    def until(self, test, timeout=10):
        """The first JSON line for which test(line) is true (lines before it dropped)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            while b"\n" in self.buf:
                raw, self.buf = self.buf.split(b"\n", 1)
                try:
                    line = json.loads(raw.decode("utf-8", "replace"))
                except ValueError:
                    continue
                if isinstance(line, dict) and test(line):
                    return line
            self.buf += self.s.read(4096)
        raise AssertionError("no such line within %ss" % timeout)

    def event(self, obj):
        """Send a command; the event line it caused."""
        self.send(obj)
        return self.until(lambda x: "event" in x and "seq" in x)
