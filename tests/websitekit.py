"""The built web page in a real browser, shared by the games' browser tests
(tests/games/*/test_*web.py): the site built once per module (`site`), served (`server`),
a Chromium context (`context`, VIEWPORT) and `Page`, a loaded page with what it asked the
network for and any error it raised."""

import pytest

import browser
from host_tools.web import build as webbuild

VIEWPORT = {"width": 1360, "height": 1200}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    try:
        browser.check()
    except browser.BrowserMissing as e:
        pytest.fail("%s; `make test` installs them when CI=true" % e, pytrace=False)
    out = tmp_path_factory.mktemp("site") / "web"
    webbuild.build(str(out), log=lambda *a: None)
    return out


@pytest.fixture(scope="module")
def server(site):
    srv = browser.StaticServer(site)
    yield srv
    srv.close()


@pytest.fixture(scope="module")
def context(tmp_path_factory, site):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        ctx = browser.launch(p, tmp_path_factory.mktemp("profile"), viewport=VIEWPORT)
        yield ctx
        ctx.close()


class Page:
    """A loaded page, with what it asked the network for and any error it raised."""

    def __init__(self, context, url, keep=False):
        """`keep`: the game the page kept in the browser's storage (a reload's) goes on;
        else the page starts afresh, as each test expects (the context is the module's)."""
        self.page = context.new_page()
        if not keep:
            self.page.add_init_script("try { localStorage.clear(); } catch (e) {}")
        self.errors = []
        self.requests = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.goto(url)
        self.page.evaluate("async () => { await kahuna.ready; }")

    def js(self, expr, arg=None):
        return self.page.evaluate(expr, arg)

    def view(self):
        return self.js("() => kahuna.view()")

    def click(self, selector):
        self.page.click(selector)

    def text(self, selector):
        return self.page.inner_text(selector)

    def wait(self, expr, arg=None, timeout=5000):
        self.page.wait_for_function(expr, arg=arg, timeout=timeout)
