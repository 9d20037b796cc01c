"""The browser's benchmark (host_tools/measure/remotepage.py) at its smallest: one game
between the page in Chromium and a host table; it prints its figures and finds both
reports the same."""

import subprocess
import sys

import pytest

from mpy_runner import ROOT

pytestmark = pytest.mark.slow


def test_the_page_benchmark_plays_a_game_and_prints_its_figures():
    proc = subprocess.run([sys.executable, "-m", "host_tools.measure.remotepage", "--games",
                           "1"], capture_output=True, text=True, cwd=ROOT, timeout=180,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "both tables' reports the same: yes" in proc.stdout
    assert "the page's Python per feed (" in proc.stdout and "p95" in proc.stdout
    assert "the page's Python per move (" in proc.stdout


def test_a_wrong_size_is_one_line():
    proc = subprocess.run([sys.executable, "-m", "host_tools.measure.remotepage", "--games",
                           "0"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 2 and proc.stderr == "remotepage: --games must be at least 1\n"


def test_a_wrong_number_of_players_is_one_line():
    for game, players, text in (("kahuna", "3", "2 for kahuna"),
                                ("kami", "5", "2 to 4 for kami")):
        proc = subprocess.run([sys.executable, "-m", "host_tools.measure.remotepage",
                               "--game", game, "--players", players], capture_output=True,
                              text=True, cwd=ROOT, timeout=60)
        assert proc.returncode == 2
        assert proc.stderr == "remotepage: --players must be %s\n" % text
