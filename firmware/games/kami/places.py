"""Kami's places on a checked board (docs/kami.md "Lights", K19; rules section 8.1): a
light per seat, a defence light per seat, the Empress light, the 8 centre-stack lights of
the 2-player game and three score tracks of 15 lights, as small integers in file order.
Apart from the checks that fill them in (layout.py), which the board needs only at boot."""

from core.boardtype import Board

SEATS = 4
STACKS = 8
TRACKS = 3  # 2 sides in 2 and 4 players, 3 in 3 players
TRACK_LEN = 15  # one light per point up to the 15-point target (K17: a score may pass it)


class KamiBoard(Board):
    """A board with Kami's places. Seat s is `p<s+1>` clockwise; track t is `t<t+1>` (side
    t: p1 or p1+p3, p2 or p2+p4, p3). Positions are (x, y) in the frame's units, y down."""

    def __init__(self):
        super().__init__()
        self.frame = None  # (width, height) of the x, y coordinates, or None
        self.board_size_mm = None  # (width, height) of the printed card table, or None
        self.seat_xy = []  # per seat: (x, y)
        self.seat_led = []  # per seat: its light (whose turn)
        self.defence_xy = []  # per seat: (x, y)
        self.defence_led = []  # per seat: its last defence's light
        self.empress_xy = None
        self.empress_led = -1
        self.centre_xy = []  # per stack 1..8: (x, y)
        self.centre_led = []  # per stack: its light
        self.track_xy = []  # per track: ((x, y) of its first light, (x, y) of its last)
        self.track_led = []  # per track: its 15 lights, point 1 first
