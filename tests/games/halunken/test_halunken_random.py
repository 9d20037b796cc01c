"""Seeded random Halunken games: invariants after every action, refusals change nothing,
snapshot/restore round trips, and the same games on CPython and MicroPython."""

from halunken_play import Rng, play, settings_for

from games.halunken import game
from mpy_runner import MicroPython

SEEDS = 150
MP_SEEDS = 12


def test_random_games_keep_every_invariant_in_every_mode():
    modes = set()
    for seed in range(SEEDS):
        rep, n = play(seed)
        modes.add((rep["mode"], rep["players"]))
        assert rep["phase"] == "over" and rep["round"] == 8 and n > 8
    assert modes == {("tactical", 2), ("standard", 3), ("standard", 4),
                     ("beginner", 3), ("beginner", 4)}


def test_snapshot_restore_round_trips_mid_game():
    for seed in range(40):
        g = game.new_state(None, settings_for(seed))
        rng = Rng(seed + 99)
        stop = 5 + seed * 3
        for _ in range(stop):
            if g.is_over():
                break
            acts = g.legal_actions()
            g.apply(acts[rng.below(len(acts))])
        snap = g.snapshot()
        dump = game.report(g)
        legal = g.legal_actions()
        for _ in range(25):
            if g.is_over():
                break
            acts = g.legal_actions()
            g.apply(acts[rng.below(len(acts))])
        g.restore(snap)
        assert game.report(g) == dump and g.legal_actions() == legal
        fresh = game.new_state(None, settings_for(seed))
        fresh.restore(__import__("json").loads(__import__("json").dumps(snap)))
        assert game.report(fresh) == dump  # JSON-able


def test_recorder_sees_every_accepted_action_before_it_changes_anything():
    g = game.new_state(None, settings_for(3))
    seen = []
    g.recorder = lambda act: seen.append((act, g.step))
    rng = Rng(3)
    steps = []
    while not g.is_over():
        acts = g.legal_actions()
        act = acts[rng.below(len(acts))]
        steps.append((act, g.step))
        g.apply(act)
    assert seen == steps


def _lines(seeds):
    out = []
    for seed in seeds:
        rep, n = play(seed)
        out.append("%d %d %s %s %s" % (seed, n, ",".join(rep["winner"]),
                                       ",".join(str(rep["scores"][k])
                                                for k in sorted(rep["scores"])),
                                       ",".join(rep["bj_cards"])))
    return out


def test_same_seeded_games_on_cpython_and_micropython(mpy):
    # The games compared, not the heap (the conformance suite measures that): the 64-bit
    # unix port compiles the game from source, which a board never does, so it gets room.
    runner = MicroPython(executable=mpy.executable, heap_kib=512)
    out = runner.run_script("tests/mp/halunken_games.py", "0", str(MP_SEEDS), timeout=300)
    assert out.split("\n")[:-1] == _lines(range(MP_SEEDS))
