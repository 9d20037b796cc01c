"""Random Kami games (tests/mp/kami_random.py) on CPython and inside MicroPython: every
invariant after every action, refused probes change nothing, the same seeds give the
same games on both runtimes; snapshot/restore round trips mid-game."""

import importlib.util
import os

from games.kami import report, rules

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "mp", "kami_random.py")


def _load():
    spec = importlib.util.spec_from_file_location("kami_random", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


kr = _load()


def test_random_games_keep_every_invariant_and_end_on_cpython():
    kinds = set()
    refused = 0
    for seed in range(400):
        line, r = kr.play(seed)
        refused += r
        f = line.split()
        assert f[-1] != "-1", line  # every game ended with a winner
        kinds.add((f[1], f[2], f[4]))
    # every player count, mode and deal met
    assert {k[0] for k in kinds} == {"p2", "p3", "p4"}
    assert {k[1] for k in kinds} == {"soldat", "seigneur", "kami"}
    assert {k[2] for k in kinds} == {"table", "given", "seed"}
    assert refused > 1000


def test_same_seeds_same_games_on_cpython_and_micropython(mpy):
    out = mpy.run_script("tests/mp/kami_random.py", "1000", "25", timeout=600)
    expected = []
    refused = 0
    for seed in range(1000, 1025):
        line, r = kr.play(seed)
        expected.append(line)
        refused += r
    expected.append("refused %d" % refused)
    assert out.strip().splitlines() == expected


def test_snapshot_restore_round_trips_mid_game():
    for seed in range(40):
        s = kr.settings_for(seed)
        g = rules.Game(**s)
        rng = kr.Rng(seed)
        for _ in range(rng.below(120)):
            if g.is_over():
                break
            legal = g.legal_actions()
            g.apply(legal[rng.below(len(legal))])
        snap = g.snapshot()
        dump = report.game(g)
        legal = g.legal_actions()
        for _ in range(40):  # wander off, then come back
            if g.is_over():
                break
            acts = g.legal_actions()
            g.apply(acts[rng.below(len(acts))])
        g.restore(snap)
        assert report.game(g) == dump
        assert g.legal_actions() == legal
        assert g.snapshot() == snap
        fresh = rules.Game(**s)  # a restore into another object gives the same game
        fresh.restore(snap)
        assert report.game(fresh) == dump


def test_every_listed_action_is_accepted():
    for seed in range(30):
        g = rules.Game(**kr.settings_for(seed))
        rng = kr.Rng(seed)
        for _ in range(200):
            if g.is_over():
                break
            snap = g.snapshot()
            for act in g.legal_actions():
                g.apply(act)  # raises if a listed action is refused
                g.restore(snap)
            acts = g.legal_actions()
            g.apply(acts[rng.below(len(acts))])


def test_rules_suite_runs_inside_micropython(mpy):
    # test_kami_rules.py avoids what the MicroPython pytest shim lacks (raises' value)
    from mpy_runner import MicroPython

    # A roomy heap: the rules' tests import games.kami.game, which since the game went on
    # the platform brings the controller, the view and core.frame, all compiled from
    # source on the 64-bit unix port (the chip runs them precompiled by mpy-cross).
    runner = MicroPython(executable=mpy.executable, path=mpy.path + (HERE,), heap_kib=512)
    out = runner.run_script("tests/mp/run_tests.py", "test_kami_rules", timeout=300)
    last = out.strip().splitlines()[-1]
    passed, failed = last.split(", ")
    assert failed == "0 failed", out
    assert int(passed.split()[0]) >= 50


def test_journal_replay_at_every_event_gives_the_same_state():
    # a power cut after any accepted action: a new game replaying the recorded actions
    # (game.replay) comes back to the same state
    from games.kami import game

    for seed in range(12):
        s = kr.settings_for(seed)
        settings = {"players": s["players"], "mode": s["mode"],
                    "first": "p%d" % (s["first"] + 1), "target": s["target"],
                    "deal": s["deal"]}
        if s["deal"] == "seed":
            settings["seed"] = seed
        g = game.new_state(None, settings)
        journal = []
        g.recorder = journal.append
        rng = kr.Rng(seed)
        for _ in range(150):
            if g.is_over():
                break
            acts = g.legal_actions()
            g.apply(acts[rng.below(len(acts))])
            back = game.new_state(None, settings)
            for record in journal:
                game.replay(back, list(record))
            assert back.snapshot() == g.snapshot()


def test_resume_drops_an_open_claim():
    from games.kami import game

    g = game.new_state(None, {"players": 4})
    g.apply(("discard",))
    g.apply(("pick", 1))
    g.apply(("show", 0))
    game.resume(g)
    assert g.phase == "play" and g.claim is None and g.step == "open" and g.turn == 0
    fresh = game.new_state(None, {"players": 4})
    game.resume(fresh)  # nothing open: nothing changes
    assert fresh.snapshot() == game.new_state(None, {"players": 4}).snapshot()
