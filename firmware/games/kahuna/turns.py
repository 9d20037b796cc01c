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
form) stays as it is: nothing is lost either way. The packing's code
(games.kahuna.turnpack) is loaded at a turn's start, when it packs, and given back after
(0.6 KB of bytecode a board kept from boot: issue 20, the heap).

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
            from core.unload import unload
            unload(("games.kahuna.turnpack",))
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
        unload(("games.kahuna.turnread", "games.kahuna.turnpack"), clear=False)
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
        unload(("games.kahuna.turnread", "games.kahuna.turnpack"), clear=False)


def _pack(e, settings):
    """Entry (or core) `e` packed; `e` itself when it does not pack (games.kahuna.turnpack,
    loaded for it; `note` gives it back)."""
    from games.kahuna.turnpack import pack
    return pack(e, settings)
