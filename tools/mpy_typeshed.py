"""Build the custom typeshed that mypy checks firmware/ against.

    python tools/mpy_typeshed.py [DEST]      (default: .venv/mpy-typeshed)

micropython-stdlib-stubs ships a cut-down typeshed (stdlib/ and stubs/ folders) and
micropython-rp2-rpi_pico-stubs ships the Pico's own modules (machine, time, gc, neopixel,
rp2, ...) as top-level .pyi files. Installed into a venv, mypy sees neither: it takes the
standard library from its bundled typeshed, where `time.perf_counter` exists. So this
script merges both packages, as installed in the running Python, into one typeshed
folder: the board's modules go into stdlib/ (overriding CPython's) and are listed in
stdlib/VERSIONS, and mypy is pointed at it with `custom_typeshed_dir` (pyproject.toml).
A module that is in neither package, like `dataclasses`, then fails to import.
"""

import os
import shutil
import sys
import tempfile
from importlib import metadata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_DEST = os.path.join(ROOT, ".venv", "mpy-typeshed")

# Order matters: later packages override earlier ones.
DISTRIBUTIONS = ("micropython-stdlib-stubs", "micropython-rp2-rpi_pico-stubs")
STAMP = "SOURCES"


def _sources():
    """(distribution name, version, [(source path, path inside the typeshed)])."""
    out = []
    for name in DISTRIBUTIONS:
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            sys.exit("mpy_typeshed: %s is not installed in %s (run `make venv`)"
                     % (name, sys.prefix))
        files = []
        for f in dist.files or ():
            rel = str(f).replace("\\", "/")
            if rel.startswith(("stdlib/", "stubs/")):
                target = rel  # already in typeshed layout
            elif rel.endswith(".pyi"):
                target = "stdlib/" + rel  # a board module: goes beside the stdlib
            else:
                continue
            files.append((str(f.locate()), target))
        if not files:
            sys.exit("mpy_typeshed: %s %s has no stub files" % (name, dist.version))
        out.append((name, dist.version, files))
    return out


def _top_level_modules(stdlib):
    for entry in os.listdir(stdlib):
        path = os.path.join(stdlib, entry)
        if entry.endswith(".pyi"):
            yield entry[:-4]
        elif os.path.isfile(os.path.join(path, "__init__.pyi")):
            yield entry


def build(dest=DEFAULT_DEST):
    sources = _sources()
    parent = os.path.dirname(os.path.abspath(dest))
    os.makedirs(parent, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".mpy-typeshed-", dir=parent)
    try:
        for _name, _version, files in sources:
            for src, target in files:
                out = os.path.join(tmp, *target.split("/"))
                # A module given as foo.pyi replaces a package foo/ and vice versa.
                if target.startswith("stdlib/") and target.count("/") == 1:
                    shutil.rmtree(out[:-4], ignore_errors=True)
                os.makedirs(os.path.dirname(out), exist_ok=True)
                shutil.copyfile(src, out)
        stdlib = os.path.join(tmp, "stdlib")
        versions = os.path.join(stdlib, "VERSIONS")
        with open(versions) as f:
            listed = {line.split(":")[0].strip() for line in f
                      if ":" in line and not line.lstrip().startswith("#")}
        extra = sorted(set(_top_level_modules(stdlib)) - listed)
        with open(versions, "a") as f:
            f.write("\n# MicroPython modules, added by tools/mpy_typeshed.py\n")
            for mod in extra:
                f.write("%s: 3.0-\n" % mod)
        with open(os.path.join(tmp, STAMP), "w") as f:
            for name, version, _files in sources:
                f.write("%s==%s\n" % (name, version))
        shutil.rmtree(dest, ignore_errors=True)
        os.replace(tmp, dest)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return dest


def main(argv):
    dest = os.path.abspath(argv[1]) if len(argv) > 1 else DEFAULT_DEST
    build(dest)
    with open(os.path.join(dest, STAMP)) as f:
        print("mpy_typeshed: %s from %s" % (dest, ", ".join(f.read().split())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
