"""Halunken & Spelunken's round after the secret choice: the reveal, the takes, the moves,
the thefts and Black-Jack's move (docs/halunken.md, H7-H13, H22-H29). Functions of the
rules' state object `g` (rules.Game, whose fields they read and write): its half of the
round that runs by itself.

The round advances by itself until an action is needed, and stops there: a take at a
table (step `take`: the tap tells which card it was, H33), a theft (`steal`), Black-Jack's
robbery (`rob`), his turned card at a table (`bj-card`), a RUM's number (`rum`). With a
dealt deck (seeded or given) the board makes every take and turns Black-Jack's cards
itself, so only the choices stop it.
"""

from games.halunken import deck

BJ = 4  # Black-Jack as a figure
PORT = -1  # a theft's source: the port
ROUNDS = 8
UNSEEN = -1  # a card of a pile at a table: face down, known by its count only (H33)

# What a take is part of (`taking[2]`), which says what follows it.
SETUP = 0  # a captain's set-up card (H5)
STAY = 1  # a cancelled captain's take (H8)
LAND = 2  # a mover's take on landing, before its theft (H9; Black-Jack's for W, H26)


# ------------------------------------------------------------ the reveal

def figures(g):
    return list(range(g.players)) + ([BJ] if g.bj_controlled() else [])


def shown_numbers(g):
    """The numbers the revealed cards show, cancelled ones included (H7)."""
    return [g.cards[f] + 1 for f in figures(g) if g.cards[f] != deck.RUM]


def reveal(g):
    figs = figures(g)
    for f in figs:
        g.cards[f] = g.choices[f]
        if f == BJ:
            g.bj_deck.remove(g.choices[f])
            g.bj_cards.append(g.choices[f])
        else:
            g.played[f].append(g.choices[f])
    g.choices = [-1] * 5
    for f in figs:  # H7: equal cards (RUM with RUM too) cancel
        g.cancelled[f] = [g.cards[x] for x in figs].count(g.cards[f]) > 1
        if not g.cancelled[f] and g.cards[f] != deck.RUM:
            g.numbers[f] = g.cards[f] + 1
    if g.mode == "tactical" and not g.bj_controlled():
        if g.deal == "table":
            g.step = "bj-card"  # H27: the turned P3 card is tapped now, before rum
            return
        turn_tactical(g, g.bj_deck[0])
    after_reveal(g)


def turn_tactical(g, c):
    """H27: Black-Jack's turned card in tactical without a bid orders and cancels
    nothing; a RUM counts as the lowest number neither player's card shows."""
    g.bj_deck.remove(c)
    g.bj_cards.append(c)
    g.cards[BJ] = c
    shown = shown_numbers(g)
    g.numbers[BJ] = c + 1 if c != deck.RUM else min(
        n for n in range(1, 8) if n not in shown)


def after_reveal(g):
    for f in figures(g):
        if g.cards[f] == deck.RUM and not g.cancelled[f]:
            g.rum_owner = f
            shown = shown_numbers(g)
            g.options = [n for n in range(1, 8) if n not in shown]  # H7
            g.step = "rum"
            return
    start_moves(g)


def bj_card(g, c):
    """The turned Black-Jack card tapped at a table (H33)."""
    if g.mode == "tactical":
        turn_tactical(g, c)
        return after_reveal(g)
    turn_standard(g, c)
    g.bj_stage = 1
    bj_go(g)
    return run(g)


# ------------------------------------------------------------ the moves

def start_moves(g):
    g.options = []
    # H8: stayers take first, in seat order; a cancelled Black-Jack takes nothing
    g.stayers = [f for f in range(g.players) if g.cancelled[f]]
    movers = [f for f in figures(g) if not g.cancelled[f]]
    g.queue = sorted(movers, key=lambda f: g.numbers[f])  # H10: lowest first
    run(g)


def take(g, fig, space, kind):
    """`fig` takes the top card of `space` (Black-Jack into the port): at once with a
    dealt deck, else the step `take` waits for its tap (True: waiting). H13: an empty
    tavern gives nothing."""
    if not g.piles[space]:
        return False
    if g.deal == "table":
        g.taking = [fig, space, kind]
        return True
    took(g, fig, space, g.piles[space][0])  # H5: the next card is face up at once
    return False


def took(g, fig, space, card):
    g.piles[space].pop(0)
    (g.port if fig == BJ else g.crews[fig]).append(card)


def take_tapped(g, card):
    """The card tapped as taken at a table (H33), then what follows the take."""
    fig, space, kind = g.taking
    g.taking = None
    took(g, fig, space, card)
    if kind == SETUP:
        return g.placed_card(fig, card)
    if kind == LAND:
        landed(g, fig, space)
    return run(g)


def displace(g, fig, space):
    """`fig` goes to the first vacant space clockwise after `space`, taking nothing (H9)."""
    t = space
    while True:
        t = (t + 1) % deck.SPACES
        if g.occupant(t, fig) < 0:
            break
    if fig == BJ:
        g.bj = t
    else:
        g.pos[fig] = t


def run(g):
    """Advance the round until an action is needed or the round ends."""
    while (g.pending is None and not g.robs and g.taking is None
           and g.bj_stage != 2):
        if g.stayers:
            f = g.stayers.pop(0)
            take(g, f, g.pos[f], STAY)
        elif g.queue:
            land(g, g.queue.pop(0))
        elif g.bj_stage == 0 and g.mode != "beginner" and not g.bj_controlled():
            bj_move(g)
        else:
            return end_round(g)
    if g.taking is not None:
        g.step = "take"
    elif g.pending is not None:
        g.step = "steal"
    elif g.robs:
        g.step = "rob"
    else:
        g.step = "bj-card"
    return None


def land(g, fig):
    dest = (g.where(fig) + g.numbers[fig]) % deck.SPACES
    if fig == BJ:  # H26: W's second mover
        g.bj = dest
        if g.occupant(dest, BJ) == g.winner_seat():
            return displace(g, BJ, dest)  # on W's captain: goes on, takes nothing
    else:
        g.pos[fig] = dest
    if take(g, fig, dest, LAND):  # H9: the take comes first (H24: BJ's to the port)
        return None
    return landed(g, fig, dest)


def landed(g, fig, dest):
    """After the landing's take: the theft the rules allow, or the displacement."""
    occ = g.occupant(dest, fig)
    if occ < 0:
        return None
    w = g.winner_seat()
    if fig == BJ:  # H26: W robs the opponent Black-Jack landed on, if W holds no more
        if g.crews[occ] and len(g.crews[w]) <= len(g.crews[occ]):
            g.pending = {"thief": w, "mover": BJ, "from": [occ], "after": BJ,
                            "space": dest}
            return None
        return displace(g, BJ, dest)
    if occ == BJ:  # H24 (and H26 for the opponent of W)
        src = [PORT] if g.port else []  # H28: an empty source is no source
        if g.bj_controlled() and fig != w and g.crews[w]:
            src.append(w)
    else:
        ok = len(g.crews[fig]) <= len(g.crews[occ]) and g.crews[occ]
        src = [occ] if ok else []
    if src:
        g.pending = {"thief": fig, "mover": fig, "from": src, "after": occ,
                        "space": dest}
        return None
    return displace(g, occ, dest)


def steal(g, card):
    p = g.pending
    if card >= 0:
        for src in p["from"]:
            cards = g.source_cards(src)
            if card in cards:
                cards.remove(card)
        g.crews[p["thief"]].append(card)
    g.pending = None
    displace(g, p["after"], p["space"])  # H9: displaced either way (BJ moves on)
    run(g)


# ------------------------------------------------------------ Black-Jack's move

def bj_move(g):
    """Black-Jack's end move (H22, H23, H25; H27 in tactical without a bid)."""
    g.bj_stage = 1
    if g.mode == "standard":
        if g.deal == "table":
            g.bj_stage = 2  # step bj-card: his turned card is tapped (H33)
            return
        turn_standard(g, g.bj_deck[0])
    bj_go(g)


def turn_standard(g, c):
    g.bj_deck.remove(c)  # H25: turned in order, never reshuffled
    g.bj_cards.append(c)
    g.cards[BJ] = c
    g.numbers[BJ] = c


def bj_go(g):
    start = g.bj
    t = start
    passed = []
    for _ in range(g.numbers[BJ]):
        t = (t + 1) % deck.SPACES
        passed.append(t)
    while g.occupant(t, BJ) >= 0:  # H22: on to the next space without a captain
        t = (t + 1) % deck.SPACES
        passed.append(t)
    g.bj = t
    w = g.winner_seat()
    seen = []
    for space in passed[:-1]:
        s = g.occupant(space, BJ)
        if s >= 0 and s != w and s not in seen:
            seen.append(s)
    g.robs = [[s, s if w < 0 else w] for s in seen]
    next_rob(g)


def next_rob(g):
    while g.robs:
        victim, chooser = g.robs[0]
        w = g.winner_seat()
        # H22: checked with the counts of this moment; H28: nothing to take, skipped
        if g.crews[victim] and (w < 0 or len(g.crews[victim]) >= len(g.crews[w])):
            return
        g.robs.pop(0)


def rob(g, card):
    victim, chooser = g.robs.pop(0)
    if card >= 0:
        g.crews[victim].remove(card)
        if victim == chooser:
            g.port.append(card)  # H23: nobody bid, to the port
        else:
            g.crews[chooser].append(card)  # H22: into W's crew
    next_rob(g)
    run(g)


def end_round(g):
    g.queue = []
    if g.round >= ROUNDS:  # H29: after the 8th round's Black-Jack move
        g.phase = "over"
        g.step = None
        return None
    g.start_round()
    return None
