"""Measurements behind `make bench`, the same code on CPython and MicroPython.

    micropython host_tools/benchcore.py BOARD_JSON   -> prints one JSON object

Figures: microseconds per applied rules action, full random games per second, tap event
to frame written (referee + rules + view + LED driver buffer), frame composition, bytes
allocated per frame, and live-heap high-water marks (MicroPython only: gc.mem_alloc()
after a collection, sampled after every action). Part "ai": the computer opponent's time
per decision over AI_GAMES games against greedy (median, 95th percentile, max), and
(MicroPython) its search's live-heap high-water, sampled after every slice of thinking,
and the growth of the heap it keeps over a game.
"""

import gc
import json
import sys
import time

from host_tools import randgame
from kahuna import board as boardmod
from kahuna import rules

try:
    ticks_us = time.ticks_us  # MicroPython
    ticks_diff = time.ticks_diff
    MICRO = True
except AttributeError:
    MICRO = False

    def ticks_us():
        return time.perf_counter_ns() // 1000

    def ticks_diff(a, b):
        return a - b


GAMES = 30
SEED0 = 9000
FLASH_DIR = "/tmp/kahuna-bench-flash"  # the simulated board's flash, kept out of the heap


def _new_game(board, seed):
    return rules.Game(board, **randgame.random_settings(randgame.Rng(seed)))


def apply_us(board):
    """Mean time of `Game.apply` over GAMES random games (the player's choice excluded)."""
    n = 0
    total = 0
    for i in range(GAMES):
        game = _new_game(board, SEED0 + i)
        player = randgame.Player(randgame.Rng(SEED0 + i))
        while not game.is_over():
            act = player.choose(game)
            t = ticks_us()
            game.apply(act)
            total += ticks_diff(ticks_us(), t)
            n += 1
    return total / n, n / GAMES


def games_per_s(board):
    t = ticks_us()
    for i in range(GAMES):
        randgame.play_game(_new_game(board, SEED0 + i), SEED0 + i, record=False)
    return GAMES * 1000000 / ticks_diff(ticks_us(), t)


class _HeapWatch:
    def __init__(self):
        gc.collect()
        self.base = gc.mem_alloc()
        self.peak = 0

    def __call__(self, *args):
        gc.collect()
        self.peak = max(self.peak, gc.mem_alloc() - self.base)


def heap_peak_rules(board):
    """Live heap high-water over one full game, sampled after every action."""
    watch = _HeapWatch()
    game = _new_game(board, SEED0)
    randgame.play_game(game, SEED0, watch, record=False)
    return watch.peak


def _fresh_flash():
    from host_tools import simcore
    from host_tools.vflash import DiskFlash
    flash = DiskFlash(FLASH_DIR)
    try:
        flash.remove(simcore.JOURNAL)  # an earlier run's game
    except OSError:
        pass
    return flash


def sim_figures(board):
    """A whole random game entered through the simulated board's scanner and buttons:
    tap-to-frame times and the heap high-water; then frame composition on its own."""
    # The simulator only here: the rules-only pass keeps the RP2040's heap for the game.
    from host_tools import scengen, simcore
    from host_tools.scenario import parse_line
    seed = SEED0 + 1
    settings = randgame.random_settings(randgame.Rng(seed))
    sim = simcore.Simulation(board, _fresh_flash())
    watch = _HeapWatch() if MICRO else None  # growth from here: the game, not the setup
    cards = sim.names
    line = 0
    for text in scengen.settings_lines(settings):
        line += 1
        sim.execute(parse_line(text, line, board, cards, False))
    player = randgame.Player(randgame.Rng(seed))
    taps = tap_total = tap_max = commands = 0
    while not sim.app.game.is_over():
        act = player.choose(sim.app.game)
        for text in scengen.action_lines(act):
            line += 1
            cmd = parse_line(text, line, board, cards, True)
            commands += 1
            if cmd[1] == "tap":
                # The event path itself, as the reader task calls it.
                uid = sim.uid_of(cmd[2])
                t = ticks_us()
                sim.app.tap_uid(uid, sim.now)
                dt = ticks_diff(ticks_us(), t)
                tap_total += dt
                tap_max = max(tap_max, dt)
                taps += 1
                sim.advance(simcore.POLL_MS)
            else:
                sim.execute(cmd)
            if watch:
                watch()
    if sim.rejected:
        raise RuntimeError("the benchmark game was refused: %r" % (sim.rejected[0],))
    # Frame composition, steady state with an option list open (blinking options).
    sim2 = simcore.Simulation(board, _fresh_flash())
    for text in ("tap HUNA-1", "tap ELAI-1", "tap DUDA-1", "tap ALOA-1", "tap DUDA-2",
                 "tap ELAI-2", "tap HUNA-1"):
        line += 1
        sim2.execute(parse_line(text, line, board, cards, True))
    app = sim2.app
    frames = 500
    now = sim2.now
    t = ticks_us()
    for i in range(frames):
        app.show(now + 20 * i)
    frame_us = ticks_diff(ticks_us(), t) / frames
    alloc = None
    if MICRO:
        gc.collect()
        gc.disable()
        before = gc.mem_alloc()
        for i in range(100):
            app.show(now + 20 * i)
        alloc = (gc.mem_alloc() - before) / 100
        gc.enable()
    return {
        "tap_to_frame_us": tap_total / taps,
        "tap_to_frame_max_us": tap_max,
        "frame_us": frame_us,
        "frame_alloc_bytes": alloc,
        "sim_heap_peak_bytes": watch.peak if watch else None,
        "sim_commands": commands,
    }


AI_GAMES = 16
AI_HEAP_GAMES = 2
AI_SLICE_MS = 1  # heap sampled after every slice this long (and a collection)


def _quantiles(times):
    times = sorted(times)
    n = len(times)
    return (times[n // 2], times[min(n - 1, (95 * n + 99) // 100 - 1)], times[-1])


def ai_figures(board):
    """The AI (default level) against greedy, seats swapped, both variants."""
    from host_tools import duelcore
    from kahuna import ai
    times = []
    for i in range(AI_GAMES):
        kinds = ("ai", "greedy") if i % 2 == 0 else ("greedy", "ai")
        variant = "standard" if i % 4 < 2 else "alternative"
        res = duelcore.play_game(board, kinds, SEED0 + i // 2, variant, ai.DEFAULT_LEVEL,
                                 check=False)
        times.extend(res["times_us"])
    median, p95, top = _quantiles(times)
    out = {"ai_decision_median_ms": median / 1000, "ai_decision_p95_ms": p95 / 1000,
           "ai_decision_max_ms": top / 1000, "ai_decisions": len(times)}
    if MICRO:
        out["ai_rp2040_p95_ms"] = p95 / 10  # x100: the RP2040 against the unix port
        out.update(ai_heap(board))
    return out


def ai_heap(board):
    """Live heap over AI decisions: the search's high-water above what was live when the
    decision started (sampled after every slice), and the AI's kept heap at the first and
    the last decision of a game (growth over a game)."""
    from host_tools import duelcore
    peak = [0]
    kept = []

    def on_decision(player, obs):
        # Think again about the same observation in slices, sampling the heap.
        gc.collect()
        base = gc.mem_alloc()
        kept.append(base)
        player.start(obs)
        while not player.step(AI_SLICE_MS):
            gc.collect()
            peak[0] = max(peak[0], gc.mem_alloc() - base)
        player.best()
        gc.collect()
        peak[0] = max(peak[0], gc.mem_alloc() - base)

    growth = 0
    for i in range(AI_HEAP_GAMES):
        kept[:] = []
        kinds = ("ai", "greedy") if i % 2 == 0 else ("greedy", "ai")
        duelcore.play_game(board, kinds, SEED0 + 50 + i, "standard", check=False,
                           on_decision=on_decision)
        # The live heap also holds the game and the trackers, which change a little:
        # the first decisions' level against the last ones'.
        growth = max(growth, max(kept[-3:]) - max(kept[:3]))
    return {"ai_search_heap_peak_bytes": peak[0], "ai_heap_growth_bytes": growth}


def measure(board_path, part="all"):
    """`part`: "rules" (the game alone), "sim" (the simulated board), or "all"."""
    board = boardmod.load(board_path, keep_raw=False)
    out = {}
    if part in ("rules", "all"):
        per_action, per_game = apply_us(board)
        out["apply_us"] = per_action
        out["actions_per_game"] = per_game
        out["games_per_s"] = games_per_s(board)
        out["heap_peak_bytes"] = heap_peak_rules(board) if MICRO else None
        if MICRO:
            out["heap_total_bytes"] = gc.mem_alloc() + gc.mem_free()
    if part in ("sim", "all"):
        out.update(sim_figures(board))
    if part in ("ai", "all"):
        out.update(ai_figures(board))
    return out


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "all")))
