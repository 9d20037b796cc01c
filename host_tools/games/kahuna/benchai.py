"""The computer opponent's figures behind `make bench`, on CPython and MicroPython:

    micropython host_tools/games/kahuna/benchai.py BOARD_JSON   -> prints one JSON object

Its time per decision over AI_GAMES games against greedy (median, 95th percentile, max),
and (MicroPython, in the RP2040's heap) its search's live-heap high-water, sampled after
every slice of thinking, and the growth of the heap it keeps over a game. A module of its
own: the run holds the rules, the AI, the duel and this, nothing of the other benchmarks.
"""

import gc
import json
import sys

from core import board as boardmod
from host_tools.measure.ticks import MICRO, SEED0

AI_GAMES = 16
AI_HEAP_GAMES = 2
AI_SLICE_MS = 1  # heap sampled after every slice this long (and a collection)


def _quantiles(times):
    times = sorted(times)
    n = len(times)
    return (times[n // 2], times[min(n - 1, (95 * n + 99) // 100 - 1)], times[-1])


def figures(board):
    """The AI (default level) against greedy, seats swapped, both variants."""
    from games.kahuna import ai
    from host_tools.games.kahuna import duelgames as duelcore
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
    from host_tools.games.kahuna import duelgames as duelcore
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


if __name__ == "__main__":
    print(json.dumps(figures(boardmod.load(sys.argv[1], keep_raw=False))))
