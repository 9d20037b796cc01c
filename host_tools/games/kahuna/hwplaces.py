"""Where Kahuna's pixels sit on the board, and what the maker's documents
(host_tools/documents/hardware.py) say of them: islands at their centres, a bridge's pixel
at the midpoint of its two islands, the status pixels where `hardware.status_xy` in the
board definition puts them, else in a row along the bottom edge beside the Pico."""

from host_tools.documents.hwfigures import StyledKind

TITLE = "Kahuna"
TEMPLATE_TITLE = "Kahuna board: drilling template 1:1"
GROUND = "#d7e9f5"  # the sea, under the chain pictures
CARDS_PER_ISLAND = 2  # docs/rules.md: 24 island cards, 2 per island (HUNA-1, HUNA-2)
STATUS_ROW = (0.18, 0.9625, 0.04)  # first x, y and x step as fractions of the frame

KINDS = (
    StyledKind("island", "blue islands", "#17306e", "#fff", "name"),
    StyledKind("connection", "red bridges", "#8a1c1c", "#fff", "index"),
    StyledKind("status", "green status", "#2d5d1f", "#e8f5e1", "above"),
)


def pixels(hw):
    """(led, name, kind, (x, y) in frame units) of every pixel; hw.xy reads an optional
    position of the hardware section (`hardware.status_xy`)."""
    b = hw.board
    fw, fh = hw.frame
    out = []
    for i, name in enumerate(b.islands):
        out.append((b.island_led[i], name, "island", b.island_xy[i]))
    for k, name in enumerate(b.connections):
        a, c = b.conn_ends[k]
        (xa, ya), (xc, yc) = b.island_xy[a], b.island_xy[c]
        out.append((b.conn_led[k], name, "connection", ((xa + xc) / 2, (ya + yc) / 2)))
    status_xy = hw.section("status_xy")
    status = sorted(b.status_leds.items(), key=lambda kv: kv[1])
    for j, (name, led) in enumerate(status):
        default = ((STATUS_ROW[0] + j * STATUS_ROW[2]) * fw, STATUS_ROW[1] * fh)
        out.append((led, name, "status",
                    hw.xy(status_xy.get(name), "hardware.status_xy." + name, default)))
    return out


def guides(board):
    """Pairs of pixels joined by a faint line on the pictures: the islands of each bridge."""
    return [(board.island_led[a], board.island_led[c]) for a, c in board.conn_ends]


def landmarks(board):
    """Named discs under these pixels on the chain picture: the islands."""
    return [(name, board.island_led[i]) for i, name in enumerate(board.islands)]


def cards(board):
    """The NFC stickers: (cards, what they are, where the count comes from)."""
    n = CARDS_PER_ISLAND * len(board.islands)
    return n, "one per island card", "%d islands x %d cards" % (len(board.islands),
                                                               CARDS_PER_ISLAND)


def chain_note(board):
    return ("Green: status pixels (%s). Islands: sand discs; a bridge's pixel sits at its "
            "midpoint." % ", ".join(sorted(board.status_leds, key=board.status_leds.get)))


def template_note(size_mm):
    """Where the template's title block goes: (x, y, anchor, wrap width in mm or None)."""
    return size_mm[0] / 2, 11.0, "middle", None


def readme_fields(board):
    """The README template's own fields for this game."""
    return {
        "islands": len(board.islands),
        "connections": len(board.connections),
        "status": len(board.status_leds),
        "status_names": ", ".join(sorted(board.status_leds, key=board.status_leds.get)),
    }
