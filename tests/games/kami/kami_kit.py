"""What tests/core/test_conformance.py needs of Kami beyond the interface: settings to play
(the first: frames against twins; the second: power cuts), a random player whose games end,
the rules' invariants, and twins of a state that differ only in hidden cards (8.3)."""

from games.kami import deck, game
from games.kami.rules import HIDDEN

NAME = "kami"

SETTINGS = (
    # 2 players, seeded: hands, face-down defences, hidden centre cards, the next deal
    {"players": 2, "seed": 11, "target": 8},
    # 2 players at a table (K20): the centre laid out, reveals, power cuts in them
    {"players": 2, "target": 5},
    {"players": 4, "target": 10, "first": "p3"},  # a table: teams, 5-Soldier claims
    {"players": 3, "seed": 7, "target": 10, "mode": "seigneur"},  # K12: the aside
    {"players": 4, "seed": 5, "mode": "soldat"},
)


def chooser():
    """Uniform among the legal actions, but `back` (undo) and a 5-Soldier claim rarely,
    and in a claim a withdrawal often, so games end."""

    def choose(state, legal, rng):
        rare = [a for a in legal if a[0] in ("back", "discard")]
        forward = [a for a in legal if a[0] not in ("back", "discard")]
        if rare and rng.below(25) == 0:
            return rare[rng.below(len(rare))]
        if state.phase == "claim" and ("withdraw",) in legal and rng.below(3) == 0:
            return ("withdraw",)
        return forward[rng.below(len(forward))]

    return choose


def problems(state):
    """The rules' invariants (tests/mp/kami_random.py; loaded by path: the conformance
    suite loads this kit by path, without this folder on sys.path)."""
    import importlib.util
    import os
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "mp", "kami_random.py")
    spec = importlib.util.spec_from_file_location("kami_random", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.problems(state)


def _copy(state):
    twin = game.new_state(None, {"players": state.players})
    twin.restore(state.snapshot())
    return twin


def _unseen(state):
    """At a table: the cards not played this round and not on a centre stack (in some
    hand, as far as anyone at the table knows)."""
    up = state.up or ()
    return [c for c in range(deck.COUNT) if not state.used[c] and c not in up]


def _hand_cards(state):
    return [(s, c) for s in range(state.players) for c in (state.hands or [[]] * 4)[s]]


def _final_defence(state):
    return state.rounds[-1][4] if state.is_over() and state.rounds else -1


def _redefend(twin, seat, i, new):
    """Seat `seat`'s defence `i` (face down) becomes card `new`."""
    e = twin.lines[seat][0][i]
    old = e[0]
    if twin.placed is not None and twin.placed[0] == old:
        twin.placed[0] = new
    e[0] = new
    twin.used[old] = 0
    twin.used[new] = HIDDEN
    return old


def twins(state):
    """States with the same public information and other hidden cards (8.3): each
    face-down defence from a hand (not the round's revealed final one, K21) changed for a
    card nobody has seen; two seats' hands swapping a card; an aside card (3 players) and
    a hidden centre card (2 players) swapped with a hand card; the next deal's shuffle."""
    out = []
    final = _final_defence(state)
    for s in range(state.players):
        for i, e in enumerate(state.lines[s][0]):
            if e[1] or e[2] or e[0] == final:
                continue  # face up, from the centre (seen), or revealed (K21)
            twin = _copy(state)
            if state.hands is None:
                others = [c for c in _unseen(state) if c != e[0]]
                if not others:
                    continue
                _redefend(twin, s, i, others[0])
            else:
                held = _hand_cards(state)
                if not held:
                    continue
                seat, card = held[-1]
                old = _redefend(twin, s, i, card)
                twin.hands[seat].remove(card)
                twin.hands[seat].append(old)
                twin.hands[seat].sort()
            out.append(twin)
    if state.hands is not None:
        full = [s for s in range(state.players) if state.hands[s]]
        if len(full) >= 2:
            twin = _copy(state)
            a, b = full[0], full[-1]
            ca, cb = twin.hands[a][0], twin.hands[b][-1]
            twin.hands[a][0], twin.hands[b][-1] = cb, ca
            twin.hands[a].sort()
            twin.hands[b].sort()
            out.append(twin)
        if full and state.aside:
            twin = _copy(state)
            s = full[0]
            twin.aside[0], twin.hands[s][0] = twin.hands[s][0], twin.aside[0]
            twin.aside.sort()
            twin.hands[s].sort()
            out.append(twin)
        downs = [i for i in range(len(state.down or ())) if state.down[i] >= 0]
        if full and downs:
            twin = _copy(state)
            s, i = full[0], downs[0]
            twin.down[i], twin.hands[s][0] = twin.hands[s][0], twin.down[i]
            twin.hands[s].sort()
            out.append(twin)
    if state.deal != "table":
        twin = _copy(state)
        twin.rng = deck.step(state.rng)
        out.append(twin)
    return out
