"""The static page keeps the game in progress across a reload (issue 15): every request
that made it is kept in the browser's local storage and replayed into a fresh simulator
(web/js/localgame.js); the new-game form shows the settings in force; the board's level is
chosen in the form. In headless Chromium, the site as `make web` builds it."""

import json

import pytest
from test_web import deal_all, play_a_bridge, shown_hand

from websitekit import Page

SEED = 5
KEY = "smartboard.game.kahuna"

pytestmark = pytest.mark.slow


@pytest.fixture
def url(server):
    return server.url + "?seed=%d" % SEED


def form(pg):
    return pg.js("""() => Object.fromEntries([...document.querySelectorAll(
        '#new-game select')].map((s) => [s.name, s.value]))""")


def test_a_reload_goes_on_with_the_game_in_progress(context, url):
    first = Page(context, url)
    deal_all(first)
    conn = play_a_bridge(first, "white")
    first.click("#btn-done")
    first.click("#deck")  # white draws: black's turn
    before = first.view()["state"]
    assert before["report"]["turn"] == "black" and before["report"]["bridges"] == {
        conn: "white"}
    first.click("#reveal")
    black = shown_hand(first)
    first.page.close()
    again = Page(context, url, keep=True)  # the same address, opened again
    assert again.view()["state"] == before
    assert again.text("#status-line") == "Round 1 of 3 · PLAY · Black to play"
    assert again.js("() => document.getElementById('hand-cover').hidden") is False
    again.click("#reveal")
    assert shown_hand(again) == black
    play_a_bridge(again, "black")  # the game goes on from there
    assert len(again.view()["state"]["report"]["bridges"]) == 2
    assert again.errors == []
    again.page.close()


def test_a_game_against_the_board_at_a_level_survives_a_reload(context, url):
    pg = Page(context, url)
    assert form(pg) == {"ai": "none", "ai_level": "default", "variant": "standard",
                        "first": "white", "handicap": "none"}
    pg.click("#settings summary")
    pg.page.select_option("#new-game select[name=ai]", "black")
    pg.page.select_option("#new-game select[name=ai_level]", "1")
    pg.page.select_option("#new-game select[name=variant]", "alternative")
    pg.page.fill("#new-game input[name=seed]", "21")
    pg.click("#new-game-button")
    state = pg.view()["state"]
    assert state["settings"] == {"variant": "alternative", "first": "white",
                                 "handicap": None, "ai": "black", "ai_level": 1}
    assert "the board plays black at level 1" in pg.text("#message")
    assert "Ok asks the board for a hint" in pg.text("#hint")
    card = shown_hand(pg)[0]
    pg.click('#hand .card[data-card="%s"]' % card)
    pg.click('#board .hit[data-conn="%s"]' % pg.view()["state"]["ui"]["options"][0]["conn"])
    pg.click("#btn-done")
    pg.click("#deck")  # the board plays its turn
    before = pg.view()["state"]
    assert any(o == "black" for o in before["report"]["bridges"].values())
    hand = shown_hand(pg)
    pg.page.close()
    again = Page(context, url, keep=True)
    after = again.view()["state"]
    del after["now"], before["now"]  # the virtual clock: the game before took its time
    assert after == before
    assert shown_hand(again) == hand
    assert form(again) == {"ai": "black", "ai_level": "1", "variant": "alternative",
                           "first": "white", "handicap": "none"}
    # A new game from the form changes only what is changed there: the level stays.
    again.click("#settings summary")
    again.page.select_option("#new-game select[name=first]", "black")
    again.click("#new-game-button")
    assert again.view()["state"]["settings"] == {
        "variant": "alternative", "first": "black", "handicap": None, "ai": "black",
        "ai_level": 1}
    again.page.close()


def test_a_kept_game_that_does_not_replay_is_dropped_for_a_new_one(context, url):
    pg = Page(context, url)
    deal_all(pg)
    saved = json.loads(pg.js("(k) => localStorage.getItem(k)", KEY))
    assert saved["log"][0]["op"] == "start" and len(saved["log"]) >= 7
    saved["check"] = saved["check"].replace('"round":1', '"round":2')  # not this game
    pg.js("([k, v]) => localStorage.setItem(k, v)", [KEY, json.dumps(saved)])
    pg.page.close()
    again = Page(context, url, keep=True)
    rep = again.view()["state"]["report"]
    assert rep["phase"] == "deal" and rep["hand_sizes"] == {"white": 0, "black": 0}
    assert json.loads(again.js("(k) => localStorage.getItem(k)", KEY))["log"] == [
        {"op": "start", "board": saved["log"][0]["board"], "options": [], "seed": SEED}]
    assert again.errors == []
    again.page.close()
