"""Kahuna's turn log packed (games.kahuna.turns tells the entries' form and when they are
packed; games.kahuna.turnread reads them back). Loaded when a turn starts, to pack, and
given back after it, so that a board keeps this code out of its heap in play."""

from games.kahuna import rules

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


def pack(e, settings):
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
