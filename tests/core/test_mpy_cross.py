"""Every firmware file compiles with mpy-cross for the RP2040 (Cortex-M0+ = armv6m), so
syntax the board rejects fails here, not on the board."""

import os
import subprocess

import pytest

from host_tools.maker import flash
from mpy_runner import ROOT

FIRMWARE = os.path.join(ROOT, "firmware")
MARCH = "armv6m"


def find_mpy_cross():
    """The same mpy-cross `make flash` uses; missing, the tests fail (never skip)."""
    try:
        return flash.find_mpy_cross()
    except flash.FlashError as e:
        pytest.fail(str(e), pytrace=False)


def firmware_sources():
    out = []
    for folder, dirs, files in os.walk(FIRMWARE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        out += [os.path.join(folder, f) for f in sorted(files) if f.endswith(".py")]
    return out


def compile_file(source, out_dir, base=FIRMWARE):
    """Compile one file; return (ok, message). The .mpy goes to out_dir, never the repo."""
    rel = os.path.relpath(source, base)
    target = os.path.join(out_dir, rel[:-3] + ".mpy")
    os.makedirs(os.path.dirname(target), exist_ok=True)
    proc = subprocess.run(
        [find_mpy_cross(), "-march=" + MARCH, "-s", rel, "-o", target, source],
        capture_output=True, text=True, errors="replace", stdin=subprocess.DEVNULL,
        timeout=60)
    ok = proc.returncode == 0 and os.path.isfile(target)
    return ok, (proc.stdout + proc.stderr).strip()


def test_mpy_cross_is_the_boards_version():
    proc = subprocess.run([find_mpy_cross(), "--version"], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=60)
    assert proc.returncode == 0
    assert proc.stdout.startswith("MicroPython v1."), proc.stdout


def test_every_firmware_file_compiles_for_the_rp2040(tmp_path):
    sources = firmware_sources()
    assert sources, "no .py files under firmware/"
    failures = []
    for source in sources:
        ok, message = compile_file(source, str(tmp_path))
        if not ok:
            failures.append("%s:\n%s" % (os.path.relpath(source, ROOT), message))
    assert not failures, "mpy-cross -march=%s rejects:\n\n%s" % (MARCH, "\n\n".join(failures))
    assert len(list(tmp_path.rglob("*.mpy"))) == len(sources)


# Valid Python 3.11 that the board's compiler does not accept: the check above has teeth.
BOARD_REJECTS = {
    "match_statement": "def f(x):\n    match x:\n        case 1:\n            return 2\n",
    "positional_only_parameters": "def f(a, /, b):\n    return a + b\n",
}


@pytest.mark.parametrize("name", sorted(BOARD_REJECTS))
def test_mpy_cross_rejects_cpython_only_syntax(name, tmp_path):
    code = BOARD_REJECTS[name]
    compile(code, name, "exec")  # fine for CPython
    source = tmp_path / (name + ".py")
    source.write_text(code)
    ok, message = compile_file(str(source), str(tmp_path / "out"), base=str(tmp_path))
    assert not ok
    assert "SyntaxError" in message


def test_native_code_is_compiled_for_the_cortex_m0(tmp_path):
    # @micropython.viper needs an architecture: without -march it is an error.
    source = tmp_path / "viper.py"
    source.write_text("import micropython\n\n\n@micropython.viper\n"
                      "def add(a: int, b: int) -> int:\n    return a + b\n")
    ok, message = compile_file(str(source), str(tmp_path / "out"), base=str(tmp_path))
    assert ok, message
