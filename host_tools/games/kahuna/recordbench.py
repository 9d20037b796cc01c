"""Public records of games in play (host_tools/games/kahuna/record.py), measured: games
between two players (`duelgames`: ai, greedy, random, ...), each cut at ten points while in
play; for each position, whether its public record holds every move or stops short (no
stand-ins found for the latest moves: how many are left out), and the time to write it.

    python -m host_tools.games.kahuna.recordbench greedy,greedy 30
"""

import sys
import time

from core import board as boardmod
from games.kahuna import rules
from host_tools.games.kahuna import duelgames, record
from host_tools.simulator.cli import DEFAULT_BOARD

SHORT = "# It stops short: after "


def games_actions(board, kinds, games):
    """The rules' actions of each game (a game that notes what it applies)."""
    out = []

    class Noted(rules.Game):
        def apply(self, action):
            super().apply(action)
            self.noted.append(tuple(action))

    def made(*args, **kw):
        g = Noted(*args, **kw)
        g.noted = []
        made.games.append(g)
        return g

    real = duelgames.rules.Game
    duelgames.rules.Game = made
    try:
        for seed in range(games):
            made.games = []
            duelgames.play_game(board, kinds, seed, check=False)
            g = made.games[0]
            out.append(({"variant": g.settings.variant, "first": "white", "handicap": None},
                        g.noted))
    finally:
        duelgames.rules.Game = real
    return out


def main(argv):
    if len(argv) != 2 or "," not in argv[0] or not argv[1].isdigit():
        print("usage: python -m host_tools.games.kahuna.recordbench KIND,KIND GAMES",
              file=sys.stderr)
        return 2
    board = boardmod.load(DEFAULT_BOARD)
    kinds = tuple(argv[0].split(","))
    whole, short, left, times = 0, 0, [], []
    for settings, acts in games_actions(board, kinds, int(argv[1])):
        for cut in range(6, len(acts), max(1, len(acts) // 10)):
            items = [["new", settings, 1]] + [list(a) for a in acts[:cut]]
            t = time.perf_counter()
            text = record.from_records(board, items)
            times.append(time.perf_counter() - t)
            if SHORT in text:
                short += 1
                left.append(cut - int(text.split(SHORT)[1].split()[0]))
            else:
                whole += 1
    times.sort()
    left.sort()
    print("%s, %s games: %d positions in play, %d whole records, %d stopped short "
          "(moves left out: median %s); time to write one: median %.1f ms, p95 %.1f ms, "
          "max %.1f ms (CPython %s)" % (
              argv[0], argv[1], whole + short, whole, short,
              left[len(left) // 2] if left else "-", 1000 * times[len(times) // 2],
              1000 * times[int(len(times) * 0.95)], 1000 * times[-1],
              sys.version.split()[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
