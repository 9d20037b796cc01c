"""The interactive session (`python -m host_tools sim` with no scenario,
host_tools/games/kahuna/play.py): piped commands, a real terminal under tmux, and whole games
typed into the session."""

import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

import pytest

import gamekit
from core import board as boardmod
from host_tools.games.kahuna import play
from host_tools.games.kahuna import scenwrite as scengen
from host_tools.simulator.cli import DEFAULT_BOARD

ROOT = gamekit.ROOT
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
DEAL = ["tap ALOA-1", "tap BARI-2", "tap HUNA-1", "tap DUDA-1", "tap ELAI-2", "tap JOJO-1"]


@pytest.fixture(scope="module")
def board():
    return boardmod.load(DEFAULT_BOARD)


def session(board, colour=None):
    return play.Session(board, out=io.StringIO(), colour=colour, unicode=True)


def type_lines(s, lines):
    for line in lines:
        assert s.handle(line) is None, line


def run_sim(stdin, *args):
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    for var in ("FORCE_COLOR", "COLUMNS", "LINES"):
        env.pop(var, None)
    return subprocess.run([sys.executable, "-m", "host_tools", "sim"] + list(args),
                          input=stdin, capture_output=True, text=True, encoding="utf-8",
                          cwd=ROOT, timeout=120, env=env)


# ------------------------------------------------------------------------ piped session

def test_a_piped_session_shows_turn_hands_refusal_and_help():
    commands = DEAL + ["tap HUNA-1", "pick ALOA-HUNA", "tap HUNA-2", "help", "quit"]
    proc = run_sim("\n".join(commands) + "\n")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "\x1b[" not in out  # not a terminal: no colours, no screen clearing
    for cmd in commands:  # piped commands are echoed after the prompt
        assert play.PROMPT + cmd + "\n" in out
    assert "DEAL · white registers cards" in out
    after_deal = out.split(play.PROMPT + "tap JOJO-1\n")[1].split(play.PROMPT)[0]
    assert "PLAY · white to play" in after_deal
    assert re.search(r"white +ALOA-1 BARI-2 HUNA-1 +25 ", after_deal)
    assert re.search(r"black +DUDA-1 ELAI-2 JOJO-1 +25 ", after_deal)
    assert "Options: [DUDA-HUNA] ELAI-HUNA HUNA-IFFI HUNA-LALE ALOA-HUNA" in out
    assert "pick ALOA-HUNA: accepted. white bridge on ALOA-HUNA" in out
    assert re.search(r"white +ALOA-1 BARI-2 +24 +1 ", out)  # a bridge fewer in supply
    assert "tap HUNA-2: refused: card-not-in-hand: HUNA-2 is not in white's hand" in out
    assert "How a turn is entered" in out and "pick CONN" in out
    assert out.rstrip().endswith("bye")


def test_end_of_input_leaves_with_status_0():
    proc = run_sim("tap ALOA-1\n")
    assert proc.returncode == 0, proc.stderr
    assert "tap ALOA-1: accepted. white has 1 of 3 cards" in proc.stdout


def test_the_micropython_runtime_is_refused_clearly():
    proc = run_sim("quit\n", "--runtime", "micropython")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "interactive play runs the firmware in CPython" in proc.stderr


# ------------------------------------------------------------------------ real terminal

def test_playing_in_a_real_terminal_under_tmux(board):
    """A person's view: a 100x40 tmux pane running the session, keys typed, the screen read."""
    tmux = shutil.which("tmux")
    if tmux is None:
        pytest.fail("tmux is not installed, and this test plays in a real terminal through "
                    "it: install it (apt-get install tmux)")
    base = [tmux, "-L", "kahuna-test-%d" % os.getpid(), "-f", os.devnull]
    env = dict(os.environ, LANG="C.UTF-8", TERM="xterm-256color")
    for var in ("TMUX", "TMUX_PANE", "COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR"):
        env.pop(var, None)

    def tmux_run(*args, check=True):
        return subprocess.run(base + list(args), capture_output=True, text=True, env=env,
                              timeout=20, check=check)

    def screen():
        return tmux_run("capture-pane", "-p", "-t", "play").stdout

    def ended():
        """True once the program has ended (its pane stays, to be read)."""
        return tmux_run("display-message", "-p", "-t", "play",
                        "#{pane_dead}").stdout.strip() == "1"

    def wait_for(text, timeout=10.0):
        deadline = time.monotonic() + timeout
        while True:
            gone = ended()  # first: if it has ended, the screen read next is its last
            shown = screen()
            if text in shown:
                return shown
            if gone or time.monotonic() > deadline:
                raise AssertionError("%r not on the screen %s; the screen:\n%s" % (
                    text, "(the program ended)" if gone else "after %.0f s" % timeout,
                    shown))
            time.sleep(0.1)

    def type_line(line):
        tmux_run("send-keys", "-t", "play", "-l", line)
        tmux_run("send-keys", "-t", "play", "Enter")

    # The shell around it prints the exit status when the program ends.
    socket = []
    command = "%s; echo \"[exit status $?]\"" % shlex.join(
        [sys.executable, "-m", "host_tools", "sim"])
    try:
        # remain-on-exit: the pane and its last screen stay when the program ends, so a
        # crash is shown and the exit status after `quit` can be read.
        tmux_run("set-option", "-g", "remain-on-exit", "on", ";",
                 "set-option", "-g", "default-shell", "/bin/sh", ";", "new-session", "-d",
                 "-s", "play", "-x", "100", "-y", "40", "-c", ROOT, command)
        socket.append(tmux_run("display-message", "-p", "#{socket_path}").stdout.strip())
        shown = wait_for(play.PROMPT.strip())  # capture-pane drops trailing blanks
        assert "DEAL · white registers cards" in shown
        for line in DEAL:
            type_line(line)
            shown = wait_for("> %s: accepted" % line)
        # After the deal: white's turn, both hands, the whole board on one screen.
        assert "PLAY · white to play" in shown
        assert re.search(r"white +ALOA-1 BARI-2 HUNA-1 ", shown)
        assert re.search(r"black +DUDA-1 ELAI-2 JOJO-1 ", shown)
        lines = shown.split("\n")
        assert "BARI" in lines[0] or "BARI" in lines[1], shown  # nothing scrolled away
        picture = shown.split("Round 1 of 3")[0]
        for island in board.islands:
            assert island in picture
        assert "W" not in picture  # no bridge yet

        type_line("tap HUNA-1")
        shown = wait_for("> tap HUNA-1: accepted")
        assert "[HUNA]" in shown  # the pending card's island
        assert "Options: [DUDA-HUNA] ELAI-HUNA HUNA-IFFI HUNA-LALE ALOA-HUNA" in shown
        type_line("pick ALOA-HUNA")
        shown = wait_for("> pick ALOA-HUNA: accepted. white bridge on ALOA-HUNA")
        picture = shown.split("Round 1 of 3")[0]
        assert picture.count("W") == 1  # the bridge's owner mark
        assert "│" in picture or "|" in picture  # ALOA-HUNA runs down the left side
        assert re.search(r"white +ALOA-1 BARI-2 +24 +1 ", shown)

        type_line("tap HUNA-2")
        shown = wait_for("refused: card-not-in-hand")
        assert "HUNA-2 is not in white's hand" in shown

        type_line("quit")
        shown = wait_for("[exit status 0]")
        assert "bye" in shown
        deadline = time.monotonic() + 10
        while not ended():
            assert time.monotonic() < deadline, "the program did not end after quit"
            time.sleep(0.1)
    finally:
        tmux_run("kill-server", check=False)
        for path in socket:  # tmux may leave its socket file behind
            if path and os.path.exists(path):
                os.remove(path)


# ------------------------------------------------------------------------ in process

def test_a_bad_command_says_why_and_changes_nothing(board):
    s = session(board)
    type_lines(s, DEAL + ["tap HUNA-1"])
    before = s.sim.report()
    now = s.sim.now
    for bad in ("fly HUNA-1", "tap HUNA-7", "pick HUNA-ALOA", "wait soon", "press jump",
                "next please", "option variant=wild"):
        assert s.handle(bad) is None
        assert s.message.startswith("not understood: "), bad
        assert s.message.endswith("Nothing changed.")
        assert s.sim.report() == before and s.sim.now == now
    s.handle("pick HUNA-ALOA")
    assert "did you mean ALOA-HUNA?" in s.message
    s.handle("fly")
    assert "unknown command 'fly' (type help for the commands)" in s.message


def test_shorthands_become_scenario_commands(board):
    s = session(board)
    cases = {
        "next": "press next", "prev": "press prev", "ok": "press ok", "back": "press back",
        "undo": "press back", "done": "press done", "discard": "press discard",
        "press undo": "press back", "huna-1": "tap HUNA-1", "HUNA-2": "tap HUNA-2",
        "tap huna-2": "tap HUNA-2", "aloa-huna": "pick ALOA-HUNA",
        "pick aloa-huna": "pick ALOA-HUNA", "hold jojo-1 500": "hold JOJO-1 500",
        "uid:04a224b2c35e80": "tap uid:04a224b2c35e80", "wait 500": "wait 500",
        "power-cut": "power-cut", "  # a comment": "", "": "",
        "expect bridges.ALOA-HUNA white": "expect bridges.ALOA-HUNA white",
    }
    for typed, scen in cases.items():
        assert s.normalise(typed) == scen, typed
    assert s.handle("") == "same" and s.handle("# note") == "same"
    assert s.handle("help") == "help"
    assert s.handle("quit") == "quit" and s.handle("EXIT") == "quit"


def test_options_only_before_the_first_tap(board):
    s = session(board)
    type_lines(s, ["option first=black", "option handicap=white:2"])
    assert s.sim.report()["turn"] == "black"
    type_lines(s, ["tap ALOA-1", "option variant=alternative"])
    assert "option after the first tap" in s.message


def test_status_names_turn_options_pending_and_messages(board):
    s = session(board)
    type_lines(s, DEAL + ["tap HUNA-1", "next"])
    text = "\n".join(s.screen(100, 40))
    assert "Pending: HUNA-1" in text
    assert "Options: DUDA-HUNA [ELAI-HUNA] HUNA-IFFI" in text
    assert "> press next: accepted" in text
    type_lines(s, ["ok", "done"])
    text = "\n".join(s.screen(100, 40))
    assert "DRAW · white to draw" in text
    assert "Drawable: ALOA-2 BARI-1" in text
    type_lines(s, ["done"])
    text = "\n".join(s.screen(100, 40))
    assert "press done: accepted. black's turn" in text
    type_lines(s, ["done", "done"])  # black ends the play phase, then may not decline
    text = "\n".join(s.screen(100, 40))
    assert "MUST DRAW" in text
    assert "refused: must-draw" in s.message
    type_lines(s, ["discard", "tap DUDA-1"])
    assert "DUDA-1 discarded" in s.message
    assert "DRAW · black to draw · DISCARD MODE · MUST DRAW" in "\n".join(s.screen(100, 40))
    type_lines(s, ["expect hands.black 2", "expect hands.black 9"])
    assert s.message == "expect hands.black 9: FAILED, got 2 entries"


def test_the_screen_fits_80x24_and_100x40(board):
    s = session(board)
    for lines in ([], DEAL, ["tap HUNA-1"], ["pick ALOA-HUNA", "done"]):
        type_lines(s, lines)
        for cols, rows in ((80, 24), (100, 40)):
            screen = s.screen(cols, rows)
            assert len(screen) + 1 <= rows, (cols, lines)  # + the prompt line
            assert max(len(line) for line in screen) < cols


def test_colours_are_the_leds_and_plain_text_has_none(board):
    s = session(board, colour="truecolor")
    type_lines(s, DEAL + ["tap HUNA-1", "pick ALOA-HUNA", "tap BARI-2"])
    text = "\n".join(s.screen(100, 40))
    leds = s.sim.report()["leds"]

    def shown(led):
        return play.shown_colour(leds[led], board.brightness)

    # White's bridge is drawn in its LED's colour (white), with the owner's mark W.
    bridge = shown(board.conn_led[board.conn_index["ALOA-HUNA"]])
    assert min(bridge) > 240
    assert "\x1b[1;38;2;%d;%d;%dmW" % bridge in text
    # The pending card's island: a tile in the palette's "pending" amber, at its pulse's peak.
    tile = shown(board.island_led[board.island_index["BARI"]])
    assert tile[0] > 240 and 180 < tile[1] < 240 and tile[2] == 0
    assert "48;2;%d;%d;%dm[BARI]" % tile in text
    plain = session(board)
    type_lines(plain, DEAL)
    assert "\x1b" not in "\n".join(plain.screen(100, 40))


@pytest.mark.parametrize("seed", [4, 6, 12])
def test_whole_random_games_typed_into_the_session(board, seed):
    """A whole game (standard, handicap, alternative with handicap) typed command by command:
    every expect holds, the screen is drawn after each command, the game ends."""
    s = session(board)
    text = scengen.annotated_game(board, seed)
    expects = 0
    for line in text.split("\n"):
        s.handle(line)
        assert "internal error" not in s.message, s.message
        if line.startswith("expect "):
            assert s.message == line + ": ok"
            expects += 1
        screen = s.screen(100, 40)
        assert max(len(ANSI.sub("", x)) for x in screen) < 100
    assert expects > 10
    assert s.sim.report()["phase"] == "over"
    assert "the game is over" in "\n".join(s.screen(100, 40))


def test_help_fits_an_80_column_terminal(board):
    for unicode in (True, False):
        text = play.help_text(unicode, board)
        assert "How a turn is entered" in text
        lines = text.split("\n")
        assert max(len(line) for line in lines) < 80
        assert len(lines) < 40


def test_plain_ascii_where_the_output_has_no_unicode(board):
    s = play.Session(board, out=io.StringIO(), colour=None, unicode=False)
    type_lines(s, DEAL + ["tap HUNA-1", "pick ALOA-HUNA", "tap BARI-2"])
    text = "\n".join(s.screen(80, 24))
    text.encode("ascii")  # no UnicodeEncodeError
    picture = text.split("Round 1 of 3")[0]
    assert "@" in picture and "W" in picture and "[BARI]" in picture
    assert "* white" in text  # whose turn


# ------------------------------------------------------------------------ new games

def screen_text(s, cols=100, rows=40):
    return "\n".join(ANSI.sub("", x) for x in s.screen(cols, rows))


def test_a_finished_game_restarts_at_the_prompt_with_new_settings(board):
    s = session(board)
    for line in scengen.annotated_game(board, 4).split("\n"):
        s.handle(line)
    assert s.sim.report()["phase"] == "over"
    over = screen_text(s)
    assert "the game is over: new plays again" in " ".join(over.split())
    finished_settings = dict(s.sim.app.settings)
    # A wrong setting changes nothing and says what the settings are.
    assert s.handle("new variant=chaos") is None
    assert s.message.startswith("not understood: option variant must be standard or "
                                "alternative, got 'chaos'. Nothing changed.")
    assert s.sim.report()["phase"] == "over" and s.sim.app.settings == finished_settings
    # The settings given replace those in force; the screen says which are in force.
    assert s.handle("new variant=alternative first=black handicap=white:2") is None
    assert s.message == ("new game: alternative variant, black first, handicap white:2. "
                         "black taps their 3 cards.")
    rep = s.sim.report()
    assert rep["phase"] == "deal" and rep["turn"] == "black" and rep["bridges"] == {}
    assert rep["scores"] == {"white": 0, "black": 0} and rep["round_scores"] == []
    assert "Game: alternative variant, black first, handicap white:2" in screen_text(s)
    assert "Game: alternative variant, black first, handicap white:2" in screen_text(s, 80, 24)
    # It plays: black deals first, then white, then white places its 2 handicap bridges.
    type_lines(s, ["tap ALOA-1", "tap BARI-2", "tap HUNA-1", "tap DUDA-1", "tap ELAI-2",
                   "tap JOJO-1"])
    rep = s.sim.report()
    assert rep["hands"]["black"] == ["ALOA-1", "BARI-2", "HUNA-1"]
    assert rep["phase"] == "handicap" and rep["turn"] == "white"
    # A power cut comes back to this game, with these settings.
    type_lines(s, ["power-cut"])
    assert s.sim.report()["phase"] == "handicap"
    assert "Game: alternative variant, black first, handicap white:2" in screen_text(s)


def test_new_keeps_a_game_in_progress_unless_told_and_can_drop_a_handicap(board):
    s = session(board)
    type_lines(s, ["option handicap=black:1"] + DEAL)
    assert "Game: standard variant, white first, handicap black:1" in screen_text(s)
    before = s.sim.report()
    assert s.handle("new first=black") is None
    assert s.message == ("this game is not over (round 1, handicap): new starts one once it "
                         "is; new anyway first=black abandons it. Nothing changed.")
    assert s.sim.report() == before
    assert s.handle("new anyway first=black handicap=none") is None
    assert s.message == ("new game: standard variant, black first, no handicap. black taps "
                         "their 3 cards.")
    assert s.sim.report()["turn"] == "black" and s.sim.report()["phase"] == "deal"
    # Before the first tap settings may still change, with new or with option.
    assert s.handle("option variant=alternative") is None
    assert "Game: alternative variant, black first, no handicap" in screen_text(s)


def test_new_typed_into_a_piped_session_after_the_end():
    text = scengen.annotated_game(boardmod.load(DEFAULT_BOARD), 6)
    proc = run_sim(text + "new first=black\nquit\n")
    assert proc.returncode == 0, proc.stderr
    last = proc.stdout.split(play.PROMPT + "new first=black\n")[1]
    assert "DEAL · black registers cards" in last
    assert "Game: " in last and "black first" in last
    assert "> new game: " in last


def test_the_readmes_worked_solo_example_is_what_the_simulator_says():
    """README.md's worked example (`make sim ARGS="--ai black --seed 3"`): its commands
    typed into the simulator give its answers, word for word."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    start = text.index('    $ make sim ARGS="--ai black --seed 3"\n')
    block = text[start:text.index("\n\n", start)].splitlines()[1:]
    commands, said = [], []
    for line in block:
        line = line[4:]
        if line.startswith("kahuna> "):
            commands.append(line[len("kahuna> "):].split("#")[0].strip())
        elif line.startswith("> "):
            said.append(line[2:])
        elif line.startswith("  ") and said:
            said[-1] += " " + line.strip()
    assert commands == ["tap GOLA-1", "pick GOLA-KAHU", "done", "draw 1"] and len(said) == 2
    proc = subprocess.run([sys.executable, "-m", "host_tools", "sim", "--ai", "black",
                           "--seed", "3"], input="\n".join(commands + ["quit"]) + "\n",
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    answers = []
    for line in proc.stdout.splitlines():
        if line.startswith("> "):
            answers.append(line[2:])
        elif line.startswith("  ") and answers and not answers[-1].endswith("\0"):
            answers[-1] += " " + line.strip()
        elif answers:
            answers[-1] += "\0"
    answers = [a.rstrip("\0") for a in answers]
    for words in said:
        assert words in answers, (words, answers)
