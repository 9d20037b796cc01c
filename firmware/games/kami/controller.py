"""Kami's controller: the plays at the table as rules section 8.2 and the sim contract's
steps say (docs/kami.md "On the board"). Taps (a card name, None for an unregistered tag),
presses and picks in; one core.outcome.Outcome per event out (also kept as `outcome`).

A tap's role follows from the state, never from a question (K20: each card is tapped as it
is placed and counts for the seat the board waits for):

    phase centre           the next stack's face-up card (2 players at a table)
    step open              the face-down defence (K6): one private Outcome, no places,
                           the same for every card (8.2, 8.3)
    step attack            the attack card (K3, K4, K7, K22)
    step respond           a face-up counter (K1, K2, K4)
    step reveal            the card turned up on the centre stack (K13, at a table)
    claim, step cards      a Soldier shown (K11)

`pick "deal p1:CARD,... p2:..."` states a round's deal (deal=given, phase deal: the
simulator's `deal` command, a host on the link; dealing.parse reads it); `done` passes
(K15) or ends a claim's Soldiers; `back` takes back this turn's defence or
counter, or withdraws / plays on in a claim; `discard` opens a 5-Soldier claim; `next`,
`prev`, `ok` and `pick pN` choose the claimant; `ok` cancels the round in the claim's
answer. Every refused event changes nothing (the rules check before they change, and the
claim's cursor is restored), with the contract's code in the contract's order: the game
over (`wrong-phase`), the tag (`unknown-card`), then the rules' own order (phase and step,
the card, the role, the claim). The one piece of UI state the rules do not know is the
claim's highlighted seat (`sel`), which a power cut drops with the claim.
"""

from core import outcome as oc
from core.board import ROLES
from core.outcome import WRONG_PHASE, Rejected
from games.kami import dealing, deck, rules
from games.kami.settings import seat_names

DEAL = "deal "  # a pick that states a deal: "deal p1:CARD,... p2:..."
SEAT = "seat"  # a refusal flashes the acting seat's light (8.4): (SEAT, seat index)


def acting_seat(g):
    """The seat the board waits for (the pulsing seat, the contract's `turn`, or the
    claim's claimant / partner), or -1 when the game is over; allocates nothing."""
    if g.phase == "over":
        return -1
    if g.phase == "claim":
        step = g.claim[1]
        if step == "cards":
            return g.claim[0]
        if step == "answer":
            return g.partner(g.claim[0])
        return g.first
    if g.phase == "play":
        return g.reveal_seat if g.reveal >= 0 else g.turn
    return g.first


class Controller:
    def __init__(self, game):
        self.game = game
        self.sel = game.first  # the claim's highlighted seat (step seat)
        self.errors = 0  # refusals so far
        self.privacy = False  # the last accepted event must not tell which card it was
        self.outcome = None  # the core.outcome.Outcome of the last event
        self._cursor = False  # the event only moved the claim's cursor

    def is_idle(self):
        """Nothing the journal does not keep: no claim is open (its cursor is UI state)."""
        return self.game.phase != "claim"

    def can_undo(self):
        """`back` would take back this turn's defence or counter (not a centre card)."""
        g = self.game
        return (g.phase == "play" and g.reveal < 0 and g.step == "attack"
                and g.placed is not None and not g.placed[2])

    def cursor(self):
        """The claim's highlighted seat while its claimant is chosen, else -1."""
        g = self.game
        if g.phase == "claim" and g.claim[1] == "seat":
            return self.sel
        return -1

    # -------------------------------------------------------------- events

    def tap(self, card):
        """A tag on the scanner: `card` is the card's name, or None (unregistered tag)."""
        return self._run(self._tap, card)

    def press(self, button):
        return self._run(self._press, button)

    def pick(self, name):
        """Choose and confirm the claimant `name` (`p3`, the simulator's `pick`)."""
        return self._run(self._pick, name)

    def refuse(self, code, message, places=(), private=False):
        """A refused event: its Outcome (nothing else changes); `places` to flash;
        `private`: the refused card was a face-down defence (the link names no card)."""
        self.errors += 1
        self.outcome = oc.refused(code, message, places, private)
        return self.outcome

    def _run(self, handler, arg):
        g = self.game
        before_round = g.round
        was_over = g.is_over()
        sel = self.sel
        self.privacy = False
        self._cursor = False
        # 8.3: a refused face-down defence tells nothing of the card, not even its kind
        # in the link's message (core.link names no card of a private refusal)
        secret = (handler == self._tap and g.phase == "play" and g.reveal < 0
                  and g.step == "open") or self._is_deal(handler, arg)
        try:
            handler(arg)
        except Rejected as e:
            self.sel = sel  # the rules changed nothing; nor does the controller
            self.privacy = False
            s = acting_seat(g)
            secret = secret and e.code != rules.UNKNOWN_CARD  # an unknown tag is no card
            return self.refuse(e.code, e.message, ((SEAT, s),) if s >= 0 else (), secret)
        if not self._cursor and g.phase != "claim":
            self.sel = g.first
        if g.is_over() and not was_over:
            kind = oc.GAME_OVER
        elif g.round != before_round:
            kind = oc.ROUND_END  # K7: the last hand card scored the round
        else:
            kind = oc.ACCEPTED
        self.outcome = oc.accepted(kind, self.privacy)
        return self.outcome

    # ---------------------------------------------------------------- taps

    def _tap(self, name):
        g = self.game
        if g.is_over():
            raise Rejected(WRONG_PHASE, "the game is over")
        card = deck.index(name) if isinstance(name, str) else -1
        if card < 0:  # 8.4: unknown-card in every phase but over
            raise Rejected(rules.UNKNOWN_CARD, "this tag is not one of Kami's 32 cards")
        if g.phase == "centre":
            g.apply(("centre", card))
        elif g.phase == "claim":
            g.apply(("show", card))  # wrong-phase outside step cards
        elif g.phase != "play":
            raise Rejected(WRONG_PHASE, "the cards are not dealt yet")
        elif g.reveal >= 0:
            g.apply(("reveal", card))
        elif g.step == "open":
            g.apply(("defend", card))  # K6: face down, any card
            self.privacy = True  # 8.2: the same acknowledgement for every card
        elif g.step == "respond":
            g.apply(("counter", card))
        else:
            g.apply(("attack", card))

    # ------------------------------------------------------------- buttons

    def _press(self, button):
        g = self.game
        if button not in ROLES:
            raise Rejected(WRONG_PHASE, "%r is not a button" % (button,))
        if g.is_over():
            raise Rejected(WRONG_PHASE, "the game is over")
        claim = g.claim[1] if g.phase == "claim" else None
        if button == "next" or button == "prev":
            if claim != "seat":
                raise Rejected(WRONG_PHASE, "%s means nothing now" % button)
            self._cursor = True
            self.sel = (self.sel + (1 if button == "next" else -1)) % g.players
        elif button == "ok":
            if claim == "seat":
                g.apply(("pick", self.sel))
            elif claim == "answer":
                g.apply(("cancel",))  # K11: the partner cancels, the round is dealt again
            else:
                raise Rejected(WRONG_PHASE, "ok means nothing now")
        elif button == "done":
            if claim == "cards":
                g.apply(("shown",))
            elif claim is None and g.phase == "play" and g.reveal < 0 and g.step == "respond":
                g.apply(("pass",))  # K15
            else:
                raise Rejected(WRONG_PHASE, "done means nothing now")
        elif button == "back":
            g.apply(("back",))  # the rules refuse it outside step attack and a claim
        else:
            g.apply(("discard",))  # K11: wrong-phase or no-claim where it means nothing

    def _is_deal(self, handler, arg):
        return handler == self._pick and isinstance(arg, str) and arg.startswith(DEAL)

    def _pick(self, name):
        g = self.game
        if isinstance(name, str) and name.startswith(DEAL):
            return self._deal(name[len(DEAL):])
        if g.is_over() or g.phase != "claim" or g.claim[1] != "seat":
            raise Rejected(WRONG_PHASE, "pick means nothing now: no claimant is chosen")
        seats = seat_names(g.players)
        if name not in seats:
            raise Rejected(WRONG_PHASE, "%r is not a seat at this table" % (name,))
        self.sel = seats.index(name)
        g.apply(("pick", self.sel))

    def _deal(self, text):
        """A stated deal (deal=given, phase deal): the hands dealt, the round begins. The
        acknowledgement names no card (8.3); a malformed deal is `bad-deal`."""
        g = self.game
        if g.is_over() or g.phase != "deal":
            raise Rejected(WRONG_PHASE, "no deal is awaited now")
        try:
            action = dealing.parse(text, g.players)
        except ValueError as e:
            raise Rejected(rules.BAD_DEAL, "not a deal: %s" % (e,)) from None
        g.apply(action)
        self.privacy = True
