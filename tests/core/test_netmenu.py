"""The settings menu of a Pico W set up for remote play (core.netplay.NetMenu,
core.codeentry): `remote: create` starts a remote game and says its code, `remote: join`
takes a code from the buttons (next/prev choose a character, ok takes it, back takes the
last one back, done joins). The buttons are pressed as a scenario's `press` does; the
network is the recorder the NetMenu (App.netplay) hands the request to (on a Pico W,
core.netplay.task gives it the board's own seat, core.netseat:
tests/remote/test_picow_seat_broker.py plays the game it joins)."""

import pytest

import gamekit
from core import netplay
from core.remoteproto import CODE_RE, NEW_CODE_LETTERS
from host_tools.simulator import engine as simcore


def pico_w():
    sim = simcore.Simulation(gamekit.board())
    asked = []
    sim.app.netplay = netplay.NetMenu(lambda op, code, settings: asked.append((op, code,
                                                                                settings)))
    return sim, asked


def press(sim, role, long=False):
    sim.press(role, simcore.LONG_PRESS_MS if long else simcore.HOLD_MS)


def menu_at_net(sim):
    press(sim, "ok", long=True)  # the menu
    for _ in range(5):  # past Kahuna's five items
        press(sim, "ok")
    assert sim.app.menu.current() == ("net", None)


def test_a_plain_boards_menu_has_no_remote_item():
    sim = simcore.Simulation(gamekit.board())
    press(sim, "ok", long=True)
    assert [k for k, _ in sim.app.menu.items] == ["variant", "first", "handicap", "ai",
                                                  "ai_level"]


def test_remote_create_starts_a_game_with_a_new_code_and_says_it():
    sim, asked = pico_w()
    press(sim, "ok", long=True)
    press(sim, "next")  # variant: alternative
    for _ in range(5):
        press(sim, "ok")
    press(sim, "next")  # net: create
    outs = []
    sim.app.listen(outs.append)
    before = sim.app.game.snapshot()
    press(sim, "done")
    assert sim.app.menu is None
    [(op, code, settings)] = asked
    assert op == "create" and CODE_RE.match(code)
    assert set(code) <= set("ABCDEFGHJK")  # island initials only (issue 19)
    assert settings == {"variant": "alternative", "first": "white", "handicap": None}
    assert outs[-1].message == "remote game %s: give the other table this code" % code
    assert sim.app.game.snapshot() == before  # the board's game starts once seated


def test_remote_create_codes_differ():
    codes = set()
    for _ in range(5):
        sim, asked = pico_w()
        menu_at_net(sim)
        press(sim, "next")
        press(sim, "done")
        codes.add(asked[0][1])
    assert len(codes) == 5


def test_new_codes_use_only_the_ten_island_letters():
    assert NEW_CODE_LETTERS == "ABCDEFGHJK"  # Kahuna's island initials A-L, not I or L
    seen = set()
    for _ in range(200):
        code = netplay.new_code(NEW_CODE_LETTERS)
        assert len(code) == 6 and CODE_RE.match(code)
        seen |= set(code)
    assert seen == set(NEW_CODE_LETTERS)  # all ten come, none other


def enter(sim, code):
    for ch in code:
        for _ in range(NEW_CODE_LETTERS.index(ch)):
            press(sim, "next")
        press(sim, "ok")


def test_remote_join_takes_the_code_from_the_buttons():
    sim, asked = pico_w()
    menu_at_net(sim)
    press(sim, "next")
    press(sim, "next")  # net: join
    press(sim, "done")
    assert sim.app.menu_state()["words"] == "join ______: A? (next, prev; ok takes it)"
    enter(sim, "KBJA")
    press(sim, "prev")  # back round the alphabet: K, the last of the ten
    assert sim.app.menu_state()["words"] == "join KBJA__: K? (next, prev; ok takes it)"
    press(sim, "next")
    press(sim, "ok")  # A
    press(sim, "back")  # taken back: A on offer again
    assert sim.app.menu_state()["words"] == "join KBJA__: A? (next, prev; ok takes it)"
    press(sim, "done")  # not six yet: nothing
    assert asked == [] and sim.app.menu is not None
    enter(sim, "HC")
    assert sim.app.menu_state()["words"] == "join KBJAHC: done joins, back takes the last " \
                                            "one back"
    outs = []
    sim.app.listen(outs.append)
    press(sim, "done")
    assert asked == [("join", "KBJAHC", None)] and sim.app.menu is None
    assert outs[-1].message == "remote game KBJAHC: joining"


def test_the_codes_places_are_lit_on_the_menus_pixels():
    sim, _ = pico_w()
    menu_at_net(sim)
    press(sim, "next")
    press(sim, "next")
    press(sim, "done")
    enter(sim, "BC")
    frame = sim.app.view.frame
    pixels = sim.app.game_def.menu_pixels(sim.board, netplay.PIXELS)
    assert len(pixels) == 6
    lit = [i for i, p in enumerate(pixels) if any(frame[3 * p:3 * p + 3])]
    assert lit == [0, 1, 2]  # two taken, the third pulsing
    taken = [bytes(frame[3 * p:3 * p + 3]) for p in pixels[:2]]
    assert taken[0] != taken[1]  # B and C: two characters, two colours


@pytest.mark.parametrize("role", ["discard", "back"])
def test_leaving_the_code_joins_nothing_and_the_game_is_as_it_was(role):
    sim, asked = pico_w()
    before = sim.app.game.snapshot()
    menu_at_net(sim)
    press(sim, "next")
    press(sim, "next")
    press(sim, "done")
    press(sim, role)
    assert sim.app.menu is None and asked == [] and sim.app.game.snapshot() == before


def test_the_menu_without_the_remote_item_chosen_starts_a_game_at_the_table():
    sim, asked = pico_w()
    menu_at_net(sim)
    press(sim, "done")
    assert asked == [] and sim.app.menu is None and "net" not in sim.app.settings
