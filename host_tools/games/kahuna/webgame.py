"""Kahuna's side of the browser page (host_tools/web/game.py, the `webgame` host part):
the simulator (the board's firmware on its virtual hardware, `engine.Simulation`) and a
shuffled table of cards (`table.Table`), driven by clicks instead of taps, for a
two-player game at one screen (hot seat), or for a game against the board (settings
`ai=white|black`, games.kahuna.solo): then the table is the simulator's own
(`SimGame.sit`, solohands.Seated), which deals and does the AI's card procedure as `sim
--ai black --seed N` does at the terminal; the page never gets the AI's hand, only its card
count.

Kahuna's requests (beside the page's own: start, new_game, tick, state, hand, scenario):

    {"op": "deck"}            the deck is clicked: deal (deal phase) or draw its top card
    {"op": "take", "card": C} a face-up card is clicked: it is tapped on the scanner
    {"op": "play", "card": C} a card of the hand on turn is clicked: it is tapped
    {"op": "press", "button": B}   next, prev, ok, back, done or discard
    {"op": "press", "button": "back", "hold": true}   back held: take back whole turns
                              (games.kahuna.takeback); the table follows each step
    {"op": "pick", "conn": K} a connection is clicked: chosen through the buttons

`new_game`'s options are scenario option values ("variant=alternative",
"handicap=black:2", "ai=black"); `hand` gives a hand's cards (the page asks only for the
one whose owner has asked to see it; never the AI's). The state is what any onlooker may
see: no hand, no deck order. Taps go through the simulator's emulated card reader and
presses through its bouncing buttons, exactly as in scenarios.
"""

from core.board import ROLES
from games.kahuna import report as gamereport
from games.kahuna import rules
from games.kahuna import settings as kahunasettings
from host_tools.games.kahuna import record as gamerecord
from host_tools.games.kahuna.narrate import describe
from host_tools.games.kahuna.solohands import drawn, walk_table
from host_tools.games.kahuna.table import Table, TableError
from host_tools.games.kahuna.verbs import check_option
from host_tools.simulator.engine import Simulation
from host_tools.simulator.scenario import ScenarioError
from host_tools.web.weberror import WebError

# Besides WebError and ValueError: a request's fault, said in one line.
ERRORS = (TableError, gamerecord.RecordError)


def settings_from(options):
    """Scenario option values ("variant=alternative", "handicap=black:2", ...) -> the
    simulator's settings; "handicap=none" means no handicap."""
    settings = kahunasettings.check_settings({})  # the defaults
    if not isinstance(options, list):
        raise WebError("options must be a list of KEY=VALUE texts")
    for text in options:
        if text == "handicap=none":
            settings["handicap"] = None
            continue
        if text == "ai=none":  # two players at one screen
            settings.pop("ai", None)
            continue
        try:
            key, value = check_option(str(text), 0)
        except ScenarioError as e:
            raise WebError(e.message) from e
        settings[key] = value
    return settings


class WebGame:
    def __init__(self, board, seed, options=None):
        self.board = board
        self.sim = Simulation(board)
        self.line = 0
        self.new_game([] if options is None else options, seed)

    # ------------------------------------------------------------ set-up

    def new_game(self, options, seed):
        """A new game from the form's options (scenario option values) and a seed."""
        self.start(settings_from(options), seed)

    def start(self, settings, seed):
        sim = self.sim
        sim.settings = settings  # kept by the simulator for a reboot, as an `option` is
        sim.app.new_game(settings)
        self.ai = settings.get("ai")
        self.said = []
        if self.ai:
            # A solo game: the simulator's table deals everybody's cards and does the
            # AI's card procedure after every command (solohands.Seated).
            sim.ai_log = []
            sim._log_ai()
            sim.kit.sit(seed)
            self.table = sim.kit.seated.table
            self.said = list(sim.kit.seated.said)
        else:
            sim.kit.seated = None
            self.table = Table(sim.names, seed)
        sim.app.show(sim.now)
        self.table_round = 1
        self.draws = []  # hot seat: the draws, (card, laid), for a takeback's steps
        self.walked = ""
        self.message = {"kind": "note", "code": None,
                        "text": "New game: %s variant, %s starts%s%s." % (
                            settings["variant"], settings["first"],
                            ", handicap: %s places %d bridge%s" % (
                                settings["handicap"][0], settings["handicap"][1],
                                "" if settings["handicap"][1] == 1 else "s")
                            if settings["handicap"] else "",
                            "; you play %s, the board plays %s%s" % (
                                self.human, self.ai, " at level %d" % settings["ai_level"]
                                if settings.get("ai_level") else "")
                            if self.ai else "")}

    @property
    def human(self):
        """The player at the screen in a solo game (None in hot seat)."""
        if not self.ai:
            return None
        return rules.PLAYERS[1 - kahunasettings.player_index(self.ai)]

    @property
    def game(self):
        return self.sim.app.game

    @property
    def referee(self):
        return self.sim.app.referee

    # ------------------------------------------------------------ actions

    def act(self, op, req):
        """One of the page's requests for Kahuna (host_tools/web/game.py passes on those
        it does not know itself)."""
        if op == "deck":
            self.deck()
        elif op == "take":
            self.take(req["card"])
        elif op == "play":
            self.play(req["card"])
        elif op == "press" and req.get("hold", False) is not False:
            if req["hold"] is not True or req["button"] != "back":
                raise WebError("only back is held on this page (\"hold\": true)")
            self._run(["takeback"])
        elif op == "press":
            self.press(req["button"])
        elif op == "pick":
            self.pick(req["conn"])
        else:
            raise WebError("unknown request %r" % (op,))

    def deck(self):
        """The deck is clicked: in the deal its top card goes to the hand being dealt, in
        the draw phase the player takes it. Anywhere else the page does not tap it: its
        refusal would name the card and so show the deck's top card."""
        g = self.game
        t = self.table
        if g.phase == rules.DEAL:
            if self.ai:
                self._note("The cards are dealt by the table in a game against the board.")
                return
            self._tap(t.deck[-1], "deal")
            return
        if g.phase != rules.DRAW or self.referee.discarding:
            self._note("The deck is drawn from in the draw phase: end the play phase with "
                       "done first." if g.phase == rules.PLAY and not self.referee.discarding
                       else "The deck is not drawn from now.")
            return
        display = t.display  # reading it lays the display out once the deal is over
        if not t.deck:
            self._note("The deck is empty: take a face-up card." if display
                       else "No card is left to draw.")
            return
        if self.ai:
            self._draw("deck")  # the table's top card, unseen until drawn
            return
        self._tap(t.deck[-1], "top")

    def take(self, card):
        if self.game.phase == rules.DEAL:
            self._note("The face-up cards are laid out after the deal.")
            return
        if card not in self.table.display:
            raise WebError("%s is not a face-up card" % (card,))
        if self.ai:
            if self.game.phase != rules.DRAW:
                self._note("A face-up card is taken in the draw phase.")
                return
            # `draw N` (the simulator's draw takes a place, not a name: a name was
            # refused as bad-draw, so a face-up card could not be taken here)
            self._draw(str(self.table.display.index(card) + 1))
            return
        self._tap(card, "display")

    def _draw(self, which):
        """The simulator's `draw` at its table (a draw the board refuses leaves the card
        where it lay: the simulator puts it back)."""
        self._run(["draw", which])

    def play(self, card):
        player = self.human or rules.PLAYERS[self.game.turn]
        if card not in self.game.hand(player):
            raise WebError("%s is not in %s hand" % (
                card, "your" if self.ai else "the hand on turn"))
        self._tap(card, None)

    def hand(self, player):
        """The cards of `player`'s hand; the AI's hand is nobody's to see."""
        if self.ai and player == self.ai:
            raise WebError("the board's hand is face down: only its card count is shown")
        return sorted(self.game.hand(player))

    def press(self, button):
        if button not in ROLES:
            raise WebError("unknown button %r" % (button,))
        self._run(["press", button])

    def pick(self, conn):
        if conn not in self.board.conn_index:
            raise WebError("unknown connection %r" % (conn,))
        self._run(["pick", conn])

    def _tap(self, card, source):
        """Tap `card` on the scanner; a card that went into a hand leaves the table."""
        g = self.game
        c = g.card_index[card]
        was = g.place[c]
        self._run(["tap", card], sync=False)  # the card leaves the table before a round end
        if self.ai:
            return  # the simulator's table follows the game by itself (Seated.sync)
        if was == rules.DRAWABLE and g.place[c] in (rules.WHITE, rules.BLACK):
            before = self.table.display if source != "deal" else []
            if source == "deal":
                got = self.table.deal()
            elif source == "top":
                got = self.table.take_top()
            else:
                got = self.table.take(card)
            if got != card:
                raise TableError("the table gave %s for %s" % (got, card))
            if source != "deal":
                self.draws.append(drawn(self.table, card, before))
        self._sync_table()

    def _run(self, command, sync=True):
        sim = self.sim
        before = gamereport.game(self.game)
        refused = len(sim.rejected)
        self.line += 1
        sim.execute([self.line] + command)
        if self.ai:
            self.said = list(sim.kit.seated.said)
        else:
            if sync:
                self._sync_table()
            self._walk_table()
        if len(sim.rejected) > refused:
            r = sim.rejected[-1]
            self.message = {"kind": "refused", "code": r["code"], "text": r["message"]}
            return
        if self.ai and self.said:
            # The AI's turn ran too: its cards are not named, the procedure's words are.
            text = describe(before, gamereport.game(self.game), secret=True)
        else:
            text = (describe(before, gamereport.game(self.game), secret=True)
                    or self._ui_change(command))
        self.message = {"kind": "accepted", "code": None, "text": text}

    def _ui_change(self, command):
        """Words for an accepted event that changed only the referee's state."""
        ref = self.referee
        g = self.game
        sel = ref.selected()
        if command[0] == "press" and command[1] in ("next", "prev") and sel is not None:
            return "%s highlighted" % self.board.connections[sel[1]]
        if command[0] == "tap" and ref.pending:
            return "%s pending, %d option%s" % (
                " + ".join(g.card_names[c] for c in ref.pending), len(ref.options),
                "" if len(ref.options) == 1 else "s")
        if ref.picked != rules.NOBODY:
            return "%s chosen for removal" % self.board.connections[ref.picked]
        if command[0] == "press" and command[1] == "discard" and ref.discarding:
            return "discard mode"
        return ""

    def _walk_table(self):
        """Hot seat: a takeback's step shown for the first time is done on the table
        (the players' hands at a real table; `ok` confirms it to the board)."""
        words = self.referee.say()
        if words.startswith("take back, step") and words != self.walked:
            self.walked = words
            walk_table(self.table, None, self.draws,
                       words.split(": ", 1)[1].rsplit("; ok when done", 1)[0])

    def _note(self, text):
        self.message = {"kind": "note", "code": None, "text": text}

    def _sync_table(self):
        """The physical cards follow the game: played and discarded cards go to the pile,
        a discard taken back (R10) comes off it, and at a round end (R5) the pile is
        shuffled into the new deck and display."""
        g = self.game
        t = self.table
        for c in range(len(g.place)):
            name = g.card_names[c]
            if g.place[c] == rules.DISCARD and name not in t.pile:
                t.discard(name)
        if g.round != self.table_round:
            t.new_round()
            self.table_round = g.round
        for name in list(t.pile):
            if g.place[g.card_index[name]] != rules.DISCARD:
                t.pile.remove(name)

    # ------------------------------------------------------------ state

    def state(self):
        """What the page shows to both players: the game without the hands' cards, the
        referee's open list, the table's face-up cards and counts, a hint and the last
        message."""
        g = self.game
        ref = self.referee
        b = self.board
        rep = gamereport.game(g)
        hands = rep.pop("hands")
        rep["hand_sizes"] = {"white": len(hands["white"]), "black": len(hands["black"])}
        t = self.table
        display = [] if g.phase == rules.DEAL else t.display  # laid once the deal is over
        return {
            "source": "local",
            "report": rep,
            "ui": {
                "options": [{"conn": b.connections[k], "kind": kind}
                            for kind, k in ref.options],
                "sel": ref.sel,
                "pending": [g.card_names[c] for c in ref.pending],
                "picked": None if ref.picked == rules.NOBODY else b.connections[ref.picked],
                "discarding": ref.discarding,
                "handicap_left": g.handicap_left if g.phase == rules.HANDICAP else 0,
            },
            "table": {
                "display": display,
                "deck": len(t.deck),
                "pile": len(t.pile),
            },
            "hint": hint(g, ref, b, self.human),
            # A takeback asked for or walked through: the board's words (no hidden card).
            "takeback": ref.say() or None,
            "message": self.message,
            "solo": None if not self.ai else {
                "ai": self.ai,
                "human": self.human,
                # The board's words for the AI's card procedure: what it did since the
                # player's last action ("AI plays its 2nd card (HUNA-1)" once played
                # face up) and what it asks now. None names a card of its hand unplayed.
                "did": ["the AI " + _lower_first(w) if w.startswith("AI ") else w
                        for w in self.said],
                "asks": self.sim.app.solo.say() if self.sim.app.solo else "",
            },
            "settings": self.sim.settings,
            "now": self.sim.now,
        }

    def leds(self):
        return self.sim.np.rgb()

    def record(self):
        """The game as a scenario from the simulator's journal (record.py): a game in
        play from what is public (stand-ins for its hidden cards); RecordError if none."""
        from host_tools.simulator.engine import JOURNAL
        files = self.sim.flash.files
        return gamerecord.scenario(self.board, bytes(files[JOURNAL]) if JOURNAL in files
                                   else b"")


def _cap(word):
    return word[:1].upper() + word[1:]  # MicroPython's str has no capitalize()


def _lower_first(words):
    return words[3:] if words.startswith("AI ") else words


def hint(game, ref, board, human=None):
    """What the player on turn can do now, in a sentence, for the page."""
    p = rules.PLAYERS[game.turn]
    ph = game.phase
    words = ref.say()
    if words:  # a takeback: its question or its step
        return _cap(words) + "."
    if ph == rules.OVER:
        w = game.winner
        return "The game is over: %s. Set up a new game below." % (
            "a draw" if w == "draw" else w + " wins")
    if human is not None and p != human:
        return "The board (%s) is playing its turn." % p
    if ph == rules.DEAL:
        return "Deal: click the deck to deal %s's 3 cards (%d to go)." % (
            p, 3 - len(game.hand(p)))
    if ph == rules.HANDICAP:
        return ("Handicap: %s places %d bridge(s) without cards. Click a free connection "
                "(or next/prev, then ok)." % (p, game.handicap_left))
    if ref.discarding:
        return "Discard mode: click each card to discard, then done."
    if game.refill != rules.NOBODY:
        return ("Free refill of %s: ok places your bridge there for free, back declines."
                % board.connections[game.refill])
    if ref.picked != rules.NOBODY:
        a, b = board.conn_ends[ref.picked]
        return ("Click a second card of %s or %s to remove %s; back withdraws."
                % (board.islands[a], board.islands[b], board.connections[ref.picked]))
    if len(ref.pending) == 2:
        return "Click the bridge to remove (or next/prev, then ok); back withdraws both cards."
    if ref.pending:
        return ("Click a blinking connection (or next/prev, then ok); or a second card to "
                "remove a bridge with a pair; back withdraws the card.")
    if ph == rules.PLAY:
        text = ("%s: click a card to place a bridge, or two cards to remove one; discard; "
                % _cap(p))
        text += ("done ends your final turn." if game.final_turns
                 else "done ends the play phase.")
        if game.history:
            text += " Back undoes."
        if human is not None and not ref.options:
            text += " Ok asks the board for a hint (its move in your place)."
        return text
    if ph == rules.DRAW:
        if game.must_draw:
            return "%s must draw: click the deck or a face-up card." % _cap(p)
        if len(game.hand(p)) >= rules.HAND_LIMIT:
            return ("Hand full: discard first to draw, or done to decline; back returns to "
                    "the play phase.")
        return ("%s draws: click the deck or a face-up card, or done to decline; back "
                "returns to the play phase." % _cap(p))
    return ""
