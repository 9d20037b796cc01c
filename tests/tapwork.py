"""The work of one event, measured without a wall clock: what the board does between a
tap and its acknowledgement, for tests that a private tap (a secret choice, a face-down
card) takes the same time whatever the card (rules' hidden information).

- on CPython, sys.settrace's count of the Python work (`Work`): per function
  (file:function), its calls, line events and bytecode instructions (`f_trace_opcodes`),
  every frame below the event;
- on both runtimes, the bytes allocated during the event with the collector off
  (gc.mem_alloc on MicroPython, whose unix port has no sys.settrace; None on CPython);
- the event as the loop sees it: the frames pushed to the strip during the event (and
  whether the last one is the acknowledgement), the tunes started, the journal's bytes.

Kami's face-down defence (tests/games/kami/kami_secret_work.py) and Halunken's secret
choice (tests/games/halunken/halunken_secret_work.py) use it.
"""

import gc
import sys

TRACING = hasattr(sys, "settrace")


class Strip:
    """A strip that keeps every frame pushed to it (as hex)."""

    def __init__(self):
        self.shown = []

    def show(self, frame):
        self.shown.append(bytes(frame).hex())


class Buzzer:
    """A buzzer that keeps every tune started: [kind, now]."""

    def __init__(self):
        self.played = []

    def play(self, kind, now):
        self.played.append([kind, now])

    def tick(self, now):
        pass


class Work:
    """sys.settrace's count of the Python work of one call: per function, its calls,
    lines and bytecode instructions (CPython; the whole call, every frame below)."""

    def __init__(self):
        self.per = {}

    def _key(self, code):
        path = code.co_filename.replace("\\", "/")
        for root in ("/firmware/", "/host_tools/", "/tests/"):
            if root in path:
                path = path[path.index(root) + 1:]
                break
        return "%s:%s" % (path, code.co_name)

    def _global(self, frame, event, arg):
        if event == "call":
            row = self.per.setdefault(self._key(frame.f_code), [0, 0, 0])
            row[0] += 1
            frame.f_trace_opcodes = True
            return self._local
        return None

    def _local(self, frame, event, arg):
        if event == "line":
            self.per[self._key(frame.f_code)][1] += 1
        elif event == "opcode":
            self.per[self._key(frame.f_code)][2] += 1
        return self._local

    def run(self, fn, *args):
        sys.settrace(self._global)
        try:
            return fn(*args)
        finally:
            sys.settrace(None)

    def totals(self):
        out = [0, 0, 0]
        for row in self.per.values():
            for i in range(3):
                out[i] += row[i]
        return out


def measure(fn, args, strip, buzzer, flash):
    """(fn's result, the measures) of one event `fn(*args)`; the strip, buzzer and flash
    stand-ins are emptied of what came before (the flash counts from here)."""
    del strip.shown[:]
    del buzzer.played[:]
    written = flash.bytes_written
    gc.collect()
    gc.disable()
    before = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
    work = None
    try:
        if TRACING:
            work = Work()
            result = work.run(fn, *args)
        else:
            result = fn(*args)
        allocated = gc.mem_alloc() - before if hasattr(gc, "mem_alloc") else None
    finally:
        gc.enable()
    out = {"frames_pushed": len(strip.shown), "tunes": list(buzzer.played),
           "journal_bytes": flash.bytes_written - written, "allocated": allocated}
    if work is not None:
        out["work"] = work.totals()
        out["per_function"] = dict((key, work.per[key]) for key in sorted(work.per))
    return result, out
