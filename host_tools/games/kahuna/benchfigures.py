"""Kahuna's measurements behind `make bench` (host_tools/measure/bench.py, its `benchfigures`
part), the same code on CPython and MicroPython.

    micropython host_tools/games/kahuna/benchfigures.py BOARD_JSON   -> prints one JSON object

Figures: microseconds per applied rules action, full random games per second, tap event
to frame written (referee + rules + view + LED driver buffer), frame composition, bytes
allocated per frame, and live-heap high-water marks (MicroPython only: gc.mem_alloc()
after a collection, sampled after every action). The computer opponent's figures are in
benchai.py, a module of its own so that its run in the RP2040's heap holds only what it
measures.
"""

import gc
import json
import sys

from core import board as boardmod
from games.kahuna import rules
from host_tools.games.kahuna import randgame
from host_tools.measure.ticks import MICRO, SEED0, ticks_diff, ticks_us

GAMES = 30
FLASH_DIR = "/tmp/kahuna-bench-flash"  # the simulated board's flash, kept out of the heap


def _new_game(board, seed):
    return rules.Game(board, **randgame.random_settings(randgame.Rng(seed)))


def apply_us(board):
    """Mean time of `Game.apply` over GAMES random games (the player's choice excluded)."""
    n = 0
    total = 0
    for i in range(GAMES):
        game = _new_game(board, SEED0 + i)
        player = randgame.Player(randgame.Rng(SEED0 + i))
        while not game.is_over():
            act = player.choose(game)
            t = ticks_us()
            game.apply(act)
            total += ticks_diff(ticks_us(), t)
            n += 1
    return total / n, n / GAMES


def games_per_s(board):
    t = ticks_us()
    for i in range(GAMES):
        randgame.play_game(_new_game(board, SEED0 + i), SEED0 + i, record=False)
    return GAMES * 1000000 / ticks_diff(ticks_us(), t)


class _HeapWatch:
    def __init__(self):
        gc.collect()
        self.base = gc.mem_alloc()
        self.peak = 0

    def __call__(self, *args):
        gc.collect()
        self.peak = max(self.peak, gc.mem_alloc() - self.base)


def heap_peak_rules(board):
    """Live heap high-water over one full game, sampled after every action."""
    watch = _HeapWatch()
    game = _new_game(board, SEED0)
    randgame.play_game(game, SEED0, watch, record=False)
    return watch.peak


def _fresh_flash():
    from host_tools.fakehw.flash import DiskFlash
    from host_tools.simulator import engine as simcore
    flash = DiskFlash(FLASH_DIR)
    try:
        flash.remove(simcore.JOURNAL)  # an earlier run's game
    except OSError:
        pass
    return flash


def sim_figures(board):
    """A whole random game entered through the simulated board's scanner and buttons:
    tap-to-frame times and the heap high-water; then frame composition on its own."""
    # The simulator only here: the rules-only pass keeps the RP2040's heap for the game.
    from core.app import FRAME_MS, READER_MS
    from host_tools.games.kahuna import scenwrite as scengen
    from host_tools.simulator import engine as simcore
    from host_tools.simulator.scenario import parse_line
    seed = SEED0 + 1
    settings = randgame.random_settings(randgame.Rng(seed))
    sim = simcore.Simulation(board, _fresh_flash())
    watch = _HeapWatch() if MICRO else None  # growth from here: the game, not the setup
    cards = sim.names
    line = 0
    for text in scengen.settings_lines(settings):
        line += 1
        sim.execute(parse_line(text, line, board, cards, False))
    player = randgame.Player(randgame.Rng(seed))
    taps = tap_total = tap_max = commands = 0
    while not sim.app.game.is_over():
        act = player.choose(sim.app.game)
        for text in scengen.action_lines(act):
            line += 1
            cmd = parse_line(text, line, board, cards, True)
            commands += 1
            if cmd[1] == "tap":
                # The event path itself, as the reader task calls it.
                uid = sim.uid_of(cmd[2])
                t = ticks_us()
                sim.app.tap_uid(uid, sim.now)
                dt = ticks_diff(ticks_us(), t)
                tap_total += dt
                tap_max = max(tap_max, dt)
                taps += 1
                sim.advance(3 * READER_MS)  # about one reader poll
            else:
                sim.execute(cmd)
            if watch:
                watch()
    if sim.rejected:
        raise RuntimeError("the benchmark game was refused: %r" % (sim.rejected[0],))
    # Frame composition, steady state with an option list open (blinking options).
    sim2 = simcore.Simulation(board, _fresh_flash())
    # A deal (white's three cards, black's three), then white's first card: its options.
    for c in (0, 2, 4, 6, 8, 10, 0):
        text = "tap " + cards[c]
        line += 1
        sim2.execute(parse_line(text, line, board, cards, True))
    app = sim2.app
    frames = 500
    now = sim2.now
    t = ticks_us()
    for i in range(frames):
        app.show(now + FRAME_MS * i)
    frame_us = ticks_diff(ticks_us(), t) / frames
    alloc = None
    if MICRO:
        gc.collect()
        gc.disable()
        before = gc.mem_alloc()
        for i in range(100):
            app.show(now + FRAME_MS * i)
        alloc = (gc.mem_alloc() - before) / 100
        gc.enable()
    return {
        "tap_to_frame_us": tap_total / taps,
        "tap_to_frame_max_us": tap_max,
        "frame_us": frame_us,
        "frame_alloc_bytes": alloc,
        "sim_heap_peak_bytes": watch.peak if watch else None,
        "sim_commands": commands,
    }


def _link_line(text):
    """A scenario line as the host's JSON command (what the monitor or a test sends)."""
    words = text.split()
    if words[0] == "tap":
        return '{"cmd": "tap", "card": "%s"}\n' % words[1]
    if words[0] == "pick":
        return '{"cmd": "pick", "conn": "%s"}\n' % words[1]
    return '{"cmd": "press", "button": "%s"}\n' % words[1]


EVENT_GAP_MS = 50  # a host's commands over the link come this far apart


def link_figures(board):
    """A whole random game driven over the serial link (JSON command lines in, event
    lines out), as a host drives the board: the time from a command line's bytes to its
    reply written, the share of it spent building and encoding the reply, and the bytes
    the board sends per event."""
    from core import link as linkmod
    from host_tools.games.kahuna import scenwrite as scengen
    from host_tools.simulator import engine as simcore
    seed = SEED0 + 2
    sim = simcore.Simulation(board, _fresh_flash())
    sent = [0, 0]  # bytes, lines

    def write(text):
        sent[0] += len(text)
        sent[1] += 1

    link = linkmod.Link(sim.app, write, lambda: sim.now)
    reply = [0]

    def timed(outcome):
        t = ticks_us()
        link.on_event(outcome)
        reply[0] += ticks_diff(ticks_us(), t)

    sim.app.listen(timed)
    settings = randgame.random_settings(randgame.Rng(seed))
    link.feed(('{"cmd": "new", "settings": %s}\n' % json.dumps(settings)).encode())
    player = randgame.Player(randgame.Rng(seed))
    total = worst = events = 0
    sent[0] = sent[1] = 0
    while not sim.app.game.is_over():
        for text in scengen.action_lines(player.choose(sim.app.game)):
            data = _link_line(text).encode()
            t = ticks_us()
            link.feed(data)
            dt = ticks_diff(ticks_us(), t)
            total += dt
            worst = max(worst, dt)
            events += 1
            sim.advance(EVENT_GAP_MS)
    if sent[1] != events:
        raise RuntimeError("the link answered %d of %d commands" % (sent[1], events))
    return {
        "link_command_us": total / events,
        "link_command_max_us": worst,
        "link_reply_us": reply[0] / events,
        "link_bytes_per_event": sent[0] / events,
        "link_events": events,
    }


READ_FILE = "/tmp/kahuna-bench-command"
# A command line of the usual length (its content does not matter: only reading is timed).
READ_LINE = b'{"cmd": "pick", "conn": "XXXX-YYYY"}\n'


def link_read_figures():
    """MicroPython only (main.py's serial task runs there): the time to take one command
    line off a polled stream in asyncio, with one await per byte as the serial task did
    before, and with one await for the first byte then `read_waiting` for the rest, as it
    does now. The stream is a file holding the line, so only the reading is measured."""
    import asyncio
    import select

    from core.linkframe import read_waiting
    with open(READ_FILE, "wb") as f:
        f.write(READ_LINE)
    rounds = 200
    out = {}

    def nothing(data):
        pass

    async def per_byte(f, stream):
        for _ in range(len(READ_LINE)):
            nothing(await stream.read(1))

    async def drained(f, stream, poller, buf):
        nothing(await stream.read(1))
        read_waiting(f, poller, nothing, buf)

    async def run():
        f = open(READ_FILE, "rb")
        stream = asyncio.StreamReader(f)
        poller = select.poll()
        poller.register(f, select.POLLIN)
        buf = bytearray(256)
        for key in ("link_read_per_byte_us", "link_read_waiting_us"):
            t = ticks_us()
            for _ in range(rounds):
                f.seek(0)
                if key == "link_read_per_byte_us":
                    await per_byte(f, stream)
                else:
                    await drained(f, stream, poller, buf)
            out[key] = ticks_diff(ticks_us(), t) / rounds
        f.close()

    asyncio.run(run())
    return out




def measure(board_path, part="all"):
    """`part`: "rules" (the game alone), "sim" (the simulated board), "ai" (the computer
    opponent, see benchai), or "all"."""
    board = boardmod.load(board_path, keep_raw=False)
    out = {}
    if part in ("rules", "all"):
        per_action, per_game = apply_us(board)
        out["apply_us"] = per_action
        out["actions_per_game"] = per_game
        out["games_per_s"] = games_per_s(board)
        out["heap_peak_bytes"] = heap_peak_rules(board) if MICRO else None
        if MICRO:
            out["heap_total_bytes"] = gc.mem_alloc() + gc.mem_free()
    if part in ("sim", "all"):
        out.update(sim_figures(board))
        out.update(link_figures(board))
        if MICRO:
            out.update(link_read_figures())
    if part in ("ai", "all"):
        from host_tools.games.kahuna import benchai
        out.update(benchai.figures(board))
    return out


def play_one(board):
    """One random rules game from SEED0: CPython's heap figure is traced around it."""
    randgame.play_game(_new_game(board, SEED0), SEED0)


def ai_games():
    """How many games the AI's figures play (benchai.py)."""
    from host_tools.games.kahuna.benchai import AI_GAMES
    return AI_GAMES


if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "all")))
