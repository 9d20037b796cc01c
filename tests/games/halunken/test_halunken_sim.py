"""Halunken & Spelunken in the simulator (docs/scenarios.md, "Halunken & Spelunken"): the
scenarios of tests/scenarios/halunken/ on both runtimes against their expected reports,
the report's keys in the contract's order, the exit statuses of a scenario that cannot
be played, the seat colours (H31), the players' summary, and scengen's whole random games
replayed on both runtimes."""

import glob
import json
import os
import re
import subprocess
import sys

import pytest

from host_tools.games.halunken import simreport

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
FOLDER = os.path.join(ROOT, "tests", "scenarios", "halunken")
SCENARIOS = sorted(glob.glob(os.path.join(FOLDER, "*.scn")))
RUNTIMES = ("cpython", "micropython")


def run(command, *args, stdin=None):
    return subprocess.run([sys.executable, "-m", "host_tools", command, "--game", "halunken"]
                          + list(args), input=stdin, capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def sim_json(path, runtime, stdin=None):
    proc = run("sim", "--scenario", path, "--json", "--runtime", runtime, stdin=stdin)
    assert proc.returncode == 0, (runtime, proc.stderr)
    assert proc.stderr == ""
    assert proc.stdout.count("\n") == 1  # exactly one JSON object, nothing else
    return proc.stdout


def test_the_scenarios_are_there():
    names = [os.path.basename(p) for p in SCENARIOS]
    for name in ("example1.scn", "standard-round.scn", "rum-displaced.scn",
                 "nobody-bid.scn", "tactical.scn", "tactical-no-bid.scn", "cursor.scn",
                 "empty-tavern.scn", "power-cuts.scn", "game-standard.scn",
                 "game-tactical.scn", "empty-crew.scn", "empty-port.scn",
                 "table-example1.scn", "table-standard-round.scn",
                 "table-tactical-no-bid.scn"):
        assert name in names


# Rulings no scenario can show, each with the tests that check it instead. H16 (a match of
# `games` games added up) is a setting of the board: the sim contract plays one game and has
# no `games=N` in a scenario (exit 2), so test_halunken_match.py checks it through the rules
# engine and the platform (test_H16_*, test_a_match_through_the_platform_on_micropython).
NOT_IN_A_SCENARIO = {16: ("test_halunken_match.py", "def test_H16_")}


def rulings():
    """The ruling numbers of docs/halunken.md's "Rulings" section, in order."""
    text = open(os.path.join(ROOT, "docs", "halunken.md"), encoding="utf-8").read()
    section = text.split("\n## Rulings\n", 1)[1].split("\n## ", 1)[0]
    return [int(n) for n in re.findall(r"^- \*\*H(\d+)\*\*", section, re.M)]


def cited(path):
    """The rulings a scenario cites in its comments (`# H9 ...`, `... (H13) ...`)."""
    comments = [ln for ln in open(path, encoding="utf-8") if ln.lstrip().startswith("#")]
    return {int(n) for n in re.findall(r"\bH(\d+)\b", "".join(comments))}


def test_every_ruling_is_cited_by_a_scenario():
    """The issue's "a scenario for every ruling": each ruling H1-H33 of docs/halunken.md is
    cited by a scenario of tests/scenarios/halunken/ (every one of them is played against
    its report, below), except those NOT_IN_A_SCENARIO, which name their tests; a scenario
    hNN-*.scn opens with the ruling it shows."""
    numbers = rulings()
    assert numbers == list(range(1, 34))  # the project's copy lists them all, in order
    covered = set()
    for path in SCENARIOS:
        covered |= cited(path)
        name = os.path.basename(path)
        if re.match(r"h\d\d-", name):
            assert open(path, encoding="utf-8").readline().startswith(
                "# H%d:" % int(name[1:3])), name
    missing = [n for n in numbers if n not in covered and n not in NOT_IN_A_SCENARIO]
    assert missing == [], ["H%d" % n for n in missing]
    for n, (module, test) in NOT_IN_A_SCENARIO.items():
        assert n not in covered  # once a scenario shows it, it leaves this list
        with open(os.path.join(os.path.dirname(__file__), module), encoding="utf-8") as f:
            assert test in f.read(), n


def test_every_scenario_has_its_report():
    reports = sorted(glob.glob(os.path.join(FOLDER, "*.json")))
    assert [p[:-5] for p in reports] == [p[:-4] for p in SCENARIOS]


@pytest.mark.parametrize("path", SCENARIOS, ids=[os.path.basename(p) for p in SCENARIOS])
def test_scenario_gives_its_expected_report_on_both_runtimes(path):
    outs = [sim_json(path, runtime) for runtime in RUNTIMES]
    assert outs[0] == outs[1]
    report = json.loads(outs[0])
    assert list(report) == list(simreport.REPORT_KEYS)
    assert list(report)[-1] == "leds"
    with open(path[:-4] + ".json", encoding="utf-8") as f:
        assert report == json.load(f)


def test_report_nested_keys_in_the_contracts_order():
    report = json.loads(sim_json(os.path.join(FOLDER, "standard-round.scn"), "cpython"))
    assert list(report["taverns"]) == ["T%d" % t for t in range(1, 15)]
    assert list(report["taverns"]["T1"]) == ["left", "top"]
    assert list(report["auction"]) == ["opener", "words", "winner"]
    assert list(report["hidden"]) == ["choices", "piles", "bj_deck"]
    assert list(report["rejected"][0]) == ["line", "code", "message"]
    for key in ("captains", "crews", "setup_cards", "played", "scores"):
        assert list(report[key]) == ["p1", "p2", "p3"], key


def test_contract_example1_report():
    """The report the contract prints for its example 1 (given deal, beginner)."""
    r = json.loads(sim_json(os.path.join(FOLDER, "example1.scn"), "cpython"))
    assert (r["phase"], r["round"], r["step"], r["turn"], r["figure"]) == (
        "play", 2, "choose", "p1", "p1")
    assert r["captains"] == {"p1": "T1", "p2": "T6", "p3": "T7"}
    assert r["taverns"]["T1"] == {"left": 1, "top": "RED-1"}
    assert r["taverns"]["T6"] == {"left": 0, "top": None}
    assert r["crews"] == {"p1": ["PURPLE-5", "RED-4"], "p2": ["GREY-6", "GREY-8", "YELLOW-11"],
                          "p3": ["YELLOW-2"]}
    assert r["scores"] == {"p1": 14, "p2": 39, "p3": 4}
    assert r["hidden"]["choices"] == {} and r["hidden"]["bj_deck"] is None
    assert [(x["line"], x["code"]) for x in r["rejected"]] == [
        (19, "not-offered"), (25, "out-of-turn"), (29, "wrong-phase"), (40, "not-in-crew")]


def test_a_failed_expect_is_exit_1_with_the_report():
    text = open(os.path.join(FOLDER, "example1.scn")).read() + "expect scores.p1 15\n"
    proc = run("sim", "--scenario", "-", "--json", stdin=text)
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["scores"]["p1"] == 14
    assert proc.stderr.strip() == "line 50: expect scores.p1 15: got 14"


def given_piles():
    cards = (["RED-%d" % k for k in range(1, 10)] + ["PURPLE-%d" % k for k in range(1, 11)]
             + ["GREY-%d" % k for k in range(1, 12)] + ["YELLOW-%d" % k for k in range(1, 13)])
    return ["option pile.T%d=%s" % (t + 1, ",".join(cards[3 * t:3 * t + 3]))
            for t in range(14)]


BAD = [
    # (scenario, the line named, words of the message)
    ("option deal=table\noption seed=3\n# the piles lie face down\npick T1\n", 3,
     "seed sets deal=seed"),
    ("option deal=table\noption pile.T1=RED-1,RED-2,RED-3\n", 2, "given deal"),
    ("option players=3\noption colour.p4=#FF8000\n", 2, "colours"),
    ("option colour.p5=#FF8000\n", 1, "colour.p1"),
    ("option seed=1\noption players=2\noption mode=beginner\n", 3, "for 3 or 4"),
    ("option players=5\n", 1, "players"),
    ("option mode=expert\n", 1, "mode"),
    ("option games=2\n", 1, "unknown option"),
    ("option seed=x\n", 1, "seed"),
    ("option seed=4\noption players=2\noption mode=standard\npick T1\n", 4, "for 3 or 4"),
    ("option seed=4\noption first=p4\n", 2, "first"),
    ("option seed=4\npick T1\noption players=2\n", 3, "option"),
    ("option seed=4\ntap RED-10\n", 2, "unknown card"),
    ("option seed=4\ntap P1-8\n", 2, "unknown card"),
    ("option seed=4\ntap BJ-13\n", 2, "unknown card"),
    ("option seed=4\npick T15\n", 2, "pick"),
    ("option seed=4\npick 8\n", 2, "pick"),
    ("option seed=4\npick\n", 2, "usage"),
    ("option seed=4\npress jump\n", 2, "unknown button"),
    ("option pile.T1=RED-1,RED-2\n", 1, "3 crew cards"),
    ("option pile.T1=RED-1,RED-2,RED-3\noption pile.T1=RED-4,RED-5,RED-6\n", 2, "twice"),
    ("option pile.T1=RED-1,RED-2,RED-3\noption pile.T2=RED-1,RED-5,RED-6\n", 2,
     "already in pile.T1"),
    ("option pile.T1=RED-1,RED-2,RED-3\npick T1\n", 2, "all 14 piles"),
    ("option seed=3\noption pile.T1=RED-1,RED-2,RED-3\n", 2, "given deal"),
    ("option bj=BJ-1,RED-2\n", 1, "Black-Jack"),
    ("option colour.p1=orange\n", 1, "#RRGGBB"),
]


@pytest.mark.parametrize("text,line,words", BAD, ids=[str(i) for i in range(len(BAD))])
def test_a_scenario_that_cannot_be_played_is_one_line_and_exit_2(text, line, words):
    proc = run("sim", "--scenario", "-", "--json", stdin=text)
    assert proc.returncode == 2, proc.stdout
    assert proc.stdout == ""
    err = proc.stderr.strip()
    assert "\n" not in err and "Traceback" not in err
    assert err.startswith("line %d: " % line), err
    assert words in err, err


def test_a_given_deal_needs_the_right_black_jack_deck():
    piles = "\n".join(given_piles()) + "\n"
    ok = piles + "option mode=beginner\npick T1\nexpect crews.p1.0 RED-1\n"
    assert run("sim", "--scenario", "-", stdin=ok).returncode == 0
    for extra, words in (("", "bj"), ("option bj=P3-1\n", "bj"),
                         ("option mode=beginner\noption bj=BJ-1\n", "beginner")):
        proc = run("sim", "--scenario", "-", stdin=piles + extra + "pick T1\n")
        assert proc.returncode == 2
        assert proc.stderr.startswith("line %d: " % (15 + extra.count("\n"))), proc.stderr
        assert words in proc.stderr


def test_a_table_deal_is_the_default_and_learns_the_cards_it_is_tapped():
    """H33: no deal option is a table; the set-up take is tapped, and a tap of a card
    already in a crew is card-not-available, on both runtimes."""
    text = "option players=4\npick T1\ntap RED-4\npick T2\ntap RED-4\n"
    for runtime in RUNTIMES:
        r = json.loads(sim_json("-", runtime, stdin=text))
        assert (r["deal"], r["step"], r["turn"]) == ("table", "take", "p2")
        assert r["setup_cards"]["p1"] == "RED-4" and r["taverns"]["T1"] == {
            "left": 2, "top": None}
        assert r["hidden"]["piles"] is None and r["hidden"]["bj_deck"] is None
        assert [x["code"] for x in r["rejected"]] == ["card-not-available"]


def test_a_seat_colour_changes_the_leds_and_nothing_else():
    """H31: `option colour.pN` is the seat's light colour; only `leds` changes."""
    text = open(os.path.join(FOLDER, "table-example1.scn")).read()
    lines = text.split("\n")
    at = lines.index("option mode=beginner") + 1
    coloured = "\n".join(lines[:at] + ["option colour.p1=#123456"] + lines[at:])
    plain = json.loads(sim_json("-", "cpython", stdin=text))
    plain_leds = plain.pop("leds")
    for x in plain["rejected"]:
        x["line"] += 1  # one option line more moves the refusals down one line
    for runtime in RUNTIMES:
        other = json.loads(sim_json("-", runtime, stdin=coloured))
        assert other.pop("leds") != plain_leds
        assert other == plain


def test_the_summary_shows_no_secret_choice_and_no_hidden_pile():
    """Mid-choice: the JSON report (a test tool) lists the choice under `hidden`; the
    players' summary says only how many have chosen, and no card below a pile's top."""
    text = "".join(open(os.path.join(FOLDER, "example1.scn")).readlines()[:18])
    text += "pick T1\npick T3\npick T6\ntap P1-5\ntap P2-3\n"
    report = json.loads(sim_json("-", "cpython", stdin=text))
    assert report["hidden"]["choices"] == {"p1": "P1-5", "p2": "P2-3"}
    proc = run("sim", "--scenario", "-", stdin=text)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "chosen so far: 2" in out
    assert "P1-5" not in out and "P2-3" not in out
    assert "T1:2/PURPLE-5" in out  # T1's top card, face up once all took theirs
    assert "RED-1" not in out and "YELLOW-11" not in out  # below the tops: hidden


# beginner 3 players at a table, tactical at a table, beginner 4 players with a seeded
# deal, standard at a table
SEEDS = (1, 2, 3, 7)


@pytest.mark.parametrize("seed", SEEDS)
def test_scengen_game_replays_to_the_same_report_on_both_runtimes(seed, tmp_path):
    gen = run("scengen", "--seed", str(seed))
    assert gen.returncode == 0, gen.stderr
    assert gen.stdout == run("scengen", "--seed", str(seed)).stdout  # the same game
    path = tmp_path / "game.scn"
    path.write_text(gen.stdout)
    outs = [sim_json(str(path), runtime) for runtime in RUNTIMES]
    assert outs[0] == outs[1]
    report = json.loads(outs[0])
    assert report["phase"] == "over" and report["round"] == 8
    assert report["winner"] and all(len(report["played"][s]) == 8 for s in report["played"])
    assert gen.stdout.count("expect round ") == 8


def test_scengen_covers_every_mode():
    modes = set()
    for seed in SEEDS:
        text = run("scengen", "--seed", str(seed)).stdout
        modes.update(line.split("=")[1] for line in text.splitlines()
                     if line.startswith("option mode="))
    assert modes == {"beginner", "standard", "tactical"}
    deals = [("option deal=table" in run("scengen", "--seed", str(seed)).stdout)
             for seed in SEEDS]
    assert deals == [True, True, False, True]  # H33: the table deal's takes as taps


def test_a_broken_scengen_expect_fails(tmp_path):
    text = run("scengen", "--seed", "7").stdout
    lines = text.splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith("expect scores.p1 "))
    lines[i] = "expect scores.p1 999"
    path = tmp_path / "broken.scn"
    path.write_text("\n".join(lines) + "\n")
    proc = run("sim", "--scenario", str(path), "--json")
    assert proc.returncode == 1
    assert proc.stderr.startswith("line %d: expect scores.p1 999: got " % (i + 1))


def test_the_readmes_halunken_scenario_plays_without_a_refusal():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    start = text.index("    option players=3                # 2..4")
    block = text[start:text.index("expect round 2", start) + len("expect round 2")]
    scenario = "\n".join(line[4:] for line in block.splitlines()) + "\n"
    report = json.loads(sim_json("-", "cpython", stdin=scenario))
    assert report["rejected"] == [] and report["round"] == 2


def test_the_scenarios_cover_every_verb_and_every_refusal_code():
    text = "".join(open(p).read() for p in SCENARIOS)
    for word in ("option players=2", "option players=4", "option mode=beginner",
                 "option mode=standard", "option mode=tactical", "option seed=",
                 "option pile.T14=", "option bj=", "option deal=table", "pick T",
                 "pick 4", "tap RED-", "tap BJ-",
                 "tap P1-", "tap uid:", "hold ", "press next", "press prev", "press ok",
                 "press back", "press done", "press discard", "wait ", "power-cut",
                 "expect "):
        assert word in text, word
    for code in ("unknown-card", "wrong-phase", "out-of-turn", "already-chosen",
                 "card-already-played", "not-in-crew", "card-not-available",
                 "bid-too-low", "not-offered"):
        assert "code " + code in text, code


# ------------------------------------------------------------------ terminal play

def play(stdin, *args):
    return run("sim", "--seed", "42", *args, stdin=stdin)


def test_terminal_play_hides_the_secret_choices_until_the_reveal():
    moves = "T1\nT5\nT9\nT3\ndone\ndone\ndone\nP1-4\nP2-77\ntap P2-2\nP3-7\n"
    proc = play(moves, "--players", "3")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Round 1, reveal" in out and "3 movement card(s) chosen, face down" in out
    for said in ("p1 has chosen.", "p2 has chosen.", "p3 has chosen."):
        assert said in out
    for card in ("P1-4", "P2-2", "P3-7", "P2-7"):
        assert card not in out  # not echoed, not shown, not even a mistyped one
    assert out.count("halunken> (hidden)") == 4
    assert "what you typed is not shown" in out
    proc = play(moves + "ok\n", "--players", "3")
    assert proc.returncode == 0, proc.stderr
    assert "played P1-4" in proc.stdout and "Round 2, auction" in proc.stdout


def test_terminal_play_says_a_refusal_and_an_unreadable_line():
    proc = play("T1\nT1\npick T99\nquit\n", "--players", "4", "--mode", "beginner")
    assert proc.returncode == 0, proc.stderr
    assert "refused: not-offered (T1 is not among the options)" in proc.stdout
    assert "pick takes a space T1..T14" in proc.stdout
    assert "4 players, beginner game" in proc.stdout


@pytest.mark.parametrize("args,words", [
    (("--players", "2", "--mode", "standard"), "mode standard is for 3 or 4 players"),
    (("--players", "3", "--scenario", "-"), "--players and --mode are for interactive"),
    (("--players", "3", "--runtime", "micropython"), "runs on CPython"),
])
def test_terminal_play_refuses_bad_settings_in_one_line(args, words):
    proc = play("", *args)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and words in proc.stderr, proc.stderr


def test_kahuna_takes_no_players_option():
    proc = subprocess.run([sys.executable, "-m", "host_tools", "sim", "--players", "3"],
                          input="", capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 2 and proc.stderr == "sim: kahuna takes no --players\n"
