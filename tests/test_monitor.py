"""The monitor: the board's state over a serial line drawn like the simulator, garbage
from the device shown but never fatal."""

import json
import os
import subprocess
import sys
import threading

import gamekit
from host_tools import monitor, simcore
from kahuna.link import Link

DEAL = gamekit.WHITE_DEAL + gamekit.BLACK_DEAL


def board_lines():
    """What a board's link sends after a deal and a placement."""
    sim = simcore.Simulation(gamekit.board())
    sent = []
    link = Link(sim.app, sent.append, lambda: sim.now)
    sim.app.listen(link.on_event)
    for card in DEAL:
        link.feed(('{"cmd": "tap", "card": "%s"}\n' % card).encode())
    link.feed(b'{"cmd": "tap", "card": "HUNA-1"}\n{"cmd": "pick", "conn": "ELAI-HUNA"}\n')
    link.feed(b'{"cmd": "press", "button": "next"}\n')
    return sent


def test_monitor_follows_the_events_and_shrugs_off_garbage():
    mon = monitor.Monitor(gamekit.board(), sys.stdout, colour=None)
    assert mon.line(b"MicroPython v1.29 on 2026-01-01; Raspberry Pi Pico\r\n")
    assert mon.line(b"\xff\xfe{{{ not json")
    for line in board_lines():
        mon.line(line)
    screen = "\n".join(mon.screen())
    assert "white to play" in screen and "ELAI" in screen
    assert "refused: wrong-phase" in screen
    assert "device: MicroPython v1.29" in screen
    assert mon.state["bridges"] == {"ELAI-HUNA": "white"}


def test_monitor_once_over_a_serial_port():
    master, slave = os.openpty()
    lines = board_lines()

    def device():
        request = b""
        while b"\n" not in request:
            request += os.read(master, 100)
        assert json.loads(request.decode()) == {"cmd": "state"}
        os.write(master, b"garbage from the REPL\r\n")
        os.write(master, lines[-1].encode())

    t = threading.Thread(target=device, daemon=True)
    t.start()
    proc = subprocess.run([sys.executable, "-m", "host_tools", "monitor", "--port",
                           os.ttyname(slave), "--once"], capture_output=True, text=True,
                          cwd=gamekit.ROOT, timeout=30)
    os.close(master)
    os.close(slave)
    assert proc.returncode == 0, proc.stderr
    assert "white to play" in proc.stdout and "HUNA" in proc.stdout


def test_monitor_says_when_the_port_cannot_be_opened():
    proc = subprocess.run([sys.executable, "-m", "host_tools", "monitor", "--port",
                           "/dev/nonexistent-kahuna", "--once"], capture_output=True,
                          text=True, cwd=gamekit.ROOT, timeout=30)
    assert proc.returncode == 2 and "cannot open /dev/nonexistent-kahuna" in proc.stderr
