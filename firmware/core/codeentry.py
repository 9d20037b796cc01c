"""A remote game's code entered with the board's buttons (the settings menu's `remote:
join`, core.app): six letters of a new code's alphabet
(core.remoteproto.NEW_CODE_LETTERS: A-K without I, Kahuna's island initials), one at a
time. A code of other letters (an old host's) cannot be entered on a board.

    next / prev   the next or previous character for the place being entered
    ok            take it, go to the next place
    back          take the last one back; with none taken, leave (nothing joined)
    discard       leave, nothing joined
    done          join, once all six are taken

The board says the code so far in words (`words()`: the link's menu state, and the
outcome's message). With the game's pixel of each letter (`spots`: Kahuna's islands by
initial, game_def.letter_pixels) it lights the island of the letter on offer, pulsing in
white, and the islands of the letters taken so far steady in the colour of their place
(core.menu.VALUE_COLOURS: the first white, the second blue, ...; a letter taken twice
shows its later place; the offered one pulses over a taken one). The phase pixel shows
how many are taken: it blinks that many times, then rests. Without `spots` (a game that
names no letter's pixel) the places are lit on the menu's pixels: a taken one in the
colour of its character's number, the one being entered pulsing in the colour of the
character on offer.
"""

from core import frame as fr
from core import menu as menumod

LENGTH = 6
COUNT_MS = 400  # one blink of the phase pixel per letter taken


class CodeEntry:
    def __init__(self, letters, spots=None):
        self.letters = letters
        self.spots = spots  # the pixel of each letter, or None
        self.taken = []  # indices into letters
        self.pick = 0
        self.colours = None
        self.asking = False  # the menu's field (core.app's menu_state)
        self.item = "code"
        self.choice = ()

    def code(self):
        return "".join(self.letters[i] for i in self.taken)

    def words(self):
        left = LENGTH - len(self.taken)
        if not left:
            return "join %s: done joins, back takes the last one back" % self.code()
        return "join %s%s: %s? (next, prev; ok takes it)" % (
            self.code(), "_" * left, self.letters[self.pick])

    def current(self):
        return ("code", self.code())

    def settings(self, base):
        return base

    def press(self, role):
        n = len(self.letters)
        if role == "next":
            self.pick = (self.pick + 1) % n
        elif role == "prev":
            self.pick = (self.pick + n - 1) % n
        elif role == "ok":
            if len(self.taken) < LENGTH:
                self.taken.append(self.pick)
                self.pick = 0
        elif role == "back":
            if not self.taken:
                return menumod.LEAVE
            self.pick = self.taken.pop()
        elif role == "discard":
            return menumod.LEAVE
        elif role == "done":
            return menumod.START if len(self.taken) == LENGTH else menumod.STAY
        self.choice = tuple(self.taken) + (self.pick,)  # what the link sees change
        return menumod.STAY

    def paint(self, f, pixels, phase_led, error_led, now):
        if self.colours is None:
            self.colours = [f.scaled(c) for c in menumod.VALUE_COLOURS + (menumod.MENU_COLOUR,)]
        buf = f.buf
        for j in range(len(buf)):
            buf[j] = 0
        if self.spots is not None:
            return self._paint_spots(f, phase_led, now)
        k = len(menumod.VALUE_COLOURS)
        for i in range(min(LENGTH, len(pixels))):
            if i < len(self.taken):
                f.put(pixels[i], self.colours[self.taken[i] % k])
            elif i == len(self.taken):
                level = 48 + (fr.triangle(now, menumod.PULSE_MS) * 13 >> 4)
                f.put(pixels[i], self.colours[self.pick % k], level)
        f.put(phase_led, self.colours[-1])
        return f.limit()

    def _paint_spots(self, f, phase_led, now):
        spots = self.spots
        for i in range(len(self.taken)):
            f.put(spots[self.taken[i]], self.colours[i])
        if len(self.taken) < LENGTH:
            level = 48 + (fr.triangle(now, menumod.PULSE_MS) * 13 >> 4)
            f.put(spots[self.pick], self.colours[0], level)
        # the count taken: that many blinks of COUNT_MS on the phase pixel, then a rest
        t = now % (COUNT_MS * (LENGTH + 2))
        if t // COUNT_MS < len(self.taken) and t % COUNT_MS < COUNT_MS // 2:
            f.put(phase_led, self.colours[-1])
        return f.limit()
