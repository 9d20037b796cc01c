"""Kami's board players (games/kami/solo.py, setting `ai`) on the host side: the scenario
language's `option ai=...` (an extension of the contract, docs/scenarios.md "Kami") on
both runtimes, the board's seats playing after every command to the end; a malformed
`ai` refused before anything runs; a solo game to the end in the terminal (`sim --ai`,
driven with scripted input), a person shown only its own hand and never a board seat's
face-down card (8.3); and a solo game to the end on the flashed virtual board."""

import json
import random
import subprocess
import sys
import time

import pytest

from core import board as boardmod
from games.kami import ai, dealing, deck
from host_tools.games.kami import play, scenwrite, simgame, verbs
from host_tools.simulator.engine import Simulation
from host_tools.simulator.scenario import card_names, parse_line
from mpy_runner import ROOT
from vboardkit import BoardLink, flash_vboard

BOARD = "board_def/kami.json"


def run(args, stdin):
    return subprocess.run([sys.executable, "-m", "host_tools"] + args, input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=600)


def options_lines(settings):
    return ["option %s=%s" % (k, ",".join(v) if isinstance(v, list) else v)
            for k, v in settings.items()]


def person_scenario(settings, person=0, cut_every=0):
    """A scenario where the person at `person` plays legal moves (those the board's
    player would choose for it: its own hand and the public table only) and the board
    plays the seats of `ai`, to the end (with a `power-cut` after every `cut_every`
    moves, if set); found by playing it on the simulator (CPython), command by command,
    as the CLI will."""
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
        if cut_every and len(lines) % cut_every == 0 and not g.is_over():
            lines.append("power-cut")  # the board comes back and plays on the same
            sim.execute(parse_line("power-cut", len(lines), sim.board, cards, True, verbs))
            g = sim.app.game
        assert len(lines) < 600
    return "\n".join(lines) + "\nexpect phase over\nexpect rejected 0\n"


@pytest.mark.parametrize("settings,cut_every", [
    ({"players": 4, "seed": 9, "target": 5, "ai": ["p2", "p3", "p4"]}, 0),
    ({"players": 4, "seed": 11, "target": 12, "ai": ["p1", "p2", "p4"]}, 5),  # power cuts
    ({"players": 3, "seed": 4, "target": 8, "ai": ["p1", "p3"]}, 0),  # the board opens
    ({"players": 2, "seed": 6, "target": 6, "ai": ["p2"]}, 0)])
def test_a_scenario_with_option_ai_plays_to_the_end_on_both_runtimes(settings, cut_every):
    person = next(i for i in range(settings["players"]) if "p%d" % (i + 1) not in settings["ai"])
    text = person_scenario(settings, person, cut_every)
    assert ("power-cut" in text) == bool(cut_every)
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


# ------------------------------------------------------------------ terminal play

def sim_with(settings):
    sim = Simulation(boardmod.load(ROOT + "/" + BOARD, keep_raw=False))
    sim.kit.start(settings)
    play.board_moves(sim)
    sim.kit.after()
    return sim


def person_lines(settings, person=0):
    """The person's typed lines for a whole game against the board's seats (the person
    plays as the board's player would for it), found by playing the same game in-process
    through play.run_line, as the terminal will."""
    sim = sim_with(settings)
    cards = card_names(sim.board)
    lines = []
    g = sim.app.game
    while not g.is_over():
        assert ai.acting_seat(g) == person
        act = ai.choose(g, person)
        text = scenwrite.action_lines(g, act)[0]
        said = play.run_line(sim, text, len(lines) + 1, cards)
        assert said is None or said.endswith("laid a defence face down."), (text, said)
        lines.append(text)
        assert len(lines) < 600
    return lines


def test_a_solo_game_plays_to_the_end_in_the_terminal():
    """`sim --game kami --players 4 --ai p2,p3,p4`: the board plays three seats (the
    person's partner p3 among them), the person p1 sees only its own hand."""
    settings = {"players": 4, "seed": 9, "target": 15, "ai": ["p2", "p3", "p4"]}
    lines = person_lines(settings)
    proc = run(["sim", "--game", "kami", "--seed", "9", "--players", "4", "--ai", "p2,p3,p4"],
               "\n".join(lines) + "\nhand\n")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "the board plays p2, p3, p4" in out and "The game is over: won by" in out
    assert "refused" not in out and "Traceback" not in proc.stderr
    assert "p1's hand: " in out  # shown on every screen: the person alone
    for seat in ("p2", "p3", "p4"):
        assert "%s's hand" % seat not in out
        assert "%s (the board) laid a defence face down." % seat in out
        assert "%s (the board) attacks with " % seat in out
    for line in out.splitlines():  # the board's face-down defences: never named (8.3)
        if "(the board) laid a defence" in line:
            assert "-" not in line  # every card name has a dash


def test_the_terminal_shows_a_person_only_its_own_hand():
    """Two persons (p1, p3) and the board's p2, p4: hot seat, `hand` shows the seat to act
    if it is a person's, never the board's."""
    sim = sim_with({"players": 4, "seed": 5, "ai": ["p2", "p4"]})
    g = sim.app.game
    assert play.hand(sim).startswith("p1's hand: ")
    assert play.hand(sim, 1) == "p2 is the board's seat: its hand is its own"
    assert play.own_hand(sim) is None  # two persons: each asks on its turn
    hands = sim.game_def.report(g)["hands"]
    assert play.hand(sim) == "p1's hand: " + " ".join(hands["p1"])
    assert not set(hands["p1"]) & set(hands["p3"])


@pytest.mark.parametrize("ai_arg,words", [("p9", "sim: ai: 'p9' is not a seat p1..p4\n"),
                                          ("p2,p2", "sim: ai names p2 twice\n")])
def test_a_bad_ai_in_the_terminal_is_one_line(ai_arg, words):
    proc = run(["sim", "--game", "kami", "--ai", ai_arg], "")
    assert proc.returncode == 2 and proc.stderr == words and proc.stdout == ""


# ------------------------------------------------------------------ the virtual board

@pytest.fixture
def vboard(tmp_path):
    yield from flash_vboard(tmp_path, BOARD)


def person_play(st, hand):
    """p1's next event from the public state and its own hand (card names): a defence
    (an Empress first: it cannot attack while locked, K4), an attack (not an Empress
    unless it may), a pass (K15), and play on when its partner claims (K11)."""
    if st["phase"] == "claim":
        c = st["claim"]
        if c["step"] == "answer" and c["seat"] == "p3":
            return {"cmd": "press", "button": "back"}
        return None
    if st["phase"] != "play" or st["turn"] != "p1":
        return None
    empresses = [c for c in hand if c.startswith("IMPERATRICE")]
    others = [c for c in hand if c not in empresses]
    if st["step"] == "open":
        return {"cmd": "tap", "card": (empresses or sorted(others))[0]}
    if st["step"] == "attack":
        return {"cmd": "tap", "card": (others or empresses)[0]}
    return {"cmd": "press", "button": "done"}


def test_a_solo_game_plays_to_the_end_on_the_virtual_board(vboard):
    """The flashed firmware, 4 players, a given deal stated over the link (the person
    knows every deal it states but plays from its own hand): the board plays p2, p3 (the
    person's partner) and p4, the person p1 through the link, to the end; the link never
    names a face-down card or a hand (8.3)."""
    link = BoardLink(vboard.port)
    link.send({"cmd": "new", "settings": {"players": 4, "deal": "given", "target": 10,
                                          "ai": ["p2", "p3", "p4"]}})
    link.until(lambda x: x.get("event") == "new")
    rng = random.Random(7)
    hand = []
    deals = plays = 0
    end = time.monotonic() + 240
    while time.monotonic() < end:
        link.send({"cmd": "state"})
        st = link.until(lambda x: x.get("event") == "state")["state"]
        assert "hands" not in st and "hidden" not in st
        if st["phase"] == "over":
            break
        if st["phase"] == "deal":
            cards = list(range(deck.COUNT))
            rng.shuffle(cards)
            hands = [cards[8 * s:8 * s + 8] for s in range(4)]
            hand = [deck.NAMES[c] for c in hands[0]]
            cmd = {"cmd": "pick", "conn": "deal " + dealing.text(hands, None, None)}
            deals += 1
        else:
            cmd = person_play(st, hand)
            if cmd is None:
                time.sleep(0.05)  # the board's seats play
                continue
        line = link.event(cmd)
        assert line["event"] != "refused", (cmd, line)
        if cmd["cmd"] == "tap":
            hand.remove(cmd["card"])
            plays += 1
        seen = json.dumps(line.get("changed") or {})
        assert '"hands"' not in seen
        for c in line.get("changed", {}).get("lines", {}).values():
            assert all(e["card"] is None for e in c["defence"] if e["face"] == "down")
    assert st["phase"] == "over" and st["winner"] is not None
    assert deals >= 2 and plays >= 4  # the person played in more than one round
