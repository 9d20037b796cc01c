"""Kahuna's turn log read back: an entry packed by games.kahuna.turnpack (its form told
there) as the list it was, and one from a compacted journal's JSON. Loaded only when one
is needed (a takeback, a compacted journal's state, the menu's look at the game), so
that a board keeps this code out of its heap in play."""

from games.kahuna.turnpack import _SAVE, _WORDS


def unpack(e, settings):
    """Entry `e` as [seat, core, actions, save, laid]: a finished turn's bytes, or the
    turn under way, whose core alone is packed."""
    if type(e) is list:
        return [e[0], _Read(e[1], settings).core(), e[2], e[3], e[4]]
    r = _Read(e, settings)
    next(r.it)  # the entry's length: 5
    seat = r.num()
    core = r.core()
    acts = list(r.seq(lambda: r.seq(r.word)))
    save = None
    if next(r.it):
        save = {"display": list(r.nums()), "stack": list(r.nums())}
        for k in _SAVE[2:]:
            save[k] = r.num()
    return [seat, core, acts, save, list(r.nums())]


class _Read:
    def __init__(self, b, settings):
        self.it = iter(b)
        self.cards = settings.card_names
        self.conns = settings.board.connections

    def num(self):
        v = s = 0
        while True:
            c = next(self.it)
            v |= (c & 127) << s
            s += 7
            if c < 128:
                return v - 1

    def word(self):
        i = next(self.it) - len(_WORDS)
        if i < 0:
            return _WORDS[i]
        n = len(self.cards)
        return self.cards[i] if i < n else self.conns[i - n]

    def seq(self, one):
        return tuple(one() for _ in range(next(self.it)))

    def nums(self):
        return self.seq(self.num)

    def core(self):
        """The rules' core (rules.Game._core, in its order)."""
        next(self.it)  # its length: 17
        num, nums = self.num, self.nums
        return (self.word(), num(), num(), nums(), nums(), nums(), nums(), num(), num(),
                num() == 1, num() == 1, num(), nums(), self.seq(nums), nums() or None,
                self.word(), num())


def from_json(e):
    """An entry read back from JSON: the core's lists as the tuples the rules keep."""
    c = e[1]
    core = tuple(tuple(x) if isinstance(x, list) else x for x in c)
    core = core[:13] + (tuple(tuple(r) for r in core[13]),) + core[14:]
    return [e[0], core, [tuple(a) for a in e[2]], e[3], list(e[4])]
