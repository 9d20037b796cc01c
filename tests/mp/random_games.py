"""Random full games with every invariant checked after every action, inside MicroPython.

    micropython tests/mp/random_games.py FIRST_SEED COUNT
"""

import sys

import gamekit
from games.kahuna import rules
from host_tools.games.kahuna import randgame
from host_tools.games.kahuna.invariants import Watcher, probe


class Stepper:
    """After each action: check the invariants, and now and then probe a random action."""

    def __init__(self, watch, rng, names):
        self.watch = watch
        self.rng = rng
        self.names = names

    def __call__(self, game, act):
        self.watch(game, act)
        if self.rng.chance(10):
            probe(game, self.rng, self.names)


def main(first, count):
    board = gamekit.board()
    variants = {}
    actions = 0
    probes = 0
    for seed in range(first, first + count):
        rng = randgame.Rng(seed)
        settings = randgame.random_settings(rng)
        game = rules.Game(board, **settings)
        watch = Watcher(game)
        names = (game.card_names, board.connections)

        randgame.play_game(game, seed, Stepper(watch, rng, names), record=False)
        actions += watch.actions
        key = settings["variant"] + ("+handicap" if settings["handicap"] else "")
        variants[key] = variants.get(key, 0) + 1
        probes += 1
    print("games %d actions %d" % (count, actions))
    for key in sorted(variants):
        print("%s %d" % (key, variants[key]))


main(int(sys.argv[1]), int(sys.argv[2]))
