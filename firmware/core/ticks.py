"""The Pico's millisecond ticks, and their stand-in on CPython (the tests, the simulator
and the host tools run the firmware there too): the one home of the fallback, for the
drivers (hw/pn532.py) and the games' AIs alike. On MicroPython these are `time`'s own."""

try:
    from time import sleep_ms, ticks_add, ticks_diff, ticks_ms, ticks_us
except ImportError:  # CPython
    from time import monotonic as _monotonic  # type: ignore[attr-defined]  # CPython
    from time import perf_counter_ns as _perf_ns  # type: ignore[attr-defined]  # CPython
    from time import sleep as _sleep

    def ticks_ms():
        return int(_monotonic() * 1000)

    def ticks_us():
        return _perf_ns() // 1000

    def ticks_diff(a, b):
        return a - b

    def ticks_add(a, b):
        return a + b

    def sleep_ms(ms):
        _sleep(ms / 1000)
