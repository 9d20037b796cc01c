"""The Kahuna board's firmware entry point (runs at power-up on the Pico).

Wiring only: it builds the drivers from `board_def/kahuna.json`, hands them to the game
(`kahuna.app.App`) and runs one asyncio task per input, one for the animation (which also
feeds the hardware watchdog) and one for the serial link. The game logic lives in
`kahuna/`, the device drivers in `hw/`; this is the only module that imports `machine`.

Holding the bring-up button at power-up starts bring-up mode instead (see `bringup`).
"""

import asyncio
import json
import sys
import time

import machine
import neopixel

from hw import buzzer as buzzermod
from hw import inputs as inputsmod
from hw import leds, pn532
from kahuna import board as boardmod
from kahuna import bringup
from kahuna.app import App
from kahuna.cards import Registry, card_names
from kahuna.enroll import Enroller
from kahuna.journal import Journal
from kahuna.link import Link

VERSION = "0.1.0"
BOARD_FILE = "/board_def/kahuna.json"
CARDS_FILE = "/cards.json"
JOURNAL_FILE = "/game.jnl"
READER_POLL_MS = 20  # one poll_uid() step: a full poll spans about three steps
FRAME_MS = 20
READER_RETRY_MS = 2000
WATCHDOG_MS = 8000  # the RP2040's watchdog allows up to 8.3 s


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


class Reader:
    """The PN532 behind the game: a non-blocking poll per tick; a missing or failing
    reader is retried every READER_RETRY_MS and shown on the board meanwhile."""

    def __init__(self, board):
        i2c_pins = board.pins["i2c"]
        i2c = machine.I2C(i2c_pins["id"], sda=machine.Pin(i2c_pins["sda"]),
                          scl=machine.Pin(i2c_pins["scl"]),
                          freq=i2c_pins.get("freq", 400000))
        self.pn = pn532.PN532(i2c)
        self.version = None
        self.error = None
        self.retry_at = 0

    def start(self):
        try:
            self.version = self.pn.setup()
            self.error = None
        except (pn532.PN532Error, OSError) as e:
            self.version = None
            self.error = str(e)
        return self.version

    def poll(self, now):
        """The UID in the field, None for none, or PENDING while the chip works."""
        if self.version is None:
            if now >= self.retry_at:
                self.retry_at = now + READER_RETRY_MS
                version = self.start()
                if version is not None:
                    out({"event": "reader", "pn532": list(version)})
            return pn532.PENDING
        try:
            return self.pn.poll_uid()
        except (pn532.PN532Error, OSError) as e:
            self.version = None
            self.error = str(e)
            self.retry_at = now + READER_RETRY_MS
            out({"event": "reader", "error": self.error})
            return pn532.PENDING


def build(clock):
    board = boardmod.load(BOARD_FILE, keep_raw=False)
    registry = Registry.load(card_names(board), CARDS_FILE)
    np = neopixel.NeoPixel(machine.Pin(board.pins["neopixel"]), board.led_count)
    strip = leds.Strip(np, board.led_count)
    buzzer = None
    if "buzzer" in board.pins:
        buzzer = buzzermod.Buzzer(machine.PWM(machine.Pin(board.pins["buzzer"])))
    reader = Reader(board)
    return board, registry, strip, buzzer, reader


def make_pin(gpio):
    return machine.Pin(gpio, machine.Pin.IN, machine.Pin.PULL_UP)


async def reader_task(app, reader, clock):
    while True:
        now = clock()
        uid = reader.poll(now)
        app.view.fault = reader.version is None
        if uid is not pn532.PENDING:
            app.poll(uid, now)
        await asyncio.sleep_ms(READER_POLL_MS)


async def inputs_task(app, inputs, clock):
    while True:
        now = clock()
        for role in inputs.poll(now):
            app.press(role, now)
        await asyncio.sleep_ms(inputs.poll_ms)


async def animation_task(app, buzzer, wdt, clock):
    while True:
        now = clock()
        app.show(now)
        if buzzer is not None:
            buzzer.tick(now)
        wdt.feed()  # a stalled loop stops feeding: the watchdog resets, the journal resumes
        await asyncio.sleep_ms(FRAME_MS)


async def serial_task(link):
    import select
    stdin = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else sys.stdin
    stream = asyncio.StreamReader(stdin)
    poller = select.poll()
    poller.register(stdin, select.POLLIN)
    while True:
        # One wait per burst: the first byte (read(n) on the USB serial returns only once
        # n bytes came, which would hold every other task), then all that is waiting.
        data = await stream.read(1)
        if data:
            link.feed(data if isinstance(data, (bytes, bytearray)) else data.encode())
            link.read_waiting(stdin, poller)


async def game(clock, parts):
    board, registry, strip, buzzer, reader = parts
    app = App(board, registry, strip, sound=None, journal=Journal(JOURNAL_FILE))
    if buzzer is not None:
        app.sound = lambda outcome: buzzer.play(outcome, clock())
    version = reader.start()
    selftest = lambda: {"pn532": list(reader.version) if reader.version else None,  # noqa: E731
                        "reader_error": reader.error}
    link = Link(app, sys.stdout.write, clock, selftest=selftest,
                save_cards=lambda: registry.save(CARDS_FILE))
    app.enroller = Enroller(registry, lambda: registry.save(CARDS_FILE), reader.pn, link.send)
    out({"event": "boot", "firmware": VERSION, "pn532": list(version) if version else None,
         "reader_error": reader.error, "leds": board.led_count,
         "cards": len(registry.by_uid), "resumed": app.game.dump()["phase"],
         "journal_problem": app.boot_problem})
    inputs = inputsmod.build(board, make_pin)
    inputs.use_irq()  # the encoder's edges by interrupt: no detent lost between polls
    wdt = machine.WDT(timeout=WATCHDOG_MS)
    app.show(clock())
    await asyncio.gather(reader_task(app, reader, clock), inputs_task(app, inputs, clock),
                         animation_task(app, buzzer, wdt, clock), serial_task(link))


def main():
    clock = Clock()
    parts = build(clock)
    board = parts[0]
    if inputsmod.held_at_boot(board, make_pin):
        board, registry, strip, _, reader = parts
        inputs = inputsmod.build(board, make_pin)
        inputs.use_irq()
        asyncio.run(bringup.run(board, registry, strip, reader, inputs, clock, out))
    else:
        asyncio.run(game(clock, parts))


main()
