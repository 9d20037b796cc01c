"""The board's firmware entry point (runs at power-up on the Pico).

Wiring only: it builds the drivers from the board definition, finds the game it names
(`games/<game>/game.py`, see docs/platform.md), hands both to the platform's app
(`core.app.App`) and runs each of the app's ticks (`App.tasks()`: reader, inputs,
animation with the buzzer and the watchdog) as an asyncio task with its period, plus one
for the serial link. The periods are kept on a fixed beat (`every`); the reader comes back
within a millisecond while the PN532 has a command in flight and runs a poll's steps back
to back (`Reader.burst_us`); the board's own player thinks slice after slice, behind every
task that is due (`Beat`), while the inputs and the reader run less often
(`core.app.THINKING_MS`); the heap is collected at quiet moments when it runs low (after a
reader poll, after a slice: `core.quietgc.Collector`), so the collections that MicroPython
would make on its own, wherever an allocation finds no room, do not happen. The platform
lives in `core/`, the games in `games/`, the device drivers in `hw/`; this is the only
module that imports `machine`.

Holding the bring-up button at power-up starts bring-up mode instead (see `bringup`).
"""

import asyncio
import gc
import json
import sys
import time

import machine
import neopixel

from core import gameload, tunes
from core.app import THINKING_MS, WATCHDOG_MS, App
from core.beat import Beat
from core.cards import Registry, RegistryError
from core.files import BOARD_FILE, CARDS_FILE, JOURNAL_FILE
from core.journal import Journal
from core.link import Link
from core.loopstats import LoopStats
from core.quietgc import THINKING_LOW, Collector
from core.unload import unload
from hw import buzzer as buzzermod
from hw import inputs as inputsmod
from hw import leds, pn532
from hw.reader import Reader

VERSION = "0.1.0"


class Clock:
    """Milliseconds since boot that do not wrap (time.ticks_ms does, after 12 days)."""

    def __init__(self):
        self.last = time.ticks_ms()
        self.ms = 0

    def __call__(self):
        t = time.ticks_ms()
        self.ms += time.ticks_diff(t, self.last)
        self.last = t
        return self.ms


def out(obj):
    sys.stdout.write(json.dumps(obj) + "\n")


def game_named(path):
    """The game the board definition names, read alone: its decoded JSON is garbage once
    this returns (a broken file is for core.board to explain)."""
    try:
        with open(path) as f:
            data = json.load(f)
        return data.get("game")
    except (OSError, ValueError, AttributeError):
        return None


def load_board():
    """The checked board definition. Its checks (core.board, core.checks and the game's
    layout) are needed at boot only: dropped once it is loaded, their code gives its heap
    back (the board keeps the checked values, whose types live apart: core.boardtype and
    the game's places)."""
    from core import board as boardmod
    board = boardmod.load(BOARD_FILE, keep_raw=False)
    del boardmod
    unload(("core.board", "core.checks", "games.%s.layout" % board.game))
    gc.collect()
    return board


def build():
    # The game's code first, the board's own player's included, while the heap is whole:
    # loaded after the board definition (or, as the simulator does, when a solo game
    # starts) it can find no room in a heap fragmented by then (seen on the virtual
    # board: 220 KB free, and no room for a 1.3 KB block of the AI's bytecode).
    # Not in a remote game that seats no board player (core.gameload.needs_player): a Pico
    # W needs that heap for its network; a game started at the table later loads it.
    name = game_named(BOARD_FILE)
    gc.collect()
    game_def = gameload.load(name) if name else None
    if game_def is not None and gameload.needs_player(Journal(JOURNAL_FILE).settings()):
        game_def.preload()
    board = load_board()
    if game_def is None or board.game != name:
        game_def = gameload.load(board.game)
    # A game whose cards carry values (Halunken's crew, H2) records them with the tags.
    values = getattr(game_def, "card_value_range", None)
    try:
        registry = Registry.load(game_def.card_names(board), CARDS_FILE, values)
    except RegistryError as e:  # a corrupt file: no card known, the boot line says why,
        registry = Registry(game_def.card_names(board), value_range=values)  # kept as is
        registry.problem = str(e)  # until a card is enrolled
    np = neopixel.NeoPixel(machine.Pin(board.pins["neopixel"]), board.led_count)
    strip = leds.Strip(np, board.led_count)
    buzzer = None
    if "buzzer" in board.pins:
        buzzer = buzzermod.Buzzer(machine.PWM(machine.Pin(board.pins["buzzer"])), tunes.SOUNDS)
    i2c_pins = board.pins["i2c"]
    i2c = machine.I2C(i2c_pins["id"], sda=machine.Pin(i2c_pins["sda"]),
                      scl=machine.Pin(i2c_pins["scl"]), freq=i2c_pins.get("freq", 400000))
    reset = None
    if "pn532_reset" in board.pins:
        reset = machine.Pin(board.pins["pn532_reset"], machine.Pin.OUT, value=1)
    reader = Reader(pn532.PN532(i2c), reset, out)
    return board, game_def, registry, strip, buzzer, reader


def make_pin(gpio):
    return machine.Pin(gpio, machine.Pin.IN, machine.Pin.PULL_UP)


SIO_GPIO_IN = 0xD0000004  # RP2040 SIO: the levels of GPIO 0-29, one read


def gpio_levels(pins, gpios):
    """callable() -> the levels of `gpios` as one int (hw.buttons.Buttons.levels), or None
    where the register cannot be read or does not agree with the pins (`pins`: GPIO ->
    pin; the virtual board's `machine` has no such register): then each button is read."""
    mask = 0
    for g in gpios:
        mask |= 1 << g
    mem32 = machine.mem32
    try:
        levels = mem32[SIO_GPIO_IN]
    except Exception:  # noqa: BLE001  (whatever a machine without the register raises)
        return None
    for g in gpios:
        if (levels >> g) & 1 != pins[g]():
            return None
    return lambda: mem32[SIO_GPIO_IN] & mask


# The loop's timing on the board (the periods are core.app's tasks()).
READER_BUSY_MS = 1  # a poll under way: the reader task comes back this soon
READER_BURST_US = 3000  # within a reader tick, its steps back to back for up to this long
GC_EVERY_POLLS = 4  # reader polls between two looks at the free heap (core.quietgc)
GC_EVERY_SLICES = 3  # the AI's slices between two looks while it thinks, at least (a
# look that finds the heap well above core.quietgc.THINKING_LOW puts the next one off:
# measured on the chip, Kahuna's search allocates about 1 KB a slice, a look takes 9 ms)
LINK_GC_BYTES = 1024  # the link looks at the heap after a burst once this many bytes
# went in and out since its last look (core.link's `moved`): a short command (a selftest,
# ~100 bytes) allocates little, and a look (9 ms on the chip) would hold the next command


async def every(period_ms, tick, clock, app, thinking_ms, beat):
    """`tick(now)` every `period_ms` (`thinking_ms` while the board's player thinks) on a
    fixed beat: each start is due a period after the last one was due, not a period after
    the tick ended, so a tick's own time (or another task's) does not stretch the period; a
    beat missed whole is dropped, not caught up."""
    due = time.ticks_ms()
    slot = beat.slot()
    while True:
        beat.answer()  # a command waiting goes first (a frame tick is ~5 ms)
        tick(clock())
        due = time.ticks_add(due, thinking_ms if app.thinking() else period_ms)
        wait = time.ticks_diff(due, time.ticks_ms())
        if wait < 0:
            due = time.ticks_ms()  # behind by a beat or more: start afresh from now
            wait = 0
        beat.due[slot] = due
        await asyncio.sleep_ms(wait)


async def reader_every(period_ms, tick, reader, clock, app, collect, beat):
    """The reader's task: every `period_ms` (THINKING_MS's while the board's player
    thinks) while it waits for the next poll, and again after READER_BUSY_MS while a poll
    is under way (its steps do not wait a period). Once a poll is over (a tap's frame is
    out by then) is a quiet moment for `collect`."""
    due = time.ticks_ms()
    slow = THINKING_MS["reader"]
    slot = beat.slot()
    while True:
        tick(clock())
        if reader.busy:
            beat.due[slot] = time.ticks_add(time.ticks_ms(), READER_BUSY_MS)
            await asyncio.sleep_ms(READER_BUSY_MS)
            continue
        thinking = app.thinking()
        if not thinking:
            collect(GC_EVERY_POLLS)
        due = time.ticks_add(due, slow if thinking else period_ms)
        wait = time.ticks_diff(due, time.ticks_ms())
        if wait < 0:
            due = time.ticks_ms()
            wait = 0
        beat.due[slot] = due
        await asyncio.sleep_ms(wait)


async def ai_every(period_ms, tick, app, clock, collect, beat):
    """The board's own player: a slice every `period_ms` while nothing is to think, and
    slice after slice while it thinks, the end of a slice a quiet moment for `collect`.
    Each slice yields to every task that is due: their place in the queue (their due time)
    is before the next slice's (now), so the frames, the reader, the inputs and the link
    come first; when none is due the next slice starts at once (a 1 ms sleep here left the
    chip idle for up to a ms after every slice), in the same turn of the asyncio loop
    while `beat` says nothing else is to run (a turn of the loop costs as much as a
    tick). A command waiting on the link is answered after the slice, instead of a look
    at the heap (`beat.answer`)."""
    while True:
        tick(clock())
        if app.thinking():
            if not beat.answer():
                collect(GC_EVERY_SLICES, THINKING_LOW)
            while app.thinking() and beat.free():
                tick(clock())
                if not beat.answer():
                    collect(GC_EVERY_SLICES, THINKING_LOW)
            await asyncio.sleep_ms(0)
        else:
            await asyncio.sleep_ms(period_ms)


def serve_link(link, stdin, poller, collect):
    """Every byte waiting on the link fed to it (its replies written); after them a quiet
    moment for `collect` once LINK_GC_BYTES went in and out, so the next command (a whole
    state is some KB) finds room. The link's task calls it, and any task that finds a
    byte waiting before its tick (`Beat.answer`)."""
    if link.read_waiting(stdin, poller) and link.moved >= LINK_GC_BYTES:
        link.moved = 0
        collect()


async def serial_task(stdin, serve):
    """The link's task: woken by the asyncio loop when a byte waits, it serves them all.
    read(0) only waits: no byte is taken (another task may have served them first), and
    read(n) on the USB serial returns only once n bytes came, holding every other task."""
    stream = asyncio.StreamReader(stdin)
    while True:
        await stream.read(0)
        serve()


async def game(clock, parts):
    board, game_def, registry, strip, buzzer, reader = parts
    stats = LoopStats()  # the board's own benchmark: {"cmd": "bench"} on the link
    stats.watch_reader(reader)
    stats.watch_strip(strip)
    inputs = inputsmod.build(board, make_pin)
    app = App(game_def, board, registry, strip, sound=buzzer, journal=Journal(JOURNAL_FILE),
              reader=reader, inputs=inputs)
    version = reader.start(clock())
    selftest = lambda: {"pn532": list(reader.version) if reader.version else None,  # noqa: E731
                        "reader_error": reader.error}
    link = Link(app, sys.stdout.write, clock, selftest=selftest,
                save_cards=lambda: registry.save(CARDS_FILE), bench=stats)
    app.listen(link.on_event)

    def make_enroller():  # loaded when a card is first enrolled: its code is not kept idle
        from core.enroll import Enroller
        return Enroller(registry, lambda: registry.save(CARDS_FILE), reader.pn, link.send,
                        game_def.TITLE)

    app.make_enroller = make_enroller
    out({"event": "boot", "firmware": VERSION, "pn532": list(version) if version else None,
         "reader_error": reader.error, "leds": board.led_count,
         "cards": len(registry.by_uid), "resumed": app.game.phase,
         "journal_problem": app.boot_problem,
         "cards_problem": registry.problem})
    inputs.use_irq()  # the encoder's edges by interrupt: no detent lost between polls
    if inputs.buttons is not None and inputs.button_gpios:
        inputs.buttons.levels = gpio_levels(inputs.pins, inputs.button_gpios)
    app.watchdog = machine.WDT(timeout=WATCHDOG_MS)
    app.show(clock())
    reader.burst_us = READER_BURST_US
    collect = Collector(stats)
    stdin = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else sys.stdin
    beat = Beat(stdin)  # its poller on the link's input serves the link's reads too
    serve = lambda: serve_link(link, stdin, beat.poller, collect)  # noqa: E731
    beat.serve = serve
    tasks = []
    for (period, tick), (_, raw) in zip(stats.tasks(app), app.tasks()):
        if raw == app.tick_reader:
            tasks.append(reader_every(period, tick, reader, clock, app, collect, beat))
        elif raw == app.tick_ai:
            tasks.append(ai_every(period, tick, app, clock, collect, beat))
        elif raw == app.tick_inputs:
            tasks.append(every(period, tick, clock, app, THINKING_MS["inputs"], beat))
        else:
            tasks.append(every(period, tick, clock, app, period, beat))
    tasks.append(serial_task(stdin, serve))
    if board.network == "wifi":  # a Pico W: its remote play, with /net.json (core.netplay)
        from core import netplay
        seat = netplay.task(app, game_def, clock, out, net_start)
        if seat is not None:
            tasks.append(seat)
    await asyncio.gather(*tasks)


def net_start(*args):
    """hw.net.start, the driver loaded when the seat first needs it (core.netplay)."""
    from hw import net
    return net.start(*args)


def main():
    clock = Clock()
    parts = build()
    board = parts[0]
    if inputsmod.held_at_boot(board, make_pin):
        board, game_def, registry, strip, _, reader = parts
        inputs = inputsmod.build(board, make_pin)
        inputs.use_irq()
        from core import bringup  # only here: a game's heap does not carry it
        asyncio.run(bringup.run(board, game_def, registry, strip, reader, inputs, clock, out))
    else:
        asyncio.run(game(clock, parts))


main()
