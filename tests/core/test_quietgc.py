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


def real():
    import gc
    gc.collect()
    c = Collector(low=1 << 30)  # always low: collects at every look
    junk = [bytearray(100) for _ in range(200)]
    junk = None
    before = gc.mem_free()
    made = c(1)
    return [made, gc.mem_free() > before + 10000, c.collections]


print([policy(), real() if hasattr(__import__("gc"), "mem_free") else None])
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
    policy, real = figures(runtime)
    collections, made, seen, told, looks = policy
    # Every 4th call looks: 6 looks in 24 calls, at 80000, 60000 (collect: back to
    # 100000), 80000, 60000 (collect), ...
    assert looks == 6 and seen == [80000, 60000, 80000, 60000, 80000, 60000]
    assert collections == told == 3 and made == [60000, 60000, 60000]
    if runtime == "micropython":
        assert real == [True, True, 1]
    else:
        assert real is None  # CPython has no gc.mem_free: nothing is looked at
