"""The player's hands in a solo game: the physical-card procedure the board asks for
(kahuna.solo), done on a simulated table of cards (table.py).

The hands read only what the board says (its `say()` words, which the serial link sends
as {"event": "ai", "say": ...}) and the table: they keep the AI's face-down stack (top
first) as a real stack would be, and never look at the board's memory of it.

    h = Hands(table)
    h.next(say)  ->  ("tap", CARD) | ("press", "ok") | None (nothing to do)

`round_ended()` is called when the game's round went up (R5: the pile becomes the deck).
Pure Python, no imports: it runs where the simulator runs.
"""

_ORDINALS = {"1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5, "6th": 6}


def _place(say):
    """The stack place a step names ("its 3rd card") -> 3."""
    for word in say.split():
        if word in _ORDINALS:
            return _ORDINALS[word]
    raise ValueError("no place in the stack in %r" % (say,))


class Hands:
    def __init__(self, table):
        self.table = table
        self.stack = []  # the AI's cards, face down, top first
        self.tapped = []  # display cards the board was shown
        self.turned = []  # (place, card) turned up for a move not confirmed yet

    def round_ended(self):
        self.table.new_round()
        self.tapped = []

    def took(self, card):
        """A display card taken (by anyone): it is no longer shown."""
        if card in self.tapped:
            self.tapped.remove(card)

    def next(self, say):
        """The move the step `say` asks for, done on the table; None when it asks none."""
        t = self.table
        if say.startswith("deal the AI's card"):
            card = t.deal()
            self.stack.insert(0, card)
            return ("tap", card)
        if say.startswith("lay the deck's top card face up"):
            for card in t.display:
                if card not in self.tapped:
                    self.tapped.append(card)
                    return ("tap", card)
            raise ValueError("the table's display has no card left to show")
        if say.startswith("AI plays its") or say.startswith("AI discards its"):
            place = _place(say) - 1
            card = self.stack.pop(place)
            t.discard(card)
            if say.startswith("AI plays its"):
                self.turned.append((place, card))
            return ("tap", card)
        if say.startswith("AI takes "):
            card = say.split()[2]
            t.take(card)
            self.took(card)
            self.stack.insert(0, card)
            return ("tap", card)
        if say.startswith("AI draws"):
            card = t.take_top()
            self.stack.insert(0, card)
            return ("tap", card)
        if say.endswith("then ok"):
            self.turned = []
            return ("press", "ok")
        return None

    def power_cut(self):
        """The board lost the move in progress: the cards turned up for it go back face
        down to their places in the stack (it will ask for them again)."""
        for place, card in reversed(self.turned):
            self.table.pile.remove(card)
            self.stack.insert(place, card)
        self.turned = []
