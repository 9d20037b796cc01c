"""Where the emulated RP2040's time goes (`chipbench --profile`): the core sampled between
the emulator's execution batches, and the samples summed over windows of RP2040 time.

In the emulator's process (host_tools/fakehw/chiprig.py adds the `Sampler` when
CHIPRIG_PROFILE names a file): every 10 us of RP2040 time (an alarm on the emulated clock,
so the samples are even in RP2040 time, whatever the emulator's own speed), one line

    ns cycles waiting ipsr pc mark

the emulated clock (ns), the cycles the core has executed (idle jumps add none), whether
it waits in WFI/WFE (1/0), the exception it is in (IPSR: 0 thread mode, 15 SysTick, 16 +
n the RP2040's IRQ n, e.g. 21 USBCTRL, 16..19 the timer's alarms), its PC, and the
firmware's own mark (the watchdog's SCRATCH0 register, 0 unless a probe in the firmware
writes it: `machine.mem32[0x4005800C] = n`).

`summarize(samples, windows)` turns those into: the idle time, exact (each interval's
emulated time less its executed cycles at 8 ns), and the busy time split the way the
samples fall (each 10 us interval's executed cycles counted to the state the core was in
when it ended: a sample, not an exact trace): thread mode vs each
exception, each mark, and the hottest PC ranges of flash.
"""

import collections
import os

SCRATCH0 = 0  # the watchdog scratch register a probe writes (index into scratch_data)
CYCLE_NS = 8  # 125 MHz
PC_BUCKET = 256  # bytes of flash per PC range
EVERY_NS = 10000  # a sample every 10 us of RP2040 time
EXCEPTIONS = {0: "thread", 11: "SVCall", 14: "PendSV", 15: "SysTick",
              16: "TIMER_IRQ_0", 17: "TIMER_IRQ_1", 18: "TIMER_IRQ_2", 19: "TIMER_IRQ_3",
              21: "USBCTRL_IRQ", 23: "PIO0_IRQ_0", 27: "DMA_IRQ_0", 29: "IO_IRQ_BANK0",
              31: "SIO_IRQ_PROC0", 39: "I2C0_IRQ"}


def exception_name(n):
    return EXCEPTIONS.get(n, "IRQ %d" % (n - 16) if n >= 16 else "exception %d" % n)


# ---------------------------------------------------------------------- in the emulator
class Sampler:
    """A board-spec extra (host_tools/fakehw/chiprig.py adds it when CHIPRIG_PROFILE names
    a file): an alarm on the emulated clock every `every_ns` of RP2040 time writes one
    sample of the core to `path` (see the module's docstring). The alarm is the
    emulator's, not the chip's: the firmware runs as it would without it."""

    def __init__(self, path, every_ns=EVERY_NS):
        self.path = path
        self.every_ns = every_ns
        self.out = None

    def attach(self, rp):
        self.out = open(self.path, "w", buffering=1 << 16)
        core = rp.core
        clock = rp.clock
        scratch = rp.watchdog.scratch_data
        write = self.out.write
        every = self.every_ns

        def sample():
            write("%d %d %d %d %d %d\n" % (
                clock.nanos, core.cycles, 1 if core.waiting else 0, core.ipsr,
                core.registers[15], scratch[SCRATCH0]))
            alarm.schedule(every)

        alarm = clock.create_alarm(sample)
        alarm.schedule(every)


# ---------------------------------------------------------------------- afterwards
def parse(lines):
    """[(ns, cycles, waiting, ipsr, pc, mark)] from the sample lines (a torn last line, as
    a stopped emulator leaves it, is skipped)."""
    samples = []
    for line in lines:
        parts = line.split()
        if len(parts) != 6:
            continue
        try:
            samples.append(tuple(int(float(p)) for p in parts))
        except ValueError:
            continue
    return samples


def read(path):
    """`read_existing`, with no samples for a missing file (a run that made none)."""
    if not os.path.exists(path):
        return []
    return read_existing(path)


def summarize(samples, windows, marks=None):
    """The RP2040's time over `windows` ([(start ns, end ns)]) from `samples` (`parse`'s):
    {"ns", "idle_ns", "busy_ns", "samples", "by_exception": {name: ns},
    "by_mark": {name: {"busy_ns", "idle_ns"}}, "hot_pcs": [(pc range start, ns)]}.
    An interval between two samples counts when its end is in a window; a reset of the
    core (its cycles going back) ends the interval uncounted. `marks`: {mark: name}."""
    marks = marks or {}
    res = {"ns": 0, "idle_ns": 0, "busy_ns": 0, "samples": 0}
    by_exc = collections.Counter()
    by_mark_busy = collections.Counter()
    by_mark_idle = collections.Counter()
    pcs = collections.Counter()
    wins = sorted(windows)
    for prev, cur in zip(samples, samples[1:]):
        ns, cycles, waiting, ipsr, pc, mark = cur
        if not any(a < ns <= b for a, b in wins):
            continue
        dns = ns - prev[0]
        dcyc = cycles - prev[1]
        if dns <= 0 or dcyc < 0:
            continue
        busy = min(dns, dcyc * CYCLE_NS)
        idle = dns - busy
        res["ns"] += dns
        res["busy_ns"] += busy
        res["idle_ns"] += idle
        res["samples"] += 1
        name = marks.get(mark, str(mark))
        by_mark_busy[name] += busy
        by_mark_idle[name] += idle
        by_exc[exception_name(ipsr)] += busy
        if ipsr == 0 and not waiting:
            pcs[pc - pc % PC_BUCKET] += busy
    res["by_exception"] = dict(by_exc.most_common())
    res["by_mark"] = dict((m, {"busy_ns": by_mark_busy[m], "idle_ns": by_mark_idle[m]})
                          for m in sorted(by_mark_busy, key=lambda m: -(by_mark_busy[m]
                                                                        + by_mark_idle[m])))
    res["hot_pcs"] = pcs.most_common(12)
    return res


def table(res, title="the AI thinking"):
    """The summary as text lines."""
    total = res["ns"] or 1

    def row(label, ns):
        return "  %-44s %9.1f ms %5.1f%%" % (label, ns / 1e6, 100.0 * ns / total)

    lines = ["Profile of %s: %.1f ms of RP2040 time, %d samples (about one per %d us)"
             % (title, res["ns"] / 1e6, res["samples"], EVERY_NS // 1000),
             row("idle (WFI/WFE), exact", res["idle_ns"]),
             row("executing", res["busy_ns"]),
             "executing, by the exception the core was in (sampled):"]
    for name, ns in res["by_exception"].items():
        lines.append(row(name, ns))
    if len(res["by_mark"]) > 1 or "0" not in res["by_mark"]:
        lines.append("by the firmware's mark (watchdog SCRATCH0), executing + idle:")
        for name, v in res["by_mark"].items():
            lines.append(row("%s (idle %.1f ms)" % (name, v["idle_ns"] / 1e6),
                             v["busy_ns"] + v["idle_ns"]))
    lines.append("hottest PC ranges in thread mode (%d bytes each):" % PC_BUCKET)
    for pc, ns in res["hot_pcs"]:
        lines.append(row("0x%08x" % pc, ns))
    return lines


def timeline(samples, start_ns, end_ns, marks=None):
    """The firmware's marks in the order they ran between `start_ns` and `end_ns`:
    [(name, start ns, ns, idle ns)], one entry per run of samples with the same mark (the
    intervals counted as `summarize` counts them: each to the sample that ends it). Where
    `summarize` says how much time each phase took, this says how they follow each other:
    a window of the loop (a frame, the inputs, a slice, a look at the heap...) as it ran."""
    marks = marks or {}
    runs = []
    for prev, cur in zip(samples, samples[1:]):
        ns, cycles, _waiting, _ipsr, _pc, mark = cur
        if ns <= start_ns or ns > end_ns:
            continue
        dns = ns - prev[0]
        dcyc = cycles - prev[1]
        if dns <= 0 or dcyc < 0:
            continue
        idle = dns - min(dns, dcyc * CYCLE_NS)
        name = marks.get(mark, str(mark))
        if runs and runs[-1][0] == name:
            last = runs[-1]
            runs[-1] = (name, last[1], last[2] + dns, last[3] + idle)
        else:
            runs.append((name, prev[0], dns, idle))
    return runs


def timeline_lines(runs):
    """`timeline`'s runs as text, one line each: when it began (RP2040 ms), the mark, how
    long it ran (us) and how much of that the core was idle."""
    return ["%12.3f ms  %-12s %8.0f us  (idle %.0f us)" % (start / 1e6, name, ns / 1e3,
                                                          idle / 1e3)
            for name, start, ns, idle in runs]


def main(argv=None):
    """`python -m host_tools chipprofile PROFILE`: the marks of a probe, in the order they
    ran over a stretch of a `chipbench --profile --keep DIR` run's DIR/profile.txt."""
    import argparse
    import math
    import sys

    ap = argparse.ArgumentParser(
        prog="python -m host_tools chipprofile",
        description="The phases a probe in the firmware marked (machine.mem32[0x4005800C] "
                    "= n), in the order they ran, from a `chipbench --profile --keep DIR` "
                    "run's DIR/profile.txt: one line per run of a mark, with its start "
                    "(RP2040 ms), length and idle time.")
    ap.add_argument("profile", help="the samples: profile.txt in chipbench's --keep folder")
    ap.add_argument("--from", dest="start", type=float, default=None, metavar="MS",
                    help="where to start, in RP2040 ms (default: the first sample)")
    ap.add_argument("--ms", type=float, default=100.0,
                    help="how much RP2040 time to show (default 100 ms)")
    ap.add_argument("--mark", action="append", default=[], metavar="N=NAME",
                    help="a name for mark N (repeat it: --mark 1=frame --mark 4=slice)")
    args = ap.parse_args(argv)
    names = {}
    for item in args.mark:
        n, sep, name = item.partition("=")
        if not sep or not n.strip().lstrip("-").isdigit() or not name.strip():
            ap.error("--mark wants N=NAME (a number, then its name), not %r" % item)
        names[int(n)] = name.strip()
    if not math.isfinite(args.ms) or args.ms <= 0:
        ap.error("--ms wants a length over 0, not %g" % args.ms)
    if args.start is not None and not math.isfinite(args.start):
        ap.error("--from wants a time in ms, not %g" % args.start)
    try:
        samples = read_existing(args.profile)
    except OSError as e:
        print("chipprofile: %s: %s" % (args.profile, e.strerror or e), file=sys.stderr)
        return 2
    if len(samples) < 2:
        print("chipprofile: %s holds no samples (is it a chipbench --profile run's "
              "profile.txt?)" % args.profile, file=sys.stderr)
        return 2
    start = samples[0][0] if args.start is None else int(args.start * 1e6)
    runs = timeline(samples, start, start + int(args.ms * 1e6), names)
    if not runs:
        print("chipprofile: no samples between %.3f and %.3f ms (the samples run from "
              "%.3f to %.3f ms)" % (start / 1e6, start / 1e6 + args.ms, samples[0][0] / 1e6,
                                    samples[-1][0] / 1e6), file=sys.stderr)
        return 2
    print("\n".join(timeline_lines(runs)))
    return 0


def read_existing(path):
    """`read`, but a missing file is an OSError (the command line names one), and a file
    that is not text gives no samples."""
    with open(path, errors="replace") as f:
        return parse(f)
