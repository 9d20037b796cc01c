"""A remote game's code spelled on the islands while the game waits for the other table
(the settings menu's `remote: create` on a Pico W, core.netplay; docs/remote.md). Flashed
to a Pico W only (host_tools/maker/flash.py NETWORK_ONLY).

Each letter's pixel (the game's `letter_pixels`: Kahuna's island of that initial) is lit
in turn, LIT_MS on and DARK_MS dark, so a letter said twice shows twice; the round's first
letter in FIRST_COLOUR, the others in LETTER_COLOUR; PAUSE_MS dark after the sixth, then
again. The phase pixel stays in the menu's colour while the code shows.

It sits where the settings menu sits (core.app's `menu`) until the seat starts the remote
game (core.netseat drops it then). Every button leaves it showing (it is what the other
table needs; `back` and `discard` too): a held `ok` opens the settings menu over it (a game
started there makes the seat stand down, as ever), and a tap is refused as in the menu.
"""

from core import menu as menumod

LIT_MS = 700
DARK_MS = 300
PAUSE_MS = 1500
STEP_MS = LIT_MS + DARK_MS
FIRST_COLOUR = (0, 255, 40)  # green: the code starts here
LETTER_COLOUR = (255, 255, 255)


class CodeShow:
    def __init__(self, code, pixels):
        """`code`'s letters lit on `pixels` (one per letter of the code, -1: none)."""
        self.shown = code
        self.pixels = pixels
        self.round_ms = STEP_MS * len(code) + PAUSE_MS
        self.colours = None
        self.asking = False  # the menu's fields (core.app's menu_state)
        self.item = "code"
        self.choice = ()

    def words(self):
        return "remote game %s: give the other table this code" % self.shown

    def current(self):
        return ("code", self.shown)

    def settings(self, base):
        return base

    def press(self, role):
        return menumod.STAY  # the code keeps showing: the other table needs it

    def lit(self, now):
        """The place (0..5) of the letter lit at `now`, -1 while dark."""
        t = now % self.round_ms
        i = t // STEP_MS
        if i >= len(self.shown) or t - i * STEP_MS >= LIT_MS:
            return -1
        return i

    def paint(self, f, pixels, phase_led, error_led, now):
        if self.colours is None:
            self.colours = (f.scaled(FIRST_COLOUR), f.scaled(LETTER_COLOUR),
                            f.scaled(menumod.MENU_COLOUR))
        buf = f.buf
        for j in range(len(buf)):
            buf[j] = 0
        i = self.lit(now)
        if i >= 0:
            f.put(self.pixels[i], self.colours[0 if i == 0 else 1])
        f.put(phase_led, self.colours[2])
        return f.limit()
