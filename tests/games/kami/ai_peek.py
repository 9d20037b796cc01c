"""The no-peeking check of Kami's board player, the same on CPython and inside MicroPython
(tests/mp/kami_ai.py runs it there and prints the result as JSON).

A seeded game is played by the board's player in every seat but one (a random player,
host_tools/games/kami/baselines.py, so the games differ); wherever a board seat is to
decide, its decision is taken, then again in a twin of the game that differs only in what
the seat may not know (8.3): the other seats' hands, their face-down defences (K6), the
3-player set-aside cards (K12) and the 2-player hidden centre cards (K13), dealt among
those places anew (each place keeps its count; Soldiers shown in a claim stay, K11). The
decisions must be the same."""

from games.kami import ai, deck, rules
from games.kami.rules import HIDDEN
from host_tools.games.kami import baselines


def settings_for(seed):
    """2, 3 and 4 players in turn, every mode, any first seat, a seeded deal."""
    players = 2 + seed % 3
    return {"players": players, "mode": ("soldat", "seigneur", "kami")[seed // 3 % 3],
            "first": seed % players, "target": 8, "seed": 1000 + seed}


def new_game(s):
    return rules.Game(players=s["players"], mode=s["mode"], first=s["first"],
                      target=s["target"], deal="seed", seed=s["seed"])


def twin(g, seat):
    """A copy of `g` with every card `seat` may not see moved to another hidden place;
    and how many cards moved."""
    t = rules.Game(players=g.players, deal="seed")
    t.restore(g.snapshot())
    shown = list(g.claim[2]) if g.claim is not None else []
    places = []  # (kind, a, b): a hand card, a face-down entry, an aside card, a hidden centre
    pool = []
    for s in range(t.players):
        if s == seat:
            continue
        for i in range(len(t.hands[s])):
            if t.hands[s][i] not in shown:
                places.append(("hand", s, i))
                pool.append(t.hands[s][i])
        for e in t.lines[s][0]:
            if not e[1] and not e[2]:
                places.append(("down", e, 0))
                pool.append(e[0])
    for i in range(len(t.aside or ())):
        places.append(("aside", i, 0))
        pool.append(t.aside[i])
    for i in range(len(t.down or ())):
        if t.down[i] >= 0:
            places.append(("centre", i, 0))
            pool.append(t.down[i])
    if len(pool) < 2:
        return t, 0
    pool = pool[1:] + pool[:1]  # every hidden card to another place
    for k in range(len(places)):
        kind, a, b = places[k]
        c = pool[k]
        if kind == "hand":
            t.hands[a][b] = c
        elif kind == "down":
            if t.placed is not None and t.placed[0] == a[0] and not t.placed[1]:
                t.placed[0] = c
            a[0] = c
            t.used[c] = HIDDEN
        elif kind == "aside":
            t.aside[a] = c
        else:
            t.down[a] = c
    for s in range(t.players):
        t.hands[s].sort()
        for c in t.hands[s]:
            t.used[c] = 0
    if t.aside is not None:
        t.aside.sort()
    return t, len(pool)


def peek_check(seed, decider=None):
    """(decisions, changed, differing) for one game of settings_for(seed): the board
    seats' decisions (as lists), how many twins had hidden cards moved, and the decisions
    that differed from the twin's."""
    decider = decider or ai.choose
    s = settings_for(seed)
    g = new_game(s)
    n = g.players
    rnd = seed % n  # the random player's seat
    other = baselines.make("random", seed)
    board = [i for i in range(n) if i != rnd]
    claimed = []
    decisions = []
    changed = 0
    differing = []
    count = 0
    while not g.is_over() and count < 3000:
        count += 1
        c = ai.claimant(g, board, claimed)
        if c >= 0:  # K11
            claimed.append(ai.claim_key(g, c))
            g.apply(("discard",))
            g.apply(("pick", c))
            continue
        seat = ai.acting_seat(g)
        acts = ai.seat_actions(g, seat)
        if seat == rnd:
            g.apply(other.decide(ai.observe(g, seat), acts))
            continue
        act = decider(g, seat)
        t, moved = twin(g, seat)
        if moved:
            changed += 1
        again = decider(t, seat)
        decisions.append(list(act))
        if again != act:
            differing.append([seat, list(act), list(again) if again else None, g.phase,
                              g.step])
        g.apply(act)
    return decisions, changed, differing


def peeking_at_the_next_hand(g, seat):
    """A cheat: plays as the AI, but passes when the next seat holds an Empress."""
    nxt = g.hands[(seat + 1) % g.players]
    if ("pass",) in ai.seat_actions(g, seat):
        for c in nxt:
            if deck.KIND[c] == deck.IMPERATRICE:
                return ("pass",)
    return ai.choose(g, seat)


def peeking_at_the_hidden_cards(g, seat):
    """A cheat: picks among the legal actions by the next seat's hand and, in 3 and 2
    players, the set-aside or hidden centre cards."""
    acts = ai.seat_actions(g, seat)
    hidden = sum(g.hands[(seat + 1) % g.players]) + sum((g.aside or [0])[:1])
    hidden += sum([c for c in (g.down or ()) if c >= 0][:1])
    return acts[hidden % len(acts)]
