"""Remote play's load benchmark: many whole games of Kahuna at once through one Mosquitto
broker on loopback (a private one, host_tools/remote/localbroker.py), each between two
tables with random players, and one dealer; everything but the broker runs in this
process, on one asyncio loop, each table with its own MQTT connection.

    python -m host_tools.measure.remoteload --games 50

It reports the moves per second (requests the dealer accepted), the latency from a
table's request to the event at the other table (p50, p95, max) and checks that no move
was lost or duplicated: every game ends, both its tables hold the same log, numbered
1..N without a hole, and the dealer's log is the same.
"""

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time

from host_tools import games as hostgames
from host_tools.remote import broker as brokermod
from host_tools.remote import dealer as dealermod
from host_tools.remote import dealing
from host_tools.remote import protocol as p
from host_tools.remote.localbroker import Broker, BrokerError
from host_tools.remote.table import Table, random_player


class TimedTable(Table):
    """A table that notes when it sends a request (`sent[(code, base)]`) and, for the
    other table's requests, how long they took to come back as events."""

    def __init__(self, sent, latencies, *args, **kw):
        Table.__init__(self, *args, **kw)
        self.sent = sent
        self.latencies = latencies
        self.news = self.noted

    async def send(self, client, action):
        self.sent[(self.seat.code, self.seat.seq)] = time.perf_counter()
        await Table.send(self, client, action)

    def noted(self, seat, word):
        if word.startswith("event "):
            seq, actor, _ = seat.log[-1]
            t = self.sent.pop((seat.code, seq - 1), None)
            if t is not None and actor not in (None, seat.seat):
                self.latencies.append(time.perf_counter() - t)


def codes(n):
    rand = random.Random(n)
    out = []
    while len(out) < n:
        code = p.new_code(rand)
        if code not in out:
            out.append(code)
    return out


async def run(b, games, quiet_log):
    kw = {"hostname": "127.0.0.1", "port": b.port}
    dealer = dealing.Dealer()  # each game's own 128-bit secret, as a dealer deals
    ready = asyncio.Event()
    serving = asyncio.create_task(dealermod.serve(
        dict(kw, username="dealer", password=b.passwords["dealer"]), dealer, 30, quiet_log,
        ready.set))
    await asyncio.wait_for(ready.wait(), 30)
    part = hostgames.part("kahuna", "remote")
    sent = {}
    latencies = []
    tables = []
    for i, code in enumerate(codes(games)):
        for user, hello in (("alice", p.hello("create", "white", {}, "kahuna")),
                            ("bob", p.hello("join"))):
            t = TimedTable(sent, latencies, code, user, part,
                           random_player(part, i * 2 + len(tables) % 2), quiet_log, hello)
            tables.append(t)
    start = time.perf_counter()
    reports = await asyncio.gather(*[
        brokermod.session(dict(kw, username=t.seat.user, password=b.passwords[t.seat.user]),
                          "kb-%s-%s" % (t.seat.code, t.seat.user), True, 30, t.work,
                          quiet_log) for t in tables])
    wall = time.perf_counter() - start
    serving.cancel()
    return dealer, tables, reports, latencies, wall


def check(dealer, reports):
    """Problems: games whose tables disagree, or whose logs have holes or differ from the
    dealer's."""
    problems = []
    for i in range(0, len(reports), 2):
        a, b = reports[i], reports[i + 1]
        g = dealer.games[a["game"]]
        if a != b:
            problems.append("%s: the tables disagree" % a["game"])
        if [e[0] for e in a["log"]] != list(range(1, a["seq"] + 1)) or a["log"] != g.log:
            problems.append("%s: the log has a hole or differs from the dealer's" % a["game"])
        if g.status() != "over":
            problems.append("%s: not over" % a["game"])
    return problems


def cpu_seconds(pid):
    """The CPU time a process has used (Linux: /proc), or None."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def percentile(sorted_values, q):
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def main(argv=None):
    ap = argparse.ArgumentParser(prog="remoteload", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games at once (default 20)")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")
    errors = []

    def quiet_log(text):
        if "refused" in text or "no connection" in text:
            errors.append(text)

    try:
        with tempfile.TemporaryDirectory(prefix="remoteload-") as root:
            b = Broker(root)
            try:
                cpu = time.process_time()
                dealer, tables, reports, lat, wall = asyncio.run(run(b, args.games, quiet_log))
                cpu = time.process_time() - cpu
                broker_cpu = cpu_seconds(b.proc.pid)
            finally:
                b.stop()
    except (BrokerError, brokermod.Fatal) as e:
        print("remoteload: %s" % e, file=sys.stderr)
        return 2
    moves = sum(len(g.requests) for g in dealer.games.values())
    events = sum(len(g.log) for g in dealer.games.values())
    lat.sort()
    problems = check(dealer, reports)
    print("%d games at once, %d tables (one MQTT connection each), one dealer, one broker"
          % (args.games, len(tables)))
    print("%d moves (%d events) in %.1f s: %.0f moves/s" % (moves, events, wall, moves / wall))
    print("latency, a request to the event at the other table: p50 %.1f ms, p95 %.1f ms, "
          "max %.1f ms (%d samples)" % (1000 * percentile(lat, 0.5),
                                        1000 * percentile(lat, 0.95),
                                        1000 * (lat[-1] if lat else float("nan")), len(lat)))
    kinds = {}
    for text in errors:
        word = text.split()[1].rstrip(":") if text.startswith("refused") else "no-connection"
        kinds[word] = kinds.get(word, 0) + 1
    print("CPU: this process (the dealer and every table) %.1f s, the broker %s"
          % (cpu, "%.1f s" % broker_cpu if broker_cpu is not None else "unknown"))
    print("refusals and lost connections: %d%s" % (len(errors), "".join(
        "; %s %d" % kv for kv in sorted(kinds.items()))))
    print("no move lost or duplicated: %s" % ("yes" if not problems else "NO"))
    for line in problems[:10]:
        print("  " + line)
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
