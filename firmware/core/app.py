"""The board's application: scanner taps and button presses in, frames and sounds out.

It wires the parts together: `scanner` (a card counts once) -> the game's controller
(turn flow) -> the game's state (its rules) -> the game's view (the frame) -> the LED
strip driver, and journals every accepted action before the light confirms it. Each
event's `core.outcome.Outcome` goes to the view, the sound and the listeners (the serial
link). The game is `game_def`, its interface module (docs/platform.md; e.g.
`games.kahuna.game`): the app imports no game. The hardware (or the simulator's virtual
hardware) is passed in:

- `strip` has `show(frame)` taking the view's RGB bytearray;
- `sound` (optional) has `play(kind, now)` and `tick(now)` (hw.buzzer.Buzzer);
- `journal` (optional) is a `journal.Journal`;
- `reader` (optional) has `poll(now)` -> True when a poll completed, its result in `uid`
  (bytes or None), and `lost` (hw.reader.Reader);
- `inputs` (optional) has `poll(now)` -> roles and `poll_ms` (hw.inputs.Inputs);
- `watchdog` (optional) has `feed()`;
- `clock` (optional) gives ms for the computer opponent's thinking slices (the simulator
  passes its virtual clock, so the AI's thinking is the same whatever the machine).

When the game's settings seat the board as a player, `solo` is the game's own player
(`game_def.solo`): it has the first look at every tap and press, thinks in its own tick,
and `prompters` are told its words for the player (`say()`) whenever they change.

The board's loop is the ticks below, each with its period (`tasks()`): main.py runs them
as asyncio tasks on a fixed beat (the reader again at once while the chip has a command in
flight, the AI slice after slice while it thinks), the simulator on virtual time. `now` is
ms that only go up.
"""

from core import outcome as oc
from core.board import MENU, NEW_GAME, TAKEBACK
from core.cards import uid_hex
from core.journal import JournalError
from core.outcome import STORAGE, Rejected
from core.scanner import Scanner
from core.unload import unload

# The loop's periods (ms), their one home: main.py and the simulator both use tasks().
READER_MS = 20  # one reader step (a full poll spans about three: command, ACK, response;
# on the board main.py polls tight while a command is in flight: a poll within one tick)
FRAME_MS = 20  # one frame of the animation, a buzzer step and a watchdog feed
WATCHDOG_MS = 8000  # the frame task feeds it; the RP2040's watchdog allows up to 8.3 s
AI_MS = 10  # the board's own player's tick: one slice of its thinking
# While the board's own player thinks, main.py runs the inputs and the reader less often,
# so the search gets most of the chip (a tap then is refused anyway: the AI is thinking;
# a tag laid for a fifth of a second or more is still seen; the encoder's detents are
# counted by interrupt; a button's press is debounced over 20 ms, so it is seen 40-80 ms
# after its contact settles). On the chip (issue 20): 20 and 100 ms left 59-63% of a
# decision in its slices, 40 and 200 ms 64-67%.
THINKING_MS = {"inputs": 40, "reader": 200}


class App:
    def __init__(self, game_def, board, registry, strip, settings=None, sound=None,
                 journal=None, reader=None, inputs=None, watchdog=None, clock=None):
        self.game_def = game_def
        self.board = board
        self.registry = registry
        self.strip = strip
        self.sound = sound
        self.journal = journal
        # A game may journal an action in a form of its own (optional journal_form: Kami
        # writes a face-down card at a fixed width); its replay reads that form back.
        self._form = getattr(game_def, "journal_form", None)
        # A game may name checkpoints (optional checkpoint(state): Kami's round); the
        # journal is compacted to the game's state when one passes (_checkpoint).
        self._mark = getattr(game_def, "checkpoint", None)
        self._last_mark = None
        self.reader = reader
        self.inputs = inputs
        self.watchdog = watchdog
        self.scanner = Scanner()
        self.view = game_def.view(board)
        self._view_still = getattr(self.view, "still", None)  # bound once: no allocation
        self.boot_problem = None
        self.listeners = []  # callable(outcome) after every event (the serial link)
        self.enroller = None  # a core.enroll.Enroller once a card is being enrolled
        # callable() -> that Enroller, where the board can enrol cards: called on the first
        # enrolment, so that its code (and the NDEF codec's) is loaded only then.
        self.make_enroller = None
        self.settings = settings or {}
        self.clock = clock
        self.solo = None
        self.menu = None  # the buttons' settings menu while it is open (core.menu.Menu)
        # A Pico W set up for remote play (main.py): core.netplay.NetMenu, the settings
        # menu's `remote: create` and `remote: join` (a game with a remote seat only).
        self.netplay = None
        # Actions the game has applied: every event's number on the link (with the game's
        # number), rebuilt from the journal after a power cut.
        self.seq = 0
        self.prompters = []  # callable(text) when the solo game's step changes
        self.said = ""
        self._acts = []  # (action, actor) applied, not yet told to the solo game
        self._drawn = False  # the last frame composed stands until something changes (_still)
        self._until = 0  # ... and until this time (ms)
        self._boot()

    def _boot(self):
        """Start from the journal if it holds a game (core.resume: its code loaded for the
        replay and given back after it), else a new game."""
        self.game = None
        self.solo = None
        self.boot_problem = None
        self.seq = 0
        if self.journal is not None:
            from core import resume
            try:
                resume.replay(self)
            finally:
                unload(("core.resume",), clear=False)  # the simulator's boards share it
        if self.game is None:
            self.settings = self._enrolled(self.settings)
            self.game = self.game_def.new_state(self.board, self.settings)
            if self.journal is not None:
                self.journal.start(self.settings)
        self.game.recorder = self._record
        self.game_def.resume(self.game)
        self._last_mark = self._mark(self.game) if self._mark is not None else None
        self.referee = self.game_def.controller(self.game)
        self._make_solo(self.referee)

    def _enrolled(self, settings):
        """A new game's settings with what the registry records of the tags (the game's
        optional `enrolled_settings`: Halunken's crew values at a table, H2). Only a new
        game asks: a resumed one keeps its journaled settings."""
        hook = getattr(self.game_def, "enrolled_settings", None)
        values = getattr(self.registry, "values", None)
        return settings if hook is None or not values else hook(settings, values)

    def new_game(self, settings):
        """A new game with `settings` in their JSON form (checked by the game: ValueError,
        and nothing changes, for bad ones)."""
        settings = self._enrolled(settings)
        game = self.game_def.new_state(self.board, settings)
        self.settings = settings
        if self.journal is not None:
            self.journal.start(settings)
        self.game = game
        self.seq = 0
        self._last_mark = self._mark(game) if self._mark is not None else None
        self.referee = self.game_def.controller(self.game)
        self.game.recorder = self._record
        self.solo = None
        self._make_solo(self.referee)
        self.view.reset()

    def _make_solo(self, referee):
        """The board's own player (the game's settings seat it), or None. Made when the
        game starts (also in a replay, where it follows the actions), then given the
        referee once there is one."""
        self._acts = []
        if self.game is None:
            self.solo = None
            return
        if self.solo is None or self.solo.game is not self.game:
            self.solo = self.game_def.solo(self.game, referee, self.clock)
        if self.solo is not None:
            self.solo.referee = referee
            if hasattr(self.solo, "keep"):  # a remote seat journals its card trades
                self.solo.keep = self._keep

    def _keep(self, obj):
        """A ["solo", obj] journal record now (a remote seat's card trade, before the
        action that needs it); ValueError, and nothing done, if the flash cannot take it."""
        if self.journal is not None:
            try:
                self.journal.append(("solo", obj), self._journal_state)
            except OSError as e:
                raise ValueError("the move could not be saved (%s)" % (e,)) from None

    def listen(self, listener):
        """`listener(outcome)` is called after every event, whatever its source."""
        self.listeners.append(listener)

    def _record(self, action):
        """Journal an action the rules accepted, before it changes anything: if the flash
        cannot take it, the action is refused and the game stays as it was."""
        if self.journal is not None:
            try:
                self.journal.append(action if self._form is None else self._form(action),
                                    self._journal_state)
            except OSError as e:
                raise Rejected(STORAGE, "the move could not be saved (%s)" % (e,)) from e
        self.seq += 1
        if self.solo is not None:
            self._acts.append((action, self.game.to_act()[0]))

    def _tell_solo(self):
        """The solo game follows the actions the last event applied; a display it was told
        of goes to the journal (the actions cannot rebuild it)."""
        solo = self.solo
        if solo is None:
            return
        acts = self._acts
        self._acts = []
        for action, actor in acts:
            solo.note(self.game, action, actor)
        if solo.dirty:
            solo.dirty = False
            if self.journal is not None:
                try:
                    self.journal.append(("solo", solo.save()), self._journal_state)
                except OSError:
                    pass  # after a power cut the board asks for the display again

    def _checkpoint(self):
        """After an event: if the game passed a checkpoint (its optional
        checkpoint(state) changed: Kami's round), the journal becomes the game's state,
        so that a power cut replays that state and what followed, not the whole game; the
        solo game's record follows it. If the flash cannot take it, the journal as it was
        still replays the whole game."""
        if self._mark is None or self.journal is None:
            return
        mark = self._mark(self.game)
        if mark == self._last_mark:
            return
        self._last_mark = mark
        try:
            self.journal.compact(self._journal_state)  # the solo game's record with it
        except (OSError, JournalError):
            pass

    def _journal_state(self):
        """What a compacted journal holds: the settings, the state, the actions' count and
        the solo game's (or remote seat's) record, which the actions cannot rebuild."""
        solo = [["solo", self.solo.save()]] if self.solo is not None else []
        return self.settings, self.game.snapshot(), self.seq, solo

    def game_no(self):
        """The game's number on this board (the journal's; 0 with none): a new game, a
        new number."""
        return self.journal.game_no if self.journal is not None else 0

    # ------------------------------------------------------------- the loop

    def tasks(self):
        """[(period ms, tick(now))]: the board's loop, one entry per task."""
        tasks = [(FRAME_MS, self.tick_frame), (AI_MS, self.tick_ai)]
        if self.reader is not None:
            tasks.insert(0, (READER_MS, self.tick_reader))
        if self.inputs is not None:
            tasks.insert(len(tasks) - 2, (self.inputs.poll_ms, self.tick_inputs))
        return tasks

    def thinking(self):
        """True while the board's own player works out a decision over several ticks."""
        return self.solo is not None and self.solo.thinking

    def tick_reader(self, now):
        """One reader step; a completed poll goes to the scanner."""
        if self.reader.poll(now):
            self.poll(self.reader.uid, now)

    def tick_inputs(self, now):
        for role in self.inputs.poll(now):
            self.press(role, now)

    def tick_frame(self, now):
        """One animation frame, a buzzer step, and the watchdog fed: a stalled loop stops
        feeding it, the watchdog resets the board and the journal resumes the game. The
        frame is composed again only when it may have changed (`_still`); else the last one
        is written again (the strip keeps its 50 frames a second)."""
        if self._still(now):
            self.strip.show(self.view.frame)
        else:
            self.show(now)
        if self.sound is not None:
            self.sound.tick(now)
        if self.watchdog is not None:
            self.watchdog.feed()

    def tick_ai(self, now):
        """The board's own player's slice (a solo game only): think, or make a move that
        needs no hands (in Kahuna: end the play phase, decline, leave a refill)."""
        if self.solo is None or self.menu is not None:
            return  # the board's player waits while the settings menu is open
        hold = getattr(self.view, "hold_solo", None)
        if hold is not None and hold(now):
            return  # ... and while the lights show what it must not cut short
        was = self.solo.thinking
        out = self.solo.tick(now)
        if was and self.solo.thinking:
            return  # a slice in mid-decision: its words and lights stand (events prompt)
        self._drawn = False  # its step, a move's lights or a hint: the next frame shows it
        if out is not None:
            self._after(out, now)
        else:
            self._prompt()

    def _prompt(self):
        # The controller's own words first (Kahuna's takeback), then the solo game's.
        say = getattr(self.referee, "say", None)
        text = say() if say is not None else ""
        if not text and self.solo is not None:
            text = self.solo.say()
        if text != self.said:
            self.said = text
            for prompter in self.prompters:
                prompter(text)

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

    # Each event returns its Outcome, after the view, the sound and the listeners had it.

    def tap_uid(self, uid, now):
        return self.tap_card(self.registry.card_for(uid), now)

    def tap_card(self, card, now):
        """A card named by the host (serial link): as if its tag had been tapped."""
        if self.menu is not None:
            return self._after(self._in_menu(), now)
        out = self.solo.tap(card) if self.solo is not None else None
        return self._after(out or self.referee.tap(card), now)

    def press(self, button, now):
        if button == NEW_GAME:
            return self._after(self._new_game_held(now), now)
        if button == MENU:
            return self._after(self._open_menu(), now)
        if button == TAKEBACK:
            return self._after(self._take_back(), now)
        if self.menu is not None:
            return self._after(self._menu_press(button, now), now)
        out = self.solo.press(button) if self.solo is not None else None
        return self._after(out or self.referee.press(button), now)

    def _fresh(self, settings, now, finished=None):
        """The settings of a game started at the table: a game that deals from a seed
        (`fresh_settings`, optional) takes a new one from the moment of the press, the
        only randomness a board has (the rules read no clock), else the same deal again.
        `finished` is the game over that the held button follows (None from the menu): a
        game of several games added up carries its totals on to the next."""
        fresh = getattr(self.game_def, "fresh_settings", None)
        return settings if fresh is None else fresh(settings, now, finished)

    def _new_game_held(self, now):
        """A button held for a new game (board_def inputs.hold): only once the game is
        over, so a long press mid-game cannot wipe it. Same settings (a new deal where the
        game deals); the old game is archived by the journal."""
        if not self.game.is_over():
            return self.referee.refuse(oc.WRONG_PHASE,
                                       "a new game can start once this one is over")
        self.new_game(self._fresh(self.settings, now, self.game))
        self.referee.outcome = oc.accepted(oc.NEW_GAME)
        return self.referee.outcome

    def _take_back(self):
        """A button held to take back whole turns: the game's controller does it (its
        optional take_back(solo)), with the board's own player if it plays a side."""
        if self.menu is not None:
            return self._in_menu()
        take_back = getattr(self.referee, "take_back", None)
        if take_back is None:
            return self.referee.refuse(oc.WRONG_PHASE, "this game takes no turns back")
        return take_back(self.solo)

    def _in_menu(self):
        return self.referee.refuse(oc.WRONG_PHASE, "the settings menu is open: done starts "
                                   "a game, discard leaves it")

    def _open_menu(self):
        """The settings menu, over the settings in force (held menu button)."""
        items = getattr(self.game_def, "MENU", ())
        if not items:
            return self.referee.refuse(oc.WRONG_PHASE, "this game has no settings menu")
        if self.netplay is not None:
            items = self.netplay.items(self.game_def, items)
        fresh = self.game_def.new_state(self.board, self.settings)
        under_way = not self.game.is_over() and self.game.snapshot() != fresh.snapshot()
        start = self.game_def.menu_settings(self.game_def.check_settings(self.settings))
        from core import menu as menumod  # loaded when first opened: not in a game's heap
        self.menu = menumod.Menu(items, start, under_way)
        return oc.accepted(oc.MENU)

    def _menu_press(self, button, now):
        from core import menu as menumod  # already loaded: the menu is open
        step = self.menu.press(button)
        if step == menumod.LEAVE:
            self.menu = None
        elif step == menumod.START:
            if self.netplay is not None:
                out = self.netplay.start(self)
                if out is not None:
                    return out
            try:  # the game's fresh settings first: they may drop what the menu ends
                chosen = self.menu.settings(self.settings)
                if self.netplay is not None:
                    self.netplay.drop(chosen)
                settings = self.game_def.check_settings(self._fresh(chosen, now))
            except ValueError as e:  # values that do not go together: the menu stays open
                return self.referee.refuse(oc.BAD_SETTINGS, "these settings make no game: %s"
                                           % e)
            self.menu = None
            self.new_game(settings)
            self.referee.outcome = oc.accepted(oc.NEW_GAME)
            return self.referee.outcome
        return oc.accepted(oc.MENU)

    def menu_state(self):
        """The open menu for a host: {"item", "settings", "asking"} (and "words" while a
        remote game's code is entered), or None."""
        m = self.menu
        if m is None:
            return None
        out = {"item": m.current()[0], "settings": m.settings(self.settings),
               "asking": m.asking}
        if hasattr(m, "words"):
            out["words"] = m.words()
        return out

    def remote(self, msg, now):
        """The dealer's event for a seat played at another table (the link's remote
        command, games' `remote` seat): its Outcome, or None when the board had taken it
        already; ValueError (nothing changed) when the game has no remote seat or the
        event does not fit."""
        take = getattr(self.solo, "remote", None)
        if take is None:
            raise ValueError("this game has no seat played at another table")
        out = take(msg)
        return None if out is None else self._after(out, now)

    def pick(self, conn, now):
        if self.menu is not None:
            return self._after(self._in_menu(), now)
        out = None
        if self.solo is not None:
            out = self.solo.press("pick")  # the AI's turn: refused, its step said
        return self._after(out or self.referee.pick(conn), now)

    def _after(self, outcome, now):
        self._tell_solo()
        self._checkpoint()
        self.view.note(outcome, now)
        if self.sound is not None:
            self.sound.play(oc.sound(outcome), now)
        self.show(now)
        for listener in self.listeners:
            listener(outcome)
        self._prompt()
        return outcome

    # ------------------------------------------------------------- output

    def start_enroller(self):
        """The enroller, made on first use; None where the board cannot enrol."""
        if self.enroller is None and self.make_enroller is not None:
            self.enroller = self.make_enroller()
        return self.enroller

    def enrolling_place(self):
        """The place of the card being enrolled (it pulses whatever the game), or -1."""
        if self.enroller is None or self.enroller.card is None:
            return -1
        return self.game_def.enroll_place(self.game, self.enroller.card)

    def _still(self, now):
        """True when the last frame composed is the frame of `now`: the view said, right
        after composing it, until when it stays the same if the game and the controller
        do not change (its optional `still()`: the next half of a blink, the end of an
        animation, or a long time ahead; `_until`), that time has not come, and nothing
        that draws it changed since: every event composes its frame at once (`_after`, the
        link), the board's player marks a change when it stops thinking (`tick_ai`), and a
        frame composed with the reader's fault (it blinks) or an enrolment (it pulses)
        never stands, so the fault's start is the only change left to look at. A view
        without `still` is composed every frame."""
        return (self._drawn and now < self._until
                and (self.reader is None or not self.reader.lost))

    def show(self, now):
        self._drawn = False
        if self.menu is not None:
            st = self.board.status_leds
            pixels = (self.game_def.menu_pixels(self.board) if self.netplay is None
                      else self.netplay.pixels(self.game_def, self.board))
            self.strip.show(self.menu.paint(self.view.f, pixels, st.get("phase", -1),
                                            st.get("error", -1), now))
            return
        fault = self.reader is not None and self.reader.lost
        place = self.enrolling_place()
        self.strip.show(self.view.render(self.game, self.referee, now, place, fault,
                                         self.solo))
        still = self._view_still
        if still is not None and place < 0 and not fault:
            until = still(self.game, self.referee, now)
            if until is not None:
                self._until = until
                self._drawn = True
