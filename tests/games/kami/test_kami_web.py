"""Kami on the static web page (make web), in Debian's Chromium: the chooser offers it, a
hot-seat round is played by clicks (a hand shown only once its seat asks, the face-down
defence, attacks, passes, replays, the round's end), no hand reaches the page for another
seat, two pages that lay different face-down defences show the same DOM and state, and a
game against the board's players from the form."""

import json
import os
import re

import pytest

import gamekit
from websitekit import Page

ROOT = gamekit.ROOT
SCREENSHOT = os.path.join(ROOT, "docs", "web-kami.png")
SEED = 11

pytestmark = pytest.mark.slow


@pytest.fixture
def open_page(context, server):
    pages = []

    def opened(query="?game=kami&seed=%d" % SEED):
        pg = Page(context, server.url + query)
        pages.append(pg)
        return pg

    yield opened
    for pg in pages:
        assert pg.errors == []
        pg.page.close()


def state(pg):
    return pg.view()["state"]


def rep(pg):
    return state(pg)["report"]


def show_hand(pg):
    """The acting seat asks to see its hand: its cards, as the page lists them."""
    seat = state(pg)["acting"]
    assert pg.page.is_hidden("#hand")
    assert pg.text("#hand-show") == "Show %s's hand" % seat
    pg.click("#hand-show")
    assert pg.page.is_visible("#hand")
    return [b.get_attribute("data-card") for b in pg.page.query_selector_all("#hand [data-card]")]


def click_card(pg, card):
    pg.click('#hand [data-card="%s"]' % card)


def public_dom(pg):
    """The page's DOM without the animated lights and the sample scenario (it names cards):
    every text and attribute a player can see or a script can read."""
    return pg.js("""() => {
        const main = document.querySelector('main').cloneNode(true);
        main.querySelector('#board .lights').remove();
        main.querySelector('#scenarios').remove();
        return main.outerHTML;
    }""")


def hidden_from(pg, cards):
    """None of `cards` is named anywhere in the page's public DOM or state."""
    dom = public_dom(pg)
    st = json.dumps(state(pg))
    return [c for c in cards if re.search(r"\b%s\b" % re.escape(c), dom) or
            '"%s"' % c in st]


def test_the_chooser_offers_kami_by_its_name(open_page):
    pg = open_page("?game=kami")
    links = pg.js("() => [...document.querySelectorAll('#games a')].map(a => a.dataset.game)")
    assert links[0] == "kahuna" and "kami" in links and "halunken" in links
    assert pg.js("() => kahuna.gameName") == "kami"
    assert pg.text("#title") == "KAMI"
    assert rep(pg)["game"] == "kami" and rep(pg)["players"] == 4
    assert len(pg.page.query_selector_all("#seats tr")) == 4
    pg.click("#settings summary")
    assert pg.page.is_visible("#new-game select[name=players]")
    assert pg.page.is_visible("#opponent")  # the board's players are offered


def test_a_hot_seat_round_by_clicks_each_hand_to_its_seat_only(open_page):
    pg = open_page()
    assert state(pg)["acting"] == "p1" and rep(pg)["step"] == "open"
    p1 = show_hand(pg)
    assert len(p1) == 8
    defence, attack = p1[0], next(c for c in p1[1:] if not c.startswith("IMPERATRICE"))
    click_card(pg, defence)
    assert pg.text("#message") == "Accepted: p1 lays a defence face down."
    assert pg.page.is_visible("#hand")  # the same seat attacks next
    assert pg.page.get_attribute("#defence-p1", "data-colour") == "defence_down"
    click_card(pg, attack)
    assert pg.text("#message") == "Accepted: p1 attacks with %s." % attack
    assert state(pg)["acting"] == "p2"
    assert pg.page.is_hidden("#hand")  # covered again: p2 is to act
    assert pg.text("#hand-show") == "Show p2's hand"
    assert hidden_from(pg, [c for c in p1 if c != attack]) == []
    p2 = show_hand(pg)
    assert not set(p2) & set(p1)
    assert hidden_from(pg, [c for c in p1 if c != attack]) == []
    # Every other seat passes, p1 replays, ... until p1 plays its last card.
    steps = 0
    while not rep(pg)["rounds"]:
        steps += 1
        assert steps < 80
        st = state(pg)
        if st["report"]["step"] == "respond":
            pg.click("#btn-done")
            continue
        if pg.page.is_hidden("#hand"):
            pg.click("#hand-show")
        cards = [b.get_attribute("data-card")
                 for b in pg.page.query_selector_all("#hand [data-card]")]
        plain = [c for c in cards if not c.startswith("IMPERATRICE")]
        if st["report"]["step"] == "open":
            click_card(pg, (cards if len(plain) > 1 or len(cards) < 2 else
                            [c for c in cards if c.startswith("IMPERATRICE")])[0])
        else:
            click_card(pg, (plain or cards)[0])
    r = rep(pg)["rounds"][0]
    assert r["seat"] == "p1" and rep(pg)["round"] == 2
    assert "plays its last card" in pg.text("#message")
    assert pg.text("#rounds").startswith("Round 1: p1 ended with %s" % r["card"])


def test_a_refusal_is_explained_and_a_face_down_one_names_no_card(open_page):
    pg = open_page()
    p1 = show_hand(pg)
    other = next(c for c in ("SOLDAT-%d" % k for k in range(1, 11)) if c not in p1)
    pg.js("(c) => kahuna.game.tap(c)", other)  # not p1's card: as a face-down defence
    assert pg.page.get_attribute("#message", "data-code") == "card-not-in-hand"
    assert other not in pg.text("#message")
    assert "the card is not named" in pg.text("#message")
    assert rep(pg)["hand_sizes"]["p1"] == 8
    pg.click("#btn-done")  # an opener cannot pass
    assert pg.page.get_attribute("#message", "data-code") == "wrong-phase"


def test_no_face_down_defence_reaches_the_page(open_page):
    pages = [open_page(), open_page()]
    seen = []
    hand = None
    for pg, index in zip(pages, (0, 1)):
        hand = show_hand(pg)
        plain = [c for c in hand if not c.startswith("IMPERATRICE")]
        attack = plain[-1]
        click_card(pg, hand[index] if hand[index] != attack else hand[2])
        click_card(pg, attack)
        pg.click("#btn-done")  # p2 passes
        st = dict(state(pg))
        del st["now"]  # the page's clock, not the game
        seen.append((public_dom(pg), json.dumps(st, sort_keys=True)))
    assert seen[0] == seen[1]
    assert hidden_from(pages[0], hand[:2]) == []


def test_screenshot_of_a_round_under_way(open_page, request, tmp_path):
    """docs/web-kami.png: p2 has countered or passed, p3 shows its hand
    (`make web-screenshot`)."""
    pg = open_page()
    p1 = show_hand(pg)
    click_card(pg, p1[0])
    click_card(pg, next(c for c in p1[1:] if not c.startswith("IMPERATRICE")))
    attack = rep(pg)["attack"]["card"]
    p2 = show_hand(pg)
    same = [c for c in p2 if c.rpartition("-")[0] == attack.rpartition("-")[0]]
    if same and len(p2) > 2:
        click_card(pg, same[0])
        click_card(pg, next(c for c in p2 if c != same[0] and not c.startswith("IMPERATRICE")))
    else:
        pg.click("#btn-done")
    show_hand(pg)
    pg.page.wait_for_timeout(300)
    out = SCREENSHOT if request.config.getoption("--update-screenshots") else str(
        tmp_path / "web-kami.png")
    pg.page.screenshot(path=out, full_page=True)
    assert os.path.getsize(out) > 20000


def test_a_game_against_the_boards_players_from_the_form(open_page):
    pg = open_page()
    pg.click("#settings summary")
    pg.page.select_option("#new-game select[name=ai]", "p2,p4")
    pg.page.select_option("#new-game select[name=players]", "4")
    pg.page.select_option("#new-game select[name=first]", "p2")
    pg.page.fill("#new-game input[name=seed]", "42")
    pg.click("#new-game-button")
    st = state(pg)
    assert st["settings"] == {"players": 4, "mode": "soldat", "first": "p2", "target": 15,
                              "deal": "seed", "ai": ["p2", "p4"]}
    assert st["solo"]["ai"] == ["p2", "p4"]
    # The board opened for p2 and answers for p4: a person (p1 or p3) is to act.
    assert st["acting"] in ("p1", "p3")
    assert rep(pg)["lines"]["p2"]["attack"]  # p2, the board's, has attacked
    assert "The board:" in pg.text("#message") and "p2 lays a defence face down" in pg.text(
        "#message")
    assert "42" not in pg.text("#panel")  # the seed is never shown back
    for _ in range(3):  # the person passes; the board plays on until a person is to act
        if rep(pg)["step"] != "respond":
            break
        pg.click("#btn-done")
        assert state(pg)["acting"] in ("p1", "p3")
    assert pg.js("() => { try { kahuna.game.hand('p2'); return 'given'; } "
                 "catch (e) { return e.message; } }").endswith("its cards are its own")


def test_two_players_a_centre_card_by_its_click(open_page):
    pg = open_page()
    pg.click("#settings summary")
    pg.page.select_option("#new-game select[name=players]", "2")
    pg.page.select_option("#new-game select[name=mode]", "seigneur")
    pg.page.fill("#new-game input[name=target]", "9")
    pg.page.fill("#new-game input[name=seed]", "21")
    pg.click("#new-game-button")
    assert state(pg)["settings"]["target"] == 9 and rep(pg)["players"] == 2
    assert pg.page.is_visible("#centre-area")
    ups = [b.get_attribute("data-card")
           for b in pg.page.query_selector_all("#centre-cards [data-card]")]
    assert ups == [s["up"] for s in rep(pg)["centre"]] and len(ups) == 8
    pg.click('#centre-cards [data-card="%s"]' % ups[0])  # p1's defence, face down
    assert pg.text("#message") == "Accepted: p1 lays a defence face down from the centre."
    assert rep(pg)["centre"][0]["left"] == 1 and rep(pg)["centre"][0]["up"] != ups[0]
    assert pg.page.get_attribute("#stack-1", "data-colour") == "centre"
    assert pg.page.is_hidden("#hand")  # p1 has not asked to see its hand
    cards = show_hand(pg)
    click_card(pg, next(c for c in cards if not c.startswith("IMPERATRICE")))
    assert state(pg)["acting"] == "p2" and pg.page.is_hidden("#hand")
