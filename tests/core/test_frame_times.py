"""core.frame's time at which its shared animations next change the frame (for the views'
`still`, so that core.app composes a frame only when it changes)."""

from core import frame as fr


class Board:
    led_count = 4
    brightness = 1.0
    palette = {}
    max_current_ma = 1000


class Outcome:
    def __init__(self, kind, private=False, code=None):
        self.kind, self.private, self.code, self.places = kind, private, code, ()


def test_the_shared_animations_change_the_frame_at_their_halves_and_ends():
    from core import outcome as oc

    f = fr.Frame(Board(), {})
    assert f.changes(0, 5000) == 5000  # nothing runs: the caller's time
    f.note(Outcome(oc.REFUSED), 1000)  # three blinks in 600 ms: a change every 100
    assert [f.changes(t, 5000) for t in (1000, 1050, 1100, 1599)] == [1100, 1100, 1200, 1600]
    assert f.changes(1600, 5000) == 5000
    f.note(Outcome("placed", private=True), 2000)  # the acknowledgement's steady dip
    assert f.changes(2000, 5000) == 2250 and f.changes(2249, 2100) == 2100
    f.note(Outcome("placed", code=oc.MOVED), 3000)  # the other table's move: 250 ms halves
    assert f.changes(3000, 9000) == 3250 and f.changes(4499, 9000) == 4500
