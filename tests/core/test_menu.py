"""The buttons' settings menu (core/menu.py): a board set up with no computer. Held `ok`
opens it (board_def inputs.hold); the game's settings are items lit on its pixels, a
value by colour; `done` starts a game with them, asking again while one is under way.
The scenario tests/scenarios/menu.scn runs the same on both runtimes (test_sim.py)."""

import gamekit
from core import menu as menumod
from games.kahuna import game as kahuna
from host_tools.simulator import engine as simcore
from host_tools.simulator.scenario import parse


def sim_with(text=""):
    board = gamekit.board()
    sim = simcore.Simulation(board)
    if text:
        sim.run(parse(text, board))
    return sim


def press(sim, role, long=False):
    sim.press(role, simcore.LONG_PRESS_MS if long else simcore.HOLD_MS)


def test_the_menu_lights_its_items_in_their_values_colours_and_the_phase_pixel():
    sim = sim_with()
    press(sim, "ok", long=True)
    menu = sim.app.menu
    assert menu is not None and menu.current() == ("variant", "standard")
    frame = sim.app.view.frame
    pixels = kahuna.menu_pixels(sim.board)
    assert len(pixels) == len(kahuna.MENU) == 5
    lit = [bytes(frame[3 * p:3 * p + 3]) for p in pixels]
    assert all(any(rgb) for rgb in lit)  # every item shows its value
    others = set(range(sim.board.led_count)) - set(pixels) - {
        sim.board.status_leds["phase"], sim.board.status_leds["error"]}
    assert all(frame[3 * p:3 * p + 3] == b"\0\0\0" for p in others)
    before = bytes(frame[3 * pixels[1]:3 * pixels[1] + 3])
    press(sim, "ok")  # to "first"
    press(sim, "next")  # black
    assert menu.current() == ("first", "black")
    assert bytes(frame[3 * pixels[1]:3 * pixels[1] + 3]) != before  # another colour


def test_done_on_a_fresh_game_starts_the_game_with_the_settings_at_once():
    sim = sim_with()
    press(sim, "ok", long=True)
    press(sim, "next")  # alternative
    for _ in range(3):
        press(sim, "ok")  # to "ai"
    press(sim, "next")  # the board plays white
    press(sim, "ok")
    press(sim, "next")  # level 3 (from the default 2)
    press(sim, "done")
    assert sim.app.menu is None
    assert sim.app.settings == {"variant": "alternative", "first": "white",
                                "handicap": None, "ai": "white", "ai_level": 3}
    assert sim.app.game.settings.variant == "alternative" and sim.app.solo is not None
    sim.boot()  # journaled: a power cut keeps the settings
    assert sim.app.settings["ai"] == "white" and sim.app.solo is not None


def test_mid_game_the_first_done_asks_and_nothing_changes_until_the_second():
    deal = "".join("tap %s\n" % c for c in gamekit.WHITE_DEAL)
    sim = sim_with(deal)
    before = sim.app.game.snapshot()
    press(sim, "ok", long=True)
    press(sim, "done")
    assert sim.app.menu.asking and sim.app.game.snapshot() == before
    err = sim.board.status_leds["error"]
    seen = set()
    for _ in range(6):  # the error pixel blinks while the board asks
        sim.advance(100)
        seen.add(bytes(sim.app.view.frame[3 * err:3 * err + 3]))
    assert len(seen) == 2
    press(sim, "next")  # anything else cancels the question
    assert not sim.app.menu.asking
    press(sim, "done")
    press(sim, "done")
    assert sim.app.menu is None and sim.app.game.phase == "deal"
    assert sim.app.game.snapshot() != before
    assert any(name.startswith("/game-") for name in sim.flash.files)  # archived


def test_back_on_the_first_item_or_discard_leaves_with_nothing_changed():
    sim = sim_with()
    settings = dict(sim.app.settings)
    for leave in ("back", "discard"):
        press(sim, "ok", long=True)
        press(sim, "next")
        press(sim, leave)
        assert sim.app.menu is None and sim.app.settings == settings


def test_a_power_cut_with_the_menu_open_comes_back_to_the_game():
    deal = "".join("tap %s\n" % c for c in gamekit.WHITE_DEAL)
    sim = sim_with(deal)
    before = sim.app.game.snapshot()
    press(sim, "ok", long=True)
    press(sim, "next")
    sim.boot()
    assert sim.app.menu is None and sim.app.game.snapshot() == before


def test_the_menu_object_cycles_values_and_items():
    m = menumod.Menu((("a", (1, 2, 3)), ("b", ("x", "y"))), {"a": 3}, under_way=False)
    assert m.current() == ("a", 3)
    m.press("next")
    assert m.current() == ("a", 1)  # wraps
    m.press("prev")
    assert m.current() == ("a", 3)
    m.press("ok")
    assert m.current() == ("b", "x")  # a value not among the values: the first
    m.press("ok")
    assert m.current() == ("a", 3)  # after the last item, the first
    assert m.press("back") == menumod.LEAVE
    assert m.press("done") == menumod.START and m.settings({"c": 0}) == {
        "a": 3, "b": "x", "c": 0}


class Strict:
    """Kahuna's interface with a check that refuses one combination of values, as a game
    whose settings depend on each other does (Halunken: the mode goes with the players)."""

    def __getattr__(self, name):
        return getattr(kahuna, name)

    def check_settings(self, obj):
        if obj.get("ai") == "white" and obj.get("first") == "white":
            raise ValueError("the board may not open the game")
        return kahuna.check_settings(obj)


def test_settings_that_make_no_game_are_refused_and_the_menu_stays_open():
    sim = sim_with()
    sim.app.game_def = Strict()
    snap = sim.app.game.snapshot()
    settings = dict(sim.app.settings)
    press(sim, "ok", long=True)
    for _ in range(3):
        press(sim, "ok")  # to "ai"
    press(sim, "next")  # the board plays white, and white opens: Strict refuses it
    press(sim, "done")
    outcome = sim.app.referee.outcome
    assert outcome.kind == "refused" and outcome.code == "bad-settings"
    assert "the board may not open the game" in outcome.message
    assert sim.app.menu is not None and sim.app.menu.current() == ("ai", "white")
    assert sim.app.game.snapshot() == snap and sim.app.settings == settings
    press(sim, "prev")  # nobody: a game again
    press(sim, "done")
    assert sim.app.menu is None and sim.app.settings.get("ai") is None and sim.app.solo is None
