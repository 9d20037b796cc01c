"""Kami's board player: one seat's decisions from public information and its own hand.

`observe(g, seat)` copies what the seat may know (docs/kami.md "The board's players", 8.3):
the lines with every other seat's face-down defence as -1 (K6), the seat's own face-down
defences, the hand sizes, the face-up centre cards (K13), the attack, who passed, the
scores, the claim's shown Soldiers (K11) and the seat's own hand. Never another hand, a
face-down card of another seat, the 3-player set-aside cards or the hidden centre cards:
the observation has no field for them (tests/games/kami/test_kami_ai.py swaps them and
checks the decision stays the same, on both runtimes). K12 would let the second and third
players of a 3-player round look at one set-aside card; this player does not use it.

`decide(obs, actions)` picks one of `actions` (the rules' legal actions for the seat) by
a value per action; no search, no tables: a decision is a few hundred small sums.

How it values (the unit is "an attack nobody counters"):
- an attack: the chance that no opponent holds a counter (the kind's unseen copies, plus
  the unseen Empresses for a kind other than Soldier or Spear, K1, K4), spread over the
  cards the opponents hold among all the cards the seat has not seen; plus what the hand
  left keeps: its best finishing card (K7: the last card scores), its Empresses, fewer
  cards (a centre card, K13, sheds none); a bonus for pairs kept for the master stroke
  lost games against the baselines (docs/kami.md), so K8 counts only when it ends the
  round;
- the last hand card as the attack (K7) ends the round: always taken, doubled if it can be
  (K8: a face-down defence of the same kind laid this turn);
- a defence (K6): the best attack that follows it, with the hand it leaves;
- a counter (K1, K2, K4): the best attack that follows it (K3), against passing (K15),
  which is worth the hand as it is; an opponent close to his last card makes passing
  costly, a partner's attack makes it cheap (4 players: the partner keeps the lead);
- the 5-Soldier claim (K11): a seat with five Soldiers or more claims before the round's
  first card (`claimant`, once per deal); the partner cancels the round when its own hand
  is weak.
"""

from games.kami import deck

# Values in thousandths, whole numbers: a MicroPython float is a heap object, a small
# int is not (a decision makes a few thousand sums and should leave little garbage).
SAFE = 4500  # an attack nobody can counter
FINISH = 450  # per point of the best card kept for the end (K7)
PER_CARD = 500  # each card still to shed
EMPRESS_KEEP = 600  # an Empress kept: a counter for most attacks (K4)
EMPRESS_COUNTER = 500  # an Empress spent on a counter (K4)
PASS_BASE = 900  # passing keeps the hand but not the lead (K15)
PARTNER_LEAD = 4000  # 4 players: the partner attacked, let it keep the lead
WIN = 100000  # the round ends with our card (K7)
OTHER = -10000  # an action this player does not take (discard: `claimant`, K11)
WEAK_HAND = 14  # K11: the partner cancels below this many points in its own hand

COPIES = tuple(k[1] for k in deck.KINDS)
PTS = tuple(k[2] for k in deck.KINDS)


def observe(g, seat):
    """What `seat` may know now: a dict of plain values (card indices, -1 for a face-down
    card of another seat)."""
    lines = []
    for s in range(g.players):
        d = []
        for e in g.lines[s][0]:
            d.append(e[0] if e[1] or s == seat else -1)
        lines.append((d, [e[0] for e in g.lines[s][1]]))
    p = g.placed
    claim = None
    if g.claim is not None:
        claim = (g.claim[0], g.claim[1], list(g.claim[2]))  # shown to all (K11)
    return {
        "seat": seat, "players": g.players, "phase": g.phase, "step": g.step,
        "first": g.first, "turn": g.turn, "round": g.round,
        "hand": list(g.hands[seat]) if g.hands is not None else None,
        "sizes": list(g.sizes), "lines": lines,
        "up": list(g.up) if g.up is not None else None,
        "attack": list(g.attack) if g.attack is not None else None,
        "passed": list(g.passed), "scores": list(g.scores), "target": g.target,
        "unlocked": g.empress_unlocked(), "played": g.card_played(), "claim": claim,
        # this turn's defence, when the seat laid it face down (K8; a centre card too, K13)
        "down": p[0] if p is not None and not p[1] and g.turn == seat else -1,
    }


def acting_seat(g):
    """The seat the rules wait for now (-1: none)."""
    t = g.to_act()
    return t[0] if t else -1


def seat_actions(g, seat):
    """The rules' legal actions when `seat` is to act, without `back` (the board does not
    take its own plays back); [] when it is not this seat's turn."""
    if acting_seat(g) != seat:
        return []
    return [a for a in g.legal_actions() if a[0] != "back"]


def choose(g, seat):
    """The seat's decision now, or None (not its turn)."""
    acts = seat_actions(g, seat)
    return decide(observe(g, seat), acts) if acts else None


# ---------------------------------------------------------------------- what is unseen

def _partner(obs, s):
    return obs["players"] == 4 and s == (obs["seat"] + 2) % 4


def unseen(obs):
    """Per kind, the copies the seat has not seen (in other hands, face down elsewhere,
    set aside, under a centre card); and the number of such cards."""
    left = list(COPIES)
    for c in obs["hand"]:
        left[deck.KIND[c]] -= 1
    for d, a in obs["lines"]:
        for c in d:
            if c >= 0:
                left[deck.KIND[c]] -= 1
        for c in a:
            left[deck.KIND[c]] -= 1
    if obs["up"] is not None:
        for c in obs["up"]:
            if c >= 0:
                left[deck.KIND[c]] -= 1
    return left, sum(left)


def _opponent_cards(obs):
    n = 0
    for s in range(obs["players"]):
        if s != obs["seat"] and not _partner(obs, s):
            n += obs["sizes"][s]
    return n


def safe_values(obs):
    """Per kind, SAFE times the chance that no opponent holds a counter to an attack of
    that kind (its unseen copies, and the unseen Empresses for a kind other than Soldier
    or Spear, K1, K4, each in an opponent's hand with the chance of the opponents' cards
    among all the cards the seat has not seen); an Empress attack is never countered."""
    left, total = unseen(obs)
    miss = total - min(_opponent_cards(obs), total)  # cards not in an opponent's hand
    out = []
    for kind in range(len(COPIES)):
        u = left[kind]
        if kind == deck.IMPERATRICE:
            u = 0  # section 4
        elif kind != deck.SOLDAT and kind != deck.LANCE:
            u += left[deck.IMPERATRICE]  # K4
        v = SAFE
        for _ in range(u):  # whole numbers: the same on every runtime (no float)
            v = v * miss // total
        out.append(v)
    return out


# ---------------------------------------------------------------------- values

_COUNT = [0] * len(COPIES)  # _keep's counts (one decision at a time)


def _keep(hand, out1, out2):
    """What `hand` still holds for the end of the round without cards `out1` and `out2`
    (-1: none). No list is made."""
    count = _COUNT
    for k in range(len(count)):
        count[k] = 0
    n = 0
    for c in hand:
        if c != out1 and c != out2:
            count[deck.KIND[c]] += 1
            n += 1
    if not n:
        return 0
    best = 0
    for k in range(len(count)):
        if count[k] and PTS[k] > best:
            best = PTS[k]
    return FINISH * best - PER_CARD * n + EMPRESS_KEEP * count[deck.IMPERATRICE]


def _attack_value(obs, card, spent, defence):
    """An attack with `card` (from the hand or the centre) after `spent` (this turn's
    defence or counter from the hand, or -1); `defence`: the card laid face down this
    turn, or -1 (a counter is face up: no master stroke, K8)."""
    hand = obs["hand"]
    mine = card in hand
    n = len(hand) - (1 if mine else 0) - (1 if spent >= 0 else 0)
    if mine and n == 0:
        pts = PTS[deck.KIND[card]]
        if defence >= 0 and deck.KIND[defence] == deck.KIND[card]:
            pts *= 2  # K8
        return WIN + pts
    return obs["safe"][deck.KIND[card]] + _keep(hand, spent, card if mine else -1)


def _best_attack(obs, spent, defence):
    """The best attack from the hand (without `spent`) and the face-up centre cards
    (without `spent` either) after a defence or counter; K4's lock as the rules apply it
    (the last card, or unlocked)."""
    best = None
    hand = obs["hand"]
    own = spent if spent in hand else -1
    n = len(hand) - (1 if own >= 0 else 0)
    for i in range(2):
        cards = hand if i == 0 else (obs["up"] or ())
        for c in cards:
            if c < 0 or c == spent:
                continue
            if (deck.KIND[c] == deck.IMPERATRICE and not obs["unlocked"]
                    and (n > 1 or i == 1)):
                continue
            v = _attack_value(obs, c, own, defence)
            if best is None or v > best:
                best = v
    if best is None:  # K22: an Empress anyway
        return _keep(hand, spent, -1) - SAFE
    return best


def _value(obs, a):
    kind = a[0]
    hand = obs["hand"]
    if kind == "attack":
        d = obs["down"]
        return _attack_value(obs, a[1], d if d in hand else -1, d)
    if kind in ("defend", "counter"):
        c = a[1]
        # a centre card (K13): the hand is kept whole, the card beneath is unknown
        v = _best_attack(obs, c, c if kind == "defend" else -1)
        if kind == "counter" and deck.KIND[c] == deck.IMPERATRICE:
            v -= EMPRESS_COUNTER
        return v
    if kind == "pass":
        return _pass_value(obs)
    return OTHER


def _pass_value(obs):
    v = PASS_BASE + _keep(obs["hand"], -1, -1)
    att = obs["attack"]
    if att is None:
        return v
    s = att[0]
    if _partner(obs, s):
        return v + PARTNER_LEAD
    if obs["sizes"][s] <= 2:
        v -= SAFE * (3 - obs["sizes"][s])  # close to his last card (K7)
    return v


def decide(obs, actions):
    """The best of `actions` for the observing seat (the first of equals)."""
    if obs["phase"] == "claim":
        return _claim_action(obs, actions)
    obs["safe"] = safe_values(obs)
    best = None
    best_v = 0
    for a in actions:
        if a[0] == "back" or a[0] == "discard":
            continue
        v = _value(obs, a)
        if best is None or v > best_v:
            best, best_v = a, v
    return best


# ---------------------------------------------------------------------- K11

def soldiers(hand):
    return [c for c in hand if deck.KIND[c] == deck.SOLDAT]


def claim_key(g, seat):
    """One claim per deal and seat (K11: after the partner plays on, the seat plays)."""
    return (g.round, seat, tuple(g.hands[seat]))


def claimant(g, seats, claimed):
    """K11: the first of `seats` (clockwise from the first player) that claims now: four
    players, a known deal, no card played yet, five Soldiers or more in its hand, and no
    claim of it in `claimed` (claim_key) for this deal; else -1."""
    if (g.players != 4 or g.hands is None or g.phase != "play" or g.step != "open"
            or g.card_played()):
        return -1
    for i in range(4):
        s = (g.first + i) % 4
        if s in seats and len(soldiers(g.hands[s])) >= 5 and claim_key(g, s) not in claimed:
            return s
    return -1


def hand_points(hand):
    return sum(PTS[deck.KIND[c]] for c in hand)


def _claim_action(obs, actions):
    seat, step, shown = obs["claim"]
    if step == "seat":
        pick = ("pick", obs["seat"])  # the board opened the claim for this seat
        return pick if pick in actions and len(soldiers(obs["hand"])) >= 5 else ("withdraw",)
    if step == "cards":
        for a in actions:
            if a[0] == "show" and a[1] not in shown and len(shown) < 5:
                return a
        return ("shown",) if ("shown",) in actions else ("withdraw",)
    # the answer: the claimant's hand is weak (its Soldiers); ours decides (K11)
    return ("cancel",) if hand_points(obs["hand"]) < WEAK_HAND else ("keep",)
