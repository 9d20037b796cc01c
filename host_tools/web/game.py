"""The browser page's Python side: the simulator (the board's firmware on its virtual
hardware, `simcore.Simulation`) and a shuffled table of cards (`table.Table`), driven by
clicks instead of taps, for a two-player game at one screen (hot seat), or for a game
against the board (settings `ai=white|black`, games.kahuna.solo): then the table is the
simulator's own (`SimGame.sit`, solohands.Seated), which deals and does the AI's card
procedure as `sim --ai black --seed N` does at the terminal; the page never gets the AI's
hand, only its card count.

Runs in MicroPython compiled to WebAssembly (and on CPython, where the tests drive it too).
The page talks to it through one function, `handle(request) -> response`, both JSON text:

    {"op": "start", "board": PATH, "seed": N, "options": ["variant=standard", ...]}
    {"op": "new_game", "seed": N, "options": [...]}   settings as scenario option values
    {"op": "deck"}            the deck is clicked: deal (deal phase) or draw its top card
    {"op": "take", "card": C} a face-up card is clicked: it is tapped on the scanner
    {"op": "play", "card": C} a card of the hand on turn is clicked: it is tapped
    {"op": "press", "button": B}   next, prev, ok, back, done or discard
    {"op": "pick", "conn": K} a connection is clicked: chosen through the buttons
    {"op": "tick", "ms": N}   virtual time passes (the animations): the new LED frame
    {"op": "state"}           the state and frame now, changing nothing
    {"op": "hand", "player": P}    the cards of a hand (the page asks only for the one
                                   whose owner has asked to see it; never the AI's)
    {"op": "scenario", "text": T}  the simulator's scenario run: its JSON report, the
                                   very text `python -m host_tools sim --json` prints

Every response has "ok"; an action's also "state" (what any onlooker may see: no hand,
no deck order) and "leds" (the last frame, [[r, g, b], ...] in strip order). Taps go
through the simulator's emulated card reader and presses through its bouncing buttons,
exactly as in scenarios.
"""

import json

from core import board as boardmod
from core.board import ROLES
from games.kahuna import report as gamereport
from games.kahuna import rules
from games.kahuna import settings as kahunasettings

# The page is Kahuna's (its board, cards and table): it names Kahuna's host parts itself.
# The build bundles what this module imports, followed import by import (web/build.py),
# so `simgame`, which the engine finds by the game's name, is named here too.
from host_tools.games.kahuna import simgame  # noqa: F401
from host_tools.games.kahuna import simreport as reportmod
from host_tools.games.kahuna.narrate import describe
from host_tools.games.kahuna.table import Table, TableError
from host_tools.games.kahuna.verbs import check_option
from host_tools.simulator.engine import Simulation, run_commands
from host_tools.simulator.jsontext import dumps
from host_tools.simulator.scenario import ScenarioError, parse

MAX_TICK_MS = 1000  # a page that was in the background catches up at most this much


class WebError(ValueError):
    """A request the page should not have sent (a bug or a hand-made call)."""


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


def run_scenario(board, text):
    """(report JSON text, failures) of a scenario, exactly as the simulator's command line
    prints them. Raises ScenarioError for a scenario that cannot be read."""
    report, failures = run_commands(board, parse(text, board))
    return dumps(reportmod.canonical(report, board)), failures


class WebGame:
    def __init__(self, board, seed, settings=None):
        self.board = board
        self.sim = Simulation(board)
        self.line = 0
        self.new_game(settings or kahunasettings.check_settings({}), seed)

    # ------------------------------------------------------------ set-up

    def new_game(self, settings, seed):
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
        self.message = {"kind": "note", "code": None,
                        "text": "New game: %s variant, %s starts%s%s." % (
                            settings["variant"], settings["first"],
                            ", handicap: %s places %d bridge%s" % (
                                settings["handicap"][0], settings["handicap"][1],
                                "" if settings["handicap"][1] == 1 else "s")
                            if settings["handicap"] else "",
                            "; you play %s, the board plays %s" % (self.human, self.ai)
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
            self._draw(card)
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

    def tick(self, ms):
        self.sim.advance(max(0, min(MAX_TICK_MS, int(ms))))

    def _tap(self, card, source):
        """Tap `card` on the scanner; a card that went into a hand leaves the table."""
        g = self.game
        c = g.card_index[card]
        was = g.place[c]
        self._run(["tap", card], sync=False)  # the card leaves the table before a round end
        if self.ai:
            return  # the simulator's table follows the game by itself (Seated.sync)
        if was == rules.DRAWABLE and g.place[c] in (rules.WHITE, rules.BLACK):
            if source == "deal":
                got = self.table.deal()
            elif source == "top":
                got = self.table.take_top()
            else:
                got = self.table.take(card)
            if got != card:
                raise TableError("the table gave %s for %s" % (got, card))
        self._sync_table()

    def _run(self, command, sync=True):
        sim = self.sim
        before = gamereport.game(self.game)
        refused = len(sim.rejected)
        self.line += 1
        sim.execute([self.line] + command)
        if self.ai:
            self.said = list(sim.kit.seated.said)
        elif sync:
            self._sync_table()
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


def _cap(word):
    return word[:1].upper() + word[1:]  # MicroPython's str has no capitalize()


def _lower_first(words):
    return words[3:] if words.startswith("AI ") else words


def hint(game, ref, board, human=None):
    """What the player on turn can do now, in a sentence, for the page."""
    p = rules.PLAYERS[game.turn]
    ph = game.phase
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


# ---------------------------------------------------------------- the page's entry point

_session = {"board": None, "game": None}


def _start(req):
    board = boardmod.load(req["board"])
    _session["board"] = board
    _session["game"] = WebGame(board, int(req.get("seed", 1)),
                               settings_from(req.get("options", [])))


def _scenario(req):
    board = _session["board"]
    try:
        text, failures = run_scenario(board, req["text"])
    except ScenarioError as e:
        return {"ok": False, "error": str(e), "kind": "scenario"}
    return {"ok": True, "report": text, "failures": failures}


def dispatch(req):
    """One request (a dict) -> its response (a dict)."""
    op = req.get("op")
    if op == "start":
        _start(req)
    elif _session["game"] is None:
        raise WebError("start first")
    elif op == "scenario":
        return _scenario(req)
    game = _session["game"]
    if op == "new_game":
        game.new_game(settings_from(req.get("options", [])), int(req.get("seed", 1)))
    elif op == "deck":
        game.deck()
    elif op == "take":
        game.take(req["card"])
    elif op == "play":
        game.play(req["card"])
    elif op == "press":
        game.press(req["button"])
    elif op == "pick":
        game.pick(req["conn"])
    elif op == "tick":
        game.tick(req.get("ms", 0))
        return {"ok": True, "leds": game.leds(), "now": game.sim.now}
    elif op == "hand":
        return {"ok": True, "cards": game.hand(req["player"])}
    elif op not in ("start", "state"):
        raise WebError("unknown request %r" % (op,))
    return {"ok": True, "state": game.state(), "leds": game.leds()}


def handle(text):
    """The page's one call: a JSON request in, a JSON response out. A bad request is an
    answer with ok false and the reason, never an exception into the page."""
    try:
        try:
            req = json.loads(text)
        except ValueError as e:
            raise WebError("the request is not JSON (%s)" % (e,)) from e
        if not isinstance(req, dict):
            raise WebError("a request is a JSON object")
        return dumps(dispatch(req))
    except (WebError, boardmod.BoardError, TableError, KeyError, ValueError,
            TypeError) as e:
        return json.dumps({"ok": False, "error": "%s: %s" % (type(e).__name__, e)})
