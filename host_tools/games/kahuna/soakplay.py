"""Kahuna's soak (host_tools/measure/soak.py): a random whole game through the firmware's
App (tag UIDs, buttons, picks, the journal on a virtual flash), the invariants checked
after every event, garbage events mixed in (unknown tags, cards of the wrong player,
buttons that mean nothing: each must be refused and change nothing) and reboots from the
journal at random quiet moments. Runs on CPython and the MicroPython unix port."""

from core import gameload
from core.app import App
from core.files import JOURNAL_FILE
from core.journal import Journal
from games.kahuna import settings as kahunasettings
from games.kahuna.settings import card_names
from host_tools.fakehw.flash import VirtualFlash
from host_tools.games.kahuna import randgame, scenwrite
from host_tools.games.kahuna.invariants import problems as invariant_problems
from host_tools.simulator import engine as simcore

GARBAGE_PERCENT = 8
REBOOT_PERCENT = 3


class NullStrip:
    def show(self, frame):
        pass


class Soak:
    def __init__(self, board):
        self.board = board
        self.registry = simcore.sim_registry(board)
        self.names = card_names(board)
        self.events = 0
        self.garbage = 0
        self.reboots = 0
        self.games = 0
        self.flash_bytes = 0

    def boot(self, flash, settings):
        return App(gameload.load(self.board.game), self.board, self.registry, NullStrip(), settings,
                   journal=Journal(JOURNAL_FILE, flash))

    def check(self, app, what):
        problems = invariant_problems(app.game)
        if problems:
            raise AssertionError("%s: %s" % (what, "; ".join(problems)))

    def event(self, app, line, now):
        """One scenario line as the board's inputs would deliver it."""
        words = line.split()
        if words[0] == "tap":
            app.tap_uid(simcore.sim_uid(self.names.index(words[1])), now)
        elif words[0] == "press":
            app.press(words[1], now)
        else:
            app.pick(words[1], now)
        self.events += 1

    def garbage_event(self, app, rng, now):
        """Something that must be refused: state and journal stay as they were."""
        before = app.game.snapshot()
        ui = (app.referee.pending, app.referee.options, app.referee.discarding)
        roll = rng.below(3)
        if roll == 0:
            app.tap_uid(bytes((0x04, rng.below(256), rng.below(256), 0x99, 1, 2, 3)), now)
            expected = "unknown-card" if app.game.phase != "over" else "wrong-phase"
        elif roll == 1:
            # A card of the other player's hand, if any.
            opp = 1 - app.game.turn
            cards = [c for c in range(len(self.names)) if app.game.place[c] == opp]
            if not cards or app.game.phase in ("deal", "draw") or app.referee.discarding:
                return
            app.tap_uid(simcore.sim_uid(rng.choice(cards)), now)
            expected = None  # wrong-phase or card-not-in-hand, by the phase
        else:
            if app.referee.options:
                return
            app.press("next", now)
            expected = "wrong-phase"
        if app.referee.outcome.kind != "refused":
            raise AssertionError("garbage event accepted")
        if expected and app.referee.outcome.code != expected:
            raise AssertionError("garbage refused as %s, not %s"
                                 % (app.referee.outcome.code, expected))
        if app.game.snapshot() != before or (app.referee.pending, app.referee.options,
                                             app.referee.discarding) != ui:
            raise AssertionError("a refused event changed something")
        self.garbage += 1

    def game(self, seed):
        rng = randgame.Rng(seed)
        settings = randgame.random_settings(rng)
        jsettings = kahunasettings.check_settings(settings)  # the journal's JSON form
        flash = VirtualFlash()
        app = self.boot(flash, jsettings)
        player = randgame.Player(randgame.Rng(seed))
        now = 0
        while not app.game.is_over():
            act = player.choose(app.game)
            for line in scenwrite.action_lines(act):
                if rng.chance(GARBAGE_PERCENT):
                    self.garbage_event(app, rng, now)
                self.event(app, line, now)
                now += 100
                if app.referee.outcome is not None and app.referee.outcome.kind == "refused":
                    raise AssertionError("seed %d: %s refused: %s"
                                         % (seed, line, app.referee.outcome.message))
                self.check(app, "seed %d after %s" % (seed, line))
            if app.referee.is_idle() and rng.chance(REBOOT_PERCENT):
                snap = app.game.snapshot()
                app = self.boot(flash, jsettings)
                self.reboots += 1
                if app.game.snapshot() != snap:
                    raise AssertionError("seed %d: a reboot changed the game" % seed)
        self.games += 1
        self.flash_bytes += flash.bytes_written
        return app.game.winner
