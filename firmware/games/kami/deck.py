"""Kami's 32 cards and its seeded shuffle: card indices, kinds, points, names.

A card is an index 0..31 into NAMES; its kind (KIND) decides identity (K1) and points.
The shuffle is a xorshift32 of our own: MicroPython's `random` differs from CPython's, and
a seeded deal must be the same on both runtimes.
"""

# kind: (name, copies, points), in the order of the rules' table
KINDS = (
    ("SOLDAT", 10, 1),
    ("LANCE", 4, 2),
    ("CAVALIER", 4, 2),
    ("ARGENT", 4, 3),
    ("OR", 4, 3),
    ("TOUR", 2, 4),
    ("FOU", 2, 4),
    ("IMPERATRICE", 2, 5),
)
SOLDAT = 0
LANCE = 1
IMPERATRICE = 7

NAMES = []
KIND = []
for _k in range(len(KINDS)):
    for _i in range(KINDS[_k][1]):
        NAMES.append("%s-%d" % (KINDS[_k][0], _i + 1))
        KIND.append(_k)
NAMES = tuple(NAMES)
KIND = tuple(KIND)
COUNT = len(NAMES)  # 32
_INDEX = {}
for _c in range(COUNT):
    _INDEX[NAMES[_c]] = _c


def index(name):
    """The card index of `name`, or -1 for a name that is not one of the 32 cards."""
    return _INDEX.get(name, -1)


def points(card):
    return KINDS[KIND[card]][2]


def is_card(card):
    return isinstance(card, int) and not isinstance(card, bool) and 0 <= card < COUNT


def sort_key(card):
    """Hands are listed sorted as text (SOLDAT-10 before SOLDAT-2: the contract)."""
    return NAMES[card]


def seed_state(seed):
    """The first xorshift state for `seed`: murmur3's finalizer spreads near seeds."""
    h = (seed + 0x9E3779B9) & 0xFFFFFFFF
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & 0xFFFFFFFF
    h ^= h >> 16
    return h or 1


def step(x):
    """The next xorshift32 state."""
    x ^= (x << 13) & 0xFFFFFFFF
    x ^= x >> 17
    x ^= (x << 5) & 0xFFFFFFFF
    return x


def shuffled(state):
    """(the 32 cards in a Fisher-Yates order drawn from `state`, the state after it)."""
    cards = list(range(COUNT))
    for i in range(COUNT - 1, 0, -1):
        state = step(state)
        j = state % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards, state
