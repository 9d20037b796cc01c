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


def card_value_range(card):
    """(low, high) for a card whose tag records a value at enrolment, else None: the crew
    cards (H2: "leur valeur est indiquée par le chiffre inscrit dessus"), 0 to 99 as the
    `values` setting; movement and Black-Jack's cards are their names' numbers."""
    return _settings.VALUE_RANGE if card in CREW_NAMES else None


def enrolled_settings(settings, values):
    """The settings a new game starts with on a board whose registry records `values`
    ({crew name: value}, the enrolled tags', H2): at a table (`deal=table`, the physical
    cards) those values, over the settings' `values` card by card (a card whose tag
    records none keeps the setting's value or its default); a dealt deck (seed, given) is
    virtual and plays the default table, or the settings' `values`, as before. The
    settings come back as given when nothing changes; else a copy whose `values` the
    journal's new-game record keeps, so a resumed game plays the same values whatever is
    enrolled meanwhile."""
    if not values or check_settings(settings)["deal"] != "table" or "remote" in settings:
        return settings  # a remote game plays the dealer's values
    table = dict(settings.get("values") or {})
    table.update(values)
    if table == settings.get("values"):
        return settings
    out = dict(settings)
    out["values"] = table
    return out


class State(rules.Game):
    """The rules' game, the seats the board plays (setting `ai`, seat indices) and the
    match it belongs to (H16, settings `games` and `match`): `game_k` of `games`, with
    `carried`, each seat's points of the games before. A match's progress is in the
    settings, so the journal's new-game record keeps it through a power cut."""

    def __init__(self, settings):
        super().__init__(settings)
        self.ai_seats = [int(s[1:]) - 1 for s in settings.get("ai", ())]
        self.remote_seats = [int(s[1:]) - 1 for s in settings.get("remote", ())]
        self.games = settings.get("games", 1)
        m = settings.get("match")
        self.game_k = m["game"] if m else 1
        self.carried = [m["totals"][SEATS[s]] if m else 0 for s in range(self.players)]

    def totals(self):
        """Each seat's match total: the games before plus this game's score (H16)."""
        return [self.carried[s] + self.score(s) for s in range(self.players)]

    def match_over(self):
        return self.is_over() and self.game_k == self.games

    def end_winners(self):
        """The seats the end of the game lights (8.1): at the end of a match's last game
        the highest totals (H16; equal highest all win, as H15), else this game's."""
        if self.games == 1 or not self.match_over():
            return self.winners()
        t = self.totals()
        return [s for s in range(self.players) if t[s] == max(t)]


def new_state(board, settings):
    """A new game from settings in their JSON form; the rules need nothing of `board`.
    The seats' colours (H31) ride along for the view: `colours`, None or a colour or None
    per seat."""
    checked = check_settings(settings)
    state = State(checked)
    state.colours = _settings.seat_colours(checked)
    return state


def fresh_settings(settings, entropy, finished=None):
    """A new game started at the table (core.app): a seeded deal takes a new seed, mixed
    from the last one and `entropy` (the ms of the press), so that a new game is a new
    deal; a given deal stays as it is (a table deal is a new physical set-up anyway).

    A match (H16, `games` > 1): after `finished`, a game of the match that is over and not
    its last, the next game of the match, the totals carried; otherwise (the match's last
    game was over, or the menu starts a game: `finished` None) a new match from game 1. A
    stale `match` is dropped before the settings are checked, so the menu may change
    `games` mid-match."""
    if "remote" in settings:  # a game started at the table is this table's alone
        settings = dict(settings)
        del settings["remote"]
    given = settings
    settings = dict(settings)
    stale = settings.pop("match", None)
    checked = check_settings(settings)  # the deal's defaults made explicit
    games = checked.get("games", 1)
    if checked["deal"] != "seed" and games == 1 and stale is None:
        return given
    out = checked if checked["deal"] == "seed" else settings
    if games > 1:
        if (finished is not None and finished.is_over()
                and getattr(finished, "game_k", games) < games):
            t = finished.totals()
            out["match"] = {"game": finished.game_k + 1,
                            "totals": {SEATS[s]: t[s] for s in range(len(t))}}
        else:
            out["match"] = checked["match"]  # game 1, nothing carried
    if checked["deal"] == "seed":
        out["seed"] = (checked["seed"] * 1103515245 + 12345 + entropy) & 0x7FFFFFFF
    return out


# The buttons' settings menu (core.menu): one item per seat light, p1 players, p2 mode, p3
# games (H16). The mode's values that disagree with the players (H17) are refused with
# bad-settings at `done`; the deal, `first` and the board's seats stay the settings'.
MENU = (
    ("players", (3, 4, 2)),
    ("mode", _settings.MODES),
    ("games", tuple(range(1, _settings.GAMES_MAX + 1))),
)


def menu_pixels(board):
    """The pixels of the settings menu's items: the seat lights p1, p2, p3."""
    return board.seat_led[:len(MENU)]


def menu_settings(settings):
    """The settings as the menu starts from them: `games` 1 made explicit (check_settings
    leaves a one-game setting without it)."""
    if "games" not in settings:
        settings = dict(settings)
        settings["games"] = 1
    return settings


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
    """The seats played at other tables (`remote`: games/halunken/remote.py), the board's
    players when the settings give it seats (`ai`), else None. Imported here, not above:
    a game of people alone pays neither's heap."""
    if getattr(state, "remote_seats", ()):
        from games.halunken.remote import Remote
        return Remote(state, controller)
    seats = getattr(state, "ai_seats", ())
    if not seats:
        return None
    from games.halunken.solo import Solo
    return Solo(state, controller, list(seats), clock)


def preload():
    """Load the board's players' code while the heap is whole (main.py at boot)."""
    from games.halunken import solo  # noqa: F401
