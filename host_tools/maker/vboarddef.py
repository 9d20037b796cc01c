"""The virtual board's parts, as its board definition has them: the cards of its game and
the virtual NTAG213 sticker on each, its buttons, the pins it wires. The board definition is
the one flashed on the board (DIR/board.json), else the project's (board_def)."""

import hashlib
import json

from core import board as boardmod
from core import gameload
from core.files import BOARD_FILE, CARDS_FILE
from host_tools.paths import BOARD_DEF


def _project_board():
    """The project's board definition, checked (None if it does not load)."""
    try:
        return boardmod.load(BOARD_DEF, keep_raw=False)
    except boardmod.BoardError:
        return None


def example_card():
    """A card of this board to show in help texts: its game's first card."""
    board = _project_board()
    if board is None:
        return "CARD-1"
    return gameload.load(board.game).card_names(board)[0]


def board_pin(key):
    """A GPIO the board definition wires (its hardware's `pins`), or None."""
    board = _project_board()
    return None if board is None else board.pins.get(key)


def sticker_uid(card):
    """The UID of the virtual NTAG213 sticker on `card`: the same every time, so a card
    enrolled once is known on every later tap. NXP UIDs start with 04."""
    return "04" + hashlib.sha256(("kahuna-vboard " + card).encode()).hexdigest()[:12].upper()


def _board_def(board_dir):
    """The board definition the board in `board_dir` runs (flashed with it), else the
    project's."""
    for path in (board_dir + BOARD_FILE, BOARD_DEF):
        try:
            with open(path) as f:
                return json.load(f)
        except (OSError, ValueError):
            continue
    return {}


def card_names(board_dir):
    """The cards of the board's game, by its board definition ([] if it is broken)."""
    try:
        board = boardmod.parse(_board_def(board_dir), keep_raw=False)
    except boardmod.BoardError:
        return []
    return gameload.load(board.game).card_names(board)


def buttons(board_dir):
    """{name: GPIO} of the board's buttons, from its board definition."""
    pins = _board_def(board_dir).get("hardware", {}).get("pins", {})
    buttons = dict(pins.get("buttons", {}))
    return {k: v for k, v in buttons.items() if isinstance(v, int)}


def card_uid(board_dir, card):
    """The UID to lay on the reader for `card`: `uid:HEX` as given; a card name as the
    board's registry (/cards.json) knows it, else its virtual sticker (sticker_uid)."""
    if card.lower().startswith("uid:"):
        return card[4:]
    card = card.upper()
    if card not in card_names(board_dir):
        return None
    try:
        with open(board_dir + CARDS_FILE) as f:
            registry = json.load(f)
        for uid, name in registry.items():
            if name == card:
                return uid
    except (OSError, ValueError, AttributeError):
        pass
    return sticker_uid(card)
