"""Kami on the platform: the game interface (docs/platform.md) that `core.app.App`, the
serial link and the host tools reach the game through. Each name delegates to the module
that holds the concept: the rules (`rules`, the state object), the controller
(`controller`), the view (`view`), the lights (`layout`, `places`), the public state and
the report (`report`).

Every deal of the contract: `table` (the players deal real cards, the board learns each
card as it is played, K20), `given` and `seed` (the board knows the hands). The seats of
setting `ai` are the board's own (`solo`: games/kami/solo.py, ai.py; a known deal only).
"""

from games.kami import controller as _controller
from games.kami import deck as _deck
from games.kami import report as _report
from games.kami import rules as _rules
from games.kami import settings as _settings
from games.kami import view as _view

NAME = "kami"
TITLE = "Kami"
SEATS = ("p1", "p2", "p3", "p4")  # the first `players` of them take part
# K21: only the round's last face-down defence is ever turned up, so a finished game is not
# sent whole over the link (core.link `archive`), which would name every other one.
ARCHIVE = False
seats = _settings.seat_names
check_settings = _settings.check_settings
report = _report.game


# The buttons' settings menu (core.menu): one item per seat light, p1 players, p2 mode, p3
# target. No `first` item: at a table the player drawn first (K10) takes seat p1, which
# keeps every value of every item valid for every player count. The deal stays the
# settings' (a table, by default); the board's own players (setting `ai`) need a known deal
# and come from the link's or the simulator's settings, not from the menu.
MENU = (
    ("players", (4, 3, 2)),
    ("mode", _settings.MODES),  # K18
    ("target", (15, 10, 5)),
)


def menu_pixels(board):
    """The pixels of the settings menu's items: the seat lights p1, p2, p3."""
    return board.seat_led[:len(MENU)]


def menu_settings(settings):
    """The settings as the menu starts from them (check_settings filled the defaults in)."""
    return settings


def card_names(board=None):
    """The 32 cards a tag may be enrolled as (deck.NAMES: SOLDAT-1 .. IMPERATRICE-2)."""
    return _deck.NAMES


class State(_rules.Game):
    """The rules' game, and the seats the board plays (setting `ai`, seat indices)."""

    def __init__(self, s):
        super().__init__(players=s["players"], mode=s["mode"],
                         first=int(s["first"][1:]) - 1, target=s["target"], deal=s["deal"],
                         seed=s["seed"] or 0)
        self.ai_seats = [int(n[1:]) - 1 for n in s.get("ai", ())]
        self.remote_seats = [int(n[1:]) - 1 for n in s.get("remote", ())]


def new_state(board, settings):
    """A new game with `settings` in their JSON form (ValueError for bad ones)."""
    return State(check_settings(settings))


def controller(state):
    return _controller.Controller(state)


def view(board):
    return _view.View(board)


def place_names(board, places):
    """The names of a refusal's places (core.outcome.Outcome.places): the seat light
    `p2` of the seat the board waited for (8.4)."""
    return ["p%d" % (i + 1) for _kind, i in places]


# A face-down defence's card is journaled at a fixed width, its index + DOWN (three digits
# for every card: ["defend", 100] to ["defend", 131]), so that the record, its write to the
# flash and its checksum have the same length whatever the card (8.3: SOLDAT-1..10 are
# indices 0-9, one digit shorter; tests/games/kami/secret_work.py). replay reads both forms.
DOWN = 100


def journal_form(action):
    """The journal's form of a rules action (core.app: the record it writes)."""
    if action[0] == "defend":
        return ("defend", action[1] + DOWN)
    return action


def checkpoint(state):
    """The journal is compacted to the game's state at each round's end (core.app): a
    power cut then replays the round under way, not every round of a long game (up to
    32 KB of records, about 1600, would take seconds at a boot on the RP2040)."""
    return state.round


def replay(state, record):
    """Apply one journal record: a whole-state record or an action (a face-down defence
    in its journal form, or as the action itself, as journals before it had it)."""
    if record[0] == "state":
        state.restore(record[1])
    elif (record[0] == "defend" and len(record) == 2 and type(record[1]) is int
          and record[1] >= DOWN):
        state.apply(("defend", record[1] - DOWN))
    else:
        state.apply(tuple(record))


def resume(state):
    """After a power cut an open 5-Soldier claim not yet answered is dropped (the
    contract): phase play, as before the `discard`."""
    state.drop_claim()


# The link's state (core/link.py StateView): the report's keys without the settings' (they
# are under `settings`); `hands` and `hidden` only while a host asked for them (`reveal`),
# and face-down defences named only then; the claim's cursor, the undo and the frame.
LINK_KEYS = ("phase", "round", "first", "turn", "step", "attack", "passed",
             "empress_unlocked", "lines", "hand_sizes", "hands", "centre", "claim",
             "scores", "rounds", "winner", "hidden")


class PublicState:
    """The link's state of a Kami board, field by field: `raws(app, reveal)` gives every
    field of FIELDS (one pass, after every event), `value(app, name, raw)` its JSON form.
    Before the reveal: no hand, no face-down card named (only its face and origin), no
    set-aside or hidden centre card, no seed (8.3)."""

    FIELDS = LINK_KEYS + ("settings", "ui", "leds")
    HIDDEN = ("hands", "hidden")  # left out while their raw value is None (not revealed)

    @staticmethod
    def raws(app, reveal):
        g = app.game
        rep = _report.game(g) if reveal else _report.public(g)
        r = app.referee
        cur = r.cursor()
        return tuple(rep.get(k) for k in LINK_KEYS) + (
            (app.settings, reveal),
            (None if cur < 0 else SEATS[cur], r.can_undo()),
            bytes(app.view.frame))

    @staticmethod
    def value(app, name, raw):
        if name == "ui":
            return {"cursor": raw[0], "undo": raw[1]}
        if name == "settings":
            settings, reveal = raw
            out = check_settings(settings)  # the defaults filled in
            if not reveal:
                del out["seed"]  # a host could deal the hands with it (8.3)
            return out
        if name == "leds":
            from binascii import hexlify
            return hexlify(raw).decode()
        return raw


public_state = PublicState


def seat_view(state, seat):
    """What seat `seat` (an index) may see besides the public state: its own hand (known
    deals; None at a table) and its own face-down defences; nothing of another seat."""
    return _report.seat_view(state, seat)


def enroll_place(state, card):
    """The place lit while `card` is enrolled: the centre light of its kind's number
    (SOLDAT 0 .. IMPERATRICE 7, eight kinds for eight lights), -1 for another name."""
    c = _deck.index(card)
    return _deck.KIND[c] if c >= 0 else -1


def pixel_names(board):
    """What each pixel of the strip shows, in chain order (bring-up's walk)."""
    names = [""] * board.led_count
    for s in range(len(board.seat_led)):
        names[board.seat_led[s]] = SEATS[s]
        names[board.defence_led[s]] = "defence:" + SEATS[s]
    names[board.empress_led] = "empress"
    for i in range(len(board.centre_led)):
        names[board.centre_led[i]] = "centre:%d" % (i + 1)
    for t in range(len(board.track_led)):
        for k in range(len(board.track_led[t])):
            names[board.track_led[t][k]] = "score:t%d:%d" % (t + 1, k + 1)
    return names


def card_pixel(board, card):
    """The pixel that shows `card` in bring-up: the centre light of its kind."""
    p = enroll_place(None, card)
    return board.centre_led[p] if p >= 0 else -1


def solo(state, controller, clock):
    """The seats played at other tables (`remote`: games/kami/remote.py), the board's
    players when the settings give it seats (`ai`), else None. Imported here, not above:
    a game of people alone pays neither's heap."""
    if getattr(state, "remote_seats", ()):
        from games.kami.remote import Remote
        return Remote(state, controller)
    seats = getattr(state, "ai_seats", ())
    if not seats:
        return None
    from games.kami.solo import Solo
    return Solo(state, controller, list(seats), clock)


def fresh_settings(settings, now, finished=None):
    """A game started at the table (the settings menu, the held new-game button) is played
    at this table: a remote game's other seats come back to it, dealt at the table."""
    if "remote" not in settings:
        return settings
    out = dict(settings)
    del out["remote"]
    out["deal"] = "table"
    return out


def preload():
    """Load the board's players' code while the heap is whole (main.py at boot)."""
    from games.kami import solo  # noqa: F401
