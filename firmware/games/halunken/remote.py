"""A remote game of Halunken & Spelunken at this board (settings `remote`: the seats played
at other tables, docs/remote.md "A Halunken board at a table"). Loaded only when such a
game starts.

The dealer beside the broker holds the deal (the piles below their tops, Black-Jack's
deck: H5, H25); the board plays it as a table deal (H33: piles of unseen cards), and
learns each take and each turned Black-Jack card from the public state after the event
that made it. The host beside the board (`python -m host_tools remote ... --port`) feeds
it the dealer's events in order, one {"cmd": "remote", "seq", "actor", "action", ...}
each (the link's `remote` command), with the public state's `crews`, `port` and
`bj_cards` after it (names, as the simulator's report has them).

The movement cards (H7, H32) go by commit and reveal: this table's players tap theirs as
at a local game (any order among the board's figures: the other seats choose at their
tables at the same time), the board neither shows nor says it, and tells it to the host
beside it alone, as the move ["choose", FIGURE, CARD]; the host commits to it (its
commitment is the request) and keeps card and nonce. The other seats' cards come only
with the dealer's ["open", FIGURE, CARD, NONCE]; the last open reveals (H7).

The board answers with its news line {"event": "remote", "fed", "moves", "want": null,
"say"}: the events taken and this table's moves no event confirmed yet ([[n, action,
seat]], each seat numbering its own). Its bookkeeping is journaled after every event
(a ["solo", ...] record), its own moves follow the actions in `note` (the journal's
replay too); there is no undo in remote play.
"""

from core import outcome as oc
from core.outcome import WRONG_PHASE, Rejected
from games.halunken import deck
from games.halunken.controller import MOVE, expected_seat, parse_card
from games.halunken.moves import BJ

OTHER = "other-table"  # rejection code: another table's turn, or the dealer's
PLAIN = ("place", "place_bj", "offer", "pass", "rum", "steal", "rob")
DEALERS = ("take", "bj-card", "reveal")  # steps the dealer's events settle


def fig_name(f):
    return "blackjack" if f == BJ else "p%d" % (f + 1)


def _crew(name, none_ok):
    if none_ok and name == "none":
        return -1
    c = deck.crew_card(name) if isinstance(name, str) else -1
    if c < 0:
        raise ValueError("%r is not a crew card" % (name,))
    return c


def _space(name):
    if isinstance(name, str) and name[:1] == "T" and name[1:].isdigit():
        t = int(name[1:]) - 1
        if 0 <= t < deck.SPACES:
            return t
    raise ValueError("%r is not a space T1..T14" % (name,))


def to_wire(action):
    k = action[0]
    if k in ("place", "place_bj"):
        return [k, deck.space_name(action[1])]
    if k == "offer":
        return [k, deck.crew_name(action[1])]
    if k in ("steal", "rob"):
        return [k, "none" if action[1] < 0 else deck.crew_name(action[1])]
    if k == "rum":
        return [k, str(action[1])]
    if k == "choose":
        return [k, fig_name(action[1]), deck.MOVE_WORDS[action[2]]]
    return [k]


def from_wire(action):
    k = action[0]
    if k in ("place", "place_bj") and len(action) == 2:
        return (k, _space(action[1]))
    if k == "offer" and len(action) == 2:
        return (k, _crew(action[1], False))
    if k in ("steal", "rob") and len(action) == 2:
        return (k, _crew(action[1], True))
    if k == "rum" and len(action) == 2 and isinstance(action[1], str) and action[1].isdigit():
        return (k, int(action[1]))
    if k == "pass" and len(action) == 1:
        return (k,)
    raise ValueError("%r is not a public move of Halunken" % (action[:1],))


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
        self.opened = 0  # the figures opened in this round's reveal
        self.flight = None  # the event being applied: {"seq", "acts", "done", "pub"}
        self.dirty = False
        self.thinking = False
        self.decisions = 0
        self.keep = None  # callable(obj): a ["solo", obj] journal record (core.app)
        self.told = None

    # -------------------------------------------------------------- state

    def save(self):
        out = {"fed": self.fed, "n": self.n, "moves": self.moves, "opened": self.opened}
        if self.flight is not None:
            out["flight"] = self.flight
        return out

    def load(self, obj):
        try:
            self.fed = int(obj["fed"])
            self.n = [int(n) for n in obj["n"]]
            self.moves = [[int(m[0]), list(m[1]), m[2]] for m in obj["moves"]]
            self.opened = int(obj["opened"])
            self.flight = obj.get("flight")
        except (KeyError, TypeError, ValueError, IndexError):
            pass

    def news(self, force=False):
        """The news line for the host when something changed (or `force`), else None."""
        now = (self.fed, len(self.moves), sum(self.n), self.say())
        if now == self.told and not force:
            return None
        self.told = now
        return {"event": "remote", "fed": self.fed, "moves": self.moves, "want": None,
                "say": now[3]}

    def hint_move(self):
        return ((), ())

    def tick(self, now):
        return None

    def step(self):
        return (None, None)

    def _chooser(self, f):
        return self.game.winner_seat() if f == BJ else f

    def _to_choose(self):
        """This table's figures still to choose a card (H32), in order."""
        g = self.game
        out = [f for f in self.mine if g.choices[f] < 0]
        if g.bj_controlled() and g.choices[BJ] < 0 and g.winner_seat() in self.mine:
            out.append(BJ)
        return out

    def say(self):
        g = self.game
        if g.is_over():
            return ""
        st = g.step
        if st == "choose":
            mine = self._to_choose()
            if mine:
                return "%s: choose a movement card" % " ".join(fig_name(f) for f in mine)
            return "the other tables choose their movement cards"
        if st in DEALERS:
            return "the dealer turns the cards"
        s = expected_seat(g)
        if s in self.mine:
            return "p%d's turn" % (s + 1)
        return "p%d plays at another table" % (s + 1)

    # -------------------------------------------------------------- this table

    def note(self, game, action, actor):
        """An action the rules applied (also in the journal's replay): this table's
        become moves; the dealer's events are counted by the record after each."""
        if self.flight is not None:  # the journal's replay of an event in flight
            self.flight["done"] += 1
            return
        k = action[0]
        if k not in PLAIN and k != "choose":
            return  # take, bj_card, reveal: the dealer's
        if k == "choose":
            actor = self._chooser(action[1])
        if actor not in self.mine:
            return
        self.n[actor] += 1
        self.moves.append([self.n[actor], to_wire(tuple(action)), "p%d" % (actor + 1)])

    def refuse(self, code, message):
        self.referee.errors += 1
        self.referee.outcome = oc.refused(code, message, (), True)
        return self.referee.outcome

    def _closed(self):
        g = self.game
        return g.step in DEALERS or g.step == "choose" or expected_seat(g) not in self.mine

    def tap(self, card):
        g = self.game
        if g.is_over():
            return None
        if g.step == "choose":
            parsed = parse_card(card)
            if parsed is not None and parsed[0] == MOVE:
                return self.referee._run(self._choose, parsed[1], parsed[2])
        return self.refuse(OTHER, self.say()) if self._closed() else None

    def _choose(self, label, m):
        """A movement card of this table's, in any order among its figures (the other
        seats choose at the same time, at their tables): private, as at a local game."""
        g = self.game
        if label > g.players and not (g.mode == "tactical" and label == 3):
            raise Rejected("unknown-card", "P%d is not a seat at this table" % label)
        fig = self.referee._figure(label)
        if fig not in self._to_choose():
            raise Rejected(OTHER if self._chooser(fig) not in self.mine else WRONG_PHASE,
                           "%s does not choose at this table now" % fig_name(fig))
        self.referee.privacy = True  # the same acknowledgement for every card (8.3)
        g.apply(("choose", fig, m))

    def press(self, button):
        if self.game.is_over():
            return None
        if button == "back":
            return self.refuse(OTHER, "no takeback in a remote game")
        return self.refuse(OTHER, self.say()) if self._closed() else None

    # -------------------------------------------------------------- the dealer's events

    def remote(self, msg):
        """One of the dealer's events (the link's remote command): its Outcome, or None
        for one taken already; ValueError (nothing changed) for one that does not fit."""
        seq = msg.get("seq")
        action = msg.get("action")
        actor = msg.get("actor")
        if type(seq) is not int or not isinstance(action, list) or not action \
                or not isinstance(action[0], str):
            raise ValueError("remote needs seq and action")
        if self.flight is not None:  # a power cut in the middle of an event: finish it
            self._fly()
        if seq <= self.fed:
            return None
        if seq != self.fed + 1:
            raise ValueError("event %d: this board has taken %d" % (seq, self.fed))
        g = self.game
        seat = -1
        if isinstance(actor, str) and actor[:1] == "p" and actor[1:].isdigit():
            seat = int(actor[1:]) - 1
        if actor is not None and not 0 <= seat < g.players:
            raise ValueError("event %d: no such seat %r" % (seq, actor))
        acts = self._plan(seq, seat, action)  # checked before anything changes
        self._check_public(msg)
        rules = [a for a in acts if isinstance(a, tuple)]
        if rules:
            try:
                g.check(rules[0])
            except Rejected as e:
                raise ValueError("event %d does not apply: %s" % (seq, e.message)) from None
        for a in acts:  # the bookkeeping first, journaled with the event's plan
            if a == "echo":
                self.moves.pop(0)
            elif a == "opened":
                self.opened += 1
            elif a == "reveals":  # the dealer asks: this table's cards and nonces
                self._reveals()
            elif a[0] == "reveal":
                self.opened = 0
        self.flight = {"seq": seq, "acts": [list(a) for a in rules], "done": 0,
                       "pub": [msg["crews"], msg["port"], msg["bj_cards"]]}
        if self.keep is not None:
            self.keep(self.save())
        return self._fly()

    def _fly(self):
        """The event in flight: its actions not yet applied (after a power cut, those the
        journal's replay did not bring back), the takes it made, then its record."""
        g = self.game
        f = self.flight
        before = g.round
        try:
            for a in f["acts"][f["done"]:]:
                g.apply(tuple(a))
            self._dealers(f["pub"])
        except (Rejected, TypeError, ValueError, IndexError, KeyError) as e:
            raise ValueError("the event does not apply: %s" % (e,)) from None
        self.referee._sync()  # the board's option lists follow the new state
        self.fed = f["seq"]
        self.flight = None
        if self.keep is not None:
            self.keep(self.save())
        kind = oc.GAME_OVER if g.is_over() else oc.ROUND_END if g.round != before \
            else oc.ACCEPTED
        return oc.accepted(kind)

    def _plan(self, seq, seat, action):
        """The rules' actions for an event (a list), or ValueError."""
        g = self.game
        k = action[0]
        if seat < 0:
            if k == "reveal" and len(action) == 2 and g.step in ("choose", "reveal"):
                return ["reveals"]
            raise ValueError("event %d: the dealer announces only a reveal" % seq)
        if k in ("commit", "revealed", "open"):
            return self._secret(seq, seat, action)
        act = from_wire(action)
        if seat in self.mine:
            if not self.moves or self.moves[0][2] != "p%d" % (seat + 1) \
                    or self.moves[0][1] != action:
                raise ValueError("event %d is not this table's next move" % seq)
            return ["echo"]
        if g.is_over():
            raise ValueError("event %d: the game is over here" % seq)
        if seat != expected_seat(g) or g.step in DEALERS or g.step == "choose":
            raise ValueError("event %d: it is not p%d's turn here" % (seq, seat + 1))
        return [act]

    def _secret(self, seq, seat, action):
        g = self.game
        if g.step not in ("choose", "reveal") or len(action) < 2:
            raise ValueError("event %d: no secret choice now" % seq)
        f = BJ if action[1] == "blackjack" else -1
        if f < 0 and isinstance(action[1], str) and action[1][:1] == "p" \
                and action[1][1:].isdigit() and 0 < int(action[1][1:]) <= g.players:
            f = int(action[1][1:]) - 1
        if f < 0 or self._chooser(f) != seat:
            raise ValueError("event %d: %r is not p%d's figure" % (seq, action[1], seat + 1))
        mine = seat in self.mine
        k = action[0]
        if k == "commit" and mine:  # this table's choice, committed: the move is done
            m = self.moves[0] if self.moves else None
            if m is None or m[1][:2] != ["choose", action[1]]:
                raise ValueError("event %d: this table chose no card for %s" % (seq, action[1]))
            return ["echo"]
        if k == "revealed" and mine:  # this table's reveal, checked by the dealer
            m = self.moves[0] if self.moves else None
            if m is None or m[1] != ["reveal", action[1]]:
                raise ValueError("event %d: this table revealed no %s" % (seq, action[1]))
            return ["echo"]
        if k != "open":
            return []
        if len(action) != 4 or deck.move_card(action[2]) < 0:
            raise ValueError("event %d: an open names a movement card" % seq)
        c = deck.move_card(action[2])
        if mine:
            if g.choices[f] != c:
                raise ValueError("event %d: %s's card here is not %s" % (seq, action[1],
                                                                       action[2]))
            acts = []
        else:
            if g.choices[f] >= 0 or c not in g.left_moves(f):
                raise ValueError("event %d: %s cannot play %s" % (seq, action[1], action[2]))
            acts = [("choose", f, c)]
        acts.append("opened")
        if self.opened + 1 == g.players + (1 if g.bj_controlled() else 0):
            acts.append(("reveal",))  # the last open: every card is in (H7)
        return acts

    def _check_public(self, msg):
        for key in ("crews", "port", "bj_cards"):
            if key not in msg:
                raise ValueError("the event needs the public state's %s" % key)
        crews = msg["crews"]
        if not isinstance(crews, dict) or not isinstance(msg["port"], list) \
                or not isinstance(msg["bj_cards"], list):
            raise ValueError("crews is a dict, port and bj_cards lists")
        lists = [msg["port"]]
        for s in range(self.game.players):
            lists.append(crews.get("p%d" % (s + 1)))
        for names in lists:
            if not isinstance(names, list) or any(deck.crew_card(x) < 0 if isinstance(
                    x, str) else True for x in names):
                raise ValueError("crews and port name every seat's crew cards")
        for x in msg["bj_cards"]:
            if not isinstance(x, str) or x[:3] not in ("BJ-", "P3-"):
                raise ValueError("bj_cards names Black-Jack's turned cards")

    def _reveals(self):
        """The moves ["reveal", FIGURE] for each figure this table chose for (the host
        beside the board sends the card and nonce it keeps)."""
        g = self.game
        figs = list(self.mine)
        if g.bj_controlled() and g.winner_seat() in self.mine:
            figs.append(BJ)
        for f in figs:
            s = self._chooser(f)
            self.n[s] += 1
            self.moves.append([self.n[s], ["reveal", fig_name(f)], "p%d" % (s + 1)])

    def _dealers(self, pub):
        """The takes and turned Black-Jack cards the event made, from the public state
        after it ([crews, port, bj_cards]; H33's steps at a table, the dealer's here)."""
        g = self.game
        crews, port, bj_cards = pub
        for _ in range(64):
            if g.step == "take":
                f = g.taking[0]
                have = g.port if f == BJ else g.crews[f]
                names = port if f == BJ else crews["p%d" % (f + 1)]
                new = [c for c in (deck.crew_card(x) for x in names) if c not in have]
                if len(new) != 1:
                    raise ValueError("no card taken by %s" % fig_name(f))
                g.apply(("take", new[0]))
            elif g.step == "bj-card":
                names = bj_cards
                k = len(g.bj_cards)
                if k >= len(names):
                    raise ValueError("no Black-Jack card turned")
                name = names[k]
                c = int(name[3:]) if g.mode == "standard" else deck.move_card(name[3:])
                g.apply(("bj_card", c))
            else:
                return
