"""H2: a crew card's value is recorded for its tag at enrolment, and a table deal (H33)
plays the values of the tags enrolled; a dealt deck (seed, given) is virtual and plays the
default table (or the settings' own `values`). Through the platform (core.app, core.link,
core.enroll, core.cards, the journal) by the script enrolled_values.py, on CPython and on
the MicroPython unix port, with the same output."""

import json
import os

import pytest

from mpy_runner import MicroPython

SCRIPT = "tests/games/halunken/enrolled_values.py"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))


def cpython_output():
    import subprocess
    import sys
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "firmware"), ROOT,
                                         os.path.join(ROOT, "tests")])
    return subprocess.run([sys.executable, os.path.join(ROOT, SCRIPT)], env=env, cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout


def checks(text):
    """{check: [values...]} of the script's lines (a check may come several times)."""
    out = {}
    for line in text.strip().splitlines():
        name, value = json.loads(line)
        out.setdefault(name, []).append(value)
    return out


def one(c, name):
    assert len(c[name]) == 1, name
    return c[name][0]


def error(c, name):
    lines = one(c, name)
    assert len(lines) == 1 and list(lines[0]) == ["error"], lines
    return lines[0]["error"]


@pytest.fixture(scope="module")
def cpython():
    return checks(cpython_output())


def test_H2_a_crew_card_is_enrolled_with_its_value_and_the_tag_says_it(cpython):
    c = cpython
    assert one(c, "wait") == [{"event": "enroll-wait", "card": "RED-1"}]
    done = one(c, "enrolled")[0]
    assert (done["event"], done["card"], done["value"]) == ("enrolled", "RED-1", 12)
    assert one(c, "text") == "Halunken & Spelunken RED-1 value 12"  # as a phone reads it
    cards = one(c, "cards")[0]
    assert cards["values"] == {"RED-1": 12, "GREY-2": 0, "YELLOW-11": 11}
    assert "P1-3" in cards["cards"].values() and "P1-3" not in cards["values"]
    # The registry on flash: [card, value] for a tag with a value, the name alone else.
    stored = one(c, "stored")
    assert sorted(stored.values(), key=str) == sorted(
        [["RED-1", 12], ["GREY-2", 0], ["YELLOW-11", 11], "P1-3"], key=str)


def test_H2_a_missing_or_bad_value_is_refused_with_a_reason(cpython):
    c = cpython
    assert "RED-1 is enrolled with its value" in error(c, "missing-value")
    for check, got in (("bad-value", "got 100"), ("bool-value", "got True"),
                       ("text-value", "got '12'")):
        assert "whole number 0 to 99, " + got in error(c, check)
    assert error(c, "move-value") == "P1-3 carries no value, got 3"  # H2: crew cards only
    assert "GREY-3 is enrolled with its value" in error(c, "refused-meanwhile")
    torn = one(c, "torn")[0]
    assert torn["event"] == "enroll-refused" and "name and value did not read back" in \
        torn["reason"]


def test_H2_H33_a_table_deal_scores_the_enrolled_values(cpython):
    c = cpython
    assert one(c, "values") == [12, 0, 2]  # RED-1, GREY-2 enrolled; RED-2 its default
    # p1 RED-1 (12, doubled as its majority, H14), p2 YELLOW-11 (11), p3 GREY-2 (0)
    assert one(c, "scores") == [24, 22, 0]
    assert one(c, "ranks") == [2, 0]  # H18: the lowest places Black-Jack, by value


def test_H2_a_resumed_game_plays_the_values_it_started_with(cpython):
    value, scores, enrolled_now = one(cpython, "resumed")
    assert (value, scores, enrolled_now) == (12, [24, 22, 0], 3)
    assert one(cpython, "re-enrolled") == ["enrolled"]
    assert one(cpython, "next-game") == 3  # a new table game: the tags as enrolled now


def test_H2_a_dealt_deck_plays_the_default_table_or_its_own_values(cpython):
    assert one(cpython, "seeded") == 1  # RED-1 enrolled worth 3: a virtual deck ignores it
    assert one(cpython, "seeded-set") == 7  # the setting `values` still overrides


def test_H2_a_registry_written_before_values_loads_and_means_the_same(cpython):
    c = cpython
    assert one(c, "old-loads") == ["RED-1", {}, ["RED-2", "RED-3"]]
    assert one(c, "old-same-bytes") is True  # written back byte for byte
    assert one(c, "old-values") == [1, 40]  # the default, and the settings' value
    assert one(c, "old-settings") == {"players": 3, "deal": "table",
                                      "values": {"YELLOW-12": 40}}  # nothing added


def test_H2_a_corrupt_value_in_a_registry_is_refused_whole(cpython):
    c = cpython
    reasons = c["corrupt-file"]
    assert len(reasons) == 9 and "accepted" not in reasons
    assert reasons[0] == "the value of RED-1 must be a whole number 0 to 99, got 100"
    assert reasons[4] == "tag 04A224B2C35E80: RED-1 has no value"
    assert reasons[7] == "P1-3 carries no value, got 2"
    assert "got 500" in error(c, "set-bad")
    assert one(c, "set-kept") == [{"04A224B2C35E80": "RED-1"}, {"RED-1": 5}]  # unchanged
    assert one(c, "no-range") == "HUNA-1 carries no value, got 3"  # Kahuna: names only


@pytest.mark.micropython
def test_H2_the_same_on_micropython(cpython):
    out = MicroPython(heap_kib=1024).run_script(SCRIPT, timeout=300)
    mp = checks(out)
    # The refusals quote values with repr: the same on both runtimes for these.
    assert mp == cpython
