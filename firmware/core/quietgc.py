"""Garbage collection at quiet moments (main.py wires it into the loop).

MicroPython collects on its own wherever an allocation finds no room: in the middle of a
tap, a slice of the board's player's thinking or a link command, a stall of about 20 ms
on a Pico with 130 KB live. The loop calls a `Collector` at moments where a stall costs
nothing: after a reader poll (a tap's frame is out, the next poll is a period away) and,
while the board's player thinks, after one of its slices. It looks at the free heap every
`every` calls (gc.mem_free walks the heap: about 1 ms on the Pico) and collects when it is
under `low`, so the automatic collections do not happen and the free heap stays well
above the ~20 KB a burst of allocations needs.
"""

import gc

from core.ticks import ticks_diff, ticks_us

LOW = 80 * 1024  # free heap under this: collect (64 KB let a burst reach 17 KB on the chip)
_mem_free = getattr(gc, "mem_free", None)  # MicroPython only


class Collector:
    """`stats` (a core.loopstats.LoopStats, or None) is told of every look at the heap
    (`heap_seen`) and every collection made (`collected`, timed). `mem_free` and
    `collect` default to the gc module's."""

    def __init__(self, stats=None, low=LOW, mem_free=None, collect=None):
        self.stats = stats
        self.low = low
        self.mem_free = mem_free or _mem_free
        self.collect = collect or gc.collect
        self.calls = 0  # calls since the last look at the heap
        self.looks = 0
        self.collections = 0

    def __call__(self, every=1):
        """A quiet moment: look at the free heap if this is the `every`-th call since the
        last look, and collect if it is low. True when it collected."""
        self.calls += 1
        if self.calls < every or self.mem_free is None:
            return False
        self.calls = 0
        self.looks += 1
        t0 = ticks_us()
        free = self.mem_free()
        if self.stats is not None:
            self.stats.heap_seen(free, ticks_diff(ticks_us(), t0))
        if free >= self.low:
            return False
        t0 = ticks_us()
        self.collect()
        self.collections += 1
        if self.stats is not None:
            self.stats.collected(ticks_diff(ticks_us(), t0))
        return True
