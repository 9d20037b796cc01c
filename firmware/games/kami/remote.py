"""A remote game of Kami at this board (settings `remote`: the seats played at other
tables, docs/remote.md "A Kami board at a table"). Loaded only when such a game starts.

The dealer beside the broker deals every round (K20: a given deal); this table's players
hold their own seat's cards, physical, and the board never sees another seat's hidden
cards. The host beside the board (`python -m host_tools remote ... --port`) feeds it the
dealer's events in order, one {"cmd": "remote", "seq", "actor", "action", ...} each (the
link's `remote` command), with what the public state and this table's hand say of it:

    ["deal", ROUND] (actor null)  "hands": {seat: [cards]} (this table's seats only)
    2 players, a deal or a card   "ups": the 8 face-up centre cards after it (null for
                                  an empty stack; K13): a centre card played, and the
                                  card turned up beneath it
    a round's last attack         "defence": its final defence, face down (K21, K8)

The board answers with its news line {"event": "remote", "fed", "moves", "want": null,
"say", "hands"}: the events taken, this table's moves no event confirmed yet ([[n,
action, seat]]: the requests the host sends, numbered by seat, a face-down defence named,
K6: the move topic is the dealer's alone), its words and its seats' hands.

The rules need every card somewhere: the other seats' unknown cards (their hands, their
face-down defences, the 3-player set-aside cards, the 2-player face-down centre cards)
are stand-ins, any cards this table has not seen. When a card turns out to be elsewhere
than its stand-in (another seat plays it, it turns up in the centre, K21 shows a final
defence, a locked Empress attacks by K22), it trades places with one (`swap`, journaled
first as a ["solo", {"swap"}] record); the rules care for no name but where a card shows,
so the game goes on the same.
The bookkeeping (events taken, moves) follows the actions in `note`, in play and in the
journal's replay alike.
"""

from core import outcome as oc
from core.outcome import Rejected
from games.kami import deck
from games.kami.controller import acting_seat
from games.kami.dealing import STACKS, dealt
from games.kami.game import DOWN  # the journal's form of a face-down defence

OTHER = "other-table"  # rejection code: another table's turn, or the dealer's
CARDS = ("defend", "attack", "counter", "show")
PLAIN = ("pass", "back", "shown", "withdraw", "cancel", "keep")


def swap(g, x, y):
    """Cards `x` and `y` trade places (hands, set-aside, centre, lines), and their
    `used` marks with them."""
    def tr(c):
        return y if c == x else x if c == y else c
    for h in g.hands:
        h[:] = sorted(tr(c) for c in h)
    for lst in (g.aside, g.down, g.up):
        if lst is not None:
            lst[:] = [tr(c) for c in lst]
    for s in g.lines:
        for line in s:
            for e in line:
                e[0] = tr(e[0])
    p = g.placed
    if p is not None:  # a copy of its line's entry once restored from the journal
        for s in g.lines:
            for line in s:
                for e in line:
                    if e is p:
                        p = None
        if p is not None:
            p[0] = tr(p[0])
    g.used[x], g.used[y] = g.used[y], g.used[x]


class Remote:
    """The solo interface (core.app: tap, press, tick, say, note, save, load, dirty,
    thinking) for the seats played elsewhere."""

    def __init__(self, game, referee):
        self.game = game
        self.referee = referee
        self.others = game.remote_seats
        self.mine = [s for s in range(game.players) if s not in self.others]
        self.fed = 0  # the dealer's events this board has taken
        self.n = [0] * game.players  # each seat's last move number (its requests')
        self.moves = []  # this table's moves no event confirmed yet: [[n, action, seat]]
        self.took = []  # [seat, n, stack]: its moves that took a centre card (K13)
        self.ups = None  # the face-up centre cards as the last action left them
        self.dirty = False
        self.thinking = False
        self.decisions = 0
        self.keep = None  # callable(obj): a ["solo", obj] journal record (core.app)
        self.told = None

    # -------------------------------------------------------------- state

    def save(self):
        return {"fed": self.fed, "n": self.n, "moves": self.moves, "took": self.took}

    def load(self, obj):
        g = self.game
        sw = obj.get("swap")
        if sw is not None:
            swap(g, deck.index(sw[0]), deck.index(sw[1]))
        else:
            try:
                self.fed = int(obj["fed"])
                self.n = [int(n) for n in obj["n"]]
                self.moves = [[int(m[0]), list(m[1]), m[2]] for m in obj["moves"]]
                self.took = [[t[0], int(t[1]), int(t[2])] for t in obj["took"]]
            except (KeyError, TypeError, ValueError, IndexError):
                pass
        self._ups()

    def _ups(self):
        g = self.game
        self.ups = None if g.up is None else list(g.up)

    def hands(self):
        g = self.game
        return dict(("p%d" % (s + 1), sorted(deck.NAMES[c] for c in g.hands[s]))
                    for s in self.mine)

    def news(self, force=False):
        """The news line for the host when something changed (or `force`), else None."""
        now = (self.fed, len(self.moves), sum(self.n), self.say(),
               self.game.sizes[self.mine[0]])
        if now == self.told and not force:
            return None
        self.told = now
        return {"event": "remote", "fed": self.fed, "moves": self.moves, "want": None,
                "say": now[3], "hands": self.hands()}

    def hint_move(self):
        return ((), ())

    def tick(self, now):
        return None

    def step(self):
        return (None, None)

    def say(self):
        g = self.game
        if g.is_over():
            return ""
        if g.phase == "deal":
            return "the dealer deals"
        if self.took:
            return "the dealer turns up the centre card"
        s = acting_seat(g)
        turn = "p%d plays at another table" % (s + 1) if s not in self.mine else \
            "p%d's turn" % (s + 1)
        if g.phase == "play" and not g.card_played():  # the deal: the cards to take
            words = ["p%d takes %s" % (m + 1, " ".join(deck.NAMES[c] for c in g.hands[m]))
                     for m in self.mine]
            if g.up is not None:
                words.append("centre %s" % " ".join(deck.NAMES[c] for c in g.up))
            return "; ".join(words + [turn])
        return turn

    # -------------------------------------------------------------- this table

    def note(self, game, action, actor):
        """An action the rules applied (also in the journal's replay): the dealer's and
        the other tables' count as their events taken; this table's become moves."""
        k = action[0]
        if k == "discard":
            return  # a claim's first half: its pick names the claimant (K11)
        if k == "pick":
            actor = action[1]
        if k == "deal" or actor not in self.mine:
            self.fed += 1
            self._ups()
            return
        if k == "pick":
            wire = ["claim"]
        elif k in CARDS:
            c = action[1] - DOWN if k == "defend" and action[1] >= DOWN else action[1]
            wire = [k, deck.NAMES[c]]
            if self.ups is not None and c in self.ups:  # a centre card (K13)
                self.took.append(["p%d" % (actor + 1), self.n[actor] + 1, self.ups.index(c)])
        else:
            wire = [k]
        self.n[actor] += 1
        self.moves.append([self.n[actor], wire, "p%d" % (actor + 1)])
        self._ups()

    def refuse(self, code, message):
        self.referee.errors += 1
        self.referee.outcome = oc.refused(code, message, (), True)
        return self.referee.outcome

    def _closed(self):
        g = self.game
        return self.took or g.phase == "deal" or acting_seat(g) not in self.mine

    def tap(self, card):
        if self.game.is_over():
            return None
        return self.refuse(OTHER, self.say()) if self._closed() else None

    def press(self, button):
        if self.game.is_over():
            return None
        if self._closed():
            return self.refuse(OTHER, self.say())
        if button == "discard":
            return self.refuse(OTHER, "a claim (K11) is made at a host table or the page")
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
            return None
        if seq != self.fed + 1:
            raise ValueError("event %d: this board has taken %d" % (seq, self.fed))
        g = self.game
        if actor is None:
            if action[0] != "deal" or g.phase != "deal":
                raise ValueError("event %d: the dealer's event must be the awaited deal" % seq)
            return self._deal(msg)
        seat = -1
        if isinstance(actor, str) and actor[:1] == "p" and actor[1:].isdigit():
            seat = int(actor[1:]) - 1
        if not 0 <= seat < g.players:
            raise ValueError("event %d: no such seat %r" % (seq, actor))
        if seat in self.mine:
            return self._echo(seq, actor, action, msg)
        if g.is_over():
            raise ValueError("event %d: the game is over here" % seq)
        if action != ["claim"] and seat not in g.to_act():
            raise ValueError("event %d: it is p%d's turn here" % (seq, g.to_act()[0] + 1))
        return self._theirs(seq, seat, action, msg)

    def _card(self, name):
        c = deck.index(name) if isinstance(name, str) else -1
        if c < 0:
            raise ValueError("unknown card %r" % (name,))
        return c

    def _deal(self, msg):
        """The round's deal: this table's hands and the face-up centre as the dealer says,
        stand-ins everywhere else."""
        g = self.game
        n = g.players
        given = msg.get("hands")
        seen = [0] * deck.COUNT
        hands = [[] for _ in range(n)]
        up = []
        if not isinstance(given, dict):
            raise ValueError("a deal needs this table's hands")
        for s in self.mine:
            cards = given.get("p%d" % (s + 1))
            if not isinstance(cards, list) or len(cards) != dealt(n):
                raise ValueError("a deal gives p%d %d cards" % (s + 1, dealt(n)))
            hands[s] = [self._card(c) for c in cards]
            up += hands[s]
        if n == 2:
            centre = [self._card(c) for c in self._ups_of(msg)]
            up += centre
        for c in up:
            if seen[c]:
                raise ValueError("%s is dealt twice" % deck.NAMES[c])
            seen[c] = 1
        rest = [c for c in range(deck.COUNT) if not seen[c]]
        for s in self.others:
            hands[s], rest = rest[:dealt(n)], rest[dealt(n):]
        stacks = [[centre[i], rest[i]] for i in range(STACKS)] if n == 2 else None
        self._apply([("deal", hands, rest if n == 3 else None, stacks)])
        return oc.accepted(private=True)

    def _ups_of(self, msg):
        ups = msg.get("ups")
        if not isinstance(ups, list) or len(ups) != STACKS:
            raise ValueError("2 players: the event needs the 8 face-up centre cards")
        return ups

    def _echo(self, seq, actor, action, msg):
        """This table's own move, confirmed: the card turned up where it took a centre
        card (K13)."""
        if not self.moves:
            raise ValueError("event %d: this table made no such move" % seq)
        n, mine, seat = self.moves[0]
        if actor != seat or action != (["defend"] if mine[0] == "defend" else mine):
            raise ValueError("event %d is not this table's next move" % seq)
        if self.took and self.took[0][:2] == [seat, n]:
            stack = self.took[0][2]
            self._turn_up(stack, self._ups_of(msg)[stack], self.game.up, False)
            self.took.pop(0)
        self.moves.pop(0)
        self.fed = seq
        self.dirty = True
        return oc.accepted()

    def _turn_up(self, stack, name, where, hidden=True):
        """The card turned up on `stack` is `name` (null: none left); `where` holds the
        stand-in there (the face-down card still, or the face-up one)."""
        if name is None:
            return
        c = self._card(name)
        if where is None or where[stack] < 0:
            raise ValueError("no card to turn up on stack %d" % (stack + 1))
        if where[stack] != c:
            self._swap(c, where[stack], hidden)

    def _theirs(self, seq, seat, action, msg):
        """Another table's move, applied with stand-ins for its cards."""
        g = self.game
        k = action[0]
        c = -1
        if k == "claim" and len(action) == 1:
            acts = [("discard",), ("pick", seat)]
        elif k == "defend" and len(action) == 1:
            if g.hands[seat]:
                c = g.hands[seat][0]
            if g.up is not None:  # from the centre: the stack that changed (K13)
                ups = self._ups_of(msg)
                for i in range(STACKS):
                    if g.up[i] >= 0 and ups[i] != deck.NAMES[g.up[i]]:
                        c = g.up[i]
            acts = [("defend", c)]
        elif k in CARDS and len(action) == 2:
            c = self._card(action[1])
            acts = [(k, c)]
        elif k in PLAIN and len(action) == 1:
            acts = [(k,)]
        else:
            raise ValueError("event %d: %r is not a move of Kami" % (seq, action[:1]))
        p = g.placed
        d = msg.get("defence")
        if k == "attack" and d is not None and p is not None and not p[1] and not p[2]:
            d = self._card(d)  # K21: the round's final defence, shown (K8)
            if p[0] != d:
                self._swap(d, p[0])
        stack = g._stack_of(c) if c >= 0 else -1
        if stack >= 0:
            self._turn_up(stack, self._ups_of(msg)[stack], g.down)
        elif c >= 0 and c not in g.hands[seat]:
            if not self._unknown(c) or not g.hands[seat]:
                raise ValueError("event %d: %s cannot be p%d's" % (seq, deck.NAMES[c], seat + 1))
            self._swap(c, g.hands[seat][0] if g.hands[seat][0] != c else g.hands[seat][-1])
        if k == "attack" and stack < 0 and deck.KIND[c] == deck.IMPERATRICE \
                and not g.empress_unlocked() and g.sizes[seat] > 1:
            self._k22(seat)
        before = g.round
        self.referee.sel = g.first
        self._apply(acts)
        kind = oc.GAME_OVER if g.is_over() else oc.ROUND_END if g.round != before \
            else oc.ACCEPTED
        return oc.accepted(kind, k == "defend")

    def _k22(self, seat):
        """A locked Empress attacked before the last card: the dealer allowed it by K22
        (2 players, no centre card showing, a hand of Empresses only), so the seat's
        other stand-ins are the unseen Empresses."""
        g = self.game
        for d in list(g.hands[seat]):
            if deck.KIND[d] != deck.IMPERATRICE:
                for e in range(deck.COUNT):
                    if deck.KIND[e] == deck.IMPERATRICE and e not in g.hands[seat] \
                            and self._unknown(e):
                        self._swap(e, d)
                        break

    def _apply(self, acts):
        try:
            for a in acts:
                self.game.apply(a)
        except (Rejected, TypeError, ValueError, IndexError) as e:
            raise ValueError("the event does not apply: %s" % (e,)) from None

    def _unknown(self, c):
        """Card `c` lies where this table cannot see it (a stand-in's place)."""
        g = self.game
        if g.used[c] == 1 or g._stack_of(c) >= 0:
            return False  # face up, or taken from the centre (rules.PUBLIC)
        for s in self.mine:
            if c in g.hands[s]:
                return False
            for e in g.lines[s][0]:
                if e[0] == c:
                    return False
        return True

    def _swap(self, c, d, hidden=True):
        """`c` to where stand-in `d` is (`hidden`: checked to be a stand-in's place too)."""
        if not self._unknown(c) or hidden and not self._unknown(d):
            raise ValueError("%s cannot be where the dealer says" % deck.NAMES[c])
        if self.keep is not None:
            self.keep({"swap": [deck.NAMES[c], deck.NAMES[d]]})
        swap(self.game, c, d)
        self._ups()
