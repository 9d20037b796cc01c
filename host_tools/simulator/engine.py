"""The simulator's core: the real firmware `App` on virtual hardware, driven by parsed
scenario commands, on a virtual clock. Runs on CPython and inside the MicroPython unix
port, so both runtimes give the same report.

Commands arrive parsed (see `scenario.py`) as lists: [line, name, args...]. The neutral
ones are run here; the game's (its verbs, its options' side effects, a table of cards) by
the game's `simgame` part (host_tools/games/<game>/simgame.py), found by the board
definition's game.
"""

from core import app as appmod
from core import gameload, outcome
from core.app import App
from core.cards import Registry, parse_uid, uid_hex
from core.files import JOURNAL_FILE
from core.journal import Journal
from host_tools.fakehw.flash import VirtualFlash
from host_tools.fakehw.pins import Clock, VirtualGPIO
from host_tools.fakehw.reader_rig import ReaderRig
from host_tools.fakehw.strip import VirtualNeoPixel
from host_tools.games import part as host_part
from hw import inputs as inputsmod
from hw.leds import Strip

# The simulated hand (not the firmware: its periods and timeouts are core.app's tasks()).
PRESS_MS = 80  # a button press takes this long: held HOLD_MS, the contacts bouncing
# BOUNCE_MS each way; longer than the driver's debounce (hw.buttons.Button.DEBOUNCE_MS) on
# its own poll, so press and release both register in time
HOLD_MS = 30
LONG_PRESS_MS = 1000  # `press BUTTON long`: longer than the driver's LONG_MS
BOUNCE_MS = 2
TAP_LIMIT_MS = 5000  # a card lies on the reader at most this long waiting to be read
JOURNAL = JOURNAL_FILE  # the firmware's own journal file


def sim_uid(index):
    """A made-up 7-byte NTAG UID for card number `index` (0..23)."""
    return bytes((0x04, 0x4B, 0x48, index, 0x10 + index, 0x80, 0x5A ^ index))


def sim_registry(board):
    names = gameload.load(board.game).card_names(board)
    return Registry(names, dict((uid_hex(sim_uid(i)), names[i]) for i in range(len(names))))


class Simulation:
    """The board's loop on virtual time: the app's own tasks (`App.tasks()`: reader,
    inputs, frames) each run at its own period, in time order, over emulated hardware."""

    def __init__(self, board, flash=None, chip=None):
        self.board = board
        self.game_def = gameload.load(board.game)  # the game's interface (docs/platform.md)
        self.names = self.game_def.card_names(board)
        self.registry = sim_registry(board)
        self.flash = flash if flash is not None else VirtualFlash()
        self.now = 0
        self.line = 0  # the scenario line being run
        self.rejected = []
        self.failures = []
        self.reader_events = []  # what the firmware's reader reported
        self.settings = self.game_def.check_settings({})  # the defaults, in their JSON form
        self.boots = 0
        self.resets = 0  # by the watchdog
        self.fed = 0
        self.rig = ReaderRig(0, self.reader_events.append, chip)
        self.ai_log = []  # the AI's actions of a solo game, across power cuts
        self.kit = host_part(board.game, "simgame").SimGame(self)  # the game's side
        self.private = False  # the last outcome's words must name no card (link.py)
        self.events = 0  # every event the app had, whoever made it (the web page's ticks)
        self.boot()

    # ------------------------------------------------------------- hardware

    def boot(self):
        """Power on: fresh hardware, the firmware replays the journal from flash."""
        self.boots += 1
        n = self.board.led_count
        self.np = VirtualNeoPixel(n, self.board.pins["neopixel"])
        reader = self.rig.power_on(self.now)
        self.pin_clock = Clock(self.now)
        self.gpio = VirtualGPIO(self.pin_clock)
        self.inputs = inputsmod.build(self.board, self.gpio)
        self.inputs.use_irq()  # as main.py: the encoder's edges by interrupt
        self.inputs.poll(self.now)  # the inputs task polls from boot: nothing is held
        self.app = App(self.game_def, self.board,
                       self.registry, Strip(self.np, n), self.settings,
                       journal=Journal(JOURNAL, self.flash), reader=reader,
                       inputs=self.inputs, watchdog=self, clock=self.clock)
        self.app.listen(self._outcome)
        self._log_ai()
        reader.start(self.now)
        self.app.show(self.now)
        self.fed = self.now
        # Each task ticks on its own period's grid, from the first tick after boot.
        self.tasks = [[(self.now // period + 1) * period, period, tick]
                      for period, tick in self.app.tasks()]

    def _log_ai(self):
        """The report lists the AI's moves of a solo game (the journal does not say who
        made a move: the simulation keeps the list across power cuts)."""
        if self.app.solo is not None:
            self.app.solo.log = self.ai_log

    def clock(self):
        """The virtual clock: the AI's thinking is the same on every machine."""
        return self.now

    def feed(self):
        """The watchdog, as the app's frame task feeds it."""
        self.fed = self.now

    def _outcome(self, out):
        self.events += 1
        self.private = out.private  # a refusal's words name no card then (link.py)
        if out.kind == outcome.REFUSED:
            self.rejected.append({"line": self.line, "code": out.code, "message": out.message})

    @property
    def reader(self):
        return self.rig.reader

    def uid_of(self, card):
        if card.startswith("uid:"):
            return parse_uid(card[4:])
        return sim_uid(self.names.index(card))

    def _next_tick(self):
        best = None
        for task in self.tasks:
            if best is None or task[0] < best[0]:
                best = task
        return best

    def advance(self, ms):
        """Let `ms` of virtual time pass: every task ticks when its period comes round,
        in time order (at equal times in the app's order)."""
        end = self.now + ms
        while True:
            task = self._next_tick()
            t = task[0]
            if t > end:
                break
            self.now = t
            self.pin_clock.set(t)
            self.rig.clock.set(t)
            task[0] = t + task[1]
            task[2](t)
        self.now = end

    def run_until(self, done, limit_ms):
        """Run tick by tick until `done()` or `limit_ms` passed; whether it was done."""
        end = self.now + limit_ms
        while not done():
            t = self._next_tick()[0]
            if t > end:
                self.advance(end - self.now)
                return False
            self.advance(t - self.now)
        return True

    def stall(self, ms):
        """The main loop hangs for `ms`: nothing runs, nothing feeds the watchdog. Past
        its timeout the watchdog resets the board, which resumes from the journal."""
        if self.now + ms - self.fed >= appmod.WATCHDOG_MS:
            self.now = self.fed + appmod.WATCHDOG_MS
            self.resets += 1
            self.boot()
            self.now += ms - appmod.WATCHDOG_MS
        else:
            self.now += ms

    def present(self, uid, ms):
        """A tag laid on the reader for `ms`, and at least until the board has read it,
        then taken away until the board sees it gone."""
        scanner = self.app.scanner
        self.rig.place(uid)
        start = self.now
        if self.run_until(lambda: scanner.present == uid, TAP_LIMIT_MS):
            self.advance(max(0, start + ms - self.now))
        self.rig.remove()
        self.run_until(lambda: scanner.present is None, TAP_LIMIT_MS)

    # -------------------------------------------------------------- commands

    def run(self, commands):
        for cmd in commands:
            self.execute(cmd)
        return self.report()

    def execute(self, cmd, auto=True):
        line = cmd[0]
        name = cmd[1]
        self.line = line
        ran = self.kit.run(cmd, auto)  # the game's command, or None: a neutral one
        if ran == "final":
            return
        if ran is None:
            self._neutral(cmd)
        if auto and name != "expect":
            self.kit.after()

    def _neutral(self, cmd):
        line = cmd[0]
        name = cmd[1]
        if name == "option":
            self.settings[cmd[2]] = cmd[3]
            self.app.new_game(self.settings)
            self.ai_log = []
            self._log_ai()
            self.app.show(self.now)
            self.kit.new_game()
        elif name == "tap":
            self.present(self.uid_of(cmd[2]), 0)
        elif name == "hold":
            self.present(self.uid_of(cmd[2]), cmd[3])
        elif name == "press":
            self.press(cmd[2])
        elif name == "press-long":
            self.press(cmd[2], LONG_PRESS_MS)
        elif name == "wait":
            self.advance(cmd[2])
        elif name == "power-cut":
            self.boot()
            self.kit.power_cut()
        elif name == "expect":
            self.expect(line, cmd[2], cmd[3])
        else:
            raise ValueError("line %d: unknown command %r" % (line, name))

    def press(self, role, held=HOLD_MS):
        """A finger on the role's button: its pin bounces, settles low, is released after
        `held` ms; the firmware's button driver, polled like the inputs task does, reports
        the press (or, held long, the button's hold action: board_def inputs.hold)."""
        pin = self.gpio[self.board.pins["buttons"][role]]
        pin.press(self.now, held, BOUNCE_MS)
        self.advance(PRESS_MS - HOLD_MS + held)

    # --------------------------------------------------------------- report

    def report(self):
        r = self.game_def.report(self.app.game)
        r["rejected"] = list(self.rejected)
        r["leds"] = self.np.rgb()
        solo = self.app.solo
        if solo is not None:
            # A solo game: the AI's actions in order (the key exists only then, so every
            # two-player report stays as it was).
            r["ai_moves"] = [list(a) for a in self.ai_log]
        return r

    def expect(self, line, path, want):
        got = lookup(self.report(), path)
        if not matches(got, want):
            self.failures.append("line %d: expect %s %s: got %s" % (line, path, want,
                                                                      show(got)))


_MISSING = object()


def lookup(report, path):
    cur = report
    for part in path.split("."):
        if isinstance(cur, list):
            try:
                cur = cur[int(part)]
            except (ValueError, IndexError):
                return _MISSING
        elif isinstance(cur, dict):
            if part not in cur:
                return _MISSING
            cur = cur[part]
        else:
            return _MISSING
    return cur


def matches(got, want):
    """The contract's comparison: a list or object by its length, `none` for null or a
    missing key, true/false for booleans, numbers by value, anything else as text."""
    if want == "none":
        return got is None or got is _MISSING
    if got is _MISSING or got is None:
        return False
    if isinstance(got, bool):
        return want == ("true" if got else "false")
    if isinstance(got, (list, dict)):
        return _int(want) == len(got)
    if isinstance(got, int):
        return _int(want) == got
    return str(got) == want


def _int(text):
    try:
        return int(text)
    except ValueError:
        return None


def show(got):
    if got is _MISSING:
        return "nothing"
    if got is None:
        return "none"
    if isinstance(got, bool):
        return "true" if got else "false"
    if isinstance(got, (list, dict)):
        return "%d entries" % len(got)
    return str(got)


def run_commands(board, commands):
    sim = Simulation(board)
    report = sim.run(commands)
    return report, sim.failures

