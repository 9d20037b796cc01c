"""The computer opponent (firmware/games/kahuna/ai.py), its baselines, the simulated table and
the duel command.

- the table deals the same cards for a seed on CPython and MicroPython;
- every decision of the AI and of both baselines is legal (the duel checks each action
  against the rules' legal actions), both variants, with and without a handicap;
- no peeking: a game whose hidden cards differ but whose public record is the same gives
  the same observation and the same decision, on both runtimes; a tracker that peeks at
  the opponent's hand is caught by the same check;
- the slice API: a step stops within a unit or so of its budget (counted in work units
  with a counting clock, not in wall-clock time) and slicing does not change the decision;
- the duel command line: figures and clear errors.
"""

import json
import subprocess
import sys

import pytest

import aikit
import gamekit
from games.kahuna import ai, observe, rules
from host_tools.games.kahuna import baselines
from host_tools.games.kahuna import duelgames as duelcore
from host_tools.games.kahuna.table import Table, TableError
from mpy_runner import MicroPython

MP_SCRIPT = "tests/mp/ai_checks.py"


def mp_json(mpy, *args, timeout=300):
    # 256 KiB: the replays keep whole games beside the AI's search, and the 64-bit unix
    # port's objects are twice the chip's size (the chip's own heap is measured by
    # `make bench-chip`); at 190 KiB (before the chip's 240 was measured) the search
    # failed for fragmentation on one path length.
    mpy = MicroPython(executable=mpy.executable, heap_kib=256)
    return json.loads(mpy.run_script(MP_SCRIPT, *[str(a) for a in args],
                                     timeout=timeout).strip().splitlines()[-1])


# ---------------------------------------------------------------------- the table

def names():
    return rules.Game(gamekit.board()).card_names


def test_table_deals_every_card_once_and_refills_the_display():
    t = Table(names(), 11)
    dealt = [t.deal() for _ in range(6)]
    assert len(t.display) == 3 and t.drawable() == 18
    shown = t.display
    took = t.take(shown[0])
    assert took == shown[0] and took not in t.display and len(t.display) == 3
    assert t.drawable() == 17
    top = t.take_top()
    assert top not in t.display and t.drawable() == 16
    seen = dealt + [took, top]
    while t.drawable():
        seen.append(t.take_top() if t.deck_count() else t.take(t.display[0]))
    assert sorted(seen) == sorted(names())
    assert t.take_top() is None and t.display == []


def test_table_new_round_shuffles_the_discard_pile_into_deck_and_display():
    t = Table(names(), 4)
    for _ in range(6):
        t.deal()
    pile = []
    while t.drawable():
        card = t.take_top() or t.take(t.display[0])
        if len(pile) < 10:
            t.discard(card)
            pile.append(card)
    t.new_round()  # R5
    assert t.drawable() == 10 and len(t.display) == 3 and t.pile == []
    assert sorted(t.deck + t.display) == sorted(pile)


def test_table_refuses_what_is_not_there():
    t = Table(names(), 1)
    for _ in range(6):
        t.deal()
    t.lay_display()
    hidden = t.deck[-1]
    with pytest.raises(TableError):
        t.take(hidden)  # the deck top is not on display
    with pytest.raises(TableError):
        t.discard(t.display[0])  # a display card is not a played card
    with pytest.raises(TableError):
        t.deal()  # the display is laid: the deal is over
    with pytest.raises(TableError):
        Table(names(), "seed")


def test_table_seeds_differ():
    assert aikit.table_trace(1) != aikit.table_trace(2)


def test_table_deals_the_same_cards_on_micropython(mpy):
    for seed in (1, 99):
        assert mp_json(mpy, "table", seed) == aikit.table_trace(seed)


# ---------------------------------------------------------------------- legality

@pytest.mark.parametrize("variant", ["standard", "alternative"])
@pytest.mark.parametrize("kinds", [("ai", "greedy"), ("greedy", "ai"), ("ai", "random"),
                                   ("random", "greedy"), ("ai", "ai")])
def test_every_decision_is_legal(kinds, variant):
    board = gamekit.board()
    for seed in range(6):
        handicap = (None, ("white", 1), ("black", 3))[seed % 3]
        level = 1 + seed % 3
        res = duelcore.play_game(board, kinds, 100 + seed, variant, level, handicap,
                                 first=("white", "black")[seed % 2], check=True)
        assert res["winner"] in ("white", "black", "draw")


def test_an_illegal_turn_is_caught_by_the_duel():
    class Cheat(baselines.GreedyPlayer):
        def decide(self, obs):
            return [("place", "HUNA-1", "ALOA-BARI")]

    board = gamekit.board()
    real = baselines.make
    try:
        baselines.make = lambda kind, *a: Cheat(board) if kind == "greedy" else real(kind, *a)
        with pytest.raises(duelcore.DuelError, match="illegal"):
            duelcore.play_game(board, ("greedy", "ai"), 1)
    finally:
        baselines.make = real


def test_games_are_legal_and_the_same_on_micropython(mpy):
    board = gamekit.board()
    for kinds, variant in ((("ai", "greedy"), "alternative"), (("random", "ai"), "standard")):
        got = mp_json(mpy, "duel", kinds[0], kinds[1], 40, variant, 2)
        want = []
        for i in range(2):
            res = duelcore.play_game(board, kinds, 40 + i, variant)
            want.append([res["winner"], res["scores"], res["actions"]])
        assert got == want


# ---------------------------------------------------------------------- no peeking

@pytest.mark.parametrize("variant", ["standard", "alternative"])
def test_no_peeking_same_public_record_same_decision(variant):
    differing = 0
    checked = 0
    for seed in range(1, 9):
        handicap = ("black", 2) if seed % 4 == 0 else None
        decisions, diff = aikit.hidden_world_pairs(seed, variant, handicap)
        assert None not in decisions, "seed %d: a decision depended on hidden cards" % seed
        checked += len(decisions)
        differing += diff
    # The check is not vacuous: the opponent's hands really differed.
    assert checked >= 30 and differing >= 10


@pytest.mark.parametrize("kind", ["greedy", "random"])
def test_baselines_do_not_peek_either(kind):
    board = gamekit.board()
    for seed in range(1, 5):
        decisions, diff = aikit.hidden_world_pairs(
            seed, ("standard", "alternative")[seed % 2],
            make_player=lambda: baselines.make(kind, board, seed=9))
        assert decisions and None not in decisions


def test_the_no_peeking_check_catches_a_peeking_tracker():
    class Peeking(observe.Tracker):
        def observe(self, game, display):
            obs = observe.Tracker.observe(self, game, display)
            obs.opp_known = 0
            for name in game.hand("black"):
                obs.opp_known |= 1 << game.card_index[name]
            return obs

    caught = 0
    for seed in range(1, 5):
        decisions, diff = aikit.hidden_world_pairs(seed, tracker=Peeking)
        caught += decisions.count(None)
    assert caught >= 3


def test_no_peeking_on_micropython_gives_the_same_decisions(mpy):
    for seed, variant in ((2, "standard"), (5, "alternative")):
        got = mp_json(mpy, "peek", seed, variant)
        decisions, diff = aikit.hidden_world_pairs(seed, variant)
        assert None not in got[0]
        assert got == [decisions, diff]


def test_tracker_never_reads_the_names_of_secret_cards():
    """The opponent's secret discard and its draw from the deck, under any name, leave
    the tracker the same."""
    board = gamekit.board()
    states = []
    for secret in ("KAHU-1", "LALE-2"):
        g = rules.Game(board)
        t = observe.Tracker(g, rules.BLACK)
        for act in (("deal", "ALOA-1"), ("deal", "BARI-1"), ("deal", secret),
                    ("deal", "HUNA-1"), ("deal", "DUDA-1"), ("deal", "ELAI-1")):
            actor = g.turn
            g.apply(act)
            t.note(g, act, actor)
        for act in (("discard", secret), ("end_play",), ("draw", "COCO-1" if secret ==
                                                          "KAHU-1" else "GOLA-2")):
            actor = g.turn
            g.apply(act)
            t.note(g, act, actor, False)
        states.append((t.seen, t.opp_known, t.opp_count))
    assert states[0] == states[1] == (0, 0, 3)


def test_tracker_knows_face_up_cards_and_undo():
    board = gamekit.board()
    g = rules.Game(board)
    t = observe.Tracker(g, rules.BLACK)
    for act in (("deal", "ALOA-1"), ("deal", "BARI-1"), ("deal", "HUNA-1"),
                ("deal", "DUDA-1"), ("deal", "ELAI-1"), ("deal", "COCO-1"),
                ("place", "ALOA-1", "ALOA-BARI")):
        actor = g.turn
        g.apply(act)
        t.note(g, act, actor)
    bit = 1 << g.card_index["ALOA-1"]
    assert t.seen == bit and t.opp_count == 2
    actor = g.turn
    g.apply(("undo",))  # R10
    t.note(g, ("undo",), actor)
    assert t.seen == 0 and t.opp_count == 3
    for act in (("end_play",), ("draw", "GOLA-1")):
        actor = g.turn
        g.apply(act)
        t.note(g, act, actor, True)  # taken face up: both players saw it
    assert t.opp_known == 1 << g.card_index["GOLA-1"] and t.opp_count == 4


# ---------------------------------------------------------------------- slices

def test_a_step_stops_within_its_budget_and_slicing_keeps_the_decision():
    units, applies, slices, same = aikit.slice_check(2, budget=4)
    assert slices > 6
    assert units <= 5  # budget 4 ticks of a clock read once per unit (+ the start read)
    assert applies <= 8  # a unit replays at most a short path of own actions
    assert same


def test_slices_on_micropython(mpy):
    units, applies, slices, same = mp_json(mpy, "slices", 2)
    assert units <= 5 and applies <= 8 and same


def test_think_in_an_asyncio_loop_lets_other_tasks_run():
    ran, ticks, same = aikit.async_check(4)
    assert ticks > 20 and ran >= ticks // 4 - 2 and same


def test_think_in_an_asyncio_loop_on_micropython(mpy):
    ran, ticks, same = mp_json(mpy, "async", 4)
    assert ticks > 20 and ran >= ticks // 4 - 2 and same


def test_best_is_a_legal_turn_before_any_thinking_and_a_deadline_stops_it():
    board = gamekit.board()
    found = []
    duelcore.play_game(board, ("ai", "greedy"), 3, on_decision=lambda p, o: found.append(o),
                       check=False)
    for obs in found[:8]:
        p = ai.Player(board, clock=aikit.Counter())
        p.start(obs, deadline_ms=10)
        first = p.best()
        assert first and first[-1][0] in ("draw", "draw_top", "decline", "end_play",
                                          "handicap")
        assert p.step(None) is True
        assert p.units <= 10
        assert p.best()


def test_levels_are_checked():
    with pytest.raises(ValueError):
        ai.Player(gamekit.board(), level=4)


# ---------------------------------------------------------------------- duel CLI

def run_duel(*args):
    return subprocess.run([sys.executable, "-m", "host_tools", "duel"] + list(args),
                          capture_output=True, text=True, cwd=gamekit.ROOT, timeout=300)


def test_duel_prints_wins_draws_and_times():
    proc = run_duel("--white", "ai", "--black", "greedy", "--games", "4", "--seed", "5",
                    "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["games"] == 4
    assert sum(out["wins"].values()) + out["draws"] == 4
    assert out["decisions"] > 0
    ms = out["decision_ms"]
    assert 0 <= ms["median"] <= ms["p95"] <= ms["max"]
    text = run_duel("--white", "ai", "--black", "random", "--games", "2",
                    "--variant", "alternative")
    assert text.returncode == 0
    assert "ai" in text.stdout and "wins" in text.stdout and "p95" in text.stdout


def test_duel_on_micropython_projects_to_the_rp2040(mpy):
    proc = run_duel("--white", "greedy", "--black", "ai", "--games", "2", "--runtime",
                    "micropython", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["runtime"] == "micropython" and "rp2040_projection_ms" in out


@pytest.mark.parametrize("args", [
    ["--white", "ai", "--black", "nobody"],
    ["--white", "ai", "--black", "greedy", "--games", "0"],
    ["--white", "ai", "--black", "greedy", "--games", "x"],
    ["--white", "ai", "--black", "greedy", "--level", "7"],
    ["--white", "ai", "--black", "greedy", "--variant", "other"],
    ["--white", "ai", "--black", "greedy", "--handicap", "grey:2"],
    ["--white", "ai"],
])
def test_duel_refuses_bad_arguments_clearly(args):
    proc = run_duel(*args)
    assert proc.returncode == 2
    assert "error:" in proc.stderr and "Traceback" not in proc.stderr


# ---------------------------------------------------------------------- the evaluation

def test_an_opponents_one_short_island_its_hand_can_complete_costs_reach():
    # R1: black owns HUNA-LALE, one bridge short of LALE; it moves next, so a card that
    # can build on LALE's free connections (KAHU-1, IFFI-1) makes the island nearly lost.
    out = aikit.reach_scores("standard")
    s = out["scores"]
    assert s["KAHU-1"] == s["IFFI-1"] == s["HUNA-1"] - out["reach"]
    assert out["reach"] > 0


def test_reach_follows_the_alternative_variants_placement_rule():
    # Alternative variant: white controls KAHU, so black may not build KAHU-LALE; only
    # IFFI-1 (IFFI-LALE) threatens LALE.
    out = aikit.reach_scores("alternative")
    s = out["scores"]
    assert s["KAHU-1"] == s["HUNA-1"]
    assert s["IFFI-1"] == s["HUNA-1"] - out["reach"]


def test_the_evaluation_is_the_same_on_micropython(mpy):
    for variant in ("standard", "alternative"):
        assert mp_json(mpy, "reach", variant) == aikit.reach_scores(variant)


# ---------------------------------------------------------------------- fixed positions

def test_captured_positions_give_the_games_decisions_again_and_are_timed(tmp_path):
    # duelpositions: the positions of one game, decided again by a fresh player of the
    # same seed, give the plans the game's AI played; `time` reports them all.
    from host_tools.games.kahuna import duelpositions
    board = gamekit.board()
    plans = []

    def hook(player, obs):
        plans.append(player.best())

    duelcore.play_game(board, ("ai", "greedy"), duelpositions.CAPTURE_SEED, "standard",
                       ai.DEFAULT_LEVEL, check=False, on_decision=hook)
    rows = json.loads(json.dumps(duelpositions.capture(board, 1)))
    assert len(rows) == len(plans) > 10
    for row, plan in zip(rows, plans):
        obs = observe.Observation(*[tuple(x) if isinstance(x, list) else x for x in row[1:]])
        assert ai.Player(board, seed=row[0]).decide(obs) == plan
    out = duelpositions.summary(duelpositions.fastest(board, rows[:20], reps=2))
    assert out["positions"] == 20
    assert 0 < out["median_ms"] <= out["p95_ms"] <= out["max_ms"] <= out["total_ms"]


def test_positions_are_timed_on_micropython(mpy, tmp_path):
    path = str(tmp_path / "positions.json")
    script = "host_tools/games/kahuna/duelpositions.py"
    big = MicroPython(executable=mpy.executable, heap_kib=1024)
    board = "board_def/kahuna.json"
    assert json.loads(big.run_script(script, "capture", board, path, "1"))["positions"] > 10
    out = json.loads(big.run_script(script, "time", board, path, "1"))
    assert out["positions"] > 10 and out["p95_ms"] > 0
