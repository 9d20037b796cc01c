"""Entry point of the simulator inside the MicroPython unix port.

Reads {"board": PATH, "commands": [...]} on standard input, runs them on the firmware and
virtual hardware, and prints {"report": ..., "failures": [...]} as one JSON line.
"""

import json
import sys

from core import board as boardmod
from host_tools.simulator.engine import run_commands

job = json.loads(sys.stdin.read())
report, failures = run_commands(boardmod.load(job["board"]), job["commands"])
print(json.dumps({"report": report, "failures": failures}))
