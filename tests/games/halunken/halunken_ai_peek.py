"""The no-peeking check of Halunken's board player, the same on CPython and inside
MicroPython (tests/mp/halunken_ai.py runs it there and prints the result as JSON).

A random game (randgame's PRNG) is played; wherever a seat is to decide, the board
player's decision is taken, then again in a twin of the game that differs only in what
the seat may not know: the other seats' unrevealed movement cards (and Black-Jack's, when
another seat won him, H26), the cards below every pile's top (H5), Black-Jack's deck
order (H25). The decisions must be the same."""

from games.halunken import ai, rules
from host_tools.games.halunken import randgame


def twin(g, seat, settings):
    """A copy of `g` with the hidden information `seat` may not see changed; and whether
    anything hidden did change (2: another seat's secret choice among it)."""
    t = randgame.new_game(settings)
    t.restore(g.snapshot())
    t.recorder = None
    changed = False
    below = []
    for pile in t.piles:
        below += pile[1:]
    if len(below) > 1:
        below = below[1:] + below[:1]  # every card below a top moves to another place
        k = 0
        for pile in t.piles:
            n = len(pile) - 1
            if n > 0:
                pile[1:] = below[k:k + n]
                k += n
        changed = True
    if len(t.bj_deck) > 1:
        t.bj_deck.reverse()
        changed = True
    for f in range(5):
        if f == seat or t.choices[f] < 0 or (f == rules.BJ and t.winner_seat() == seat):
            continue
        others = [m for m in t.left_moves(f) if m != t.choices[f]]
        if others:
            t.choices[f] = others[0]
            changed = 2
    return t, changed


def peek_check(seed, decider=None, every=1):
    """(decisions, changed, choices, differing) for one random game of settings from
    `seed`: the decisions taken (as lists), how many twins had hidden information changed,
    how many of them another seat's secret choice, and the decisions that differed."""
    decider = decider or ai.choose
    rng = randgame.Rng(seed)
    settings = randgame.random_settings(rng)
    settings["deal"] = "seed"  # the board's players play dealt decks (solo.py)
    g = randgame.new_game(settings)
    decisions = []
    changed = 0
    choices = 0
    differing = []
    n = 0
    while not g.is_over():
        seat = ai.expected_seat(g)
        if seat >= 0 and g.step != "reveal":
            n += 1
            if n % every == 0:
                d = decider(g, seat)
                t, hidden = twin(g, seat, settings)
                changed += 1 if hidden else 0
                choices += 1 if hidden == 2 else 0
                d2 = decider(t, seat)
                decisions.append(list(d))
                if d2 != d:
                    differing.append([g.step, seat, list(d), list(d2)])
        g.apply(rng.choice(randgame.choices(g)))
    return decisions, changed, choices, differing
