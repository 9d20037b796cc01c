"""`python -m host_tools bench [--json]`: speed and memory of the firmware on CPython and
inside the MicroPython unix port (with the RP2040's heap size). Figures, not assertions.
`--port PORT`: the board's own benchmark instead, asked over its serial link
(host_tools/measure/boardbench.py)."""

import argparse
import json
import os
import tracemalloc

from host_tools import gamearg, mpy
from host_tools import games as hostgames
from host_tools.paths import BOARD_DEF

BOARD = BOARD_DEF
RP2040_HEAP = "190k"  # as tests/mpy_runner.py: the Pico's MicroPython GC heap
# The emulated chips are host-side: they need room beside the firmware; and this run
# compiles core.link (its protocol in a long docstring) from source, which in 512k failed
# once its text grew (no 9 KB block left). Its figure is growth over a game, not a size.
SIM_HEAP = "1024k"
# The AI's run compiles the AI, the rules, the duel and the baselines from source in the
# 64-bit unix port (the board runs precompiled .mpy files, 32-bit objects): 190k falls
# short while compiling, and 256k failed now and then for fragmentation (the game's host
# parts loaded through the registry). Its figure, the search's live-heap high-water, is
# measured above what is live when a decision starts, so it does not depend on the heap's
# size.
AI_HEAP = "512k"

ROWS = [
    ("apply_us", "us per applied rules action", "%.1f"),
    ("games_per_s", "full random games per second", "%.1f"),
    ("tap_to_frame_us", "tap event to frame written, us (mean)", "%.0f"),
    ("tap_to_frame_max_us", "tap event to frame written, us (max)", "%.0f"),
    ("link_command_us", "link: command line in to reply out, us (mean)", "%.0f"),
    ("link_command_max_us", "link: command line in to reply out, us (max)", "%.0f"),
    ("link_reply_us", "link: building + encoding the reply, us (mean)", "%.0f"),
    ("link_bytes_per_event", "link: bytes the board sends per event", "%.0f"),
    ("link_read_per_byte_us", "link: read a 37-byte command, await per byte, us", "%.0f"),
    ("link_read_waiting_us", "link: read it, one await + read_waiting, us", "%.0f"),
    ("frame_us", "frame composition + driver buffer, us", "%.0f"),
    ("frame_alloc_bytes", "heap bytes allocated per frame", "%.1f"),
    ("heap_peak_bytes", "live heap high-water, rules game, bytes", "%d"),
    ("sim_heap_peak_bytes", "live heap growth over a simulated game, bytes", "%d"),
    ("heap_total_bytes", "MicroPython heap for the rules game, bytes", "%d"),
    ("ai_decision_median_ms", "AI decision (level 2), ms (median)", "%.2f"),
    ("ai_decision_p95_ms", "AI decision (level 2), ms (95th percentile)", "%.2f"),
    ("ai_decision_max_ms", "AI decision (level 2), ms (max)", "%.2f"),
    ("ai_rp2040_p95_ms", "AI decision on the RP2040 (x100), ms (p95)", "%.0f"),
    ("ai_search_heap_peak_bytes", "AI search live heap high-water, bytes", "%d"),
    ("ai_heap_growth_bytes", "AI kept heap growth over a game, bytes", "%d"),
]


def cpython(board_path=BOARD):
    figures = _bench(board_path)
    out = figures.measure(board_path)
    # CPython has no gc.mem_alloc(): its peak of traced Python allocations over one
    # rules game stands in, for comparison only.
    from core import board as boardmod
    board = boardmod.load(board_path)
    tracemalloc.start()
    figures.play_one(board)
    out["heap_peak_bytes"] = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return out


def _bench(board_path):
    """The board's game's `benchfigures` part: its measures, and the same file (with its
    `benchai` beside it) as scripts under MicroPython."""
    return hostgames.part(gamearg.board_game(board_path), "benchfigures")


def micropython(board_path=BOARD):
    """The game alone with the RP2040's heap; the simulated board (which carries the
    emulated PN532 and tags beside the firmware) with SIM_HEAP."""
    out = {}
    folder = os.path.dirname(_bench(board_path).__file__)
    runs = (("benchfigures.py", ["rules"], RP2040_HEAP), ("benchfigures.py", ["sim"], SIM_HEAP),
            ("benchai.py", [], AI_HEAP))
    for script, args, heap in runs:
        proc = mpy.run(os.path.join(folder, script), [board_path] + args, heap=heap)
        if proc.returncode != 0:
            raise RuntimeError("benchmark under MicroPython failed:\n" + proc.stderr
                               + proc.stdout)
        out.update(json.loads(proc.stdout.strip().splitlines()[-1]))
    return out


def table(results, board_path=BOARD):
    lines = ["%-46s %14s %14s" % ("measure", "cpython", "micropython"), "-" * 76]
    for key, label, fmt in ROWS:
        cells = []
        for rt in ("cpython", "micropython"):
            v = results[rt].get(key)
            cells.append("-" if v is None else fmt % v)
        lines.append("%-46s %14s %14s" % (label, cells[0], cells[1]))
    lines.append("")
    lines.append("CPython heap figure: tracemalloc peak of one game (no gc.mem_alloc there).")
    lines.append("MicroPython: unix port (64-bit); the rules with a %s heap like the RP2040, "
                 "the simulated board with %s (its emulated chips run beside the firmware). "
                 "Times are this PC's: the RP2040 runs MicroPython about 100 times slower "
                 "than this unix port." % (RP2040_HEAP, SIM_HEAP))
    lines.append("AI: %d games against greedy (seats swapped, both variants), the time of "
                 "each whole-turn decision; the RP2040 projection is the unix port's p95 "
                 "x100. Search heap: live bytes above the decision's start, sampled after "
                 "every 1 ms slice." % _bench(board_path).ai_games())
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools bench")
    ap.add_argument("--json", action="store_true", help="one JSON object keyed by measure")
    ap.add_argument("--board", action="store_true",
                    help="ask the board (a Pico, a virtual board, the emulated RP2040) for its "
                         "own loop statistics over its serial link: the first Pico found, or "
                         "--port")
    ap.add_argument("--port", help="the board's serial port (implies --board)")
    ap.add_argument("--reset", action="store_true",
                    help="with --port: the board starts counting afresh after answering")
    ap.add_argument("--timeout", type=float, default=10.0,
                    help="with --port: seconds to wait for the answer (default 10)")
    ap.add_argument("--board-def", metavar="PATH",
                    help="board definition (default board_def/kahuna.json)")
    gamearg.add(ap)
    args = ap.parse_args(argv)
    if args.board or args.port is not None or args.reset:
        from host_tools.measure import boardbench
        return boardbench.main(args.port, args.json, args.reset, args.timeout)
    chosen = gamearg.resolve("bench", args.game, args.board_def, "bench")
    if chosen is None:
        return 2
    board_path = chosen[1]
    results = {"cpython": cpython(board_path), "micropython": micropython(board_path)}
    if args.json:
        keys = sorted(set(results["cpython"]) | set(results["micropython"]))
        print(json.dumps({k: {rt: results[rt].get(k) for rt in results} for k in keys}))
    else:
        print(table(results, board_path))
    return 0
