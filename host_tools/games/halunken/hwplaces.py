"""Where Halunken's pixels sit on the ring, and what the maker's documents
(host_tools/documents/hardware.py) say of them. The layout gives one position per tavern:
its pile light sits there (the tavern's three crew cards lie on it) and its space light, the
lantern where a figure stands, SPACE_INWARD_MM in front of it, towards the ring's centre
(the centre of the 14 taverns). Seats, the port and the 8 round lights sit where the layout
puts them. Names are the firmware's own (`game.pixel_names`: what bring-up says)."""

import math

from games.halunken import game
from host_tools.documents.hwfigures import StyledKind

TITLE = "Halunken"
TEMPLATE_TITLE = "Halunken & Spelunken ring: drilling template 1:1"
GROUND = "#e6ecd8"
SPACE_INWARD_MM = 24.0  # a tavern's space light, in front of its pile light

KINDS = (
    StyledKind("space", "blue spaces", "#17306e", "#fff", "name"),
    StyledKind("pile", "red piles", "#8a1c1c", "#fde9c8", "index"),
    StyledKind("seat", "green seats", "#2d5d1f", "#e8f5e1", "name"),
    StyledKind("port", "violet port", "#6a1b7a", "#efe2f5", "name"),
    StyledKind("round", "brown rounds", "#7a4a00", "#fff3c4", "index"),
)


def centre(board):
    """The ring's centre: the mean of the taverns' positions (frame units)."""
    n = len(board.tavern_xy)
    return (sum(x for x, _ in board.tavern_xy) / n, sum(y for _, y in board.tavern_xy) / n)


def space_xy(board, t, scale):
    """Tavern t's space light: SPACE_INWARD_MM from its pile towards the ring's centre, in
    frame units (`scale`: mm per frame unit, each way)."""
    (x, y), (cx, cy) = board.tavern_xy[t], centre(board)
    dx, dy = (cx - x) * scale[0], (cy - y) * scale[1]  # in mm
    d = math.hypot(dx, dy) or 1.0
    return (x + dx / d * SPACE_INWARD_MM / scale[0], y + dy / d * SPACE_INWARD_MM / scale[1])


def pixels(hw):
    """(led, name, kind, (x, y) in frame units) of every pixel."""
    b = hw.board
    names = game.pixel_names(b)
    out = []
    for t in range(len(b.tavern_xy)):
        out.append((b.space_led[t], names[b.space_led[t]], "space", space_xy(b, t, hw.scale)))
        out.append((b.pile_led[t], names[b.pile_led[t]], "pile", b.tavern_xy[t]))
    for s in range(len(b.seat_led)):
        out.append((b.seat_led[s], names[b.seat_led[s]], "seat", b.seat_xy[s]))
    out.append((b.port_led, names[b.port_led], "port", b.port_xy))
    for r in range(len(b.round_led)):
        out.append((b.round_led[r], names[b.round_led[r]], "round", b.round_xy[r]))
    return out


def guides(board):
    """The ring the figures walk, space to space, and the round track."""
    n = len(board.space_led)
    ring = [(board.space_led[t], board.space_led[(t + 1) % n]) for t in range(n)]
    return ring + list(zip(board.round_led, board.round_led[1:]))


def landmarks(board):
    """Named discs under the pile lights on the chain picture: the taverns."""
    names = game.pixel_names(board)
    return [(names[board.space_led[t]], board.pile_led[t]) for t in range(len(board.pile_led))]


def cards(board):
    """The NFC stickers: every card the game knows (`game.card_names`)."""
    n = len(game.card_names(board))
    return n, "one per card: %d crew, %d movement, %d Black-Jack" % (
        len(game.CREW_NAMES), len(game.MOVE_NAMES), len(game.BJ_NAMES)), "%d cards" % n


def chain_note(board):
    return ("Taverns: sand discs under their pile pixels; each tavern's space pixel sits "
            "%g mm in front of it, towards the ring's centre. Seats outside, port and round "
            "track inside." % SPACE_INWARD_MM)


def template_note(size_mm):
    """The title block in the top right corner, clear of the ring: (x, y, anchor, wrap)."""
    return size_mm[0] - 6.0, 11.0, "end", 170.0


def readme_fields(board):
    return {
        "taverns": len(board.tavern_xy),
        "seats": len(board.seat_led),
        "rounds": len(board.round_led),
        "space_inward_mm": "%g" % SPACE_INWARD_MM,
        "crew": len(game.CREW_NAMES),
        "moves": len(game.MOVE_NAMES),
        "bj": len(game.BJ_NAMES),
    }
