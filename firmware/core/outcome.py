"""What one referee event came to: one immutable value, handed by the app to the view (the
light), the sound and the link (the host), so none of them reads the referee's state.

    kind     ACCEPTED, REFUSED, ROUND_END, GAME_OVER, NEW_GAME or MENU (the settings
             menu opened, changed or closed: core.menu)
    code     the rejection code ("wrong-phase", ...) of a refusal; MOVED for another
             table's move (a remote game: `moved`); else None
    message  the refusal's reason, else None
    places   what a refusal is about, for its flash, or the places another table's move
             touched, for its blinks: a tuple of (kind, index) pairs, in the game's terms
             (Kahuna: ("island", i), ("conn", k))
    private  the event must not reveal which card it was (deal, draw, discard)

`Rejected` is how a game's rules and controller refuse an action: with a code and a
reason, having changed nothing. The platform's own refusals use the codes below.
"""

from collections import namedtuple

ACCEPTED = "accepted"
REFUSED = "refused"
ROUND_END = "round-end"  # a scoring, or round 3's last card (final turns)
GAME_OVER = "game-over"
NEW_GAME = "new-game"
MENU = "menu"

KINDS = (ACCEPTED, REFUSED, ROUND_END, GAME_OVER, NEW_GAME, MENU)

WRONG_PHASE = "wrong-phase"  # not now (every game's first check)
STORAGE = "storage"  # the journal could not be written: the action did not happen
BAD_SETTINGS = "bad-settings"  # the settings menu's values do not go together
# Another table's move (a remote game): the code of its outcome, and the key of its sound
# (core.tunes) when it is only accepted (a round's end or the game's keeps its own).
MOVED = "moved"


class Rejected(Exception):
    """An action the rules or the phase do not allow. Nothing was changed."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message

Outcome = namedtuple("Outcome", ("kind", "code", "message", "places", "private"))


def accepted(kind=ACCEPTED, private=False):
    return Outcome(kind, None, None, (), private)


def refused(code, message, places=(), private=False):
    return Outcome(REFUSED, code, message, tuple(places), private)


def moved(kind, places, private=False):
    """Another table's move, applied: `places` it touched (public ones only: a hidden
    card's move touches none), shown by the view's blinks and MOVED's sound."""
    return Outcome(kind, MOVED, None, tuple(places), private)


def sound(outcome):
    """The key of the sound for an outcome (core.tunes.SOUNDS)."""
    if outcome.code == MOVED and outcome.kind == ACCEPTED:
        return MOVED
    return outcome.kind
