"""A match of several games added up (H16, settings `games` and `match`) on the platform:
core.app.App with a journal on a virtual flash and the serial link's state view. Every
game is played with random legal actions (randgame's PRNG, the same on both runtimes)
that the App's recorder journals; the held `done` (core.board.NEW_GAME) deals the next
game of the match. Run as a script on CPython or the MicroPython unix port
(tests/games/halunken/test_halunken_match.py): one JSON line per check, the same on both.
"""

import json

import conformance
from core import gameload
from core.app import App
from core.board import MENU, NEW_GAME
from core.cards import Registry
from core.journal import Journal
from core.link import StateView
from host_tools.fakehw.flash import VirtualFlash
from host_tools.games.halunken import randgame

G = gameload.load("halunken")
BOARD = conformance.board_for("halunken")


class Strip:
    def show(self, frame):
        pass


def app_on(flash, settings):
    return App(G, BOARD, Registry(G.card_names(BOARD)), Strip(), settings,
               journal=Journal("/game.jnl", flash))


def play(app, rng, stop=None):
    """Random legal actions through the App's game (journaled) until the game is over,
    or until `stop` actions were applied."""
    n = 0
    while not app.game.is_over() and (stop is None or n < stop):
        app.game.apply(rng.choice(randgame.choices(app.game)))
        n += 1
    return n


def out(name, value):
    print(json.dumps({"check": name, "value": value}))


def lit_seats(app):
    """The seats whose light is on in any frame over two pulse periods."""
    seen = set()
    for t in range(0, 2400, 40):
        frame = app.view.render(app.game, app.referee, t, -1, False, None)
        for s in range(app.game.players):
            p = BOARD.seat_led[s]
            if frame[3 * p] or frame[3 * p + 1] or frame[3 * p + 2]:
                seen.add("p%d" % (s + 1))
    return sorted(seen)


def seeded_match():
    """Three seeded games: the totals carried, a power cut mid-game 2, the winner by
    total, then a new match."""
    flash = VirtualFlash()
    rng = randgame.Rng(11)
    app = app_on(flash, {"players": 3, "mode": "standard", "seed": 7, "games": 3})
    view = StateView(app)
    games = []
    refused = app.press(NEW_GAME, 10)  # mid-game the held button starts nothing
    out("held-mid-game", [refused.kind, refused.code, app.game.game_k])
    for k in (1, 2, 3):
        st = view.state()
        games.append({"match": st["match"], "seed_hidden": "seed" not in st["settings"],
                      "step": app.game.step})
        if k == 2:  # a power cut in the middle of game 2
            play(app, rng, stop=40)
            before = (app.game.snapshot(), app.game.totals(), app.settings)
            app = app_on(flash, {"players": 3})
            view = StateView(app)
            out("power-cut", [app.game.snapshot() == before[0],
                              app.game.totals() == before[1], app.settings == before[2],
                              app.game.game_k, app.game.carried])
        play(app, rng)
        st = view.state()
        games[-1]["scores"] = st["scores"]
        games[-1]["winner"] = st["winner"]
        games[-1]["end"] = st["match"]
        games[-1]["lit"] = lit_seats(app)
        games[-1]["seed"] = app.settings["seed"]
        app.press(NEW_GAME, 1000 * k + 7)
    out("games", games)
    st = view.state()
    out("after-match", [st["match"], app.game.step, app.game.is_over()])


def table_match():
    """Two games at a table (deal=table): the second game's set-up is a new physical one;
    a given totals' carry-over through the link's settings form."""
    flash = VirtualFlash()
    rng = randgame.Rng(5)
    app = app_on(flash, {"players": 3, "mode": "beginner", "games": 2})
    play(app, rng)
    first = app.game.totals()
    app.press(NEW_GAME, 99)
    st = StateView(app).state()
    out("table-next", [st["match"], app.game.step,
                       G.check_settings(app.settings)["deal"],
                       first == [st["match"]["totals"]["p%d" % (s + 1)] for s in range(3)]])


def last_game_by_total():
    """The last game of a match lights and names the highest totals, not its own winners
    (H16): p1 carries 500 points into game 3, which p3 wins."""
    flash = VirtualFlash()
    app = app_on(flash, {"players": 3, "mode": "standard", "seed": 2, "games": 3,
                         "match": {"game": 3, "totals": {"p1": 500, "p2": 0, "p3": 0}}})
    play(app, randgame.Rng(3))
    st = StateView(app).state()
    out("by-total", [st["winner"], st["match"], lit_seats(app)])


def menu():
    """The buttons' menu offers games: players, mode, games on the seat lights; a value
    that does not go with the others is refused and the menu stays open; changing games
    mid-match starts a new match."""
    flash = VirtualFlash()
    app = app_on(flash, {"players": 3, "seed": 4, "games": 2,
                         "match": {"game": 2, "totals": {"p1": 30, "p2": 20, "p3": 10}}})
    app.press(MENU, 0)
    items = [app.menu.current()]
    app.press("ok", 1)
    app.press("ok", 2)
    items.append(app.menu.current())
    app.press("next", 3)  # games 3
    items.append(app.menu.current())
    app.press("done", 4)  # nothing played in this game: no question
    out("menu-3", [items, app.menu is None, app.settings.get("games"),
                   app.settings.get("match"), app.settings["seed"] != 4])
    app.press(MENU, 5)
    app.press("next", 6)  # players 4
    app.press("ok", 7)
    app.press("next", 8)  # mode tactical: not for 4 players (H17)
    app.press("ok", 10)
    app.press("next", 11)  # games 1
    before = app.settings
    bad = app.press("done", 12)
    out("menu-bad", [bad.kind, bad.code, app.menu is not None, app.settings == before])
    app.press("back", 13)  # back to mode
    app.press("prev", 14)  # standard
    app.press("done", 15)
    out("menu-1", [app.menu is None, app.settings.get("players"),
                   app.settings.get("mode"), "games" in app.settings,
                   "match" in app.settings, "match" in StateView(app).state()])
    booted = app_on(flash, {})
    out("menu-journaled", booted.settings == app.settings)


seeded_match()
table_match()
last_game_by_total()
menu()
