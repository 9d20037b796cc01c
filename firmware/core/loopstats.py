"""The board's own benchmark: statistics of its loop, kept as it runs and told on the
serial link (`{"cmd": "bench"}`, core.link), so a real Pico measures itself.

main.py wires it in: `tasks(app)` wraps each of the app's ticks (App.tasks()), and
`watch_reader` and `watch_strip` wrap the reader's poll and the strip's show. Recorded, in
microseconds of the board's own clock (time.ticks_us):

- per task (reader, inputs, frame, ai): ticks run, the period from one tick's start to the
  next (p50, p95 and max), overruns (a start later than twice the task's period: a beat
  missed), the time spent in the tick (p50, max, total);
- the reader: for each card that arrives, the poll that found it (reader steps, and the
  time from that poll's first step to the UID), and the UID to the end of the frame
  written because of it (the tap as the board sees it);
- the frame output: the strip's show (copy to the driver buffer and the write);
- the computer opponent (a solo game): per decision, the time from its first slice to the
  decision, the time spent in its slices, how many slices, and the time in no tick (nor
  a collection or a look at the heap main.py made: the asyncio loop's turns, interrupts);
  and of all its slices, how many ran longer than LONG_SLICE_US; read through the solo
  interface every game's solo object has (docs/platform.md): `thinking` (True while a
  decision is being worked out over several ticks) and `decisions` (how many it made; a
  tick that raises it completed one). A decision made within one tick is one slice;
- the heap: each look at the free heap main.py's collector makes (`heap_seen`, core.quietgc;
  timed, its low point, and a rise of more than GC_RISE bytes between two looks counts as an
  automatic collection, with the longest tick run since the previous look as its stall;
  the benchmark makes no look of its own: gc.mem_free() walks the whole heap, about 9 ms
  on the chip), the collections main.py makes at quiet moments (`collected`, timed;
  counted apart), and at each report a full collection, timed, and the live heap after
  it.

p50 and p95 are over the last RING samples of each series (AI_RING of the decisions' own:
"ai_ring"); counts, max and totals are
since boot (or the last {"cmd": "bench", "reset": true}). Recording allocates nothing:
small integers into one array and attributes made once (tests/core/test_loopstats.py checks
the frame stays at 0 bytes a frame). The report (core.benchreport, loaded when asked)
allocates.
"""

import gc
from array import array

from core.ticks import ticks_diff, ticks_us

try:
    from core.loopnative import add as _add  # a sample in machine code: a few us
except (ImportError, SyntaxError, ValueError):
    # CPython; a MicroPython without a native emitter; the virtual board (the unix port),
    # which is given the Pico's armv6m build ("incompatible .mpy arch"): _add_py below
    _add = None

try:
    from micropython import const
except ImportError:  # CPython: the simulator, the tests
    def const(x):
        return x

RING = const(32)  # recent samples kept per series: p50 and p95 are over these
AI_RING = const(16)  # ... per series of the board player's decisions (a few a minute; heap)
GC_RISE = 1024  # bytes: free heap rising by more between two samples = a collection
TASKS = ("reader", "inputs", "frame", "ai")  # App.tick_<name>
MASK = 0x1FFFFFFF  # running sums kept modulo 2**29: small integers, no allocation
_mem_free = getattr(gc, "mem_free", None)  # MicroPython only
_mem_alloc = getattr(gc, "mem_alloc", None)
LONG_SLICE_US = 12000  # a thinking slice longer than this (the 10 ms Kahuna's player asks,
# its solo.SLICE_MS, plus 20%) is counted as long: since boot, over every decision, not
# only the last RING

# A series (one quantity) is HEAD numbers and then its ring of recent samples, at its
# offset in LoopStats.v, one array('i') for all of them: on the Pico a series as an object
# of its own cost about 80 bytes beyond its samples (the instance, its attribute table, its
# ring's list object), 1.5 KB for the 19 (issue 20: the live heap).
# Their names are private (folded by the compiler, never interned: the Pico's names fill
# pools, and one more pool takes 7.7 KB of heap at once): core.benchreport reads a series
# through `head` and its ring from HEAD.
_N = const(0)  # how many samples
_I = const(1)  # the ring's next slot
_MAX = const(2)
_TOTAL_S = const(3)  # the total: whole seconds + us, so it never leaves the small integers
_TOTAL_US = const(4)
_SIZE = const(5)  # the ring's size
HEAD = const(6)  # numbers before the ring
_R = const(HEAD + RING)  # a series' length in LoopStats.v
_AI = const(HEAD + AI_RING)  # ... of a decision's


def _add_py(v, k, x):
    """A sample `x` of the series at offset `k` of `v`; allocates nothing (the same steps
    as core.loopnative's `add`, in bytecode, where that cannot be imported)."""
    i = v[k + _I]
    v[k + HEAD + i] = x
    i += 1
    v[k + _I] = 0 if i == v[k + _SIZE] else i
    v[k + _N] += 1
    if x > v[k + _MAX]:
        v[k + _MAX] = x
    t = v[k + _TOTAL_US] + x
    if t >= 1000000:
        v[k + _TOTAL_S] += t // 1000000
        t = t % 1000000
    v[k + _TOTAL_US] = t


if _add is None:
    _add = _add_py


class Task:
    def __init__(self, name, period_ms, period, busy):
        self.name = name
        self.period_ms = period_ms
        self.period = period  # start to start, us (a series: its offset in LoopStats.v)
        self.busy = busy  # in the tick, us
        self.reset()

    def reset(self):
        self.overruns = 0
        self.last = -1  # the last tick's start (ticks_us); -1: none yet


class LoopStats:
    # The series every board keeps: their offsets in `v` (each task's two come after them,
    # Task.period and Task.busy).
    poll_us = 0  # first step of the poll that found a card -> its UID
    poll_steps = _R  # reader steps of that poll
    uid_frame = 2 * _R  # the UID in hand -> the frame written for it
    show = 3 * _R  # strip.show: copy into the driver's buffer + write
    gc_stall = 4 * _R  # the longest tick in a window where a collection ran
    gc_quiet = 5 * _R  # collections made at quiet moments (main.py), us each
    # Per decision (the last AI_RING of them):
    ai_elapsed = 6 * _R  # first slice -> decision
    ai_compute = 6 * _R + _AI  # time in the slices of a decision
    ai_slices = 6 * _R + 2 * _AI  # slices of a decision
    ai_outside = 6 * _R + 3 * _AI  # time in no tick, collection or heap look
    ai_gc = 6 * _R + 4 * _AI  # time in collections and looks at the heap

    def __init__(self):
        self.tasks_ = []
        self.v = array("i")
        for ring in (RING,) * 6 + (AI_RING,) * 5:
            self.series(ring)
        self.reset()

    def series(self, ring=RING):
        """A new series of `ring` recent samples: its offset in `v` (wiring: allocates)."""
        k = len(self.v)
        self.v.extend(array("i", [0] * (HEAD + ring)))
        self.v[k + _SIZE] = ring
        return k

    def reset(self):
        """Start counting afresh (the ring buffers are overwritten as they go)."""
        for t in self.tasks_:
            t.reset()
        v = self.v
        k = 0
        while k < len(v):
            v[k + _N] = v[k + _I] = v[k + _MAX] = v[k + _TOTAL_S] = v[k + _TOTAL_US] = 0
            k += HEAD + v[k + _SIZE]
        self.polling = False
        self.poll_start = 0
        self.steps = 0
        self.last_uid = None
        self.arrived = False
        self.arrived_at = 0
        self.ai_start = 0
        self.ai_us = 0
        self.ai_n = 0
        self.busy_us = 0  # every tick's, collection's and heap look's time, summed (MASK)
        self.ai_busy0 = 0  # busy_us when the current decision started
        self.gc_us = 0  # every collection's and heap look's time, summed (MASK)
        self.looks = 0  # main.py's looks at the free heap (gc.mem_free) and their time
        self.look_s = 0
        self.look_us = 0
        self.ai_gc0 = 0  # gc_us when the current decision started
        self.ai_ticks = 0  # thinking ticks since boot (or the last reset)
        self.ai_long = 0  # ... of them longer than LONG_SLICE_US
        self.heap_free = -1  # the last sample
        self.heap_low = -1  # the lowest sample
        self.longest = 0  # the longest tick since the last heap sample, us

    def add(self, k, x):
        """A sample `x` of the series at offset `k`; allocates nothing."""
        _add(self.v, k, x)

    def head(self, k):
        """The series at offset `k`: (its count, max, total, and how many samples its
        ring holds now, from v[k + HEAD])."""
        v = self.v
        n = v[k + _N]
        return (n, v[k + _MAX], v[k + _TOTAL_S] * 1000000 + v[k + _TOTAL_US],
                min(n, v[k + _SIZE]))

    def note(self, task, t0, d):
        """A tick of `task` that started at t0 and took `d` us. The loop's hot path (every
        tick of every task): its record is kept short (issue 20)."""
        last = task.last
        v = self.v
        if last >= 0:
            p = ticks_diff(t0, last)
            _add(v, task.period, p)
            if p > 2000 * task.period_ms:
                task.overruns += 1
        task.last = t0
        _add(v, task.busy, d)

    # ------------------------------------------------------------- wiring

    def tasks(self, app):
        """App.tasks() with each tick timed: [(period ms, tick(now))]."""
        out = []
        for period, tick in app.tasks():
            name = "task"
            for n in TASKS:
                if tick == getattr(app, "tick_" + n, None):
                    name = n
            task = Task(name, period, self.series(), self.series())
            self.tasks_.append(task)
            if name == "ai":
                out.append((period, self._ai(app, task, tick)))
            else:
                out.append((period, self._timed(task, tick, name == "reader")))
        return out

    def _timed(self, task, tick, reader):
        def run(now):
            t0 = ticks_us()
            tick(now)
            d = ticks_diff(ticks_us(), t0)
            self.note(task, t0, d)
            self.busy_us = (self.busy_us + d) & MASK
            if d > self.longest:
                self.longest = d
            if reader:
                self.arrived = False  # an arrival that drew no frame is not a tap
        return run

    def heap_seen(self, free, us=0):
        """A look at the free heap (main.py's collector, which took `us`): its low point,
        and an automatic collection if the heap rose since the last look."""
        self.busy_us = (self.busy_us + us) & MASK
        self.gc_us = (self.gc_us + us) & MASK
        self.looks += 1
        t = self.look_us + us
        self.look_s += t // 1000000
        self.look_us = t % 1000000
        if self.heap_free >= 0 and free > self.heap_free + GC_RISE:
            self.add(self.gc_stall, self.longest)
        self.heap_free = free
        if self.heap_low < 0 or free < self.heap_low:
            self.heap_low = free
        self.longest = 0

    def collected(self, us):
        """A collection made at a quiet moment (main.py), which took `us`: counted apart
        from the automatic ones (the next heap sample starts afresh)."""
        self.add(self.gc_quiet, us)
        self.busy_us = (self.busy_us + us) & MASK
        self.gc_us = (self.gc_us + us) & MASK
        self.heap_free = -1

    def _ai(self, app, task, tick):
        def run(now):
            solo = app.solo
            if solo is None:
                t0 = ticks_us()
                tick(now)
                d = ticks_diff(ticks_us(), t0)
                self.note(task, t0, d)
                self.busy_us = (self.busy_us + d) & MASK
                return
            before = solo.thinking
            made = solo.decisions
            t0 = ticks_us()
            tick(now)
            t1 = ticks_us()
            d = ticks_diff(t1, t0)
            self.note(task, t0, d)
            if d > self.longest:
                self.longest = d
            done = solo.decisions != made
            counted = before or solo.thinking or done
            if counted and not before:
                self.ai_start = t0
                self.ai_us = 0
                self.ai_n = 0
                self.ai_busy0 = self.busy_us
                self.ai_gc0 = self.gc_us
            self.busy_us = (self.busy_us + d) & MASK
            if counted:
                self.ai_us += d
                self.ai_n += 1
                self.ai_ticks += 1
                if d > LONG_SLICE_US:
                    self.ai_long += 1
                if done:
                    elapsed = ticks_diff(t1, self.ai_start)
                    self.add(self.ai_outside,
                             elapsed - ((self.busy_us - self.ai_busy0) & MASK))
                    self.add(self.ai_gc, (self.gc_us - self.ai_gc0) & MASK)
                    self.add(self.ai_elapsed, elapsed)
                    self.add(self.ai_compute, self.ai_us)
                    self.add(self.ai_slices, self.ai_n)
        return run

    def watch_reader(self, reader):
        """Time the polls of `reader` (hw.reader.Reader: `poll(now)`, `uid`)."""
        poll = reader.poll

        def timed_poll(now):
            t0 = ticks_us()
            if not self.polling:
                self.polling = True
                self.poll_start = t0
                self.steps = 0
            self.steps += 1
            done = poll(now)
            if done:
                uid = reader.uid
                if uid is not None and uid != self.last_uid:
                    t1 = ticks_us()
                    self.add(self.poll_us, ticks_diff(t1, self.poll_start))
                    self.add(self.poll_steps, self.steps)
                    self.arrived = True
                    self.arrived_at = t1
                self.last_uid = uid
                self.polling = False
            return done

        reader.poll = timed_poll

    def watch_strip(self, strip):
        """Time the frames written to `strip` (hw.leds.Strip: `show(frame)`)."""
        show = strip.show

        def timed_show(frame):
            t0 = ticks_us()
            show(frame)
            t1 = ticks_us()
            _add(self.v, self.show, ticks_diff(t1, t0))
            if self.arrived:
                self.arrived = False
                self.add(self.uid_frame, ticks_diff(t1, self.arrived_at))

        strip.show = timed_show

    def heap_now(self):
        """A full collection, timed, and the live and free heap after it ({} where the gc
        module cannot say: CPython). Taken before the report's code is loaded (core.link),
        so the live heap is the board's own."""
        if _mem_free is None or _mem_alloc is None:
            return {}
        t0 = ticks_us()
        gc.collect()
        t1 = ticks_us()
        self.heap_free = -1  # its own collection: the next look starts afresh
        live = _mem_alloc()
        free = _mem_free()
        return {"collect_ms": round(ticks_diff(t1, t0) / 1000, 2), "live": live, "free": free,
                "total": live + free}
