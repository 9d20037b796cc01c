"""What one player of Kahuna may know: the `Tracker` of a game's public record as one side
sees it, fed every applied action, and the `Observation` it gives (the board, the phase and
round, its own hand, the cards seen face up on the discard pile, the display, the cards the
opponent took face up and still holds, the counts). The opponent's hand, a secret discard
and the deck order never reach it. The board's player (games.kahuna.ai) decides from an
observation only; so do the baselines it is measured against."""

from games.kahuna import rules


class Observation:
    """Everything one player may know at a moment, as plain immutable values.
    Cards are the rules' card indices; `seen`, `opp_known` are bitmasks of cards."""

    def __init__(self, me, variant, phase, turn, round_, final_turns, must_draw, refill,
                 handicap_left, bridges, control, supply, hand, seen, opp_known, opp_count,
                 discard_count, drawable_count, display):
        self.me = me
        self.variant = variant
        self.phase = phase
        self.turn = turn
        self.round = round_
        self.final_turns = final_turns
        self.must_draw = must_draw
        self.refill = refill
        self.handicap_left = handicap_left
        self.bridges = bridges
        self.control = control
        self.supply = supply
        self.hand = hand
        self.seen = seen
        self.opp_known = opp_known
        self.opp_count = opp_count
        self.discard_count = discard_count
        self.drawable_count = drawable_count
        self.display = display

    def key(self):
        return (self.me, self.variant, self.phase, self.turn, self.round, self.final_turns,
                self.must_draw, self.refill, self.handicap_left, self.bridges, self.control,
                self.supply, self.hand, self.seen, self.opp_known, self.opp_count,
                self.discard_count, self.drawable_count, self.display)


class Tracker:
    """The public record of a game as one player (`me`, 0 white / 1 black) sees it.

    Create it before the deal and call `note(game, action, actor, face_up)` after every
    action the game applied (`actor` is the player on turn before it; `face_up` says,
    for a draw, that the card was taken from the display in view of both players).
    Placed and removed cards are played face up, so they are known to lie on the discard
    pile; the opponent's discards are secret and their names are never read; nor are the
    names of cards the opponent draws from the deck."""

    def __init__(self, game, me):
        self.me = me
        self.n_cards = game.settings.n_cards
        self.seen = 0  # cards known to lie on the discard pile
        self.opp_known = 0  # cards the opponent took face up and still holds
        self.opp_count = 0
        self.round = game.round
        self.log = []  # the record before each action of this turn that undo takes back

    def _bit(self, game, name):
        return 1 << game.card_index[name]

    def note(self, game, action, actor, face_up=False):
        kind = action[0]
        mine = actor == self.me
        if kind in ("place", "remove", "refill", "discard"):
            self.log.append((self.seen, self.opp_known, self.opp_count))
        if kind == "deal":
            if not mine:
                self.opp_count += 1
        elif kind == "place" or kind == "remove":
            for name in action[1:-1] if kind == "remove" else action[1:2]:
                b = self._bit(game, name)
                self.seen |= b
                if not mine:
                    self.opp_count -= 1
                    self.opp_known &= ~b
        elif kind == "discard":
            if mine:
                self.seen |= self._bit(game, action[1])
            else:
                # Secret: any card of their hand may be the one, the known ones too.
                self.opp_count -= 1
                self.opp_known = 0
        elif kind == "undo":
            if self.log:
                self.seen, self.opp_known, self.opp_count = self.log.pop()
        elif kind == "draw":
            if not mine:
                self.opp_count += 1
                if face_up:
                    self.opp_known |= self._bit(game, action[1])
            self.log = []
        elif kind == "decline" or kind == "end_play" and game.turn != actor:
            self.log = []
        if game.round != self.round:  # R5: the discard pile became the new deck
            self.round = game.round
            self.seen = 0
            self.log = []

    def observe(self, game, display):
        """The observation of `self.me` now; `display` is the face-up card names."""
        idx = game.card_index
        hand = tuple(sorted(idx[n] for n in game.hand(rules.PLAYERS[self.me])))
        return Observation(
            self.me, game.settings.variant, game.phase, game.turn, game.round, game.final_turns,
            game.must_draw, game.refill, game.handicap_left, tuple(game.bridges),
            tuple(game.control), tuple(game.supply), hand, self.seen, self.opp_known,
            self.opp_count, game.discard_count(), game.drawable_count(),
            tuple(sorted(idx[n] for n in display)))
