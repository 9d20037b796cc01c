"""`--game NAME` on the commands that play or show a game (host_tools/gamearg.py) and the
host registry behind it (host_tools/games/): the default game is the board definition's,
`--game kahuna` gives the very same bytes, and a game without host parts, or an unknown
name, is one line and exit status 2, never a traceback."""

import json
import os
import subprocess
import sys

import pytest

from host_tools import gamearg
from host_tools import games as hostgames
from mpy_runner import ROOT

SCENARIO = os.path.join(ROOT, "tests", "scenarios", "draw.scn")


def run(*args):
    return subprocess.run([sys.executable, "-m", "host_tools"] + list(args), cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def same_output(a, b):
    pa, pb = run(*a), run(*b)
    assert pa.returncode == 0, pa.stderr
    assert (pa.returncode, pa.stdout, pa.stderr) == (pb.returncode, pb.stdout, pb.stderr)
    return pa.stdout


def test_sim_with_game_kahuna_is_byte_for_byte_the_default():
    out = same_output(["sim", "--scenario", SCENARIO, "--json"],
                      ["sim", "--game", "kahuna", "--scenario", SCENARIO, "--json"])
    assert list(json.loads(out))[:2] == ["phase", "round"]
    same_output(["sim", "--scenario", SCENARIO],
                ["sim", "--game", "kahuna", "--scenario", SCENARIO])


def test_scengen_with_game_and_seed_option_is_the_old_spelling():
    out = same_output(["scengen", "11"], ["scengen", "--game", "kahuna", "--seed", "11"])
    assert out.startswith("# A whole random game (seed 11)")
    assert run("scengen", "--seed", "11").stdout == out
    assert run("scengen", "--game", "kahuna", "11").stdout == out
    proc = run("scengen", "11", "--seed", "12")
    assert proc.returncode == 2 and "give the seed once" in proc.stderr


# Each command with --game and what else it needs to get as far as choosing the game.
COMMANDS = [
    ["sim", "--scenario", SCENARIO],
    ["sim"],
    ["scengen", "1"],
    ["soak", "--games", "1"],
    ["duel", "--white", "ai", "--black", "greedy"],
    ["bench"],
    ["monitor", "--port", "/dev/null"],
    ["vboard", "--no-prompt"],
    ["web", "--port", "/dev/null"],
    ["web", "--build"],
]


# The virtual board needs only the firmware and a board definition: Halunken and Kami have
# both (tests/games/halunken/test_halunken_vboard.py, tests/games/kami/test_kami_vboard.py
# play them there). Their host packages have the simulator's parts and scengen's
# (tests/games/halunken/test_halunken_sim.py, tests/games/kami/test_kami_sim.py) and the
# terminal play (`sim` without a scenario); both the duel (tests/games/halunken/
# test_halunken_ai.py, tests/games/kami/test_kami_ai.py, their own options); both also
# the web page's (`web --build`, tests/games/halunken/test_halunken_web*.py,
# tests/games/kami/test_kami_web*.py).
SIM_HAS = (["sim", "--scenario", SCENARIO], ["sim"], ["scengen", "1"])
DUEL = ["duel", "--white", "ai", "--black", "greedy"]
HAS = {"halunken": SIM_HAS + (DUEL, ["web", "--build"]),
       "kami": SIM_HAS + (DUEL, ["web", "--build"])}
WITHOUT = [(command, game) for game in ("halunken", "kami") for command in COMMANDS
           if command[0] != "vboard" and command not in HAS[game]]


@pytest.mark.parametrize("command,game", WITHOUT, ids=lambda c: " ".join(c[:2])
                         if isinstance(c, list) else c)
def test_a_game_without_host_parts_is_one_line_and_status_2(command, game):
    proc = run(*(command + ["--game", game]))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stdout == ""  # nothing ran
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(command[0] + ": " + game + " has no "), lines[0]
    assert ("host_tools/games/%s/ does not provide" % game in lines[0]
            or "board_def/%s.json" % game in lines[0])


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:2]))
def test_an_unknown_game_lists_the_games(command):
    proc = run(*(command + ["--game", "chess"]))
    assert proc.returncode == 2 and proc.stdout == "" and "Traceback" not in proc.stderr
    assert proc.stderr == "%s: unknown game 'chess' (the games: %s)\n" % (
        command[0], ", ".join(gamearg.known()))
    assert "kahuna" in gamearg.known() and "halunken" in gamearg.known()


def test_the_default_game_is_the_board_definitions(tmp_path):
    # A board definition for a game without a simulator: the default follows the board.
    with open(os.path.join(ROOT, "board_def", "kahuna.json")) as f:
        raw = json.load(f)
    raw["game"] = "kami"
    path = tmp_path / "kami.json"
    path.write_text(json.dumps(raw))
    proc = run("soak", "--board", str(path), "--games", "1")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("soak: kami has no soak yet (host_tools/games/kami/")
    # ... and --game must agree with the board given.
    raw["game"] = "halunken"
    path.write_text(json.dumps(raw))
    proc = run("sim", "--game", "kahuna", "--board", str(path), "--scenario", SCENARIO)
    assert proc.returncode == 2
    assert proc.stderr == "sim: %s is a board for halunken, not kahuna\n" % path


# ------------------------------------------------------------------ the registry

def test_kahuna_provides_every_part_a_command_needs():
    have = hostgames.provides("kahuna")
    for command, (_, needs) in gamearg.NEEDS.items():
        assert set(needs) <= set(have), command
        gamearg.check("kahuna", command)  # no NoGame


def test_each_listed_part_is_a_module_of_the_games_host_package():
    for game in gamearg.known():
        for name in hostgames.provides(game):
            assert name in gamearg.PARTS, (game, name)
            assert os.path.isfile(os.path.join(ROOT, "host_tools", "games", game,
                                               name + ".py")), (game, name)
            module = hostgames.part(game, name)
            assert module.__name__ == "host_tools.games.%s.%s" % (game, name)


def test_a_part_not_provided_or_a_bad_name_is_refused():
    assert hostgames.provides("chess") == ()
    assert hostgames.provides("../kahuna") == ()
    with pytest.raises(hostgames.NoGame, match=r"kami does not provide textboard \("
                                               r"host_tools/games/kami/textboard.py\)"):
        hostgames.part("kami", "textboard")
    with pytest.raises(hostgames.NoGame, match=r"halunken does not provide narrate \("
                                               r"host_tools/games/halunken/narrate.py\)"):
        hostgames.part("halunken", "narrate")
    with pytest.raises(hostgames.NoGame, match="unknown game 'Kahuna'"):
        gamearg.check("Kahuna", "sim")
