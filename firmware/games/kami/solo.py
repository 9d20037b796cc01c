"""The board's players at a Kami table: the seats the settings give the board (`ai`, e.g.
["p2", "p4"]; 2, 3 or 4 players, in 4 a human's or the board's own partner) play
themselves through the controller, as a person's taps and presses would (so the rules,
the journal, the lights and the link treat their events as anyone's).

Only with a known deal (`deal=seed` or `given`, settings.py): the board must hold its
seats' cards. When the board waits for one of its seats (`waiting_for`), the next tick of
the loop asks `ai.choose` and enters the answer: a defence, a counter or an attack as the
card's tap (a face-down defence gets the same private acknowledgement as a person's, 8.2,
8.3), a pass as `done` (K15). Before the round's first card a board seat holding five
Soldiers claims (K11): `discard`, `pick` of its seat, its Soldiers tapped, `done`; when
the board is the partner of a claimant it answers (`ok` cancels, `back` plays on).

People's events while the board's seat is to act are refused (`wrong-phase`, the board's
seat flashing), except `discard`: any seat may claim before the first card (K11). The
undo takes back only a person's own defence or counter of this turn (the controller's).

Nothing to journal beyond the actions and the claims made: a decision depends on the
game's state alone, so a power cut replays to the same position and the board decides the
same again (a claim it made before the cut is not repeated while it is in `claimed`,
which the journal keeps through `save`).
"""

from core.outcome import WRONG_PHASE
from games.kami import ai, deck
from games.kami.controller import SEAT, acting_seat

PLAY = "play"  # step(): the board is about to act for one of its seats


class Solo:
    def __init__(self, game, referee, seats, clock=None):
        self.game = game
        self.referee = referee
        self.seats = seats  # seat indices the board plays
        self.clock = clock
        self.thinking = False  # core.loopstats reads these three (a decision's time)
        self.plan = None  # the last action the board entered, as a 1-tuple
        self.hint = None
        self.dirty = False
        self.decisions = 0
        self.claimed = []  # ai.claim_key of the board's claims (K11: one per deal)
        self.claim_seat = -1  # the board's seat whose claim is open
        self.log = None  # a list to keep (seat, action) of the board's seats, or None

    # ------------------------------------------------------------ the app's calls

    def save(self):
        return {"claimed": [[k[0], k[1], list(k[2])] for k in self.claimed]}

    def load(self, obj):
        self.claimed = [(k[0], k[1], tuple(k[2])) for k in obj.get("claimed", ())]

    def note(self, game, action, actor):
        """An action applied: nothing to follow (decisions read the game's state)."""

    def waiting_for(self):
        """The board's seat the game waits for, or -1."""
        g = self.game
        s = acting_seat(g)
        if s < 0 or g.phase not in ("play", "claim"):
            return -1
        if g.phase == "claim":
            step = g.claim[1]
            if step == "seat":
                return self.claim_seat  # the board opened it; a person's is theirs
            # step cards: a board seat named claimant shows its Soldiers or withdraws
        return s if s in self.seats else -1

    def step(self):
        return (PLAY, None) if self.waiting_for() >= 0 else (None, None)

    def say(self):
        """What the board asks of the players: nothing; it says whose turn it plays
        (never a card)."""
        s = self.waiting_for()
        return "" if s < 0 else "the board plays p%d" % (s + 1)

    def tick(self, now):
        """Enter the board's seat's decision, if the game waits for one: the controller's
        Outcome, else None."""
        g = self.game
        r = self.referee
        if r is None or g.is_over():
            return None
        if g.phase != "claim":
            self.claim_seat = -1
        s = ai.claimant(g, self.seats, self.claimed)
        if s >= 0:  # K11
            self.claimed.append(ai.claim_key(g, s))
            self.dirty = True
            self.claim_seat = s
            return self._entered(s, ("discard",), r.press("discard"))
        seat = self.waiting_for()
        if seat < 0:
            return None
        if g.phase == "claim" and g.claim[1] == "seat":
            return self._entered(seat, ("pick", seat), r.pick("p%d" % (seat + 1)))
        act = ai.choose(g, seat)
        if act is None:
            return None
        return self._entered(seat, act, self.enter(act))

    def _entered(self, seat, act, outcome):
        self.decisions += 1
        self.plan = (act,)
        if self.log is not None:
            self.log.append((seat, act[:1] if act[0] == "defend" else act))
        return outcome

    def enter(self, act):
        """The controller's event for rules action `act`."""
        r = self.referee
        kind = act[0]
        if kind in ("defend", "counter", "attack", "show"):
            return r.tap(deck.NAMES[act[1]])
        if kind == "pass" or kind == "shown":
            return r.press("done")
        if kind == "cancel":
            return r.press("ok")
        if kind in ("keep", "withdraw"):
            return r.press("back")
        return None  # a kind the board does not enter: it waits

    # ------------------------------------------------------------ people's events

    def _refuse(self):
        s = self.waiting_for()
        if s < 0:
            return None
        return self.referee.refuse(WRONG_PHASE, "p%d is the board's seat: it plays itself"
                                   % (s + 1), ((SEAT, s),))

    def tap(self, card):
        return self._refuse()

    def press(self, button):
        if button == "discard":
            return None  # K11: any seat may claim before the first card
        return self._refuse()
