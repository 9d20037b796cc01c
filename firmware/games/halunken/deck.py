"""Halunken & Spelunken's cards as small ints, their names, and the seeded deal.

Crew cards (H1, H2): 0..41, red 0..8, purple 9..18, grey 19..29, yellow 30..41; the k-th
card of a colour is named COLOUR-k and is worth k by default (values are data, H2).
Movement cards: 0..6 are the numbers 1..7, 7 is RUM. Black-Jack's standard deck: 1..12.
"""

COLOURS = ("RED", "PURPLE", "GREY", "YELLOW")  # ascending rank for ties (H18)
STARTS = (0, 9, 19, 30, 42)
CREW = 42
RUM = 7
MOVES = 8
SPACES = 14


def colour(card):
    c = 0
    while card >= STARTS[c + 1]:
        c += 1
    return c


def default_values():
    return [card - STARTS[colour(card)] + 1 for card in range(CREW)]


def values(table=None):
    """The crew cards' values (H2): the default table, with the values recorded for the
    enrolled tags over it (`table`: {name: value}, checked by settings.py)."""
    out = default_values()
    for name in table or ():
        out[crew_card(name)] = table[name]
    return out


def crew_name(card):
    c = colour(card)
    return "%s-%d" % (COLOURS[c], card - STARTS[c] + 1)


def crew_card(name):
    """The card named `name`, or -1."""
    parts = name.split("-")
    if len(parts) != 2 or parts[0] not in COLOURS or not parts[1].isdigit():
        return -1
    c = COLOURS.index(parts[0])
    k = int(parts[1])
    if k < 1 or k > STARTS[c + 1] - STARTS[c]:
        return -1
    return STARTS[c] + k - 1


# A movement card's word and back, by table: the same steps for every card, RUM included,
# so that neither the tap of a secret choice (the controller parses its name) nor the
# link's report (which names the hidden choice before dropping it) does more or less work
# for one card than for another (8.3, H32; tests/games/halunken/secret_work.py).
MOVE_WORDS = ("1", "2", "3", "4", "5", "6", "7", "RUM")
_MOVE_INDEX = dict((MOVE_WORDS[m], m) for m in range(MOVES))


def move_name(seat_label, m):
    return "%s-%s" % (seat_label, MOVE_WORDS[m])


def move_card(word):
    """A movement card's index from its suffix ("3", "RUM"), or -1."""
    m = _MOVE_INDEX.get(word, -1)
    if m < 0 and word.isdigit() and 1 <= int(word) <= 7:  # a number written otherwise: "07"
        m = int(word) - 1
    return m


def space_name(space):
    return "T%d" % (space + 1)


class Rng:
    """xorshift32 seeded through murmur3's finalizer: the same numbers on CPython and
    MicroPython (whose `random` differs), as host_tools/games/kahuna/table.py deals Kahuna."""

    def __init__(self, seed):
        h = (seed + 0x9E3779B9) & 0xFFFFFFFF
        h ^= h >> 16
        h = (h * 0x85EBCA6B) & 0xFFFFFFFF
        h ^= h >> 13
        h = (h * 0xC2B2AE35) & 0xFFFFFFFF
        h ^= h >> 16
        self.s = h or 1

    def below(self, n):
        x = self.s
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.s = x
        return x % n


def shuffle(items, rng):
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


def seeded_deal(seed, bj_size):
    """The 14 piles (top first) and Black-Jack's deck (first turned first) for `seed`."""
    rng = Rng(seed)
    crew = list(range(CREW))
    shuffle(crew, rng)
    piles = [crew[3 * t:3 * t + 3] for t in range(SPACES)]
    bj = list(range(bj_size))
    shuffle(bj, rng)
    return piles, bj
