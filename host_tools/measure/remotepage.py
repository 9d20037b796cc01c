"""The browser at a remote table, measured: whole games of Kahuna, Halunken & Spelunken or
Kami between the static page (built as `make web` builds it, in headless Chromium driven by
Playwright) and host tables (`python -m host_tools remote join CODE --player random`),
through a private Mosquitto's websockets listener (host_tools/remote/localbroker.py) and
the dealer.

    python -m host_tools.measure.remotepage --games 3
    python -m host_tools.measure.remotepage --game halunken --players 3 --games 3

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
HOSTS = ("bob", "carol", "dave")  # the host tables' broker users (localbroker.TABLES)

# The page's random player: a seeded choice among the option buttons (#remote-options),
# weighted as the host tables' random player weights its choice (each game's remote part's
# random_request: WEIGHTS, Kahuna's by default; Halunken's is uniform); it returns the
# page's report once the game is over (or null once the game has reached event `until`,
# when `until` is not 0).
KAMI_PLAYS = ["defend", "attack", "counter", "show", "shown", "cancel", "keep"]
WEIGHTS = {
    "kahuna": [[["refill"], 100], [["place", "remove"], 75], [["handicap"], 100],
               [["draw"], 90], [["end_play"], 100], [["discard"], 100],
               [["decline", "skip_refill"], 100]],
    "halunken": [],
    "kami": [[KAMI_PLAYS, 80], [KAMI_PLAYS + ["pass"], 100]],
}
PLAY = """async ([seed, until, weights]) => {
  let s = seed;
  const rnd = () => { s = (s * 1103515245 + 12345) % 2147483648; return s / 2147483648; };
  weights = weights || KAHUNA;""".replace("KAHUNA", json.dumps(WEIGHTS["kahuna"])) + """
  const end = performance.now() + 180000;
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


def open_game(page, url, broker, game="kahuna", players=2, user="alice"):
    """The page at `url` (`?game=`) creates a game of `players` seats as `user`: its code
    once online."""
    page.goto(url + "?game=" + game)
    page.evaluate("async () => { await kahuna.ready; }")
    page.click("#remote summary")
    page.fill("#remote-form [name=url]", broker.ws_url)
    page.fill("#remote-form [name=user]", user)
    page.fill("#remote-form [name=password]", broker.passwords[user])
    if game != "kahuna":
        page.select_option("#remote-form [name=players]", str(players))
    page.click("#remote-create")
    page.wait_for_function("() => kahuna.remote.view() && kahuna.remote.state === 'online'",
                           timeout=15000)
    return page.evaluate("() => kahuna.remote.view().code")


def run(games, root, log=print, game="kahuna", players=2):
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
                code = open_game(page, url, broker, game, players)
                page.evaluate(TIMED)
                others = []
                for k, user in enumerate(HOSTS[:players - 1]):
                    theirs = os.path.join(root, "%s-%d.json" % (user, n))
                    others.append((theirs, host(
                        ["remote", "join", code, "--player", "random", "--seed",
                         str(n + 1 + 10 * k), "--report", theirs, "--secrets",
                         os.path.join(root, "secrets")] + broker.args(user),
                        "%s-%d" % (user, n))))
                start = time.monotonic()
                ours = page.evaluate(PLAY, [n + 7, 0, WEIGHTS[game]])
                walls.append(time.monotonic() - start)
                for theirs, proc in others:
                    if proc.wait(60) != 0:
                        raise RuntimeError("a host table ended with %s" % proc.returncode)
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
    log("%d game(s) of %s, %d seats: the page (Chromium) against %d host table(s) with "
        "random players, through the broker's websockets listener"
        % (games, game, players, players - 1))
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
    ap.add_argument("--game", default="kahuna", choices=sorted(WEIGHTS),
                    help="the game (default kahuna)")
    ap.add_argument("--players", type=int, default=2,
                    help="seats: the page's and one host table each for the others "
                         "(Halunken, Kami: 2 to 4; default 2)")
    args = ap.parse_args(argv)
    if args.games < 1:
        print("remotepage: --games must be at least 1", file=sys.stderr)
        return 2
    top = 2 if args.game == "kahuna" else 4
    if not 2 <= args.players <= top:
        print("remotepage: --players must be 2%s for %s" % (
            "" if top == 2 else " to %d" % top, args.game), file=sys.stderr)
        return 2
    try:
        with tempfile.TemporaryDirectory(prefix="remotepage-") as root:
            return 0 if run(args.games, root, game=args.game, players=args.players) else 1
    except (BrokerError, webbuild.BuildError) as e:
        print("remotepage: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
