"""The take-back button on the static page, in a real browser (headless Chromium, the
site built as `make web` builds it): white's first turn played by clicking, black asks to
take it back, agrees with ok (hot seat: the player on turn), and the page walks through
the steps in its hint until the board is as before the turn."""

import pytest
from test_web import SEED, deal_all, play_a_bridge, wait_bar

from websitekit import Page

pytestmark = pytest.mark.slow


@pytest.fixture
def page(context, server):
    pg = Page(context, server.url + "?seed=%d" % SEED)
    yield pg
    assert pg.errors == []
    pg.page.close()


def test_the_take_back_button_walks_through_the_steps(page):
    deal_all(page)
    page.click("#btn-takeback")  # white's first turn, nothing done: nothing to take back
    assert page.text("#message").startswith("Refused (no-takeback)")
    conn = play_a_bridge(page, "white")
    wait_bar(page, conn, "white")
    page.click("#btn-done")
    page.click("#deck")  # white draws the deck's top card: black's turn
    state = page.view()["state"]
    assert state["report"]["turn"] == "black"
    deck = state["table"]["deck"]
    page.click("#btn-takeback")
    assert "ok agrees" in page.text("#hint")
    page.click("#btn-ok")
    steps = []
    while page.view()["state"]["takeback"]:
        hint = page.text("#hint")
        assert hint.startswith("Take back, step %d of " % (len(steps) + 1))
        steps.append(hint)
        page.click("#btn-ok")
    assert any("the card you drew" in s for s in steps)
    assert any("lift white's bridge from %s" % conn in s for s in steps)
    state = page.view()["state"]
    assert state["report"]["turn"] == "white" and state["report"]["bridges"] == {}
    assert state["table"]["deck"] == deck + 1  # the drawn card is back on the deck
    wait_bar(page, conn, "free")
