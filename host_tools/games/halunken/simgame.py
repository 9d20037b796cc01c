"""Halunken & Spelunken's side of a simulation (host_tools.simulator.engine): the options
arrive as one command, `option settings {...}` (verbs.finish), and start the game once;
`pick Tn|N` goes through the buttons (`next` until it is highlighted, then `ok`), as the
contract says. Runs where the engine runs: CPython, the MicroPython unix port.
"""

from host_tools.simulator.engine import PRESS_MS


class SimGame:
    def __init__(self, sim):
        self.sim = sim

    def run(self, cmd, auto):
        """Run `cmd` if it is Halunken's to run: "final" (nothing more to do), "done" (the
        engine's after-command step follows), or None (a neutral command: the engine's)."""
        name = cmd[1]
        if name == "option" and cmd[2] == "settings":
            self.start(cmd[3])
            return "final"
        if name == "pick":
            self.pick(cmd[2])
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
        """`next` until option `word` (a space `T5` or a number `4`) is highlighted, then
        `ok`, through the buttons. One not on offer (or no list at all) goes to the
        controller to be refused (`not-offered`, `wrong-phase`)."""
        sim = self.sim
        ref = sim.app.referee
        names = [str(n) for n in ref.option_names()]
        if word in names and sim.app.menu is None:
            for _ in range((names.index(word) - ref.sel) % len(names)):
                sim.press("next")
            sim.press("ok")
        else:
            sim.app.pick(word, sim.now)
            sim.advance(PRESS_MS)
