"""Kahuna on the platform: the game interface (docs/platform.md) that `core.app.App`, the
serial link and the host tools reach the game through. Each name delegates to the module
that holds the concept: the rules (`rules`), the controller (`referee`), the view
(`view`), the public state (`report`), the board's own player (`solo`, `ai`).
"""

from games.kahuna import referee as _referee
from games.kahuna import report as _report
from games.kahuna import rules as _rules
from games.kahuna import settings as kahunasettings
from games.kahuna import view as _view
from games.kahuna.turns import TurnLog

NAME = "kahuna"
TITLE = "Kahuna"  # what a tag's NDEF text starts with: "Kahuna HUNA-1"
SEATS = _rules.PLAYERS  # ("white", "black"): one seat acts at a time

# The buttons' settings menu (core.menu): each setting and its values, in the order the
# menu shows them; item n is lit on the n-th island (`menu_pixels`), its value by colour.
MENU = (
    ("variant", (kahunasettings.STANDARD, kahunasettings.ALTERNATIVE)),
    ("first", ("white", "black")),
    ("handicap", (None, ["white", 1], ["white", 2], ["white", 3],
                  ["black", 1], ["black", 2], ["black", 3])),
    ("ai", (None, "white", "black")),  # the side the board plays: nobody, white, black
    ("ai_level", (1, 2, 3)),
)

card_names = kahunasettings.card_names  # two cards per island: ALOA-1, ALOA-2, ...
check_settings = kahunasettings.check_settings


def new_state(board, settings):
    """A new game with `settings` in their JSON form (ValueError for bad ones); it keeps
    its last turns for a takeback (games.kahuna.turns)."""
    state = kahunasettings.Settings.from_json(board, settings).new_game()
    state.turns = TurnLog()
    return state


def controller(state):
    return _referee.Referee(state)


def view(board):
    return _view.View(board)


def replay(state, record):
    """Apply one journal record of the game: a whole-state record or an action. Raises
    `core.outcome.Rejected` or ValueError/TypeError/IndexError/KeyError when it does not
    replay."""
    if record[0] == "state":
        state.restore(record[1])
    elif record[0] == "takeback" or record[0] == "tb":
        from games.kahuna import takeback  # loaded only for a takeback
        if record[0] == "tb":
            takeback.confirm(state)
        else:
            takeback.begin(state, int(record[1]))
    else:
        state.apply(tuple(record))


def resume(state):
    """A state read back from the journal: a free refill on offer is an open option list,
    and a reboot drops it like any pending move (the journal says so)."""
    if state.refill != _rules.NOBODY:
        state.skip_refill()
    if state.turns is not None and state.turns.walk is None:
        from core.unload import unload  # a takeback replayed and done: its code goes
        unload(("games.kahuna.takeback", "games.kahuna.turnread"))


def enroll_place(state, card):
    """The island lit while `card` is enrolled (card c belongs to island c // 2)."""
    return state.card_index[card] // 2


def report(state):
    """The game's fields of the simulator's JSON report (docs/scenarios.md)."""
    return _report.game(state)


def public_move(state, record):
    """A journal record as the link's `moves` may send it while the game is on: the
    card of a deal, a draw or a discard unnamed, a played card by its island (which the
    lights show), the solo game's table (the AI's stack) left out (None). A finished
    game's records go whole: its cards are no secret any more."""
    kind = record[0]
    if state.phase == _rules.OVER or kind in ("new", "state"):
        return record if kind != "state" else ["state"]
    if kind in ("deal", "draw", "discard"):
        return [kind]
    if kind in ("place", "remove"):
        return [kind] + [c.split("-")[0] for c in record[1:-1]] + [record[-1]]
    return None if kind == "solo" else record


# The link's state, field by field (core/link.py keeps track of what changed).
public_state = _report.PublicState
place_names = _report.place_names  # a refusal's places, named


def seat_view(state, seat):
    """What seat `seat` (an index) may see besides the public state: its own hand."""
    return {"hand": state.hand(SEATS[seat])}


def menu_pixels(board, n=None):
    """The pixels of the settings menu's items: the first islands, in board order; `n` of
    them on a Pico W set up for remote play (its `remote` item and a code's six places,
    core.netplay.PIXELS)."""
    return board.island_led[:len(MENU) if n is None else n]


def letter_pixels(board, letters):
    """The pixel of each of `letters` (a remote game's code, core.codeshow and
    core.codeentry): the island whose name starts with it, -1 for a letter no island
    starts with (issue 19: ALOA ... KAHU, A-K)."""
    out = []
    for ch in letters:
        led = -1
        for i, island in enumerate(board.islands):
            if island[0] == ch:
                led = board.island_led[i]
                break
        out.append(led)
    return out


def remote_settings(settings):
    """The settings a remote game is created with, from the menu's (`remote: create` on a
    Pico W): variant, first and handicap; the board's AI plays no seat there and the
    dealer says where each table plays. ValueError for values that make no game."""
    checked = check_settings(settings)
    return {k: checked[k] for k in ("variant", "first", "handicap")}


def menu_settings(settings):
    """The settings as the menu shows them: the AI's level filled in with its default."""
    if settings.get("ai_level") is None:
        from games.kahuna.ai import DEFAULT_LEVEL
        settings = dict(settings)
        settings["ai_level"] = DEFAULT_LEVEL
    return settings


def pixel_names(board):
    """What each pixel of the strip shows, in chain order (bring-up's walk)."""
    names = [""] * board.led_count
    for i, island in enumerate(board.islands):
        names[board.island_led[i]] = island
    for k, conn in enumerate(board.connections):
        names[board.conn_led[k]] = conn
    for name, led in board.status_leds.items():
        names[led] = "status:" + name
    return names


def card_pixel(board, card):
    """The pixel that shows `card`: its island's (bring-up lights it when it is tapped)."""
    return board.island_led[board.island_index[card.split("-")[0]]]


def solo(state, controller, clock):
    """The board's own player when the settings name a side for it (`ai`), the seat played
    at another table (`remote`: games.kahuna.remote), else None. Imported here, not
    above: a two-player game pays neither's heap (nor a remote game's once it is over)."""
    from core.unload import unload
    # Globals kept (clear=False): the simulator's boards share one process, and another
    # board may still be using the code given back here.
    if state.settings.remote != _rules.NOBODY:
        # A remote game seats no AI: the board's own player's code, preloaded at boot (14
        # KB of bytecode), goes back to the heap while it is played; a solo game after it
        # loads it again.
        unload(AI_MODULES, clear=False)
        from games.kahuna.remote import Remote
        return Remote(state, controller)
    # A game with no remote seat: a remote game's code (4 KB of bytecode) goes back to the
    # heap if an earlier game loaded it.
    unload(("games.kahuna.remote",), clear=False)
    if state.settings.ai == _rules.NOBODY:
        return None
    from games.kahuna.solo import Solo
    level = state.settings.ai_level
    return Solo(state, controller, clock=clock,
                **({} if level is None else {"level": level}))


# The board's own player's code (games.kahuna.solo and what it imports alone).
AI_MODULES = ("games.kahuna.solo", "games.kahuna.ai", "games.kahuna.aimodel",
              "games.kahuna.observe")


def fresh_settings(settings, now, finished=None):
    """A game started at the table (the settings menu, the held new-game button) is played
    at this table: a remote game's other seat comes back to it (its host starts a remote
    game with the link's new), so the board stays playable with the host gone."""
    if "remote" not in settings:
        return settings
    out = dict(settings)
    del out["remote"]
    return out


def preload():
    """Load the board's own player's code while the heap is whole (main.py at boot): by
    the time a solo game starts, a board's heap can be too fragmented to load it (seen on
    the virtual board: 220 KB free, and no room for a 1.3 KB block of the AI's bytecode)."""
    from games.kahuna import solo  # noqa: F401
