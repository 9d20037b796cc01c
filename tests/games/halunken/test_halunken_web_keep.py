"""A reload keeps Halunken's game in progress too (issue 15: web/js/localgame.js is every
game's): a hot-seat round under way, and a game against the board's players, whose moves
come in the page's ticks, come back as they were, whenever its new game began; Kami's
game against the board too. Headless Chromium, the site as built."""

import pytest
from test_halunken_web import choose, place_and_pass

from websitekit import Page

pytestmark = pytest.mark.slow
URL = "?game=halunken&seed=7"


def kept(pg, context, server, url=URL):
    """The page opened again, and the states before and after (the clock apart)."""
    before = pg.view()["state"]
    pg.page.close()
    again = Page(context, server.url + url, keep=True)
    after = again.view()["state"]
    for st in (before, after):
        st.pop("now", None)
    return again, before, after


def test_a_hot_seat_round_under_way_survives_a_reload(context, server):
    pg = Page(context, server.url + URL)
    place_and_pass(pg)
    choose(pg, "p1", 2)
    again, before, after = kept(pg, context, server)
    assert after == before and after["report"]["step"] == "choose"
    choose(again, "p2", 4)  # the game goes on
    assert again.text("#message") == "Accepted: p2 has chosen."
    assert again.errors == []
    again.page.close()


def test_a_game_against_the_boards_players_survives_a_reload(context, server):
    pg = Page(context, server.url + URL)
    pg.click("#settings summary")
    pg.page.select_option("#new-game select[name=ai]", "p2,p3")
    pg.page.fill("#new-game input[name=seed]", "5")
    pg.click("#new-game-button")
    pg.click("#space-T1")  # p1 places its captain; the board's seats place theirs
    pg.wait("() => kahuna.view().state.report.turn === 'p1'", timeout=20000)
    pg.page.wait_for_timeout(500)
    again, before, after = kept(pg, context, server)
    assert after == before
    assert after["solo"]["ai"] == ["p2", "p3"] and after["report"]["turn"] == "p1"
    assert again.errors == []
    again.page.close()


def form(pg):
    return pg.js("""() => Object.fromEntries([...document.querySelectorAll(
        '#new-game select, #new-game input[name=target]')].map((s) => [s.name, s.value]))""")


def test_the_new_game_form_shows_the_settings_in_force(context, server):
    pg = Page(context, server.url + URL)
    pg.click("#settings summary")
    pg.page.select_option("#new-game select[name=players]", "4")
    pg.page.select_option("#new-game select[name=mode]", "beginner")
    pg.page.select_option("#new-game select[name=first]", "p3")
    pg.click("#new-game-button")
    pg.page.close()
    again = Page(context, server.url + URL, keep=True)
    assert again.view()["state"]["settings"]["mode"] == "beginner"
    shown = form(again)
    assert (shown["players"], shown["mode"], shown["first"]) == ("4", "beginner", "p3")
    again.page.close()


def test_kamis_form_shows_the_settings_in_force(context, server):
    url = server.url + "?game=kami&seed=3"
    pg = Page(context, url)
    pg.click("#settings summary")
    pg.page.select_option("#new-game select[name=players]", "3")
    pg.page.select_option("#new-game select[name=mode]", "kami")
    pg.page.fill("#new-game input[name=target]", "9")
    pg.click("#new-game-button")
    pg.page.close()
    again = Page(context, url, keep=True)
    st = again.view()["state"]["settings"]
    assert (st["players"], st["mode"], st["target"]) == (3, "kami", 9)
    shown = form(again)
    assert (shown["players"], shown["mode"], shown["target"]) == ("3", "kami", "9")
    assert again.errors == []
    again.page.close()


# A new game whose virtual clock comes at a chosen point of the firmware's 10 ms task grid
# (`phase`), p1's captain placed `gap` ms later, all in one script (no frame between): the
# board's seats then place theirs, some within p1's request, some in the ticks after it.
# Before a new game restarted the simulator's clock (host_tools/web/game.py), the kept
# game's replay (its new game at clock 0) ran on a shifted grid: p3 had not yet placed
# Black-Jack at the kept moment, the check failed and the reload lost the game (the flake
# of the test above). (phase, gap) pairs that failed so.
NEW_GAME_AT = """([phase, gap]) => {
  const g = kahuna.game;
  const now = g.rt.call({ op: "state" }).state.now;
  g.tick((phase - now % 10 + 10) % 10);
  g.newGame(["players=3", "first=p1", "ai=p2,p3"], 5);
  if (gap) g.tick(gap);
  g.choose("T1");
}"""


@pytest.mark.parametrize("phase,gap", [(9, 0), (5, 119)])
def test_a_game_against_the_board_survives_a_reload_whenever_it_began(context, server,
                                                                        phase, gap):
    pg = Page(context, server.url + URL)
    pg.js(NEW_GAME_AT, [phase, gap])
    again, before, after = kept(pg, context, server)
    assert after == before and after["solo"]["ai"] == ["p2", "p3"]
    assert again.errors == []
    again.page.close()


def test_a_kami_game_against_the_board_survives_reloads(context, server):
    """Kami's page keeps its game the same way (web/js/localgame.js, host_tools/web/
    game.py): the board's p2 and p3 open and play; reloaded at once, then after the
    page's clock ran on, the game is the one kept."""
    pg = Page(context, server.url + "?game=kami&seed=3")
    pg.js("""() => { kahuna.game.tick(3);
        kahuna.game.newGame(["players=3", "first=p2", "ai=p2,p3"], 4); }""")
    for wait in (0, 400):
        pg.page.wait_for_timeout(wait)
        pg, before, after = kept(pg, context, server, "?game=kami&seed=3")
        assert after == before and after["solo"]["ai"] == ["p2", "p3"], wait
        assert after["report"]["attack"]["seat"] == "p3"  # the board's seats moved: p1's turn
        assert after["report"]["turn"] == "p1" and pg.errors == []
    pg.page.close()
