"""The layers keep to their places: the game (`kahuna`) imports only itself and the standard
library; the drivers (`hw`) never import the game; only main.py and the drivers touch the
Pico's hardware modules; and the board itself (its islands) lives in board_def, not in code."""

import ast
import glob
import io
import json
import os
import re
import tokenize

from mpy_runner import ROOT

FIRMWARE = os.path.join(ROOT, "firmware")
HARDWARE_MODULES = ("machine", "neopixel", "rp2")
# The standard library as both runtimes have it (MicroPython's `micropython` and `time`'s
# ticks included): what kahuna may import besides itself.
STDLIB = ("asyncio", "collections", "gc", "json", "micropython", "os", "struct", "sys",
          "time", "binascii", "errno", "io", "math", "random", "re", "select", "zlib")
# Imports outside these rules that are known and still to be removed, as (file, package);
# test_known_exceptions_are_still_needed fails once one is no longer needed.
KNOWN = set()


def modules(folder):
    return sorted(glob.glob(os.path.join(FIRMWARE, folder, "*.py")))


def imports(path):
    """Top-level package names a file imports (any nesting: try/except fallbacks too)."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def rel(path):
    return os.path.relpath(path, FIRMWARE).replace(os.sep, "/")


def test_kahuna_imports_only_kahuna_and_the_standard_library():
    bad = []
    for path in modules("kahuna"):
        for name in imports(path):
            if name != "kahuna" and name not in STDLIB and (rel(path), name) not in KNOWN:
                bad.append((rel(path), name))
    assert bad == []


def test_known_exceptions_are_still_needed():
    for path, name in KNOWN:
        assert name in imports(os.path.join(FIRMWARE, path)), (
            "%s no longer imports %s: drop it from KNOWN" % (path, name))


def test_hw_never_imports_kahuna():
    assert [rel(p) for p in modules("hw") if "kahuna" in imports(p)] == []


def test_only_main_and_hw_touch_the_picos_hardware_modules():
    bad = []
    paths = modules("kahuna") + glob.glob(os.path.join(ROOT, "host_tools", "**", "*.py"),
                                          recursive=True)
    for path in paths:
        if os.sep + os.path.join("fakehw", "pico") + os.sep in path:
            continue  # the virtual board's own `machine` and `neopixel` (fake hardware)
        for name in imports(path):
            if name in HARDWARE_MODULES:
                bad.append((os.path.relpath(path, ROOT), name))
    assert bad == []
    assert "machine" in imports(os.path.join(FIRMWARE, "main.py"))


def island_names():
    with open(os.path.join(ROOT, "board_def", "kahuna.json")) as f:
        return [i["id"] for i in json.load(f)["islands"]]


def code_strings(path):
    """(line, text) of every string literal and name in a Python file except docstrings
    and comments: what the code itself says."""
    with open(path) as f:
        src = f.read()
    docstrings = set()
    for node in ast.walk(ast.parse(src, path)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(
                    getattr(body[0], "value", None), ast.Constant) and isinstance(
                    body[0].value.value, str):
                docstrings.add(body[0].lineno)
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type in (tokenize.STRING, tokenize.NAME) and tok.start[0] not in docstrings:
            out.append((tok.start[0], tok.string))
    return out


def test_no_island_name_in_code_outside_board_def_and_tests():
    pattern = re.compile(r"\b(%s)\b" % "|".join(island_names()))
    paths = (glob.glob(os.path.join(FIRMWARE, "**", "*.py"), recursive=True)
             + glob.glob(os.path.join(ROOT, "host_tools", "**", "*.py"), recursive=True)
             + glob.glob(os.path.join(ROOT, "tools", "**", "*.py"), recursive=True))
    bad = []
    for path in paths:
        for line, text in code_strings(path):
            if pattern.search(text):
                bad.append("%s:%d %s" % (os.path.relpath(path, ROOT), line, text[:60]))
    assert bad == []
