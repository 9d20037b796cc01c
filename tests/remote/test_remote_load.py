"""The load benchmark (host_tools/measure/remoteload.py) at a small size: it runs, and
finds every game whole."""

import subprocess
import sys

from mpy_runner import ROOT


def test_the_load_benchmark_plays_games_at_once_and_loses_no_move():
    proc = subprocess.run([sys.executable, "-m", "host_tools.measure.remoteload", "--games",
                           "3"], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "3 games at once, 6 tables" in proc.stdout
    assert "no move lost or duplicated: yes" in proc.stdout
    assert " moves/s" in proc.stdout and "p95" in proc.stdout


def test_a_wrong_size_is_one_line():
    proc = subprocess.run([sys.executable, "-m", "host_tools.measure.remoteload", "--games",
                           "0"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 2 and "--games must be at least 1" in proc.stderr
    assert "Traceback" not in proc.stderr
