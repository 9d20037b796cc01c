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
    [(op, code, settings)] = asked
    assert sim.app.menu_state()["words"] == ("remote game %s: give the other table this code"
                                             % code)  # spelled on the islands: below
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


def lit_islands(sim):
    """The islands lit in the frame now, by initial, with their colours."""
    frame = sim.app.view.frame
    out = {}
    for i, name in enumerate(sim.board.islands):
        p = sim.board.island_led[i]
        if any(frame[3 * p:3 * p + 3]):
            out[name[0]] = bytes(frame[3 * p:3 * p + 3])
    return out


def create(sim):
    menu_at_net(sim)
    press(sim, "next")  # net: create
    press(sim, "done")


def spelled(sim, ms, step=50):
    """What the islands spell over `ms` of the simulated clock: [(letter, colour)...],
    one per stretch lit (a letter lit twice in a row, with its dark between, twice)."""
    out = []
    last = None
    for _ in range(ms // step):
        sim.advance(step)
        lit = lit_islands(sim)
        assert len(lit) <= 1, lit  # one island at a time
        now = next(iter(lit.items())) if lit else None
        if now is not None and now != last:
            out.append(now)
        last = now
    return out


def test_create_spells_the_code_of_its_hello_on_the_islands_over_and_over():
    sim, asked = pico_w()
    create(sim)
    [(_, code, _)] = asked
    seen = spelled(sim, 3 * 7500)
    white = max(set(c for _, c in seen), key=[c for _, c in seen].count)
    marked = [i for i, (_, c) in enumerate(seen) if c != white]
    assert len(marked) >= 2 and all(b - a == 6 for a, b in zip(marked, marked[1:]))
    for m in marked[:-1]:  # each round, from its marked first letter: the hello's code
        assert "".join(ch for ch, _ in seen[m:m + 6]) == code


def test_a_doubled_letter_shows_twice_and_the_round_pauses():
    from core.codeshow import CodeShow
    show = CodeShow("AABCDE", [0, 0, 1, 2, 3, 4])
    at = [show.lit(t) for t in range(0, 7500, 100)]
    assert at[0:7] == [0] * 7 and at[7:10] == [-1] * 3  # 700 ms lit, 300 dark
    assert at[10:17] == [1] * 7  # the second A, after a dark gap
    assert at[60:75] == [-1] * 15  # 1.5 s dark after the sixth
    assert show.lit(7500) == 0


@pytest.mark.parametrize("role", ["back", "discard", "ok", "next", "done"])
def test_the_code_keeps_showing_whatever_is_pressed(role):
    sim, asked = pico_w()
    create(sim)
    code = asked[0][1]
    press(sim, role)
    assert sim.app.menu_state()["words"] == ("remote game %s: give the other table this code"
                                             % code)
    assert code in "".join(ch for ch, _ in spelled(sim, 2 * 7500))


def test_a_game_without_the_letter_map_says_the_code_in_words_only(monkeypatch):
    sim, asked = pico_w()
    monkeypatch.setattr(sim.app, "game_def", _WithoutLetters(sim.app.game_def))
    outs = []
    sim.app.listen(outs.append)
    create(sim)
    code = asked[0][1]
    assert sim.app.menu is None
    assert outs[-1].message == "remote game %s: give the other table this code" % code


class _WithoutLetters:
    """Kahuna's definition without `letter_pixels`: a game that names no letter's pixel."""

    def __init__(self, game_def):
        self._d = game_def

    def __getattr__(self, name):
        if name == "letter_pixels":
            raise AttributeError(name)
        return getattr(self._d, name)


def test_join_by_the_islands_lights_the_letter_on_offer_and_enters_the_code():
    sim, asked = pico_w()
    menu_at_net(sim)
    press(sim, "next")
    press(sim, "next")  # net: join
    press(sim, "done")
    for _ in range(NEW_CODE_LETTERS.index("J")):
        press(sim, "next")
    sim.advance(300)  # the pulse's peak
    assert set(lit_islands(sim)) == {"J"}  # JOJO: the letter on offer
    press(sim, "ok")
    press(sim, "next")
    press(sim, "next")  # C on offer, J taken
    sim.advance(300)
    assert set(lit_islands(sim)) == {"J", "C"}
    press(sim, "ok")
    enter(sim, "HABK")
    press(sim, "done")
    assert asked == [("join", "JCHABK", None)]
