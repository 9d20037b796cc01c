"""A remote game at this board (settings `remote`: the seat played at another table,
docs/remote.md). Loaded only when such a game starts.

The deck and the display are virtual (the dealer beside the broker holds them); this table
holds its own seat's cards, physical, and the board never sees the other seat's hand. The
host beside the board (`python -m host_tools remote ... --port`) feeds it the dealer's
events in order, one {"cmd": "remote", "seq", "actor", "action"[, "card"]} each (the
link's `remote` command); the board answers with its news line, {"event": "remote", "fed",
"moves", "want", "say", "hand"}: how many events it has taken, this table's moves not yet
confirmed by an event ([[n, action]], the requests the host sends for it) and the card
this table's player is to take and tap (a deal or a draw from the deck), or null, and
this table's hand. The other table's move is shown as a move: the outcome says which
places it touched (core.outcome.moved), the view blinks them, the buzzer plays its sound.

The rules' state needs every card somewhere: the other seat's unknown cards stand in as
placeholders (any card the board has not seen: in the deck, on the pile face down, in
that hand). When a card turns out to be elsewhere than its stand-in (the other seat plays
it, the dealer deals it to this table or lays it on the display), it trades places with a
card of the place it must be in (`_put`); the rules care for no card's name but in the
hands, so the game goes on the same. Each trade is journaled (a ["solo", {"swap"}]
record) before the action that needs it, so a power cut replays it. The bookkeeping (events
taken, moves, the card to take, the display) follows the actions in `note`, in play and in
the journal's replay alike; an event that applies no action journals it (`save`: a
["solo", ...] record; a compacted journal carries one too).

This table's own turn goes through the referee as at any table, but for the draw: a
display card is tapped (it lies at both tables face up); `ok` asks the dealer for the
deck's top card, and the board then says which card to take and tap.
"""

from core import outcome as oc
from games.kahuna import rules
from games.kahuna.referee import CONN, ISLAND

OTHER = "other-table"  # rejection code: it is the other table's turn, or its card


class Remote:
    """The solo interface (core.app: tap, press, tick, say, note, save, load, dirty,
    thinking, hint_move) for a seat played elsewhere."""

    def __init__(self, game, referee):
        self.game = game
        self.referee = referee
        self.side = game.settings.remote  # the seat played at the other table
        self.fed = 0  # the dealer's events this board has taken
        self.n = 0  # this table's last move number
        self.moves = []  # this table's moves that no event confirmed yet: [[n, action]]
        self.want = None  # the card this table's player is to take and tap
        self.display = []  # the face-up display (names)
        self.dirty = False
        self.thinking = False
        self.decisions = 0
        self.keep = None  # callable(obj): a ["solo", obj] journal record (core.app)
        self.told = None

    # -------------------------------------------------------------- state

    def save(self):
        return {"fed": self.fed, "n": self.n, "moves": self.moves, "want": self.want,
                "display": self.display}

    def load(self, obj):
        """A ["solo", obj] journal record: a swap, or the table's bookkeeping."""
        swap = obj.get("swap")
        if swap is not None:
            place = self.game.place
            a, b = self.game.card_index[swap[0]], self.game.card_index[swap[1]]
            place[a], place[b] = place[b], place[a]
            return
        try:
            self.fed = int(obj["fed"])
            self.n = int(obj["n"])
            self.moves = [[int(m[0]), list(m[1])] for m in obj["moves"]]
            self.want = obj["want"]
            self.display = list(obj["display"])
        except (KeyError, TypeError, ValueError, IndexError):
            pass

    def news(self, force=False):
        """The news line for the host when something changed (or `force`), else None."""
        hand = self.game.hand(rules.PLAYERS[1 - self.side])
        now = (self.fed, len(self.moves), self.n, self.want, self.say(), len(hand))
        if now == self.told and not force:
            return None
        self.told = now
        return {"event": "remote", "fed": self.fed, "moves": self.moves, "want": self.want,
                "say": now[4], "hand": hand}

    def hint_move(self):
        return ((), ())

    def tick(self, now):
        return None

    def step(self):
        return (None, None)

    def mine(self):
        g = self.game
        return g.turn != self.side and g.phase != rules.OVER

    def say(self):
        g = self.game
        if g.phase == rules.OVER:
            return ""
        if self.want is not None:
            return "take %s from the cards and tap it" % (self.want,)
        if self.moves and self.moves[-1][1] == ["draw"]:
            return "the dealer draws the deck's top card for you"
        if not self.mine():
            return "the other table's turn"
        if g.phase == rules.DEAL:
            return "the dealer deals"
        if g.phase == rules.DRAW and not self.referee.discarding:
            return "tap a display card, or ok for the deck's top card"
        return "this table's turn"  # (the bridge's terminal said the other's until now)

    # -------------------------------------------------------------- this table

    def note(self, game, action, actor):
        """An action the rules applied (also in the journal's replay, so that a power cut
        between an action's record and the bookkeeping's loses nothing): the other
        table's counts as its event taken; this table's becomes a move for the dealer, but
        the card it was told to take. Nothing to journal: a replay of the action does it
        again."""
        kind = action[0]
        shown = kind == "draw" and action[1] in self.display
        if shown:
            self.display.remove(action[1])
        if actor == self.side:
            self.fed += 1  # the other table's move: its event is taken
            return
        if (kind == "deal" or kind == "draw") and not shown:
            if action[1] == self.want:
                self.want = None  # the card it was told to take: no move of its own
            return
        self.n += 1
        self.moves.append([self.n, list(action)])

    def refuse(self, code, message):
        self.referee.errors += 1
        self.referee.outcome = oc.refused(code, message, (), True)
        return self.referee.outcome

    def tap(self, card):
        g = self.game
        if g.phase == rules.OVER:
            return None
        if self.want is not None:
            if card != self.want:
                return self.refuse(OTHER, "not this card: " + self.say())
            self._put(self.game.card_index[card], rules.DRAWABLE)
            return self.referee.tap(card)  # `note` then crosses the card off
        if not self.mine() or g.phase == rules.DEAL or self.moves and \
                self.moves[-1][1] == ["draw"]:
            return self.refuse(OTHER, self.say())
        if g.phase == rules.DRAW and not self.referee.discarding \
                and card not in self.display:
            return self.refuse(OTHER, "not a display card: " + self.say())
        return None

    def press(self, button):
        g = self.game
        if g.phase == rules.OVER:
            return None
        if not self.mine() or self.want is not None or g.phase == rules.DEAL or \
                self.moves and self.moves[-1][1] == ["draw"]:
            return self.refuse(OTHER, self.say())
        if (button == "ok" and g.phase == rules.DRAW and not self.referee.discarding
                and g.refill == rules.NOBODY):
            if len(g.hand(rules.PLAYERS[g.turn])) >= rules.HAND_LIMIT:
                return self.refuse(rules.HAND_FULL, "discard before drawing")
            if g.drawable_count() <= len(self.display):
                return self.refuse(rules.NOT_DRAWABLE, "the deck is empty: tap a display card")
            self.n += 1
            self.moves.append([self.n, ["draw"]])
            self.dirty = True
            return oc.accepted()
        return None

    # -------------------------------------------------------------- the dealer's events

    def remote(self, msg):
        """One of the dealer's events (the link's remote command): its Outcome, or None
        for one taken already; ValueError (nothing changed) for one that does not fit."""
        seq = msg.get("seq")
        action = msg.get("action")
        actor = msg.get("actor")
        if type(seq) is not int or not isinstance(action, list) or not action:
            raise ValueError("remote needs seq and action")
        if seq <= self.fed:
            return None  # taken already (the host sends again after a restart)
        if seq != self.fed + 1:
            raise ValueError("event %d: this board has taken %d" % (seq, self.fed))
        if self.want is not None:
            raise ValueError("event %d: this table's player is still to tap a card" % seq)
        g = self.game
        kind = action[0]
        players = rules.PLAYERS
        if actor is None:
            if kind != "display" or len(action) != 2 or not isinstance(action[1], list):
                raise ValueError("the dealer's event must be a display")
            # A stand-in traded out of the deck is none of the new display's cards: else
            # a display card laid before would go back to the other hand.
            for name in action[1]:
                self._put(self._card(name), rules.DRAWABLE, action[1])
            self.display = list(action[1])
            return self._taken(seq, oc.accepted())
        if actor not in players:
            raise ValueError("event %d: no such seat %r" % (seq, actor))
        if players.index(actor) != self.side:
            return self._mine(seq, action, msg.get("card"))
        if g.turn != self.side or g.is_over():
            raise ValueError("event %d: it is %s's turn here" % (seq, players[g.turn]))
        return self._theirs(seq, action)

    def _card(self, name):
        c = self.game.card_index.get(name) if isinstance(name, str) else None
        if c is None:
            raise ValueError("unknown card %r" % (name,))
        return c

    def _taken(self, seq, out):
        self.fed = seq
        self.dirty = True
        return out

    def _mine(self, seq, action, card):
        """This table's event: a card to take (a deal, the deck's top card), else the
        echo of its next move."""
        kind = action[0]
        if action == ["deal"] or action == ["draw"] and self.moves \
                and self.moves[0][1] == ["draw"]:
            if self.game.turn == self.side:
                raise ValueError("event %d: it is the other table's turn here" % seq)
            c = self._card(card)
            if self.game.place[c] == 1 - self.side:
                raise ValueError("event %d: that card is in this table's hand" % seq)
            if kind == "draw":
                self.moves.pop(0)
            self.want = card
            return self._taken(seq, oc.accepted(private=True))
        if not self.moves:
            raise ValueError("event %d: this table made no such move" % seq)
        mine = self.moves[0][1]
        if action != (["discard"] if mine[0] == "discard" else mine):
            raise ValueError("event %d is not this table's next move" % seq)
        self.moves.pop(0)
        return self._taken(seq, oc.accepted())

    def _theirs(self, seq, action):
        """The other table's move, applied to the rules with stand-ins for its cards."""
        g = self.game
        kind = action[0]
        side = self.side
        place = g.place
        if kind in ("place", "remove"):
            for name in action[1:-1]:
                self._put(self._card(name), side, action)
            act = tuple(action)
        elif kind == "draw" and len(action) == 2:
            if action[1] not in self.display:
                raise ValueError("event %d: %s is not on the display" % (seq, action[1]))
            act = ("draw", action[1])
        elif kind in ("deal", "draw", "discard") and len(action) == 1:
            want = side if kind == "discard" else rules.DRAWABLE
            for c in range(len(place)):
                if place[c] == want and g.card_names[c] not in self.display:
                    break
            else:
                raise ValueError("event %d: no card for it" % seq)
            act = (kind, g.card_names[c])
        else:
            act = tuple(action)
        self.referee._clear()  # nothing of this table's is pending in the other's turn
        before = (g.round, g.final_turns)
        try:
            g.apply(act)
        except (rules.Rejected, TypeError, ValueError, KeyError) as e:
            raise ValueError("event %d does not apply: %s" % (seq, e)) from None
        kind_out = oc.GAME_OVER if g.is_over() else (
            oc.ROUND_END if (g.round, g.final_turns) != before else oc.ACCEPTED)
        # The move shown as a move (core.frame's blinks, core.tunes.MOVED): the places
        # its public names touched, the cards' islands and the connection; a card from
        # the deck or discarded face down touches none, whatever the stand-in.
        places = []
        if kind in ("place", "remove", "handicap", "refill"):
            for name in action[1:-1]:
                places.append((ISLAND, g.card_index[name] // 2))
            places.append((CONN, g.board.conn_index[action[-1]]))
        # `note` counts the event as taken (and takes the card off the display), as it
        # does when the journal replays the action after a power cut.
        return oc.moved(kind_out, places, kind != "place" and kind != "remove")

    def _put(self, c, where, names=()):
        """Card `c` into place `where` (the other hand or the deck): it trades places with
        a stand-in there that is not among `names` (the action's other cards; journaled
        first); refused if this table holds it or, for the other hand, if it lies on the
        display."""
        g = self.game
        place = g.place
        if place[c] == where:
            return
        if place[c] == 1 - self.side or where == self.side and g.card_names[c] in self.display:
            raise ValueError("%s cannot be where the dealer says" % (g.card_names[c],))
        for d in range(len(place)):
            if place[d] == where and g.card_names[d] not in self.display \
                    and g.card_names[d] not in names:
                break
        else:
            raise ValueError("no stand-in for %s" % (g.card_names[c],))
        if self.keep is not None:
            self.keep({"swap": [g.card_names[c], g.card_names[d]]})
        place[c], place[d] = place[d], place[c]
