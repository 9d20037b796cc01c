"""One port, one owner, on the virtual board running the flashed firmware: while the monitor
holds the port, `cards list` and `flash` say it is in use (exit 2) and leave the board as it
was; the monitor itself starts a new game with settings, shows the card registry and
enrols a card, so no second tool is needed."""

import json
import os
import select
import subprocess
import sys
import time

import pytest

from host_tools.maker.vboardclient import Running
from mpy_runner import ROOT

BUSY = "%s is in use by another program (the monitor?)"


@pytest.fixture
def board(flashed_vboard):
    return flashed_vboard  # conftest: the firmware flashed on a virtual board


class MonitorProcess:
    """The monitor on the board's port, commands typed into its standard input."""

    def __init__(self, port):
        self.proc = subprocess.Popen([sys.executable, "-m", "host_tools", "monitor", "--port",
                                      port], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=ROOT)
        self.out = b""

    def type(self, text):
        self.proc.stdin.write(text.encode() + b"\n")
        self.proc.stdin.flush()

    def wait_for(self, text, timeout=15):
        end = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while time.monotonic() < end:
            if text.encode() in self.out:
                return self.out.decode("utf-8", "replace")
            r, _, _ = select.select([fd], [], [], 0.2)
            if r:
                data = os.read(fd, 65536)
                if not data:
                    break
                self.out += data
        raise AssertionError("the monitor never showed %r; it showed:\n%s" % (
            text, self.out.decode("utf-8", "replace")[-3000:]))

    def mark(self):
        """Forget what was shown so far: the next wait_for looks at new output only."""
        self.out = b""

    def close(self):
        self.proc.stdin.close()
        return self.proc.wait(timeout=20)


def test_one_port_one_owner_and_the_monitor_does_it_all(board):
    mon = MonitorProcess(board.port)
    try:
        mon.wait_for("white registers cards")
        journal = open(os.path.join(board.dir, "game.jnl"), "rb").read()
        # Another tool on the same port: one clear line, exit 2, nothing sent to the board.
        proc = subprocess.run([sys.executable, "-m", "host_tools", "cards", "list", "--port",
                               board.port], capture_output=True, text=True, cwd=ROOT,
                              timeout=60)
        assert proc.returncode == 2
        assert proc.stderr.strip() == "cards: " + BUSY % board.port
        proc = subprocess.run([sys.executable, "-m", "host_tools", "flash", "--port",
                               board.port, "--build-dir", board.build],
                              capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert proc.returncode == 2, proc.stdout + proc.stderr
        assert proc.stderr.strip() == "flash: " + BUSY % board.port
        assert open(os.path.join(board.dir, "game.jnl"), "rb").read() == journal
        # The board still answers the monitor, which does the other tools' jobs.
        mon.mark()
        mon.type("new variant=alternative first=black handicap=white:2")  # mid-deal
        mon.wait_for("this game is not over: `new anyway variant=alternative")
        mon.mark()
        mon.type("new anyway variant=alternative first=black handicap=white:2")
        screen = mon.wait_for("a new game: alternative variant, black first, handicap white:2")
        assert "Game: alternative variant, black first, handicap white:2" in screen
        mon.mark()
        mon.type("cards")
        screen = mon.wait_for("0 cards enrolled, 24 missing")
        assert "Card registry:" in screen and "HUNA-1  -- missing --" in screen
        mon.mark()
        mon.type("enroll HUNA-1")
        mon.wait_for("lay the tag for HUNA-1 on the reader")
        board.client.place_tag("04C0DE07000087")
        mon.wait_for("enrolled HUNA-1 as tag 04C0DE07000087")
        board.client.remove_tag()
        mon.mark()
        mon.type("fly away")
        mon.wait_for("not understood: fly away")
    finally:
        assert mon.close() == 0
    with open(os.path.join(board.dir, "cards.json")) as f:
        assert json.load(f) == {"04C0DE07000087": "HUNA-1"}
    # The port is free again once the monitor has gone.
    proc = subprocess.run([sys.executable, "-m", "host_tools", "cards", "list", "--port",
                           board.port], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "HUNA-1  04C0DE07000087" in proc.stdout


STDIN_MAIN = (
    "import select, sys, time\n"
    "p = select.poll()\n"
    "p.register(sys.stdin.buffer, select.POLLIN)\n"
    "while not p.poll(0):\n"
    "    time.sleep_ms(5)\n"
    "sys.stdin.buffer.read(1)\n"
    "print('ready', p.poll(0))\n"
    "while not p.poll(0):\n"
    "    time.sleep_ms(5)\n"
    "t = time.ticks_ms()\n"
    "data = sys.stdin.buffer.read(4)\n"
    "print('read', data, time.ticks_diff(time.ticks_ms(), t) >= 300, p.poll(0))\n"
)


def test_the_virtual_boards_stdin_is_the_picos(tmp_path):
    """What main.py's serial task relies on, as on the Pico's USB stdin: poll says when a
    byte waits, and read(n) returns only once n bytes came (never a short read), so the
    link takes bytes one at a time while poll says there is one (core.linkframe.read_waiting)."""
    import serial
    d = tmp_path / "board"
    d.mkdir()
    (d / "main.py").write_text(STDIN_MAIN)
    with open(tmp_path / "vboard.log", "w") as log:
        b = Running(str(d), log=log)
        try:
            b.client.wait_for(lambda s: s["phase"] == "main.py", what="main.py")
            with serial.Serial(b.port, 115200, timeout=0.05) as s:
                s.write(b"x")  # main.py's output is seen once the port is open
                seen = b""
                end = time.monotonic() + 10
                while b"ready []" not in seen and time.monotonic() < end:
                    seen += s.read(100)
                assert b"ready []" in seen, seen
                s.write(b"ab")
                time.sleep(0.5)
                s.write(b"cd")
                seen = b""
                end = time.monotonic() + 10
                while b"read" not in seen.lstrip().split(b"\r\n")[0] and time.monotonic() < end:
                    seen += s.read(100)
            assert seen.lstrip().split(b"\r\n")[0].strip() == b"read b'abcd' True []", seen
        finally:
            b.stop()
