"""Turns a reader's polls into taps: a card left on the scanner counts once.

`update(uid)` is called with each poll's result (the UID bytes of the card in the field, or
None). It returns the UID when a card arrives and None otherwise. A card counts as gone
after `GONE_POLLS` empty polls in a row, so one missed read while it lies there does not
make a second tap.
"""


class Scanner:
    GONE_POLLS = 3

    def __init__(self):
        self.present = None
        self.empty = 0

    def update(self, uid):
        if uid is None:
            if self.present is not None:
                self.empty += 1
                if self.empty >= self.GONE_POLLS:
                    self.present = None
            return None
        self.empty = 0
        if uid == self.present:
            return None
        self.present = uid
        return uid
