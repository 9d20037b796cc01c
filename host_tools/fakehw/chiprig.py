"""The board on an emulated RP2040: a board spec for the `rp2040py` emulator (PyPI, pinned
in pyproject.toml's dev extras), on which the stock MicroPython rp2 port runs the
project's firmware. `host_tools.measure.chipbench` starts it; by hand:

    CHIPRIG_CTL=127.0.0.1:7777 PYTHONPATH=. python -m rp2040py --log-level info \\
        micropython --image RPI_PICO.uf2 --board-spec host_tools.fakehw.chiprig:SPEC \\
        --pty --littlefs fs.img

What is wired to the emulated chip, from the board definition (`host_tools.paths.BOARD_DEF`,
board_def/kahuna.json):

- I2C0 (`hardware.pins.i2c`): the project's PN532 model (`host_tools/fakehw/pn532_chip.py`, with
  NTAG213 tags) at 0x24, bridged byte by byte: a write transaction is one frame to the
  model, a 1-byte read is its status poll, a longer read its frame;
- the NeoPixel pin (`pins.neopixel`): rp2040py's WS2812 decoder; every frame the firmware
  writes is kept with the emulated time it was latched at;
- the buttons (`pins.buttons`): pin levels (pressed = driven low, released = the pull-up);
- a control socket (`CHIPRIG_CTL`, host:port; default 127.0.0.1:7777), one JSON object per
  line, each answered with one line that also carries "ns", the emulated clock when served:

      {"tag": "04A224B2C35E80"} / {"tag": null}   lay a tag on the reader / lift it
      {"press": "next"} / {"release": "next"}     a button (a role or a GPIO number)
      {"clock": 1}                                -> {"ns": t, "i2c": transactions so far}
      {"leds": 1}                                 -> {"frames": n, "last": [[r,g,b]...], "at_ns"}
      {"since": NS}                               -> {"hist": [[at_ns, [[r,g,b]...]], ...]}
                                                     (the frames latched after NS, of the
                                                     last CHIPRIG_HIST kept, default 2000)
      {"link": NS}                                -> {"link": [[ns, "host", n] or
                                                     [ns, "board", "line..."], ...]}
                                                     (the serial link after NS: when the
                                                     host's bytes came to the USB host,
                                                     when each line of the board's ended)

With CHIPRIG_PROFILE naming a file, the core is sampled into it every 10 us of RP2040 time
(host_tools/measure/chipprofile.py, `chipbench --profile`).

Emulated time is what the measurements use: rp2040py runs the Cortex-M0+ at a fixed 125
MHz with per-instruction cycle counts, many times slower than real time.
"""

import collections
import dataclasses
import json
import os
import socket
import threading

from rp2040py.boards import BOARDS
from rp2040py.external.ws2812 import Ws2812
from rp2040py.peripherals.i2c import I2CMode

from host_tools.fakehw.ntag213 import NTAG213
from host_tools.fakehw.pn532_chip import PN532Chip
from host_tools.paths import BOARD_DEF

PN532_ADDR = 0x24
DEFAULT_CTL = "127.0.0.1:7777"


def board_pins(path=BOARD_DEF):
    """(neopixel GPIO, {button role: GPIO}, I2C id) from the board definition."""
    with open(path) as f:
        pins = json.load(f).get("hardware", {}).get("pins", {})
    buttons = pins.get("buttons", {})
    return (pins.get("neopixel", 28), dict(buttons) if isinstance(buttons, dict) else {},
            pins.get("i2c", {}).get("id", 0))


LED_PIN, BUTTON_PINS, I2C_ID = board_pins()

STATE = {"rp": None, "frames": 0, "last": None, "at_ns": 0, "i2c": 0,
         "hist": collections.deque(maxlen=int(os.environ.get("CHIPRIG_HIST", "2000"))),
         "link": collections.deque(maxlen=int(os.environ.get("CHIPRIG_HIST", "2000")))}
# The status poll says "ready" at once; a response is ready one poll after its ACK.
CHIP = PN532Chip(ack_polls=0, response_polls=1)


def _now():
    rp = STATE["rp"]
    return rp.clock.nanos if rp is not None else 0


class PN532Bridge:
    """A byte-level I2C target in front of the transaction-level PN532 model."""

    def attach(self, rp):
        STATE["rp"] = rp
        i2c = rp.i2c[I2C_ID]
        self.wbuf = bytearray()
        self.rbuf = None
        self.mode = None

        def connect(address, mode):
            self.mode = mode
            self.wbuf = bytearray()
            self.rbuf = None
            i2c.complete_connect(address == PN532_ADDR)

        def write(v):
            self.wbuf.append(v)
            i2c.complete_write(True)

        def read(ack):
            if self.rbuf is None:
                # The master NACKs the last byte: no ACK on the first byte is a 1-byte read,
                # the status poll; else a frame (the model gives what it has, zero-padded).
                self.rbuf = bytearray(CHIP.i2c_read(1 if not ack else 300))
            i2c.complete_read(self.rbuf.pop(0) if self.rbuf else 0)

        def stop():
            if self.mode == I2CMode.WRITE and self.wbuf:
                try:
                    CHIP.i2c_write(bytes(self.wbuf))
                except OSError:
                    pass  # held in reset: no answer, as on the bus
            STATE["i2c"] += 1
            self.wbuf = bytearray()
            self.rbuf = None
            i2c.complete_stop()

        i2c.on_connect = connect
        i2c.on_write_byte = write
        i2c.on_read_byte = read
        i2c.on_stop = stop


def _leds():
    def on_pixels(px):
        STATE["frames"] += 1
        STATE["last"] = [list(p) for p in px]
        STATE["at_ns"] = _now()
        STATE["hist"].append((STATE["at_ns"], STATE["last"]))
    return Ws2812(gpio=LED_PIN, on_pixels=on_pixels)


def answer(req):
    """One control request -> its answer (see the module's docstring)."""
    rp = STATE["rp"]
    ans = {"ok": True}
    if "tag" in req:
        if req["tag"]:
            CHIP.field.place(NTAG213(bytes.fromhex(req["tag"])))
        else:
            CHIP.field.remove()
    elif "press" in req or "release" in req:
        role = req["press"] if "press" in req else req["release"]
        pin = role if isinstance(role, int) else BUTTON_PINS[role]
        if "press" in req:
            rp.gpio[pin].set_input_value(False)
        else:
            rp.gpio[pin].release_input()
    elif "leds" in req:
        ans = {"frames": STATE["frames"], "last": STATE["last"], "at_ns": STATE["at_ns"]}
    elif "since" in req:
        ans = {"hist": [h for h in list(STATE["hist"]) if h[0] > req["since"]]}
    elif "link" in req:
        ans = {"link": [e for e in list(STATE["link"]) if e[0] > req["link"]]}
    elif "clock" in req:
        ans = {"i2c": STATE["i2c"]}
    else:
        ans = {"error": "unknown request"}
    ans["ns"] = _now()
    return ans


def _serve(srv):
    while True:
        conn, _ = srv.accept()
        f = conn.makefile("rw")
        for line in f:
            try:
                ans = answer(json.loads(line))
            except Exception as e:  # noqa: BLE001 - a rig: say what broke and go on
                ans = {"error": repr(e), "ns": _now()}
            f.write(json.dumps(ans) + "\n")
            f.flush()
        conn.close()


class Control:
    def attach(self, rp):
        STATE["rp"] = rp
        host, port = os.environ.get("CHIPRIG_CTL", DEFAULT_CTL).rsplit(":", 1)
        srv = socket.socket()
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        srv.bind((host, int(port)))
        srv.listen(4)
        threading.Thread(target=_serve, args=(srv,), daemon=True).start()


def quiet_usb_host():
    """The emulated USB host sends an OUT packet only when it has bytes for the board.

    rp2040py's CDC host answers every OUT buffer the firmware arms at once (10 us later),
    with a zero-length packet when it has nothing to send; the firmware's USB stack re-arms
    the buffer, and so on: on the stock MicroPython an USBCTRL interrupt every ~100 us of
    RP2040 time, 10-12% of the chip in the interrupt alone (`chipbench --profile`), plus the
    stack's own work in thread mode. A real host sends no OUT packet with nothing to send.
    Here an armed OUT buffer is answered when the host has bytes for it (`CHIPRIG_USB=quiet`:
    chipbench by default; `--stock-usb` leaves rp2040py's host as it is)."""
    from rp2040py.usb import cdc as cdcmod

    init = cdcmod.USBCDC.__init__

    def __init__(self, usb):
        init(self, usb)
        answer = usb.on_endpoint_read
        fifo = self.tx_fifo
        pending = {}

        def on_read(endpoint, size):
            if endpoint == self._out_endpoint and fifo.item_count == 0:
                pending[endpoint] = size  # answered once there are bytes
                return
            pending.pop(endpoint, None)
            answer(endpoint, size)

        def deliver():
            armed[0] = False
            for endpoint, size in list(pending.items()):
                del pending[endpoint]
                if fifo.item_count:
                    answer(endpoint, size)
                else:
                    pending[endpoint] = size

        alarm = usb.rp2040.clock.create_alarm(deliver)
        armed = [False]
        push = fifo.push

        def push_(value):
            push(value)
            if pending and not armed[0]:
                armed[0] = True
                alarm.schedule(0)  # the bytes of one write land together: answered after

        usb.on_endpoint_read = on_read
        fifo.push = push_

    cdcmod.USBCDC.__init__ = __init__


def link_times():
    """The serial link's timing on the emulated clock, for `{"link": NS}`: when bytes from
    the host (the pty) reach the USB host's FIFO with nothing left waiting before them (a
    command's start, "host", and how many), and when each line of the board's ends in an IN
    packet ("board", the line's first 60 characters). A command's round trip is then timed
    from the first to the second, both in RP2040 time, without the wall-clock time the
    bench's own process takes to write its line, read the reply and ask for the clock (a
    wall ms is ~30 RP2040 us while the core works, but up to a whole idle jump while it
    sleeps)."""
    from rp2040py.usb import cdc as cdcmod

    init = cdcmod.USBCDC.__init__
    log = STATE["link"]

    def __init__(self, usb):
        init(self, usb)
        fifo = self.tx_fifo
        push = fifo.push
        write = usb.on_endpoint_write
        partial = bytearray()

        def push_(value):
            if fifo.item_count == 0:
                log.append([_now(), "host", 1])
            elif log and log[-1][1] == "host":
                log[-1][2] += 1
            push(value)

        def on_write(endpoint, buffer):
            write(endpoint, buffer)
            if endpoint == self._in_endpoint and len(buffer):
                partial.extend(buffer)
                while b"\n" in partial:
                    i = partial.index(b"\n")
                    log.append([_now(), "board", partial[:min(i, 60)].decode("utf-8", "replace")])
                    del partial[:i + 1]

        fifo.push = push_
        usb.on_endpoint_write = on_write

    cdcmod.USBCDC.__init__ = __init__


if os.environ.get("CHIPRIG_USB") == "quiet":
    quiet_usb_host()
link_times()

EXTRAS = (PN532Bridge, _leds, Control)
if os.environ.get("CHIPRIG_PROFILE"):
    from host_tools.measure.chipprofile import Sampler

    EXTRAS += (lambda: Sampler(os.environ["CHIPRIG_PROFILE"]),)

SPEC = dataclasses.replace(BOARDS["pico"], extras=BOARDS["pico"].extras + EXTRAS)
