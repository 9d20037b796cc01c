"""core.frame's times at which a timed animation next changes the frame (the views'
`still`, so that core.app composes a frame only when it changes)."""

from core import frame as fr


def test_next_step_is_the_next_multiple_of_the_step_from_the_start():
    assert fr.next_step(1000, 100, 1000) == 1100
    assert fr.next_step(1000, 100, 1099) == 1100
    assert fr.next_step(1000, 100, 1100) == 1200


def test_next_blink_is_the_next_turn_on_or_off():
    # lit for the first 300 ms of every 500
    assert fr.next_blink(1000, 500, 300) == 1300
    assert fr.next_blink(1299, 500, 300) == 1300
    assert fr.next_blink(1300, 500, 300) == 1500
    assert fr.next_blink(1499, 500, 300) == 1500
    for now in range(0, 2000, 7):  # the blink's state is the same until then, not after
        t = fr.next_blink(now, 500, 300)
        on = (now % 500) < 300
        assert all(((u % 500) < 300) == on for u in range(now, t))
        assert ((t % 500) < 300) != on


def test_sooner_takes_the_earlier_time_and_minus_one_is_never():
    assert fr.sooner(-1, -1) == -1
    assert fr.sooner(-1, 5) == 5 and fr.sooner(5, -1) == 5
    assert fr.sooner(3, 5) == 3 and fr.sooner(5, 3) == 3
