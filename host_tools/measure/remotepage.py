"""The browser at a remote table, measured: whole games of Kahuna between the static page
(built as `make web` builds it, in headless Chromium driven by Playwright) and a host table
(`python -m host_tools remote join CODE --player random`), through a private Mosquitto's
websockets listener (host_tools/remote/localbroker.py) and the dealer.

    python -m host_tools.measure.remotepage --games 3

The page's seat is played by clicking its option buttons at random (PLAY, the browser tests'
player too). It reports the time the page's Python (MicroPython, WebAssembly) takes for
each message from the broker (feed: the checks, the Seat, the options) and each move, the
events per game and the game's wall time, and whether both tables' reports are the same.
Needs what the browser tests need: npm, Debian's chromium (KAHUNA_CHROMIUM=... elsewhere),
mosquitto.
"""

import argparse
import functools
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

from host_tools.remote.localbroker import Broker, BrokerError
from host_tools.web import build as webbuild

CHROMIUM = os.environ.get("KAHUNA_CHROMIUM", "/usr/bin/chromium")

# The page's random player: a seeded choice among the option buttons (#remote-options),
# weighted as the host tables' random player weights its choice (host_tools/games/kahuna/
# remote.py random_request); it returns the page's report once the game is over (or null
# once the game has reached event `until`, when `until` is not 0).
PLAY = """async ([seed, until]) => {
  let s = seed;
  const rnd = () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; };
  const weights = [[["refill"], 100], [["place", "remove"], 75], [["handicap"], 100],
    [["draw"], 90], [["end_play"], 100], [["discard"], 100], [["decline", "skip_refill"], 100]];
  const end = performance.now() + 90000;
  for (;;) {
    const v = kahuna.remote.view();
    if (v && v.over && v.report) return v.report;
    if (until && v && v.seq >= until) return null;
    const buttons = [...document.querySelectorAll("#remote-options button")];
    if (buttons.length) {
      let chosen = null;
      for (const [names, percent] of weights) {
        const some = buttons.filter((b) => names.includes(JSON.parse(b.dataset.action)[0]));
        if (some.length && rnd() * 100 < percent) {
          chosen = some[Math.floor(rnd() * some.length)];
          break;
        }
      }
      (chosen || buttons[Math.floor(rnd() * buttons.length)]).click();
    }
    if (performance.now() > end) throw new Error("the game did not end");
    await new Promise((r) => setTimeout(r, 5));
  }
}"""

# Every call of the page's table into its Python, timed (ms), by request.
TIMED = """() => {
  const t = kahuna.remote.table;
  const call = t.call.bind(t);
  window.remoteTimes = {};
  t.call = (req) => {
    const a = performance.now();
    const r = call(req);
    (window.remoteTimes[req.do] = window.remoteTimes[req.do] || []).push(performance.now() - a);
    return r;
  };
}"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def spread(values):
    v = sorted(values)
    return "median %.1f ms, p95 %.1f ms, max %.1f ms" % (
        v[len(v) // 2], v[min(len(v) - 1, int(len(v) * 0.95))], v[-1])


def run(games, root, log=print):
    from playwright.sync_api import sync_playwright

    webbuild.build(os.path.join(root, "site"), log=lambda *a: None)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(
        _Quiet, directory=os.path.join(root, "site")))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/" % httpd.server_address[1]
    broker = Broker(os.path.join(root, "broker"), websockets=True)
    procs = []

    def host(args, name):
        with open(os.path.join(root, name + ".log"), "w") as out:
            proc = subprocess.Popen([sys.executable, "-m", "host_tools"] + args,
                                    stdin=subprocess.DEVNULL, stdout=out,
                                    stderr=subprocess.STDOUT)
        procs.append(proc)
        return proc

    times, events, walls, same = {}, [], [], True
    try:
        host(["dealer"] + broker.args("dealer"), "dealer")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                         args=["--no-sandbox", "--disable-gpu"])
            for n in range(games):
                page = browser.new_page()
                page.goto(url)
                page.evaluate("async () => { await kahuna.ready; }")
                page.click("#remote summary")
                page.fill("#remote-form [name=url]", broker.ws_url)
                page.fill("#remote-form [name=user]", "alice")
                page.fill("#remote-form [name=password]", broker.passwords["alice"])
                page.click("#remote-create")
                page.wait_for_function("() => kahuna.remote.state === 'online'")
                page.evaluate(TIMED)
                code = page.evaluate("() => kahuna.remote.view().code")
                theirs = os.path.join(root, "bob-%d.json" % n)
                bob = host(["remote", "join", code, "--player", "random", "--seed",
                            str(n + 1), "--report", theirs] + broker.args("bob"), "bob-%d" % n)
                start = time.monotonic()
                ours = page.evaluate(PLAY, [n + 7, 0])
                walls.append(time.monotonic() - start)
                if bob.wait(60) != 0:
                    raise RuntimeError("the host table ended with %s" % bob.returncode)
                with open(theirs) as f:
                    same = same and json.load(f) == ours
                events.append(ours["seq"])
                for k, v in page.evaluate("() => window.remoteTimes").items():
                    times.setdefault(k, []).extend(v)
                page.close()
                log("game %d: %d events in %.1f s" % (n + 1, events[-1], walls[-1]))
            browser.close()
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
                proc.wait(10)
        broker.stop()
        httpd.shutdown()
    log("%d game(s), page (Chromium) against a host table with random players, both "
        "through the broker's websockets listener" % games)
    log("events per game: %s; a game's wall time %.1f-%.1f s"
        % (", ".join(map(str, events)), min(walls), max(walls)))
    for k in ("feed", "move"):
        if k in times:
            log("the page's Python per %s (%d): %s" % (k, len(times[k]), spread(times[k])))
    log("both tables' reports the same: %s" % ("yes" if same else "NO"))
    return same


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools.measure.remotepage",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=3, help="games to play, one after another")
    args = ap.parse_args(argv)
    if args.games < 1:
        print("remotepage: --games must be at least 1", file=sys.stderr)
        return 2
    try:
        with tempfile.TemporaryDirectory(prefix="remotepage-") as root:
            return 0 if run(args.games, root) else 1
    except (BrokerError, webbuild.BuildError) as e:
        print("remotepage: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
