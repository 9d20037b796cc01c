"""Kahuna's record of the last whole turns: what a takeback (games.kahuna.takeback) takes
the game back to, and what it walks the players through.

The rules tell it of every applied action (`rules.Game.turns`), live and when the journal
is replayed at boot, so it is the same after a power cut. An entry is one turn:

    [seat on turn, the rules' core at the turn's start, [its actions], solo save or None,
     [cards laid face up on the display after it (a solo game)]]

The core is the state before the turn's first action (the start of a turn: the play
phase, nothing done; an action and its undo (R10) leave the turn at its start again).
The solo game (games.kahuna.solo) adds its own state at that moment (`fresh`): the
display and the AI's stack. The deal and the handicap are no turns (R10: a handicap
bridge is never taken back). Only the last KEEP turns are kept.

The entries are kept packed in bytes (`_pack`): as lists, tuples and a dict an entry
took about 0.9 KB of the Pico's heap, and the four 3.8 KB, all game long (the live heap
grew 4 KB over a solo game's first turns on the emulated RP2040). The last entry is the
turn under way, which its actions, save and laid cards are still added to: it stays a
list, its core alone packed; the ones before it are finished, and each is one `bytes`
(about 0.14 KB). `entry(i)` gives an entry back as the list, through
`games.kahuna.turnread`, which is loaded only for it (a takeback, a compacted journal's
state). What does not pack (a value out of a byte's range, a journal's save of another
form) stays as it is: nothing is lost either way.

`walk` is a takeback under way: [the entries taken back, steps confirmed]; `to_json`
and `load` carry both into a compacted journal's state record (the lists, as before).
"""

from games.kahuna import rules

KEEP = 4  # turns kept: two takebacks of a solo game (the player's turn and the AI's)


class TurnLog:
    def __init__(self):
        self.entries = []  # oldest first: packed (bytes) but the last
        self.walk = None
        self.fresh = None  # the entry just opened: the solo game adds its save
        self.restored = None  # a takeback's solo save, until the solo game took it
        self.settings = None  # the game's (its card and connection names): for packing

    def note(self, game, action):
        """An action the rules are about to apply (called before it changes anything)."""
        kind = action[0]
        if kind == "takeback" or kind == "tb" or game.phase in (rules.DEAL, rules.HANDICAP):
            return
        e = self.entries
        if e and e[-1][0] == game.turn:
            e[-1][2].append(tuple(action))
        elif game.phase == rules.PLAY and not game.history and game.refill == rules.NOBODY:
            self.fresh = [game.turn, _pack(game._core(), game.settings), [tuple(action)],
                          None, []]
            e.append(self.fresh)
            if len(e) > KEEP:
                e.pop(0)
            self.settings = game.settings
            for i in range(len(e) - 1):  # the turns before this one are finished
                if type(e[i]) is list:
                    e[i] = _pack(e[i], game.settings)
        # else: a turn met in its middle (a journal compacted by an older firmware): not
        # a whole turn, so it is not kept

    def entry(self, i):
        """Entry `i` (a list index) as the list, its core the rules' tuple (what is
        packed unpacked afresh, by games.kahuna.turnread: loaded only for it)."""
        e = self.entries[i]
        if type(e) is list and type(e[1]) is tuple:
            return e
        from games.kahuna.turnread import unpack
        return unpack(e, self.settings)

    def to_json(self):
        out = [[self.entry(i) for i in range(len(self.entries))], self.walk]
        # The reader's code goes back to the heap (a compaction, the menu's look at the
        # game: rare); globals kept, as a takeback under way may still hold its function.
        from core.unload import unload
        unload(("games.kahuna.turnread",), clear=False)
        return out

    def load(self, obj):
        """The record from a state record (None: an empty one), read by
        games.kahuna.turnread (loaded for it: at boot, from a compacted journal); the next
        turn packs the finished entries."""
        self.entries = []
        self.walk = None
        self.fresh = None
        if not obj:
            return
        from games.kahuna.turnread import from_json
        self.entries = [from_json(e) for e in obj[0]]
        w = obj[1]
        if w:
            self.walk = [[from_json(e) for e in w[0]], int(w[1])]
        from core.unload import unload
        unload(("games.kahuna.turnread",), clear=False)


# ------------------------------------------------------------------ packing
# A packed entry is the entry's values one after another, in bytes (games.kahuna.turnread
# knows the entry's shape, and reads them back): a list or a tuple is its length, then
# its values; the solo save its length, then its values in _SAVE's order; None and a
# name are one byte, their number (_WORDS, then the cards, then the connections); a
# number is itself plus one (the rules' NOBODY, -1, is 0), in groups of 7 bits, the low
# ones first, the high bit set on each group but the last (a card mask takes 4 bytes).
# What is no byte (a length over 255, a number under -1, a name of no card) raises
# ValueError, TypeError or KeyError: the entry stays a list.

_WORDS = (None, rules.DEAL, rules.HANDICAP, rules.PLAY, rules.DRAW, rules.OVER, "white",
          "black", "place", "remove", "refill", "skip_refill", "discard", "end_play",
          "resume_play", "decline", "undo")  # "draw": a phase, a winner, an action
_SAVE = ("display", "stack", "seen", "known", "count", "moves", "own")  # solo.Solo.save


def _pack(e, settings):
    """Entry (or core) `e` packed; `e` itself when it does not pack."""
    out = []
    try:
        _flat(e, out, settings)
        return bytes(out)
    except (ValueError, TypeError, KeyError):
        return e


def _flat(x, out, settings):
    t = type(x)
    if t is bytes:  # a core packed already
        out.extend(x)
    elif t is list or t is tuple:
        out.append(len(x))
        for v in x:
            _flat(v, out, settings)
    elif t is dict:
        if len(x) != len(_SAVE):
            raise ValueError  # a save of another form (an older firmware's journal)
        out.append(len(x))
        for k in _SAVE:
            _flat(x[k], out, settings)
    elif t is str or x is None:
        if x in _WORDS:
            out.append(_WORDS.index(x))
        else:
            c = settings.card_index.get(x)
            if c is None:
                c = settings.n_cards + settings.board.conn_index[x]
            out.append(len(_WORDS) + c)
    else:
        v = x + 1  # TypeError for what is no number
        while v > 127:
            out.append(v & 127 | 128)
            v >>= 7
        out.append(v)
