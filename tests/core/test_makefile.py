"""The Makefile as a newcomer meets it: `make sim` output is the tool's own (pure JSON with
--json), its documented examples run, and system packages are checked only by the targets
that need them, named with the command that installs them, never installed unasked."""

import json
import os
import re
import shutil
import subprocess

import pytest

from mpy_runner import ROOT

SCENARIO = os.path.join(ROOT, "tests", "scenarios", "first-turns.scn")


def make(*args, cwd=ROOT, env=None):
    return subprocess.run(["make"] + list(args), cwd=cwd, capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL, env=env)


def test_make_sim_json_is_pure_json_on_standard_output(tmp_path):
    proc = make("sim", "ARGS=--scenario %s --json" % SCENARIO)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)  # nothing but the report: no echoed command line
    assert report["turn"] == "black" and len(report["rejected"]) == 3
    assert proc.stdout.count("\n") == 1
    # From another folder, -s keeps make's "Entering directory" lines out too.
    proc = make("-s", "-C", ROOT, "sim", "ARGS=--scenario %s --json" % SCENARIO,
                cwd=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == report


def test_the_makefiles_own_examples_are_accepted_by_the_tool():
    with open(os.path.join(ROOT, "Makefile")) as f:
        text = f.read()
    examples = re.findall(r'`make (\w+) ARGS="([^"]*)"`', text)
    assert examples, "the Makefile shows no ARGS example"
    for target, args in examples:
        args = args.replace("F", SCENARIO) if target == "sim" else args
        proc = make(target, "ARGS=" + args)
        assert proc.returncode == 0, (target, args, proc.stderr)


def restricted_path(tmp_path, leave_out):
    """A PATH holding the usual tools, except `leave_out`."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("bash", "sh", "sed", "grep", "ls", "id", "env", "cat", "python3",
                 "fc-list", "ldconfig", "uname", "apt-get"):
        found = shutil.which(tool)
        if found and tool != leave_out:
            os.symlink(found, bin_dir / tool)
    return str(bin_dir)


def test_a_missing_system_package_is_named_with_its_install_command_not_installed(tmp_path):
    if shutil.which("tmux") is None:
        pytest.fail("tmux is needed by the test suite: the check below finds it missing "
                    "anyway, but the suite itself needs it")
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "MAKEFLAGS", "MAKELEVEL")}
    env["PATH"] = restricted_path(tmp_path, "tmux")
    make_bin = shutil.which("make")
    proc = subprocess.run([make_bin, "sysdeps"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL, env=env)
    assert proc.returncode != 0
    assert proc.stdout == ""
    assert "make: make test cannot run, system packages are missing: tmux" in proc.stderr
    assert "Debian/Ubuntu: sudo apt-get install tmux" in proc.stderr
    assert "macOS:         brew install tmux" in proc.stderr
    assert "installing" not in proc.stderr  # outside CI nothing is installed


def test_playing_does_not_check_system_packages(tmp_path):
    # Without tmux (and whatever else the tests need), make sim still plays.
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "MAKEFLAGS", "MAKELEVEL")}
    env["PATH"] = restricted_path(tmp_path, "tmux")
    make_bin = shutil.which("make")
    proc = subprocess.run([make_bin, "sim", "ARGS=--scenario %s --json" % SCENARIO], cwd=ROOT,
                          capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL, env=env)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["rejected"]
