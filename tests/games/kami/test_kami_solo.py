"""Kami's board players (games/kami/solo.py, setting `ai`) on the host side: the scenario
language's `option ai=...` (an extension of the contract, docs/scenarios.md "Kami") on
both runtimes, the board's seats playing after every command to the end; a malformed
`ai` refused before anything runs."""

import json
import subprocess
import sys

import pytest

from core import board as boardmod
from games.kami import ai
from host_tools.games.kami import scenwrite, simgame, verbs
from host_tools.simulator.engine import Simulation
from host_tools.simulator.scenario import card_names, parse_line
from mpy_runner import ROOT

BOARD = "board_def/kami.json"


def run(args, stdin):
    return subprocess.run([sys.executable, "-m", "host_tools"] + args, input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=600)


def options_lines(settings):
    return ["option %s=%s" % (k, ",".join(v) if isinstance(v, list) else v)
            for k, v in settings.items()]


def person_scenario(settings, person=0):
    """A scenario where the person at `person` plays legal moves (those the board's
    player would choose for it: its own hand and the public table only) and the board
    plays the seats of `ai`, to the end; found by playing it on the simulator
    (CPython), command by command, as the CLI will."""
    sim = Simulation(boardmod.load(ROOT + "/" + BOARD, keep_raw=False))
    cards = card_names(sim.board)
    lines = options_lines(settings)
    started = False
    cmds = [parse_line(x, i + 1, sim.board, cards, False, verbs)
            for i, x in enumerate(lines)]
    for cmd in verbs.finish(cmds, len(lines)):
        sim.execute(cmd)
    g = sim.app.game
    while not g.is_over():
        assert not simgame.boards_turn(sim.app)  # the board played on after the command
        assert ai.acting_seat(g) == person, (g.phase, g.step, ai.acting_seat(g))
        act = ai.choose(g, person)
        line = scenwrite.action_lines(g, act)[0]
        lines.append(line)
        started = True
        sim.execute(parse_line(line, len(lines), sim.board, cards, started, verbs))
        assert sim.rejected == [], (line, sim.rejected)
        assert len(lines) < 600
    return "\n".join(lines) + "\nexpect phase over\nexpect rejected 0\n"


@pytest.mark.parametrize("settings", [
    {"players": 4, "seed": 9, "target": 5, "ai": ["p2", "p3", "p4"]},
    {"players": 3, "seed": 4, "target": 8, "ai": ["p1", "p3"]},  # p1 first: the board opens
    {"players": 2, "seed": 6, "target": 6, "ai": ["p2"]}])
def test_a_scenario_with_option_ai_plays_to_the_end_on_both_runtimes(settings):
    person = next(i for i in range(settings["players"]) if "p%d" % (i + 1) not in settings["ai"])
    text = person_scenario(settings, person)
    outs = []
    for runtime in ("cpython", "micropython"):
        proc = run(["sim", "--game", "kami", "--scenario", "-", "--json",
                    "--runtime", runtime], text)
        assert proc.returncode == 0 and proc.stderr == "", (runtime, proc.stderr)
        outs.append(proc.stdout)
    assert outs[0] == outs[1]  # byte for byte
    r = json.loads(outs[0])
    assert r["phase"] == "over" and r["rejected"] == [] and r["winner"] is not None
    # the board's seats played: cards of theirs lie on the lines, rounds were won
    for seat in settings["ai"]:
        assert r["lines"][seat]["attack"] or any(x["seat"] == seat for x in r["rounds"])


def test_option_ai_in_the_settings_json_form():
    cmds = [[1, "option", "players", 3], [2, "option", "seed", 5],
            [3, "option", "ai", ["p3", "p2"]]]
    out = verbs.finish(cmds, 3)
    assert out[0][3]["ai"] == ["p2", "p3"] and out[0][3]["deal"] == "seed"


@pytest.mark.parametrize("text,line,words", [
    ("option ai=p2,p2\n", 1, "option ai must list seats p1..p4, each once (e.g. p2,p3), "
                             "got 'p2,p2'"),
    ("option ai=p5\n", 1, "option ai must list seats p1..p4, each once"),
    ("option ai=\n", 1, "option ai must list seats p1..p4, each once"),
    ("option ai=p2 p3\n", 1, "usage: option KEY=VALUE"),
    ("option players=3\noption seed=1\noption ai=p4\ntap SOLDAT-1\n", 3,
     "the options disagree: ai: 'p4' is not a seat p1..p3"),
    ("option ai=p2\ntap SOLDAT-1\n", 1,  # K20: at a table the board holds no cards
     "the options disagree: ai needs a known deal (deal=seed or given)"),
    ("option seed=2\ntap SOLDAT-1\noption ai=p2\n", 3, "option after the first tap")])
def test_a_malformed_ai_option_is_refused_and_nothing_runs(text, line, words):
    proc = run(["sim", "--game", "kami", "--scenario", "-", "--json"], text)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("line %d: %s" % (line, words)), proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
