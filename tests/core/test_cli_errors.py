"""A user's wrong command line gets one clear message and exit status 2 from every host
tool, never a traceback; nothing runs (no scenario played, no file written)."""

import os
import subprocess
import sys

import pytest

from mpy_runner import ROOT

SCENARIO = os.path.join(ROOT, "tests", "scenarios", "place.scn")


def run(*args, env=None):
    return subprocess.run([sys.executable] + list(args), capture_output=True, text=True,
                          cwd=ROOT, timeout=120, stdin=subprocess.DEVNULL, env=env)


def no_ports_env(tmp_path):
    """An environment where pyserial finds no serial port at all (a PC with nothing
    plugged in): its list_ports is replaced through a sitecustomize on PYTHONPATH."""
    (tmp_path / "sitecustomize.py").write_text(
        "import serial.tools.list_ports as lp\n"
        "lp.comports = lambda *a, **k: []\n")
    return dict(os.environ, PYTHONPATH=str(tmp_path))


@pytest.mark.parametrize("args,words", [
    (["-m", "host_tools", "sim", "--scenario", SCENARIO, "--render", "out.jpg"],
     "sim: cannot render to 'out.jpg': the formats are SVG (.svg) and PNG (.png, needs the "
     "cairo library)"),
    (["-m", "host_tools", "sim", "--scenario", SCENARIO, "--render", "/proc/no/x.svg"],
     "sim: cannot render to '/proc/no/x.svg'"),
    (["-m", "host_tools.games.kahuna.picture", "--demo", "x.gif"],
     "picture: cannot render to 'x.gif'"),
    (["-m", "host_tools", "scengen"], "the following arguments are required: SEED"),
    (["-m", "host_tools", "scengen", "three"], "argument SEED: invalid int value: 'three'"),
    (["-m", "host_tools", "scengen", "3", "--board", "/nope.json"], "scengen: board: /nope.json"),
    (["-m", "host_tools", "frobnicate"], "host_tools: unknown command 'frobnicate'"),
    (["-m", "host_tools", "soak", "--games", "0"], "argument --games: invalid whole number"),
    (["-m", "host_tools", "soak", "--micropython", "-1"], "argument --micropython: invalid"),
    (["-m", "host_tools", "monitor", "--board", "/nope.json", "--port", "/dev/null"],
     "monitor: board: /nope.json"),
    (["-m", "host_tools", "monitor", "--port", "/dev/no-such-port"],
     "monitor: cannot open /dev/no-such-port: there is no such device; is the board plugged in?"),
    (["-m", "host_tools", "cards", "list", "--port", "/dev/no-such-port"],
     "cards: cannot open /dev/no-such-port: there is no such device; is the board plugged in?"),
    (["-m", "host_tools", "cards", "export", "/nope/cards.json", "--port", "/dev/null"],
     "cards: cannot write /nope/cards.json"),
    (["-m", "host_tools", "flash", "--port", "/dev/no-such-port"],
     "flash: cannot open /dev/no-such-port: there is no such device; is the board plugged in?"),
    (["-m", "host_tools", "flash", "--firmware", "/nope"], "flash: /nope/main.py is missing"),
    (["-m", "host_tools", "vboard", "--heap", "lots"], "argument --heap: 'lots': bytes"),
    (["-m", "host_tools", "vboard", "--dir", "/proc/no/board"],
     "vboard: cannot use /proc/no/board as --dir"),
    (["-m", "host_tools", "vboard", "--pretend-version", "old"],
     "argument --pretend-version: 'old': a MicroPython version"),
    (["-m", "host_tools", "vboard", "tap"], "vboard: usage: tap CARD"),
    (["-m", "host_tools", "flash", "--board-def", "kami", "--port", "/dev/null"],
     "flash: kami is missing (--board-def; make flash BOARD=...): did you mean "
     "board_def/kami.json?"),
    (["-m", "host_tools", "remote", "join", "K7QXM2", "--user", "bob", "--echo"],
     "--echo prints a board's lines: it needs --port"),
    (["-m", "host_tools", "remote", "create", "--players", "3", "--user", "a",
      "--password-file", "/dev/null", "--broker", "127.0.0.1:9"],
     "remote: --players is not a setting of kahuna (2 players; --variant, --first)"),
    (["-m", "host_tools", "vboard", "frob"],
     "vboard: unknown command 'frob': tap, place, lift, press, status, reset"),
    (["-m", "host_tools", "vboard", "tap", "--control"],
     "vboard: --control needs the directory (or socket) the board printed"),
    (["-m", "host_tools", "vboard", "press", "next", "soon"],
     "vboard: press next: 'soon' is not a whole number of ms"),
    (["-m", "host_tools", "remote"], "the following arguments are required: create|join"),
    (["-m", "host_tools", "remote", "join", "nope", "--user", "a", "--password-file",
      SCENARIO], "remote: a game code is six letters and digits"),
    (["-m", "host_tools", "remote", "join", "K7QXM2", "--user", "a", "--password-file",
      "/nope"], "remote: cannot read --password-file /nope: No such file or directory"),
    (["-m", "host_tools", "remote", "create", "--user", "a", "--password-file", SCENARIO,
      "--port", "/dev/no-such-port"], "remote: cannot open /dev/no-such-port: No such file"),
    (["-m", "host_tools", "remote", "create", "--user", "a", "--password-file", SCENARIO,
      "--first", "green"], "remote: first must be white or black, got 'green'"),
    (["-m", "host_tools", "remote", "create", "--user", "a", "--password-file", SCENARIO,
      "--game", "kami", "--mode", "chess"], "remote: mode must be one of soldat, seigneur, "
     "kami, got 'chess'"),
    (["-m", "host_tools", "remote", "create", "--user", "a", "--password-file", SCENARIO,
      "--game", "halunken", "--seat", "p4"], "remote: --seat must be one of p1, p2"),
    (["-m", "host_tools", "remote", "create", "--user", "a", "--password-file", SCENARIO,
      "--target", "5"],
     "remote: --target is not a setting of kahuna (2 players; --variant, --first)"),
    (["-m", "host_tools", "remote", "join", "K7QXM2", "--user", "a", "--password-file",
      SCENARIO, "--broker", "localhost:x"], "remote: --broker 'localhost:x': the port must"),
    (["-m", "host_tools", "remote", "join", "K7QXM2", "--user", "a", "--password-file",
      SCENARIO, "--broker", "127.0.0.1:1", "--patience", "0.3"],
     "remote: no broker at 127.0.0.1:1 for 0.3 s"),
    (["-m", "host_tools", "dealer", "--user", "d"], "dealer: no password: give --password-file"),
    (["-m", "host_tools", "dealer", "--user", "d", "--password-file", SCENARIO,
      "--state-dir", "/proc/no/dir"], "dealer: cannot use --state-dir /proc/no/dir"),
])
def test_a_wrong_command_line_says_why_and_exits_2(args, words):
    proc = run(*args)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and words in proc.stderr, proc.stderr
    assert proc.stdout == ""  # nothing ran


def test_help_is_not_an_error():
    for args in (["-m", "host_tools", "scengen", "--help"], ["-m", "host_tools", "--help"],
                 ["-m", "host_tools", "vboard", "--help"]):
        proc = run(*args)
        assert proc.returncode == 0 and proc.stdout.startswith("usage:"), proc.stderr


def test_scengen_still_writes_the_same_game_for_a_seed():
    first = run("-m", "host_tools", "scengen", "5")
    assert first.returncode == 0 and first.stdout == run("-m", "host_tools", "scengen", "5").stdout
    assert first.stdout.startswith("# A whole random game (seed 5)")


@pytest.mark.parametrize("tool,example", [
    ("monitor", "python -m host_tools monitor --port /dev/ttyACM0"),
    ("cards", "python -m host_tools cards list --port /dev/ttyACM0"),
    ("flash", "make flash PORT=/dev/ttyACM0"),
])
def test_no_port_and_no_board_plugged_in_names_the_fix(tmp_path, tool, example):
    args = ["-m", "host_tools", tool] + (["list"] if tool == "cards" else [])
    proc = run(*args, env=no_ports_env(tmp_path))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith("%s: no board found" % tool)
    assert "name the port: %s" % example in proc.stderr
    assert "python -m host_tools vboard" in proc.stderr


def test_a_render_refused_before_the_scenario_runs(tmp_path):
    # An unreadable scenario would say `line 1: ...`: the render name is checked first.
    proc = run("-m", "host_tools", "sim", "--scenario", "-", "--render", "x.bmp")
    assert proc.returncode == 2 and "line 1" not in proc.stderr
    assert not os.path.exists(os.path.join(ROOT, "x.bmp"))


def test_a_tool_run_outside_the_venv_says_how_to_run_it():
    # The system's Python has no pyserial: simulated by hiding it from the import system.
    code = ("import runpy, sys\n"
            "sys.modules['serial'] = None\n"
            "sys.argv = ['host_tools', 'monitor', '--port', '/dev/null', '--once']\n"
            "runpy.run_module('host_tools', run_name='__main__')\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "the Python package 'serial' is missing" in proc.stderr
    assert ".venv/bin/python -m host_tools monitor" in proc.stderr


def test_a_reader_that_goes_away_ends_the_output_not_the_tool():
    """`sim --json | true`: the reader is gone before the report is written (the tool takes
    longer than that to start); no BrokenPipeError's traceback, exit 0 (the tools' stdout,
    host_tools/__main__.py's ReaderGoneSafe)."""
    proc = subprocess.Popen([sys.executable, "-m", "host_tools", "sim", "--scenario", SCENARIO,
                             "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=ROOT, stdin=subprocess.DEVNULL)
    proc.stdout.close()
    assert proc.stderr.read() == b""
    assert proc.wait(timeout=120) == 0
