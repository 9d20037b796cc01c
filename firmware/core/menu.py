"""The buttons' settings menu: a board that needs no computer to set up a game.

Holding the menu button (board_def `inputs.hold`, e.g. `{"ok": "menu"}`) opens it, at any
moment. The game lists its settings as menu items (`game_def.MENU`: (key, values) pairs,
values in their JSON form); each item is one pixel of the game's (`game_def.menu_pixels`),
lit in the colour of its value; the item being set pulses.

    next / prev   the item's next or previous value
    ok            the next item (after the last: the first again)
    back          the previous item; on the first one, leave the menu, nothing changed
    discard       leave the menu, nothing changed
    done          start a new game with these settings; while a game is under way, the
                  first `done` asks (the error pixel blinks) and a second one abandons it

Nothing of the menu is journaled until `done`: a new game journals its settings, so they
survive a power cut; a menu left open when the power fails is simply closed.
"""

from core import frame as fr

# Values are shown by colour: the n-th value of an item in the n-th colour.
VALUE_COLOURS = ((255, 255, 255), (0, 80, 255), (0, 255, 40), (255, 120, 0),
                 (255, 0, 200), (0, 220, 220), (255, 220, 0), (120, 0, 255))
MENU_COLOUR = (90, 0, 160)  # the phase pixel while the menu is open
PULSE_MS = 600  # the item being set pulses with this period
ASK_BLINK_MS = 400  # the error pixel blinks while a second `done` is awaited

STAY = "stay"
LEAVE = "leave"
START = "start"


class Menu:
    """The menu over `items` ((key, values) pairs) starting from `settings` (a dict in
    JSON form). `under_way`: a game is in progress, so starting a new one asks first."""

    def __init__(self, items, settings, under_way):
        self.items = items
        self.under_way = under_way
        self.item = 0
        self.asking = False  # `done` was pressed once during a game: press it again
        self.colours = None  # VALUE_COLOURS and MENU_COLOUR at the board's brightness
        self.choice = []
        for key, values in items:
            value = settings.get(key)
            self.choice.append(_index(values, value))

    def settings(self, base):
        """`base` with every item set to the value chosen."""
        out = dict(base)
        for i in range(len(self.items)):
            key, values = self.items[i]
            out[key] = values[self.choice[i]]
        return out

    def current(self):
        """(key, value) of the item being set."""
        key, values = self.items[self.item]
        return key, values[self.choice[self.item]]

    def press(self, role):
        """A button: STAY, LEAVE or START (then `settings()` holds the game's)."""
        if role != "done":
            self.asking = False
        n = len(self.items)
        if role == "next" or role == "prev":
            values = self.items[self.item][1]
            step = 1 if role == "next" else len(values) - 1
            self.choice[self.item] = (self.choice[self.item] + step) % len(values)
        elif role == "ok":
            self.item = (self.item + 1) % n
        elif role == "back":
            if self.item == 0:
                return LEAVE
            self.item -= 1
        elif role == "discard":
            return LEAVE
        elif role == "done":
            if self.under_way and not self.asking:
                self.asking = True
                return STAY
            return START
        return STAY

    def paint(self, f, pixels, phase_led, error_led, now):
        """The menu on the frame `f` (a core.frame.Frame): every pixel off but the items'
        (each in its value's colour, the one being set pulsing), the phase pixel in the
        menu's colour, and the error pixel blinking while a second `done` is awaited."""
        if self.colours is None:
            self.colours = [f.scaled(c) for c in VALUE_COLOURS + (MENU_COLOUR,)]
        buf = f.buf
        for j in range(len(buf)):
            buf[j] = 0
        for i in range(len(self.items)):
            if i >= len(pixels):
                break
            level = 256
            if i == self.item:
                level = 48 + (fr.triangle(now, PULSE_MS) * 13 >> 4)
            f.put(pixels[i], self.colours[self.choice[i] % len(VALUE_COLOURS)], level)
        f.put(phase_led, self.colours[-1])
        if self.asking and (now // (ASK_BLINK_MS // 2)) % 2 == 0:
            f.put(error_led, f.colours["error"])
        return f.limit()


def _index(values, value):
    for i in range(len(values)):
        if values[i] == value:
            return i
    return 0
