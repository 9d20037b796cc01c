"""The simulator as docs/scenarios.md fixes it: the scenario suite on both runtimes, the JSON
report, exit codes, and whole random games through scanner, buttons, referee and view."""

import glob
import json
import os
import subprocess
import sys

import pytest

import gamekit
from games.kahuna import report
from host_tools.games.kahuna import randgame, simreport
from host_tools.games.kahuna import scenwrite as scengen
from host_tools.simulator import engine as simcore
from host_tools.simulator.scenario import parse

ROOT = gamekit.ROOT
SCENARIOS = sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "*.scn")))
# The tour of docs/scenarios.md: a deal and three turns, refusals included.
TOUR = os.path.join(ROOT, "tests", "scenarios", "first-turns.scn")


def run_sim(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "host_tools", "sim"] + list(args),
                          input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=300)


def names(paths):
    return [os.path.basename(p) for p in paths]


@pytest.mark.parametrize("path", SCENARIOS, ids=names(SCENARIOS))
def test_scenario_suite_on_both_runtimes_gives_identical_json(path):
    reports = {}
    for runtime in ("cpython", "micropython"):
        proc = run_sim("--scenario", path, "--json", "--runtime", runtime)
        assert proc.returncode == 0, (runtime, proc.stderr)
        assert proc.stdout.count("\n") == 1  # exactly one JSON object, nothing else
        reports[runtime] = proc.stdout
    assert reports["cpython"] == reports["micropython"]
    report = json.loads(reports["cpython"])
    assert list(report) == list(simreport.REPORT_KEYS)


def test_scenario_suite_covers_every_command_and_rejection_code():
    text = "".join(open(p).read() for p in SCENARIOS)
    for word in ("option variant=alternative", "option first=", "option handicap=", "tap ",
                 "tap uid:", "hold ", "press next", "press prev", "press ok", "press back",
                 "press done", "press discard", "pick ", "wait ", "power-cut", "expect "):
        assert word in text, word
    for code in ("unknown-card", "card-not-in-hand", "card-not-drawable", "hand-full",
                 "must-draw", "no-option", "bad-pair", "not-offered", "wrong-phase"):
        assert "code " + code in text, code


def test_the_documented_example_passes():
    proc = run_sim("--scenario", TOUR, "--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert [r["code"] for r in report["rejected"]] == ["card-not-in-hand", "bad-pair",
                                                       "must-draw"]


def test_scenario_from_standard_input_and_human_summary():
    proc = run_sim("--scenario", "-", stdin="tap HUNA-1\nexpect hands.white 1\n")
    assert proc.returncode == 0
    assert "phase deal" in proc.stdout and "HUNA-1" in proc.stdout


def test_summary_of_a_finished_game_names_no_player_to_play():
    proc = run_sim("--scenario", os.path.join(gamekit.ROOT, "tests", "scenarios",
                                              "game-early-end.scn"))
    assert proc.returncode == 0, proc.stderr
    first = proc.stdout.splitlines()[0]
    assert first.startswith("phase over, round ") and "the game is over" in first
    assert "to play" not in proc.stdout


def test_failed_expect_exits_1_and_still_prints_the_report():
    proc = run_sim("--scenario", "-", "--json", stdin="tap HUNA-1\nexpect hands.white 2\n")
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["hands"]["white"] == ["HUNA-1"]
    assert "line 2: expect hands.white 2: got 1 entries" in proc.stderr


@pytest.mark.parametrize("text,line,words", [
    ("tap HUNA-1\njump\n", 2, "unknown command 'jump'"),
    ("tap HUNA-3\n", 1, "unknown card 'HUNA-3'"),
    ("tap HUNA-1\noption variant=standard\n", 2, "option after the first tap"),
    ("hold HUNA-1 soon\n", 1, "bad duration"),
    ("press sideways\n", 1, "unknown button"),
    ("pick BARI-ALOA\n", 1, "did you mean ALOA-BARI"),
    ("tap uid:XYZ\n", 1, "bad tag"),
    ("option variant=chaos\n", 1, "option variant must be"),
    ("option handicap=white:4\n", 1, "option handicap must be"),
    ("# fine\n\nexpect phase\n", 3, "usage: expect PATH VALUE"),
])
def test_unreadable_scenarios_exit_2_with_the_line(text, line, words):
    proc = run_sim("--scenario", "-", "--json", stdin=text)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith("line %d: " % line) and words in proc.stderr


def test_missing_scenario_file_and_broken_board_exit_2(tmp_path):
    proc = run_sim("--scenario", str(tmp_path / "nope.scn"), "--json")
    assert proc.returncode == 2 and proc.stdout == "" and "cannot read" in proc.stderr
    bad = tmp_path / "board.json"
    bad.write_text("{not json")
    proc = run_sim("--scenario", "-", "--board", str(bad), stdin="tap HUNA-1\n")
    assert proc.returncode == 2 and proc.stdout == "" and "board" in proc.stderr


def random_game_scenario(seed):
    rng = randgame.Rng(seed)
    settings = randgame.random_settings(rng)
    game = gamekit.new_game(**settings)
    actions = randgame.play_game(game, seed)
    return scengen.game_scenario(settings, actions), report.game(game)


def test_random_games_through_the_simulator_match_the_rules_engine():
    board = gamekit.board()
    for seed in range(12):
        text, expected = random_game_scenario(seed)
        report, failures = simcore.run_commands(board, parse(text, board))
        assert failures == []
        assert report["rejected"] == [], (seed, report["rejected"][:3])
        for key in expected:
            assert report[key] == expected[key], (seed, key)


def test_random_games_give_the_same_report_on_both_runtimes(tmp_path):
    for seed in (100, 101, 102, 103):
        text, expected = random_game_scenario(seed)
        path = tmp_path / ("game%d.scn" % seed)
        path.write_text(text)
        out = {}
        for runtime in ("cpython", "micropython"):
            proc = run_sim("--scenario", str(path), "--json", "--runtime", runtime)
            assert proc.returncode == 0, proc.stderr
            out[runtime] = proc.stdout
        assert out["cpython"] == out["micropython"]
        report = json.loads(out["cpython"])
        assert report["phase"] == "over" and report["winner"] == expected["winner"]


# ---------------------------------------------------------------- lights


def frames_after(text, extra_ms=2400, step=20):
    """Every frame sent to the strip during `extra_ms` after the scenario, plus the report."""
    board = gamekit.board()
    s = simcore.Simulation(board)
    s.run(parse(text, board))
    frames = [bytes(s.np.sent)]
    for _ in range(extra_ms // step):
        s.advance(step)
        frames.append(bytes(s.np.sent))
    return frames, s.report()


DEAL = "tap HUNA-1\ntap ELAI-1\ntap DUDA-1\ntap ALOA-1\ntap DUDA-2\ntap ELAI-2\n"


@pytest.mark.parametrize("before,tap_a,tap_b", [
    ("", "tap HUNA-1", "tap KAHU-2"),  # dealing
    (DEAL + "press done\n", "tap JOJO-1", "tap LALE-2"),  # drawing
    (DEAL + "press discard\n", "tap HUNA-1", "tap DUDA-1"),  # discarding
    (DEAL + "press done\n", "tap ALOA-1", "tap ELAI-2"),  # a refused draw
])
def test_privacy_frames_do_not_depend_on_the_card(before, tap_a, tap_b):
    a, _ = frames_after(before + tap_a + "\n")
    b, _ = frames_after(before + tap_b + "\n")
    assert a == b


def scaled(colour, board):
    k = int(board.brightness * 256 + 0.5)
    return [(v * k) >> 8 for v in colour]


def test_after_two_seconds_the_leds_show_owners_and_controllers():
    board = gamekit.board()
    text = DEAL + "tap HUNA-1\npick HUNA-LALE\ntap DUDA-1\npick ALOA-DUDA\n" \
        "tap ELAI-1\ntap HUNA-2\nwait 2000\n"  # HUNA-2 is black's: an error flash first
    _, report = frames_after(text, extra_ms=0)
    leds = report["leds"]
    assert len(leds) == board.led_count
    pending_island = board.island_led[board.island_index["ELAI"]]
    for k, conn in enumerate(board.connections):
        led = leds[board.conn_led[k]]
        if conn in report["bridges"]:
            assert led == scaled(board.palette[report["bridges"][conn]], board), conn
    for i, island in enumerate(board.islands):
        if board.island_led[i] == pending_island:
            continue  # ELAI-1 is pending: its island pulses
        want = board.palette.get("uncontrolled") if island not in report["control"] else \
            board.palette[report["control"][island]]
        assert leds[board.island_led[i]] == scaled(want, board), island
    # Free connections and uncontrolled islands look unlike both players.
    players = (scaled(board.palette["white"], board), scaled(board.palette["black"], board))
    free = leds[board.conn_led[board.conn_index["JOJO-KAHU"]]]
    assert free not in players
    assert leds[board.island_led[board.island_index["KAHU"]]] not in players


def test_a_refusal_flashes_then_ends_within_two_seconds():
    frames, _ = frames_after(DEAL + "tap ALOA-1\n", extra_ms=2000)
    board = gamekit.board()
    err = board.status_leds["error"]
    lit = [f[3 * err:3 * err + 3] != b"\0\0\0" for f in frames]
    assert any(lit[:10])
    assert not any(lit[-50:])


@pytest.mark.parametrize("runtime", ["cpython", "micropython"])
def test_privacy_the_reported_frame_after_a_draw_is_the_same_for_any_card(runtime, tmp_path):
    leds = set()
    for card in ("JOJO-1", "LALE-2", "KAHU-1", "GOLA-2"):
        path = tmp_path / ("draw-%s.scn" % card)
        path.write_text(DEAL + "press done\ntap %s\n" % card)
        proc = run_sim("--scenario", str(path), "--json", "--runtime", runtime)
        assert proc.returncode == 0, proc.stderr
        leds.add(json.dumps(json.loads(proc.stdout)["leds"]))
    assert len(leds) == 1
