"""Seeded random Halunken games inside MicroPython; prints one line per game.

    micropython tests/mp/halunken_games.py FIRST_SEED COUNT
"""

import sys

sys.path.append("tests/games/halunken")

import halunken_play  # noqa: E402


def main(first, count):
    for seed in range(first, first + count):
        rep, n = halunken_play.play(seed)
        print("%d %d %s %s %s" % (seed, n, ",".join(rep["winner"]),
                                  ",".join(str(rep["scores"][k]) for k in sorted(rep["scores"])),
                                  ",".join(rep["bj_cards"])))


main(int(sys.argv[1]), int(sys.argv[2]))
