"""The physical cards of a simulated table: a seeded, shuffled deck, the face-up display
and the discard pile.

Pure Python without imports, so the same file runs on CPython, the MicroPython unix port
and MicroPython compiled to WebAssembly. It shuffles with its own small PRNG (xorshift32)
rather than `random`, whose sequence differs between runtimes: a seed deals the same cards
everywhere.

    t = Table(card_names, seed)
    t.deal()          -> next card name from the deck top (the deal phase)
    t.display         -> the face-up card names (3 while cards last)
    t.take(name)      -> take a display card; the display is refilled from the deck top
    t.take_top()      -> the deck's top card name, or None when the deck is empty
    t.discard(name)   -> a played or discarded card goes to the discard pile
    t.new_round()     -> R5 round end: the discard pile, shuffled, becomes deck + display
    t.drawable()      -> deck + display count (the rules' drawable count)

The display is laid out once the deal is over (`lay_display`, which the first `take`,
`take_top` or `display` read does by itself), so dealing takes cards from the deck top
exactly as the physical deal does: 3 + 3 cards to the hands, then 3 face up.
"""

DISPLAY_SIZE = 3


class TableError(ValueError):
    """A card that is not where the call says (taking a card not on display ...)."""


class Rng:
    """xorshift32: tiny, deterministic, the same on every runtime."""

    def __init__(self, seed):
        # murmur3's finalizer spreads near seeds (1, 2, 3 ...) over the whole state:
        # xorshift alone keeps them alike for its first outputs.
        h = (seed + 0x9E3779B9) & 0xFFFFFFFF
        h ^= h >> 16
        h = (h * 0x85EBCA6B) & 0xFFFFFFFF
        h ^= h >> 13
        h = (h * 0xC2B2AE35) & 0xFFFFFFFF
        h ^= h >> 16
        self.s = h or 1

    def next(self):
        x = self.s
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.s = x
        return x

    def below(self, n):
        return self.next() % n


def shuffle(items, rng):
    """Fisher-Yates in place with `rng`."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


class Table:
    def __init__(self, card_names, seed):
        if not isinstance(seed, int):
            raise TableError("the seed must be an integer, got %r" % (seed,))
        self.rng = Rng(seed)
        self.deck = list(card_names)  # deck[-1] is the top
        shuffle(self.deck, self.rng)
        self._display = []
        self.laid = False
        self.pile = []  # the discard pile, last card on top

    # ------------------------------------------------------------------ reads

    @property
    def display(self):
        if not self.laid:
            self.lay_display()
        return list(self._display)

    def drawable(self):
        return len(self.deck) + len(self._display)

    def deck_count(self):
        return len(self.deck)

    # ------------------------------------------------------------------ moves

    def deal(self):
        """The next card from the deck top for a hand (before the display is laid)."""
        if self.laid:
            raise TableError("the deal is over: the display is laid")
        if not self.deck:
            raise TableError("the deck is empty")
        return self.deck.pop()

    def lay_display(self):
        """Lay the face-up display from the deck top (done once the deal is over)."""
        self.laid = True
        self._refill()

    def _refill(self):
        while len(self._display) < DISPLAY_SIZE and self.deck:
            self._display.append(self.deck.pop())

    def take(self, name):
        """Take the face-up card `name`; its place is refilled from the deck top."""
        if not self.laid:
            self.lay_display()
        if name not in self._display:
            raise TableError("%s is not on display" % (name,))
        self._display.remove(name)
        self._refill()
        return name

    def take_top(self):
        """The deck's top card, or None when the deck is empty."""
        if not self.laid:
            self.lay_display()
        if not self.deck:
            return None
        return self.deck.pop()

    def discard(self, name):
        if name in self.pile or name in self.deck or name in self._display:
            raise TableError("%s is already on the table" % (name,))
        self.pile.append(name)

    def new_round(self):
        """R5: the discard pile is shuffled and becomes the deck and the display."""
        cards = self.deck + self._display + self.pile
        self.pile = []
        self._display = []
        shuffle(cards, self.rng)
        self.deck = cards
        self.laid = True
        self._refill()
