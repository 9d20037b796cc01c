"""Kahuna's side of a simulation (host_tools.simulator.engine): a table of cards dealt
from a seed (`option seed=N`, solohands.Seated), `draw N|deck` from it, a tapped draw
that must be a card the player can really take, `pick CONNECTION` through the buttons, and
in a solo game the AI's card procedure done after every command. Runs where the engine
runs: CPython, the MicroPython unix port, the browser.
"""

from core import app as appmod
from games.kahuna import rules
from host_tools.simulator.engine import LONG_PRESS_MS, PRESS_MS

# The simulator's own refusal (an extension of the contract; the board never raises it):
# `draw` with an argument that names no card one could take (`draw 4`, `draw x`, `draw 3`
# with two display cards, `draw deck` with the deck empty).
BAD_DRAW = "bad-draw"
DRAW_PLACES = ("1", "2", "3", "deck")


class SimGame:
    def __init__(self, sim):
        self.sim = sim
        self.seated = None  # solohands.Seated: a table of cards (option seed=N)

    def run(self, cmd, auto):
        """Run `cmd` if it is Kahuna's to run: "final" (nothing more to do), "done" (the
        engine's after-command step follows), or None (a neutral command: the engine's)."""
        name = cmd[1]
        if name == "option" and cmd[2] == "seed":
            self.sit(cmd[3])
            return "final"
        if name == "draw":
            self.draw(cmd[2])
            return "done"
        if name in ("tap", "hold") and auto and self._drawn_from_table(cmd[2]):
            self.take_tapped(cmd[2], cmd[3] if name == "hold" else 0)
            return "done"
        if name == "pick":
            self.pick(cmd[2])
            return "done"
        if name == "takeback":  # `back` held down: its hold action (board_def)
            self.sim.press("back", LONG_PRESS_MS)
            return "done"
        return None

    def new_game(self):
        """The settings changed: the new game on a fresh table."""
        if self.seated is not None:
            self.sit(self.seated.seed)

    def power_cut(self):
        if self.seated is not None:
            self.seated.hands.power_cut()

    def after(self):
        """After a command (not `expect`): the AI's card procedure at a table of cards."""
        if self.seated is not None:
            self.seated.auto(self.sim.app, self._ai_tick)

    def _ai_tick(self):
        self.sim.advance(appmod.AI_MS)

    def sit(self, seed):
        """A table of cards from `seed` (solohands.Seated): dealt at once; in a solo game
        the simulator does the AI's card procedure after every command."""
        from host_tools.games.kahuna.solohands import Seated
        sim = self.sim
        self.seated = Seated(sim.names, seed, lambda words: sim.execute(
            [sim.line, words[0]] + list(words[1:]), auto=False))
        self.seated.auto(sim.app, self._ai_tick)

    def _refuse(self, code, message):
        self.sim.rejected.append({"line": self.sim.line, "code": code, "message": message})

    def draw(self, which):
        """`draw N|deck` at a table of cards: that card taken and tapped; refused, nothing
        taken: `bad-draw` for an argument that is neither 1..3 nor deck, `wrong-phase`
        outside the draw phase or without a table, `bad-draw` for an empty display place
        or an empty deck."""
        sim = self.sim
        if str(which).lower() not in DRAW_PLACES:
            self._refuse(BAD_DRAW, "draw %s: draw 1, 2 or 3 takes that display card, draw "
                         "deck the deck's top card" % which if which else
                         "draw 1, 2 or 3 takes that display card, draw deck the deck's top "
                         "card")
            return
        which = str(which).lower()
        if self.seated is None or sim.app.game.phase != rules.DRAW:
            why = ("draw takes a card at a table of cards (option seed=N)"
                   if self.seated is None else "draw: it is not the draw phase")
            self._refuse(rules.WRONG_PHASE, why)
            return
        kept = self.seated.keep()
        try:
            card = self.seated.draw(which)
        except ValueError as e:
            self._refuse(BAD_DRAW, str(e))
            return
        refused = len(sim.rejected)
        sim.present(sim.uid_of(card), 0)
        if len(sim.rejected) > refused:  # e.g. hand-full: the card was not taken
            self.seated.put_back(kept)

    def _drawn_from_table(self, card):
        """Whether a player's tap of `card` is a draw from the table of cards: a table
        (option seed=N), the draw phase of a player (not the AI), not discarding, and a
        card the game counts as drawable (deck or display)."""
        app = self.sim.app
        game = app.game
        if self.seated is None or game.phase != rules.DRAW or app.referee.discarding:
            return False
        if app.solo is not None and game.turn == app.solo.side:
            return False
        c = game.card_index.get(card)
        return c is not None and game.place[c] == rules.DRAWABLE

    def take_tapped(self, card, ms):
        """A tapped draw at a table of cards: only a card the player can really take (a
        display card or the deck's top), else refused (`card-not-drawable`) and nothing
        changes; the card is then laid on the scanner as for `draw`."""
        sim = self.sim
        kept = self.seated.keep()
        try:
            self.seated.take_named(card)
        except ValueError as e:
            self._refuse(rules.NOT_DRAWABLE, str(e))
            return
        refused = len(sim.rejected)
        sim.present(sim.uid_of(card), ms)
        if len(sim.rejected) > refused:  # e.g. hand-full: the card was not taken
            self.seated.put_back(kept)

    def pick(self, conn):
        """`next` until `conn` is highlighted, then `ok`, through the buttons. A connection
        that is not on offer (or no list at all) goes to the referee to be refused."""
        sim = self.sim
        ref = sim.app.referee
        names = ref.option_names()
        if conn in names and not ref.discarding:
            for _ in range((names.index(conn) - ref.sel) % len(names)):
                sim.press("next")
            sim.press("ok")
        else:
            sim.app.pick(conn, sim.now)
            sim.advance(PRESS_MS)
