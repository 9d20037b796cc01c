"""The simulator's core: the real firmware `App` on virtual hardware, driven by parsed
scenario commands, on a virtual clock. Runs on CPython and inside the MicroPython unix
port, so both runtimes give the same report.

Commands arrive parsed (see `scenario.py`) as lists: [line, name, args...].
"""

from host_tools.emu.pins import Clock, VirtualGPIO
from host_tools.vflash import VirtualFlash
from host_tools.virtual_hw import ChipReader, VirtualNeoPixel
from hw import inputs as inputsmod
from hw.leds import Strip
from kahuna import report, rules
from kahuna.app import App
from kahuna.cards import Registry, card_names, parse_uid, uid_hex
from kahuna.journal import Journal

POLL_MS = 50  # the reader is polled every 50 ms of virtual time
WATCHDOG_MS = 8000  # as firmware/main.py: the animation task feeds it every frame
FRAME_MS = 20  # the animation task draws a frame every 20 ms
PRESS_MS = 80  # a button press takes this long: held 30 ms, contact bounce 2 ms each way;
# the driver debounces 20 ms on a 5 ms poll, so press and release both register in time
HOLD_MS = 30
BOUNCE_MS = 2
INPUT_POLL_MS = 5  # the inputs task's poll
JOURNAL = "/game.jnl"


def sim_uid(index):
    """A made-up 7-byte NTAG UID for card number `index` (0..23)."""
    return bytes((0x04, 0x4B, 0x48, index, 0x10 + index, 0x80, 0x5A ^ index))


def sim_registry(board):
    names = card_names(board)
    return Registry(names, dict((uid_hex(sim_uid(i)), names[i]) for i in range(len(names))))


class Simulation:
    def __init__(self, board, flash=None):
        self.board = board
        self.names = card_names(board)
        self.registry = sim_registry(board)
        self.flash = flash if flash is not None else VirtualFlash()
        self.now = 0
        self.rejected = []
        self.failures = []
        self.settings = rules.check_settings({})  # the defaults, in their JSON form
        self.boots = 0
        self.resets = 0  # by the watchdog
        self.fed = 0
        self.boot()

    # ------------------------------------------------------------- hardware

    def boot(self):
        """Power on: fresh hardware, the firmware replays the journal from flash."""
        self.boots += 1
        n = self.board.led_count
        self.np = VirtualNeoPixel(n)
        self.reader = ChipReader()
        self.pin_clock = Clock(self.now)
        self.gpio = VirtualGPIO(self.pin_clock)
        self.inputs = inputsmod.build(self.board, self.gpio)
        self.inputs.poll(self.now)  # the inputs task polls from boot: nothing is held
        self.app = App(self.board, self.registry, Strip(self.np, n), self.settings,
                       journal=Journal(JOURNAL, self.flash))
        self.app.show(self.now)
        self.fed = self.now

    def uid_of(self, card):
        if card.startswith("uid:"):
            return parse_uid(card[4:])
        return sim_uid(self.names.index(card))

    def advance(self, ms):
        """Let `ms` of virtual time pass; the animation task draws its frames (and feeds
        the watchdog)."""
        end = self.now + ms
        while True:
            nxt = (self.now // FRAME_MS + 1) * FRAME_MS
            if nxt > end:
                break
            self.now = nxt
            self.app.show(self.now)
            self.fed = self.now
        self.now = end

    def stall(self, ms):
        """The main loop hangs for `ms`: nothing runs, nothing feeds the watchdog. Past
        its timeout the watchdog resets the board, which resumes from the journal."""
        if self.now + ms - self.fed >= WATCHDOG_MS:
            self.now = self.fed + WATCHDOG_MS
            self.resets += 1
            self.boot()
            self.now += ms - WATCHDOG_MS
        else:
            self.now += ms

    def present(self, uid, ms):
        """A tag in the reader's field for `ms`, polled every POLL_MS, then taken away."""
        self.reader.place(uid)
        held = 0
        while True:
            self.app.poll(self.reader.poll(), self.now)
            if held + POLL_MS > ms:
                break
            self.advance(POLL_MS)
            held += POLL_MS
        self.reader.remove()
        for _ in range(self.app.scanner.GONE_POLLS):
            self.advance(POLL_MS)
            self.app.poll(self.reader.poll(), self.now)

    # -------------------------------------------------------------- commands

    def run(self, commands):
        for cmd in commands:
            self.execute(cmd)
        return self.report()

    def execute(self, cmd):
        line = cmd[0]
        name = cmd[1]
        errors = self.app.referee.errors
        app = self.app
        if name == "option":
            self.settings[cmd[2]] = cmd[3]
            self.app.new_game(self.settings)
            self.app.show(self.now)
        elif name == "tap":
            self.present(self.uid_of(cmd[2]), 0)
        elif name == "hold":
            self.present(self.uid_of(cmd[2]), cmd[3])
        elif name == "press":
            self.press(cmd[2])
        elif name == "pick":
            self.pick(cmd[2])
        elif name == "wait":
            self.advance(cmd[2])
        elif name == "power-cut":
            self.boot()
        elif name == "expect":
            self.expect(line, cmd[2], cmd[3])
        else:
            raise ValueError("line %d: unknown command %r" % (line, name))
        ref = self.app.referee
        if ref is app.referee and ref.errors != errors:
            code, message = ref.last_error[0], ref.last_error[1]
            self.rejected.append({"line": line, "code": code, "message": message})

    def press(self, role):
        """A finger on the role's button: its pin bounces, settles low, is released; the
        firmware's button driver, polled like the inputs task does, reports the press."""
        pin = self.gpio[self.board.pins["buttons"][role]]
        pin.press(self.now, HOLD_MS, BOUNCE_MS)
        end = self.now + PRESS_MS
        while self.now < end:
            self.advance(INPUT_POLL_MS)
            self.pin_clock.set(self.now)
            for event in self.inputs.poll(self.now):
                self.app.press(event, self.now)

    def pick(self, conn):
        """`next` until `conn` is highlighted, then `ok`, through the buttons. A connection
        that is not on offer (or no list at all) goes to the referee to be refused."""
        ref = self.app.referee
        names = ref.option_names()
        if conn in names and not ref.discarding:
            for _ in range((names.index(conn) - ref.sel) % len(names)):
                self.press("next")
            self.press("ok")
        else:
            self.app.pick(conn, self.now)
            self.advance(PRESS_MS)

    # --------------------------------------------------------------- report

    def report(self):
        r = report.game(self.app.game)
        r["rejected"] = list(self.rejected)
        r["leds"] = self.np.rgb()
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

