"""Kahuna's side of remote play (host_tools/remote/, docs/remote.md): the dealer's whole
game with its virtual deck, and what one table may know and do.

`Dealt` is the game as the dealer holds it, beside the broker: the rules' state
(games.kahuna.rules), the deck in its secret order and the face-up display (shuffled with
host_tools.remote.shuffle from the game's 128-bit secret, which the dealer keeps). Neither
table holds it; each is told the public state and its own seat's hand only. Requests from a
seat come in the public form below and are checked by the rules before anything changes; a
refusal is `Refused(code, text)`.

Public actions (what every table and anyone on the broker sees), as lists:

    ["deal"]                      the actor got a card of the deal (which, only its table knows)
    ["display", [CARD...]]        the face-up display as it now lies (actor null: the dealer)
    ["place", CARD, CONN]         a card played: it is face up from now on
    ["remove", CARD, CARD, CONN]
    ["discard"]                   a card discarded face down: no name
    ["draw", CARD]                taken from the display (it was face up)
    ["draw"]                      the deck's top card: no name
    ["handicap", CONN], ["refill", CONN], ["skip_refill"], ["end_play"], ["resume_play"],
    ["decline"], ["undo"]

A seat's requests are the same lists, with ["discard", CARD] (its table names the card to
the dealer alone) and ["draw"] or ["draw", CARD] (the top of the deck or a display card).
"""

import random

from core import board as boardmod
from core.outcome import Rejected
from games.kahuna import ai, observe, report, rules
from games.kahuna import settings as kahunasettings
from host_tools.games.kahuna.table import DISPLAY_SIZE
from host_tools.paths import BOARD_DEF
from host_tools.remote import protocol as p

SEATS = rules.PLAYERS  # ("white", "black")
# A request's action name -> how many arguments it takes (draw: none or one).
REQUESTS = {"place": (2,), "remove": (3,), "discard": (1,), "draw": (0, 1), "handicap": (1,),
            "refill": (1,), "skip_refill": (0,), "end_play": (0,), "resume_play": (0,),
            "decline": (0,), "undo": (0,)}

_board = None


def board():
    global _board
    if _board is None:
        _board = boardmod.load(BOARD_DEF, keep_raw=False)
    return _board


class Refused(ValueError):
    """A request that changes nothing: `code` (the rules' rejection code or the protocol's)
    and `text`, one line."""

    def __init__(self, code, text):
        ValueError.__init__(self, "%s: %s" % (code, text))
        self.code = code
        self.text = text


def check_settings(obj):
    """The settings of a remote game in their JSON form, checked (ValueError names the
    fault): variant, first and handicap; the board's own AI plays no seat here."""
    checked = kahunasettings.check_settings(obj if obj is not None else {})
    if "ai" in checked or "ai_level" in checked or "remote" in checked:
        raise ValueError("a remote game seats no AI yet (settings ai, ai_level), and each "
                         "table says itself where it plays (setting remote)")
    return checked


def card_names():
    return list(rules.Game(board()).card_names)


class Dealt:
    """One game as the dealer holds it. `Dealt(settings, rng)` shuffles and deals at once (`rng`:
    the dealer's host_tools.remote.shuffle.Shuffle); `events` then holds the public events
    of the deal and the display, as (actor, action) with actor a seat name or None.
    `request(seat, action)` applies one request and returns its public events, or raises
    Refused and changes nothing."""

    def __init__(self, settings, rng):
        self.settings = check_settings(settings)
        s = self.settings
        handicap = None if s["handicap"] is None else tuple(s["handicap"])
        self.game = rules.Game(board(), s["variant"], s["first"], handicap)
        self.rng = rng
        self.deck = list(self.game.card_names)  # deck[-1] is the top
        self.rng.shuffle(self.deck)
        self.display = []
        self.events = []
        while self.game.phase == rules.DEAL:
            seat = SEATS[self.game.turn]
            self.game.apply(("deal", self.deck.pop()))
            self.events.append((seat, ["deal"]))
        self._refill()

    # ------------------------------------------------------------------ what is known

    def to_act(self):
        """The seat to act, or None once the game is over."""
        return None if self.game.is_over() else SEATS[self.game.turn]

    def hand(self, seat):
        return sorted(self.game.hand(seat))

    def public(self):
        """The public state: the report's game fields without the hands (their sizes
        instead), the display and the deck's size."""
        out = report.game(self.game)
        hands = out.pop("hands")
        out["hand_sizes"] = {seat: len(cards) for seat, cards in hands.items()}
        out["display"] = list(self.display)
        out["deck"] = len(self.deck)
        g = self.game
        out["refill"] = None if g.refill == rules.NOBODY else g.board.connections[g.refill]
        out["settings"] = dict(self.settings)
        return out

    # ------------------------------------------------------------------ requests

    def _refill(self):
        before = list(self.display)
        while len(self.display) < DISPLAY_SIZE and self.deck:
            self.display.append(self.deck.pop())
        if self.display != before:
            self.events.append((None, ["display", list(self.display)]))

    def request(self, seat, action):
        """Apply `seat`'s request `action` (a list, see the module's docstring): its public
        events, or Refused."""
        check_request(action)
        if self.game.is_over():
            raise Refused("game-over", "the game is over")
        if seat != SEATS[self.game.turn]:
            raise Refused("out-of-turn", "it is %s's turn" % SEATS[self.game.turn])
        name = action[0]
        self.events = []
        round_before = self.game.round
        if name == "draw":
            if len(action) == 2:
                card = action[1]
                if card not in self.display:
                    raise Refused("not-on-display", "that card is not on the display")
                public = ["draw", card]
            else:
                if not self.deck:
                    raise Refused("deck-empty", "the deck is empty: take a display card")
                card = self.deck[-1]
                public = ["draw"]
            self._apply(("draw", card))
            if card in self.display:
                self.display.remove(card)
            else:
                self.deck.pop()
            self.events.append((seat, public))
            if self.game.round != round_before:
                self._new_round()
            else:
                self._refill()
            return self.events
        self._apply(tuple(action))
        public = ["discard"] if name == "discard" else list(action)
        self.events.append((seat, public))
        return self.events

    def _apply(self, action):
        try:
            self.game.apply(action)
        except Rejected as e:
            # Only the requester is told: its own card's name may be in the words.
            raise Refused(e.code, e.message) from None

    def _new_round(self):
        """R5: the discard pile (the rules' drawable cards now) is shuffled into a new deck
        and display."""
        g = self.game
        self.deck = [g.card_names[c] for c in range(len(g.place)) if g.place[c] == rules.DRAWABLE]
        self.rng.shuffle(self.deck)
        self.display = []
        self._refill()


def check_request(action):
    """Refused("malformed", ...) unless `action` is a list naming a request with the right
    number of string arguments."""
    p.check_action(action, REQUESTS, Refused)


def options(public, hand, seat):
    """The requests the rules allow `seat` now, from what its table knows: the public
    state and its own hand (the dealer checks them again). Empty when it is not its turn."""
    if public.get("winner") is not None or public.get("turn") != seat:
        return []
    g = rules.Game(board(), **_game_args(public["settings"]))
    s = g.settings
    g.phase = public["phase"]
    g.round = public["round"]
    g.turn = rules.player_index(seat)
    g.final_turns = public["final_turns"]
    g.must_draw = public["must_draw"]
    g.supply[:] = [public["supply"]["white"], public["supply"]["black"]]
    index = {name: k for k, name in enumerate(g.board.connections)}
    for conn, owner in public["bridges"].items():
        g.bridges[index[conn]] = rules.player_index(owner)
    islands = {name: i for i, name in enumerate(g.board.islands)}
    for island, owner in public["control"].items():
        g.control[islands[island]] = rules.player_index(owner)
    g.refill = index[public["refill"]] if public.get("refill") else rules.NOBODY
    g.place[:] = [rules.DISCARD] * s.n_cards
    for card in public["display"]:
        g.place[g.card_index[card]] = rules.DRAWABLE
    for card in hand:
        g.place[g.card_index[card]] = g.turn
    out = []
    for act in g.legal_actions():
        if act[0] == "draw":
            continue
        out.append(list(act))
    if g.phase == rules.DRAW and g.refill == rules.NOBODY and len(hand) < rules.HAND_LIMIT:
        out += [["draw", card] for card in public["display"]]
        if public["deck"]:
            out.append(["draw"])
    return out


def _game_args(settings):
    handicap = settings.get("handicap")
    return {"variant": settings["variant"], "first": settings["first"],
            "handicap": None if handicap is None else tuple(handicap)}


def random_request(opts, rng):
    """A random request among `opts` (`options`), weighted so that a game moves on: mostly
    bridges in the play phase and a draw in the draw phase; `rng` is a random.Random."""
    def of(*names):
        return [o for o in opts if o[0] in names]
    for names, percent in ((("refill",), 100), (("place", "remove"), 75),
                           (("handicap",), 100), (("draw",), 90), (("end_play",), 100),
                           (("discard",), 100), (("decline", "skip_refill"), 100)):
        some = of(*names)
        if some and rng.randrange(100) < percent:
            return rng.choice(some)
    return rng.choice(opts) if opts else None


def summary(public):
    """One line of the public state."""
    return "round %s, %s's %s phase; scores white %s, black %s; hands %s/%s; deck %s%s" % (
        public["round"], public["turn"], public["phase"], public["scores"]["white"],
        public["scores"]["black"], public["hand_sizes"]["white"],
        public["hand_sizes"]["black"], public["deck"],
        "; winner %s" % public["winner"] if public["winner"] else "")


def board_lines(public):
    """The board in words: each seat's bridges and islands, and the display."""
    lines = []
    for seat in SEATS:
        bridges = sorted(c for c, o in public["bridges"].items() if o == seat)
        islands = sorted(i for i, o in public["control"].items() if o == seat)
        lines.append("%s: bridges %s; islands %s" % (seat, " ".join(bridges) or "none",
                                                     " ".join(islands) or "none"))
    lines.append("display: %s" % (" ".join(public["display"]) or "empty"))
    return lines


class AiSeat:
    """The board's own player (games.kahuna.ai) at a remote seat: it decides a whole turn
    from an observation built from what its table knows (the public log and state, its
    hand) and its table sends the turn's requests one by one.

    The observation is the one games.kahuna.observe gives at the board, but for two things
    a table cannot rebuild from the public log: its own discards are not counted among the
    cards seen on the discard pile (the log names no discarded card), and an undo is not
    taken back from the record (no player here sends one)."""

    def __init__(self, level=ai.DEFAULT_LEVEL, seed=1):
        self.player = ai.Player(board(), level, seed)
        self.plan = []
        self.at = None  # (round, turn, phase) the plan was made for

    def choose(self, seat, public, hand, log, opts):
        at = (public["round"], public["turn"], public["final_turns"])
        if at != self.at or not self.plan:
            self.plan = [request_of(a) for a in self.player.decide(
                observation(seat, public, hand, log))]
            self.at = at
        while self.plan:
            act = self.plan.pop(0)
            if act in opts:
                return act
        return random_request(opts, random.Random(len(log)))  # the plan went off the rails


def request_of(action):
    if action[0] == "draw_top":
        return ["draw"]
    return list(action)


def observation(seat, public, hand, log):
    """games.kahuna.observe.Observation for `seat` from its table's knowledge."""
    g = rules.Game(board(), **_game_args(public["settings"]))
    me = rules.player_index(seat)
    idx = g.card_index
    seen = opp_known = 0
    display = []
    for _seq, actor, action in log:
        kind = action[0]
        theirs = actor is not None and actor != seat
        if kind == "display":
            if not display:  # a new round's display (or the first): the pile was shuffled
                seen = 0
            display = action[1]
        elif kind in ("place", "remove"):
            for card in action[1:-1]:
                seen |= 1 << idx[card]
                if theirs:
                    opp_known &= ~(1 << idx[card])
        elif kind == "discard" and theirs:
            opp_known = 0  # any card of their hand may be the one
        elif kind == "draw" and len(action) == 2:
            display = [c for c in display if c != action[1]]
            if theirs:
                opp_known |= 1 << idx[action[1]]
    conns = {name: k for k, name in enumerate(g.board.connections)}
    bridges = [rules.NOBODY] * len(g.board.connections)
    for conn, owner in public["bridges"].items():
        bridges[conns[conn]] = rules.player_index(owner)
    islands = {name: i for i, name in enumerate(g.board.islands)}
    control = [rules.NOBODY] * len(g.board.islands)
    for island, owner in public["control"].items():
        control[islands[island]] = rules.player_index(owner)
    other = SEATS[1 - me]
    return observe.Observation(
        me, public["settings"]["variant"], public["phase"], rules.player_index(public["turn"]),
        public["round"], public["final_turns"], public["must_draw"],
        conns[public["refill"]] if public.get("refill") else rules.NOBODY, 0, tuple(bridges),
        tuple(control), (public["supply"]["white"], public["supply"]["black"]),
        tuple(sorted(idx[c] for c in hand)), seen, opp_known, public["hand_sizes"][other],
        public["discard"], public["drawable"], tuple(sorted(idx[c] for c in public["display"])))
