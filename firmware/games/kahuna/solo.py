"""A solo game at the real table: the board plays one side (settings `ai`) with real cards
that nobody looks at, and the player does its hands' work.

The AI's cards lie face down in a stack beside the board. The board keeps their order
(top first) from the taps: a card dealt or drawn for the AI is tapped face down and put
on top of the stack. The face-up display is public: every card laid face up on it is
tapped once, when the board asks (after the deal, after a face-up card was taken, at a
new round), so the AI knows what it may take. Nothing the board shows or sends names a
card of the AI's stack before the AI plays it: the steps speak of places in the stack
("its 3rd card"), and a wrong card is refused without naming it or flashing its island.

The AI's turn, step by step (`step()` says which; `say()` the words for it):

    THINK     the AI thinks, in slices of the loop (`tick`); taps and buttons wait
    TAP       "AI plays its 3rd card": turn that card up and tap it
    CONFIRM   the bridge it builds (or removes, or refills) is lit: lay it (take it off),
              then ok
    DISCARD   "AI discards its 2nd card": tap it face down, put it on the pile face down
    TAKE      "AI takes HUNA-1 from the display": tap it, put it on top of the stack
    DRAW      "AI draws": lay the deck's top card face down on the scanner, then on top
              of the stack
Ending the play phase, declining to draw and leaving a free refill need no hands: the
board does them itself.

Everything is done through the referee, so the rules, the journal and the light treat
the AI's moves as they treat the player's. The state that the rules do not hold (the
stack's order, the display, what the AI may know of the other hand) is rebuilt on boot
from the journal's actions (`note`) and its ["solo", ...] records (`save`, `load`),
written when the display changes.
"""

from core import outcome as oc
from core.ticks import ticks_add
from games.kahuna import ai, observe, rules

WRONG_CARD = "wrong-card"  # rejection code: not the card the AI's step asks for

THINK_MS = 6000  # the AI answers within this (the best turn found by then)
SLICE_MS = 10  # thinking per tick of the loop: frames, inputs and the link keep going
DISPLAY_SIZE = 3
# The refusal between the AI's last confirmed move and the board's next tick, which makes
# the move it owes itself (the end of its play phase, a decline, a refill left): a card or
# a button then would be taken for the AI's (a "done" in the draw phase declines it).
MOVING = "the AI is moving"

# Steps (see the module's docstring); None: nothing asked of the player.
DISPLAY = "display"  # lay a card face up on the display and tap it
DEAL = "deal"  # the AI's card of the deal: tap it face down, put it on its stack
THINK = "think"
TAP = "tap"
CONFIRM = "confirm"
DISCARD = "discard"
TAKE = "take"
DRAW = "draw"
HINT = "hint"  # the player asked (ok with nothing to choose) for the AI's move in its place

NO_LIGHTS = ((), ())
_ORD = ("1st", "2nd", "3rd", "4th", "5th", "6th")


def ordinal(n):
    return _ORD[n - 1] if 0 < n <= len(_ORD) else "%dth" % n


class Solo:
    """The side the board plays. `referee` is the app's (`set_referee` when it changes);
    `clock()` gives ms (the simulator's virtual clock makes the thinking deterministic)."""

    def __init__(self, game, referee, level=ai.DEFAULT_LEVEL, seed=1, clock=None):
        self.game = game
        self.referee = referee
        self.side = game.settings.ai
        self.tracker = observe.Tracker(game, self.side)
        # What the player may know, for the hint: their own discards are seen, the AI's
        # face-down discards are not (the AI's tracker knows the reverse).
        self.own = observe.Tracker(game, 1 - self.side)
        s = game.settings
        self.player = ai.Player(game.board, level, seed, clock, (s.card_names, s.card_index))
        self.clock = self.player.clock
        self.stack = []  # the AI's cards (indices), top first
        self.display = []  # the face-up display as tapped (indices)
        self.plan = None  # the rest of the AI's turn: rules actions (ai.Player's form)
        self.thinking = False  # the solo interface (core.loopstats): a decision under way
        self.decisions = 0  # and the decisions made (a turn's plan, a hint)
        self.dirty = False  # the display changed: the app journals `save()`
        self.ai_moves = 0  # actions the AI made
        self.log = None  # a list to keep the AI's actions in (the simulator's report)
        self.hint = None  # None, [] while thinking, or the hinted turn (the player asked)
        self.lights = NO_LIGHTS  # (connections, islands) the hint lights

    # -------------------------------------------------------------- state

    def save(self):
        """What the journal cannot rebuild from the actions: the display and the stack."""
        t = self.tracker
        return {"display": list(self.display), "stack": list(self.stack), "seen": t.seen,
                "known": t.opp_known, "count": t.opp_count, "moves": self.ai_moves,
                "own": self.own.seen}

    def load(self, obj):
        """A ["solo", obj] journal record; a bad one is ignored (the display is asked again).
        A card it adds to the display was laid there: the turn log keeps it."""
        before = self.display
        if self._restore(obj):
            for c in self.display:
                if c not in before:
                    self._laid(c)

    def _laid(self, c):
        """Card `c` laid face up on the display: the last turn's record keeps it (a
        takeback puts it back on the deck)."""
        log = self.game.turns
        if log is not None and log.entries:
            log.entries[-1][4].append(c)

    def _restore(self, obj):
        """The state of a save (`save()`); False, nothing changed, for a bad one."""
        try:
            display = [int(c) for c in obj["display"]]
            stack = [int(c) for c in obj["stack"]]
            t = self.tracker
            t.seen, t.opp_known, t.opp_count = int(obj["seen"]), int(obj["known"]), \
                int(obj["count"])
            self.ai_moves = int(obj.get("moves", 0))
            # A journal from before "own": the cards played face up are all the hint
            # may count on (never the AI's secret discards).
            own = int(obj.get("own", 0))
        except (KeyError, TypeError, ValueError):
            return False
        self.display = display
        self.stack = stack
        t.round = self.game.round
        t.log = []
        self.own.seen = own
        self.own.round = self.game.round
        self.own.log = []
        return True

    def note(self, game, action, actor):
        """An action the rules applied (`actor` was on turn): the stack, the display and
        what the AI may know follow it; the AI's own action ticks off its plan."""
        kind = action[0]
        if kind == "takeback" or kind == "tb":
            self._taken_back(game, kind)
            return
        log = game.turns
        if log is not None and log.fresh is not None:
            log.fresh[3] = self.save()  # a turn starts: kept for a takeback
            log.fresh = None
        face_up = False
        mine = actor == self.side
        if kind in ("deal", "draw"):
            c = game.card_index[action[1]]
            if c in self.display:
                self.display.remove(c)
                face_up = True
            if mine:
                self.stack.insert(0, c)
        elif mine and kind in ("place", "remove", "discard"):
            for name in action[1:-1] if kind == "remove" else action[1:2]:
                c = game.card_index[name]
                if c in self.stack:
                    self.stack.remove(c)
        self.hint = None
        round_before = self.tracker.round
        self.tracker.note(game, action, actor, face_up)
        self.own.note(game, action, actor, face_up)
        if game.round != round_before:
            self.display = []  # R5: the discard pile is the new deck, a new display is laid
        if mine and kind != "deal":
            self.ai_moves += 1
            if self.log is not None:
                self.log.append(tuple(action))
            plan = self.plan
            if plan and (plan[0] == tuple(action) or plan[0][0] == "draw_top" and kind == "draw"):
                plan.pop(0)
                if not plan:
                    self.plan = None  # still its turn (a handicap's next bridge): think
            else:
                self.plan = None  # not what was planned (cannot happen): think again
        if not self.ai_turn():
            self.plan = None

    def _taken_back(self, game, kind):
        """Turns taken back (games.kahuna.takeback): the stack, the display and what the
        AI knows as they were at the first one's start; its plan thought again."""
        self.plan = None
        self.hint = None
        self.thinking = False
        log = game.turns
        if kind == "takeback" and log is not None and log.restored is not None:
            self._restore(log.restored)
            log.restored = None

    def _aside(self):
        """A takeback asked for or under way: the referee has the inputs."""
        r = self.referee
        return r is not None and r.taking_back()

    # -------------------------------------------------------------- steps

    def ai_turn(self):
        g = self.game
        return g.turn == self.side and g.phase in (rules.PLAY, rules.DRAW, rules.HANDICAP)

    def display_short(self):
        """Cards the display still needs tapped: 3 while cards last, once the deal is over."""
        g = self.game
        if g.phase in (rules.DEAL, rules.OVER) or g.final_turns:
            return 0
        want = min(DISPLAY_SIZE, g.drawable_count())
        return max(0, want - len(self.display))

    def step(self):
        """(step, action) asked of the player now; step None when nothing is."""
        g = self.game
        if self._aside():
            return None, None
        if g.phase == rules.DEAL:
            return (DEAL, None) if g.turn == self.side else (None, None)
        if self.display_short():
            return DISPLAY, None
        if not self.ai_turn():
            return (HINT, None) if self.hint is not None else (None, None)
        if self.plan is None:
            return THINK, None
        if not self.plan:
            return None, None
        act = self.plan[0]
        kind = act[0]
        r = self.referee
        if kind == "place":
            return (CONFIRM if r.pending else TAP), act
        if kind == "remove":
            return (CONFIRM if len(r.pending) == 2 else TAP), act
        if kind in ("refill", "handicap"):
            return CONFIRM, act
        if kind == "discard":
            return DISCARD, act
        if kind == "draw":
            return TAKE, act
        if kind == "draw_top":
            return DRAW, act
        return None, act  # end_play, decline, skip_refill: the board does them

    def expected_card(self, step, act):
        """The card index a TAP, DISCARD or TAKE step waits for."""
        idx = self.game.card_index
        if step == TAP and act[0] == "remove" and self.referee.pending:
            return idx[act[2]]
        return idx[act[1]]

    def place_in_stack(self, c):
        """Card `c`'s place from the top among the cards still face down in the stack (a
        card turned up for a move in progress has left it)."""
        pending = self.referee.pending if self.referee is not None else ()
        n = 1
        for x in self.stack:
            if x == c:
                return n
            if x not in pending:
                n += 1
        return 0

    def say(self):
        """The words for the step, naming no card of the AI's stack (only the face-up
        card it takes, which both players see)."""
        step, act = self.step()
        g = self.game
        conns = g.board.connections
        if step is None:
            return ""
        if step == DEAL:
            return "deal the AI's card face down: tap it unseen, put it on the AI's stack"
        if step == DISPLAY:
            return "lay the deck's top card face up on the display and tap it (%d more)" % (
                self.display_short(),)
        if step == THINK:
            return "the AI is thinking"
        if step == HINT:
            return self._hint_words()
        if step == TAP:
            n = self.place_in_stack(self.expected_card(step, act))
            return "AI plays its %s card: turn it up and tap it" % (ordinal(n),)
        if step == CONFIRM:
            kind = act[0]
            conn = conns[g.conn_id(act[-1])]
            if kind == "remove":
                return "AI removes %s: take that bridge off, then ok" % (conn,)
            if kind == "refill":
                return "AI refills %s for free: lay its bridge there, then ok" % (conn,)
            if kind == "handicap":
                return "AI's handicap bridge on %s: lay it, then ok" % (conn,)
            return "AI builds %s: lay its bridge there, then ok" % (conn,)
        if step == DISCARD:
            n = self.place_in_stack(self.expected_card(step, act))
            return "AI discards its %s card: tap it face down, put it on the pile face down" \
                % (ordinal(n),)
        if step == TAKE:
            return "AI takes %s from the display: tap it, put it on top of its stack" % (act[1],)
        return ("AI draws: lay the deck's top card face down on the scanner, then on top of "
                "its stack")

    # -------------------------------------------------------------- the loop

    def tick(self, now):
        """One slice of the AI's work: think, or make a move that needs no hands. Returns
        the referee's Outcome of a move made, else None."""
        step, act = self.step()
        if step == CONFIRM and act[0] in ("handicap", "refill"):
            # Only the AI's choice lit (the referee opens every free connection).
            r = self.referee
            k = self.game.conn_id(act[-1])
            if len(r.options) != 1 or r.options[0][1] != k:
                r.options = [(act[0], k)]
                r.sel = 0
        if step == THINK or step == HINT and not self.hint:
            p = self.player
            if not self.thinking:
                # A tick of its own: the observation, the start and the words that say the
                # board thinks (core.app prompts after it) before the first slice, which
                # then gets its whole SLICE_MS (they took it past 12 ms on the chip).
                p.start(self._observe(step == HINT), ticks_add(self.clock(), THINK_MS))
                self.thinking = True
                return None
            if p.step(SLICE_MS):
                self.thinking = False
                if step == HINT:
                    self.hint = p.best()
                    self.lights = self._hint_lights()
                    made = self.hint
                else:
                    self.plan = made = p.best()
                if made is not None:
                    self.decisions += 1
            return None
        if step is None and act is not None:
            r = self.referee
            if act[0] == "skip_refill":
                return r.press("back")
            return r.press("done")  # end_play, decline
        return None

    def _observe(self, for_player):
        """What the AI may know, or (the hint) what the player may: the same public
        record, the player's own hand, the AI's card count (none of its cards known)."""
        g = self.game
        display = [g.card_names[c] for c in self.display]
        if not for_player:
            return self.tracker.observe(g, display)
        t = observe.Tracker(g, 1 - self.side)
        t.seen = self.own.seen
        t.opp_count = len(self.stack)
        return t.observe(g, display)

    def hint_move(self):
        """(connections, islands) the hint lights (the view draws them every frame)."""
        return self.lights if self.hint else NO_LIGHTS

    def _hint_lights(self):
        """The first bridge the AI would build or remove in the player's place, with its
        cards' islands; or ((), ()) when its turn builds nothing."""
        g = self.game
        for act in self.hint or ():
            if act[0] in ("place", "remove", "refill"):
                cards = act[1:-1] if act[0] != "refill" else ()
                return ((g.conn_id(act[-1]),), tuple(g.card_index[n] // 2 for n in cards))
        return NO_LIGHTS

    def _hint_words(self):
        if not self.hint:
            return "the AI looks for your best move"
        act = self.hint[0]
        kind = act[0]
        if kind == "place":
            return "hint: build %s (any button hides it)" % (act[-1],)
        if kind == "remove":
            return "hint: remove %s (any button hides it)" % (act[-1],)
        if kind == "refill":
            return "hint: refill %s (any button hides it)" % (act[-1],)
        return "hint: end the play phase (any button hides it)"

    # -------------------------------------------------------------- inputs

    def refuse(self, code, message):
        # Private: a wrong card's island is never flashed, its name never sent.
        self.referee.errors += 1
        self.referee.outcome = oc.refused(code, message, (), True)
        return self.referee.outcome

    def tap(self, card):
        """A tag on the scanner: the step's Outcome, or None when it is the referee's
        (the player's own turn, the deal)."""
        if self._aside():
            return None
        if self.hint is not None:
            self.hint = None
            self.thinking = False
        step, act = self.step()
        g = self.game
        if step is None and act is not None:
            return self.refuse(rules.WRONG_PHASE, MOVING)
        if step is None or step == DEAL:
            return None
        if card is None:
            return self.refuse(rules.UNKNOWN_CARD, "this tag is not one of the 24 cards")
        c = g.card_index[card]
        if step == DISPLAY:
            if g.place[c] != rules.DRAWABLE:
                return self.refuse(WRONG_CARD, "this card is not in the deck: lay the deck's "
                                   "top card face up and tap it")
            if c in self.display:
                return self.refuse(WRONG_CARD, "%s is on the display already: tap the card "
                                   "just laid" % (card,))
            self.display.append(c)
            self._laid(c)
            self.dirty = True
            return oc.accepted()
        if step == THINK:
            return self.refuse(rules.WRONG_PHASE, "the AI is thinking")
        if step == CONFIRM:
            return self.refuse(rules.WRONG_PHASE, self.say())
        if step == DRAW:
            if c in self.display:
                return self.refuse(WRONG_CARD, "that card lies face up on the display: the AI "
                                   "draws the deck's top card")
            if g.place[c] != rules.DRAWABLE:
                return self.refuse(WRONG_CARD, "that card is not in the deck: the AI draws the "
                                   "deck's top card")
            return self.referee.tap(card)
        want = self.expected_card(step, act)
        if c != want:
            if step == TAKE:
                return self.refuse(WRONG_CARD, "the AI takes %s from the display, not this "
                                   "card" % (g.card_names[want],))
            return self.refuse(WRONG_CARD, "this is not the AI's %s card: turn it back, and "
                               "tap the %s card from the top of its stack"
                               % (ordinal(self.place_in_stack(want)),
                                  ordinal(self.place_in_stack(want))))
        r = self.referee
        if step == DISCARD:
            r.discarding = True
            out = r.tap(card)  # the referee's discard mode: a private tap
            r.discarding = False
            return out
        out = r.tap(card)
        if out.kind != oc.REFUSED and r.options:
            # Only the AI's choice stays lit (steady, the highlighted option).
            k = g.conn_id(act[-1])
            chosen = [o for o in r.options if o[1] == k]
            if chosen:
                r.options = chosen[:1]
                r.sel = 0
        return out

    def press(self, button):
        """A button in the AI's turn (or while the display is asked): ok confirms the lit
        move; the rest wait. None when the button is the referee's."""
        if self._aside():
            return None
        if self.hint is not None:
            self.hint = None  # any button hides the hint (and does nothing else)
            self.thinking = False
            return oc.accepted()
        step, act = self.step()
        g = self.game
        if (step is None and button == "ok" and g.phase == rules.PLAY and g.turn != self.side
                and self.referee.is_idle() and g.refill == rules.NOBODY):
            # ok with nothing to choose in the player's play phase: the hint (asked).
            self.hint = []
            return oc.accepted()
        if step is None and act is not None:
            return self.refuse(rules.WRONG_PHASE, MOVING)
        if step is None or step == DEAL:
            return None
        if step == CONFIRM and button == "ok":
            return self.referee.press("ok")
        if step == DISPLAY:
            return self.refuse(rules.WRONG_PHASE, self.say())
        return self.refuse(rules.WRONG_PHASE, "the AI's turn: " + self.say())
