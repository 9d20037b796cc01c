"""core.beat: between two slices of its thinking, the board's player runs on only while no
timed task is due and no byte waits on the link (main.py); `waiting` says whether a byte
does, and `answer` serves it (a task serves a command before its own tick). On CPython and on the
MicroPython unix port, with a stand-in for the link's poller; and on CPython with a pipe
for the link, through select.poll."""

import json

import pytest

from mpy_runner import MicroPython

CODE = """
from core.beat import Beat
from core.ticks import ticks_add, ticks_ms


class Link:  # the link's input as a poller sees it
    waiting = False

    def poll(self, timeout):
        return [(0, 1)] if self.waiting else []


link = Link()
beat = Beat()
beat.poller = link
beat._poll = link.poll
out = []
a = beat.slot()
out.append(beat.free())  # a task just made: due now
beat.due[a] = ticks_add(ticks_ms(), 60000)
b = beat.slot()
beat.due[b] = ticks_add(ticks_ms(), 60000)
out.append(beat.free())  # both due in a minute, the link quiet
beat.due[b] = ticks_add(ticks_ms(), -5)
out.append(beat.free())  # one late
beat.due[b] = ticks_add(ticks_ms(), 60000)
link.waiting = True
out.append(beat.free())  # a byte on the link
out.append(beat.waiting())
link.waiting = False
out.append(beat.free())  # read: quiet again
out.append(beat.waiting())
beat.due[b] = ticks_add(ticks_ms(), -5)
out.append(beat.waiting())  # a task late, the link quiet: nothing waits on the link
out.append(Beat().free())  # no task, no link
out.append(Beat().waiting())
served = []


def serve():  # main.py's serve_link: reads what waits
    served.append(1)
    link.waiting = False


beat.serve = serve
link.waiting = True
out.append(beat.answer())  # a byte waits: served now
out.append(beat.answer())  # nothing waits: not served
out.append(len(served))
out.append(Beat(serve=serve).answer())  # no link to poll
print(out)
"""


def figures(runtime):
    if runtime == "micropython":
        out = MicroPython().run_code(CODE)
        return json.loads(out.strip().splitlines()[-1].replace("True", "true")
                          .replace("False", "false"))
    got = []
    exec(CODE, {"print": got.append, "__name__": "beat"})
    return got[0]


@pytest.mark.parametrize("runtime", ["cpython", pytest.param(
    "micropython", marks=pytest.mark.micropython)])
def test_free_only_while_no_task_is_due_and_the_link_is_quiet_and_a_byte_is_served(runtime):
    assert figures(runtime) == [False, True, False, False, True, True, False, False, True,
                                False, True, False, 1, False]


def test_a_byte_in_a_real_pipe_is_seen_through_select():
    import os

    from core.beat import Beat
    from core.ticks import ticks_add, ticks_ms

    r, w = os.pipe()
    try:
        beat = Beat(r)
        beat.due.append(ticks_add(ticks_ms(), 60000))
        quiet = beat.free()
        os.write(w, b"{")
        assert quiet and not beat.free()
    finally:
        os.close(r)
        os.close(w)
