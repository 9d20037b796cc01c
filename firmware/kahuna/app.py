"""The board's application: scanner taps and button presses in, frames and sounds out.

It wires the pure parts together: `scanner` (a card counts once) -> `referee` (turn flow)
-> `rules` (the game) -> `view` (the frame) -> the LED strip driver, and journals every
accepted action before the light confirms it. The hardware (or the simulator's virtual
hardware) is passed in:

- `strip` has `show(frame)` taking the view's RGB bytearray;
- `sound` (optional) is called with the referee's outcome of each event;
- `journal` (optional) is a `journal.Journal`.
"""

from kahuna import rules
from kahuna.board import NEW_GAME
from kahuna.cards import uid_hex
from kahuna.journal import JournalError
from kahuna.referee import Referee
from kahuna.scanner import Scanner
from kahuna.view import View

STORAGE = "storage"  # rejection code: the journal could not be written


class App:
    def __init__(self, board, registry, strip, settings=None, sound=None, journal=None):
        self.board = board
        self.registry = registry
        self.strip = strip
        self.sound = sound
        self.journal = journal
        self.scanner = Scanner()
        self.view = View(board)
        self.boot_problem = None
        self.listener = None  # callable(referee) after every event (the serial link)
        self.enroller = None  # a kahuna.enroll.Enroller where the board can enrol cards
        self.settings = settings or {}
        self._boot()

    def _boot(self):
        """Start from the journal if it holds a game, else a new game."""
        self.game = None
        self.boot_problem = None
        if self.journal is not None:
            try:
                _, problem = self.journal.replay(self._replay)
            except JournalError as e:
                problem = str(e)
                self.game = None
            self.boot_problem = self.boot_problem or problem
        if self.game is None:
            self.game = rules.Settings.from_json(self.board, self.settings).new_game()
            if self.journal is not None:
                self.journal.start(self.settings)
        self.game.recorder = self._record
        if self.game.refill != rules.NOBODY:
            # A free refill on offer is an open option list: a reboot drops it, like any
            # pending move, and the journal says so.
            self.game.skip_refill()
        self.referee = Referee(self.game)

    def _replay(self, item):
        if item[0] == "new":
            if self.game is not None or len(item) < 2 or not isinstance(item[1], dict):
                raise JournalError("a new-game record in the middle of the journal")
            try:
                self.game = rules.Settings.from_json(self.board, item[1]).new_game()
            except ValueError as e:
                raise JournalError("the journal's game settings: %s" % (e,)) from None
            self.settings = item[1]
            return
        if self.game is None:
            raise JournalError("the journal does not start with a new game")
        if self.boot_problem is not None:
            return  # stop applying after a record that did not replay
        try:
            if item[0] == "state":
                self.game.restore(item[1])
            else:
                self.game.apply(tuple(item))
        except (rules.Rejected, ValueError, TypeError, IndexError, KeyError) as e:
            self.boot_problem = "a record does not replay: %s" % (e,)

    def new_game(self, settings):
        """A new game with `settings` in their JSON form (checked by the rules: ValueError,
        and nothing changes, for bad ones)."""
        game = rules.Settings.from_json(self.board, settings).new_game()
        self.settings = settings
        if self.journal is not None:
            self.journal.start(settings)
        self.game = game
        self.referee = Referee(self.game)
        self.game.recorder = self._record
        self.view.reset(self.referee)

    def _record(self, action):
        """Journal an action the rules accepted, before it changes anything: if the flash
        cannot take it, the action is refused and the game stays as it was."""
        if self.journal is None:
            return
        try:
            self.journal.append(action, self._journal_state)
        except OSError as e:
            raise rules.Rejected(STORAGE, "the move could not be saved (%s)" % (e,)) from e

    def _journal_state(self):
        return self.settings, self.game.snapshot()

    # ------------------------------------------------------------- inputs

    def poll(self, uid, now):
        """One reader poll: `uid` of the card in the field, or None."""
        arrived = self.scanner.update(uid)
        if arrived is None:
            return
        if self.enroller is not None and self.enroller.card is not None:
            # Enrolling: the tag is being taught its card, it plays nothing.
            self.enroller.tag(arrived, uid_hex(arrived))
            self.show(now)
        else:
            self.tap_uid(arrived, now)

    def tap_uid(self, uid, now):
        self.referee.tap(self.registry.card_for(uid))
        self._after(now)

    def tap_card(self, card, now):
        """A card named by the host (serial link): as if its tag had been tapped."""
        self.referee.tap(card)
        self._after(now)

    def press(self, button, now):
        if button == NEW_GAME:
            self._new_game_held(now)
        else:
            self.referee.press(button)
        self._after(now)

    def _new_game_held(self, now):
        """A button held for a new game (board_def inputs.hold): only once the game is
        over, so a long press mid-game cannot wipe it. Same settings; the old game is
        archived by the journal."""
        if self.game.phase != rules.OVER:
            self.referee.refuse(rules.WRONG_PHASE, "a new game can start once this one is over")
            return
        self.new_game(self.settings)
        self.referee.outcome = "accepted"

    def pick(self, conn, now):
        self.referee.pick(conn)
        self._after(now)

    def _after(self, now):
        self.view.note(self.referee, now)
        if self.sound is not None:
            self.sound(self.referee.outcome)
        self.show(now)
        if self.listener is not None:
            self.listener(self.referee)

    # ------------------------------------------------------------- output

    def show(self, now):
        enrolling = self.enroller is not None and self.enroller.card is not None
        self.view.highlight = self.game.card_index[self.enroller.card] // 2 if enrolling else -1
        self.strip.show(self.view.render(self.game, self.referee, now))
