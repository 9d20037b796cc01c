"""The player's guide: two A4 pages to print and keep beside the board, generated from the
board definition and the firmware's own tables, so it is never stale.

    python -m host_tools guide [--board PATH] [--out DIR] [--check]
    make guide

Writes into `docs/` (or --out): `guide-1.svg`, `guide-2.svg` and `guide.pdf` (both pages).
What it reads: the palette and the status pixels (board_def), the view's colours and
timings (games/kahuna/view.py, core/frame.py), the tunes (core/tunes.py), the held buttons
(board_def inputs.hold), the settings menu (games/kahuna/game.py MENU, core/menu.py), the
refusal codes (games/kahuna/rules.py, solo.py, core/outcome.py) and the solo procedure's
steps (games/kahuna/solo.py). The words for each are here;
tests/games/kahuna/test_guide.py fails when the firmware has a colour, code, sound, step,
button or menu item the guide does not explain, and when the files in docs/ are stale.
`--check` compares without writing: exit 1 naming the stale files.
"""

import argparse
import os
import sys
import textwrap
from xml.sax.saxutils import escape

from core import frame as coreframe
from core import menu as coremenu
from core import outcome as oc
from core import tunes
from core.board import BoardError
from core.board import load as load_board
from games.kahuna import game as kahuna
from games.kahuna import rules, solo, view
from host_tools import mpy
from host_tools.documents.svgkit import pdf_pages
from host_tools.paths import BOARD_DEF

DEFAULT_OUT = os.path.join(mpy.ROOT, "docs")
OUTPUTS = ("guide-1.svg", "guide-2.svg", "guide.pdf")
PAGE_MM = (210, 297)
MARGIN = 14
FONT = "DejaVu Sans"
INK = "#14213f"

# ------------------------------------------------------------------ the words

# Every colour the view paints, by its name in the palette or the view's defaults.
COLOURS = {
    "white": "white's bridges and islands; white's turn pixel",
    "black": "black's bridges and islands; black's turn pixel",
    "free": "a free connection (no bridge yet)",
    "uncontrolled": "an island nobody controls",
    "option_place": "the highlighted place for your bridge (steady); the others blink in "
                    "your colour",
    "option_remove": "an opponent bridge you may remove (blinks; steady when highlighted)",
    "pending": "the island of a card you tapped and have not played yet (pulses)",
    "hint": "the move the board would make in your place (solo game, ok with nothing "
            "to choose)",
    "error": "a refusal: the places involved and the error pixel flash three times",
    "phase_deal": "phase pixel: the deal",
    "phase_handicap": "phase pixel: handicap bridges",
    "phase_play": "phase pixel: play cards, build and remove bridges",
    "phase_draw": "phase pixel: draw a card (or done to decline)",
    "phase_discard": "phase pixel: discard mode",
    "phase_final": "phase pixel: the final turns of round 3",
    "off": "off: nothing there",
}

# The status pixels of board_def, and what they say.
STATUS = {
    "turn_white": "lit in white's colour while white is to play",
    "turn_black": "lit in black's colour while black is to play",
    "phase": "the phase, by colour (below); it dips once, briefly, to acknowledge a card "
             "tapped face down (the same for every card); violet while the settings menu "
             "is open",
    "error": "flashes with a refusal; blinks slowly while the card reader does not answer; "
             "blinks while the menu asks you to confirm abandoning a game",
}

SOUNDS = {
    oc.ACCEPTED: "accepted",
    oc.REFUSED: "refused: look at the flashing lights",
    oc.ROUND_END: "a round is scored",
    oc.GAME_OVER: "the game is over",
    oc.NEW_GAME: "a new game starts",
    oc.MENU: "a step in the settings menu",
}

PHASES = ("deal", "handicap", "play", "discard", "draw", "over", "menu")
# What each button does in each phase ("" where it is refused with wrong-phase).
BUTTONS = {
    "next": {"handicap": "next free connection", "play": "next option",
             "menu": "the item's next value"},
    "prev": {"handicap": "previous free connection", "play": "previous option",
             "menu": "the item's previous value"},
    "ok": {"handicap": "place the bridge", "play": "confirm the highlighted option; "
           "nothing to choose: the hint (solo)", "draw": "confirm (solo)",
           "menu": "the next item"},
    "back": {"play": "withdraw pending cards, or take back the turn's last action (R10)",
             "draw": "back to the play phase (nothing drawn yet)",
             "menu": "the previous item; on the first, leave"},
    "done": {"play": "end the play phase", "discard": "stop discarding",
             "draw": "decline to draw (the opponent must draw, R4)",
             "menu": "start a new game with these settings (twice during a game)"},
    "discard": {"play": "discard mode: tap each card to discard", "draw": "discard mode "
                "(a full hand must discard before drawing, R3)", "menu": "leave, nothing "
                "changed"},
}
HOLDS = {
    "menu": "opens the settings menu, at any moment",
    "new-game": "starts a new game with the same settings, once this one is over",
}

CODES = {
    rules.WRONG_PHASE: "not now: the phase or the open choice does not allow it",
    rules.UNKNOWN_CARD: "a tag that is none of the 24 cards (enrol it first)",
    rules.NOT_IN_HAND: "the card is not in the hand of the player to play",
    rules.NOT_DRAWABLE: "the card was dealt or drawn already",
    rules.HAND_FULL: "five cards in hand: discard first (R3)",
    rules.MUST_DRAW: "the last turn declined: this one must draw (R4)",
    rules.NO_OPTION: "the card allows no bridge and no removal now",
    rules.BAD_PAIR: "two cards that name no opponent bridge to remove",
    rules.NOT_OFFERED: "that connection is not among the options",
    solo.WRONG_CARD: "solo game: not the card the board asked for",
    oc.STORAGE: "the move could not be saved on the board's flash: nothing changed",
}

SOLO_STEPS = {
    solo.DISPLAY: "lay the deck's top card face up on the display and tap it",
    solo.DEAL: "the board's card of the deal: tap it without looking, put it face down on "
               "the board's stack",
    solo.THINK: "the board is thinking (the phase pixel keeps the phase)",
    solo.TAP: "the board plays the n-th card of its stack: turn it up and tap it",
    solo.CONFIRM: "lay (or take off) the bridge the board lights, then ok",
    solo.DISCARD: "the board discards its n-th card: tap it face down, put it on the "
                  "pile face down",
    solo.TAKE: "the board takes the card it names from the display: tap it, put it on "
               "top of its stack",
    solo.DRAW: "the board draws: lay the deck's top card face down on the scanner, then "
               "on top of its stack",
    solo.HINT: "you asked for a hint: the board lights the move it would make for you",
}

MENU_LABELS = {
    "variant": "variant",
    "first": "first player",
    "handicap": "handicap",
    "ai": "the board plays",
    "ai_level": "its level",
}


NOTES = ("C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B")


def note_name(hz):
    """2093 -> "C7" (equal temperament, A4 = 440 Hz)."""
    import math
    n = round(12 * math.log2(hz / 440.0)) + 57  # semitones from C0
    return "%s%d" % (NOTES[n % 12], n // 12)


def tune_text(notes):
    parts = []
    for hz, ms in notes:
        parts.append("rest %d ms" % ms if hz == 0 else "%s %d ms" % (note_name(hz), ms))
    return ", ".join(parts)


# ------------------------------------------------------------------ drawing

def _n(v):
    return ("%.2f" % v).rstrip("0").rstrip(".")


def _hex(rgb):
    return "#%02x%02x%02x" % tuple(rgb)


class Page:
    """An A4 page in millimetres, written top to bottom."""

    def __init__(self, title, number):
        self.out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%dmm" height="%dmm" '
                    'viewBox="0 0 %d %d">' % (PAGE_MM + PAGE_MM),
                    '<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>' % PAGE_MM]
        self.y = MARGIN + 4
        self.text(MARGIN, self.y, title, 6.2, weight="bold")
        self.text(PAGE_MM[0] - MARGIN, self.y, "page %d of 2" % number, 3, anchor="end")
        self.y += 3
        self.out.append('<line x1="%d" y1="%s" x2="%d" y2="%s" stroke="%s" '
                        'stroke-width="0.4"/>' % (MARGIN, _n(self.y), PAGE_MM[0] - MARGIN,
                                                  _n(self.y), INK))
        self.y += 6

    def text(self, x, y, s, size, anchor="start", weight="normal", fill=INK):
        self.out.append('<text x="%s" y="%s" font-family="%s" font-size="%s" '
                        'text-anchor="%s" font-weight="%s" fill="%s">%s</text>'
                        % (_n(x), _n(y), FONT, _n(size), anchor, weight, fill, escape(s)))

    def heading(self, s):
        self.y += 2
        self.text(MARGIN, self.y, s, 4.4, weight="bold")
        self.y += 5

    def para(self, s, size=3.0, x=MARGIN, width=PAGE_MM[0] - 2 * MARGIN):
        for line in wrap(s, width, size):
            self.text(x, self.y, line, size)
            self.y += size * 1.3
        self.y += 0.8

    def swatch(self, x, y, rgb, size=3.2):
        self.out.append('<rect x="%s" y="%s" width="%s" height="%s" rx="0.6" fill="%s" '
                        'stroke="#777" stroke-width="0.2"/>'
                        % (_n(x), _n(y - size + 0.5), _n(size), _n(size), _hex(rgb)))

    def rows(self, rows, widths, size=2.8, header=None):
        """A table: `rows` of cells (text, or (rgb, text) for a colour swatch first)."""
        x0 = MARGIN
        if header:
            x = x0
            for cell, w in zip(header, widths):
                self.text(x, self.y, cell, size, weight="bold")
                x += w
            self.y += size * 1.4
        for row in rows:
            x = x0
            height = 1
            for cell, w in zip(row, widths):
                rgb = None
                if isinstance(cell, tuple):
                    rgb, cell = cell
                lines = wrap(cell, w - (5 if rgb else 1.5), size)
                if rgb is not None:
                    self.swatch(x, self.y, rgb)
                for i, line in enumerate(lines):
                    self.text(x + (5 if rgb else 0), self.y + i * size * 1.25, line, size)
                height = max(height, len(lines))
                x += w
            self.y += height * size * 1.25 + 0.9

    def chips(self, label, chips, label_w=44, size=2.8):
        """A row: `label`, then (rgb, text) chips, each a swatch and its words, wrapped."""
        self.text(MARGIN, self.y, label, size)
        x = MARGIN + label_w
        right = PAGE_MM[0] - MARGIN
        for rgb, words in chips:
            w = 5 + len(words) * size * 0.55 + 3
            if x + w > right:
                x = MARGIN + label_w
                self.y += size * 1.6
            self.swatch(x, self.y, rgb)
            self.text(x + 4.4, self.y, words, size)
            x += w
        self.y += size * 1.6 + 0.6

    def svg(self):
        if self.y > PAGE_MM[1] - MARGIN:
            raise ValueError("the guide's page runs over by %.0f mm"
                             % (self.y - (PAGE_MM[1] - MARGIN)))
        return "\n".join(self.out + ["</svg>"]) + "\n"


def wrap(text, width_mm, size):
    """Lines of at most `width_mm` for DejaVu Sans at `size` mm (about 0.55 em a char)."""
    chars = max(8, int(width_mm / (size * 0.55)))
    return textwrap.wrap(text, chars) or [""]


# ------------------------------------------------------------------ the pages

def colour_of(board, name):
    if name in board.palette:
        return board.palette[name]
    if name == "off":
        return coreframe.OFF
    return view.DEFAULTS[name]


def page_one(board):
    p = Page("The %s board: a player's guide" % kahuna.TITLE, 1)
    p.para("The board referees every rule, keeps the score and plays a side if you wish. "
           "Tap a card on the scanner to play it; the buttons choose and confirm. When the "
           "board refuses something it says why: two low beeps, the error pixel and the "
           "places involved flash, and a screen (if one is connected) shows the reason.")
    p.heading("The status pixels")
    p.rows([[name, STATUS[name]] for name in sorted(board.status_leds)], (30, 152))
    p.heading("Colours")
    names = [n for n in COLOURS if n in board.palette or n in view.DEFAULTS or n == "off"]
    p.rows([[(colour_of(board, n), n.replace("_", " ")), COLOURS[n]] for n in names],
           (38, 144))
    p.heading("Blinks and animations")
    p.rows([
        ["options", "blink every %d ms; the highlighted one is steady" % view.BLINK_MS],
        ["pending card", "its island pulses once a %.1f s" % (view.PULSE_MS / 1000)],
        ["refusal", "three flashes in %d ms of the places involved and the error pixel; "
         "cards tapped face down (deal, draw, discard) never flash their island"
         % coreframe.ERROR_MS],
        ["face-down tap", "the phase pixel dips for %d ms, the same for every card"
         % coreframe.ACK_MS],
        ["round scored", "each player's islands flash in turn for %.1f s"
         % (view.SCORING_MS / 1000)],
        ["game over", "the winner's islands and bridges breathe; a draw alternates"],
    ], (38, 144))
    p.heading("Sounds")
    p.rows([[kind, SOUNDS[kind], tune_text(tunes.SOUNDS[kind])] for kind in oc.KINDS],
           (24, 62, 96))
    p.heading("Refusals")
    p.para("Every refusal changes nothing: play on as if it had not happened.", size=2.8)
    p.rows([[code, CODES[code]] for code in CODES], (38, 144))
    return p.svg()


def page_two(board):
    p = Page("Buttons, settings, solo play", 2)
    p.heading("The buttons in each phase")
    rows = []
    for role in BUTTONS:
        rows.append([role] + [BUTTONS[role].get(ph, "-") for ph in PHASES])
    p.rows(rows, (14, 20, 24, 28, 22, 26, 10, 38), size=2.4,
           header=["", "deal", "handicap", "play", "discard", "draw", "over", "menu"])
    p.para("In the deal, tap your cards; in the draw phase, tap the card you took. Held "
           "down for a second:", size=2.8)
    hold = board.inputs.get("hold") or {}
    p.rows([["hold " + role, HOLDS[action]] for role, action in sorted(hold.items())],
           (30, 152))
    p.heading("The settings menu")
    pixels = kahuna.menu_pixels(board)
    led_place = dict((board.island_led[i], board.islands[i])
                     for i in range(len(board.islands)))
    colours = coremenu.VALUE_COLOURS
    for n, ((key, values), led) in enumerate(zip(kahuna.MENU, pixels)):
        p.chips("%d %s (%s)" % (n + 1, MENU_LABELS[key], led_place.get(led, led)),
                [(colours[i % len(colours)], value_text(key, v))
                 for i, v in enumerate(values)])
    p.para("The item being set pulses; its value is its colour. next/prev change it, ok "
           "and back move between items, discard leaves, done starts the game (twice while "
           "one is under way: the first done makes the error pixel blink).", size=2.8)
    p.heading("Playing against the board (solo)")
    p.para("Choose 'the board plays' in the menu. The board holds real cards too: it never "
           "looks at them. Do what its words ask, in this order when they come:", size=2.8)
    p.rows([[step, SOLO_STEPS[step]] for step in SOLO_STEPS], (22, 160))
    p.para("Lay each bridge the board lights and press ok. With nothing to choose on your "
           "turn, ok shows a hint in its own colour.", size=2.8)
    return p.svg()


def value_text(key, v):
    if v is None:
        return "none" if key == "handicap" else "nobody"
    if isinstance(v, list):
        return "%s %d" % (v[0], v[1])
    return str(v)


def build(board):
    pages = [page_one(board), page_two(board)]
    pdf = pdf_pages(pages, PAGE_MM, "%s board: player's guide" % kahuna.TITLE)
    return {"guide-1.svg": pages[0].encode(), "guide-2.svg": pages[1].encode(),
            "guide.pdf": pdf}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools guide",
                                 description="Write the player's guide (docs/guide-*.svg, "
                                             "docs/guide.pdf) from the board definition "
                                             "and the firmware's tables.")
    ap.add_argument("--board", default=BOARD_DEF, help="board definition (default: %(default)s)")
    ap.add_argument("--out", default=DEFAULT_OUT, help="folder (default: %(default)s)")
    ap.add_argument("--check", action="store_true",
                    help="compare with the files in --out instead of writing; exit 1 if stale")
    args = ap.parse_args(argv)
    try:
        board = load_board(args.board)
    except BoardError as e:
        print("guide: %s" % e, file=sys.stderr)
        return 2
    files = build(board)
    if args.check:
        stale = []
        for name in OUTPUTS:
            path = os.path.join(args.out, name)
            if not os.path.isfile(path) or open(path, "rb").read() != files[name]:
                stale.append(name)
        if stale:
            print("guide: stale in %s: %s (make guide)" % (args.out, ", ".join(stale)),
                  file=sys.stderr)
            return 1
        print("guide: %s is up to date" % args.out)
        return 0
    if not os.path.isdir(args.out):
        print("guide: no folder %s" % args.out, file=sys.stderr)
        return 2
    for name in OUTPUTS:
        path = os.path.join(args.out, name)
        with open(path + ".new", "wb") as f:
            f.write(files[name])
        os.replace(path + ".new", path)
    print("guide: wrote %s" % ", ".join(os.path.join(args.out, n) for n in OUTPUTS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
