"""A solo game on the simulated board, played to the end by a simple human (its plays
chosen from its own hand and the public table) and the hands that do the AI's physical
procedure (host_tools/games/kahuna/solohands.py), both through taps and button presses."""

from games.kahuna import rules
from games.kahuna import settings as kahunasettings
from host_tools.games.kahuna.solohands import Hands
from host_tools.games.kahuna.table import Table
from host_tools.simulator.engine import Simulation


class SoloGame:
    def __init__(self, board, seed, ai="black", variant="standard", first="white",
                 flash=None, handicap=None):
        self.sim = Simulation(board, flash=flash)
        self.table = Table(self.sim.names, seed)
        self.hands = Hands(self.table)
        self.side = kahunasettings.player_index(ai)
        self.said = []
        self.listen()
        self.round = 1
        self.steps = 0
        # The game as a scenario (docs/scenarios.md): the same commands give the same game.
        self.lines = []
        self.do("option", "variant", variant)
        self.do("option", "first", first)
        self.do("option", "ai", ai)
        if handicap:
            self.do("option", "handicap", handicap.split(":"))

    def listen(self):
        self.sim.app.prompters.append(self.said.append)

    @property
    def game(self):
        return self.sim.app.game

    def do(self, *words):
        """One scenario command, run by the simulator and kept in `lines`."""
        if words[0] == "option":
            value = words[2]
            self.lines.append("option %s=%s" % (words[1], value if isinstance(value, str)
                                                else "%s:%s" % tuple(value)))
            if not isinstance(value, str):
                words = (words[0], words[1], [value[0], int(value[1])])
        else:
            self.lines.append(" ".join(str(w) for w in words))
        self.sim.execute([len(self.lines), words[0]] + list(words[1:]))

    def tap(self, card):
        self.do("tap", card)

    def press(self, role):
        self.do("press", role)

    def after(self):
        if self.game.round != self.round:
            self.round = self.game.round
            self.hands.round_ended()

    def human_turn(self):
        """One step of the human: deal its card, or play its turn simply."""
        g = self.game
        if g.phase == rules.DEAL:
            self.tap(self.table.deal())
            return
        if g.phase == rules.HANDICAP:
            self.press("ok")
            return
        if g.phase == rules.PLAY:
            for act in g.legal_actions():
                if act[0] == "place":
                    self.tap(act[1])
                    self.table.discard(act[1])
                    self.do("pick", act[2])
                    return
            if g.refill != rules.NOBODY:
                self.press("back")
                return
            self.press("done")
            return
        # The draw phase.
        hand = g.hand(rules.PLAYERS[g.turn])
        if not g.can_draw() and g.can_decline():
            self.press("done")
            return
        if len(hand) >= rules.HAND_LIMIT:
            self.press("discard")
            self.tap(hand[0])
            self.table.discard(hand[0])
            self.press("done")
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
        self.do("wait", 20)  # the AI's tick: think, or a move without hands
        say = app.solo.say()
        move = self.hands.next(say) if say else None
        if move is not None:
            if move[0] == "tap":
                self.tap(move[1])
            else:
                self.press(move[1])
        elif not say:
            self.human_turn()
        self.after()
        return True

    def play(self, limit=3000):
        while self.step():
            assert self.steps < limit, "the solo game does not end: %s" % (self.said[-3:],)

    def until(self, pred, limit=3000):
        """Step until `pred(say)` holds for the board's words (before acting on them)."""
        while True:
            self.do("wait", 20)
            say = self.sim.app.solo.say()
            if pred(say):
                return say
            assert self.step(), "the game ended first"
            assert self.steps < limit

    def power_cut(self):
        """The board loses power and boots from its journal; the hands turn the cards of
        the unfinished move back down."""
        self.do("power-cut")
        self.hands.power_cut()
        self.listen()

    def ai_stack(self):
        """The board's memory of the AI's stack, as names (for the tests only)."""
        return [self.sim.names[c] for c in self.sim.app.solo.stack]
