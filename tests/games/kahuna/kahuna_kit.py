"""What the conformance suite (tests/core/test_conformance.py) needs to know of Kahuna
beyond its interface: settings to play, a random player that makes games end, the rules'
invariants, and twins of a state that differ only in hidden cards."""

from games.kahuna import rules
from host_tools.games.kahuna import randgame
from host_tools.games.kahuna.invariants import problems  # noqa: F401  (R8 control, supplies, hand limit, scores)

NAME = "kahuna"

SETTINGS = (
    {"variant": "standard", "first": "white", "handicap": None},
    {"variant": "alternative", "first": "black", "handicap": None},
    {"variant": "standard", "first": "black", "handicap": ["white", 2]},
)


def chooser():
    """A random player whose games end: the simulator's (mostly bridges, some undo)."""
    players = {}

    def choose(state, legal, rng):
        player = players.get(id(state))
        if player is None:
            player = players[id(state)] = randgame.Player(rng)
        return player.choose(state)

    return choose


def twins(state):
    """States with the same public information as `state` and other hidden cards: a card
    of the hand of the player on turn swapped with a card still in the deck (the rules
    do not tell the deck from the display; nothing public says which cards either holds)."""
    out = []
    place = state.place
    hand = [c for c in range(len(place)) if place[c] == state.turn]
    deck = [c for c in range(len(place)) if place[c] == rules.DRAWABLE]
    for c in hand[:2]:
        for d in deck[:3]:
            twin = state.settings.new_game()
            twin.restore(state.snapshot())
            twin.place[c], twin.place[d] = twin.place[d], twin.place[c]
            out.append(twin)
    return out
