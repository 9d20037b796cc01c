"""Kami's rules (docs/kami.md, rulings K1-K22) as the platform's state object.

Seats and cards are indices (deck.py). A line entry is [card, up, from_centre] (ints 0/1).
`hands` is None at a table (deal=table: the board learns each card as it is played, K20)
and the seats' hands as lists of cards with a given or seeded deal. Every hidden card
(face-down defences, hands, the 3-player aside, the 2-player face-down centre cards) stays
in its own field; `public()` and `seat_view()` never copy one into a public field.

Actions (tuples; the first item names it):
    ("deal", hands, aside, centre)   phase deal: a stated deal (deal=given)
    ("centre", card)                 phase centre: the next stack's face-up card (table, 2p)
    ("defend", card)                 step open: the face-down defence (K6)
    ("attack", card)                 step attack: the attack card (K3)
    ("counter", card)                step respond: a face-up counter (K1, K2, K4)
    ("pass",)                        step respond (K15)
    ("back",)                        step attack: take back this turn's defence or counter
    ("reveal", card)                 step reveal: the card turned up on a centre stack (table)
    ("discard",)                     open a 5-Soldier claim (K11)
    ("pick", seat), ("show", card), ("shown",), ("withdraw",), ("cancel",), ("keep",)
                                     the claim's steps: claimant, Soldiers, done, answer
"""

from core.outcome import WRONG_PHASE, Rejected
from games.kami import deck
from games.kami.dealing import STACKS, check_deal, dealt, split

UNKNOWN_CARD = "unknown-card"
ALREADY_PLAYED = "card-already-played"
NOT_IN_HAND = "card-not-in-hand"
NOT_A_COUNTER = "not-a-counter"
EMPRESS_LOCKED = "empress-locked"
LAST_CARD_DEFENCE = "last-card-defence"
NO_CLAIM = "no-claim"
BAD_DEAL = "bad-deal"  # a stated deal the link sent malformed (a scenario's is exit 2)

CARD_ACTIONS = ("centre", "defend", "attack", "counter", "reveal", "show")
# used[card]: 0 not played this round; PUBLIC face up on a line or taken from the centre;
# HIDDEN face down on a line from a hand (with a known deal, tapping it again must not
# tell it apart from a card held elsewhere: card-not-in-hand, section 8.4)
PUBLIC = 1
HIDDEN = 2
FIELDS = ("players", "mode", "target", "deal", "rng", "phase", "round", "first", "turn",
          "step", "attack", "passed", "lines", "sizes", "hands", "used", "up", "down",
          "left", "reveal", "reveal_seat", "placed", "claim", "scores", "rounds", "winner",
          "aside")


def _no(code, message):
    raise Rejected(code, message)


class Game:
    """One game of Kami: the state object of docs/platform.md."""

    def __init__(self, players=4, mode="soldat", first=0, target=15, deal="table", seed=0):
        self.players = players
        self.mode = mode
        self.target = target
        self.deal = deal
        self.rng = deck.seed_state(seed or 0)
        self.recorder = None
        self.round = 1
        self.first = first
        self.scores = [0] * self.sides()
        # per scored round: [round, first, seat, card, defence card or -1, its face
        # up 1 / down 0 / -1, doubled, points, scores]
        self.rounds = []
        self.winner = -1
        self._start_round()

    # ---- sides and seats
    def sides(self):
        return 2 if self.players == 4 else self.players

    def side(self, seat):
        return seat % 2 if self.players == 4 else seat  # section 2: p1+p3, p2+p4

    def partner(self, seat):
        return (seat + 2) % 4

    # ---- the round
    def _start_round(self):
        n = self.players
        self.lines = [[[], []] for _ in range(n)]  # per seat: [defence, attack]
        self.used = [0] * deck.COUNT
        self.attack = None
        self.passed = []
        self.placed = None  # this turn's defence or counter, [card, up, from_centre]
        self.reveal = -1
        self.reveal_seat = -1
        self.claim = None
        self.turn = self.first
        self.step = None
        self.aside = None
        self.down = None
        if n == 2:
            self.up = [-1] * STACKS
            self.left = [0] * STACKS
        else:
            self.up = None
            self.left = None
        if self.deal == "table":
            self.hands = None
            self.sizes = [dealt(n)] * n
            if n == 2:
                self.left = [2] * STACKS
                self.phase = "centre"  # the 8 face-up centre cards are tapped first
            else:
                self._to_play()
        else:
            self.hands = [[] for _ in range(n)]
            self.sizes = [0] * n
            self.phase = "deal"
            if self.deal == "seed":
                cards, self.rng = deck.shuffled(self.rng)
                self._deal(*split(cards, n))

    def _to_play(self):
        self.phase = "play"
        self.turn = self.first
        self.step = "open"

    def _deal(self, hands, aside, centre):
        self.hands = [sorted(h) for h in hands]
        self.sizes = [len(h) for h in hands]
        if self.players == 3:
            self.aside = sorted(aside)
        if self.players == 2:
            self.up = [s[0] for s in centre]
            self.down = [s[1] for s in centre]
            self.left = [2] * STACKS
        self._to_play()

    def is_over(self):
        return self.phase == "over"

    def to_act(self):
        """The seats to act now (one at a time in Kami: no simultaneous choice)."""
        if self.phase == "over":
            return []
        if self.phase == "claim":
            seat, step = self.claim[0], self.claim[1]
            if step == "cards":
                return [seat]
            if step == "answer":
                return [self.partner(seat)]
            return [self.first]
        if self.phase == "play" and self.reveal >= 0:
            return [self.reveal_seat]
        return [self.turn] if self.phase == "play" else [self.first]

    def empress_unlocked(self):
        """K4, K5: an Empress lies face up on a defence line this round."""
        for lines in self.lines:
            for e in lines[0]:
                if e[1] and deck.KIND[e[0]] == deck.IMPERATRICE:
                    return True
        return False

    def centre_shows(self):
        if self.up is None:
            return False
        for c in self.up:
            if c >= 0:
                return True
        return False

    def _stack_of(self, card):
        if self.up is not None:
            for i in range(STACKS):
                if self.up[i] == card:
                    return i
        return -1

    def card_played(self):
        """A card was played this round (the 5-Soldier claim's window has closed, K11)."""
        for c in self.used:
            if c:
                return True
        return False

    # ---- checks (they raise Rejected and change nothing)
    def _source(self, seat, card):
        """Where `card` would come from for `seat`: a centre stack index, or -1 for the
        hand. The card checks in the contract's order: card-already-played, then
        card-not-in-hand (known deals; one code wherever the card hides, 8.4)."""
        stack = self._stack_of(card)
        if stack >= 0:
            return stack  # K13: a face-up centre card may be used
        if self.hands is None:
            if self.used[card]:
                _no(ALREADY_PLAYED, "%s was already played this round" % deck.NAMES[card])
            return -1
        if self.used[card] == PUBLIC:
            _no(ALREADY_PLAYED, "%s was already played this round" % deck.NAMES[card])
        if card not in self.hands[seat]:
            _no(NOT_IN_HAND, "p%d does not hold %s" % (seat + 1, deck.NAMES[card]))
        return -1

    def _registered(self, card):
        """Table, centre registration: a card on a line, taken, or already on a stack."""
        if self.used[card] or self._stack_of(card) >= 0:
            _no(ALREADY_PLAYED, "%s is already on the table" % deck.NAMES[card])

    def _k22(self, seat):
        """K22: 2 players, no centre card shows, and the hand holds only Empresses (known
        deal) or at most 2 cards (table: public facts only)."""
        if self.players != 2 or self.centre_shows():
            return False
        if self.hands is None:
            return self.sizes[seat] <= 2
        for c in self.hands[seat]:
            if deck.KIND[c] != deck.IMPERATRICE:
                return False
        return True

    def _check_attack(self, seat, card, stack):
        if deck.KIND[card] != deck.IMPERATRICE or self.empress_unlocked():
            return
        if stack < 0 and self.sizes[seat] == 1:
            return  # K4, K7: the player's last card
        if stack < 0 and self._k22(seat):
            return
        _no(EMPRESS_LOCKED, "an Empress may attack only once an Empress lies face up "
            "in defence, or as the last card (K4)")

    def _check_counter(self, card):
        a = deck.KIND[self.attack[1]]
        k = deck.KIND[card]
        if k == a:
            return  # K1
        if k == deck.IMPERATRICE and a != deck.SOLDAT and a != deck.LANCE:
            return  # K4
        _no(NOT_A_COUNTER, "%s does not counter %s (K1, K4)"
            % (deck.NAMES[card], deck.NAMES[self.attack[1]]))

    def _check_not_last(self, seat, stack):
        if stack < 0 and self.sizes[seat] == 1:
            _no(LAST_CARD_DEFENCE, "the last card in hand must be an attack (K7)")

    # ---- apply
    def apply(self, action):
        """Apply `action`, or raise Rejected having changed nothing. A malformed stated
        deal is ValueError (a scenario's fault, not a table event)."""
        if not isinstance(action, tuple) or not action:
            raise ValueError("an action is a non-empty tuple, got %r" % (action,))
        name = action[0]
        if name == "deal":
            hands, aside, centre = check_deal(self.players, action)
        if self.phase == "over":
            _no(WRONG_PHASE, "the game is over")
        if name in CARD_ACTIONS:
            if len(action) != 2 or not deck.is_card(action[1]):
                _no(UNKNOWN_CARD, "not one of Kami's 32 cards")
        if name == "deal":
            if self.phase != "deal":
                _no(WRONG_PHASE, "the cards are dealt already")
            self._record(action)
            # the next deal legal_actions offers differs from this one (rng is state)
            self.rng = deck.shuffled(self.rng)[1]
            self._deal(hands, aside, centre)
            return
        handler = getattr(self, "_a_" + name, None) if isinstance(name, str) else None
        if handler is None:
            raise ValueError("unknown action %r" % (action,))
        handler(action)

    def _record(self, action):
        if self.recorder is not None:
            self.recorder(action)

    def _play_phase(self, step):
        if self.phase != "play" or self.reveal >= 0 or self.step != step:
            _no(WRONG_PHASE, "not now")

    def _a_centre(self, action):
        card = action[1]
        if self.phase != "centre":
            _no(WRONG_PHASE, "the centre is laid out already")
        self._registered(card)
        self._record(action)
        i = self._stack_of(-1)  # the first stack not yet tapped
        self.up[i] = card
        if i == STACKS - 1:
            self._to_play()

    def _a_reveal(self, action):
        card = action[1]
        if self.phase != "play" or self.reveal < 0:
            _no(WRONG_PHASE, "no centre card to turn up")
        self._registered(card)
        self._record(action)
        self.up[self.reveal] = card
        self.reveal = -1
        self.reveal_seat = -1

    def _take(self, seat, card, stack):
        """Take `card` out of the hand, or off centre stack `stack` (K13: never into a
        hand; the card beneath turns up, or waits to be tapped at a table)."""
        if stack < 0:
            self.sizes[seat] -= 1
            if self.hands is not None:
                self.hands[seat].remove(card)
            return
        self.left[stack] -= 1
        self.up[stack] = -1
        if self.down is not None:
            self.up[stack] = self.down[stack]
            self.down[stack] = -1
        elif self.left[stack] > 0:
            self.reveal = stack
            self.reveal_seat = seat

    def _place(self, seat, card, stack, up, line):
        self._take(seat, card, stack)
        entry = [card, up, 1 if stack >= 0 else 0]
        self.lines[seat][line].append(entry)
        self.used[card] = PUBLIC if up or stack >= 0 else HIDDEN
        return entry

    def _a_defend(self, action):
        card = action[1]
        self._play_phase("open")
        seat = self.turn
        stack = self._source(seat, card)
        self._check_not_last(seat, stack)  # K7 (2 players)
        self._record(action)
        self.placed = self._place(seat, card, stack, 0, 0)  # K6: face down, any card
        self.step = "attack"

    def _a_counter(self, action):
        card = action[1]
        self._play_phase("respond")
        seat = self.turn
        stack = self._source(seat, card)
        self._check_counter(card)
        self._check_not_last(seat, stack)
        self._record(action)
        self.placed = self._place(seat, card, stack, 1, 0)  # K2: face up
        self.step = "attack"  # K3: the attack is compulsory

    def _a_attack(self, action):
        card = action[1]
        self._play_phase("attack")
        seat = self.turn
        stack = self._source(seat, card)
        self._check_attack(seat, card, stack)
        self._record(action)
        self._place(seat, card, stack, 1, 1)
        self.attack = [seat, card]
        self.passed = []
        if stack < 0 and self.sizes[seat] == 0:
            self._score(seat, card)  # K7: the last hand card ends the round
            return
        self.placed = None
        self.turn = (seat + 1) % self.players  # K16: a fresh series of responses
        self.step = "respond"

    def _a_pass(self, action):
        self._play_phase("respond")
        self._record(action)
        self.passed.append(self.turn)
        if len(self.passed) < self.players - 1:
            self.turn = (self.turn + 1) % self.players
            return
        seat = self.attack[0]  # K16: everyone passed, the attacker replays
        self.turn = seat
        self.step = "open"
        if self.sizes[seat] == 1 and not self.centre_shows():
            self.step = "attack"  # K13: a lone last card is the attack, no defence

    def _a_back(self, action):
        if self.phase == "claim":
            if self.claim[1] == "answer":
                return self._a_keep(action)
            return self._a_withdraw(action)
        self._play_phase("attack")
        entry = self.placed
        if entry is None or entry[2]:
            _no(WRONG_PHASE, "nothing to take back (a centre card stays played)")
        self._record(action)
        seat = self.turn
        self.lines[seat][0].pop()
        card = entry[0]
        self.used[card] = 0
        self.sizes[seat] += 1
        if self.hands is not None:
            self.hands[seat].append(card)
            self.hands[seat].sort()
        self.step = "respond" if entry[1] else "open"
        self.placed = None

    # ---- scoring (K7, K8, K18)
    def _score(self, seat, card):
        pts = deck.points(card)
        d = self.placed
        doubled = d is not None and not d[1] and deck.KIND[d[0]] == deck.KIND[card]
        if doubled:
            pts *= 2  # K8: identical, the defence face down
        side = self.side(seat)
        total = self.scores[side] + pts
        won = total >= self.target
        if self.mode != "soldat" and total > self.target:
            won = False
            total = 0 if self.mode == "kami" else max(0, 2 * self.target - total)
        self.scores[side] = total
        self.rounds.append([self.round, self.first, seat, card,
                            d[0] if d is not None else -1, d[1] if d is not None else -1,
                            doubled, pts, list(self.scores)])
        self.placed = None
        if won:
            self.winner = side
            self.phase = "over"
            self.turn = -1
            self.step = None
            return
        self.round += 1
        self.first = (self.first + 1) % self.players  # K9
        self._start_round()

    # ---- the 5-Soldier claim (K11)
    def _a_discard(self, action):
        if self.phase != "play" or self.reveal >= 0:
            _no(WRONG_PHASE, "no claim now")
        if self.players != 4:
            _no(NO_CLAIM, "the 5-Soldier rule is for 4 players only (K11)")
        if self.card_played():
            _no(WRONG_PHASE, "a claim comes before the round's first card (K11)")
        self._record(action)
        self.phase = "claim"
        self.claim = [self.first, "seat", []]

    def _claim_step(self, step):
        if self.phase != "claim" or self.claim[1] != step:
            _no(WRONG_PHASE, "not now")

    def _a_pick(self, action):
        self._claim_step("seat")
        if len(action) != 2 or action[1] not in range(self.players):
            raise ValueError("pick names a seat index, got %r" % (action,))
        self._record(action)
        self.claim = [action[1], "cards", []]

    def _a_show(self, action):
        card = action[1]
        self._claim_step("cards")
        seat = self.claim[0]
        if self.hands is not None and card not in self.hands[seat]:
            _no(NOT_IN_HAND, "p%d does not hold %s" % (seat + 1, deck.NAMES[card]))
        if deck.KIND[card] != deck.SOLDAT or card in self.claim[2]:
            _no(NO_CLAIM, "a claim shows five different Soldiers")
        self._record(action)
        self.claim[2].append(card)

    def _a_shown(self, action):
        self._claim_step("cards")
        if len(self.claim[2]) < 5:
            _no(NO_CLAIM, "a claim shows five different Soldiers (%d shown)"
                % len(self.claim[2]))
        self._record(action)
        self.claim[1] = "answer"

    def _a_withdraw(self, action):
        if self.phase != "claim" or self.claim[1] == "answer":
            _no(WRONG_PHASE, "no claim to withdraw")
        self._record(action)
        self.claim = None
        self._to_play()

    def drop_claim(self):
        """An open claim ends unanswered (a power cut): phase play, as before it."""
        if self.phase == "claim":
            self.claim = None
            self._to_play()

    def _a_keep(self, action):
        self._claim_step("answer")
        self._record(action)
        self.claim = None
        self._to_play()

    def _a_cancel(self, action):
        self._claim_step("answer")
        self._record(action)
        self._start_round()  # K11: dealt again, same round and first player

    # ---- the actions the rules allow now
    def _candidates(self, seat):
        """(card, stack) pairs `seat` could play: its hand (every unplayed card not on a
        stack, at a table) and the face-up centre cards."""
        out = []
        if self.hands is None:
            for c in range(deck.COUNT):
                if not self.used[c] and self._stack_of(c) < 0:
                    out.append((c, -1))
        else:
            for c in self.hands[seat]:
                out.append((c, -1))
        if self.up is not None:
            for i in range(STACKS):
                if self.up[i] >= 0:
                    out.append((self.up[i], i))
        return out

    def legal_actions(self):
        out = []
        if self.phase == "deal":
            cards = deck.shuffled(self.rng)[0]  # one deal, from a copy of the seed state
            h, a, c = split(cards, self.players)
            return [("deal", h, a, c)]
        if self.phase == "centre" or (self.phase == "play" and self.reveal >= 0):
            name = "centre" if self.phase == "centre" else "reveal"
            for c in range(deck.COUNT):
                if not self.used[c] and self._stack_of(c) < 0:
                    out.append((name, c))
            return out
        if self.phase == "claim":
            return self._claim_actions()
        if self.phase != "play":
            return out
        seat = self.turn
        for card, stack in self._candidates(seat):
            try:
                if self.step == "open":
                    self._check_not_last(seat, stack)
                    out.append(("defend", card))
                elif self.step == "respond":
                    self._check_counter(card)
                    self._check_not_last(seat, stack)
                    out.append(("counter", card))
                else:
                    self._check_attack(seat, card, stack)
                    out.append(("attack", card))
            except Rejected:
                pass
        if self.step == "respond":
            out.append(("pass",))
        if self.step == "attack" and self.placed is not None and not self.placed[2]:
            out.append(("back",))
        if self.step == "open" and self.players == 4 and not self.card_played():
            out.append(("discard",))
        return out

    def _claim_actions(self):
        seat, step, shown = self.claim
        if step == "seat":
            return [("pick", s) for s in range(self.players)] + [("withdraw",)]
        if step == "answer":
            return [("cancel",), ("keep",)]
        out = []
        pool = self.hands[seat] if self.hands is not None else range(deck.COUNT)
        for c in pool:
            if deck.KIND[c] == deck.SOLDAT and c not in shown:
                out.append(("show", c))
        if len(shown) >= 5:
            out.append(("shown",))
        out.append(("withdraw",))
        return out

    # ---- snapshot
    def snapshot(self):
        """The whole state as JSON-able plain values (lists copied)."""
        snap = {}
        for f in FIELDS:
            snap[f] = _copy(getattr(self, f))
        return snap

    def restore(self, snap):
        for f in FIELDS:
            setattr(self, f, _copy(snap[f]))


def _copy(v):
    if isinstance(v, (list, tuple)):
        return [_copy(x) for x in v]
    return v
