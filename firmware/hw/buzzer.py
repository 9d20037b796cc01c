"""Buzzer: short non-blocking tone sequences on a PWM pin, one per kind of event.

`pwm` has MicroPython's `machine.PWM` API (`freq(hz)`, `duty_u16(v)`), e.g.
`machine.PWM(machine.Pin(22))` on the board, or the simulator's `VirtualPWM`; `None` (a
board without a buzzer) makes every call a silent no-op. `sounds` maps each kind (the
game's outcome kinds, core.tunes.SOUNDS) to its notes, ((frequency Hz or 0 for a rest,
length ms), ...): the driver knows tones, not the game. `play(kind, now)` starts a
sound and returns at once; `tick(now)` (from the animation loop) moves to the next note
when the current one is over. Silence is duty 0. No sleeps, no allocation per tick.

A note lasts at least its length: it is measured from the tick that started it, so a
slow loop stretches a note by up to one tick rather than skipping it. A new `play`
replaces the sound in progress. `now` is milliseconds that only go up (no wrapping).
"""

class Buzzer:
    DUTY = 32768  # duty_u16 while a note sounds: 50 %, a square wave (loudest)

    def __init__(self, pwm, sounds):
        self.pwm = pwm
        self.sounds = sounds
        self.muted = False  # play() does nothing while set
        self.kind = None  # the sound playing, or None
        self._notes = None
        self._i = 0
        self._end = 0
        if pwm is not None:
            pwm.duty_u16(0)

    def play(self, kind, now):
        """Start the sound for `kind` (a key of `sounds`); None plays nothing. An unknown
        kind raises ValueError (with or without a buzzer)."""
        if kind is None:
            return
        notes = self.sounds.get(kind)
        if notes is None:
            raise ValueError("no sound for %r (kinds: %s)"
                             % (kind, ", ".join(sorted(self.sounds))))
        if self.pwm is None or self.muted:
            return
        self.kind = kind
        self._notes = notes
        self._note(0, now)

    def _note(self, i, now):
        self._i = i
        hz, ms = self._notes[i]
        if hz:
            self.pwm.freq(hz)
            self.pwm.duty_u16(self.DUTY)
        else:
            self.pwm.duty_u16(0)
        self._end = now + ms

    def tick(self, now):
        """Advance the sound; True while one is playing."""
        if self._notes is None:
            return False
        if now < self._end:
            return True
        i = self._i + 1
        if i >= len(self._notes):
            self.stop()
            return False
        self._note(i, now)
        return True

    def stop(self):
        """Silence now."""
        if self._notes is not None:
            self._notes = None
            self.kind = None
            self.pwm.duty_u16(0)
