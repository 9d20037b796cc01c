"""Garbage collection at quiet moments (main.py wires it into the loop).

MicroPython collects on its own wherever an allocation finds no room: in the middle of a
tap, a slice of the board's player's thinking or a link command, a stall of about 20 ms
on a Pico with 130 KB live. The loop calls a `Collector` at moments where a stall costs
nothing: after a reader poll (a tap's frame is out, the next poll is a period away) and,
while the board's player thinks, after one of its slices. It looks at the free heap every
`every` calls and collects when it is under its threshold (LOW, or THINKING_LOW after a
slice), so the automatic collections do not happen and the free heap stays well above the
~20 KB a burst of allocations needs.

A look is not cheap either: gc.mem_free() walks the whole heap, about 9 ms on the chip with
the 240 KB heap, a third of a collection (measured with `chipbench --profile`: looks every
3rd slice took 15% of a decision's time). So a look that finds the heap well above `low`
puts the next one off: from the fall between two looks it knows the heap's pace per call
(the faster of the last two measured, kept across a collection, each `every` its own: the
AI's slices keep theirs from one decision to the next while the reader's polls run), and
the next look waits for AHEAD of the calls that pace would take to bring the heap down to
`low` (at most MOST calls; never fewer than `every`); after a collection, from what the
first look after the previous one found. A look that finds the heap as the last one did
(nothing allocated) puts the next off by MOST. A call with `every` 1 (after a burst on the
link, which may have allocated a whole state at once) looks at once.
"""

import gc

from core.ticks import ticks_diff, ticks_us

# Free heap under this: collect. A collection leaves about 100 KB free on a Kahuna Pico
# (240 KB heap, 137-141 KB live), so the threshold sets how much may be allocated between
# two collections (each about 22 ms). After a reader poll and a burst on the link: 80 KB,
# so that a command whose reply is a whole state (some tens of KB while it is built) finds
# room (at 56 KB a `state` took the free heap to 6.5 KB on the chip). While the board's
# player thinks, after its slices: 40 KB, which lets 60 KB through between two collections
# instead of 20 (issue 20: a decision's collections and looks were a fifth of its time,
# 9% at 40 KB); the margin under it is what MOST calls at the search's fastest pace may
# take (about 2 KB a slice): the lowest free heap seen in ten decisions was 39.2 KB.
LOW = 80 * 1024
THINKING_LOW = 40 * 1024
AHEAD = 3  # ... of 4: the next look after 3/4 of the calls the pace takes to `low`
MOST = 20  # calls: the longest a look is put off
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
        self.wait = 0  # calls the last look put the next one off by
        self.free = -1  # what the last look found (-1: none since a collection)
        self.fall = 0  # the heap's pace: `fall` bytes in `over` calls (0: not known)
        self.over = 1
        self.seen_fall = 0  # the pace the last look measured (the one before the next)
        self.seen_over = 1
        self.paces = {}  # every -> the pace of that kind of call, kept while another runs
        self.every = 0  # the `every` of the calls the pace was taken over (1: any)
        self.after = -1  # the first look after the last collection (or ever) found this
        self.looks = 0
        self.collections = 0

    def __call__(self, every=1, low=None):
        """A quiet moment: look at the free heap if this is the `every`-th call since the
        last look (and the last look did not put this one off), and collect if it is under
        `low` (None: the collector's). True when it collected."""
        self.calls += 1
        if low is None:
            low = self.low
        if every > 1 and every != self.every:  # another kind of call (slices after
            if self.every > 1:  # polls): each kind's pace is its own, kept meanwhile
                self.paces[self.every] = (self.fall, self.over, self.seen_fall,
                                          self.seen_over)
            self.fall, self.over, self.seen_fall, self.seen_over = self.paces.get(
                every, (0, 1, 0, 1))
            self.every = every
            self.wait = 0
            self.free = -1
        calls = self.calls
        if calls < every or (every > 1 and calls < self.wait) or self.mem_free is None:
            return False
        self.calls = 0
        self.looks += 1
        t0 = ticks_us()
        free = self.mem_free()
        if self.stats is not None:
            self.stats.heap_seen(free, ticks_diff(ticks_us(), t0))
        if free >= low:
            last = self.free
            self.free = free
            if last < 0:
                self.after = free  # about what a collection leaves (the first look after)
            if last > free:  # the heap's pace: `fall` bytes in `over` calls, the faster
                fall = last - free  # of the last two (a stretch that allocated little,
                seen, over = self.seen_fall, self.seen_over  # a path's replay, says
                self.seen_fall = fall  # little of the next one)
                self.seen_over = calls
                self.fall = fall
                self.over = calls
                if seen and seen * calls > fall * over:
                    self.fall = seen
                    self.over = over
            elif last == free:  # nothing allocated since (the board idle): the most
                self.wait = MOST
                return False
            elif last >= 0:  # it rose (a collection elsewhere): the pace is not known
                self.fall = 0
                self.seen_fall = 0
            self.wait = 0
            if self.fall:
                self.wait = (free - low) * self.over * AHEAD // (self.fall * 4)
                if self.wait > MOST:
                    self.wait = MOST
            return False
        self.free = -1  # the pace is kept, and what the last collection left: the first
        self.wait = 0  # look after this one is put off by them
        if self.fall and self.after > low:
            self.wait = (self.after - low) * self.over * AHEAD // (self.fall * 4)
            if self.wait > MOST:
                self.wait = MOST
        t0 = ticks_us()
        self.collect()
        self.collections += 1
        if self.stats is not None:
            self.stats.collected(ticks_diff(ticks_us(), t0))
        return True
