"""Kami's side of a simulation (host_tools.simulator.engine): the options arrive as one
command, `option settings {...}` (verbs.finish), and start the game once; `pick pN`
chooses and confirms the 5-Soldier claimant and `deal ...` states a round's deal, both
through the board's `pick` (games/kami/controller.py: a host names the claimant, or the
deal as "deal p1:... p2:..."), which refuses them where they mean nothing
(`wrong-phase`). Runs where the engine runs: CPython, the MicroPython unix port.
"""

from host_tools.simulator.engine import PRESS_MS


class SimGame:
    def __init__(self, sim):
        self.sim = sim

    def run(self, cmd, auto):
        """Run `cmd` if it is Kami's to run: "final" (nothing more to do), "done" (the
        engine's after-command step follows), or None (a neutral command: the engine's)."""
        name = cmd[1]
        if name == "option" and cmd[2] == "settings":
            self.start(cmd[3])
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
        pass

    def pick(self, word):
        sim = self.sim
        sim.app.pick(word, sim.now)
        sim.advance(PRESS_MS)
