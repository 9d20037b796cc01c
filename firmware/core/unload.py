"""Giving a module's heap back once its work is done (main.py drops the board definition's
checks after boot).

Taking a module out of `sys.modules` and its package is not enough on the Pico: the
collector is conservative, so one stale word on the C stack or in a block that still looks
live, pointing at any of the module's functions, keeps the whole module (its globals, every
function and all their bytecode) alive. Which words are stale depends on the heap's and the
stack's layout, so a harmless change elsewhere moved about 5 KB in or out of the live heap
(measured on the rp2 port: `make bench-chip`, README). Emptying the module's globals cuts
that chain: a stale pointer can keep at most the module object itself."""

import sys


def unload(names, clear=True):
    """Forget the modules `names` (dotted names; those not loaded are skipped) and empty
    their globals, so that their code is collected even if a stale pointer to one of their
    objects survives. Nothing may use them afterwards: importing one again loads it anew.
    `clear=False` leaves their globals: for a module whose objects may still be in use
    (the simulator's boards share one process), whose code goes once they are gone, unless
    a stale pointer keeps it."""
    for name in names:
        mod = sys.modules.pop(name, None)
        if mod is None:
            continue  # not loaded (its package has no such attribute to drop)
        parent, _, child = name.rpartition(".")  # a package keeps its submodules too
        pkg = sys.modules.get(parent)
        if pkg is not None and getattr(pkg, child, None) is mod:
            delattr(pkg, child)
        if clear:
            mod.__dict__.clear()
