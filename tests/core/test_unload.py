"""core.unload: a module dropped after boot gives its code back even while a stale pointer
to one of its objects survives (the Pico's collector is conservative; main.py drops the
board definition's checks this way). Run on the MicroPython unix port, whose collector is
the Pico's."""

import pytest

from mpy_runner import PATH, MicroPython

FUNCTIONS = 40  # functions in the module dropped, each with some bytecode

SCRIPT = """
import gc, sys
from core.unload import unload
import droppkg.big
keep = droppkg.big.f0  # a stale pointer's stand-in: one of the module's functions
assert keep() == 0
gc.collect()
before = gc.mem_alloc()
if sys.argv[-1] == "unload":
    unload(["droppkg.big", "nothing.loaded"])
else:  # what main.py did before: out of sys.modules and the package, globals kept
    sys.modules.pop("droppkg.big")
    delattr(droppkg, "big")
gc.collect()
print(before - gc.mem_alloc(), "droppkg.big" in sys.modules, hasattr(droppkg, "big"))
"""


def module_text():
    body = ["TABLE = %r" % (tuple(range(200)),)]
    for i in range(FUNCTIONS):
        body.append("def f%d(x=0):\n    y = [x, %d, 'word %d']\n    for k in range(3):\n"
                    "        y.append(k * %d + len(y))\n    return x if %d == 0 else y\n"
                    % (i, i, i, i, i))
    return "\n\n".join(body) + "\n"


def freed(tmp_path, how):
    pkg = tmp_path / "droppkg"
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "big.py").write_text(module_text())
    mp = MicroPython(heap_kib=512, path=PATH + (str(tmp_path),))
    out = mp.exec(code=SCRIPT, args=(how,)).stdout.split()
    return int(out[0]), out[1:]


@pytest.mark.micropython
def test_unload_frees_a_modules_code_that_a_stale_pointer_would_keep(tmp_path):
    gone, still = freed(tmp_path, "unload")
    kept, _ = freed(tmp_path, "pop")
    print("freed: %d bytes unloaded, %d popped only" % (gone, kept))
    assert still == ["False", "False"]  # out of sys.modules and out of its package
    # Popped only, one live function keeps its globals and so every other function;
    # unloaded, everything but that function goes.
    assert kept < 512, kept
    assert gone > 2048 + 4 * kept, (gone, kept)
