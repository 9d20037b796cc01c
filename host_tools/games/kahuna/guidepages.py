"""The player's guide: two A4 pages to print and keep beside the board, generated from the
board definition and the firmware's own tables, so it is never stale.

    python -m host_tools guide [--game kahuna] [--board PATH] [--out DIR] [--check]
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


from core import frame as coreframe
from core import menu as coremenu
from core import outcome as oc
from core import tunes
from games.kahuna import game as kahuna
from games.kahuna import rules, solo, takeback, view
from host_tools.documents.guidekit import PAGE_MM, Page, tune_text
from host_tools.documents.svgkit import pdf_pages

OUTPUTS = ("guide-1.svg", "guide-2.svg", "guide.pdf")  # written into docs/

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
    "takeback": "a takeback (hold back): its step's bridges and cards blink",
    "moved": "remote game: the other table's move, its card's island and bridge blink 3 "
             "times in %.1f s" % (coreframe.MOVED_MS / 1000),
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
             "is open; blinks in a takeback",
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
    oc.MOVED: "a remote game: the other table moved",
}

PHASES = ("deal", "handicap", "play", "discard", "draw", "over", "menu")
# What each button does in each phase ("" where it is refused with wrong-phase).
BUTTONS = {
    "next": {"handicap": "next free connection", "play": "next option",
             "menu": "the item's next value"},
    "prev": {"handicap": "previous free connection", "play": "previous option",
             "menu": "the item's previous value"},
    "ok": {"handicap": "place the bridge", "play": "confirm the highlighted option; "
           "nothing to choose: the hint (solo); a takeback: agree, a step done",
           "draw": "confirm (solo)",
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
    "takeback": "at a turn's start, nothing done: takes back the last whole turn (solo: "
                "yours and the board's), R12; below",
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
    solo.WRONG_CARD: "solo game or a takeback: not the card the board asked for",
    takeback.NO_TAKEBACK: "hold back: no whole turn to take back now (R12)",
    takeback.MID_TURN: "hold back mid-turn: back takes this turn's moves back first",
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

# The takeback's walk through the table (games/kahuna/takeback.py), step by kind.
TAKEBACK_STEPS = {
    "agree": "two players: the player on turn agrees with ok, back declines; solo: your "
             "turn and the board's go back at once",
    "bridges": "last move first: lift the bridge that blinks, put back the ones that blink "
               "(a take-over removed them)",
    "cards": "a card it names back from the pile to a hand, or into the board's stack at "
             "the place it says; its tap also confirms",
    "hidden": "the card you drew, your face-down discard: back unseen, never named nor lit",
    "display": "solo: a card back on the display; the card laid after it back on the deck",
    "ok": "confirms each step; a power cut resumes at the same step",
}

MENU_LABELS = {
    "variant": "variant",
    "first": "first player",
    "handicap": "handicap",
    "ai": "the board plays",
    "ai_level": "its level",
}


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
    p.rows([[name, STATUS[name]] for name in sorted(board.status_leds)], (30, 152),
           size=2.5)
    p.heading("Colours")
    names = [n for n in COLOURS if n in board.palette or n in view.DEFAULTS or n == "off"]
    p.rows([[(colour_of(board, n), n.replace("_", " ")), COLOURS[n]] for n in names],
           (38, 144), size=2.5)
    p.heading("Blinks and animations")
    p.rows([
        ["options", "blink every %d ms; the highlighted one is steady" % view.BLINK_MS],
        ["pending card", "its island pulses once every %.1f s" % (view.PULSE_MS / 1000)],
        ["refusal", "three flashes in %d ms of the places involved and the error pixel; "
         "cards tapped face down (deal, draw, discard) never flash their island"
         % coreframe.ERROR_MS],
        ["face-down tap", "the phase pixel dips for %d ms, the same for every card"
         % coreframe.ACK_MS],
        ["round scored", "each player's islands flash in turn for %.1f s"
         % (view.SCORING_MS / 1000)],
        ["game over", "the winner's islands and bridges breathe; a draw alternates"],
    ], (38, 144), size=2.5)
    p.heading("Sounds")
    p.rows([[kind, SOUNDS[kind], tune_text(tunes.SOUNDS[kind])]
            for kind in oc.KINDS + (oc.MOVED,)], (24, 62, 96), size=2.5)
    p.heading("Refusals")
    p.para("Every refusal changes nothing: play on as if it had not happened.", size=2.8)
    p.rows([[code, CODES[code]] for code in CODES], (38, 144), size=2.5)
    return p.svg()


def page_two(board):
    p = Page("Buttons, settings, solo play, takeback", 2)
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
    p.para("Pico W remote code: six island initials (A-K, no I); create lights them in "
           "turn, the first green; join: next/prev.", size=2.8)
    p.heading("Playing against the board (solo)")
    p.para("Choose 'the board plays' in the menu. The board holds real cards too: it never "
           "looks at them. Do what its words ask, in this order when they come:", size=2.8)
    p.rows([[step, SOLO_STEPS[step]] for step in SOLO_STEPS], (22, 160))
    p.para("Lay each bridge the board lights and press ok. With nothing to choose on your "
           "turn, ok shows a hint in its own colour.", size=2.8)
    p.heading("Taking back whole turns (hold back, R12)")
    p.para("Hold back at the start of a turn, nothing done in it. The game is back at "
           "once; then put the table back as the board says, step by step:", size=2.8)
    p.rows([[k, TAKEBACK_STEPS[k]] for k in TAKEBACK_STEPS], (22, 160))
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
