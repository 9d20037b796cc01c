"""The terminal's words and screen (issue 15, "In the terminal and the pages"): the face-up
display in every phase at a table of cards, the hint in `help` and the solo welcome,
`sim --ai-level N`, what an undo undid, the board's move that took an island and removed
the player's bridges there, and `draw 4`'s own refusal code (`bad-draw`)."""

import io
import random
import subprocess
import sys

import pytest
from test_sim_fuzz import random_command

import gamekit
from core import board as boardmod
from games.kahuna import rules
from host_tools.games.kahuna import narrate, play
from host_tools.simulator.cli import DEFAULT_BOARD


@pytest.fixture(scope="module")
def board():
    return boardmod.load(DEFAULT_BOARD)


def table_session(board, **kw):
    return play.Session(board, out=io.StringIO(), unicode=False, colour="none", **kw)


def screen(s):
    return "\n".join(s.screen(100, 40))


def test_the_display_is_shown_in_every_phase_at_a_table(board):
    s = table_session(board, seed=3)
    game = s.sim.app.game
    seen = set()
    rng = random.Random(3)
    for _ in range(300):
        if game.phase == rules.OVER:
            break
        shown = "Display: %s · deck %d" % (" ".join(s.table.display), s.table.deck_count())
        assert shown.replace("·", "|") in screen(s), (game.phase, screen(s))
        seen.add(game.phase)
        s.handle(random_command(rng, s))
    assert {rules.PLAY, rules.DRAW} <= seen


def test_help_and_the_solo_welcome_tell_of_the_hint(board):
    assert "nothing to choose lights and says the board's move for you" in \
        play.help_text(False, board)
    s = table_session(board, seed=3, ai="black")
    assert "ok with nothing to choose lights a hint" in s.message
    s.handle("ok")  # white's play phase, nothing on offer: the hint
    assert "Board: hint: " in s.message


def test_ai_level_reaches_the_game_settings_and_the_screen(board):
    s = table_session(board, seed=3, ai="black", ai_level=1)
    assert s.sim.app.settings["ai_level"] == 1
    assert "the board plays black at level 1" in screen(s)
    assert "level 1" in s.message
    default = table_session(board, seed=3, ai="black")
    assert "ai_level" not in default.sim.app.settings


def run_sim(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "host_tools", "sim"] + list(args),
                          input=stdin, capture_output=True, text=True, cwd=gamekit.ROOT,
                          timeout=120)


def test_sim_ai_level_on_the_command_line():
    proc = run_sim("--ai", "black", "--seed", "3", "--ai-level", "3", stdin="quit\n")
    assert proc.returncode == 0, proc.stderr
    assert "the board plays black at level 3" in " ".join(proc.stdout.split())
    proc = run_sim("--ai-level", "2")
    assert proc.returncode == 2
    assert proc.stderr == "sim: --ai-level is the board's strength when it plays: give " \
                          "--ai too\n"
    proc = run_sim("--ai", "black", "--ai-level", "4")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "--ai-level: invalid choice: 4" in proc.stderr
    proc = run_sim("--game", "halunken", "--ai", "p2", "--ai-level", "2")
    assert (proc.returncode, proc.stderr) == (2, "sim: halunken takes no --ai-level\n")


def test_an_undo_says_what_it_undid(board):
    s = table_session(board)
    for card in ("ALOA-1", "BARI-1", "COCO-1", "DUDA-1", "ELAI-1", "FAAA-1"):
        s.handle(card)
    s.handle("tap ALOA-1")
    conn = s.sim.app.referee.option_names()[0]
    s.handle("pick " + conn)
    assert s.sim.report()["bridges"] == {conn: "white"}
    s.handle("back")
    assert s.message == ("press back: accepted. undone: white's bridge on %s, ALOA-1 back "
                         "in white's hand" % conn)
    s.handle("discard")
    s.handle("tap BARI-1")
    s.handle("done")
    s.handle("back")
    assert s.message == "press back: accepted. undone: white's discard (BARI-1 back in hand)"


def test_an_undo_in_hot_seat_names_no_card(board):
    s = table_session(board, seed=3)
    s.handle("discard")
    s.handle("tap " + s.sim.app.game.hand("white")[0])
    s.handle("done")
    s.handle("back")
    assert s.message == "press back: accepted. undone: white's discard (a card back in hand)"


def test_the_board_taking_an_island_from_the_player_is_said(board):
    """A solo game of random commands (seed 1, level 1): the board's move takes LALE and
    removes white's bridge there; the message says so, public facts only."""
    s = table_session(board, ai="black", seed=1, ai_level=1)
    rng = random.Random(1)
    said = []
    for _ in range(400):
        before = s.sim.report()
        s.handle(random_command(rng, s))
        after = s.sim.report()
        for who, isl, gone in narrate.takeovers(before, after):
            if who == "black" and gone:
                said.append(s.message)
                assert ("The board's move took %s and removed your bridge%s there (%s)"
                        % (isl, "s" if len(gone) > 1 else "", ", ".join(gone))) in s.message
        if said or after["phase"] == rules.OVER:
            break
    assert said


def test_takeover_words():
    before = {"control": {}, "bridges": {"ALOA-GOLA": "white", "GOLA-KAHU": "white",
                                         "BARI-GOLA": "black", "ALOA-BARI": "white"}}
    after = {"control": {"GOLA": "black"}, "bridges": {"BARI-GOLA": "black",
                                                       "ALOA-BARI": "white",
                                                       "COCO-GOLA": "black"}}
    assert narrate.takeover_words(before, after) == [
        "black took GOLA and removed white's bridges there (ALOA-GOLA, GOLA-KAHU)"]
    assert narrate.takeover_words(before, after, you="white") == [
        "the board's move took GOLA and removed your bridges there (ALOA-GOLA, GOLA-KAHU)"]
    assert narrate.takeover_words(before, before) == []


@pytest.mark.parametrize("arg,code", [("4", "bad-draw"), ("0", "bad-draw"), ("x", "bad-draw"),
                                      ("", "bad-draw"), ("1 2", "bad-draw"),
                                      ("1", "wrong-phase")])
def test_a_bad_draw_argument_has_its_own_code(board, arg, code):
    s = table_session(board, seed=3)  # the play phase: a good draw is wrong-phase
    before = s.sim.report()
    s.handle("draw " + arg)
    assert s.sim.rejected[-1]["code"] == code
    assert ": refused: %s: " % code in s.message
    after = s.sim.report()
    del before["rejected"], after["rejected"]
    assert after == before


def test_a_draw_of_an_empty_place_is_bad_draw_in_the_draw_phase(board):
    s = table_session(board, seed=3)
    s.handle("done")
    assert s.sim.app.game.phase == rules.DRAW
    s.handle("draw 4")
    assert s.message.startswith("draw 4: refused: bad-draw: draw 4: draw 1, 2 or 3")
    assert len(s.table.display) == 3  # laid (from the deck) before the deck is emptied
    deck = list(s.table.deck)
    del s.table.deck[:]  # a test's short cut to the end of the deck: nothing taken
    s.handle("draw deck")
    assert s.message == ("draw deck: refused: bad-draw: the deck is empty: draw 1..3 from "
                         "the display")
    s.table.deck[:] = deck


def test_record_writes_a_finished_game_and_one_in_play(board, tmp_path):
    from host_tools.games.kahuna import record, scenwrite
    from host_tools.simulator.engine import run_commands
    from host_tools.simulator.scenario import parse

    s = table_session(board)
    path = tmp_path / "game.scn"
    for line in scenwrite.annotated_game(board, 6).split("\n")[:30]:
        s.handle(line)
    s.handle("record %s" % path)  # a game in play: what is public, stand-ins
    assert s.message == ("record: the game written to %s from what is public, stand-ins "
                         "for its hidden cards (sim --scenario %s replays it)" % (path, path))
    public = path.read_text()
    assert public.startswith(record.PUBLIC_TITLE) and record.STAND_IN in public
    report, failures = run_commands(board, parse(public, board))
    assert failures == [] and report["bridges"] == s.sim.report()["bridges"]
    s.handle("new anyway")
    for line in scenwrite.annotated_game(board, 6).split("\n"):
        s.handle(line)
    before = s.sim.report()
    assert before["phase"] == "over"
    assert "record FILE writes the game as a scenario file" in screen(s)
    s.handle("record %s" % path)
    assert s.message == "record: the game written to %s (sim --scenario %s replays it)" % (
        path, path)
    report, failures = run_commands(board, parse(path.read_text(), board))
    assert failures == []
    assert (report["winner"], report["scores"]) == (before["winner"], before["scores"])
    s.handle("record")
    assert s.message.startswith("record FILE writes the game as a scenario file")
    s.handle("record %s" % (tmp_path / "no" / "dir.scn"))
    assert s.message.startswith("record: cannot write ") and "Traceback" not in s.message
