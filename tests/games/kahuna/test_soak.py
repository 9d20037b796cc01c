"""A small soak in every test run (`make soak` runs 10,000 games): random whole games
through the firmware on both runtimes, invariants after every event, garbage refused,
reboots from the journal, and no MicroPython heap growth from game to game."""

import subprocess
import sys

import gamekit


def test_soak_both_runtimes_no_failure_and_no_leak():
    proc = subprocess.run([sys.executable, "-m", "host_tools", "soak", "--games", "150",
                           "--micropython", "25"], capture_output=True, text=True,
                          cwd=gamekit.ROOT, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1] == "150 passed, 0 failed"
    mp = [line for line in lines if line.startswith("micropython: 25 games")]
    assert mp and mp[0].endswith("heap after each game within 0 bytes of the first")
    cp = [line for line in lines if line.startswith("cpython: 125 games")]
    assert cp and " garbage events refused" in cp[0] and " reboots" in cp[0]
