"""Bring-up mode: what a maker needs after soldering (a button held at power-up).

It walks the LED chain one pixel at a time and names each island, connection or status
pixel over the serial link; it lights the island of any card tapped on the reader and
names the card; it names every button or encoder action as it happens. Nothing of the
game is touched. Everything is passed in: the strip, the reader (hw.reader.Reader:
`poll(now)` -> True when a poll completed, its result in `uid`), the inputs (`poll(now)` ->
roles), the clock and `out(obj)`.
"""

try:
    import asyncio
except ImportError:  # pragma: no cover
    asyncio = None

from core.cards import uid_hex

STEP_MS = 700  # each pixel of the walk stays lit this long
TAG_MS = 2000  # a tapped card's island stays lit this long
TICK_MS = 20


class Bringup:
    """`game_def` is the board's game (docs/platform.md): it names each pixel
    (`pixel_names`) and says which pixel shows a card (`card_pixel`)."""

    def __init__(self, board, game_def, registry, strip, reader, inputs, out):
        self.board = board
        self.game_def = game_def
        self.registry = registry
        self.strip = strip
        self.reader = reader
        self.inputs = inputs
        self.out = out
        self.names = game_def.pixel_names(board)
        self.frame = bytearray(3 * board.led_count)
        self.led = -1
        self.next_step = 0
        self.tag_led = -1
        self.tag_until = 0
        self.last_uid = None

    def start(self, now=0):
        version = self.reader.start(now)
        self.out({"event": "bringup", "leds": self.board.led_count,
                  "pn532": list(version) if version else None})

    def _light(self, led, rgb):
        j = 3 * led
        self.frame[j] = rgb[0]
        self.frame[j + 1] = rgb[1]
        self.frame[j + 2] = rgb[2]

    def tick(self, now):
        if now >= self.next_step:
            self.led = (self.led + 1) % self.board.led_count
            self.next_step = now + STEP_MS
            self.out({"event": "bringup", "led": self.led, "name": self.names[self.led]})
        if self.reader.poll(now):
            uid = self.reader.uid
            if uid is not None and uid != self.last_uid:
                card = self.registry.card_for(uid)
                self.out({"event": "bringup", "tag": uid_hex(uid), "card": card})
                if card is not None:
                    self.tag_led = self.game_def.card_pixel(self.board, card)
                    self.tag_until = now + TAG_MS
            self.last_uid = uid
        for role in self.inputs.poll(now):
            self.out({"event": "bringup", "button": role})
        for j in range(len(self.frame)):
            self.frame[j] = 0
        self._light(self.led, (60, 60, 60))
        if self.tag_led >= 0 and now < self.tag_until:
            self._light(self.tag_led, (0, 60, 0))
        self.strip.show(self.frame)


async def run(board, game_def, registry, strip, reader, inputs, clock, out):
    b = Bringup(board, game_def, registry, strip, reader, inputs, out)
    b.start(clock())
    while True:
        b.tick(clock())
        await asyncio.sleep_ms(TICK_MS)
