"""MicroPython's `const` for the drivers, and its stand-in elsewhere (CPython: the tests
and the simulator run the drivers too). The compiler folds `X = const(1)` by the name
alone, so `from hw.const import const` folds as `from micropython import const` does."""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x
