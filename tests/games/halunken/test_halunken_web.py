"""Halunken & Spelunken on the static web page (make web), in Debian's Chromium: the
chooser offers it, a hot-seat game is played by clicks (placing, the auction, the secret
choice, the reveal), and no secret choice reaches the page before the reveal: two pages
that choose different cards show the same DOM and the same state until then."""

import json
import os
import re

import pytest

import gamekit
from websitekit import Page

ROOT = gamekit.ROOT
SCREENSHOT = os.path.join(ROOT, "docs", "web-halunken.png")
SEED = 7

pytestmark = pytest.mark.slow


@pytest.fixture
def open_page(context, server):
    pages = []

    def opened(query="?game=halunken&seed=%d" % SEED):
        pg = Page(context, server.url + query)
        pages.append(pg)
        return pg

    yield opened
    for pg in pages:
        assert pg.errors == []
        pg.page.close()


def rep(pg):
    return pg.view()["state"]["report"]


def place_and_pass(pg):
    """Set-up by clicking taverns on the ring, Black-Jack too, then every seat passes."""
    for t in ("T1", "T5", "T9"):
        pg.click("#space-%s" % t)
    assert rep(pg)["step"] == "place-bj"
    pg.click("#space-T12")
    while rep(pg)["step"] == "auction":
        pg.click("#btn-done")
    assert rep(pg)["step"] == "choose"


def choose(pg, seat, index):
    """`seat` shows its cards and clicks its `index`-th one."""
    assert pg.text("#choice-show") == "Show %s's cards" % seat
    assert pg.page.is_hidden("#choice-cards")
    pg.click("#choice-show")
    cards = pg.page.query_selector_all("#choice-cards [data-card]")
    name = cards[index].get_attribute("data-card")
    assert name.startswith("P%s-" % seat[1:])
    cards[index].click()
    return name


def public_dom(pg):
    """The page's DOM without the animated lights (their frames follow the page's clock,
    not the game): every text and attribute a player can see or a script can read."""
    return pg.js("""() => {
        const main = document.querySelector('main').cloneNode(true);
        main.querySelector('#board .lights').remove();
        return main.outerHTML;
    }""")


def test_the_index_offers_every_game_and_halunken_by_its_name(open_page):
    pg = open_page("?game=halunken")
    links = pg.js("() => [...document.querySelectorAll('#games a')].map(a => a.dataset.game)")
    assert links[0] == "kahuna" and "halunken" in links
    assert pg.js("() => kahuna.gameName") == "halunken"
    assert pg.text("#title") == "HALUNKEN & SPELUNKEN"
    assert rep(pg)["game"] == "halunken" and rep(pg)["players"] == 3
    pg.click("#settings summary")
    assert pg.page.is_visible("#new-game select[name=players]")
    assert pg.page.is_visible("#opponent")  # the board's players are offered
    other = open_page("?game=chess")
    assert other.js("() => kahuna.gameName") == "kahuna"
    assert "no game called" in other.text("#no-game")


def test_a_round_by_clicks_the_choice_said_only_as_chosen(open_page):
    pg = open_page()
    place_and_pass(pg)
    assert rep(pg)["captains"] == {"p1": "T1", "p2": "T5", "p3": "T9"}
    assert rep(pg)["blackjack"] == "T12"
    for seat, index in (("p1", 2), ("p2", 4), ("p3", 0)):
        choose(pg, seat, index)
        assert pg.text("#message") == "Accepted: %s has chosen." % seat
        assert pg.page.is_hidden("#choice-cards")  # face down again
    assert rep(pg)["step"] == "reveal"
    pg.click("#btn-ok")
    revealed = rep(pg)["round_cards"]
    assert revealed["p1"]["card"] == "P1-3" and revealed["p2"]["card"] == "P2-5"
    assert revealed["p3"]["card"] == "P3-1"
    assert pg.text("#revealed").startswith("Revealed: p1 P1-3, p2 P2-5, p3 P3-1")


def test_a_refusal_is_explained(open_page):
    pg = open_page()
    place_and_pass(pg)
    pg.js("() => kahuna.game.tap('P2-4')")  # p1 is expected first (H32)
    assert pg.page.get_attribute("#message", "data-code") == "out-of-turn"
    assert "p1's card is expected now" in pg.text("#message")
    assert rep(pg)["chosen"] == 0


def test_no_hidden_choice_reaches_the_page_before_the_reveal(open_page):
    pages = [open_page(), open_page()]
    for pg in pages:
        place_and_pass(pg)
    seen = []
    for pg, picks in zip(pages, ((0, 6), (5, 1))):
        chosen = [choose(pg, "p1", picks[0]), choose(pg, "p2", picks[1])]
        state = pg.view()["state"]
        seen.append((chosen, public_dom(pg), json.dumps(state["report"], sort_keys=True),
                     state["message"]))
        for card in chosen:
            assert card not in json.dumps(state)
            assert not re.search(r"\b%s\b" % re.escape(card), seen[-1][1])
    (a_cards, a_dom, a_rep, a_msg), (b_cards, b_dom, b_rep, b_msg) = seen
    assert a_cards != b_cards
    assert a_dom == b_dom and a_rep == b_rep and a_msg == b_msg


def test_screenshot_of_a_game_under_way(open_page, request, tmp_path):
    """docs/web-halunken.png: the page after the first reveal (`make web-screenshot`)."""
    pg = open_page()
    place_and_pass(pg)
    for seat, index in (("p1", 2), ("p2", 4), ("p3", 0)):
        choose(pg, seat, index)
    pg.click("#btn-ok")
    pg.page.wait_for_timeout(300)
    out = SCREENSHOT if request.config.getoption("--update-screenshots") else str(
        tmp_path / "web-halunken.png")
    pg.page.screenshot(path=out, full_page=True)
    assert os.path.getsize(out) > 20000


def test_a_new_game_from_the_form(open_page):
    pg = open_page()
    pg.click("#settings summary")
    pg.page.select_option("#new-game select[name=players]", "4")
    pg.page.select_option("#new-game select[name=mode]", "beginner")
    pg.page.select_option("#new-game select[name=first]", "p3")
    pg.page.fill("#new-game input[name=seed]", "99")
    pg.click("#new-game-button")
    state = pg.view()["state"]
    assert state["settings"] == {"players": 4, "mode": "beginner", "deal": "seed",
                                 "first": "p3"}
    assert rep(pg)["turn"] == "p3" and len(pg.page.query_selector_all("#seats tr")) == 4
    assert pg.text("#message") == "New game: 4 players, beginner game, p3 places first."
    assert "99" not in pg.text("#panel")  # the seed is never shown back
