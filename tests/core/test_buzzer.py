"""Buzzer driver (firmware/hw/buzzer.py) on the virtual PWM (host_tools/fakehw/pins.py), with
the board's tunes (firmware/core/tunes.py): one distinct, non-blocking sound per outcome
kind, ending in silence; no buzzer is a silent no-op; no allocation per tick under
MicroPython."""

import contextlib
import io

import pytest

from core import outcome as referee
from core import tunes
from host_tools.fakehw.pins import Clock, VirtualPWM
from hw.buzzer import Buzzer

KINDS = (referee.ACCEPTED, referee.REFUSED, referee.ROUND_END, referee.GAME_OVER,
         referee.MOVED)
SOUNDS_OF = tunes.SOUNDS


def play(kind, frame_ms=1, start=100, pwm_start=None):
    """Play `kind` from `start`, ticking every frame_ms until it ends; returns
    (pwm, buzzer, the time tick() first said it was over)."""
    clock = Clock(start)
    pwm = VirtualPWM(clock) if pwm_start is None else VirtualPWM(clock, **pwm_start)
    bz = Buzzer(pwm, SOUNDS_OF)
    bz.play(kind, clock.now)
    t = start
    while bz.tick(t):
        t += frame_ms
        clock.set(t)
        assert t < start + 10000, "the sound never ends"
    return pwm, bz, t


def notes(kind):
    """The (freq, ms) of the sounding notes of `kind`, as the PWM log shows them."""
    pwm, _, _ = play(kind)
    return [(hz, end - start) for start, end, hz in pwm.tones()]


def test_every_outcome_kind_has_a_sound():
    # ... and another table's move (a remote game) its own (core.outcome.sound)
    assert sorted(SOUNDS_OF) == sorted(referee.KINDS + (referee.MOVED,))
    assert SOUNDS_OF[referee.NEW_GAME] == SOUNDS_OF[referee.ACCEPTED]


@pytest.mark.parametrize("kind", KINDS)
def test_each_sound_plays_its_notes_and_ends_in_silence(kind):
    pwm, bz, end = play(kind)
    spec = SOUNDS_OF[kind]
    assert [(hz, ms) for hz, ms in spec if hz] == notes(kind)
    assert end == 100 + sum(ms for _, ms in spec)  # ticked every ms: exact lengths
    t, hz, duty = pwm.log[-1]
    assert duty == 0 and t == end
    assert not pwm.sounding() and bz.kind is None
    assert all(d in (0, Buzzer.DUTY) for _, _, d in pwm.log)


def test_the_sounds_are_distinct_and_as_described():
    accepted, refused = notes(referee.ACCEPTED), notes(referee.REFUSED)
    round_end, game_over = notes(referee.ROUND_END), notes(referee.GAME_OVER)
    moved = notes(referee.MOVED)
    sounds = [accepted, refused, round_end, game_over, moved]
    assert len({tuple(s) for s in sounds}) == 5
    # accepted: one short high beep
    (hz, ms), = accepted
    assert hz >= 1500 and ms <= 100
    # refused: two low beeps, with a gap between
    assert len(refused) == 2 and refused[0] == refused[1]
    assert refused[0][0] < 400
    pwm, _, _ = play(referee.REFUSED)
    (s1, e1, _), (s2, e2, _) = pwm.tones()
    assert s2 - e1 >= 50
    # round end: three notes, rising
    freqs = [hz for hz, _ in round_end]
    assert len(freqs) == 3 and freqs == sorted(freqs) and len(set(freqs)) == 3
    # another table's move: two short high beeps, apart
    assert len(moved) == 2 and moved[0] == moved[1] and moved[0][0] >= 1000
    assert sum(ms for _, ms in tunes.MOVED) <= 200
    # game over: a longer tune, ending on a held note
    assert len(game_over) >= 5
    assert game_over[-1][1] == max(ms for _, ms in game_over)
    # every sound is short: the game goes on while it plays
    for kind in KINDS:
        assert sum(ms for _, ms in SOUNDS_OF[kind]) <= 1500


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("frame_ms", [7, 20, 33])
def test_coarse_animation_ticks_play_every_note_in_order(kind, frame_ms):
    pwm, _, end = play(kind, frame_ms=frame_ms)
    spec = [(hz, ms) for hz, ms in SOUNDS_OF[kind] if hz]
    tones = pwm.tones()
    assert [hz for _, _, hz in tones] == [hz for hz, _ in spec]
    for (start, stop, _), (_, ms) in zip(tones, spec):
        assert ms <= stop - start < ms + frame_ms  # at least its length, at most a frame more
    assert pwm.log[-1][2] == 0


def test_play_returns_at_once_and_tick_does_the_rest():
    clock = Clock(0)
    pwm = VirtualPWM(clock)
    bz = Buzzer(pwm, SOUNDS_OF)
    bz.play(referee.ROUND_END, 0)
    assert pwm.log == [(0, 523, Buzzer.DUTY)]  # the first note, now
    assert bz.tick(50) and len(pwm.log) == 1  # still the first note
    clock.set(100)
    assert bz.tick(100) and pwm.log[-1] == (100, 659, Buzzer.DUTY)


def test_a_new_sound_replaces_the_one_playing():
    clock = Clock(0)
    pwm = VirtualPWM(clock)
    bz = Buzzer(pwm, SOUNDS_OF)
    bz.play(referee.GAME_OVER, 0)
    clock.set(125)
    bz.tick(125)  # G4 is over: C5
    clock.set(180)
    bz.play(referee.REFUSED, 180)  # in the middle of C5
    assert bz.kind == referee.REFUSED
    t = 180
    while bz.tick(t):
        t += 1
        clock.set(t)
    assert [hz for _, _, hz in pwm.tones()] == [392, 523, 220, 220]
    assert t == 180 + 320 and pwm.log[-1][2] == 0


def test_stop_silences_at_once():
    clock = Clock(0)
    pwm = VirtualPWM(clock)
    bz = Buzzer(pwm, SOUNDS_OF)
    bz.play(referee.GAME_OVER, 0)
    clock.set(10)
    bz.stop()
    assert not pwm.sounding() and not bz.tick(20)


def test_the_pwm_is_silenced_when_the_buzzer_is_made():
    pwm = VirtualPWM(freq=1000, duty_u16=30000)
    Buzzer(pwm, SOUNDS_OF)
    assert pwm.duty_u16() == 0


def test_no_buzzer_is_a_silent_no_op():
    bz = Buzzer(None, SOUNDS_OF)
    for kind in KINDS:
        bz.play(kind, 0)
        assert bz.tick(10) is False
    bz.stop()
    assert bz.kind is None


def test_muted_plays_nothing():
    pwm = VirtualPWM()
    bz = Buzzer(pwm, SOUNDS_OF)
    bz.muted = True
    bz.play(referee.ACCEPTED, 0)
    assert pwm.log == [] and not bz.tick(5)


def test_no_outcome_plays_nothing_and_an_unknown_kind_is_an_error():
    pwm = VirtualPWM()
    bz = Buzzer(pwm, SOUNDS_OF)
    bz.play(None, 0)
    assert pwm.log == []
    for b in (bz, Buzzer(None, SOUNDS_OF)):
        with pytest.raises(ValueError, match="no sound for 'oops'.*accepted"):
            b.play("oops", 0)


def test_virtual_pwm_checks_like_the_rp2():
    pwm = VirtualPWM()
    with pytest.raises(ValueError, match="freq too small"):
        pwm.freq(0)
    with pytest.raises(ValueError, match="freq too large"):
        pwm.freq(62500001)
    with pytest.raises(TypeError):
        pwm.duty_u16(0.5)
    with pytest.raises(ValueError, match="negative"):
        pwm.duty_u16(-1)
    pwm.freq(440)
    assert pwm.freq() == 440
    pwm.duty_u16(65536)  # rp2: "Limit duty_u16 to 65535"
    assert pwm.duty_u16() == 65535 and pwm.sounding()


def test_virtual_pwm_deinit_stops_the_output_and_keeps_the_settings_like_the_rp2():
    clock = Clock(0)
    pwm = VirtualPWM(clock, freq=None, duty_u16=None)
    pwm.duty_u16(30000)  # no freq yet: the slice does not run, and reads 0
    assert pwm.duty_u16() == 0 and not pwm.sounding() and pwm.log == []
    clock.set(10)
    pwm.freq(440)
    assert (pwm.freq(), pwm.duty_u16()) == (440, 30000) and pwm.sounding()
    clock.set(20)
    pwm.deinit()
    assert (pwm.freq(), pwm.duty_u16()) == (440, 30000) and not pwm.sounding()
    clock.set(30)
    pwm.duty_u16(20000)  # a setting starts the slice again
    assert pwm.sounding()
    assert pwm.log == [(10, 440, 30000), (20, 440, 0), (30, 440, 20000)]
    assert pwm.tones() == [(10, 20, 440), (30, None, 440)]


# ------------------------------------------------------------------ MicroPython

SOUNDS = """
from host_tools.fakehw.pins import Clock, VirtualPWM
from hw.buzzer import Buzzer
from core.tunes import SOUNDS
for kind in ('accepted', 'refused', 'round-end', 'game-over'):
    clock = Clock(1000)
    pwm = VirtualPWM(clock)
    bz = Buzzer(pwm, SOUNDS)
    bz.play(kind, clock.now)
    t = clock.now
    while bz.tick(t):
        t += 20
        clock.set(t)
    print(kind, pwm.log)
"""


def test_the_same_sounds_under_micropython(mpy):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(SOUNDS, "<sounds>", "exec"), {"__name__": "sounds"})
    here = out.getvalue()
    assert len(here.splitlines()) == 4
    assert mpy.run_code(SOUNDS) == here


def test_ticking_allocates_nothing_under_micropython(mpy):
    out = mpy.run_code("""
import micropython
from hw.buzzer import Buzzer
from core.tunes import SOUNDS

class PWM:  # records nothing: only the driver's own allocations count
    def __init__(self):
        self.changes = 0
    def freq(self, hz):
        self.changes += 1
    def duty_u16(self, d):
        self.changes += 1

pwm = PWM()
bz = Buzzer(pwm, SOUNDS)
kinds = ('accepted', 'refused', 'round-end', 'game-over')
def loop():
    t = 0
    for i in range(12):
        bz.play(kinds[i & 3], t)
        while bz.tick(t):
            t += 10
micropython.heap_lock()
try:
    loop()
finally:
    micropython.heap_unlock()
print(pwm.changes)
""")
    assert int(out) > 12 * 2
