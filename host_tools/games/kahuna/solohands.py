"""The player's hands in a solo game: the physical-card procedure the board asks for
(games.kahuna.solo), done on a simulated table of cards (table.py).

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
        self.discarded = []  # the AI's face-down discards, in order (a takeback's)

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
            if place >= len(self.stack):
                raise ValueError("the board asks for the AI's card %d of its stack, which "
                                 "holds %d: %r" % (place + 1, len(self.stack), say))
            card = self.stack.pop(place)
            t.discard(card)
            if say.startswith("AI plays its"):
                self.turned.append((place, card))
            else:
                self.discarded.append(card)
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


def drawn(table, card, before):
    """A player's draw as a takeback needs it: (card, the card laid on the display after
    it, or None for a card from the deck); `before` the display before the draw."""
    laid = [c for c in table.display if c not in before]
    return (card, laid[0] if card in before and laid else None)


def walk_table(t, h, draws, step):
    """A takeback's step (games.kahuna.takeback's words, after "take back, step i of n: ")
    done on the table `t`: the cards the board names, and those the hands `h` (None with
    two players) and the players' `draws` ((card, laid) each, last last) know themselves.
    The pile follows the game by itself (Seated.sync, the web page's table sync)."""
    words = step.split()
    if "from the display back on top of the deck" in step:
        card = words[1]
        t._display.remove(card)
        t.deck.append(card)
        if h is not None:
            h.took(card)
    elif "the AI's top card, and lay it back on the display" in step:
        card = h.stack.pop(0)
        t._display.append(card)
        h.tapped.append(card)
    elif "from your hand back on the display" in step:
        card = words[1]
        draws[:] = [d for d in draws if d[0] != card]
        t._display.append(card)
        h.tapped.append(card)
    elif "the AI's top card, the one it drew" in step:
        t.deck.append(h.stack.pop(0))
    elif "put the card you drew" in step:
        card, laid = draws.pop()
        if laid is not None:
            t._display.remove(laid)
            t.deck.append(laid)
            if h is not None:
                h.took(laid)
            t._display.append(card)
        else:
            t.deck.append(card)
    elif "into its stack as its" in step or "into the AI's stack as its" in step:
        card = h.discarded.pop() if "face-down discard" in step else words[1]
        h.stack.insert(_place(step) - 1, card)


class Seated:
    """A simulated table of cards beside the board (`option seed=N` in a scenario, `sim
    --seed N` at the terminal): the simulator deals from a seeded deck, a player draws
    with `draw N|deck` instead of naming the card, and in a solo game the simulator does
    the AI's card procedure (`Hands`) by itself.

    `run(words)` runs one command on the board (the simulation's own execute)."""

    def __init__(self, names, seed, run):
        from host_tools.games.kahuna.table import Table
        self.table = Table(names, seed)
        self.hands = Hands(self.table)
        self.seed = seed
        self.run = run
        self.round = 1
        self.said = []  # what the AI's procedure did since the last `auto`
        self.draws = []  # the players' draws: (card, the card laid on the display after it)
        self.walked = ""  # the takeback's step last done on the table

    def sync(self, game):
        """The table follows the game: a new round shuffles the pile into the deck (R5);
        cards the players played or discarded lie on the pile (one taken back returns)."""
        if game.round != self.round:
            self.round = game.round
            self.hands.round_ended()
            self.draws = []
            return
        discarded = 2  # rules.DISCARD (this module imports nothing of the firmware)
        pile = [n for n in self.table.pile if game.place[game.card_index[n]] == discarded]
        for c in range(len(game.place)):
            if game.place[c] == discarded and game.card_names[c] not in pile:
                pile.append(game.card_names[c])
        self.table.pile = pile

    def auto(self, app, tick):
        """Deal the players' cards, and in a solo game do the steps the board asks for
        its AI (`tick()` lets it think: one AI tick of virtual time)."""
        self.said = []
        for _ in range(1000):
            game = app.game
            self.sync(game)
            words = getattr(app.referee, "say", None)
            words = words() if words is not None else ""
            if words:  # a takeback: its step done on the table once; ok is the player's
                if words.startswith("take back, step") and words != self.walked:
                    self.walked = words
                    self.walk(words.split(": ", 1)[1].rsplit("; ok when done", 1)[0])
                return
            solo = app.solo
            if game.phase == "deal" and (solo is None or game.turn != solo.side):
                self.run(["tap", self.table.deal()])
                continue
            if solo is None:
                return
            tick()
            say = solo.say()
            if not say or say.startswith("hint"):
                return
            move = self.next_move(say)
            if move is None:
                continue
            self.run(list(move))

    def next_move(self, say):
        move = self.hands.next(say)
        if move is None:
            return None
        shown = say.startswith("AI plays") or say.startswith("lay the deck")
        self.said.append(say.split(":")[0] + (" (%s)" % move[1] if shown else ""))
        return move

    def walk(self, step):
        """A takeback's step done on the table (`walk_table`)."""
        walk_table(self.table, self.hands, self.draws, step)

    def _drew(self, card, before):
        self.draws.append(drawn(self.table, card, before))

    def draw(self, which):
        """`draw N` (the display's Nth card), `draw deck` or a display card's name: the
        card taken from the table, or a ValueError saying what may be drawn."""
        t = self.table
        display = t.display
        if which == "deck":
            if t.deck_count() == 0:
                raise ValueError("the deck is empty: draw 1..%d from the display"
                                 % len(display))
            card = t.take_top()
        elif which.isdigit() and 1 <= int(which) <= len(display):
            card = t.take(display[int(which) - 1])
        elif which.upper() in display:
            card = t.take(which.upper())
        else:
            raise ValueError("draw 1..%d takes that display card, draw deck the deck's top "
                             "card" % len(display))
        self.hands.took(card)
        self._drew(card, display)
        return card

    def take_named(self, card):
        """A card the player tapped as their draw: taken from the display, or from the
        deck if it is the deck's top card; else a ValueError saying what may be drawn and
        nothing taken."""
        t = self.table
        display = t.display
        if card in display:
            t.take(card)
        elif t.deck and t.deck[-1] == card:
            t.take_top()
        else:
            raise ValueError("%s is not a card you can take: draw 1..%d takes that display "
                             "card, draw deck the deck's top card" % (card, len(display)))
        self.hands.took(card)
        self._drew(card, display)
        return card

    def keep(self):
        """Where the table's cards lie now, for `put_back`."""
        t = self.table
        return (list(t.deck), list(t._display), t.laid, list(t.pile), list(self.hands.tapped),
                list(self.draws))

    def put_back(self, kept):
        """A card the board refused (a full hand) goes back where it lay, as a player would
        put it back."""
        t = self.table
        t.deck, t._display, t.laid, t.pile, self.hands.tapped, self.draws = kept
