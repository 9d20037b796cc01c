"""Kami flashed on the virtual board (`make flash BOARD=board_def/kami.json`, the
firmware's own main.py on MicroPython with emulated hardware), played over the serial
link: an opening at a table, a refusal naming the seat, and the face-down defence (8.2,
8.3) that says the same on the link for two different cards."""

import json
import subprocess
import time

import pytest
import serial

from host_tools.maker.vboardclient import Running
from mpy_runner import ROOT

SETTINGS = {"players": 4}


@pytest.fixture
def board(tmp_path):
    d = tmp_path / "board"
    d.mkdir()
    log = open(tmp_path / "vboard.log", "w")
    b = Running(str(d), log=log)
    try:
        proc = subprocess.run(["make", "flash", "BOARD=board_def/kami.json",
                               "PORT=" + b.port, "ARGS=--build-dir " + str(tmp_path / "build")],
                              capture_output=True, text=True, timeout=240, cwd=ROOT,
                              stdin=subprocess.DEVNULL)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        yield b
    finally:
        b.stop()
        log.close()


class Link:
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
        self.send(obj)
        return self.until(lambda x: "event" in x and "seq" in x)


def defence_line(link, card):
    link.send({"cmd": "new", "settings": SETTINGS})
    link.until(lambda x: x.get("event") == "new")
    line = link.event({"cmd": "tap", "card": card})
    line["changed"].pop("leds", None)  # the frame at the event's time: the pulse's phase
    line.pop("game")  # each new game has its own number
    return line


def test_kami_plays_on_the_flashed_virtual_board(board):
    link = Link(board.port)
    link.send({"cmd": "new", "settings": SETTINGS})
    state = link.until(lambda x: x.get("event") == "new")["state"]
    assert (state["phase"], state["step"], state["turn"]) == ("play", "open", "p1")
    out = link.event({"cmd": "press", "button": "done"})
    assert (out["event"], out["code"], out["places"]) == ("refused", "wrong-phase", ["p1"])
    a = defence_line(link, "SOLDAT-3")
    b = defence_line(link, "IMPERATRICE-2")
    assert a["event"] == "accepted" and a["changed"]["step"] == "attack"
    assert a == b  # K6, 8.3: the same for every card
    assert "SOLDAT-3" not in json.dumps(a)
    out = link.event({"cmd": "tap", "card": "SOLDAT-1"})
    assert out["event"] == "accepted" and out["changed"]["turn"] == "p2"
