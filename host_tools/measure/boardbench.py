"""`python -m host_tools bench --port PORT` (`make bench-board PORT=...`): the board's own
benchmark, asked over its serial link (`{"cmd": "bench"}`, firmware/core/loopstats.py):
what its loop did since it booted, timed by the board's clock. A real Pico, the virtual
board and the emulated RP2040 (`make bench-chip`) answer it alike. It changes no game
state."""

import json
import sys

from host_tools.maker.findport import choose as choose_port
from host_tools.maker.linkclient import LinkClient, PortError

EXAMPLE = "make bench-board PORT=/dev/ttyACM0"


class NoAnswer(Exception):
    pass


def ask(client, timeout, reset=False):
    """The board's {"event": "bench"} answer (a LinkClient's), or NoAnswer."""
    client.send({"cmd": "bench", "reset": True} if reset else {"cmd": "bench"})
    msg = client.wait(("bench",), timeout)
    if msg is None:
        raise NoAnswer("the board did not answer {\"cmd\": \"bench\"} within %s s" % timeout)
    if "error" in msg:
        raise NoAnswer("the board refused {\"cmd\": \"bench\"}: %s (firmware older than the "
                       "bench command? `make flash` puts this one on it)" % msg["error"])
    return msg


def _cell(series, key, fmt="%.1f"):
    v = series.get(key)
    return "-" if v is None else fmt % v


def _triple(series, fmt="%.1f"):
    """p50 / p95 / max of one series of the report."""
    return " / ".join(_cell(series, k, fmt) for k in ("p50", "p95", "max"))


def _looks(looks):
    """The looks at the heap: their time in all, and each on average."""
    n = looks.get("n", 0)
    total = looks.get("total")
    if not n or total is None:
        return "-"
    return "%.0f (%.1f each)" % (total, total / n)


def _share(long):
    of = long.get("of", 0)
    return "%.0f%%" % (100.0 * long.get("n", 0) / of) if of else "-"


def table(rep):
    """The report as text."""
    lines = ["%-8s %7s %9s %24s %8s %20s %10s" % (
        "task", "period", "ticks", "start to start, ms", "overruns", "in the tick, ms",
        "total, s"), "%-8s %7s %9s %24s %8s %20s %10s" % (
        "", "ms", "", "p50 / p95 / max", "", "p50 / p95 / max", "")]
    for t in rep.get("tasks", []):
        busy = t["busy"]
        total = busy.get("total")
        lines.append("%-8s %7s %9d %24s %8d %20s %10s" % (
            t["name"], t["period_ms"], busy["n"], _triple(t["period"]), t["overruns"],
            _triple(busy, "%.2f"), "-" if total is None else "%.1f" % (total / 1000)))
    r = rep.get("reader", {})
    ai = rep.get("ai", {})
    heap = rep.get("heap", {})
    rows = [
        ("reader: steps of the poll that found a card (p50 / p95 / max)",
         _triple(r.get("poll_steps", {}), "%d"), r.get("poll_steps", {}).get("n", 0)),
        ("reader: that poll's first step to the UID, ms", _triple(r.get("poll_ms", {})),
         r.get("poll_ms", {}).get("n", 0)),
        ("tap: UID to the frame written for it, ms", _triple(r.get("uid_to_frame_ms", {})),
         r.get("uid_to_frame_ms", {}).get("n", 0)),
        ("frame output (strip.show), ms", _triple(rep.get("frame_out_ms", {}), "%.2f"),
         rep.get("frame_out_ms", {}).get("n", 0)),
        ("AI decision: first slice to decision, ms", _triple(ai.get("elapsed_ms", {}), "%.0f"),
         ai.get("elapsed_ms", {}).get("n", 0)),
        ("AI decision: time in its slices, ms", _triple(ai.get("compute_ms", {}), "%.0f"),
         ai.get("compute_ms", {}).get("n", 0)),
        ("AI decision: slices", _triple(ai.get("slices", {}), "%d"),
         ai.get("slices", {}).get("n", 0)),
        ("AI decision: time in no tick, collection or heap look, ms",
         _triple(ai.get("outside_ms", {}), "%.0f"), ai.get("outside_ms", {}).get("n", 0)),
        ("AI decision: time in collections and heap looks, ms",
         _triple(ai.get("gc_ms", {}), "%.0f"), ai.get("gc_ms", {}).get("n", 0)),
        ("AI slices longer than %s ms (10 ms + 20%%), of all its slices: n = all"
         % ai.get("long_slices", {}).get("over_ms", "-"),
         "%d (%s)" % (ai.get("long_slices", {}).get("n", 0), _share(ai.get("long_slices", {}))),
         ai.get("long_slices", {}).get("of", 0)),
        ("automatic collections seen: longest tick around one, ms",
         _triple(heap.get("gc_stall_ms", {})), heap.get("gc_seen", 0)),
        ("collections at quiet moments (after a poll or a slice), each, ms",
         _triple(heap.get("gc_quiet_ms", {})), heap.get("gc_quiet_ms", {}).get("n", 0)),
        ("looks at the free heap before them (gc.mem_free): in all, ms",
         _looks(heap.get("gc_looks", {})), heap.get("gc_looks", {}).get("n", 0)),
    ]
    lines.append("")
    lines.append("%-62s %22s %6s" % ("measure", "p50 / p95 / max", "n"))
    for label, cells, n in rows:
        lines.append("%-62s %22s %6d" % (label, cells, n))
    lines.append("")

    def kb(v):
        return "-" if v is None else "%.1f KB" % (v / 1024)

    lines.append("heap: live after a full collection %s of %s; free now %s, lowest free seen "
                 "%s (garbage not yet collected counts as used); a full collection took %s "
                 "ms" % (
                     kb(heap.get("live")), kb(heap.get("total")), kb(heap.get("free")),
                     kb(heap.get("free_low")), heap.get("collect_ms", "-")))
    lines.append("p50 and p95 over the last %s samples of each (the last %s decisions of the "
                 "AI's); counts, max and totals since the board booted (or the last reset of "
                 "these figures). Times by the board's own clock (time.ticks_us)."
                 % (rep.get("ring", "?"), rep.get("ai_ring", rep.get("ring", "?"))))
    return "\n".join(lines)


def main(port, as_json=False, reset=False, timeout=10.0):
    port = choose_port("bench", port, EXAMPLE)
    if port is None:
        return 2
    try:
        client = LinkClient(port)
    except PortError as e:
        print("bench: %s" % e, file=sys.stderr)
        return 2
    try:
        rep = ask(client, timeout, reset)
    except NoAnswer as e:
        print("bench: %s" % e, file=sys.stderr)
        return 1
    finally:
        client.close()
    print(json.dumps(rep) if as_json else table(rep))
    return 0
