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
outcome's message) and lights the places on the menu's pixels: a taken one in the colour
of its character's number (core.menu.VALUE_COLOURS), the place being entered pulsing in
the colour of the character on offer.
"""

from core import frame as fr
from core import menu as menumod

LENGTH = 6


class CodeEntry:
    def __init__(self, letters):
        self.letters = letters
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
        k = len(menumod.VALUE_COLOURS)
        for i in range(min(LENGTH, len(pixels))):
            if i < len(self.taken):
                f.put(pixels[i], self.colours[self.taken[i] % k])
            elif i == len(self.taken):
                level = 48 + (fr.triangle(now, menumod.PULSE_MS) * 13 >> 4)
                f.put(pixels[i], self.colours[self.pick % k], level)
        f.put(phase_led, self.colours[-1])
        return f.limit()
