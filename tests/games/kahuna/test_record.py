"""A game record (issue 15): a finished game's journal written as a scenario
(host_tools/games/kahuna/record.py) replays to the same end in the simulator; a game in
play gets a public record instead (stand-ins for its hidden cards)."""

import io
import random

import pytest
from test_sim_fuzz import random_command

from core import board as boardmod
from games.kahuna import rules
from host_tools.games.kahuna import play, record
from host_tools.games.kahuna import scenwrite as scengen
from host_tools.simulator.cli import DEFAULT_BOARD
from host_tools.simulator.engine import JOURNAL, Simulation, run_commands
from host_tools.simulator.scenario import parse

END = ("phase", "winner", "scores", "round_scores", "bridges", "control", "supply")


@pytest.fixture(scope="module")
def board():
    return boardmod.load(DEFAULT_BOARD)


def journal_of(sim):
    return bytes(sim.flash.files[JOURNAL])


def replayed(board, text):
    report, failures = run_commands(board, parse(text, board))
    assert failures == []  # the record's own expect lines hold
    assert report["rejected"] == []
    return report


@pytest.mark.parametrize("seed", [4, 6, 12])
def test_a_finished_game_replays_from_its_record(board, seed):
    sim = Simulation(board)
    sim.run(parse(scengen.annotated_game(board, seed), board))
    before = sim.report()
    assert before["phase"] == "over"
    text = record.scenario(board, journal_of(sim))
    assert text.startswith("# Kahuna: a game record")
    after = replayed(board, text)
    assert {k: after[k] for k in END} == {k: before[k] for k in END}


def sensible(rng, s):
    """A player who mostly moves the game on (random commands alone seldom end a game)."""
    g = s.sim.app.game
    ref = s.sim.app.referee
    if ref.option_names():
        return "pick " + rng.choice(ref.option_names())
    if ref.pending or ref.discarding:
        return rng.choice(["back", "done"])
    if g.phase == rules.PLAY and g.turn == rules.WHITE:
        hand = g.hand("white")
        return ("tap " + rng.choice(hand)) if hand and rng.random() < 0.7 else "done"
    if g.phase == rules.DRAW and g.turn == rules.WHITE:
        return rng.choice(["draw 1", "draw 2", "draw deck", "done"])
    return random_command(rng, s)


def test_a_game_against_the_board_replays_from_its_record(board):
    s = play.Session(board, out=io.StringIO(), unicode=False, ai="black", seed=2, ai_level=1)
    rng = random.Random(2)
    for _ in range(3000):
        if s.sim.app.game.phase == rules.OVER:
            break
        s.handle(sensible(rng, s))
    before = s.sim.report()
    assert before["phase"] == "over"
    text = record.scenario(board, journal_of(s.sim))
    assert "# Played against the board (it played black, level 1)" in text
    assert "option ai" not in text  # both sides' moves, as at one table
    after = replayed(board, text)
    assert {k: after[k] for k in END} == {k: before[k] for k in END}


def test_a_game_in_play_gets_a_public_record(board):
    """Not the finished game's record: one written from what is public, its hidden cards
    stand-ins (tests/games/kahuna/test_record_in_play.py tests it through)."""
    sim = Simulation(board)
    text = scengen.annotated_game(board, 4)
    sim.run(parse("\n".join(text.split("\n")[:40]), board))
    assert sim.report()["phase"] != "over"
    out = record.scenario(board, journal_of(sim))
    assert out.startswith(record.PUBLIC_TITLE + "a game in play")
    assert record.STAND_IN in out


def test_a_journal_that_is_no_game_says_so(board):
    with pytest.raises(record.RecordError, match="no game in these records"):
        record.scenario(board, b"")
    with pytest.raises(record.RecordError, match="no game in these records"):
        record.scenario(board, b"not a journal at all")


def _turn_start(g):
    log = g.turns
    return (g.phase == rules.PLAY and not g.history and g.refill == rules.NOBODY
            and len(log.entries) >= 2 and log.entries[-1][0] != g.turn)


def play_with_takebacks(board, commands, count, upto=None):
    """A simulation of `commands` (to `upto`) in which, now and then at a turn's start,
    the last whole turn is taken back (R12: asked, agreed, walked through) and then
    played again as it was; (the simulation, takebacks made)."""
    sim = Simulation(board)
    starts, i, taken, after_move, refused = [], 0, 0, 0, None
    upto = len(commands) if upto is None else upto
    while i < upto:
        g = sim.app.game
        if taken < count and _turn_start(g) and i > 60 * (taken + 1) and i != refused:
            sim.run(parse("takeback", board))
            if not sim.app.referee.taking_back():  # refused (a round's end came between:
                refused = i  # R12): played on, a later turn is taken back
                starts.clear()
                continue
            while sim.app.referee.taking_back():  # agreed, then each step confirmed
                sim.run(parse("press ok", board))
            taken += 1
            i = starts.pop()  # the turn taken back is played again as it was
            continue
        fresh, seq = g.turns.fresh, sim.app.seq
        sim.run([commands[i]])
        if g.turns.fresh is not None and g.turns.fresh is not fresh:
            starts.append(after_move)  # the turn's first command (a tap before its pick)
        i += 1
        if sim.app.seq != seq:
            after_move = i
    return sim, taken


@pytest.mark.parametrize("seed", [4, 12])
def test_a_game_with_takebacks_is_recorded_as_it_stands(board, seed):
    """R12: a finished game in which turns were taken back is written without them (as a
    score sheet leaves a takeback out) and replays to the same end."""
    commands = parse(scengen.annotated_game(board, seed), board)
    plain = Simulation(board)
    plain.run(commands)
    sim, taken = play_with_takebacks(board, commands, 3)
    assert taken == 3
    data = journal_of(sim)
    assert data.count(b"takeback") == 3
    before = sim.report()
    assert {k: before[k] for k in END} == {k: plain.report()[k] for k in END}
    text = record.scenario(board, data)
    assert "takeback" not in text
    after = replayed(board, text)
    assert {k: after[k] for k in END} == {k: before[k] for k in END}
