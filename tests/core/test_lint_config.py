"""The lint configuration keeps its teeth: mypy (pyproject.toml [tool.mypy], the Pico's
typeshed) rejects what the Pico's MicroPython lacks and accepts what it has, and ruff
bans the stdlib modules the typeshed knows but the board does not have."""

import os
import subprocess
import sys
import textwrap

import pytest

from mpy_runner import ROOT

sys.path.insert(0, os.path.join(ROOT, "tools"))
import mpy_typeshed  # noqa: E402

PYPROJECT = os.path.join(ROOT, "pyproject.toml")
TYPESHED = os.path.join(ROOT, ".venv", "mpy-typeshed")  # as in [tool.mypy]

PICO_CODE = """\
import asyncio
import gc
import time

import machine
import micropython
import neopixel
from micropython import const

_LEDS = const(8)


def elapsed_ms(t0):
    gc.collect()
    return time.ticks_diff(time.ticks_ms(), t0) + gc.mem_alloc() + gc.mem_free()


def us_since(t0):
    return time.ticks_diff(time.ticks_us(), t0)


def light(pin_no):
    strip = neopixel.NeoPixel(machine.Pin(pin_no, machine.Pin.OUT), _LEDS)
    strip[0] = (255, 0, 0)
    strip.write()
    micropython.mem_info()


async def blink():
    await asyncio.sleep_ms(10)
    asyncio.create_task(blink())


def main():
    asyncio.run(blink())
"""

# Each line is CPython-only; the comment is the error mypy must report for it.
NOT_ON_THE_PICO = {
    "import dataclasses": 'module named "dataclasses"',
    "t = time.perf_counter()": '"perf_counter"',
    "machine.Pin(0).nonexistent()": '"Pin" has no attribute "nonexistent"',
    "machine.Pin(0).value(1, 2)": 'No overload variant of "value"',
    "neopixel.NeoPixel(machine.Pin(0), 8, brightness=9)": 'Unexpected keyword argument',
    "time.sleep_ms()": 'Too few arguments for "sleep_ms"',
}


def mypy(tmp_path, name, code):
    if not os.path.isfile(os.path.join(TYPESHED, mpy_typeshed.STAMP)):
        mpy_typeshed.build(TYPESHED)
    path = tmp_path / (name + ".py")
    path.write_text(code)
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", PYPROJECT, str(path)],
        cwd=ROOT, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300)
    return proc.returncode, proc.stdout + proc.stderr


def test_mypy_accepts_code_for_the_pico(tmp_path):
    rc, out = mypy(tmp_path, "pico_ok", PICO_CODE)
    assert rc == 0, out


@pytest.mark.parametrize("line", sorted(NOT_ON_THE_PICO))
def test_mypy_rejects_what_the_pico_does_not_have(tmp_path, line):
    code = "import machine\nimport neopixel\nimport time\n\n\ndef f():\n    %s\n" % line
    rc, out = mypy(tmp_path, "pico_bad", code)
    assert rc == 1, out
    assert NOT_ON_THE_PICO[line] in out, out
    assert "pico_bad.py:7: error:" in out, out


def ruff(code, filename):
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--config", PYPROJECT,
         "--stdin-filename", filename, "-"],
        cwd=ROOT, input=textwrap.dedent(code), capture_output=True, text=True, timeout=60)
    return proc.returncode, proc.stdout + proc.stderr


@pytest.mark.parametrize("module", ["abc", "dataclasses", "enum", "typing"])
def test_ruff_bans_modules_the_board_lacks_in_firmware_only(module):
    code = "import %s\n\nprint(%s)\n" % (module, module)
    rc, out = ruff(code, "firmware/kahuna/probe.py")
    assert rc == 1 and "TID251" in out, out
    rc, out = ruff(code, "host_tools/probe.py")
    assert rc == 0, out
