"""The benchmarks' clock in microseconds, the same code on CPython and MicroPython."""

import time

SEED0 = 9000  # the first seed of the benchmarks' games

try:
    ticks_us = time.ticks_us  # MicroPython
    ticks_diff = time.ticks_diff
    MICRO = True
except AttributeError:
    MICRO = False

    def ticks_us():
        return time.perf_counter_ns() // 1000

    def ticks_diff(a, b):
        return a - b
