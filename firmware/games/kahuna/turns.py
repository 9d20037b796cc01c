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
bridge is never taken back). Only the last KEEP turns are kept (about 0.4 KB each).

`walk` is a takeback under way: [the entries taken back, steps confirmed]; `to_json`
and `load` carry both into a compacted journal's state record.
"""

from games.kahuna import rules

KEEP = 4  # turns kept: two takebacks of a solo game (the player's turn and the AI's)


class TurnLog:
    def __init__(self):
        self.entries = []  # oldest first
        self.walk = None
        self.fresh = None  # the entry just opened: the solo game adds its save
        self.restored = None  # a takeback's solo save, until the solo game took it

    def note(self, game, action):
        """An action the rules are about to apply (called before it changes anything)."""
        kind = action[0]
        if kind == "takeback" or kind == "tb" or game.phase in (rules.DEAL, rules.HANDICAP):
            return
        e = self.entries
        if e and e[-1][0] == game.turn:
            e[-1][2].append(tuple(action))
        elif game.phase == rules.PLAY and not game.history and game.refill == rules.NOBODY:
            self.fresh = [game.turn, game._core(), [tuple(action)], None, []]
            e.append(self.fresh)
            if len(e) > KEEP:
                e.pop(0)
        # else: a turn met in its middle (a journal compacted by an older firmware): not
        # a whole turn, so it is not kept

    def to_json(self):
        return [self.entries, self.walk]

    def load(self, obj):
        """The record from a state record (None: an empty one)."""
        self.entries = []
        self.walk = None
        self.fresh = None
        if not obj:
            return
        self.entries = [_entry(e) for e in obj[0]]
        w = obj[1]
        if w:
            self.walk = [[_entry(e) for e in w[0]], int(w[1])]


def _entry(e):
    """An entry read back from JSON: the core's lists as the tuples the rules keep."""
    c = e[1]
    core = tuple(tuple(x) if isinstance(x, list) else x for x in c)
    core = core[:13] + (tuple(tuple(r) for r in core[13]),) + core[14:]
    return [e[0], core, [tuple(a) for a in e[2]], e[3], list(e[4])]
