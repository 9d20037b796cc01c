"""Kami's side of a simulation (host_tools.simulator.engine): the options arrive as one
command, `option settings {...}` (verbs.finish), and start the game once; `pick pN`
chooses and confirms the 5-Soldier claimant and `deal ...` states a round's deal, both
through the board's `pick` (games/kami/controller.py: a host names the claimant, or the
deal as "deal p1:... p2:..."), which refuses them where they mean nothing
(`wrong-phase`). Runs where the engine runs: CPython, the MicroPython unix port.

The board's players (option `ai`, games/kami/solo.py) play on the board's own loop, one
event per 10 ms tick; after every command (the options' too) the simulation lets virtual
time run until no board seat has anything to do (a person is to act, a stated deal is
awaited, or the game is over), as `sim --ai` does in the terminal: a scenario never has to
guess how long the board thinks.
"""

from games.kami import ai
from host_tools.simulator.engine import PRESS_MS

BOARD_MS = 600000  # at most this much virtual time for the board's seats after a command


def boards_turn(app):
    """Whether one of the board's seats has something to do now: it is to act, or (K11)
    it claims before the round's first card."""
    solo = app.solo
    g = app.game
    if solo is None or g.is_over():
        return False
    return solo.waiting_for() >= 0 or ai.claimant(g, solo.seats, solo.claimed) >= 0


class SimGame:
    def __init__(self, sim):
        self.sim = sim

    def run(self, cmd, auto):
        """Run `cmd` if it is Kami's to run: "final" (nothing more to do), "done" (the
        engine's after-command step follows), or None (a neutral command: the engine's)."""
        name = cmd[1]
        if name == "option" and cmd[2] == "settings":
            self.start(cmd[3])
            if auto:
                self.after()
            return "final"
        if name == "pick":
            self.pick(cmd[2])
            return "done"
        if name == "deal":
            self.pick("deal " + cmd[2])
            return "done"
        return None

    def start(self, settings):
        sim = self.sim
        sim.settings = dict(settings)
        sim.app.new_game(sim.settings)
        sim.app.show(sim.now)

    def new_game(self):
        pass

    def power_cut(self):
        pass

    def after(self):
        """The board's seats play until a person is to act (a no-op without them)."""
        sim = self.sim
        if boards_turn(sim.app):
            sim.run_until(lambda: not boards_turn(sim.app), BOARD_MS)

    def pick(self, word):
        sim = self.sim
        sim.app.pick(word, sim.now)
        sim.advance(PRESS_MS)
