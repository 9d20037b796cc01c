"""tests/core/test_reader.py inside the MicroPython unix port: the reader, its driver and the
simulator that runs them give the same verdicts on the board's runtime."""


def test_reader_suite_runs_inside_micropython(mpy):
    from mpy_runner import MicroPython
    # The simulator and the chip emulator share the heap with the firmware here, all
    # compiled from source by the 64-bit port (the board holds only the firmware, as .mpy).
    harness = MicroPython(executable=mpy.executable, heap_kib=512)
    out = harness.run_script("tests/mp/run_tests.py", "test_reader", timeout=300)
    last = out.strip().splitlines()[-1]
    assert last == "9 passed, 0 failed", out
