"""`micropython` for CPython: the firmware's hot paths are compiled to machine code on the
board with `@micropython.native` (mpy-cross, for the board's CPU); the host tools and the
simulator run under CPython, where the decorator leaves the function as it is. A module
with such a function imports it as:

    try:
        import micropython
    except ImportError:  # CPython
        from core import plainpython as micropython

MicroPython's WebAssembly port (the browser page) has no native emitter either: the page's
build leaves the decorator out of the source it bundles (host_tools/web/build.py).
"""


def native(f):
    return f
