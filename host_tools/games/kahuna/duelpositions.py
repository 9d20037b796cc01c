"""The AI's decision time on a fixed set of positions, to compare two versions of the AI
(before and after a change) on the same work, on a loaded machine:

    micropython host_tools/games/kahuna/duelpositions.py capture BOARD_JSON OUT_JSON [GAMES]
    micropython host_tools/games/kahuna/duelpositions.py time BOARD_JSON POSITIONS_JSON [REPS]

`capture` plays GAMES games (16 by default) of the default level against greedy, seats
swapped, both variants, and writes every observation the AI decided on (with its seed).
`time` decides each of them REPS times (5 by default) and keeps each position's fastest
time, then prints one JSON object: the positions, median, p95, max and total in ms. The
fastest of several runs filters out the other processes' load; the duel's own figures
(`python -m host_tools duel ... --runtime micropython`) time each decision once.
Run `time` with MICROPYPATH pointing at each version's firmware in turn.
"""

import json
import sys

from core import board as boardmod
from games.kahuna import ai, observe
from host_tools.measure.ticks import ticks_diff, ticks_us

CAPTURE_SEED = 1000


def capture(board, games=16):
    """[[ai seed, observation fields...]] of every AI decision in `games` games."""
    from host_tools.games.kahuna import duelgames
    out = []

    def hook(player, obs):
        out.append([player.seed] + [list(x) if isinstance(x, tuple) else x for x in obs.key()])

    for i in range(games):
        kinds = ("ai", "greedy") if i % 2 == 0 else ("greedy", "ai")
        variant = "standard" if i % 4 < 2 else "alternative"
        duelgames.play_game(board, kinds, CAPTURE_SEED + i // 2, variant, ai.DEFAULT_LEVEL,
                            check=False, on_decision=hook)
    return out


def fastest(board, rows, reps=5):
    """Each position's fastest decision over `reps` runs, in microseconds."""
    best = [0] * len(rows)
    players = {}
    for r in range(reps):
        for n, row in enumerate(rows):
            obs = observe.Observation(*[tuple(x) if isinstance(x, list) else x
                                        for x in row[1:]])
            p = players.get(row[0])
            if p is None:
                p = players[row[0]] = ai.Player(board, seed=row[0])
            t0 = ticks_us()
            p.decide(obs)
            dt = ticks_diff(ticks_us(), t0)
            if r == 0 or dt < best[n]:
                best[n] = dt
    return best


def summary(times_us):
    t = sorted(times_us)
    k = len(t)
    return {"positions": k, "median_ms": t[k // 2] / 1000,
            "p95_ms": t[min(k - 1, (95 * k + 99) // 100 - 1)] / 1000,
            "max_ms": t[-1] / 1000, "total_ms": sum(t) / 1000}


def main(argv):
    board = boardmod.load(argv[1], keep_raw=False)
    if argv[0] == "capture":
        rows = capture(board, int(argv[3]) if len(argv) > 3 else 16)
        with open(argv[2], "w") as f:
            json.dump(rows, f)
        print(json.dumps({"positions": len(rows)}))
    else:
        with open(argv[2]) as f:
            rows = json.load(f)
        print(json.dumps(summary(fastest(board, rows, int(argv[3]) if len(argv) > 3 else 5))))


if __name__ == "__main__":
    main(sys.argv[1:])
