"""The referee: turns scanner taps and button presses into rules actions.

It holds the UI state the rules do not know: the pending card(s), the open option list and
its selection, a picked opponent bridge waiting for its second card, discard mode, and the
last refusal. Every refused event leaves game and UI unchanged and is reported with the
simulator contract's rejection code. The order of checks follows the contract: phase and
mode first (but an unregistered tag is `unknown-card` in every phase except `over`), then
the card, the hand limit, the forced draw, the options.
"""

from core import outcome as oc
from core.board import NEW_GAME, ROLES
from games.kahuna import rules
from games.kahuna.rules import NOBODY, Rejected

# Kinds of option in an open list: the rules' actions they lead to.
PLACE = rules.PLACE
REMOVE = rules.REMOVE  # an opponent bridge (one card pending: waits for a second card)
HANDICAP = "handicap"
REFILL = "refill"

# The kinds of place a refusal flashes (core.outcome.Outcome.places).
ISLAND = "island"
CONN = "conn"



class Referee:
    def __init__(self, game):
        self.game = game
        self.board = game.board
        self.pending = []  # card indices, at most 2
        self.options = []  # [(kind, connection index)]
        self.sel = 0
        self.picked = NOBODY  # opponent bridge waiting for the second card
        self.discarding = False
        self.errors = 0  # refusals so far
        self.privacy = False  # the last accepted event must not reveal a card's island
        self.outcome = None  # the core.outcome.Outcome of the last event
        self.asking = 0  # a two-player takeback asked for: the turns it takes back
        self._sync()

    # --------------------------------------------------------------- state

    def is_idle(self):
        """Nothing pending: no card, no open option list, not in discard mode."""
        return not self.pending and not self.options and not self.discarding

    def _sync(self):
        """Open the option lists that follow from the game alone (handicap, refill)."""
        g = self.game
        if g.phase == rules.HANDICAP:
            self.options = [(HANDICAP, k) for k in g.handicap_options()]
        elif g.refill != NOBODY:
            self.options = [(REFILL, g.refill)]
        elif not self.pending or self.picked != NOBODY:
            self.options = []
        if self.sel >= len(self.options):
            self.sel = 0

    def selected(self):
        """(kind, connection index) highlighted now, or None."""
        if self.options:
            return self.options[self.sel]
        return None

    def option_names(self):
        return [self.board.connections[k] for _, k in self.options]

    # -------------------------------------------------------------- events

    # Each returns the event's core.outcome.Outcome (also kept as `outcome`).

    def tap(self, card):
        """A tag on the scanner: `card` is the card name, or None for an unregistered tag."""
        if self.taking_back():
            return self._tb_run("event", "tap", card)
        return self._run(self._tap, card)

    def press(self, button):
        if button not in ROLES:
            raise ValueError("unknown button %r" % (button,))
        if self.taking_back():
            return self._tb_run("event", button, None)
        return self._run(getattr(self, "_" + button))

    def pick(self, conn_name):
        """Select `conn_name` in the open list and confirm it (the simulator's `pick`)."""
        if self.taking_back():
            return self._tb_run("event", "pick", None)
        return self._run(self._pick, conn_name)

    # ------------------------------------------------------------ takeback

    def taking_back(self):
        """A takeback asked for (two players) or its walk through the table under way."""
        t = self.game.turns
        return self.asking or (t is not None and t.walk is not None)

    def take_back(self, solo=None):
        """`back` held: take back whole turns (games.kahuna.takeback); `solo` the board's
        own player, if it plays a side."""
        return self._tb_run("ask", solo)

    def _tb_run(self, handler, *args):
        """A takeback's event (`handler`: games.kahuna.takeback's, called with this
        referee); once none is asked for or under way, that module's code (4.5 KB of
        bytecode) is given back to the heap (core.unload): it is loaded again when
        needed."""
        from games.kahuna import takeback  # loaded only when asked for
        out = self._run(getattr(takeback, handler), self, *args)
        if not self.taking_back():
            from core.unload import unload
            unload(("games.kahuna.takeback", "games.kahuna.turnread"))
        return out

    def say(self):
        """The takeback's words for the players, or "" (the app's prompters get them)."""
        if not self.taking_back():
            return ""
        from games.kahuna import takeback
        return takeback.words(self)

    def refuse(self, code, message, places=()):
        """A refused event: its Outcome (nothing else changes); `places` to flash."""
        self.errors += 1
        self.outcome = oc.refused(code, message, places, self.privacy_context())
        return self.outcome

    def _run(self, handler, *args):
        g = self.game
        before = (len(g.round_scores), g.final_turns, g.phase)
        # Rules actions are atomic (a refused one changes nothing), and every handler
        # makes its one rules call before touching the UI state; keeping the UI state
        # is enough to undo a refusal, without copying the game on every event.
        ui = (self.pending, self.options, self.sel, self.picked, self.discarding)
        try:
            handler(*args)
        except Rejected as e:
            self.pending, self.options, self.sel, self.picked, self.discarding = ui
            return self.refuse(e.code, e.message, self._involved(e, args))
        self._sync()
        if g.phase == rules.OVER and before[2] != rules.OVER:
            kind = oc.GAME_OVER
        elif len(g.round_scores) > before[0] or g.final_turns != before[1]:
            kind = oc.ROUND_END  # a scoring, or round 3's last card (final turns)
        else:
            kind = oc.ACCEPTED
        self.outcome = oc.accepted(kind, self.privacy)
        return self.outcome

    def _involved(self, err, args):
        """Places to flash for a refusal: islands, then connections. Taps in the deal and
        draw phases and in discard mode flash no island: the lights must not tell which
        card it was."""
        if self.privacy_context():
            return ()
        places = []
        for c in self.pending:
            places.append((ISLAND, c // 2))
        if err.code in (rules.NOT_IN_HAND, rules.NO_OPTION, rules.BAD_PAIR) and args:
            c = self.game.card_index.get(args[0]) if isinstance(args[0], str) else None
            if c is not None:
                places.append((ISLAND, c // 2))
        if err.code == rules.NOT_OFFERED and args and isinstance(args[0], str):
            k = self.board.conn_index.get(args[0])
            if k is not None:
                places.append((CONN, k))
        if self.picked != NOBODY:
            places.append((CONN, self.picked))
        return places

    def privacy_context(self):
        ph = self.game.phase
        return ph == rules.DEAL or ph == rules.DRAW or self.discarding

    # ---------------------------------------------------------------- taps

    def _tap(self, card):
        g = self.game
        ph = g.phase
        if ph == rules.OVER:
            raise Rejected(rules.WRONG_PHASE, "the game is over")
        if card is None:
            raise Rejected(rules.UNKNOWN_CARD, "this tag is not one of the 24 cards")
        c = g.card_id(card)
        self.privacy = ph in (rules.DEAL, rules.DRAW) or self.discarding
        if ph == rules.DEAL:
            g.deal(card)
            return
        if ph == rules.HANDICAP or g.refill != NOBODY:
            raise Rejected(rules.WRONG_PHASE, "no card can be played now")
        if self.discarding:
            g.discard(card)
            return
        if ph == rules.DRAW:
            g.draw(card)
            return
        # Play phase.
        if len(self.pending) >= 2:
            raise Rejected(rules.WRONG_PHASE, "two cards are pending: pick a bridge or back")
        if not self.pending:
            self._open_card(c)
        elif self.picked != NOBODY:
            self._second_for_picked(c)
        else:
            self._open_pair(c)

    def _open_card(self, c):
        self.options = self.game.card_options(c)
        self.pending = [c]
        self.sel = 0

    def _open_pair(self, c2):
        c1 = self.pending[0]
        self.options = [(REMOVE, k) for k in self.game.pair_options(c1, c2)]
        self.pending = [c1, c2]
        self.sel = 0

    def _second_for_picked(self, c2):
        g = self.game
        c1 = self.pending[0]
        k = self.picked
        g.check_second(c1, c2, k)
        g.remove_bridge(g.card_names[c1], g.card_names[c2], self.board.connections[k])
        self._clear()

    def _clear(self):
        self.pending = []
        self.options = []
        self.sel = 0
        self.picked = NOBODY

    # ------------------------------------------------------------- buttons

    def _need_list(self):
        if self.picked != NOBODY and not self.discarding:
            # A removal waits for its second card: say which, not "nothing to choose".
            a, b = self.board.conn_ends[self.picked]
            raise Rejected(rules.WRONG_PHASE, "%s waits for a second card (%s or %s): tap "
                           "it, or back" % (self.board.connections[self.picked],
                                            self.board.islands[a], self.board.islands[b]))
        if not self.options or self.discarding:
            raise Rejected(rules.WRONG_PHASE, "there is nothing to choose")

    def _next(self):
        self._need_list()
        self.sel = (self.sel + 1) % len(self.options)

    def _prev(self):
        self._need_list()
        self.sel = (self.sel - 1) % len(self.options)

    def _ok(self):
        self._need_list()
        self._confirm(self.sel)

    def _pick(self, conn_name):
        self._need_list()
        k = self.board.conn_index.get(conn_name)
        for i in range(len(self.options)):
            if self.options[i][1] == k:
                self.sel = i
                self._confirm(i)
                return
        raise Rejected(rules.NOT_OFFERED, "%s is not among the options" % (conn_name,))

    def _confirm(self, i):
        g = self.game
        kind, k = self.options[i]
        conn = self.board.connections[k]
        self.privacy = False
        if kind == HANDICAP:
            g.handicap_bridge(conn)
        elif kind == REFILL:
            g.refill_bridge(conn)
        elif kind == PLACE:
            g.place_bridge(g.card_names[self.pending[0]], conn)
            self._clear()
        elif len(self.pending) == 2:
            g.remove_bridge(g.card_names[self.pending[0]], g.card_names[self.pending[1]], conn)
            self._clear()
        else:
            # An opponent bridge chosen with one card: wait for the second card.
            self.picked = k
            self.options = []
            self.sel = 0

    def _back(self):
        g = self.game
        self.privacy = False
        if g.phase == rules.HANDICAP or self.discarding or g.phase in (rules.DEAL, rules.OVER):
            raise Rejected(rules.WRONG_PHASE, "back means nothing now")
        if g.refill != NOBODY:
            g.skip_refill()
            return
        if self.pending:
            self._clear()  # the pending cards stay in hand
            return
        if g.phase == rules.DRAW:
            g.resume_play()
            return
        g.undo()  # R10 (refused when nothing was done this turn)

    def _busy(self):
        g = self.game
        return self.pending or g.refill != NOBODY or g.phase in (rules.DEAL, rules.HANDICAP,
                                                                 rules.OVER)

    def _done(self):
        g = self.game
        self.privacy = False
        if self.discarding:
            self.discarding = False
            return
        if g.phase == rules.OVER:
            raise Rejected(rules.WRONG_PHASE, self._over())
        if self._busy():
            raise Rejected(rules.WRONG_PHASE, "finish or withdraw the pending move first")
        if g.phase == rules.DRAW:
            g.decline()  # R4 is checked there
        else:
            g.end_play()

    def _over(self):
        """What to say when the game is over: how a new one starts at this board (the
        button that board_def's inputs.hold gives the new-game action)."""
        for role, action in self.board.inputs.get("hold", {}).items():
            if action == NEW_GAME:
                return "the game is over: hold %s for a new game" % (role,)
        return "the game is over"

    def _discard(self):
        self.privacy = False
        if self.discarding:
            self.discarding = False
            return
        if self._busy():
            raise Rejected(rules.WRONG_PHASE, "discarding is not possible now")
        self.discarding = True
