"""The card reader on the virtual board: the real firmware (`make flash`) under MicroPython
with its asyncio tasks in real time, the emulated PN532 made slow, wedged or unplugged
through the control channel. The board reads cards from a chip that ACKs at the second
status read and from one that answers late, resets a wedged one through its reset pin,
shows the fault while the chip is off the bus and recovers when it returns."""

import json
import time

import pytest

from mpy_runner import ROOT

CARDS = {"04E1A1000000E1": "HUNA-1", "04E1A1000000E2": "ELAI-1",
         "04E1A1000000E3": "DUDA-1", "04E1A1000000E4": "ALOA-1"}


@pytest.fixture
def board(flashed_vboard):
    return flashed_vboard  # conftest: the firmware flashed on a virtual board


class Link:
    """JSON lines on the board's serial port, every wait bounded."""

    def __init__(self, port):
        import serial
        self.ser = serial.Serial(port, 115200, timeout=0.05)
        self.buf = b""
        self.seen = []

    def wait(self, pred, timeout=8, send=None):
        if send is not None:
            self.ser.write((json.dumps(send) + "\n").encode())
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.buf += self.ser.read(4096)
            lines = self.buf.split(b"\n")
            self.buf = lines.pop()
            for line in lines:
                try:
                    msg = json.loads(line)
                except ValueError:
                    continue  # the REPL's own output
                if isinstance(msg, dict):
                    self.seen.append(msg)
                    if pred(msg):
                        return msg
        raise AssertionError("timed out; the board said %s" % self.seen[-8:])

    def close(self):
        self.ser.close()


def error_pixel_lit(client, led):
    frame = client.frame()
    return frame is not None and any(frame[3 * led:3 * led + 3])


def test_the_four_readers_on_the_virtual_board(board):
    c = board.client
    link = Link(board.port)
    try:
        link.wait(lambda m: m.get("event") == "cards", send={"cmd": "cards", "set": CARDS})
        link.wait(lambda m: m.get("event") == "new",
                  send={"cmd": "new", "settings": {"variant": "standard", "first": "white",
                                                   "handicap": None}})
        # The hands travel only once a host asks for them (the link keeps them secret).
        link.wait(lambda m: m.get("event") == "state", send={"cmd": "reveal", "on": True})

        def tap(uid):
            c.place_tag(uid)
            msg = link.wait(lambda m: m.get("event") in ("accepted", "refused"))
            c.remove_tag()
            time.sleep(0.5)  # the reader sees it gone
            assert msg["event"] == "accepted", msg
            return msg["changed"]["hands"]["white"]

        # ACK at the second status read: more than the 15 ms ACK limit after the command.
        c.pn532(ack_polls=1)
        assert tap("04E1A1000000E1") == ["HUNA-1"]
        # A late answer: the response 300 ms after the ACK.
        c.pn532(ack_polls=0, response_ms=300)
        assert sorted(tap("04E1A1000000E2")) == ["ELAI-1", "HUNA-1"]
        c.pn532(response_ms=2)
        # Wedged: the firmware pulses the reset pin and reads on.
        c.pn532(wedge=True)
        msg = link.wait(lambda m: m.get("event") == "reader")
        assert "reset" in msg, msg
        c.wait_for(lambda st: st["pn532"]["resets"] >= 1, timeout=3, what="the reset pin")
        assert len(tap("04E1A1000000E3")) == 3
        assert not [m for m in link.seen if "error" in m and m.get("event") == "reader"]
        # Off the bus: the fault shows (the error pixel blinks) until it is back.
        c.pn532(present=False)
        msg = link.wait(lambda m: m.get("event") == "reader" and "error" in m)
        led = json.load(open(ROOT + "/board_def/kahuna.json"))["layout"]["status_leds"]["error"]
        end = time.monotonic() + 3
        lit = set()
        while time.monotonic() < end and len(lit) < 2:
            lit.add(error_pixel_lit(c, led))
            time.sleep(0.05)
        assert lit == {True, False}  # blinking
        c.pn532(present=True)
        msg = link.wait(lambda m: m.get("event") == "reader" and "pn532" in m, timeout=6)
        assert msg["pn532"] == [0x32, 1, 6, 7]
        assert len(tap("04E1A1000000E4")) == 3  # white's hand is full: black's card
    finally:
        link.close()
