"""A new game started at the table (the held button, core.app) with a seeded deal deals
anew: the seed comes from the moment of the press (the rules read no clock), and the
journal keeps it, so a power cut comes back to the same new deal. A given deal stays."""

import conformance
from core import gameload
from core.app import App
from core.board import NEW_GAME
from core.cards import Registry
from core.journal import Journal
from host_tools.fakehw.flash import VirtualFlash

G = gameload.load("halunken")


class NullStrip:
    def show(self, frame):
        pass


def finished_app(settings, flash):
    board = conformance.board_for("halunken")
    app = App(G, board, Registry(G.card_names(board)), NullStrip(), settings,
              journal=Journal("/game.jnl", flash))
    _, actions, _ = conformance.playout("halunken", settings, 3, probes=0, every=False)
    for act in actions:
        app.game.apply(act)
    assert app.game.is_over()
    return app, board


def test_a_new_seeded_game_is_a_new_deal_and_survives_a_power_cut():
    settings = {"players": 3, "mode": "standard", "seed": 5}
    flash = VirtualFlash()
    app, board = finished_app(settings, flash)
    first = app.game.snapshot()["piles"]
    out = app.press(NEW_GAME, 123456)
    assert out.kind == "new-game" and not app.game.is_over()
    assert app.settings["seed"] != 5 and app.settings["players"] == 3
    piles = app.game.snapshot()["piles"]
    assert piles != first
    # The same press a moment later would have dealt otherwise.
    other = G.fresh_settings(settings, 123457)
    assert other["seed"] != app.settings["seed"]
    # A power cut: the board boots to the new game with its deal.
    booted = App(G, board, Registry(G.card_names(board)), NullStrip(), settings,
                 journal=Journal("/game.jnl", flash))
    assert booted.settings == app.settings and booted.game.snapshot()["piles"] == piles


def test_a_given_deal_is_dealt_again_as_given():
    settings = G.check_settings({"players": 3, "mode": "standard", "seed": 9})
    given = {"players": 3, "mode": "standard", "deal": "given",
             "piles": [[G.CREW_NAMES[c] for c in pile] for pile in
                       G.new_state(None, settings).piles],
             "bj": ["BJ-%d" % k for k in range(1, 13)]}
    assert G.fresh_settings(given, 999) is given
