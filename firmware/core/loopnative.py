"""The board's own benchmark's hot path in machine code: one sample added to a series of
core.loopstats, in its layout (core.loopstats' _N, _I, _MAX, _TOTAL_S, _TOTAL_US, _SIZE:
the count, the ring's next slot, the max, the total's seconds and us, the ring's size;
then the ring from HEAD = 6), written here as numbers (loopstats imports this module).

The loop records a sample or two at every tick of every task (a frame, the inputs, a
reader step, a slice of the board's player's thinking: some 240 ticks a second while it
thinks). In bytecode a sample took 125 us on the RP2040 and a tick's record 353 us, about
8% of a decision's time (issue 20); here a sample takes 29 us, most of it the call, and a
tick's record 148 us (timed on the emulated RP2040). `@micropython.viper` compiles it for
the CPU (mpy-cross -march=armv6m for the Pico); only MicroPython with a native emitter
imports it, and loopstats keeps the same steps in bytecode for the rest (CPython, the
virtual board given the Pico's build): tests/core/test_loopstats.py checks that both leave
the same numbers, so a change of the layout on one side alone fails there. Samples are
non-negative (times and counts).
"""

import micropython


@micropython.viper
def add(v: ptr32, k: int, x: int):  # noqa: F821  (viper's pointer type)
    """Sample `x` into the series at offset `k` of `v` (core.loopstats' layout)."""
    i = v[k + 1]  # the ring's next slot
    v[k + 6 + i] = x  # HEAD = 6
    i += 1
    if i == v[k + 5]:  # SIZE
        i = 0
    v[k + 1] = i
    v[k] = v[k] + 1  # N
    if x > v[k + 2]:  # MAX
        v[k + 2] = x
    t = v[k + 4] + x  # TOTAL_US
    s = v[k + 3]  # TOTAL_S
    while t >= 1000000:
        t -= 1000000
        s += 1
    v[k + 3] = s
    v[k + 4] = t
