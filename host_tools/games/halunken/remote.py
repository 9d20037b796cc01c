"""Halunken & Spelunken's side of remote play (host_tools/remote/, docs/remote.md): the
dealer's whole game with its dealt deck, a seat's private view and options, and the
board's player at a remote seat.

`Dealt` is the game as the dealer holds it: the firmware's rules (games.halunken.rules)
with a given deal (shuffled from the game's 128-bit secret, host_tools.remote.shuffle: the
piles below their top cards and Black-Jack's deck are known to the dealer alone, H5, H12,
H25). Crews, the port, the captains, the auction and the played movement cards are public
(H12); the one secret a seat makes is its movement card (H7, H32), chosen by every seat at
once with commit and reveal (host_tools/remote/commit.py): the dealer never holds a card
before every figure's commitment is in, and publishes the cards only once every reveal is
in.

Public actions (events), as lists:

    ["place", SPACE], ["place_bj", SPACE]    set-up (H4, H5, H18): T1..T14
    ["offer", CREW], ["pass"]                the auction's word (H19-H21, H26)
    ["commit", FIGURE, DIGEST]               a figure's movement card committed (p1..p4,
                                             blackjack: W's second mover, H26)
    ["reveal", CONTEXT]                      the dealer: every commitment is in, reveal
    ["revealed", FIGURE]                     a reveal checked and held back (no card)
    ["open", FIGURE, CARD, NONCE]            every reveal is in: the cards (1..7, RUM),
                                             each with its nonce (any table can check it)
    ["rum", N]                               the RUM's number (H7, H27)
    ["steal", CREW|"none"], ["rob", CREW|"none"]   a theft, a robbery (H9-H11, H22-H24)

A seat's requests are the same, with ["reveal", FIGURE, CARD, NONCE] (its move topic is
read by the dealer alone). There is no undo in remote play.
"""

from core.outcome import Rejected
from games.halunken import ai, deck, report, rules
from games.halunken import settings as hsettings
from host_tools.remote import commit
from host_tools.remote import protocol as p

SEATS = ("p1", "p2", "p3", "p4")
COMMITS = True  # secret simultaneous choices: commit and reveal (host_tools/remote/commit.py)
Refused = p.Bad
REQUESTS = {"place": (1,), "place_bj": (1,), "offer": (1,), "pass": (0,), "commit": (2,),
            "reveal": (3,), "rum": (1,), "steal": (1,), "rob": (1,)}
SETTINGS = ("players", "mode", "first")
BJ_NAME = "blackjack"


def seats_of(settings):
    return SEATS[:settings["players"]]


def check_settings(obj):
    """players (2-4, default 2), mode and first; the deal is the dealer's (ValueError names
    the fault)."""
    obj = dict(obj if obj is not None else {})
    for key in obj:
        if key not in SETTINGS:
            raise ValueError("a remote game of Halunken takes players, mode and first, "
                             "not %r" % (key,))
    obj.setdefault("players", 2)
    checked = hsettings.check_settings(dict(obj, seed=0))
    return {k: checked[k] for k in SETTINGS}


def check_request(action):
    p.check_action(action, REQUESTS, Refused)


# ---------------------------------------------------------------------- names

def fig_name(f):
    return BJ_NAME if f == rules.BJ else "p%d" % (f + 1)


def fig_index(name, players):
    if name == BJ_NAME:
        return rules.BJ
    if name in SEATS[:players]:
        return SEATS.index(name)
    return -1


def _space(name):
    if isinstance(name, str) and name[:1] == "T" and name[1:].isdigit():
        t = int(name[1:]) - 1
        if 0 <= t < deck.SPACES:
            return t
    raise Refused("malformed", "%r is not a space T1..T14" % (name[:12],))


def _crew(name, none_ok=False):
    if none_ok and name == "none":
        return -1
    card = deck.crew_card(name)
    if card < 0:
        raise Refused("malformed", "%r is not a crew card" % (name[:20],))
    return card


def to_wire(action):
    """A rules action (tuple of indices) as its public list of names."""
    name = action[0]
    if name in ("place", "place_bj"):
        return [name, deck.space_name(action[1])]
    if name == "offer":
        return [name, deck.crew_name(action[1])]
    if name in ("steal", "rob"):
        return [name, "none" if action[1] < 0 else deck.crew_name(action[1])]
    if name == "rum":
        return [name, str(action[1])]
    if name == "choose":
        return ["commit", fig_name(action[1]), deck.MOVE_WORDS[action[2]]]
    return [name]


def from_wire(action, players):
    """A request's list of names as the rules' action (Refused("malformed") otherwise)."""
    name = action[0]
    if name in ("place", "place_bj"):
        return (name, _space(action[1]))
    if name == "offer":
        return (name, _crew(action[1]))
    if name in ("steal", "rob"):
        return (name, _crew(action[1], True))
    if name == "rum":
        if not action[1].isdigit() or len(action[1]) > 2:
            raise Refused("malformed", "rum takes a number")
        return (name, int(action[1]))
    if name == "commit" and len(action) == 3:  # an option: the card to commit to
        f = fig_index(action[1], players)
        m = deck.move_card(action[2]) if action[2] in deck.MOVE_WORDS else -1
        if f == -1 or m < 0:
            raise Refused("malformed", "not a figure's movement card")
        return ("choose", f, m)
    return (name,)


def given_deal(settings, rng):
    """The rules' settings with a deal shuffled by `rng` (the dealer's Shuffle): the 14
    taverns' piles of 3 crew cards (top first) and Black-Jack's deck (H5, H25), as the
    firmware's seeded deal lays them out (deck.seeded_deal)."""
    full = hsettings.check_settings(dict(settings, seed=0))
    crew = list(range(deck.CREW))
    rng.shuffle(crew)
    mode = full["mode"]
    bj = list(range(12 if mode == "standard" else deck.MOVES))
    rng.shuffle(bj)
    del full["seed"]
    full["deal"] = "given"
    full["piles"] = [crew[3 * t:3 * t + 3] for t in range(deck.SPACES)]
    full["bj"] = None if mode == "beginner" else (
        [c + 1 for c in bj] if mode == "standard" else bj)
    return full


class Dealt:
    """One game as the dealer holds it. `Dealt(settings, rng, code)` deals at once (`rng`: the
    dealer's host_tools.remote.shuffle.Shuffle); `request(seat, action)` applies one
    request and returns its public events [(actor, action)], or raises Refused and changes
    nothing."""

    def __init__(self, settings, rng, code=""):
        self.settings = check_settings(settings)
        self.code = code
        self.game = rules.Game(given_deal(self.settings, rng))
        self.seats = seats_of(self.settings)
        self.pending = None
        self.events = []
        self._secret_round()

    # ------------------------------------------------------------------ what is known

    def to_act(self):
        """The seats to act (a list), or None once the game is over."""
        g = self.game
        if g.is_over():
            return None
        if self.pending is not None:
            done = self.pending.opened if self.pending.announced() else self.pending.commits
            return sorted({s for f, s in self.pending.figures.items() if f not in done})
        return [self.seats[s] for s in g.to_act()]

    def hand(self, seat):
        """The seat's movement cards still to play (public too, H6: the played ones are)."""
        return [deck.MOVE_WORDS[m] for m in self.game.left_moves(self.seats.index(seat))]

    def public(self):
        """The simulator's report (docs/halunken.md) without `hidden`: no pile below its
        top, no Black-Jack card unturned, no secret choice; and the commitments."""
        out = report.game(self.game)
        del out["hidden"]
        pend = self.pending
        out["secret"] = None if pend is None else {
            "context": pend.context, "figures": dict(pend.figures),
            "committed": sorted(pend.commits), "revealed": sorted(pend.opened),
            "reveal": pend.announced()}
        out["settings"] = dict(self.settings)
        return out

    def view(self, seat):
        """What the seat's table is told besides the public state: its options (the
        requests the rules allow it now, a secret choice's as ["commit", FIGURE, CARD]
        for its table to commit to, and ["reveal", FIGURE] once the reveal is announced),
        the context of the commitments, and the board's player's observation (ai.observe:
        public facts and the seat's own; no secret choice before the reveal, the dealer
        holds none)."""
        me = self.seats.index(seat)
        return {"options": self.options(seat),
                "context": self.pending.context if self.pending else None,
                "obs": ai.observe(self.game, me)}

    def options(self, seat):
        g = self.game
        if g.is_over():
            return []
        pend = self.pending
        me = self.seats.index(seat)
        if pend is not None:
            out = []
            for f in sorted(pend.figures, key=lambda n: fig_index(n, g.players)):
                if pend.figures[f] != seat:
                    continue
                if not pend.announced() and f not in pend.commits:
                    fi = fig_index(f, g.players)
                    out += [["commit", f, deck.MOVE_WORDS[m]] for m in g.left_moves(fi)]
                elif pend.announced() and f not in pend.opened:
                    out.append(["reveal", f])
            return out
        if me not in g.to_act():
            return []
        return [to_wire(a) for a in g.legal_actions() if a[0] != "undo"]

    # ------------------------------------------------------------------ requests

    def _secret_round(self):
        """A round's secret choice begins (step choose): the figures that choose, and who
        chooses for each (W for Black-Jack in a won tactical round, H26)."""
        g = self.game
        if g.step != "choose" or self.pending is not None:
            return
        figures = {fig_name(s): self.seats[s] for s in range(g.players)}
        if g.bj_controlled():
            figures[BJ_NAME] = self.seats[g.winner_seat()]
        self.pending = commit.Pending("%s/%d" % (self.code, g.round), figures, Refused)

    def request(self, seat, action):
        check_request(action)
        g = self.game
        if g.is_over():
            raise Refused("game-over", "the game is over")
        self.events = []
        name = action[0]
        if name in ("commit", "reveal"):
            if self.pending is None:
                raise Refused("out-of-turn", "no secret choice now")
            self._secret(seat, action)
            return self.events
        if self.pending is not None:
            raise Refused("out-of-turn", "every seat chooses its movement card first")
        if self.seats.index(seat) not in g.to_act():
            raise Refused("out-of-turn", "it is %s's turn"
                          % " or ".join(self.seats[s] for s in g.to_act()))
        act = from_wire(action, g.players)
        try:
            g.apply(act)
        except Rejected as e:
            raise Refused(e.code, e.message) from None
        self.events.append((seat, to_wire(act)))
        self._secret_round()
        return self.events

    def _legal(self, figure, card):
        m = deck.move_card(card) if card in deck.MOVE_WORDS else -1
        if m < 0:
            raise Refused("malformed", "%r is not a movement card" % (card[:8],))
        if m not in self.game.left_moves(fig_index(figure, self.game.players)):
            raise Refused(rules.PLAYED, "that card was played in an earlier round (H6)")

    def _secret(self, seat, action):
        pend = self.pending
        if action[0] == "commit":
            pend.commit(seat, action[1], action[2])
            self.events.append((seat, list(action)))
            if pend.announced():
                self.events.append((None, ["reveal", pend.context]))
            return
        pend.reveal(seat, action[1], action[2], action[3], self._legal)
        self.events.append((seat, ["revealed", action[1]]))
        if not pend.done():
            return
        g = self.game
        order = sorted(pend.figures, key=lambda n: fig_index(n, g.players))
        for f in order:
            card, nonce = pend.opened[f]
            g.apply(("choose", fig_index(f, g.players), deck.move_card(card)))
            self.events.append((pend.figures[f], ["open", f, card, nonce]))
        self.pending = None
        g.apply(("reveal",))
        self._secret_round()


# ---------------------------------------------------------------------- tables

def random_request(opts, rng):
    """A random request among `opts`; `rng` is a random.Random."""
    return rng.choice(opts) if opts else None


def summary(public):
    scores = ", ".join("%s %s" % kv for kv in sorted(public["scores"].items()))
    return "round %s, step %s, %s to act; scores %s%s" % (
        public["round"], public["step"],
        "every seat (a secret choice)" if public.get("secret") else public["turn"], scores,
        "; winner %s" % " ".join(public["winner"]) if public["winner"] else "")


def board_lines(public):
    lines = []
    for seat, space in sorted(public["captains"].items()):
        lines.append("%s: captain on %s; crew %s; played %s" % (
            seat, space or "-", " ".join(public["crews"][seat]) or "none",
            " ".join(public["played"][seat]) or "none"))
    lines.append("Black-Jack on %s; port %s" % (public["blackjack"] or "-",
                                                " ".join(public["port"]) or "empty"))
    lines.append("tops: " + " ".join("%s:%s" % (t, v["top"] or "?")
                                     for t, v in public["taverns"].items() if v["left"]))
    return lines


class AiSeat:
    """The board's own player (games.halunken.ai) at a remote seat: it decides from the
    observation its view carries (the board's own, made by the dealer from what the seat
    may know) among the options the dealer gave."""

    def __init__(self, level=None, seed=1):
        self.seed = seed

    def choose(self, seat, public, hand, log, opts, view=None):
        if view is None or not opts:
            return opts[0] if opts else None
        players = public["players"]
        if opts[0][0] == "commit":  # one figure at a time: the seat's own first (H32)
            opts = [o for o in opts if o[1] == opts[0][1]]
        acts = [from_wire(o, players) for o in opts]
        obs = dict(view["obs"])
        own = (view.get("committed") or {}).get(seat)
        if own in deck.MOVE_WORDS:  # its own card, committed: the dealer cannot know it
            obs["choice"] = deck.move_card(own)
        best = ai.decide(obs, acts)
        return opts[acts.index(best)] if best in acts else opts[0]
