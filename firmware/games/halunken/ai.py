"""Halunken & Spelunken's board player: one seat's decisions from public information only.

`observe(game, seat)` copies what the seat may know (docs/halunken.md, H12, 8.3): the
figures' spaces, the piles' counts and top cards (none during the blind set-up, H5), the
crews, the port, the cards played and Black-Jack's turned ones, the auction, a revealed
round's cards, the theft or robbery awaited, and the seat's own secret choice. Never the
other seats' unrevealed choices, the cards below the tops, or Black-Jack's deck order:
the observation has no field for them (tests/games/halunken/test_halunken_ai.py swaps
them and checks the decision stays the same, on both runtimes).

`decide(obs, actions)` picks one of `actions` (the rules' legal actions for this seat, as
`seat_actions` filters them) by scoring each by its kind; a kind it does not know scores
0, so a new step of the rules (the table deal's takes) is played before it is taught.
One decision is a few hundred small sums: no search, no tables (a Pico's heap and time).

How it scores (points are the score's own: a card's worth to a crew is what it adds to
`rules.crew_score`, majority colour included, H14):
- a movement card (H6-H10): the top card where it lands, a theft there if the counts
  allow (H9) or a port card on Black-Jack (H24), less what a later mover landing on it
  would steal; weighed with the chance of a cancellation (the others' unplayed cards, H7),
  when it stays and takes its own tavern's top card (H8); a RUM keeps a little value back;
- RUM's number (H7): the same, with the revealed numbers known;
- an offer (H19-H21): Black-Jack's move is worth its robberies (over his unturned cards,
  H22, H25) and the robbery avoided (H23); the card offered costs what it takes off the
  crew; in `tactical` the win is worth a fixed sum (W's second mover, H26);
- a theft or W's robbery (H9, H11, H22): the card's worth to the thief and part of its
  worth to the victim; declining scores 0; a card given up (H23): the least costly;
- placing the captain (blind, H5) near the others to steal from, Black-Jack (H18) behind
  the others rather than behind itself.
"""

from games.halunken import deck, report
from games.halunken.moves import ROUNDS
from games.halunken.rules import BJ, crew_score

RUM_KEEP = 1.5  # a RUM played before the last round gives up its later choice
STEAL_SPITE = 0.4  # a theft is worth this part of the victim's loss too
BJ_SHARE = 0.6  # Black-Jack's robberies, seen from the auction (the captains move first)
TACTICAL_WIN = 4.0  # W's second mover in a tactical round (H26)
UNKNOWN_BONUS = 1.2  # an unseen card's worth to a crew, per point of its value


def observe(g, seat):
    """What `seat` may know now (a dict of plain values; `memo` is added by the decision,
    for the sums it makes once)."""
    pub = g.public()
    a = g.auction
    own = g.seat_view(seat)
    obs = {
        "seat": seat, "players": g.players, "mode": g.mode, "values": g.values,
        "round": pub["round"], "step": pub["step"], "pos": pub["captains"],
        "bj": pub["blackjack"], "left": pub["left"], "top": pub["top"],
        "crews": pub["crews"], "port": pub["port"], "played": pub["played"],
        "bj_cards": pub["bj_cards"], "choice": own["choice"],
        "bj_choice": own.get("bj_choice", -1),
        "auction": None if a is None else {"value": a["value"], "seat": a["seat"],
                                           "winner": a["winner"]},
        "controlled": g.bj_controlled(),
        # a revealed round (rum, steal, rob): public once the cards are turned (H7)
        "numbers": list(g.numbers), "cancelled": list(g.cancelled),
        "robs": [list(r) for r in g.robs], "rum_owner": g.rum_owner,
        "from": list(g.pending["from"]) if g.pending is not None else [],
    }
    return obs


def expected_seat(g):
    """The seat whose event the board waits for (-1: none, or anyone's `ok` to reveal)."""
    return report.expected(g)[0]


def seat_actions(g, seat):
    """The legal actions that are `seat`'s to take now (the figure the board waits for in
    the secret choice, H32), without undo; [] when it is not this seat's turn."""
    turn, fig = report.expected(g)
    if turn != seat or g.step == "reveal":
        return []
    acts = [a for a in g.legal_actions() if a[0] != "undo"]
    if g.step == "choose":
        acts = [a for a in acts if a[1] == fig]
    return acts


def decide(obs, actions):
    """The best of `actions` for the observing seat (the first of equals)."""
    best = None
    best_v = 0.0
    for a in actions:
        if a[0] == "undo":
            continue
        v = _value(obs, a)
        if best is None or v > best_v:
            best, best_v = a, v
    return best


def choose(g, seat):
    """The seat's decision now, or None (not its turn)."""
    acts = seat_actions(g, seat)
    return decide(observe(g, seat), acts) if acts else None


# ---------------------------------------------------------------------- scoring

def _value(obs, a):
    kind = a[0]
    if kind == "choose":
        if a[1] == BJ:
            return _bj_card_value(obs, a[2])
        return _card_value(obs, a[2])
    if kind == "rum":
        if obs["rum_owner"] == BJ:
            return _bj_land(obs, a[1])
        moves = _once(obs, "known", _known_moves)
        return _land(obs, obs["seat"], obs["pos"][obs["seat"]], a[1], moves)
    if kind == "offer":
        cost = _loss(obs, obs["seat"], a[1]) + 0.01 * obs["values"][a[1]]
        return _once(obs, "win", _win_value) - cost
    if kind in ("steal", "rob"):
        return _take_value(obs, kind, a[1])
    if kind == "place":
        return _place_value(obs, a[1])
    if kind == "place_bj":
        return _place_bj_value(obs, a[1])
    return 0.0  # "pass" and kinds not known here


def _gain(obs, crew, card):
    v = obs["values"]
    return crew_score(v, crew + [card]) - crew_score(v, crew)


def _loss(obs, seat, card):
    crew = obs["crews"][seat]
    v = obs["values"]
    return crew_score(v, crew) - crew_score(v, [c for c in crew if c != card])


def _unknown(obs):
    """The mean value of the crew cards nobody has seen (below the tops)."""
    seen = [False] * deck.CREW
    for crew in obs["crews"]:
        for c in crew:
            seen[c] = True
    for c in obs["port"]:
        seen[c] = True
    for c in obs["top"]:
        if c >= 0:
            seen[c] = True
    total = n = 0
    for c in range(deck.CREW):
        if not seen[c]:
            total += obs["values"][c]
            n += 1
    return total / n if n else 0.0


def _top_gain(obs, crew, space):
    if obs["left"][space] == 0:
        return 0.0  # H13
    top = obs["top"][space]
    if top >= 0:
        return _gain(obs, crew, top)
    if "unk" not in obs:
        obs["unk"] = _unknown(obs)
    return obs["unk"] * UNKNOWN_BONUS


def _occupant(obs, space, skip):
    pos = obs["pos"]
    for s in range(len(pos)):
        if s != skip and pos[s] == space:
            return s
    return BJ if skip != BJ and obs["bj"] == space else -1


def _steal_from(obs, src):
    """The best theft's worth to the observing seat from seat `src`'s crew (-1: the
    port), once per decision."""
    memo = obs.setdefault("memo", {})
    key = ("steal", src)
    if key not in memo:
        me = obs["seat"]
        cards = obs["port"] if src < 0 else obs["crews"][src]
        memo[key] = _best_steal(obs, obs["crews"][me], cards, src)
    return memo[key]


def _once(obs, key, fn):
    memo = obs.setdefault("memo", {})
    if key not in memo:
        memo[key] = fn(obs)
    return memo[key]


def _best_steal(obs, crew, victim_crew, victim):
    best = 0.0
    for c in victim_crew:
        v = _gain(obs, crew, c)
        if victim >= 0:
            v += STEAL_SPITE * _loss(obs, victim, c)
        if v > best:
            best = v
    return best


def _figures(obs):
    """The other figures that move this round with a card of their own: the other seats,
    and Black-Jack when another seat won him (H26)."""
    me = obs["seat"]
    out = [s for s in range(obs["players"]) if s != me]
    a = obs["auction"]
    if obs["controlled"] and a["winner"] != me:
        out.append(BJ)
    return out


def _left(obs, fig):
    if fig == BJ:
        return _bj_left(obs)
    played = obs["played"][fig]
    return [m for m in range(deck.MOVES) if m not in played]


def _bj_left(obs):
    used = obs["bj_cards"]
    top = 13 if obs["mode"] == "standard" else deck.MOVES
    first = 1 if obs["mode"] == "standard" else 0
    return [k for k in range(first, top) if k not in used]


def _guess_moves(obs):
    """[(figure, start, [(number, weight)])]: what the others may move, their unplayed
    cards equally likely (a RUM spread over 1..7)."""
    out = []
    for f in _figures(obs):
        cards = _left(obs, f)
        w = 1.0 / len(cards) if cards else 0.0
        dist = [0.0] * 8
        for m in cards:
            if m == deck.RUM:
                for k in range(1, 8):
                    dist[k] += w / 7
            else:
                dist[m + 1] += w
        start = obs["bj"] if f == BJ else obs["pos"][f]
        out.append((f, start, [(k, dist[k]) for k in range(1, 8) if dist[k] > 0]))
    return out


def _known_moves(obs):
    """The same once the cards are revealed: each mover's number (a stayer: none)."""
    out = []
    nums = obs["numbers"]
    for f in _figures(obs):
        start = obs["bj"] if f == BJ else obs["pos"][f]
        out.append((f, start, [] if obs["cancelled"][f] or nums[f] < 0 else [(nums[f], 1.0)]))
    return out


def _land(obs, me, start, n, moves):
    """What moving `n` from `start` is worth to seat `me` (H9, H13, H24)."""
    crews = obs["crews"]
    crew = crews[me]
    dest = (start + n) % deck.SPACES
    v = _top_gain(obs, crew, dest)
    mine = len(crew) + (1 if obs["left"][dest] else 0)
    occ = _occupant(obs, dest, me)
    if occ == BJ:
        v += _steal_from(obs, -1)
    elif occ >= 0:
        stays = 1.0
        for f, _, dist in moves:
            if f == occ:
                stays -= sum(w for k, w in dist if k < n)  # gone before I land (H10)
        if crews[occ] and mine <= len(crews[occ]):
            v += stays * _steal_from(obs, occ)
    risk = 0.0
    top_card = _once(obs, "top_card", _top_card)
    for f, s, dist in moves:
        if f == BJ:
            continue
        for k, w in dist:
            if k > n and (s + k) % deck.SPACES == dest and len(crews[f]) + 1 <= mine:
                risk += w * top_card
    return v - risk


def _top_card(obs):
    return max([obs["values"][c] for c in obs["crews"][obs["seat"]]] + [0])


def _cancel_chance(obs, m, extra=-1):
    """The chance another figure reveals movement card `m` too (H7)."""
    if extra == m:
        return 1.0
    keep = 1.0
    for f in _figures(obs):
        cards = _left(obs, f)
        if cards and m in cards:
            keep *= 1.0 - 1.0 / len(cards)
    return 1.0 - keep


def _card_value(obs, m):
    me = obs["seat"]
    start = obs["pos"][me]
    moves = _once(obs, "moves", _guess_moves)
    stay = _top_gain(obs, obs["crews"][me], start)  # H8
    if m == deck.RUM:
        go = max(_land(obs, me, start, k, moves) for k in range(1, 8)) * 0.9
        keep = RUM_KEEP if obs["round"] < ROUNDS else 0.0
    else:
        go = _land(obs, me, start, m + 1, moves)
        keep = 0.0
    p = _cancel_chance(obs, m)
    return p * stay + (1.0 - p) * go - keep


def _bj_card_value(obs, m):
    """W's card for Black-Jack (H26): he takes the top card into the port, and on the
    opponent W may steal from it (counts as H9)."""
    p = _cancel_chance(obs, m, obs["choice"])
    if p >= 1.0:
        return -1.0
    best = 0.0
    for k in (range(1, 8) if m == deck.RUM else (m + 1,)):
        v = _bj_land(obs, k)
        if v > best:
            best = v
    return (1.0 - p) * best


def _bj_land(obs, k):
    """W's Black-Jack moving `k` (H26)."""
    me = obs["seat"]
    dest = (obs["bj"] + k) % deck.SPACES
    occ = _occupant(obs, dest, BJ)
    v = 0.3 * _top_gain(obs, [], dest)  # denied to the others
    crews = obs["crews"]
    if 0 <= occ != me and crews[occ] and len(crews[me]) <= len(crews[occ]):
        v += _steal_from(obs, occ)
    return v


def _win_value(obs):
    """What winning the auction is worth to the seat (H19-H23, H26)."""
    if obs["mode"] == "tactical":
        return TACTICAL_WIN
    me = obs["seat"]
    crews = obs["crews"]
    ks = _bj_left(obs)
    if not ks:
        return 0.0
    total = 0.0
    cheapest = min([_loss(obs, me, c) for c in crews[me]] + [99])
    for k in ks:
        for s in _passed(obs, k):
            if s == me:
                total += cheapest if cheapest < 99 else 0.0  # the robbery avoided (H23)
            elif crews[s] and len(crews[s]) >= len(crews[me]):
                total += _steal_from(obs, s)  # H22
    return BJ_SHARE * total / len(ks)


def _passed(obs, k):
    """The captains Black-Jack would pass moving `k` from where he stands (H22)."""
    t = obs["bj"]
    spaces = []
    for _ in range(k):
        t = (t + 1) % deck.SPACES
        spaces.append(t)
    while _occupant(obs, t, BJ) >= 0:
        t = (t + 1) % deck.SPACES
        spaces.append(t)
    out = []
    for space in spaces[:-1]:
        s = _occupant(obs, space, BJ)
        if s >= 0 and s not in out:
            out.append(s)
    return out


def _take_value(obs, kind, card):
    if card < 0:
        return 0.0  # H11: declining
    me = obs["seat"]
    if kind == "rob" and obs["robs"] and obs["robs"][0][0] == me:
        return -_loss(obs, me, card)  # H23: the card given up
    victim = -1
    if kind == "rob":
        victim = obs["robs"][0][0]
    else:
        for src in obs["from"]:
            if src >= 0 and card in obs["crews"][src]:
                victim = src
    v = _gain(obs, obs["crews"][me], card)
    if victim >= 0:
        v += STEAL_SPITE * _loss(obs, victim, card)
    return v


def _place_value(obs, t):
    """Blind set-up (H5): near the captains ahead (to land on), away from those behind."""
    v = -0.001 * t
    for s in range(obs["players"]):
        p = obs["pos"][s]
        if p < 0 or s == obs["seat"]:
            continue
        if 1 <= (p - t) % deck.SPACES <= 7:
            v += 1.0
        if 1 <= (t - p) % deck.SPACES <= 7:
            v -= 0.5
    return v


def _place_bj_value(obs, t):
    """Black-Jack robs the captains he passes (H22, H23): behind the others, not us."""
    v = -0.001 * t
    for s in range(obs["players"]):
        if 1 <= (obs["pos"][s] - t) % deck.SPACES <= 7:
            v += -2.0 if s == obs["seat"] else 1.0
    return v
