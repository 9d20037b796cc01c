"""`python -m host_tools bench --json` gives every figure for both runtimes (the values
are measurements, not checked here beyond being numbers)."""

import json
import subprocess
import sys

import gamekit


def test_bench_json_has_every_figure_for_both_runtimes():
    proc = subprocess.run([sys.executable, "-m", "host_tools", "bench", "--json"],
                          capture_output=True, text=True, cwd=gamekit.ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    figures = json.loads(proc.stdout)
    for key in ("tap_to_frame_us", "frame_us", "apply_us", "games_per_s", "heap_peak_bytes"):
        assert set(figures[key]) == {"cpython", "micropython"}, key
        for runtime in ("cpython", "micropython"):
            assert isinstance(figures[key][runtime], (int, float)), (key, runtime)
    assert figures["frame_alloc_bytes"]["micropython"] == 0
