"""The board's players at a Halunken & Spelunken table: the seats the settings give the
board (`ai`, e.g. ["p2", "p3"]) play themselves, through the controller, as a person's
taps and presses would (so the rules, the journal, the lights and the link treat their
events as anyone's).

With a dealt deck (`deal=seed`, `given`) the board makes every take itself (H33), so its
seats need no hands: when the board waits for one of them (`ai.expected_seat`), the next
tick of the loop asks `ai.choose` and enters the answer: a movement card as its tap (the
same `private` acknowledgement as a person's, 8.3: nothing tells which card), an offer, a
theft or a robbery as the card's tap, a pass or a declined theft as `done`, a space or
RUM's number as `pick`. Its movement card is chosen from public information only (ai.py);
the choices of the seats before it in the order (H32) are in the rules but not in what it
looks at. When every seat is the board's, it also presses `ok` to reveal.

People's events while the board's seat is to act are refused (`out-of-turn`); `back`
takes back the board's events on top of the undo history together with the person's
event below them (alone they would be made again at once), and is refused when there is
no person's event to take back.

Nothing to journal beyond the actions: a decision depends on the game's state alone, so
a power cut replays to the same position and the board decides the same again.
"""

from core import outcome as oc
from games.halunken import ai, deck, report, rules
from games.halunken.controller import SEAT

PLAY = "play"  # step(): the board is about to act for one of its seats


class Solo:
    def __init__(self, game, referee, seats, clock=None):
        self.game = game
        self.referee = referee
        self.seats = seats  # seat indices the board plays
        self.clock = clock
        # The solo interface (core.loopstats times decisions through it): a decision is
        # made within one tick (ai.choose), so never `thinking` between ticks; `decisions`
        # counts them (the reveal's `ok`, pressed when every seat is the board's, is not one).
        self.thinking = False
        self.decisions = 0
        self.dirty = False  # nothing for the journal beyond the actions
        # A list to keep the board's seats' events in, (seat, action), a movement card's
        # action without its card (the simulator's report, play.py); None: not kept.
        self.log = None

    # ------------------------------------------------------------ the app's calls

    def save(self):
        return {}

    def load(self, obj):
        """Nothing to load: the state of the game is all the board's players use."""

    def note(self, game, action, actor):
        """An action applied: nothing to follow (decisions read the game's state)."""

    def waiting_for(self):
        """The board's seat the game waits for, or -1."""
        g = self.game
        if g.is_over() or g.step == "reveal":
            return -1
        s = ai.expected_seat(g)
        return s if s in self.seats else -1

    def all_board(self):
        return len(self.seats) == self.game.players

    def step(self):
        g = self.game
        if self.waiting_for() >= 0 or (self.all_board() and g.step == "reveal"):
            return PLAY, None
        return None, None

    def say(self):
        """What the board asks of the players: nothing; it says whose turn it plays
        (never a card)."""
        s = self.waiting_for()
        return "" if s < 0 else "the board plays p%d" % (s + 1)

    def tick(self, now):
        """Enter the board's seat's decision, if the game waits for one: the referee's
        Outcome, else None."""
        g = self.game
        r = self.referee
        if r is None or g.is_over():
            return None
        if g.step == "reveal":
            return r.press("ok") if self.all_board() else None
        seat = self.waiting_for()
        if seat < 0:
            return None
        act = ai.choose(g, seat)
        if act is None:
            return None
        self.decisions += 1
        if self.log is not None:
            self.log.append((seat, act[:2] if act[0] == "choose" else act))
        return self.enter(act)

    def enter(self, act):
        """The controller's event for rules action `act`."""
        r = self.referee
        g = self.game
        kind = act[0]
        if kind == "choose":
            return r.tap(report.move_name(g, act[1], act[2]))
        if kind in ("offer", "steal", "rob"):
            return r.tap(deck.crew_name(act[1])) if act[1] >= 0 else r.press("done")
        if kind == "pass":
            return r.press("done")
        if kind in ("place", "place_bj"):
            return r.pick(deck.space_name(act[1]))
        if kind == "rum":
            return r.pick(str(act[1]))
        return None  # a kind the board cannot enter yet: it waits

    # ------------------------------------------------------------ people's events

    def tap(self, card):
        s = self.waiting_for()
        if s < 0:
            return None
        return self.referee.refuse(rules.OUT_OF_TURN, "p%d is the board's seat: it plays "
                                   "itself" % (s + 1), ((SEAT, s),))

    def press(self, button):
        if button == "back":
            return self._back()
        s = self.waiting_for()
        if s < 0:
            return None
        return self.referee.refuse(rules.OUT_OF_TURN, "p%d is the board's seat: it plays "
                                   "itself" % (s + 1), ((SEAT, s),))

    def _owner(self, rec):
        kind = rec[0]
        if kind == "word":
            return rec[1]["speaker"]
        if kind == "choose":
            return self.game.winner_seat() if rec[1] == rules.BJ else rec[1]
        return rec[3]  # rob: the seat that chose the card

    def _back(self):
        """`back` over the board's events: with the person's event below them, or not at
        all. None: the undo history's top is a person's (the controller's own `back`)."""
        undo = self.game.undo
        n = 0
        while n < len(undo) and self._owner(undo[-1 - n]) in self.seats:
            n += 1
        if n == 0:
            return None
        if n == len(undo):
            return self.referee.refuse(oc.WRONG_PHASE, "only the board's own moves are there "
                                       "to take back")
        out = None
        for _ in range(n + 1):
            out = self.referee.press("back")
        return out
