"""The monitor: the board's state over a serial line drawn like the simulator (options,
highlight, hint, last refusal), hands kept secret, garbage from the device shown but never
fatal."""

import io
import json
import os
import subprocess
import sys
import threading
import time

import gamekit
from core.link import Link
from host_tools.maker import boardnews, monitor
from host_tools.simulator import engine as simcore

DEAL = gamekit.WHITE_DEAL + gamekit.BLACK_DEAL


def board_lines():
    """What a board's link sends after a deal and a placement."""
    sim = simcore.Simulation(gamekit.board())
    sent = []
    link = Link(sim.app, sent.append, lambda: sim.now)
    sim.app.listen(link.on_event)
    link.feed(b'{"cmd": "state"}\n')
    for card in DEAL:
        link.feed(('{"cmd": "tap", "card": "%s"}\n' % card).encode())
    link.feed(b'{"cmd": "tap", "card": "HUNA-1"}\n{"cmd": "pick", "conn": "ELAI-HUNA"}\n')
    link.feed(b'{"cmd": "press", "button": "next"}\n')
    link.feed(b'{"cmd": "tap", "card": "ELAI-1"}\n')
    return sent


def test_monitor_follows_the_events_and_shrugs_off_garbage():
    mon = monitor.Monitor(gamekit.board(), sys.stdout, colour=None)
    assert mon.line(b"MicroPython v1.29 on 2026-01-01; Raspberry Pi Pico\r\n")
    assert mon.line(b"\xff\xfe{{{ not json")
    for line in board_lines():
        mon.line(line)
    screen = "\n".join(mon.screen())
    assert "white to play" in screen and "ELAI" in screen
    assert "last refusal: wrong-phase: there is nothing to choose" in screen
    assert "device: MicroPython v1.29" in screen
    assert mon.state["bridges"] == {"ELAI-HUNA": "white"}
    # The simulator's picture: ELAI's options with the highlight, and the hint.
    assert "Options: [BARI-ELAI] ELAI-FAAA" in screen and "Pending: ELAI" in screen
    assert "Next: pick a connection" in screen
    assert "> accepted" in screen and "accepted (accepted)" not in screen
    # Hand sizes, never the hands.
    assert "2 cards" in screen and "3 cards" in screen
    for card in DEAL:
        assert card not in screen, card
    assert "HANDS REVEALED" not in screen


def test_the_monitor_says_when_the_hands_are_revealed():
    mon = monitor.Monitor(gamekit.board(), sys.stdout, colour=None)
    sim = simcore.Simulation(gamekit.board())
    link = Link(sim.app, mon.line, lambda: sim.now)
    for card in DEAL:
        link.feed(('{"cmd": "tap", "card": "%s"}\n' % card).encode())
    link.feed(b'{"cmd": "reveal", "on": true}\n')
    screen = "\n".join(mon.screen())
    assert "HANDS REVEALED" in screen
    assert all(card in screen for card in DEAL)


def test_typed_commands_become_link_commands():
    board = gamekit.board()
    names = boardnews.card_names(board)
    cmd = monitor.command
    assert cmd("new variant=alternative first=black handicap=white:2", board, names) == {
        "cmd": "new", "settings": {"variant": "alternative", "first": "black",
                                   "handicap": ["white", 2]}}
    assert cmd("enroll huna-1", board, names) == {"cmd": "enroll", "card": "HUNA-1"}
    assert cmd("next", board, names) == {"cmd": "press", "button": "next"}
    assert cmd("reveal on", board, names) == {"cmd": "reveal", "on": True}
    assert cmd("cards", board, names) == {"cmd": "cards"}
    assert cmd("  ", board, names) is None and cmd("quit", board, names) == "quit"
    for bad, words in (("enroll HUNA-9", "HUNA-9 is not a card of kahuna (ALOA-1, ALOA-2, "),
                       ("new colour=red", "a setting is variant=..."),
                       ("new handicap=white", "handicap=PLAYER:N, e.g. handicap=white:2"),
                       ("new ai=purple", "ai=white, black or none"),
                       ("fly", "not understood: fly")):
        try:
            cmd(bad, board, names)
        except monitor.CommandError as e:
            assert str(e).startswith(words), e
            continue
        raise AssertionError(bad)
    # The help names the settings of the board's game (its textboard part).
    assert "variant=standard|alternative" in monitor.help_text(board)


def test_monitor_once_over_a_serial_port():
    master, slave = os.openpty()
    lines = board_lines()

    def device():
        request = b""
        while b"\n" not in request:
            request += os.read(master, 100)
        assert json.loads(request.decode()) == {"cmd": "state"}
        os.write(master, b"garbage from the REPL\r\n")
        os.write(master, lines[0].encode())

    t = threading.Thread(target=device, daemon=True)
    t.start()
    proc = subprocess.run([sys.executable, "-m", "host_tools", "monitor", "--port",
                           os.ttyname(slave), "--once"], capture_output=True, text=True,
                          cwd=gamekit.ROOT, timeout=30)
    os.close(master)
    os.close(slave)
    assert proc.returncode == 0, proc.stderr
    assert "white registers cards" in proc.stdout and "HUNA" in proc.stdout


def test_monitor_says_when_the_port_cannot_be_opened():
    proc = subprocess.run([sys.executable, "-m", "host_tools", "monitor", "--port",
                           "/dev/nonexistent-kahuna", "--once"], capture_output=True,
                          text=True, cwd=gamekit.ROOT, timeout=30)
    assert proc.returncode == 2 and "cannot open /dev/nonexistent-kahuna" in proc.stderr


def test_the_monitor_asks_again_after_the_board_restarts():
    mon = monitor.Monitor(gamekit.board(), sys.stdout, colour=None)
    mon.line(b'{"event": "accepted", "changed": {"phase": "play"}}')
    assert mon.ask_state and mon.state is None  # a part with nothing to merge it into
    mon.ask_state = False
    for line in board_lines():
        mon.line(line)
    assert not mon.ask_state
    mon.line(b'{"event": "boot", "firmware": "0.1.0", "pn532": [50, 1, 6, 7]}')
    assert mon.ask_state and "board booted" in "\n".join(mon.screen())


def test_the_monitor_says_when_the_board_goes_away():
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "host_tools", "monitor", "--port",
                             os.ttyname(slave)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=gamekit.ROOT)
    try:
        request = b""
        while b"\n" not in request:
            request += os.read(master, 100)
        os.write(master, board_lines()[0].encode())
        os.close(slave)
        os.close(master)  # the board is unplugged
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 1, err
    assert "went away" in err and "Traceback" not in err


def test_new_does_not_abandon_a_game_in_progress_unless_told():
    board = gamekit.board()
    names = boardnews.card_names(board)
    playing = {"phase": "play"}
    try:
        monitor.command("new first=black", board, names, playing)
    except monitor.CommandError as e:
        assert "new anyway first=black" in str(e)
    else:
        raise AssertionError("new abandoned a game in progress")
    assert monitor.command("new anyway first=black", board, names, playing) == {
        "cmd": "new", "settings": {"first": "black"}}
    assert monitor.command("new", board, names, {"phase": "over"}) == {"cmd": "new",
                                                                       "settings": {}}


def test_a_monitor_that_revealed_the_hands_hides_them_as_it_leaves():
    sent = []

    class Port:
        def write(self, data):
            sent.append(json.loads(data))

    mon = monitor.Monitor(gamekit.board(), io.StringIO(), colour=None)
    session = monitor.Session(Port(), mon, io.StringIO(), tty=False)
    session.leave()
    assert sent == []  # it revealed nothing: it leaves the board's reveal alone
    session.typed("reveal on")
    session.leave()
    assert sent == [{"cmd": "reveal", "on": True}, {"cmd": "reveal", "on": False}]


def test_monitor_once_waits_for_a_board_that_boots():
    """Issue 15, defect 4: a board still booting loses the first state request; the
    monitor asks again until it answers."""
    master, slave = os.openpty()
    lines = board_lines()
    asked = []

    def device():
        buf = b""
        t0 = time.time()
        while True:
            buf += os.read(master, 100)
            while b"\n" in buf:
                request, buf = buf.split(b"\n", 1)
                asked.append(json.loads(request.decode()))
                if time.time() - t0 > 2.0:  # booted: the request is answered
                    os.write(master, lines[0].encode())
                    return

    t = threading.Thread(target=device, daemon=True)
    t.start()
    proc = subprocess.run([sys.executable, "-m", "host_tools", "monitor", "--port",
                           os.ttyname(slave), "--once"], capture_output=True, text=True,
                          cwd=gamekit.ROOT, timeout=30)
    os.close(master)
    os.close(slave)
    assert proc.returncode == 0, proc.stderr
    assert len(asked) >= 2 and all(a == {"cmd": "state"} for a in asked)
    assert "white registers cards" in proc.stdout


def test_a_state_of_another_game_says_so_and_how_to_draw_it():
    """A Kami board's state in a monitor told Kahuna (no --game): one line naming both,
    not a bare KeyError."""
    mon = monitor.Monitor(gamekit.board(), sys.stdout, colour=None)
    mon.line(json.dumps({"event": "state", "state": {"phase": "play", "turn": "p1",
                                                      "hand_sizes": {"p1": 5}}}).encode())
    screen = "\n".join(mon.screen())
    assert "(the board's state could not be drawn as kahuna's (" in screen, screen
    assert "a board flashed with another game? --game NAME draws that game)" in screen
