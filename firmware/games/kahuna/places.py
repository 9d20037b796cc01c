"""Kahuna's places on a checked board: the islands and connections of the board definition,
as small integers in file order, and the topology the rules ask about. Apart from the checks
that fill them in (layout.py), which the board needs only at boot."""

from core.boardtype import Board


class KahunaBoard(Board):
    """A board with Kahuna's places. `conn_ends[k]` is (a, b) with island a's name before
    b's alphabetically; `island_conns[i]` lists the connections of island i clockwise from
    12 o'clock (by the other end's position), the order a rotary encoder sweeps them in."""

    def __init__(self):
        super().__init__()
        self.frame = None  # (width, height) of the x, y coordinates, or None
        self.board_size_mm = None  # (width, height) of the printed board, or None
        self.islands = []  # island ids, file order
        self.island_index = {}  # id -> index
        self.island_xy = []  # (x, y), y down
        self.island_led = []  # LED index per island
        self.island_conns = []  # per island: its connection indices, clockwise from 12
        self.island_degree = []  # per island: number of connections
        self.connections = []  # connection ids ("ALOA-BARI"), file order
        self.conn_index = {}  # id -> index
        self.conn_ends = []  # (a, b) island indices, a's name first alphabetically
        self.conn_led = []  # LED index per connection

    def degree(self, i):
        return len(self.island_conns[i])

    def conn_between(self, a, b):
        """The connection joining islands a and b (indices), or None."""
        for k in self.island_conns[a]:
            if self.other_end(k, a) == b:
                return k
        return None

    def other_end(self, k, i):
        """The island at the other end of connection k from island i."""
        a, b = self.conn_ends[k]
        return b if a == i else a
