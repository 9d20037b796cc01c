"""Helpers for the Halunken & Spelunken tests: given deals, names to indices, states."""

from games.halunken import deck, game, rules

ORDERED = [deck.crew_name(c) for c in range(deck.CREW)]
EXAMPLE1_PILES = [
    "RED-4,PURPLE-5,RED-1", "RED-2,RED-3,RED-5", "GREY-6,RED-6,RED-7",
    "RED-8,RED-9,PURPLE-1", "PURPLE-2,PURPLE-3,PURPLE-4", "YELLOW-2,GREY-8,YELLOW-11",
    "PURPLE-6,PURPLE-7,PURPLE-8", "PURPLE-9,PURPLE-10,GREY-1", "GREY-2,GREY-3,GREY-4",
    "GREY-5,GREY-7,GREY-9", "GREY-10,GREY-11,YELLOW-1", "YELLOW-3,YELLOW-4,YELLOW-5",
    "YELLOW-6,YELLOW-7,YELLOW-8", "YELLOW-9,YELLOW-10,YELLOW-12"]


def in_order_piles():
    return [ORDERED[3 * t:3 * t + 3] for t in range(14)]


def given(players=3, mode=None, piles=None, bj=None, **extra):
    s = {"players": players, "piles": piles or in_order_piles()}
    if mode:
        s["mode"] = mode
    if bj is not None:
        s["bj"] = bj
    elif (mode or ("tactical" if players == 2 else "standard")) == "standard":
        s["bj"] = ["BJ-%d" % k for k in range(1, 13)]
    elif players == 2:
        s["bj"] = ["P3-%d" % k for k in range(1, 8)] + ["P3-RUM"]
    s.update(extra)
    return game.new_state(None, s)


def c(name):
    return deck.crew_card(name)


def sp(name):
    return int(name[1:]) - 1


def m(word):
    return deck.move_card(word)


def names(cards):
    return sorted(deck.crew_name(x) for x in cards)


def report(state):
    return game.report(state)


BJ = rules.BJ


# ---------------------------------------------------------------- the conformance suite
# What tests/core/test_conformance.py needs beyond the interface: settings to play (the
# first: frames against twins; the second: power cuts), a random player whose games end,
# the rules' invariants, and twins of a state that differ only in hidden cards.

NAME = "halunken"

SETTINGS = (
    {"players": 3, "mode": "standard", "seed": 11},
    # The power cuts' game: at a table (H33), takes and Black-Jack's cards tapped.
    {"players": 3, "mode": "standard", "deal": "table", "first": "p2"},
    {"players": 4, "mode": "beginner", "seed": 2, "first": "p2"},
    {"players": 2, "mode": "tactical", "seed": 3},
    {"players": 2, "mode": "tactical", "deal": "table"},
    {"players": 4, "mode": "standard", "seed": 4, "first": "p3"},
)


def chooser():
    """Uniform among the legal actions, but `back` (undo) rarely, so games end."""

    def choose(state, legal, rng):
        forward = [a for a in legal if a[0] != "undo"]
        if len(forward) < len(legal) and rng.below(20) == 0:
            return ("undo",)
        return forward[rng.below(len(forward))]

    return choose


def problems(state):
    """The rules' invariants (halunken_play.py; loaded by path: the conformance suite
    loads this kit by path, without this folder on sys.path)."""
    import importlib.util
    import os
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "halunken_play.py")
    spec = importlib.util.spec_from_file_location("halunken_play", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.problems(state)


def _copy(state):
    twin = game.new_state(None, {"players": state.players, "mode": state.mode, "seed": 0})
    twin.restore(state.snapshot())
    return twin


def twins(state):
    """States with the same public information and other hidden cards (8.3): the cards
    below two piles' tops swapped (during the blind set-up, H5, the tops too), Black-Jack's
    next two cards swapped, and each seat's unrevealed choice changed to another card it
    still holds (Black-Jack's too, chosen by W in tactical)."""
    out = []
    blind = state.placed < state.players
    deep = [t for t in range(deck.SPACES) if len(state.piles[t]) >= 2]
    if len(deep) >= 2:
        twin = _copy(state)
        a, b = deep[0], deep[-1]
        twin.piles[a][1], twin.piles[b][1] = twin.piles[b][1], twin.piles[a][1]
        out.append(twin)
    if blind:
        full = [t for t in range(deck.SPACES) if state.piles[t]]
        twin = _copy(state)
        a, b = full[0], full[-1]
        twin.piles[a][0], twin.piles[b][0] = twin.piles[b][0], twin.piles[a][0]
        out.append(twin)
    if len(state.bj_deck) >= 2:
        twin = _copy(state)
        twin.bj_deck[0], twin.bj_deck[1] = twin.bj_deck[1], twin.bj_deck[0]
        out.append(twin)
    for f in range(5):
        if state.choices[f] < 0:
            continue
        for other in state.left_moves(f):
            if other != state.choices[f]:
                twin = _copy(state)
                twin.choices[f] = other
                out.append(twin)
                break
    return out
