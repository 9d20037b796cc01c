"""Kahuna rules: the game state and its transitions.

Pure game code: no hardware, no clock, no randomness (the physical cards are shuffled by
the players). Runs unchanged on CPython 3.11 and MicroPython. The reference is
`docs/rules.md`; where a rule is decided by a ruling it is cited as `# R4`.

As OpenSpiel splits a Game from its States, `Settings` (games.kahuna.settings, with the
seats and the settings' one check) holds what is fixed for a whole game (the board, the
variant, who starts, the handicap) and `Game` the state that moves.

The public API speaks in names (`"HUNA-1"`, `"ALOA-HUNA"`); internally cards, islands and
connections are small integers so the state is a handful of short lists:

- card `c` belongs to island `c // 2` and is named `ISLAND-(c % 2 + 1)`;
- `bridges[k]` is the owner of connection `k` (`WHITE`, `BLACK` or `NOBODY`);
- `control[i]` is the controller of island `i`;
- `place[c]` says where card `c` is: a hand (`WHITE`/`BLACK`), `DISCARD` or `DRAWABLE`.

Every action either raises `Rejected` (with the contract's rejection code) and changes
nothing, or is applied whole. The referee asks the index API (`card_options`,
`pair_options`, `check_second`, `check_card`, `handicap_options`: card and connection
indices) what a tap may do; its refusals are the very ones the actions give.
"""

from core import outcome as oc
from core.outcome import Rejected  # noqa: F401  (the rules' refusal: rules.Rejected)
from games.kahuna.settings import (  # noqa: F401  (the seats: rules.WHITE, ...)
    ALTERNATIVE,
    BLACK,
    NOBODY,
    PLAYERS,
    STANDARD,
    WHITE,
    Settings,
    player_index,
)

DISCARD = 2  # card place: the discard pile
DRAWABLE = 3  # card place: the deck or the face-up display

SUPPLY = 25  # bridges per player
HAND_LIMIT = 5  # R3
DEAL_SIZE = 3
ROUNDS = 3


class _Index:
    def __getitem__(self, index):
        return index


# x[_WHOLE] = y: a whole list replaced in place with no slice object made each time (the
# slice of `[:]`, kept; MicroPython cannot construct slice() itself)
_WHOLE = _Index()[:]
del _Index

# Kinds of option a card offers (the names of the actions they lead to).
PLACE = "place"
REMOVE = "remove"

DEAL = "deal"
HANDICAP = "handicap"
PLAY = "play"
DRAW = "draw"
OVER = "over"


# Rejection codes of the simulator contract.
WRONG_PHASE = oc.WRONG_PHASE
UNKNOWN_CARD = "unknown-card"
NOT_IN_HAND = "card-not-in-hand"
NOT_DRAWABLE = "card-not-drawable"
HAND_FULL = "hand-full"
MUST_DRAW = "must-draw"
NO_OPTION = "no-option"
BAD_PAIR = "bad-pair"
NOT_OFFERED = "not-offered"


class Game:
    """The state of one game of Kahuna on `board` (a `core.board.Board`); its fixed
    settings are `game.settings` (see `Settings` for the arguments). `Game(settings)`
    starts a game with existing `Settings`, sharing them."""

    def __init__(self, board, variant=STANDARD, first="white", handicap=None):
        if isinstance(board, Settings):
            self.settings = board
            board = board.board
        else:
            self.settings = Settings(board, variant, first, handicap)
        # Shared, never changed: kept here too for the hot paths and the names API.
        self.board = board
        self.card_names = self.settings.card_names
        self.card_index = self.settings.card_index
        self.recorder = None  # callable(action tuple) told of every applied action
        # False: no undo history is kept (the AI's private game, which never undoes:
        # each of its moves would otherwise copy the whole state for an undo).
        self.undoable = True
        # None, or the record of the last whole turns (games.kahuna.turns, for the
        # takeback): told of every applied action; the AI's private game keeps none.
        self.turns = None
        self.new_game()

    # ----------------------------------------------------------------- state

    def new_game(self):
        self.phase = DEAL
        self.round = 1
        self.turn = self.settings.first
        self.bridges = [NOBODY] * self.settings.n_conns
        self.control = [NOBODY] * self.settings.n_islands
        self.supply = [SUPPLY, SUPPLY]
        self.place = [DRAWABLE] * self.settings.n_cards
        self.dealt = 0
        self.handicap_left = 0
        self.must_draw = False  # R4: the previous turn ended with a declined draw
        self.final_turns = False
        self.finals_left = 0
        self.scores = [0, 0]
        self.round_scores = []  # [(white, black)] points given at each scoring
        self.final_islands = None  # (white, black) islands at the final scoring, for R6
        self.winner = None  # None, "white", "black" or "draw"
        self.refill = NOBODY  # connection offered for a free refill (alternative variant)
        self.history = []  # cores before each undoable action of this turn (R10)

    def _core(self):
        """Everything but the undo history, as immutable values."""
        return (
            self.phase, self.round, self.turn, tuple(self.bridges), tuple(self.control),
            tuple(self.supply), tuple(self.place), self.dealt, self.handicap_left,
            self.must_draw, self.final_turns, self.finals_left, tuple(self.scores),
            tuple(self.round_scores), self.final_islands, self.winner, self.refill,
        )

    def _set_core(self, core):
        (self.phase, self.round, self.turn, bridges, control, supply, place, self.dealt,
         self.handicap_left, self.must_draw, self.final_turns, self.finals_left, scores,
         round_scores, self.final_islands, self.winner, self.refill) = core
        # Copied into the lists the game already has, through one slice object made once
        # (`x[:] = y` builds a new slice object each time): a restore (the AI's search
        # makes one per position it scores) then allocates nothing on the Pico's heap.
        self.bridges[_WHOLE] = bridges
        self.control[_WHOLE] = control
        self.supply[_WHOLE] = supply
        self.place[_WHOLE] = place
        self.scores[_WHOLE] = scores
        self.round_scores[_WHOLE] = round_scores

    def to_act(self):
        """The seats to act now (platform interface): one at a time in Kahuna."""
        return (self.turn,)

    def snapshot(self):
        """An immutable copy of the whole state, undo history included (and the record
        of the last turns, where the game keeps one: a compacted journal holds it)."""
        if self.turns is not None:
            return (self._core(), tuple(self.history), self.turns.to_json())
        return (self._core(), tuple(self.history))

    def restore(self, snap):
        self._set_core(snap[0])
        self.history[_WHOLE] = snap[1]  # in place, as the core's lists: nothing allocated
        if self.turns is not None:
            self.turns.load(snap[2] if len(snap) > 2 else None)

    # --------------------------------------------------------------- names

    def card_id(self, name):
        c = self.card_index.get(name)
        if c is None:
            raise Rejected(UNKNOWN_CARD, "%s is not a Kahuna card" % (name,))
        return c

    def conn_id(self, name):
        k = self.board.conn_index.get(name)
        if k is None:
            raise Rejected(NOT_OFFERED, "%s is not a connection of the board" % (name,))
        return k

    def hand(self, player):
        """The card names in `player`'s hand, sorted."""
        p = player_index(player)
        return sorted(self.card_names[c] for c in range(len(self.place)) if self.place[c] == p)

    def _hand_size(self, p):
        return self.place.count(p)

    def drawable_count(self):
        return self.place.count(DRAWABLE)

    def discard_count(self):
        return self.place.count(DISCARD)

    def bridges_on_board(self, p):
        return self.bridges.count(p)

    def controlled_count(self, p):
        return self.control.count(p)

    # ------------------------------------------------------------- control

    def majority(self, island):
        """R1: the player owning more than half of the island's connections, or NOBODY
        (both counted in one pass: the AI's search asks this thousands of times)."""
        bridges = self.bridges
        w = b = 0
        for k in self.board.island_conns[island]:
            o = bridges[k]
            if o == WHITE:
                w += 1
            elif o == BLACK:
                b += 1
        deg = self.board.island_degree[island]
        if 2 * w > deg:
            return WHITE
        if 2 * b > deg:
            return BLACK
        return NOBODY

    def _lay_bridge(self, p, k):
        """Put p's bridge on free connection k and apply take-overs and the cascade.
        Returns True if any opponent bridge was removed."""
        self.bridges[k] = p
        self.supply[p] -= 1
        opp = 1 - p
        removed = False
        for island in self.board.conn_ends[k]:
            # R11: a take-over happens only when the island was not p's before this
            # placement; adding bridges to an island p already controls removes nothing.
            if self.control[island] != p and self.majority(island) == p:
                self.control[island] = p
                for j in self.board.island_conns[island]:
                    if self.bridges[j] == opp:
                        self.bridges[j] = NOBODY
                        self.supply[opp] += 1
                        removed = True
        if removed:
            # Only a removed bridge can cost its owner a majority: a bridge laid on a free
            # connection changes no other count (every controlled island held its
            # majority before, as the cascade after every removal keeps it).
            self._cascade()
        return removed

    def _cascade(self):
        """Losing control: every island whose controller no longer has the majority loses
        its stone. Losing control removes no bridges, so this is where it stops (R8)."""
        control = self.control
        bridges = self.bridges
        conns = self.board.island_conns
        degree = self.board.island_degree
        for island in range(self.settings.n_islands):
            owner = control[island]
            if owner != NOBODY:
                # majority(island) != owner: the owner holds no more than half (only one
                # player can hold more), counted for the owner alone
                n = 0
                for k in conns[island]:
                    if bridges[k] == owner:
                        n += 1
                if 2 * n <= degree[island]:
                    control[island] = NOBODY

    def _early_end(self, actor):
        """R7: in rounds 2 and 3, removing the opponent's last bridge wins at once."""
        if self.round >= 2 and self.bridges_on_board(1 - actor) == 0:
            self.winner = PLAYERS[actor]
            self.phase = OVER
            self.must_draw = False
            self.refill = NOBODY
            return True
        return False

    # --------------------------------------------------------------- options

    def _may_place(self, p, k):
        if self.bridges[k] != NOBODY or self.supply[p] <= 0:
            return False
        if self.settings.variant == ALTERNATIVE:
            # Alternative variant: never build on an end controlled by the opponent.
            a, b = self.board.conn_ends[k]
            opp = 1 - p
            if self.control[a] == opp or self.control[b] == opp:
                return False
        return True

    def _placements(self, p, island):
        return [k for k in self.board.island_conns[island] if self._may_place(p, k)]

    def _opponent_bridges(self, p, island):
        opp = 1 - p
        return [k for k in self.board.island_conns[island] if self.bridges[k] == opp]

    def _pair_targets(self, p, c1, c2):
        """Opponent bridges that the cards c1 + c2 may remove: both cards must name an end."""
        i1 = c1 // 2
        i2 = c2 // 2
        return [k for k in self._opponent_bridges(p, i1) if i2 in self.board.conn_ends[k]]

    def placements(self, card):
        """Connections where the active player may place a bridge with `card`, in the
        island's clockwise order."""
        c = self.card_id(card)
        return [self.board.connections[k] for k in self._placements(self.turn, c // 2)]

    def opponent_bridges(self, card):
        """Opponent bridges on the card's island (a second card naming an end removes one)."""
        c = self.card_id(card)
        return [self.board.connections[k] for k in self._opponent_bridges(self.turn, c // 2)]

    def pair_targets(self, card1, card2):
        """Opponent bridges the two cards together may remove."""
        c1 = self.card_id(card1)
        c2 = self.card_id(card2)
        if c1 == c2:
            return []
        return [self.board.connections[k] for k in self._pair_targets(self.turn, c1, c2)]

    # ------------------------------------------------------------ index API
    # What a tap or a button may do, asked before acting, with cards and connections as
    # indices. The refusals are the ones the actions themselves give.

    def check_card(self, c):
        """Card index `c` may be played now: play phase and in the active player's hand
        (else wrong-phase or card-not-in-hand)."""
        self._need_phase(PLAY)
        self._in_hand(c)

    def card_options(self, c):
        """What card index `c` offers, around its island in clockwise order (an encoder
        sweeps them in turn): (PLACE, k) for a free connection k it may build on, (REMOVE,
        k) for an opponent bridge k that it and a second card naming the other end remove.
        Refused as `place_bridge` refuses the card: wrong-phase, card-not-in-hand,
        no-option."""
        self.check_card(c)
        p = self.turn
        opp = 1 - p
        out = []
        for k in self.board.island_conns[c // 2]:
            if self._may_place(p, k):
                out.append((PLACE, k))
            elif self.bridges[k] == opp:
                out.append((REMOVE, k))
        if not out:
            raise Rejected(NO_OPTION, "%s allows no bridge and no removal"
                           % (self.card_names[c],))
        return out

    def pair_options(self, c1, c2):
        """Opponent bridges (indices) that card indices c1 and c2 together may remove.
        Refused as `remove_bridge` refuses the pair: wrong-phase, card-not-in-hand,
        bad-pair."""
        self.check_card(c1)
        self.check_card(c2)
        if c1 == c2:
            raise Rejected(BAD_PAIR, "%s cannot be played twice: a removal takes two cards"
                           % (self.card_names[c1],))
        targets = self._pair_targets(self.turn, c1, c2)
        if not targets:
            raise Rejected(BAD_PAIR, "%s and %s do not name the ends of any %s bridge"
                           % (self.card_names[c1], self.card_names[c2],
                              PLAYERS[1 - self.turn]))
        return targets

    def check_second(self, c1, c2, k):
        """Card index c2 may join c1 to remove the opponent bridge k, chosen first:
        bad-pair unless c2 names an end of k."""
        self.check_card(c2)
        if c1 == c2:
            self.pair_options(c1, c2)  # refused: the same card twice
        if (c2 // 2) not in self.board.conn_ends[k]:
            raise Rejected(BAD_PAIR, "%s does not name an end of %s"
                           % (self.card_names[c2], self.board.connections[k]))

    def handicap_options(self):
        """The connections (indices) a handicap bridge may go on: every free one."""
        return [k for k in range(len(self.bridges)) if self.bridges[k] == NOBODY]

    def can_draw(self):
        return (self.phase == DRAW and self.refill == NOBODY
                and self._hand_size(self.turn) < HAND_LIMIT and self.drawable_count() > 0)

    def can_decline(self):
        return self.phase == DRAW and not self.must_draw

    def legal_actions(self):
        """Every legal action as a tuple, as `apply` takes them."""
        acts = []
        ph = self.phase
        p = self.turn
        names = self.card_names
        conns = self.board.connections
        if ph == DEAL:
            for c in range(self.settings.n_cards):
                if self.place[c] == DRAWABLE:
                    acts.append(("deal", names[c]))
        elif ph == HANDICAP:
            for k in range(self.settings.n_conns):
                if self.bridges[k] == NOBODY:
                    acts.append(("handicap", conns[k]))
        elif self.refill != NOBODY:
            acts.append(("refill", conns[self.refill]))
            acts.append(("skip_refill",))
        elif ph == PLAY or ph == DRAW:
            place = self.place
            hand = [c for c in range(self.settings.n_cards) if place[c] == p]
            for c in hand:
                acts.append(("discard", names[c]))
            if ph == PLAY:
                # _placements and _pair_targets, inlined (the AI's search asks this at
                # every node): the same actions in the same order.
                iconns = self.board.island_conns
                bridges = self.bridges
                if self.supply[p] > 0:
                    alt = self.settings.variant == ALTERNATIVE
                    for c in hand:
                        for k in iconns[c // 2]:
                            if bridges[k] == NOBODY and (not alt or self._may_place(p, k)):
                                acts.append(("place", names[c], conns[k]))
                opp = 1 - p
                ends = self.board.conn_ends
                n = len(hand)
                for x in range(n):
                    cx = hand[x]
                    theirs = [k for k in iconns[cx // 2] if bridges[k] == opp]
                    if not theirs:
                        continue
                    for y in range(x + 1, n):
                        i2 = hand[y] // 2
                        for k in theirs:
                            if i2 in ends[k]:
                                acts.append(("remove", names[cx], names[hand[y]], conns[k]))
                acts.append(("end_play",))
                if self.history:
                    acts.append(("undo",))
            else:
                acts.append(("resume_play",))
                if self.can_draw():
                    for c in range(self.settings.n_cards):
                        if self.place[c] == DRAWABLE:
                            acts.append(("draw", names[c]))
                if self.can_decline():
                    acts.append(("decline",))
        return acts

    # --------------------------------------------------------------- checks

    def _need_phase(self, phase, other=None):
        # Two named phases, not *phases: no tuple made for each action the AI applies.
        if self.phase != phase and self.phase != other:
            raise Rejected(WRONG_PHASE, "not allowed in the %s phase" % (self.phase,))
        if self.refill != NOBODY:
            raise Rejected(WRONG_PHASE, "first take or decline the free refill of %s"
                           % (self.board.connections[self.refill],))

    def _in_hand(self, c):
        if self.place[c] != self.turn:
            raise Rejected(NOT_IN_HAND, "%s is not in %s's hand"
                           % (self.card_names[c], PLAYERS[self.turn]))

    # --------------------------------------------------------------- actions

    def apply(self, action):
        """Apply an action tuple such as ("place", "HUNA-1", "ALOA-HUNA")."""
        name = ACTIONS.get(action[0])
        if name is None:
            raise ValueError("unknown action %r" % (action[0],))
        # The class's function, its arguments passed one by one: no bound method and no
        # tuple of arguments made (the AI's search applies thousands of actions).
        f = getattr(type(self), name)
        n = len(action)
        if n == 1:
            f(self)
        elif n == 2:
            f(self, action[1])
        elif n == 3:
            f(self, action[1], action[2])
        else:
            f(self, *action[1:])

    def deal(self, card):
        """Register a dealt card: the starting player's 3 cards, then the other's (R2)."""
        if self.phase != DEAL:
            raise Rejected(WRONG_PHASE, "the deal is over")
        c = self.card_id(card)
        if self.place[c] != DRAWABLE:
            raise Rejected(NOT_DRAWABLE, "%s has already been dealt" % (card,))
        self._note(("deal", card))
        self.place[c] = self.turn
        self.dealt += 1
        if self.dealt == DEAL_SIZE:
            self.turn = 1 - self.settings.first
        elif self.dealt == 2 * DEAL_SIZE:
            if self.settings.handicap is None:
                self._start_turn(self.settings.first)
            else:
                self.phase = HANDICAP
                self.turn, self.handicap_left = self.settings.handicap

    def handicap_bridge(self, conn):
        """Handicap: the weaker player places a bridge on any free connection, without a
        card. It follows section 5 (it can give control) and cannot be taken back (R10)."""
        self._need_phase(HANDICAP)
        k = self.conn_id(conn)
        if self.bridges[k] != NOBODY:
            raise Rejected(NOT_OFFERED, "%s is not free" % (conn,))
        self._note(("handicap", conn))
        self._lay_bridge(self.turn, k)
        self.handicap_left -= 1
        if self.handicap_left == 0:
            self._start_turn(self.settings.first)

    def place_bridge(self, card, conn):
        """Play `card` of island X to place a bridge on a free connection of X."""
        self._need_phase(PLAY)
        c = self.card_id(card)
        p = self.turn
        k = self.board.conn_index.get(conn)
        if k is not None and k in self.board.island_conns[c // 2] and self._may_place(p, k):
            self._in_hand(c)  # an offered bridge: the card's own check alone (no list built)
        else:  # refused: the checks in the order card_options gives its refusals
            offered = self.card_options(c)
            k = self.conn_id(conn)
            if (PLACE, k) not in offered:
                raise Rejected(NOT_OFFERED, "%s cannot place a bridge on %s" % (card, conn))
        if self.recorder is not None or self.turns is not None:  # none in the AI's search:
            # no tuple made for nobody (the search places and removes thousands of times)
            self._note(("place", card, conn))
        if self.undoable:
            self.history.append(self._core())
        self.place[c] = DISCARD
        if self._lay_bridge(p, k):
            self._early_end(p)

    def remove_bridge(self, card1, card2, conn):
        """Play two cards together to remove the opponent bridge `conn`: each card must
        name one of its ends (A+A, B+B or A+B)."""
        self._need_phase(PLAY)
        c1 = self.card_id(card1)
        self._in_hand(c1)
        c2 = self.card_id(card2)
        p = self.turn
        targets = self.pair_options(c1, c2)
        k = self.conn_id(conn)
        if k not in targets:
            raise Rejected(NOT_OFFERED, "%s and %s cannot remove %s" % (card1, card2, conn))
        if self.recorder is not None or self.turns is not None:  # (as place_bridge)
            self._note(("remove", card1, card2, conn))
        if self.undoable:
            self.history.append(self._core())
        self.place[c1] = DISCARD
        self.place[c2] = DISCARD
        opp = 1 - p
        self.bridges[k] = NOBODY
        self.supply[opp] += 1
        self._cascade()
        if self._early_end(p):  # R7 comes before any free refill
            return
        if self.settings.variant == ALTERNATIVE and self._may_place(p, k):
            # Alternative variant: the freed connection may be refilled for free, if
            # neither end is controlled by the opponent after the cascade.
            self.refill = k

    def refill_bridge(self, conn):
        """Alternative variant: place a bridge on the connection just freed, for free."""
        if self.refill == NOBODY:
            raise Rejected(WRONG_PHASE, "no free refill is on offer")
        k = self.conn_id(conn)
        if k != self.refill:
            raise Rejected(NOT_OFFERED, "only %s may be refilled"
                           % (self.board.connections[self.refill],))
        if self.recorder is not None or self.turns is not None:  # (as place_bridge)
            self._note(("refill", conn))
        if self.undoable:
            self.history.append(self._core())  # R10: a refill is an action of its own
        self.refill = NOBODY
        if self._lay_bridge(self.turn, k):
            self._early_end(self.turn)

    def skip_refill(self):
        if self.refill == NOBODY:
            raise Rejected(WRONG_PHASE, "no free refill is on offer")
        self._note(("skip_refill",))
        self.refill = NOBODY

    def discard(self, card):
        """Put a card from hand on the discard pile, without effect (play or draw phase)."""
        self._need_phase(PLAY, DRAW)
        c = self.card_id(card)
        self._in_hand(c)
        self._note(("discard", card))
        if self.undoable:
            self.history.append(self._core())  # R10: discards can be taken back
        self.place[c] = DISCARD

    def end_play(self):
        """End the play phase: on to the draw phase, or, in a final turn, end the turn."""
        self._need_phase(PLAY)
        self._note(("end_play",))
        if not self.final_turns:
            self.phase = DRAW
            return
        self.finals_left -= 1
        if self.finals_left > 0:
            self._start_turn(1 - self.turn)
        else:
            self._final_scoring()

    def resume_play(self):
        """Back from the draw phase (nothing drawn yet) to the play phase."""
        self._need_phase(DRAW)
        self._note(("resume_play",))
        self.phase = PLAY

    def draw(self, card):
        """Register the card the player took; this ends the turn."""
        self._need_phase(DRAW)
        c = self.card_id(card)
        if self.place[c] != DRAWABLE:
            raise Rejected(NOT_DRAWABLE, "%s is not among the drawable cards" % (card,))
        if self._hand_size(self.turn) >= HAND_LIMIT:  # R3
            raise Rejected(HAND_FULL, "%s holds %d cards: discard before drawing"
                           % (PLAYERS[self.turn], HAND_LIMIT))
        self._note(("draw", card))
        self.place[c] = self.turn
        self.must_draw = False
        if self.drawable_count() == 0:
            self._round_end()  # R5: the last drawable card ends the round at once
        else:
            self._start_turn(1 - self.turn)

    def decline(self):
        """Decline to draw; this ends the turn, and the opponent must draw (R4)."""
        self._need_phase(DRAW)
        if self.must_draw:  # R4
            raise Rejected(MUST_DRAW, "%s declined last turn: %s must draw"
                           % (PLAYERS[1 - self.turn], PLAYERS[self.turn]))
        self._note(("decline",))
        self._start_turn(1 - self.turn)
        self.must_draw = True

    def undo(self):
        """R10: take back the last action of this turn (play phase, nothing on offer)."""
        self._need_phase(PLAY)
        if not self.history:
            raise Rejected(WRONG_PHASE, "nothing to take back this turn")
        self._note(("undo",))
        self._set_core(self.history.pop())
        # A discard taken back may have been made in the draw phase: we stay in play.
        self.phase = PLAY
        # Undoing a refill leaves the removal in place and does not offer it again.
        self.refill = NOBODY

    def note(self, action):
        """Journal an action that is not the rules' own (a takeback's, games.kahuna.
        takeback) as theirs are: Rejected (storage), nothing written, if it cannot be."""
        self._note(action)

    def _note(self, action):
        # Called once an action has passed every check and before it changes anything:
        # the journal writes it here, and if it cannot, the action is refused whole.
        if self.recorder is not None:
            self.recorder(action)
        if self.turns is not None:
            self.turns.note(self, action)

    # --------------------------------------------------------- turns, rounds

    def _start_turn(self, p):
        self.turn = p
        self.phase = PLAY
        self.history = []
        self.refill = NOBODY

    def _counts(self):
        return self.controlled_count(WHITE), self.controlled_count(BLACK)

    def _round_end(self):
        last = self.turn
        w, b = self._counts()
        if self.round < ROUNDS:
            points = self.round  # round 1 scores 1 point, round 2 scores 2
            self._give(w, b, points, points)
            self.round += 1
            for c in range(self.settings.n_cards):  # the discard pile becomes the new deck
                if self.place[c] == DISCARD:
                    self.place[c] = DRAWABLE
            self._start_turn(1 - last)
        else:
            # Round 3: each player plays one more turn, the other player first, no draws.
            self.final_turns = True
            self.finals_left = 2
            self._start_turn(1 - last)

    def _give(self, w, b, pw, pb):
        gained = (pw if w > b else 0, pb if b > w else 0)
        self.scores[WHITE] += gained[WHITE]
        self.scores[BLACK] += gained[BLACK]
        self.round_scores.append(gained)

    def _final_scoring(self):
        w, b = self._counts()
        self._give(w, b, w - b, b - w)  # the difference
        self.final_islands = (w, b)
        self.phase = OVER
        self.must_draw = False
        self.history = []
        sw, sb = self.scores
        if sw == sb:
            # R6: more islands at the final scoring, then more bridges on the board.
            if w == b:
                w = self.bridges_on_board(WHITE)
                b = self.bridges_on_board(BLACK)
            sw, sb = w, b
        self.winner = "white" if sw > sb else "black" if sb > sw else "draw"

    def is_over(self):
        return self.phase == OVER


# Action names `apply` accepts (as `legal_actions` lists them) and their methods.
ACTIONS = {
    "deal": "deal", "handicap": "handicap_bridge", "place": "place_bridge",
    "remove": "remove_bridge", "refill": "refill_bridge", "skip_refill": "skip_refill",
    "discard": "discard", "end_play": "end_play", "resume_play": "resume_play",
    "draw": "draw", "decline": "decline", "undo": "undo",
}
