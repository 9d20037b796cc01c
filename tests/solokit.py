"""A solo game on the simulated board, played to the end by a simple human (its plays
chosen from its own hand and the public table) and the hands that do the AI's physical
procedure (host_tools/simulator/solohands.py), both through taps and button presses."""

from host_tools.simulator.core import Simulation
from host_tools.simulator.solohands import Hands
from host_tools.simulator.table import Table
from kahuna import rules


class SoloGame:
    def __init__(self, board, seed, ai="black", variant="standard", first="white",
                 flash=None):
        self.sim = Simulation(board, flash=flash)
        self.sim.settings = {"variant": variant, "first": first, "handicap": None, "ai": ai}
        self.sim.app.new_game(self.sim.settings)
        self.sim._log_ai()
        self.table = Table(self.sim.names, seed)
        self.hands = Hands(self.table)
        self.side = rules.player_index(ai)
        self.said = []
        self.listen()
        self.round = 1
        self.steps = 0

    def listen(self):
        self.sim.app.prompters.append(self.said.append)

    @property
    def game(self):
        return self.sim.app.game

    def tap(self, card):
        self.sim.present(self.sim.uid_of(card), 0)

    def after(self):
        if self.game.round != self.round:
            self.round = self.game.round
            self.hands.round_ended()

    def human_turn(self):
        """One step of the human: deal its card, or play its turn simply."""
        g = self.game
        sim = self.sim
        if g.phase == rules.DEAL:
            self.tap(self.table.deal())
            return
        if g.phase == rules.HANDICAP:
            sim.press("ok")
            return
        if g.phase == rules.PLAY:
            for act in g.legal_actions():
                if act[0] == "place":
                    self.tap(act[1])
                    self.table.discard(act[1])
                    sim.pick(act[2])
                    return
            if g.refill != rules.NOBODY:
                sim.press("back")
                return
            sim.press("done")
            return
        # The draw phase.
        hand = g.hand(rules.PLAYERS[g.turn])
        if not g.can_draw() and g.can_decline():
            sim.press("done")
            return
        if len(hand) >= rules.HAND_LIMIT:
            sim.press("discard")
            self.tap(hand[0])
            self.table.discard(hand[0])
            sim.press("done")
            return
        display = self.table.display
        if display:
            card = self.table.take(display[0])
            self.hands.took(card)
        else:
            card = self.table.take_top()
        self.tap(card)

    def step(self):
        """One step of whoever must act now; False once the game is over."""
        self.steps += 1
        app = self.sim.app
        if self.game.phase == rules.OVER:
            return False
        self.sim.advance(20)  # the AI's tick: think, or a move without hands
        say = app.solo.say()
        move = self.hands.next(say) if say else None
        if move is not None:
            if move[0] == "tap":
                self.tap(move[1])
            else:
                self.sim.press(move[1])
        elif not say:
            self.human_turn()
        self.after()
        return True

    def play(self, limit=3000):
        while self.step():
            assert self.steps < limit, "the solo game does not end: %s" % (self.said[-3:],)
