"""Run pytest-style test modules inside the MicroPython unix port.

    micropython tests/mp/run_tests.py test_rules [more modules]

Every `test_*` function of the modules is called (parametrized ones once per value);
the closing line reads `N passed, N failed` like pytest's."""

import sys

import pytest  # the shim in tests/mp/shim


def run_module(name):
    passed = 0
    failed = []
    mod = __import__(name)
    for attr in sorted(dir(mod)):
        fn = getattr(mod, attr)
        if not attr.startswith("test_") or not callable(fn):
            continue
        params = pytest.parameters(fn)
        cases = [((), attr)]
        if params is not None:
            names, values = params
            cases = []
            for v in values:
                args = v if len(names) > 1 else (v,)
                cases.append((args, "%s[%s]" % (attr, "-".join(str(a) for a in args))))
        for args, label in cases:
            try:
                fn(*args)
                passed += 1
            except Exception as e:  # a failed assert is an AssertionError
                failed.append("%s.%s: %s: %s" % (name, label, type(e).__name__, e))
    return passed, failed


def main(names):
    passed = 0
    failed = []
    for name in names:
        p, f = run_module(name)
        passed += p
        failed += f
    for line in failed:
        print("FAILED " + line)
    print("%d passed, %d failed" % (passed, len(failed)))
    return 1 if failed else 0


sys.exit(main(sys.argv[1:]))
