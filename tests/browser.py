"""A real browser for the web page's tests: Debian's Chromium (never a downloaded one),
headless, driven by Playwright for Python, with a fresh profile; and a local static
server for the built site (the same as `python -m http.server`)."""

import functools
import http.server
import os
import shutil
import threading

# The system's Chromium: Debian's by default, any other with KAHUNA_CHROMIUM=/path/to/it.
CHROMIUM = os.environ.get("KAHUNA_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class BrowserMissing(RuntimeError):
    pass


def check():
    """Raise BrowserMissing saying what to install when the browser or Playwright is not
    there (`make test` installs both on CI)."""
    missing = []
    if not os.path.exists(CHROMIUM):
        missing.append("Debian's chromium (apt-get install -y chromium chromium-driver)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing.append("the playwright Python package (make venv installs it)")
    if shutil.which("npm") is None:
        missing.append("npm, to build the site (apt-get install -y nodejs npm)")
    if missing:
        raise BrowserMissing("the browser tests need " + " and ".join(missing))


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class StaticServer:
    """Serves `folder` on 127.0.0.1 (a free port) in a thread."""

    def __init__(self, folder):
        handler = functools.partial(_Quiet, directory=str(folder))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = "http://127.0.0.1:%d/" % self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def launch(playwright, profile_dir, **context_options):
    """A persistent context on a fresh profile folder (`profile_dir`, made empty)."""
    return playwright.chromium.launch_persistent_context(
        str(profile_dir), executable_path=CHROMIUM, args=ARGS, headless=True,
        **context_options)
