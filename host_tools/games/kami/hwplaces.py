"""Where Kami's pixels sit around the card table, and what the maker's documents
(host_tools/documents/hardware.py) say of them: every light where the layout puts it (a
score track's 15 lights evenly from its first position to its last). Names are the
firmware's own (`game.pixel_names`: what bring-up says)."""

from games.kami import game
from host_tools.documents.hwfigures import StyledKind

TITLE = "Kami"
TEMPLATE_TITLE = "Kami card table: drilling template 1:1"
GROUND = "#dbe8d5"  # the table's cloth

KINDS = (
    StyledKind("seat", "green seats", "#2d5d1f", "#e8f5e1", "name"),
    StyledKind("defence", "blue defences", "#17306e", "#fff", "index"),
    StyledKind("empress", "magenta Empress", "#8c0f5e", "#f7dcec", "name"),
    StyledKind("centre", "brown centre stacks", "#7a4a00", "#fff3c4", "index"),
    StyledKind("score", "red score tracks", "#8a1c1c", "#fff", "index"),
)


def track_xy(board, t, k):
    """Light k (0 = point 1) of track t, evenly from its first position to its last."""
    (x1, y1), (x2, y2) = board.track_xy[t]
    n = len(board.track_led[t]) - 1
    return (x1 + (x2 - x1) * k / n, y1 + (y2 - y1) * k / n)


def pixels(hw):
    """(led, name, kind, (x, y) in frame units) of every pixel."""
    b = hw.board
    names = game.pixel_names(b)
    out = []
    for s in range(len(b.seat_led)):
        out.append((b.seat_led[s], names[b.seat_led[s]], "seat", b.seat_xy[s]))
        out.append((b.defence_led[s], names[b.defence_led[s]], "defence", b.defence_xy[s]))
    out.append((b.empress_led, names[b.empress_led], "empress", b.empress_xy))
    for i in range(len(b.centre_led)):
        out.append((b.centre_led[i], names[b.centre_led[i]], "centre", b.centre_xy[i]))
    for t in range(len(b.track_led)):
        for k, led in enumerate(b.track_led[t]):
            out.append((led, names[led], "score", track_xy(b, t, k)))
    return out


def guides(board):
    """The score tracks, point to point, and the row of centre stacks."""
    out = []
    for track in board.track_led:
        out += list(zip(track, track[1:]))
    return out + list(zip(board.centre_led, board.centre_led[1:]))


def landmarks(board):
    """Named discs under the seat lights on the chain picture: the seats."""
    return [(game.SEATS[s], led) for s, led in enumerate(board.seat_led)]


def cards(board):
    """The NFC stickers: every card the game knows (`game.card_names`)."""
    n = len(game.card_names(board))
    return n, "one per card", "%d cards" % n


def chain_note(board):
    return ("Seats: sand discs at the table's edges, each seat's defence light in front of "
            "it; the Empress and the 2-player centre stacks in the middle; score tracks "
            "t1 above, t2 and t3 below.")


def template_note(size_mm):
    """The title block at the top, in the middle: (x, y, anchor, wrap width)."""
    return size_mm[0] / 2, 11.0, "middle", None


def lights_for(board, players):
    """The lights of rules 8.1 one game of `players` shows: a seat and a defence light
    per seat, the Empress, the centre stacks (2 players), a score track per side (2 in 2
    and 4 players, 3 in 3 players)."""
    centre = len(board.centre_led) if players == 2 else 0
    sides = 3 if players == 3 else 2
    return 2 * players + 1 + centre + sides * len(board.track_led[0])


def readme_fields(board):
    return {
        "seats": len(board.seat_led),
        "centre": len(board.centre_led),
        "tracks": len(board.track_led),
        "track_len": len(board.track_led[0]),
        "lights_2p": lights_for(board, 2),
        "lights_3p": lights_for(board, 3),
        "lights_4p": lights_for(board, 4),
    }
