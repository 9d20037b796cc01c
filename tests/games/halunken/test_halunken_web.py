"""Halunken & Spelunken on the static web page (make web), in Debian's Chromium: the
chooser offers it, a hot-seat game is played by clicks (placing, the auction, the secret
choice, the reveal), no secret choice reaches the page before the reveal (two pages that
choose different cards show the same DOM and the same state until then), and a whole game
against the board's players is played by clicks for p1 alone: what the board does between
clicks shows on the page unasked."""

import json
import os
import re

import halunken_webplayer
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


# What p1 waits for after each click in a game against the board's players: the page
# (its DOM, drawn from the state the page holds) shows p1 to act, the reveal, or the end.
P1_OR_REVEAL_OR_OVER = """() => {
    const d = document.body.dataset;
    return d.turn === 'p1' || d.step === 'reveal'
        || document.getElementById('status-line').textContent.includes('the game is over');
}"""
WAIT_MS = 20000


def wait_for_p1(pg, after):
    """Wait (at most WAIT_MS) until the page shows p1 to act, the reveal or the game's end,
    with no click: else fail saying what was awaited, what the page shows and what the
    game itself is at."""
    try:
        pg.wait(P1_OR_REVEAL_OR_OVER, timeout=WAIT_MS)
    except Exception as e:  # playwright's TimeoutError
        shown = pg.js("() => [document.body.dataset.step, document.body.dataset.turn, "
                      "document.getElementById('status-line').textContent]")
        game = pg.js("() => kahuna.game._call({op: 'state'}).state.report")
        raise AssertionError(
            "after %s: waited %d s for the page to show p1 to act, the reveal or the game's "
            "end, without a click; the page shows step %r, turn %r (%r); the game is at "
            "step %r, turn %r" % (after, WAIT_MS // 1000, shown[0], shown[1], shown[2],
                                  game["step"], game["turn"])) from e


def click_request(pg, req):
    """The click that makes the page send `req` (halunken_webplayer's move for p1)."""
    if req["op"] == "pick":
        option = req["option"]
        pg.click("#space-%s" % option if option.startswith("T") else
                 '#options [data-option="%s"]' % option)
    elif req["op"] == "press":
        pg.click("#btn-%s" % req["button"])
    elif rep(pg)["step"] == "choose":
        pg.click('#choice-cards [data-card="%s"]' % req["card"])
    else:  # a crew card: p1's own to offer, or the victim's or the port's to steal
        pg.click('#seats [data-card="%s"], #port [data-card="%s"]' % (req["card"],
                                                                      req["card"]))


def p1_hand(pg):
    """p1 shows its movement cards, as a person would (the page's `hand` request)."""
    if pg.page.is_hidden("#choice-cards"):
        assert pg.text("#choice-show") == "Show p1's cards"
        pg.click("#choice-show")
    return [c.get_attribute("data-card")
            for c in pg.page.query_selector_all("#choice-cards [data-card]")]


def board_cards_shown(pg, state):
    """The board's movement card names on the page or in its state that are not played
    (public) yet: none may be, before the reveal."""
    played = {c for seat in ("p2", "p3") for c in state["report"]["played"][seat]}
    names = set(re.findall(r"\bP[23]-(?:\d+|RUM)\b", public_dom(pg) + json.dumps(state)))
    return names - played


def test_a_whole_game_against_the_boards_players(open_page):
    """The form's "The board plays" p2 and p3: the person clicks for p1 only and waits on
    the page; the board places, bids, chooses, steals and names RUM's number for p2 and
    p3, in its own ticks as well (after a walk, or after another board seat's move), and
    the page shows it without a click, to the end of the game; the board's cards never
    reach the page before the reveal."""
    pg = open_page()
    pg.click("#settings summary")
    pg.page.select_option("#new-game select[name=ai]", "p2,p3")
    pg.page.fill("#new-game input[name=seed]", "5")
    pg.click("#new-game-button")
    assert pg.view()["state"]["solo"]["ai"] == ["p2", "p3"]
    assert pg.js("() => { try { kahuna.game.hand('p2'); return 'given'; } "
                 "catch (e) { return e.message; } }").endswith("its cards are its own")
    after = "the new game"
    clicks = 0
    waited = 0  # clicks after which the board was still to act: shown later, unasked
    rounds = set()
    while True:
        if rep(pg)["turn"] in ("p2", "p3") and rep(pg)["step"] != "reveal":
            waited += 1
        wait_for_p1(pg, after)
        state = pg.view()["state"]
        report = state["report"]
        assert document_shows(pg, report)
        if report["phase"] == "over":
            break
        rounds.add(report["round"])
        if report["step"] == "reveal":
            assert board_cards_shown(pg, state) == set()  # 8.3: nothing of their choices
            assert report["chosen"] == 3
        clicks += 1
        assert clicks < 400, "no end after 400 clicks"
        req = halunken_webplayer.move(lambda _req: {"cards": p1_hand(pg)}, state)
        click_request(pg, req)
        after = "click %d (%s, %s in step %s of round %d)" % (
            clicks, req["op"], req.get("option") or req.get("button") or req.get("card"),
            report["step"], report["round"])
        message = pg.view()["state"]["message"]
        assert message["kind"] != "refused", (after, message)
    final = pg.view()["state"]
    assert final["report"]["round"] == 8 and rounds == set(range(9))  # 0: the set-up
    assert pg.text("#status-line").endswith(
        "the game is over: won by " + " and ".join(final["report"]["winner"]))
    fresh = pg.js("() => kahuna.game._call({op: 'state'}).state")
    assert dict(fresh, now=0) == dict(final, now=0)  # the page holds the game's last state
    assert waited > 0  # the board played on after some click, and the page showed it


def document_shows(pg, report):
    """The panel is drawn from the state the page holds (not left from an older one)."""
    shown = pg.js("() => [document.body.dataset.step, document.body.dataset.turn]")
    return shown == [report["step"] or "", report["turn"] or ""]
