"""core.quietgc: the collections main.py makes at quiet moments (after a reader poll, after
a slice of the board's player's thinking). It looks at the free heap every `every` calls,
collects only under its threshold, and tells the board's benchmark; on the MicroPython
unix port with the real gc module, a collection it makes gives the garbage back."""

import json

import pytest

from mpy_runner import MicroPython

POLICY = """
from core.quietgc import Collector


class Stats:
    def __init__(self):
        self.seen = []
        self.made = 0

    def heap_seen(self, free, us=0):
        self.seen.append(free)

    def collected(self, us):
        self.made += 1


def policy():
    heap = [100000]
    made = []

    def mem_free():
        return heap[0]

    def collect():
        made.append(heap[0])
        heap[0] = 100000

    stats = Stats()
    c = Collector(stats, low=64000, mem_free=mem_free, collect=collect)
    out = []
    for i in range(24):
        heap[0] -= 5000  # the AI's search allocates between two calls
        out.append(c(4))
    return [out.count(True), made, stats.seen, stats.made, c.looks]


def fastest():
    heap = [200000]
    c = Collector(low=64000, mem_free=lambda: heap[0], collect=lambda: None)
    looked = []
    for i in range(1, 61):
        heap[0] -= 300 if 31 <= i <= 40 else 3000  # fast, a slow stretch, fast again
        before = c.looks
        c(3)
        if c.looks != before:
            looked.append([i, heap[0]])
        if c.collections:
            break
    return looked


def kinds():
    heap = [200000]
    c = Collector(low=64000, mem_free=lambda: heap[0], collect=lambda: None)

    def run(every, calls, fall):
        looked = []
        for i in range(1, calls + 1):
            heap[0] -= fall
            before = c.looks
            c(every)
            if c.looks != before:
                looked.append(i)
        return looked

    run(3, 12, 1000)  # a decision's slices: their pace measured
    run(4, 8, 0)  # the reader's polls between two decisions
    return run(3, 30, 1000)  # the next decision's slices


def idle():
    c = Collector(low=64000, mem_free=lambda: 90000, collect=lambda: None)
    looked = []
    for i in range(1, 61):
        before = c.looks
        c(4)
        if c.looks != before:
            looked.append(i)
    return looked


def paced():
    heap = [100000]
    stats = Stats()

    def collect():
        heap[0] = 100000

    c = Collector(stats, low=64000, mem_free=lambda: heap[0], collect=collect)
    looked = []
    for i in range(1, 61):
        heap[0] -= 1000  # a steady pace: 1000 bytes a call
        before = c.looks
        c(3)
        if c.looks != before:
            looked.append(i)
    before = c.looks
    c()  # after a burst on the link: a look at once
    at_once = c.looks - before
    kind = []
    for i in range(1, 9):  # another kind of call (the reader's polls): their own cadence
        before = c.looks
        c(4)
        kind.append(c.looks - before)
    return [looked, c.collections, min(stats.seen), at_once, kind]


def real():
    import gc
    gc.collect()
    c = Collector(low=1 << 30)  # always low: collects at every look
    junk = [bytearray(100) for _ in range(200)]
    junk = None
    before = gc.mem_free()
    made = c(1)
    return [made, gc.mem_free() > before + 10000, c.collections]


print([policy(), paced(), real() if hasattr(__import__("gc"), "mem_free") else None,
       fastest(), idle(), kinds()])
"""


def figures(runtime):
    if runtime == "micropython":
        out = MicroPython(heap_kib=256).run_code(POLICY)
        return json.loads(out.strip().splitlines()[-1].replace("True", "true")
                          .replace("False", "false").replace("None", "null"))
    got = []
    exec(POLICY, {"print": got.append, "__name__": "quietgc"})
    return json.loads(json.dumps(got[0]))


@pytest.mark.parametrize("runtime", ["cpython", pytest.param(
    "micropython", marks=pytest.mark.micropython)])
def test_it_looks_every_nth_call_and_collects_only_under_its_threshold(runtime):
    policy, paced, real, _, _, _ = figures(runtime)
    collections, made, seen, told, looks = policy
    # Every 4th call looks: 6 looks in 24 calls, at 80000, 60000 (collect: back to
    # 100000), 80000, 60000 (collect), ...
    assert looks == 6 and seen == [80000, 60000, 80000, 60000, 80000, 60000]
    assert collections == told == 3 and made == [60000, 60000, 60000]
    if runtime == "micropython":
        assert real == [True, True, 1]
    else:
        assert real is None  # CPython has no gc.mem_free: nothing is looked at


@pytest.mark.parametrize("runtime", ["cpython", pytest.param(
    "micropython", marks=pytest.mark.micropython)])
def test_a_look_well_above_the_threshold_puts_the_next_one_off(runtime):
    """At a steady 1000 bytes a call, every 3rd call would look 20 times in 60 calls: from
    the pace between two looks, the next waits 3/4 of the calls to the threshold (30000
    bytes over at call 6: 22 calls, held to MOST = 20), then 7, then the minimum 3; the
    look under the threshold collects, and the next look is put off by the pace and what
    the first look after a collection (here: the first look) found (97000: 24 calls, held
    to 20). A call after a burst on the link looks at once; calls of another `every` start
    without a pace."""
    _, paced, _, _, _, _ = figures(runtime)
    looked, collections, lowest, at_once, kind = paced
    assert looked == [3, 6, 26, 33, 36, 39, 59] and collections == 1
    assert lowest == 61000  # never more than a minimum interval's fall under it
    assert at_once == 1
    assert kind == [0, 0, 0, 1, 0, 0, 0, 1]  # the slices' pace does not put them off


@pytest.mark.parametrize("runtime", ["cpython", pytest.param(
    "micropython", marks=pytest.mark.micropython)])
def test_the_next_look_waits_by_the_faster_of_the_last_two_paces(runtime):
    """A search's pace changes from phase to phase: a look is put off by the faster of the
    last two paces measured, so a slow stretch between two looks does not let the next
    fast one run far under the threshold before a look. At 3000 bytes a call with a
    stretch of 300 (calls 31-40) the looks come at 3, 6, 26, 40, then (by the fast pace,
    not the slow one's: that would wait 20 calls, to 47000) at 50, 53 and 56, which finds
    59000 and collects."""
    looked = figures(runtime)[3]
    assert [i for i, _ in looked] == [3, 6, 26, 40, 50, 53, 56]
    assert looked[-1][1] == 59000  # never more than a minimum interval's fall under it


@pytest.mark.parametrize("runtime", ["cpython", pytest.param(
    "micropython", marks=pytest.mark.micropython)])
def test_a_heap_that_did_not_fall_puts_the_next_look_off_the_longest(runtime):
    """An idle board allocates nothing between the reader's polls: a look that finds the
    heap where the last one did waits MOST calls, not `every`."""
    assert figures(runtime)[4] == [4, 8, 28, 48]  # the first two every 4th call, then 20


@pytest.mark.parametrize("runtime", ["cpython", pytest.param(
    "micropython", marks=pytest.mark.micropython)])
def test_each_kind_of_call_keeps_its_own_pace(runtime):
    """The AI's slices measure their pace in one decision; the reader's polls between two
    decisions do not make the next decision measure it again: after its first look (the
    heap unknown since the polls; at its first call, the calls since the last look carried
    over) the next is put off by the slices' pace at once (20 calls), not 3 calls later to
    measure it again."""
    assert figures(runtime)[5] == [1, 21]
