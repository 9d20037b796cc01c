"""Halunken & Spelunken on the platform: the game interface (docs/platform.md) that
`core.app.App`, the serial link and the host tools reach the game through. Each name
delegates to the module that holds the concept: the rules (`rules`, the state object),
the controller (`controller`), the view (`view`), the public state (`report`).

Every deal of the contract: at a table (`deal=table`, the default) the board learns each
crew card and Black-Jack's turned card as it is tapped; with a dealt deck (`deal=seed`,
`deal=given`) it makes the takes itself (H33). The seats of setting `ai` are the board's
(`solo`; with a dealt deck so far).
"""

from games.halunken import controller as _controller
from games.halunken import deck, rules
from games.halunken import report as _report
from games.halunken import settings as _settings
from games.halunken import view as _view

NAME = "halunken"
TITLE = "Halunken & Spelunken"
SEATS = ("p1", "p2", "p3", "p4")  # 2 to 4 of them play (H17): seats(players)
CREW_NAMES = tuple(deck.crew_name(c) for c in range(deck.CREW))
# Movement cards P1-1..P4-RUM (in tactical the P3 set is Black-Jack's, H26), then
# Black-Jack's standard deck BJ-1..BJ-12.
MOVE_NAMES = tuple(deck.move_name("P%d" % (s + 1), m) for s in range(4)
                   for m in range(deck.MOVES))
BJ_NAMES = tuple("BJ-%d" % k for k in range(1, 13))
CARD_NAMES = CREW_NAMES + MOVE_NAMES + BJ_NAMES

check_settings = _settings.check_settings

# A place lit while a card is enrolled (`enroll_place`, the view's `highlight`): the seat
# light of a movement card's seat, the port light for crew cards and Black-Jack's cards.
_PORT = -2


def seats(players):
    return SEATS[:players]


def card_names(board):
    """The 86 cards a tag may be enrolled as, in a fixed order: 42 crew cards (H1), the
    four seats' movement cards, Black-Jack's 12."""
    return CARD_NAMES


class State(rules.Game):
    """The rules' game, and the seats the board plays (setting `ai`, seat indices)."""

    def __init__(self, settings):
        super().__init__(settings)
        self.ai_seats = [int(s[1:]) - 1 for s in settings.get("ai", ())]


def new_state(board, settings):
    """A new game from settings in their JSON form; the rules need nothing of `board`.
    The seats' colours (H31) ride along for the view: `colours`, None or a colour or None
    per seat."""
    checked = check_settings(settings)
    state = State(checked)
    state.colours = _settings.seat_colours(checked)
    return state


def fresh_settings(settings, entropy):
    """A new game started at the table (core.app): a seeded deal takes a new seed, mixed
    from the last one and `entropy` (the ms of the press), so that a new game is a new
    deal; a given deal stays as it is."""
    checked = check_settings(settings)  # the deal's defaults made explicit
    if checked["deal"] != "seed":
        return settings
    checked["seed"] = (checked["seed"] * 1103515245 + 12345 + entropy) & 0x7FFFFFFF
    return checked


def controller(state):
    return _controller.Controller(state)


def view(board):
    return _view.View(board)


def replay(state, record):
    """Apply one journal record: a whole-state record or an action (lists come back from
    the journal's JSON as lists: actions are tuples)."""
    if record[0] == "state":
        state.restore(record[1])
    else:
        state.apply(tuple(record))


def resume(state):
    """A state read back from the journal: nothing to tidy. The one thing the journal does
    not keep, an option list's cursor, is the controller's, new at boot (first option)."""


def report(state):
    """The JSON report's game keys, in the contract's order (no `rejected`, no `leds`)."""
    return _report.game(state)


public_state = _report.PublicState
place_names = _report.place_names


def move_card_name(state, fig, m):
    """The name of movement card `m` of figure `fig` (Black-Jack's by the mode)."""
    return _report.move_name(state, fig, m)


def seat_view(state, seat):
    """What seat `seat` (an index) may see besides the public state: its own secret
    choice, and as W in tactical Black-Jack's (8.3)."""
    v = state.seat_view(seat)
    out = {"choice": None if v["choice"] < 0 else move_card_name(state, seat, v["choice"])}
    if "bj_choice" in v:
        out["bj_choice"] = (None if v["bj_choice"] < 0
                            else move_card_name(state, rules.BJ, v["bj_choice"]))
    return out


def _place(card):
    if card in MOVE_NAMES:
        return int(card[1]) - 1
    return _PORT


def enroll_place(state, card):
    """The place lit while `card` is enrolled: a seat index for a movement card (its
    seat's light), else -2 (the port's light). The view's `highlight` is a pixel: the
    app hands this to the view, which maps it (`View.render`)."""
    return _place(card)


def pixel_names(board):
    """What each pixel of the strip shows, in chain order (bring-up's walk)."""
    names = [""] * board.led_count
    for t in range(len(board.space_led)):
        names[board.space_led[t]] = deck.space_name(t)
        names[board.pile_led[t]] = "pile:" + deck.space_name(t)
    for s in range(len(board.seat_led)):
        names[board.seat_led[s]] = SEATS[s]
    names[board.port_led] = "port"
    for r in range(len(board.round_led)):
        names[board.round_led[r]] = "round:%d" % (r + 1)
    return names


def card_pixel(board, card):
    """The pixel that shows `card`: its seat's light, or the port's."""
    p = _place(card)
    return board.port_led if p == _PORT else board.seat_led[p]


def solo(state, controller, clock):
    """The board's players when the settings give it seats (`ai`), else None. Imported
    here, not above: a game of people alone does not pay the player's heap."""
    seats = getattr(state, "ai_seats", ())
    if not seats:
        return None
    from games.halunken.solo import Solo
    return Solo(state, controller, list(seats), clock)


def preload():
    """Load the board's players' code while the heap is whole (main.py at boot)."""
    from games.halunken import solo  # noqa: F401
