"""Kami's side of remote play (host_tools/remote/, docs/remote.md): the dealer's whole game
with its shuffled deck, each seat's hand and options, and the board's player at a remote
seat.

`Dealt` is the game as the dealer holds it: the firmware's rules (games.kami.rules) with a
given deal (K20: the dealer states every round's deal, shuffled from its 128-bit secret:
host_tools.remote.shuffle). Each table is told its own hand; the public topics name a card
only when the rules show it: an attack or a counter (face up, K2), a claim's Soldiers
(K11), a face-up centre card (K13), the final defence of a scored round (K21, in the public
state's `rounds`). A face-down defence (K6) is named to the dealer alone: its event is
["defend"]. Kami has no simultaneous secret choice (one seat acts at a time), so no commit
and reveal: the defence is hidden by never being published, and bound by the dealer, which
holds it from the moment it is laid.

Public actions (events), as lists:

    ["deal", ROUND]                  the dealer dealt the round (hands: each seat's topic)
    ["defend"]                       a face-down defence (K6): no name
    ["attack", CARD], ["counter", CARD], ["pass"]
    ["back"]                         this turn's defence or counter taken back
    ["claim"]                        a 5-Soldier claim opened by the actor (K11, 4 players)
    ["show", CARD], ["shown"], ["withdraw"], ["cancel"], ["keep"]   the claim's steps

A seat's requests are the same, with ["defend", CARD] (its move topic is read by the
dealer alone).
"""

from core.outcome import Rejected
from games.kami import ai, deck, report, rules
from games.kami import settings as ksettings
from games.kami.dealing import split
from host_tools.remote import protocol as p

SEATS = ("p1", "p2", "p3", "p4")
Refused = p.Bad
CARD_REQUESTS = ("defend", "attack", "counter", "show")
REQUESTS = {"defend": (1,), "attack": (1,), "counter": (1,), "pass": (0,), "back": (0,),
            "claim": (0,), "show": (1,), "shown": (0,), "withdraw": (0,), "cancel": (0,),
            "keep": (0,)}
SETTINGS = ("players", "mode", "first", "target")


def seats_of(settings):
    return SEATS[:settings["players"]]


def check_settings(obj):
    """players (2-4, default 2), mode, first, target; the deal is the dealer's
    (ValueError names the fault)."""
    obj = dict(obj if obj is not None else {})
    for key in obj:
        if key not in SETTINGS:
            raise ValueError("a remote game of Kami takes players, mode, first and target, "
                             "not %r" % (key,))
    obj.setdefault("players", 2)
    checked = ksettings.check_settings(obj)
    return {k: checked[k] for k in SETTINGS}


def check_request(action):
    p.check_action(action, REQUESTS, Refused)
    if action[0] in CARD_REQUESTS and deck.index(action[1]) < 0:
        raise Refused("malformed", "%r is not one of Kami's cards" % (action[1][:20],))


def to_wire(action):
    name = action[0]
    if name in CARD_REQUESTS:
        return [name, deck.NAMES[action[1]]]
    return [name]


def from_wire(action):
    if action[0] in CARD_REQUESTS:
        return (action[0], deck.index(action[1]))
    return (action[0],)


class Dealt:
    """One game as the dealer holds it. `Dealt(settings, rng)` (`rng`: the dealer's
    host_tools.remote.shuffle.Shuffle) deals the first round at once; `request(seat,
    action)` applies one request and returns its public events [(actor, action)], or raises
    Refused and changes nothing."""

    def __init__(self, settings, rng, code=""):
        self.settings = check_settings(settings)
        s = self.settings
        self.rng = rng
        self.game = rules.Game(s["players"], s["mode"], int(s["first"][1:]) - 1,
                               s["target"], "given")
        self.seats = seats_of(s)
        self.events = []
        self._deal()

    def _deal(self):
        g = self.game
        while g.phase == "deal":
            cards = list(range(deck.COUNT))
            self.rng.shuffle(cards)
            hands, aside, centre = split(cards, g.players)
            g.apply(("deal", hands, aside, centre))
            self.events.append((None, ["deal", str(g.round)]))

    # ------------------------------------------------------------------ what is known

    def to_act(self):
        g = self.game
        if g.is_over():
            return None
        return [self.seats[s] for s in g.to_act()]

    def hand(self, seat):
        return report.seat_view(self.game, self.seats.index(seat))["hand"]

    def public(self):
        """report.public (face-down cards unnamed, no hand, no hidden card) and the
        settings."""
        out = report.public(self.game)
        out["players"] = self.game.players
        out["settings"] = dict(self.settings)
        return out

    def view(self, seat):
        """What the seat's table is told besides its hand: its own face-down defences,
        its options and the board's player's observation (ai.observe: the seat's hand and
        public facts, every other face-down card as -1)."""
        me = self.seats.index(seat)
        return {"options": self.options(seat),
                "defence_down": report.seat_view(self.game, me)["defence_down"],
                "obs": ai.observe(self.game, me)}

    def _claimable(self, me):
        """K11: 4 players, before the round's first card, five Soldiers in hand."""
        g = self.game
        return (g.players == 4 and g.phase == "play" and g.step == "open"
                and g.reveal < 0 and not g.card_played()
                and len(ai.soldiers(g.hands[me])) >= 5)

    def options(self, seat):
        g = self.game
        if g.is_over():
            return []
        me = self.seats.index(seat)
        out = [["claim"]] if self._claimable(me) else []
        if me not in g.to_act():
            return out
        for a in g.legal_actions():
            if a[0] in ("discard", "pick"):
                continue  # a claim is ["claim"], by the claimant (K11)
            out.append(to_wire(a))
        return out

    # ------------------------------------------------------------------ requests

    def request(self, seat, action):
        check_request(action)
        g = self.game
        if g.is_over():
            raise Refused("game-over", "the game is over")
        me = self.seats.index(seat)
        self.events = []
        if action[0] == "claim":
            if not self._claimable(me):
                raise Refused(rules.NO_CLAIM, "a claim needs 4 players, five Soldiers "
                              "and no card played this round (K11)")
            self._apply(("discard",))
            self._apply(("pick", me))
        else:
            if me not in g.to_act():
                raise Refused("out-of-turn", "it is %s's turn"
                              % " or ".join(self.seats[s] for s in g.to_act()))
            self._apply(from_wire(action))
        # K6: a face-down defence is not named
        self.events.append((seat, ["defend"] if action[0] == "defend" else list(action)))
        self._deal()  # a round ended (or a claim cancelled it, K11): the next deal
        return self.events

    def _apply(self, action):
        try:
            self.game.apply(action)
        except Rejected as e:
            # Only the requester is told: its own card's name may be in the words.
            raise Refused(e.code, e.message) from None


# ---------------------------------------------------------------------- tables

def random_request(opts, rng):
    """A random request among `opts`, weighted so that a round moves on: a card played
    more often than a pass, a claim or a take-back seldom."""
    plays = [o for o in opts if o[0] in ("defend", "attack", "counter", "show", "shown",
                                         "cancel", "keep")]
    if plays and rng.randrange(100) < 80:
        return rng.choice(plays)
    calm = [o for o in opts if o[0] not in ("back", "claim", "withdraw")]
    if calm:
        return rng.choice(calm)
    return rng.choice(opts) if opts and rng.randrange(100) < 5 else None


def summary(public):
    scores = ", ".join("%s %s" % kv for kv in sorted(public["scores"].items()))
    return "round %s, %s's %s; scores %s%s" % (
        public["round"], public["turn"], public["step"] or public["phase"], scores,
        "; winner %s" % public["winner"] if public["winner"] else "")


def board_lines(public):
    lines = []
    for seat, line in sorted(public["lines"].items()):
        def names(entries):
            return " ".join(e["card"] or "(face down)" for e in entries) or "-"
        lines.append("%s (%d in hand): defence %s; attack %s" % (
            seat, public["hand_sizes"][seat], names(line["defence"]), names(line["attack"])))
    if public.get("centre"):
        lines.append("centre: " + " ".join(c["up"] or "-" for c in public["centre"]))
    if public.get("attack"):
        lines.append("to answer: %s's %s" % (public["attack"]["seat"],
                                             public["attack"]["card"]))
    return lines


class AiSeat:
    """The board's own player (games.kami.ai) at a remote seat: it decides from the
    observation its view carries (the board's own, made by the dealer from the seat's
    hand and public facts) among the options the dealer gave; it claims (K11) as the
    board does, once per deal."""

    def __init__(self, level=None, seed=1):
        self.claimed = set()

    def choose(self, seat, public, hand, log, opts, view=None):
        if view is None or not opts:
            return opts[0] if opts else None
        obs = dict(view["obs"])
        if ["claim"] in opts:
            key = (obs["round"], tuple(obs["hand"]))
            if key not in self.claimed:
                self.claimed.add(key)
                return ["claim"]
            opts = [o for o in opts if o != ["claim"]]
            if not opts:
                return None
        acts = [from_wire(o) for o in opts]
        if obs["claim"] is not None:
            obs["claim"] = tuple(obs["claim"])
        best = ai.decide(obs, acts)
        return opts[acts.index(best)] if best in acts else opts[0]
