"""Halunken & Spelunken's controller: the turn flow at the table (docs/halunken.md; the sim
contract's "How a game is entered"), for every deal: at a table (`deal=table`) each crew
card taken from a tavern and each turned Black-Jack card is tapped (steps `take`,
`bj-card`); with a dealt deck (`deal=seed` or `given`) the board makes every take and turns
Black-Jack's cards itself, and such a tap is `wrong-phase` (H33).

Taps (a card name, None for an unregistered tag), presses and picks in; one
core.outcome.Outcome per event out (also kept as `outcome`). It holds the one piece of UI
state the rules do not know: the cursor of an open option list (`place`, `place-bj`,
`rum`), which a power cut resets to the first option. Every refused event leaves game and
cursor as they were, with the contract's code, checked in the contract's order: the game
over (`wrong-phase`), the tag (`unknown-card`), the step (`wrong-phase`), the owner
(`already-chosen`, then `out-of-turn`), the card (`card-already-played`, `not-in-crew`,
`card-not-available`), the value (`bid-too-low`), the option (`not-offered`).

The secret choice (H32, section 8.3): choices are taken in seat order from p1 (W's
Black-Jack card right after W's own in a won tactical round); an accepted choice is
acknowledged by one `private` outcome with no places, the same for every card, and a
refused one depends only on the tag's owner and the cards played before (both public).
"""

from core import outcome as oc
from core.board import ROLES
from core.outcome import WRONG_PHASE, Rejected
from games.halunken import deck, rules
from games.halunken.rules import BJ

# The kinds of place a refusal flashes (core.outcome.Outcome.places): (kind, index).
SPACE = "space"  # a tavern's space light (index 0..13)
PILE = "pile"  # a tavern's pile light
SEAT = "seat"  # a seat's light (index 0..3)
PORT = "port"  # the port's light (index 0)

# What a tapped name is.
CREW = 0
MOVE = 1
BJ_CARD = 2

OPTION_STEPS = ("place", "place-bj", "rum")


def parse_card(name):
    """(kind, a, b) for a card name: (CREW, card, 0), (MOVE, seat label number 1..4,
    movement card), (BJ_CARD, n, 0); None for anything else."""
    if not isinstance(name, str):
        return None
    c = deck.crew_card(name)
    if c >= 0:
        return (CREW, c, 0)
    if len(name) > 3 and name[0] == "P" and name[2] == "-" and name[1] in "1234":
        m = deck.move_card(name[3:])
        if m >= 0:
            return (MOVE, int(name[1]), m)
    if name.startswith("BJ-") and name[3:].isdigit() and 1 <= int(name[3:]) <= 12:
        return (BJ_CARD, int(name[3:]), 0)
    return None


def expected_figure(g):
    """The figure whose event the step waits for (H32's order in `choose`), or -1;
    allocates nothing (the view calls it every frame)."""
    st = g.step
    if st == "place":
        return g.placer
    if st == "place-bj":
        return BJ
    if st == "choose":
        w = g.winner_seat()
        ctl = g.bj_controlled()
        for s in range(g.players):
            if g.choices[s] < 0:
                return s
            if s == w and ctl and g.choices[BJ] < 0:
                return BJ
        return -1
    if st == "rum":
        return g.rum_owner
    if st == "steal":
        return g.pending["mover"]
    if st == "rob" or st == "bj-card":
        return BJ
    if st == "take":
        return g.taking[0]
    return -1


def expected_seat(g):
    """The seat whose event it is (the contract's `turn`), or -1; allocates nothing."""
    st = g.step
    if st is None or st == "reveal":
        return -1
    if st == "place":
        return g.placer
    if st == "place-bj":
        return g.low
    if st == "auction":
        return g.auction["speaker"]
    if st == "choose":
        f = expected_figure(g)
        return g.winner_seat() if f == BJ else f
    if st == "rum":
        return g.winner_seat() if g.rum_owner == BJ else g.rum_owner
    if st == "steal":
        return g.pending["thief"]
    if st == "take":
        f = g.taking[0]
        return g.winner_seat() if f == BJ else f
    if st == "bj-card":
        return g.winner_seat()
    return g.robs[0][1]


class Controller:
    def __init__(self, game):
        self.game = game
        self.options = []  # the open option list: spaces (place, place-bj) or numbers (rum)
        self.sel = 0  # the cursor in it
        self.errors = 0  # refusals so far
        self.privacy = False  # the last accepted event must not tell which card it was
        self.outcome = None  # the core.outcome.Outcome of the last event
        self._cursor = False  # the event only moved the cursor
        self._sync()

    # --------------------------------------------------------------- state

    def is_idle(self):
        """Nothing the journal does not keep: the cursor is on its first option."""
        return self.sel == 0

    def _sync(self):
        g = self.game
        st = g.step
        if st == "place" or st == "place-bj":
            self.options = g.vacant()
        elif st == "rum":
            self.options = list(g.options)
        else:
            self.options = []
        self.sel = 0

    def selected(self):
        """The option under the cursor (a space or a number), or -1."""
        return self.options[self.sel] if self.options else -1

    def option_names(self):
        if self.game.step == "rum":
            return list(self.options)
        return [deck.space_name(t) for t in self.options]

    # -------------------------------------------------------------- events

    def tap(self, card):
        """A tag on the scanner: `card` is the card's name, or None (unregistered tag)."""
        return self._run(self._tap, card)

    def press(self, button):
        if button not in ROLES:
            raise ValueError("unknown button %r" % (button,))
        return self._run(getattr(self, "_" + button))

    def pick(self, name):
        """Confirm option `name` (`T5` or a number `4`, the simulator's `pick`)."""
        return self._run(self._pick, name)

    def refuse(self, code, message, places=()):
        """A refused event: its Outcome (nothing else changes); `places` to flash."""
        self.errors += 1
        self.outcome = oc.refused(code, message, places)
        return self.outcome

    def _run(self, handler, *args):
        g = self.game
        before = (g.round, g.phase)
        sel = self.sel
        self.privacy = False
        self._cursor = False
        try:
            handler(*args)
        except Rejected as e:
            self.sel = sel  # the rules changed nothing; nor does the controller
            self.privacy = False
            return self.refuse(e.code, e.message, self._places(e.code, args))
        if not self._cursor:  # a rules action: the lists follow from the new state
            self._sync()
        if g.is_over() and before[1] != "over":
            kind = oc.GAME_OVER
        elif g.round != before[0] and before[0] > 0:
            kind = oc.ROUND_END
        else:
            kind = oc.ACCEPTED
        self.outcome = oc.accepted(kind, self.privacy)
        return self.outcome

    def _places(self, code, args):
        """What a refusal flashes: public places only (a tag's owner is public, 8.4)."""
        g = self.game
        if g.is_over():
            return ()
        out = []
        arg = args[0] if args else None
        parsed = parse_card(arg)
        if code == rules.NOT_OFFERED:
            f = expected_figure(g)
            if g.step == "rum" and f >= 0:
                out.append((SPACE, g.where(f)))
            elif isinstance(arg, str) and len(arg) > 1 and arg[0] == "T" and arg[1:].isdigit():
                t = int(arg[1:]) - 1
                if 0 <= t < deck.SPACES:
                    out.append((SPACE, t))
        elif parsed is not None and parsed[0] == MOVE and parsed[1] <= g.players and code in (
                rules.OUT_OF_TURN, rules.ALREADY_CHOSEN, rules.PLAYED):
            fig = self._figure(parsed[1])
            out.append((SPACE, g.bj) if fig == BJ else (SEAT, fig))
        elif code == rules.OUT_OF_TURN and parsed is not None and parsed[0] == CREW:
            for s in range(g.players):
                if parsed[1] in g.crews[s]:
                    out.append((SEAT, s))
        elif code == rules.TOO_LOW:
            out.append((SEAT, g.auction["speaker"]))
            out.append((PORT, 0))
        elif code == rules.NOT_IN_CREW and g.step in ("steal", "rob"):
            for src in g.sources():
                out.append((PORT, 0) if src == rules.PORT else (SEAT, src))
        elif code == rules.NOT_AVAILABLE:  # the pile taken from, where the card is
            out.append((PILE, g.taking[1]))
            for s in range(g.players):
                if parsed[1] in g.crews[s]:
                    out.append((SEAT, s))
            if parsed[1] in g.port:
                out.append((PORT, 0))
        if not out:
            s = expected_seat(g)
            if s >= 0:
                out.append((SEAT, s))
        return out

    def _figure(self, label):
        """The figure a movement card of seat label `label` (1..4) belongs to: in
        tactical the P3 set is Black-Jack's (H26)."""
        if self.game.mode == "tactical" and label == 3:
            return BJ
        return label - 1

    # ---------------------------------------------------------------- taps

    def _tap(self, card):
        g = self.game
        if g.is_over():
            raise Rejected(WRONG_PHASE, "the game is over")
        parsed = parse_card(card)
        if parsed is None:
            raise Rejected(rules.UNKNOWN, "this tag is not a card of this game")
        kind, a, b = parsed
        st = g.step
        if kind == MOVE:
            if a > g.players and not (g.mode == "tactical" and a == 3):
                raise Rejected(rules.UNKNOWN, "P%d is not a seat at this table" % a)
            if st == "bj-card" and g.mode == "tactical" and a == 3:
                g.apply(("bj_card", b))  # H27: the turned P3 card at a table
                return
            if st != "choose" and st != "reveal":
                raise Rejected(WRONG_PHASE, "not now: movement cards are chosen after the "
                               "auction" if st == "auction" else "not now: no movement card "
                               "is chosen in step %s" % st)
            fig = self._figure(a)
            if fig == BJ and not g.bj_controlled():
                raise Rejected(WRONG_PHASE, "Black-Jack's card is chosen only by an "
                               "auction's winner (H27)")
            if g.choices[fig] >= 0:
                raise Rejected(rules.ALREADY_CHOSEN, "%s has chosen this round" % (
                    "Black-Jack" if fig == BJ else "p%d" % a))
            want = expected_figure(g)
            if fig != want:  # H32: seat order from p1
                raise Rejected(rules.OUT_OF_TURN, "%s's card is expected now" % (
                    "Black-Jack" if want == BJ else "p%d" % (want + 1)))
            self.privacy = True  # the same acknowledgement for every card (8.3)
            g.apply(("choose", fig, b))
            return
        if kind == BJ_CARD:
            if g.mode != "standard":
                raise Rejected(rules.UNKNOWN, "Black-Jack's BJ cards are not used in this game")
            if st == "bj-card":
                g.apply(("bj_card", a))
                return
            raise Rejected(WRONG_PHASE, "not now: Black-Jack's card is turned after the last "
                           "mover" if g.deal == "table" else "the board turns Black-Jack's "
                           "cards itself with a dealt deck (H33)")
        # A crew card: an offer, a theft, a robbery, a take at a table (a take is the
        # board's with a dealt deck).
        if st == "auction":
            g.apply(("offer", a))
        elif st == "steal" or st == "rob" or st == "take":
            g.apply((st, a))
        else:
            raise Rejected(WRONG_PHASE, "not now: no crew card is tapped in step %s" % st)

    # ------------------------------------------------------------- buttons

    def _need_list(self):
        if self.game.is_over():
            raise Rejected(WRONG_PHASE, "the game is over")
        if not self.options:
            raise Rejected(WRONG_PHASE, "there is nothing to choose")

    def _next(self):
        self._need_list()
        self._cursor = True
        self.sel = (self.sel + 1) % len(self.options)

    def _prev(self):
        self._need_list()
        self._cursor = True
        self.sel = (self.sel - 1) % len(self.options)

    def _ok(self):
        g = self.game
        if g.step == "reveal":
            g.apply(("reveal",))
            return
        if not g.is_over() and g.step == "choose":
            raise Rejected(WRONG_PHASE, "not every choice is in yet")
        self._need_list()
        self._confirm(self.options[self.sel])

    def _confirm(self, value):
        g = self.game
        st = g.step
        if st == "place":
            g.apply(("place", value))
        elif st == "place-bj":
            g.apply(("place_bj", value))
        else:
            g.apply(("rum", value))

    def _pick(self, name):
        self._need_list()
        rum = self.game.step == "rum"
        value = -1
        if isinstance(name, str):
            if rum and name.isdigit():
                value = int(name)
            elif not rum and len(name) > 1 and name[0] == "T" and name[1:].isdigit():
                value = int(name[1:]) - 1
        if value not in self.options:
            raise Rejected(rules.NOT_OFFERED, "%s is not among the options" % (name,))
        self.sel = self.options.index(value)
        self._confirm(value)

    def _done(self):
        g = self.game
        st = g.step
        if st == "auction":
            g.apply(("pass",))  # tactical: a withdrawal (H26)
        elif st == "steal" or st == "rob":
            g.apply((st, -1))  # H11: decline; refused in a nobody-bid robbery (H23)
        else:
            raise Rejected(WRONG_PHASE, "the game is over" if g.is_over()
                           else "done means nothing in step %s" % st)

    def _back(self):
        g = self.game
        if g.is_over():
            raise Rejected(WRONG_PHASE, "the game is over")
        g.apply(("undo",))  # wrong-phase when there is nothing to take back

    def _discard(self):
        raise Rejected(WRONG_PHASE, "Halunken & Spelunken has no discard")
