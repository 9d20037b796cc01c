"""What one referee event came to: one immutable value, handed by the app to the view (the
light), the sound and the link (the host), so none of them reads the referee's state.

    kind     ACCEPTED, REFUSED, ROUND_END, GAME_OVER or NEW_GAME
    code     the rejection code ("wrong-phase", ...) of a refusal, else None
    message  the refusal's reason, else None
    islands  island indices to show (a refusal's flash)
    conns    connection indices to show
    private  the event must not reveal which card it was (deal, draw, discard)
"""

from collections import namedtuple

ACCEPTED = "accepted"
REFUSED = "refused"
ROUND_END = "round-end"  # a scoring, or round 3's last card (final turns)
GAME_OVER = "game-over"
NEW_GAME = "new-game"

KINDS = (ACCEPTED, REFUSED, ROUND_END, GAME_OVER, NEW_GAME)

Outcome = namedtuple("Outcome", ("kind", "code", "message", "islands", "conns", "private"))


def accepted(kind=ACCEPTED, private=False):
    return Outcome(kind, None, None, (), (), private)


def refused(code, message, islands=(), conns=(), private=False):
    return Outcome(REFUSED, code, message, tuple(islands), tuple(conns), private)
