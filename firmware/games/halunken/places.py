"""Halunken & Spelunken's places on a checked board (docs/halunken.md, lights H30): the
ring's 14 taverns, each with a space light and a pile light, a light per seat, the port and
the 8 round lights, as small integers in file order. Apart from the checks that fill them
in (layout.py), which the board needs only at boot."""

from core.boardtype import Board

TAVERNS = 14
SEATS = 4
ROUNDS = 8


class HalunkenBoard(Board):
    """A board with Halunken's places. Tavern t is `T<t+1>`, clockwise (H3); seat s is
    `p<s+1>`. Positions are (x, y) in the frame's units, y down (for drawings)."""

    def __init__(self):
        super().__init__()
        self.frame = None  # (width, height) of the x, y coordinates, or None
        self.board_size_mm = None  # (width, height) of the printed ring, or None
        self.tavern_xy = []  # per tavern: (x, y)
        self.space_led = []  # per tavern: the light of the figure on its space
        self.pile_led = []  # per tavern: the light of its pile's cards left
        self.seat_xy = []  # per seat p1..p4: (x, y)
        self.seat_led = []  # per seat: its light
        self.port_xy = None
        self.port_led = -1
        self.round_xy = []  # per round 1..8: (x, y)
        self.round_led = []  # per round: its light
