"""Shared fixtures: `mpy` runs code under the MicroPython unix port (see mpy_runner.py).

A test that uses `mpy` is marked `micropython` automatically. If the `micropython` command
is missing those tests fail (they are never skipped), and the session header says so.
"""

import pytest

from mpy_runner import MicroPython, MicroPythonNotFound

# The built web page's fixtures (site, server, context) for the browser tests.
pytest_plugins = ("websitekit",)

_mpy_info = {"describe": None}
_mpy_counts = {}


def _describe():
    if _mpy_info["describe"] is None:
        try:
            _mpy_info["describe"] = MicroPython().describe()
        except Exception as e:  # reported in the header; the tests themselves then fail
            _mpy_info["describe"] = "NOT WORKING (%s: %s)" % (type(e).__name__, e)
    return _mpy_info["describe"]


def pytest_report_header(config):
    return "micropython: " + _describe()


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "mpy" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.micropython)


def pytest_runtest_logreport(report):
    if "micropython" not in report.keywords:
        return
    if report.when == "call":
        outcome = report.outcome
    elif report.when == "setup" and not report.passed:
        outcome = "skipped" if report.skipped else "error"
    else:
        return
    _mpy_counts[outcome] = _mpy_counts.get(outcome, 0) + 1


def pytest_terminal_summary(terminalreporter):
    if not _mpy_counts:
        return
    counts = ", ".join("%d %s" % (n, outcome) for outcome, n in sorted(_mpy_counts.items()))
    terminalreporter.write_line(
        "micropython-marked tests: %s, under %s" % (counts, _describe()))


@pytest.fixture(scope="session")
def mpy():
    """A MicroPython runner (RP2040-sized heap, firmware/ and the repo on the path)."""
    try:
        return MicroPython()
    except MicroPythonNotFound as e:
        missing = str(e)
    pytest.fail(missing, pytrace=False)


def pytest_addoption(parser):
    parser.addoption("--update-screenshots", action="store_true", default=False,
                     help="rewrite the README's screenshots in docs/ "
                          "(tests/games/kahuna/test_web.py)")


@pytest.fixture
def flashed_vboard(tmp_path):
    """Kahuna's firmware flashed on a virtual board (vboardkit.flash_vboard)."""
    from vboardkit import flash_vboard
    yield from flash_vboard(tmp_path)
