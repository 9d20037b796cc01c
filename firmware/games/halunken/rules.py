"""Halunken & Spelunken's rules (docs/halunken.md, H1-H33) as the platform's state object.

Indices throughout: seats 0..N-1, Black-Jack the figure BJ, spaces 0..13 (T1..T14), crew
cards and movement cards as in deck.py. Actions (tuples, the first item names them):

    ("place", space)            set-up: the seat `placer` puts its captain (H4, H5)
    ("place_bj", space)         the holder of the lowest set-up card places Black-Jack (H18)
    ("offer", card) / ("pass",) the auction's word (H19-H21, H26)
    ("choose", figure, m)       a secret movement card; several seats at once (H32)
    ("reveal",)                 every choice is in: reveal (H7)
    ("rum", n)                  the single uncancelled RUM's number (H7, H27)
    ("steal", card)             a theft on landing; card -1 declines (H9, H11, H24, H26)
    ("rob", card)               Black-Jack's robbery; -1 declines when W robs (H22, H23)
    ("take", card)              at a table: the card taken from a tavern, as tapped (H33)
    ("bj_card", card)           at a table: Black-Jack's turned card (standard BJ-n: n;
                                tactical without a bid, the P3 card: 0..7; H25, H27)
    ("undo",)                   `back`: takes back the last event of the current group
                                (sim contract, Undo): the auction's last word while it is
                                open, the secret choices last first until the reveal,
                                at a table the set-up pick while its take is awaited and
                                a mover's take while its theft is, Black-Jack's turned
                                card and robberies last first while one is awaited

With a dealt deck (`deal` seed or given) the board makes every take and turns Black-Jack's
cards itself; at a table (`deal` table, H33) the piles are face down, known only by their
counts (UNSEEN cards), and each take and turned card is an action. The round's half after
the secret choice is moves.py's.
"""

from core.outcome import WRONG_PHASE, Rejected
from games.halunken import deck, moves
from games.halunken.moves import BJ, LAND, PORT, SETUP, UNSEEN

UNKNOWN = "unknown-card"
OUT_OF_TURN = "out-of-turn"
ALREADY_CHOSEN = "already-chosen"
PLAYED = "card-already-played"
NOT_IN_CREW = "not-in-crew"
NOT_AVAILABLE = "card-not-available"
TOO_LOW = "bid-too-low"
NOT_OFFERED = "not-offered"

STEPS = {"place": ("place",), "place-bj": ("place_bj",), "auction": ("offer", "pass"),
         "choose": ("choose",), "reveal": ("reveal", "choose"), "rum": ("rum",),
         "steal": ("steal",), "rob": ("rob",), "take": ("take",), "bj-card": ("bj_card",)}

FIELDS = ("players", "mode", "first", "deal", "values", "phase", "step", "round", "pos", "bj",
          "piles", "crews", "port", "setup_cards", "placer", "placed", "low", "high",
          "last_bidder", "auction", "bj_deck", "bj_cards", "played", "choices",
          "cards", "numbers", "cancelled", "rum_owner", "options", "queue", "pending",
          "robs", "bj_stage", "undo", "stayers", "taking")


def _copy(v):
    if isinstance(v, list):
        return [_copy(x) for x in v]
    if isinstance(v, dict):
        return {k: _copy(v[k]) for k in v}
    return v


def crew_score(values, crew):
    """Sum of values plus the majority colour's sum again (H14: tie -> highest sum); the
    board's player scores crews it imagines with it too."""
    total = 0
    sums = [0, 0, 0, 0]
    counts = [0, 0, 0, 0]
    for c in crew:
        total += values[c]
        sums[deck.colour(c)] += values[c]
        counts[deck.colour(c)] += 1
    top = max(counts)
    if top == 0:
        return 0
    return total + max(sums[k] for k in range(4) if counts[k] == top)


class Game:
    def __init__(self, settings):
        n = settings["players"]
        self.players = n
        self.mode = settings["mode"]
        self.first = int(settings["first"][1:]) - 1
        self.deal = settings["deal"]
        self.values = deck.values(settings.get("values"))  # H2: the enrolled table
        if settings["deal"] == "table":  # H33: face down, known by their counts
            piles = [[UNSEEN] * 3 for _ in range(deck.SPACES)]
            bj = list(range(1, 13) if self.mode == "standard" else range(deck.MOVES))
        elif settings["deal"] == "seed":
            size = 12 if self.mode == "standard" else deck.MOVES
            piles, bj = deck.seeded_deal(settings["seed"], size)
            if self.mode == "standard":
                bj = [c + 1 for c in bj]
        else:
            piles, bj = _copy(settings["piles"]), _copy(settings["bj"])
        self.piles = piles  # top first
        self.bj_deck = [] if self.mode == "beginner" else bj  # H25: never reshuffled
        self.bj_cards = []
        self.phase = "setup"
        self.step = "place"
        self.round = 0
        self.pos = [-1] * n
        self.bj = -1
        self.crews = [[] for _ in range(n)]
        self.port = []
        self.setup_cards = [-1] * n
        self.placer = self.first
        self.placed = 0
        self.low = self.high = -1
        self.last_bidder = -1
        self.auction = None
        self.played = [[] for _ in range(n)]
        self.choices = [-1] * 5  # seats 0..3, BJ
        self.cards = [-1] * 5  # revealed this round
        self.numbers = [-1] * 5
        self.cancelled = [False] * 5
        self.rum_owner = -1
        self.options = []
        self.queue = []
        self.pending = None
        self.robs = []
        self.bj_stage = 0  # 0 moves, 1 Black-Jack's end move done, 2 his card awaited
        self.stayers = []  # cancelled captains still to take (H8)
        self.taking = None  # the take awaited at a table: [figure, space, SETUP|STAY|LAND]
        # What `undo` takes back, last last (small records, JSON-able, journaled with the
        # state): ["word", auction before it], ["choose", figure], ["rob", robs before it,
        # victim, chooser, card, its index in the victim's crew]; at a table ["place"],
        # ["take", the take, card], ["bj", card, Black-Jack's space before his move].
        self.undo = []
        self.recorder = None
        self.colours = None  # H31: the seats' light colours, the view's (game.new_state)

    # ------------------------------------------------------------------ reads

    def is_over(self):
        return self.phase == "over"

    def bj_controlled(self):
        """W in a won tactical round: Black-Jack is W's second mover (H26)."""
        a = self.auction
        return self.mode == "tactical" and a is not None and a["winner"] >= 0

    def winner_seat(self):
        a = self.auction
        return -1 if a is None else a["winner"]

    def occupant(self, space, skip=-2):
        """The figure on `space` other than `skip`, or -1."""
        for s in range(self.players):
            if s != skip and self.pos[s] == space:
                return s
        if skip != BJ and self.bj == space:
            return BJ
        return -1

    def vacant(self):
        return [t for t in range(deck.SPACES) if self.occupant(t) < 0]

    def where(self, fig):
        return self.bj if fig == BJ else self.pos[fig]

    def to_act(self):
        st = self.step
        if st is None:
            return []
        if st == "place":
            return [self.placer]
        if st == "place-bj":
            return [self.low]
        if st == "auction":
            return [self.auction["speaker"]]
        if st == "choose":
            out = [s for s in range(self.players) if self.choices[s] < 0]
            w = self.winner_seat()
            if self.bj_controlled() and self.choices[BJ] < 0 and w not in out:
                out.append(w)
            return out
        if st == "reveal":
            return list(range(self.players))
        if st == "rum":
            return [self.winner_seat() if self.rum_owner == BJ else self.rum_owner]
        if st == "steal":
            return [self.pending["thief"]]
        if st == "take":
            f = self.taking[0]
            return [self.winner_seat() if f == BJ else f]
        if st == "bj-card":
            w = self.winner_seat()
            return [w] if w >= 0 else list(range(self.players))  # nobody bid: anyone
        return [self.robs[0][1]]  # rob: who picks the card

    def left_moves(self, fig):
        if fig == BJ:
            return [m for m in range(deck.MOVES) if m in self.bj_deck]
        return [m for m in range(deck.MOVES) if m not in self.played[fig]]

    def sources(self):
        return self.pending["from"] if self.step == "steal" else [self.robs[0][0]]

    def source_cards(self, src):
        return self.port if src == PORT else self.crews[src]

    def known(self, card):
        """Whether crew card `card` is in a crew or the port (not in a pile)."""
        return card in self.port or any(card in crew for crew in self.crews)

    def legal_actions(self):
        st = self.step
        if st == "place":
            return [("place", t) for t in self.vacant()]
        if st == "place-bj":
            return [("place_bj", t) for t in self.vacant()]
        if st == "auction":
            a = self.auction
            crew = sorted(self.crews[a["speaker"]])
            out = [("offer", c) for c in crew if self._beats(c)] + [("pass",)]
            return out + [("undo",)] if self.undo else out
        if st == "choose":
            out = []
            for s in range(self.players):
                if self.choices[s] < 0:
                    out += [("choose", s, m) for m in self.left_moves(s)]
            if self.bj_controlled() and self.choices[BJ] < 0:
                out += [("choose", BJ, m) for m in self.left_moves(BJ)]
            return out + [("undo",)] if self.undo else out
        if st == "reveal":
            return [("reveal",), ("undo",)]
        if st == "rum":
            return [("rum", n) for n in self.options]
        if st == "take":  # H33: any card not yet seen
            out = [("take", c) for c in range(deck.CREW) if not self.known(c)]
            return out + [("undo",)] if self.undo else out
        if st == "bj-card":
            return [("bj_card", c) for c in sorted(self.bj_deck)]
        if st in ("steal", "rob"):
            out = [("undo",)] if self.undo else []
            for src in self.sources():
                out += [(st, c) for c in sorted(self.source_cards(src))]
            if st == "steal" or self.robs[0][1] != self.robs[0][0]:
                out.append((st, -1))  # H11: W may decline; a victim may not (H23)
            return out
        return []

    def _beats(self, card):
        return self.values[card] > self.auction["value"]

    # ------------------------------------------------------------------ checks

    def check(self, action):
        """Raise Rejected (in the contract's order of checks) unless `action` is legal."""
        if not isinstance(action, tuple) or not action or self.is_over():
            raise Rejected(WRONG_PHASE, "not now: the game is over"
                           if self.is_over() else "not an action")
        name = action[0]
        if name == "undo":
            if len(action) != 1 or not self.undo:
                raise Rejected(WRONG_PHASE, "nothing to take back now")
            return
        self._check_card(action)  # the tag comes before the step (contract's order)
        if name not in STEPS.get(self.step, ()):
            raise Rejected(WRONG_PHASE, "not now: the board waits for step %s" % self.step)
        want = {"place": 2, "place_bj": 2, "offer": 2, "pass": 1, "choose": 3,
                "reveal": 1, "rum": 2, "steal": 2, "rob": 2, "take": 2, "bj_card": 2}[name]
        if len(action) != want or not all(isinstance(x, int) for x in action[1:]):
            raise Rejected(WRONG_PHASE, "a malformed %s" % name)
        if name == "choose":
            self._check_choice(action[1], action[2])
        elif name == "offer":
            card = action[1]
            if not 0 <= card < deck.CREW:
                raise Rejected(UNKNOWN, "not a crew card of this game")
            speaker = self.auction["speaker"]
            for s in range(self.players):
                if s != speaker and card in self.crews[s]:
                    raise Rejected(OUT_OF_TURN, "p%d has the word, not p%d"
                                   % (speaker + 1, s + 1))
            if card not in self.crews[speaker]:
                raise Rejected(NOT_IN_CREW, "%s is in no crew" % deck.crew_name(card))
            if not self._beats(card):  # H20: a raise is a strictly higher value
                raise Rejected(TOO_LOW, "%s is not worth more than the high offer"
                               % deck.crew_name(card))
        elif name in ("steal", "rob"):
            card = action[1]
            if card == -1:
                if name == "rob" and self.robs[0][1] == self.robs[0][0]:
                    raise Rejected(WRONG_PHASE, "a robbery with nobody bidding is "
                                   "compulsory (H23)")
                return
            if not 0 <= card < deck.CREW:
                raise Rejected(UNKNOWN, "not a crew card of this game")
            if not any(card in self.source_cards(src) for src in self.sources()):
                raise Rejected(NOT_IN_CREW, "%s is not where the card may come from"
                               % deck.crew_name(card))
        elif name in ("place", "place_bj"):
            if action[1] not in self.vacant():
                raise Rejected(NOT_OFFERED, "that space is not vacant")
        elif name == "rum" and action[1] not in self.options:
            raise Rejected(NOT_OFFERED, "%d is not among the numbers offered" % action[1])
        elif name == "take" and self.known(action[1]):
            raise Rejected(NOT_AVAILABLE, "%s is already in a crew or the port"
                           % deck.crew_name(action[1]))
        elif name == "bj_card" and action[1] not in self.bj_deck:
            raise Rejected(PLAYED, "that Black-Jack card was used already")

    def _check_card(self, action):
        name = action[0]
        if len(action) < 2 or not isinstance(action[-1], int):
            return
        if name == "choose" and len(action) == 3 and isinstance(action[1], int):
            fig, m = action[1], action[2]
            bj_set = self.mode != "beginner"
            if not (0 <= fig < self.players or (fig == BJ and bj_set)) or not 0 <= m < deck.MOVES:
                raise Rejected(UNKNOWN, "not a movement card of this game")
        elif name in ("offer", "steal", "rob", "take") and len(action) == 2:
            card = action[1]
            if not (0 <= card < deck.CREW or (card == -1 and name in ("steal", "rob"))):
                raise Rejected(UNKNOWN, "not a crew card of this game")
        elif name == "bj_card" and len(action) == 2:
            top = {"standard": 13, "tactical": deck.MOVES}.get(self.mode, 0)
            low = 1 if self.mode == "standard" else 0
            if not low <= action[1] < top:
                raise Rejected(UNKNOWN, "not one of Black-Jack's cards in this game")

    def _check_choice(self, fig, m):
        if not (0 <= fig < self.players or fig == BJ) or not 0 <= m < deck.MOVES:
            raise Rejected(UNKNOWN, "not a movement card of this game")
        if fig == BJ and not self.bj_controlled():
            if self.mode == "tactical":
                raise Rejected(WRONG_PHASE, "Black-Jack's card is chosen only by an "
                               "auction's winner (H27)")
            raise Rejected(UNKNOWN, "Black-Jack has no card to choose in this game")
        if self.choices[fig] >= 0:
            raise Rejected(ALREADY_CHOSEN, "that card's owner has chosen this round")
        if m not in self.left_moves(fig):  # H6
            raise Rejected(PLAYED, "that card was played in an earlier round")

    # ------------------------------------------------------------------ apply

    def apply(self, action):
        self.check(action)
        if self.recorder is not None:
            self.recorder(action)
        name = action[0]
        if name == "undo":
            return self._undo()
        step = self.step
        rec = None  # a record kept only if the step it opens is the one named in KEEP
        if name == "choose":
            self.undo.append(["choose", action[1]])
        elif name in ("offer", "pass"):
            self.undo = [["word", _copy(self.auction)]]  # the last word only
        elif name == "rob":
            victim, chooser = self.robs[0]
            card = action[1]
            idx = self.crews[victim].index(card) if card >= 0 else -1
            self.undo.append(["rob", _copy(self.robs), victim, chooser, card, idx])
        elif name == "place" and self.deal == "table":
            rec = ["place"]
        elif name == "take" and self.taking[2] == LAND:
            rec = ["take", _copy(self.taking), action[1]]
        elif name == "bj_card" and self.mode == "standard":
            rec = ["bj", action[1], self.bj]
        else:
            self.undo = []
        self._apply(name, action)
        if rec is not None:
            keep = {"place": "take", "take": "steal", "bj": "rob"}[rec[0]] == self.step
            if keep and rec[0] == "take":  # the same mover's theft, not a later one's
                keep = self.pending["mover"] == rec[1][0]
            self.undo = [rec] if keep else []
        elif self.step != step and name != "choose":  # a later group started
            self.undo = []
        return None

    def _undo(self):
        rec = self.undo.pop()
        kind = rec[0]
        if kind == "word":
            self.auction = rec[1]
            self.step = "auction"
        elif kind == "choose":
            self.choices[rec[1]] = -1
            self.step = "choose"
        elif kind == "place":  # the seat places again
            self.pos[self.placer] = -1
            self.taking = None
            self.step = "place"
        elif kind == "take":
            fig, space, _ = self.taking = rec[1]
            (self.port if fig == BJ else self.crews[fig]).remove(rec[2])
            self.piles[space].insert(0, UNSEEN)
            self.pending = None
            self.step = "take"
        elif kind == "bj":
            self.bj_deck = sorted(self.bj_deck + [rec[1]])
            self.bj_cards.pop()
            self.cards[BJ] = self.numbers[BJ] = -1
            self.bj = rec[2]
            self.robs = []
            self.bj_stage = 2
            self.step = "bj-card"
        else:
            _, robs, victim, chooser, card, idx = rec
            if card >= 0:
                (self.port if victim == chooser else self.crews[chooser]).remove(card)
                self.crews[victim].insert(idx, card)
            self.robs = robs
            self.step = "rob"

    def _apply(self, name, action):
        if name == "place":
            self._place(action[1])
        elif name == "place_bj":
            self.bj = action[1]
            self.start_round()
        elif name == "offer":
            self._word(action[1])
        elif name == "pass":
            self._word(-1)
        elif name == "choose":
            self.choices[action[1]] = action[2]
            if not self.to_act():
                self.step = "reveal"
        elif name == "reveal":
            moves.reveal(self)
        elif name == "rum":
            self.numbers[self.rum_owner] = action[1]
            moves.start_moves(self)
        elif name == "steal":
            moves.steal(self, action[1])
        elif name == "take":
            moves.take_tapped(self, action[1])
        elif name == "bj_card":
            moves.bj_card(self, action[1])
        else:
            moves.rob(self, action[1])

    # set-up (H4, H5, H18)

    def _place(self, space):
        s = self.placer
        self.pos[s] = space
        if moves.take(self, s, space, SETUP):  # at a table: step take, the card tapped (H33)
            self.step = "take"
            return None
        return self.placed_card(s, self.crews[s][-1])

    def placed_card(self, s, card):
        """Seat `s` took `card` at set-up: the next seat places, or the set-up ends."""
        self.setup_cards[s] = card
        self.step = "place"
        self.placed += 1
        self.placer = (s + 1) % self.players
        if self.placed < self.players:
            return
        ranked = sorted(range(self.players), key=self._setup_rank)  # H18
        self.low, self.high = ranked[0], ranked[-1]
        if self.mode == "beginner":
            self.start_round()
        else:
            self.step = "place-bj"

    def _setup_rank(self, s):
        c = self.setup_cards[s]
        # value, then colour (yellow highest), then the seat nearer p1 ranks higher
        return (self.values[c], deck.colour(c), -s)

    # a round

    def start_round(self):
        self.round += 1
        self.phase = "play"
        self.choices = [-1] * 5
        self.cards = [-1] * 5
        self.numbers = [-1] * 5
        self.cancelled = [False] * 5
        self.rum_owner = -1
        self.options = []
        self.bj_stage = 0
        if self.mode == "beginner":
            self.step = "choose"
            return
        opener = self.last_bidder if self.last_bidder >= 0 else self.high  # H21
        self.auction = {"opener": opener, "words": [], "winner": -1, "value": 0,
                        "card": -1, "seat": -1, "speaker": opener, "out": []}
        self.step = "auction"
        self._next_speaker(opener, True)

    def _next_speaker(self, seat, first):
        """Give the word to `seat` or the next seat that may speak, or end the auction."""
        a = self.auction
        n = self.players
        if self.mode == "tactical":  # H26: alternate until a withdrawal settles it
            while True:
                if not first:
                    seat = (seat + 1) % n
                first = False
                if seat in a["out"]:
                    return self._end_auction()
                if a["seat"] == seat:
                    return self._end_auction()  # H26: the other seat withdrew
                if self.crews[seat]:
                    a["speaker"] = seat
                    return None
                a["out"].append(seat)  # H28: no crew, withdraws at once
                if a["seat"] >= 0:
                    return self._end_auction()
        while True:
            if not first:
                seat = (seat + 1) % n
                if seat == a["opener"]:
                    return self._end_auction()  # H20: once round the table
            first = False
            if self.crews[seat]:  # H28: a seat without crew gets no word
                a["speaker"] = seat
                return None

    def _word(self, card):
        a = self.auction
        s = a["speaker"]
        a["words"].append([s, card])
        if card >= 0:
            a["value"] = self.values[card]
            a["card"] = card
            a["seat"] = s
        elif self.mode == "tactical":
            a["out"].append(s)
            if a["seat"] >= 0 and a["seat"] != s:
                return self._end_auction()
        self._next_speaker(s, False)

    def _end_auction(self):
        a = self.auction
        if a["seat"] >= 0:  # H20: only the winner pays, at once
            w = a["seat"]
            self.crews[w].remove(a["card"])
            self.port.append(a["card"])
            a["winner"] = w
            self.last_bidder = w  # H21
        a["speaker"] = -1
        self.step = "choose"

    # ------------------------------------------------------------------ scores

    def score(self, seat):
        return crew_score(self.values, self.crews[seat])

    def winners(self):
        scores = [self.score(s) for s in range(self.players)]
        return [s for s in range(self.players) if scores[s] == max(scores)]  # H15

    # ------------------------------------------------------------------ views

    def public(self):
        """What everyone may see (H12, 8.3): no secret choice, no card below a top card,
        no top card during the blind set-up (H5), nothing of Black-Jack's deck."""
        blind = self.placed < self.players or self.deal == "table"
        return {
            "round": self.round, "step": self.step, "to_act": self.to_act(),
            "captains": list(self.pos), "blackjack": self.bj,
            "left": [len(p) for p in self.piles],
            "top": [-1 if blind or not p else p[0] for p in self.piles],
            "crews": [sorted(c) for c in self.crews], "port": sorted(self.port),
            "setup_cards": list(self.setup_cards),
            "chosen": [f for f in range(5) if self.choices[f] >= 0],
            "played": _copy(self.played), "bj_cards": list(self.bj_cards),
            "scores": [self.score(s) for s in range(self.players)],
        }

    def seat_view(self, seat):
        """What `seat` alone may see: its own secret choice (and, as W, Black-Jack's)."""
        out = {"choice": self.choices[seat]}
        if self.winner_seat() == seat and self.bj_controlled():
            out["bj_choice"] = self.choices[BJ]
        return out

    # ------------------------------------------------------------------ snapshot

    def snapshot(self):
        return {k: _copy(getattr(self, k)) for k in FIELDS}

    def restore(self, snap):
        for k in FIELDS:
            setattr(self, k, _copy(snap[k]))
