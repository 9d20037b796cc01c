"""The virtual board as a maker uses it (README, "Rehearse without hardware"): started with
no options it keeps its flash in a folder of its own; cards are laid on its scanner and its
buttons pressed by name, at its own prompt or from another terminal; flash, enrol, play and
the serial link work exactly as with a Pico."""

import json
import os
import select
import subprocess
import sys
import time

import pytest
import serial

from host_tools.maker import vboard
from host_tools.maker.vboardclient import VBoardClient
from host_tools.maker.vboarddef import sticker_uid
from mpy_runner import ROOT

DEAL = ("HUNA-1", "ELAI-1", "DUDA-1", "ALOA-1", "DUDA-2", "ELAI-2")


def read_line(proc, timeout=30):
    end = time.monotonic() + timeout
    buf = b""
    while not buf.endswith(b"\n"):
        left = end - time.monotonic()
        assert left > 0 and proc.poll() is None, "no line from the vboard (got %r)" % buf
        r, _, _ = select.select([proc.stdout], [], [], left)
        if r:
            ch = os.read(proc.stdout.fileno(), 1)
            assert ch, "the vboard ended (got %r)" % buf
            buf += ch
    return buf.decode().rstrip("\n")


@pytest.fixture
def home(tmp_path):
    """A user's home for the vboard: XDG_CACHE_HOME in tmp_path."""
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    return env, str(tmp_path / "cache" / "kahuna-vboard")


def start_default(env, log):
    return subprocess.Popen([sys.executable, "-m", "host_tools", "vboard"], cwd=ROOT, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log)


def test_no_options_a_folder_of_its_own_and_commands_at_its_prompt(home, tmp_path):
    env, where = home
    with open(tmp_path / "vboard.log", "w") as log:
        proc = start_default(env, log)
        try:
            port = read_line(proc)
            assert port.startswith("/dev/")
            assert read_line(proc) == "control %s" % os.path.join(where, "control.sock")
            assert os.path.isdir(os.path.join(where, "flash"))  # the board's flash
            client = VBoardClient(os.path.join(where, "control.sock"))

            def say(line):
                proc.stdin.write((line + "\n").encode())
                proc.stdin.flush()
                return read_line(proc)

            assert say("place HUNA-1") == ("HUNA-1 on the scanner (tag %s); lift takes it off"
                                           % sticker_uid("HUNA-1"))
            assert client.status()["tag"]["uid"] == sticker_uid("HUNA-1")
            assert say("lift") == "the scanner is empty"
            assert client.status()["tag"] is None
            assert say("press done 1500") == "done pressed (GP14)"  # a long press
            assert client.status()["pins"] == {"14": 0}
            client.wait_for(lambda s: s["pins"] == {}, timeout=5, what="done released")
            assert say("tap uid:04AABBCCDDEEFF") == "uid:04AABBCCDDEEFF tapped (tag 04AABBCCDDEEFF)"
            client.wait_for(lambda s: s["tag"] is None, timeout=5, what="the tap's lift")
            assert say("press sideways").startswith("refused: unknown button 'sideways' (next,")
            assert say("tap HUNA-3").startswith("refused: unknown card 'HUNA-3'")
            assert say("jump") == ("unknown command 'jump': tap, place, lift, press, status, "
                                   "reset (type help)")
            assert say("status").startswith("port %s, boot 1, " % port)
            # A second board on the same control socket is refused, the first runs on.
            second = subprocess.run([sys.executable, "-m", "host_tools", "vboard"], cwd=ROOT,
                                    env=env, capture_output=True, text=True, timeout=60,
                                    stdin=subprocess.DEVNULL)
            assert second.returncode == 2 and second.stdout == ""
            assert "a virtual board is already running" in second.stderr
            assert "Traceback" not in second.stderr
            assert client.status()["running"]
            client.close()
            assert say("quit") == "stopping the virtual board"
            assert proc.wait(timeout=20) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    # The flash stays for next time, as a Pico's does; the sockets are gone.
    assert os.path.isdir(os.path.join(where, "flash"))
    assert not os.path.exists(os.path.join(where, "control.sock"))


def test_terminal_commands_without_a_running_board_say_how_to_start_one(home):
    env, where = home
    proc = subprocess.run([sys.executable, "-m", "host_tools", "vboard", "tap", "HUNA-1"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("vboard: no virtual board is running at %s"
                                  % os.path.join(where, "control.sock"))
    assert "python -m host_tools vboard" in proc.stderr


def test_mpy_versions_of_releases():
    assert vboard.mpy_version_of((1, 24, 1)) == 6
    assert vboard.mpy_version_of((1, 19, 0)) == 6
    assert vboard.mpy_version_of((1, 18, 0)) == 5
    assert vboard.mpy_version_of((1, 11, 0)) == 4


@pytest.fixture
def flashed(flashed_vboard):
    return flashed_vboard  # conftest: the firmware flashed on a virtual board


def vb(board, *words):
    """`python -m host_tools vboard WORDS --control DIR`, as typed in a second terminal."""
    proc = subprocess.run([sys.executable, "-m", "host_tools", "vboard"] + list(words)
                          + ["--control", board.control_dir], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout.strip()


def test_rehearse_flash_enrol_play_with_terminal_commands(flashed, tmp_path):
    board = flashed
    names = ["%s-%d" % (i["id"], n) for i in json.load(
        open(os.path.join(ROOT, "board_def", "kahuna.json")))["layout"]["islands"]
        for n in (1, 2)]
    # Enrol: 23 cards from a file, the last one the way a maker does it, card by card.
    registry = tmp_path / "cards.json"
    registry.write_text(json.dumps({sticker_uid(c): c for c in names if c != "HUNA-1"}))
    imp = subprocess.run([sys.executable, "-m", "host_tools", "cards", "import", str(registry),
                          "--port", board.port], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert imp.returncode == 0 and "23 cards imported, 1 missing" in imp.stdout, imp.stderr
    tool = subprocess.Popen([sys.executable, "-m", "host_tools", "cards", "enroll", "--card",
                             "HUNA-1", "--port", board.port, "--timeout", "30"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert (tool.stdout.readline().strip()
                == "lay the tag for HUNA-1 on the reader (HUNA is lit)")
        assert vb(board, "tap", "HUNA-1") == "HUNA-1 tapped (tag %s)" % sticker_uid("HUNA-1")
        assert tool.stdout.readline().strip() == "HUNA-1 enrolled: tag %s (NTAG213)" % (
            sticker_uid("HUNA-1"))
        assert tool.wait(timeout=30) == 0, tool.stderr.read()
    finally:
        if tool.poll() is None:
            tool.kill()
    time.sleep(1.0)  # the enrolled card is lifted and seen gone before the game's first tap
    # Play: the deal and a placement, every card laid and every button pressed from the
    # terminal; the board's own serial link tells where the game stands.
    for card in DEAL + ("HUNA-1",):
        vb(board, "tap", card)
        time.sleep(1.0)  # the card lifted and seen gone, as a hand would
    assert vb(board, "press", "next") == "next pressed (GP10)"
    first = subprocess.run([sys.executable, "-m", "host_tools", "vboard", "--control",
                            board.control_dir, "status"], cwd=ROOT, capture_output=True,
                           text=True, timeout=60)  # --control before the command, too
    assert first.stdout.startswith("port %s, boot 1, " % board.port), first.stderr
    time.sleep(0.5)
    assert vb(board, "press", "ok") == "ok pressed (GP12)"
    time.sleep(0.5)
    with serial.Serial(board.port, 115200, timeout=0.2) as ser:
        ser.write(b'{"cmd": "state"}\n')
        state = None
        end = time.monotonic() + 10
        while state is None and time.monotonic() < end:
            line = ser.readline()
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if isinstance(msg, dict) and msg.get("event") == "state":
                state = msg["state"]
    assert state is not None, "the board did not report its state"
    assert state["phase"] == "play" and state["turn"] == "white"
    bridges = state["bridges"]
    assert list(bridges.values()) == ["white"] and "HUNA" in list(bridges)[0].split("-"), (
        state, board.client.console()[-3000:])
    assert state["supply"]["white"] == 24
