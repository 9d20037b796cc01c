"""Kami in the simulator (docs/scenarios.md, "Kami", the simulator contract for Kami
in the repository's words): the scenarios of tests/scenarios/kami/ against their expected
reports on CPython and a sample on the MicroPython unix port, the contract's example
report, the report's keys in the contract's order, the exit statuses of a scenario that
cannot be played, the players' summary (no hidden card), scengen's whole random games
replayed on both runtimes, and a whole game in the terminal play (hot seat)."""

import glob
import json
import os
import re
import subprocess
import sys

import pytest

from games.kami import deck, game
from host_tools.games.kami import randgame, scenwrite, simreport

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
FOLDER = os.path.join(ROOT, "tests", "scenarios", "kami")
SCENARIOS = sorted(glob.glob(os.path.join(FOLDER, "*.scn")))
RUNTIMES = ("cpython", "micropython")


def run(command, *args, stdin=None):
    return subprocess.run([sys.executable, "-m", "host_tools", command, "--game", "kami"]
                          + list(args), input=stdin, capture_output=True, text=True,
                          cwd=ROOT, timeout=600)


def sim_json(path, runtime, stdin=None):
    proc = run("sim", "--scenario", path, "--json", "--runtime", runtime, stdin=stdin)
    assert proc.returncode == 0, (runtime, proc.stderr)
    assert proc.stderr == ""
    assert proc.stdout.count("\n") == 1  # exactly one JSON object, nothing else
    return proc.stdout


def scenario_text():
    return "".join(open(p, encoding="utf-8").read() for p in SCENARIOS)


def test_every_ruling_and_worked_example_has_its_scenario():
    names = [os.path.basename(p) for p in SCENARIOS]
    for name in ("kami-4p-round.scn", "example2-3p-end.scn", "example2-counter-ending.scn",
                 "example3-2p-centre.scn", "power-cuts.scn"):
        assert name in names
    for k in range(1, 23):  # K1..K22, each named in the comments of its own scenario
        own = [p for p in SCENARIOS if os.path.basename(p).startswith("k%02d-" % k)]
        assert own, "K%d" % k
        for p in own:
            assert re.search(r"^# K%d\b" % k, open(p).read(), re.M), p


@pytest.mark.parametrize("path", SCENARIOS, ids=[os.path.basename(p) for p in SCENARIOS])
def test_scenario_gives_its_expected_report(path):
    outs = [sim_json(path, runtime) for runtime in RUNTIMES]  # every one: 0.15 s on the port
    assert len(set(outs)) == 1  # byte for byte the same on both runtimes
    report = json.loads(outs[0])
    assert list(report) == list(simreport.REPORT_KEYS)
    with open(path[:-4] + ".json", encoding="utf-8") as f:
        assert report == json.load(f)


def test_the_contracts_example_report():
    """The report sim-contract-kami.md prints for kami-4p-round.scn (without `leds`)."""
    r = json.loads(sim_json(os.path.join(FOLDER, "kami-4p-round.scn"), "cpython"))
    leds = r.pop("leds")
    assert len(leds) == 62 and all(len(p) == 3 for p in leds)
    for x in r["rejected"]:
        x["message"] = "..."
    down, up = "down", "up"

    def c(card, face=up):
        return {"card": card, "face": face, "from": "hand"}

    assert r == {
        "game": "kami", "players": 4, "mode": "soldat", "target": 15, "deal": "table",
        "phase": "play", "round": 1, "first": "p1", "turn": "p4", "step": "respond",
        "attack": {"seat": "p3", "card": "OR-2"}, "passed": [], "empress_unlocked": True,
        "lines": {"p1": {"defence": [c("SOLDAT-3", down)], "attack": [c("SOLDAT-1")]},
                  "p2": {"defence": [c("SOLDAT-2")], "attack": [c("OR-1")]},
                  "p3": {"defence": [c("IMPERATRICE-1"), c("OR-3", down)],
                         "attack": [c("LANCE-1"), c("OR-2")]},
                  "p4": {"defence": [], "attack": []}},
        "hand_sizes": {"p1": 6, "p2": 6, "p3": 4, "p4": 8},
        "hands": None, "centre": None, "claim": None,
        "scores": {"p1+p3": 0, "p2+p4": 0}, "rounds": [], "winner": None,
        "hidden": {"aside": None, "centre": None},
        "rejected": [{"line": 14, "code": "not-a-counter", "message": "..."},
                     {"line": 20, "code": "not-a-counter", "message": "..."}]}


def test_report_nested_keys_in_the_contracts_order():
    r = json.loads(sim_json(os.path.join(FOLDER, "example3-2p-centre.scn"), "cpython"))
    assert list(r["lines"]) == ["p1", "p2"]
    assert list(r["lines"]["p1"]) == ["defence", "attack"]
    assert list(r["rounds"][0]) == ["round", "first", "seat", "side", "card", "defence",
                                    "doubled", "points", "scores"]
    assert list(r["rounds"][0]["defence"]) == ["card", "face"]
    assert list(r["centre"][0]) == ["up", "left"]
    assert list(r["hidden"]) == ["aside", "centre"]
    assert list(r["rejected"][0]) == ["line", "code", "message"]
    r = json.loads(sim_json(os.path.join(FOLDER, "kami-4p-round.scn"), "cpython"))
    assert list(r["lines"]["p3"]["defence"][0]) == ["card", "face", "from"]
    assert list(r["scores"]) == ["p1+p3", "p2+p4"]
    assert list(r["attack"]) == ["seat", "card"]


def test_the_contracts_given_deal_ending():
    r = json.loads(sim_json(os.path.join(FOLDER, "example2-3p-end.scn"), "cpython"))
    assert r["rounds"][0] == {
        "round": 1, "first": "p1", "seat": "p2", "side": "p2", "card": "IMPERATRICE-2",
        "defence": {"card": "IMPERATRICE-1", "face": "down"}, "doubled": True, "points": 10,
        "scores": {"p1": 0, "p2": 10, "p3": 0}}
    assert (r["phase"], r["winner"], r["turn"], r["step"]) == ("over", "p2", None, None)


def test_the_k19_frame_light_by_light():
    """K19: the lights of k19-lights.scn's last frame, in the palette's colours."""
    r = json.loads(sim_json(os.path.join(FOLDER, "k19-lights.scn"), "cpython"))
    with open(os.path.join(ROOT, "board_def", "kami.json")) as f:
        palette = json.load(f)["palette"]
    leds = r["leds"]

    def same_hue(rgb, name):  # the palette's colour at some brightness
        want = palette[name]
        return max(rgb) > 0 and all(abs(a / max(rgb) - b / max(want)) < 0.05
                                    for a, b in zip(rgb, want))

    assert same_hue(leds[5], "defence_down")  # p2's defence, face down
    assert same_hue(leds[6], "defence_up")  # p3's, face up (its counter)
    assert leds[4] == leds[7] == [0, 0, 0]  # p1 and p4 have no defence this round
    assert same_hue(leds[8], "empress")  # unlocked
    assert same_hue(leds[2], "team1")  # p3, the attacker
    assert max(leds[3]) > 0 and leds[0] == leds[1] == [0, 0, 0]
    assert all(max(p) == 0 for p in leds[9:17])  # no centre in 4 players
    assert [max(p) > 0 for p in leds[17:32]] == [True] * 2 + [False] * 13  # 2 points
    assert all(max(p) == 0 for p in leds[32:62])  # p2+p4 0 points, no third track


def test_a_failed_expect_is_exit_1_with_the_report():
    text = open(os.path.join(FOLDER, "kami-4p-round.scn")).read() + "expect turn p1\n"
    proc = run("sim", "--scenario", "-", "--json", stdin=text)
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["turn"] == "p4"
    n = text.count("\n")
    assert proc.stderr.strip() == "line %d: expect turn p1: got p4" % n


ALL = ",".join(deck.NAMES)
HANDS4 = " ".join("p%d:%s" % (s + 1, ",".join(deck.NAMES[8 * s:8 * s + 8]))
                  for s in range(4))
BAD = [
    # (scenario, the line named, words of the message)
    ("option players=5\n", 1, "players"),
    ("option mode=expert\n", 1, "mode"),
    ("option target=16\n", 1, "target"),
    ("option target=0\n", 1, "target"),
    ("option deal=random\n", 1, "deal"),
    ("option seed=x\n", 1, "seed"),
    ("option seed=2147483648\n", 1, "seed"),
    ("option colour.p1=#FF8000\n", 1, "unknown option"),
    ("option players\n", 1, "KEY=VALUE"),
    ("option players=3\noption first=p4\n", 2, "first=p4"),
    ("option first=p4\noption players=2\n", 2, "first=p4"),
    ("option deal=table\noption seed=3\n", 2, "seed sets deal=seed"),
    ("tap SOLDAT-1\noption players=3\n", 2, "option"),
    ("press done\noption players=3\n", 2, "option"),
    ("option deal=given\ndeal %s\noption players=4\n" % HANDS4, 3, "option"),
    ("tap SOLDAT-11\n", 1, "unknown card"),
    ("tap KING-1\n", 1, "unknown card"),
    ("hold OR-1 soon\n", 1, "duration"),
    ("pick p5\n", 1, "pick takes a seat"),
    ("pick 2\n", 1, "pick takes a seat"),
    ("pick\n", 1, "usage"),
    ("press jump\n", 1, "unknown button"),
    ("deal\n", 1, "usage: deal"),
    ("option deal=given\ndeal p1:SOLDAT-1\n", 2, "deal:"),
    ("option deal=given\ndeal %s p5:OR-1\n" % HANDS4, 2, "deal:"),
    ("option deal=given\ndeal %s\n" % HANDS4.replace("SOLDAT-2", "SOLDAT-1"), 2, "twice"),
    ("option deal=given\ndeal %s aside:%s\n" % (HANDS4, ALL.split(",")[0]), 2, "aside"),
    ("option deal=given\noption players=2\ndeal %s\n" % HANDS4, 3, "deal:"),
    ("option deal=given\noption players=3\ndeal p1:OR-1,OR-2 p2:OR-3 p3:OR-4\n", 3, "10"),
    ("option deal=given\ndeal %s p1:OR-1\n" % HANDS4, 2, "twice"),
    ("option deal=given\ndeal %s centre:OR-1\n" % HANDS4, 2, "deal:"),
    ("jump p1\n", 1, "unknown command"),
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


def test_a_well_formed_deal_outside_phase_deal_is_wrong_phase():
    for options in ("", "option seed=4\n"):
        proc = run("sim", "--scenario", "-", "--json", stdin=options + "deal %s\n" % HANDS4)
        assert proc.returncode == 0, proc.stderr
        r = json.loads(proc.stdout)
        assert [x["code"] for x in r["rejected"]] == ["wrong-phase"]
        assert r["phase"] == "play" and r["round"] == 1
        if options:  # the seed's own deal stays
            assert sorted(len(h) for h in r["hands"].values()) == [8, 8, 8, 8]
        else:
            assert r["hands"] is None


def test_the_scenarios_cover_every_verb_and_refusal_code():
    text = scenario_text()
    for word in ("option players=2", "option players=3", "option players=4",
                 "option mode=soldat", "option mode=seigneur", "option mode=kami",
                 "option first=", "option target=", "option deal=given", "option deal=table",
                 "option seed=", "\ndeal p1:", "aside:", "centre:", "pick p", "tap uid:",
                 "hold ", "press next", "press prev", "press ok", "press back",
                 "press done", "press discard", "wait ", "power-cut", "expect "):
        assert word in text, word
    for code in ("unknown-card", "wrong-phase", "card-already-played", "card-not-in-hand",
                 "not-a-counter", "last-card-defence", "empress-locked", "no-claim"):
        assert "code " + code in text, code


def test_the_summary_shows_no_hidden_card():
    """The JSON report (a test tool) names face-down defences, hands and hidden centre
    cards; the players' summary never does."""
    path = os.path.join(FOLDER, "k13-centre.scn")
    report = json.loads(sim_json(path, "cpython"))
    proc = run("sim", "--scenario", path)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    hidden = [e["card"] for line in report["lines"].values() for e in line["defence"]
              if e["face"] == "down"]
    hidden += [c for h in report["hands"].values() for c in h]
    hidden += [c for c in report["hidden"]["centre"] if c]
    assert hidden
    for card in hidden:
        # a refusal's message may name a card its seat tapped; the table shows none
        assert card not in "\n".join(x for x in out.splitlines() if "refused" not in x), card
    assert "(face down)" in out and "centre: 1:TOUR-1/1" in out


# ------------------------------------------------------------------ scengen

SEEDS = (1, 2, 3, 4, 11)  # given 3p, table 2p, seed 4p, seed 2p, table 2p; more below


def settings_of(text):
    opts = dict(line[7:].split("=") for line in text.splitlines()
                if line.startswith("option "))
    return opts.get("players"), "seed" if "seed" in opts else opts["deal"]


def test_scengen_covers_every_deal_and_player_count():
    kinds = set()
    for seed in SEEDS + (5, 6, 12):
        kinds.add(settings_of(run("scengen", "--seed", str(seed)).stdout))
    assert {k[1] for k in kinds} == {"table", "given", "seed"}
    assert {k[0] for k in kinds} == {"2", "3", "4"}


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
    assert report["phase"] == "over" and report["winner"] is not None
    assert gen.stdout.count("expect rounds ") == len(report["rounds"])


def test_a_broken_scengen_expect_fails(tmp_path):
    text = run("scengen", "--seed", "3").stdout
    lines = text.splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith("expect scores."))
    lines[i] = lines[i].rsplit(" ", 1)[0] + " 99"
    path = tmp_path / "broken.scn"
    path.write_text("\n".join(lines) + "\n")
    proc = run("sim", "--scenario", str(path), "--json")
    assert proc.returncode == 1
    assert proc.stderr.startswith("line %d: expect scores." % (i + 1))


# ------------------------------------------------------------------ terminal play

def whole_game(seed, players):
    """A whole game's commands as a player types them (bare words), with `hand` asked at
    every opening and replay, and per command the face-down cards on the table after it."""
    settings = {"players": players, "seed": seed}
    g = game.new_state(None, settings)
    rng = randgame.Rng(seed)
    typed, down = [], []
    while not g.is_over():
        if g.phase == "play" and g.step == "open" and g.reveal < 0:
            typed.append("hand")
            down.append(set(c for line in g.lines for e in line[0] if not e[1]
                            for c in [deck.NAMES[e[0]]]))
        act = rng.choice(randgame.choices(g, rng))
        line = scenwrite.action_lines(g, act)[0]
        typed.append(line.split(" ", 1)[1] if line.startswith(("tap ", "press ")) else line)
        g.apply(act)
        down.append(set(deck.NAMES[e[0]] for line in g.lines for e in line[0] if not e[1]))
    return typed, down, g


@pytest.mark.parametrize("seed,players", [(5, 4), (6, 2)])
def test_terminal_play_plays_a_whole_game_hiding_face_down_cards(seed, players):
    typed, down, g = whole_game(seed, players)
    proc = run("sim", "--players", str(players), "--seed", str(seed),
               stdin="\n".join(typed) + "\nquit\n")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    winner = ("p1+p3", "p2+p4")[g.winner] if players == 4 else "p%d" % (g.winner + 1)
    assert "The game is over: won by %s." % winner in out
    assert "refused" not in out
    # one screen per typed line: after each, no face-down card on the table is named
    screens = out.split("kami> ")[1:]
    assert len(screens) == len(typed) + 1
    laid = 0
    for text, cards, screen in zip(typed, down, screens):
        if text == "hand":
            assert "'s hand: " in screen
        elif "laid a defence face down" in screen:
            laid += 1
            assert screen.startswith("(hidden)")  # the card typed is not echoed
        # (past rounds' lines name their final cards: public since, K21)
        now = "\n".join(x for x in screen.splitlines() if not x.startswith("  round "))
        for card in cards:
            assert not re.search(r"\b%s\b" % card, now), (text, card)
    assert laid == typed.count("hand") > 0  # every opening and replay laid face down
    assert "'s hand: " in out


def test_terminal_play_refuses_what_it_cannot_do_in_one_line():
    for args, words in ((("--ai", "white"), "ai: 'white' is not a seat p1..p4"),
                        (("--mode", "standard"), "kami takes no --mode"),
                        (("--runtime", "micropython"), "runs on CPython")):
        proc = run("sim", "--seed", "1", *args, stdin="")
        assert proc.returncode == 2 and proc.stdout == "", proc.stdout
        assert proc.stderr.count("\n") == 1 and words in proc.stderr, proc.stderr


def test_terminal_play_says_a_refusal_and_an_unreadable_line():
    proc = run("sim", "--players", "3", "--seed", "1",
               stdin="discard\nSOLDAT-99\nhelp\npower-cut\nexpect hands.p2.0 X\n"
                     "option players=2\ndeal p1:OR-1\nquit\n")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "refused: no-claim (the 5-Soldier rule is for 4 players only (K11))" in out
    assert out.count("p1 laid a defence face down") == 0  # nothing was laid
    assert "neither a card of this game nor a command (what you typed is not shown)" in out
    assert "SOLDAT-99" not in out
    assert "hand              show the hand of the seat to act" in out
    assert "Kami, 3 players" in out
    assert "expect is for scenarios: it could tell a hidden card" in out
    assert "options are settings" in out and "no deal to state" in out


@pytest.mark.micropython
def test_randgame_plays_the_same_game_on_micropython(mpy):
    """randgame's own PRNG: a seed gives the same actions on both runtimes (a host tool:
    the simulator's heap, not the chip's, holds a whole game's actions)."""
    from host_tools.mpy import SIM_HEAP
    from mpy_runner import MicroPython
    mpy = MicroPython(heap_kib=int(SIM_HEAP.rstrip("M")) * 1024)
    script = (
        "from host_tools.games.kami import randgame\n"
        "rng = randgame.Rng(%d)\n"
        "s = randgame.random_settings(rng, deal='given', players=%d)\n"
        "acts = randgame.play(randgame.new_game(s), rng)\n"
        "print(len(acts), [list(a) for a in acts[-6:]])\n")
    for seed, players in ((4, 2), (9, 3)):
        rng = randgame.Rng(seed)
        s = randgame.random_settings(rng, deal="given", players=players)
        acts = randgame.play(randgame.new_game(s), rng)
        want = "%d %s" % (len(acts), [list(a) for a in acts[-6:]])
        assert mpy.run_code(script % (seed, players)).strip() == want
