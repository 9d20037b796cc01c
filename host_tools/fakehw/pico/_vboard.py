"""The virtual board's hardware, as seen from inside the board (MicroPython).

`machine` and `neopixel` (beside this file) are thin front ends over this module. It holds:

- the link to the launcher (host_tools/maker/vboardserver.py): a Unix socket carrying JSON
  lines. The board sends what its outputs do (NeoPixel frames, output pins, PWM, the watchdog, reset
  requests); the launcher sends what the outside world does (a tag placed on the reader, a
  button pressed). The launcher keeps the world state, so it survives a hard reset.
- the emulated chips: one VirtualI2C bus per I2C id, with a PN532Chip (host_tools/fakehw) on
  the reader's bus, and the NTAG213 tags that have been in its field (a tag keeps what the
  firmware wrote to it while the board runs).
- the GPIOs: `Pin`, machine.Pin of the board, is the fake `Pin` of host_tools/fakehw/pins.py
  (the simulator's too), one object per GPIO, whose outside world is the launcher's:
  levels it drives, outputs and frames reported to it, IRQ handlers scheduled.

Nothing here runs on its own: the world is sampled (`poll()`) whenever the firmware touches
emulated hardware (a pin read, an I2C transfer, a NeoPixel write, a watchdog feed), which a
polling firmware does all the time. A Pin IRQ fires at the next such sample, through
micropython.schedule, like a soft IRQ on the Pico.
"""

import json
import os
import select
import socket
import struct
import time
from binascii import hexlify, unhexlify

import micropython

from host_tools.fakehw import pins
from host_tools.fakehw.i2c_bus import VirtualI2C
from host_tools.fakehw.ntag213 import NTAG213, tag_for
from host_tools.fakehw.pn532_chip import PN532Chip

reset_cause = int(os.getenv("VBOARD_CAUSE") or 1)  # machine.PWRON_RESET
unique_id = unhexlify(os.getenv("VBOARD_UID") or "e660000000000000")
boot_number = int(os.getenv("VBOARD_BOOT") or 1)
pn532_bus = int(os.getenv("VBOARD_PN532_BUS") or 0)
pn532_reset = int(os.getenv("VBOARD_PN532_RESET") or -1)  # RSTPDN's GPIO, -1: not wired
PN532_ADDR = int(os.getenv("VBOARD_PN532_ADDR") or -1)  # the driver's, from the launcher

_sock = None
_poller = None
_inbuf = b""
_world_seen = False

tags = {}  # UID hex -> tag object, every tag that has been in the field
buses = {}  # I2C id -> VirtualI2C

_t = [time.ticks_ms(), 0]


def ms():
    """Milliseconds since boot, not wrapping (ticks_ms does, after 12 days)."""
    now = time.ticks_ms()
    _t[1] += time.ticks_diff(now, _t[0])
    _t[0] = now
    return _t[1]


# The board runs in real time, so the chip's delays are times, not counts of status polls.
# The control channel can slow it down (ack_polls, response_ms), take it off the bus or
# wedge it (see _pn532).
chip = PN532Chip.timed(ms)


def _connect(path):
    global _sock, _poller
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    # MicroPython's unix socket takes a raw sockaddr: sun_family, then the path.
    s.connect(struct.pack("H", socket.AF_UNIX) + path.encode() + b"\x00")
    _sock = s
    _poller = select.poll()
    _poller.register(s, select.POLLIN)
    send({"hello": boot_number})
    # The launcher answers with the world state at once; wait for it (bounded).
    for _ in range(50):
        if _poller.poll(100):
            _read()
            if _world_seen:
                return
    raise OSError("vboard: no world state from the launcher")


def send(obj):
    if _sock is None:
        return
    data = json.dumps(obj).encode() + b"\n"
    while data:
        data = data[_sock.send(data):]


RECV_SIZE = 256  # small reads: a 4 KB buffer per read could not be found in the board's
# fragmented heap and killed main.py (readinto would wait to fill its whole buffer)


def _read():
    global _inbuf, _poller
    try:
        chunk = _sock.recv(RECV_SIZE)
    except OSError:
        return
    if not chunk:
        # The launcher went away (its pty closes too, so SIGHUP ends this process).
        _poller = None
        return
    _inbuf += chunk
    while b"\n" in _inbuf:
        line, _inbuf = _inbuf.split(b"\n", 1)
        if line:
            _apply(json.loads(line))


def poll():
    """Take in what the outside world did since the last call."""
    if _poller is None:
        return
    while _poller.poll(0):
        _read()


def _apply(msg):
    global _world_seen, wdt_enabled
    if "world" in msg:
        w = msg["world"]
        wdt_enabled = bool(w.get("wdt"))
        chip.resets = w.get("pn532_resets", 0)
        _set_tag(w.get("tag"))
        for pin, level in w.get("pins", {}).items():
            set_driven(int(pin), level)
        if "pn532" in w:
            _pn532(w["pn532"], False)
        _world_seen = True
    if "tag" in msg:
        _set_tag(msg["tag"])
    if "pin" in msg:
        set_driven(msg["pin"][0], msg["pin"][1])
    if "pn532" in msg:
        _pn532(msg["pn532"], msg.get("wedge", False))


def _pn532(settings, wedge):
    """The chip as the world has it: on the bus or not, its delays; wedged on request."""
    chip.ack_polls = settings.get("ack_polls", chip.ack_polls)
    chip.response_ms = settings.get("response_ms", chip.response_ms)
    b = bus(pn532_bus)
    if settings.get("present", True):
        b.attach(PN532_ADDR, chip)
    else:
        b.detach(PN532_ADDR)
    if wedge:
        chip.wedge()


def _reset_line(level):
    """The PN532's RSTPDN (the far end of its GPIO): the chip hears the level."""
    before = chip.resets
    chip.reset_pin(level)
    if chip.resets != before:
        send({"pn532_resets": chip.resets})


def _set_tag(desc):
    """desc: None (no tag), or {"uid": hex, "mem": hex of the whole memory the tag had,
    "user": hex for its user memory (page 4 on) on a fresh tag}."""
    if desc is None:
        chip.field.remove()
        return
    uid = desc["uid"].upper()
    tag = tags.get(uid)
    mem, user = desc.get("mem"), desc.get("user")
    if tag is None or mem is not None or user is not None:
        tag = tag_for(unhexlify(uid))
        if isinstance(tag, NTAG213):
            if mem is not None:
                tag.mem[:] = unhexlify(mem)
            elif user is not None:
                tag.set_user(unhexlify(user))
            _reported[uid] = bytes(tag.mem)
        tags[uid] = tag
    chip.field.place(tag)


_reported = {}  # UID hex -> the tag memory the launcher last heard of


def after_write():
    """After an I2C write (a command may have written to the tag): tell the launcher what
    the tag in the field now holds, so a tag keeps it across hard resets, as a real one."""
    tag = chip.field.tag
    mem = getattr(tag, "mem", None)
    if mem is None:
        return
    uid = hexlify(tag.uid).decode().upper()
    if _reported.get(uid) != mem:
        _reported[uid] = bytes(mem)
        send({"tagmem": uid, "mem": hexlify(mem).decode()})


def set_driven(gpio, level):
    Pin(int(gpio)).drive(level)


_pins = {}  # gpio -> its Pin: every Pin(n) is the same object, as the state is the GPIO's


class Pin(pins.Pin):
    """machine.Pin: the fake Pin, with the launcher as its outside world."""

    def __new__(cls, id, *args, **kw):
        gpio = pins.gpio_number(id)
        p = _pins.get(gpio)
        if p is None:
            p = _pins[gpio] = object.__new__(cls)
            p._id = gpio
            if gpio == pn532_reset:
                p.on_level = _reset_line
        return p

    def value(self, x=None):
        if x is None:
            poll()
        return pins.Pin.value(self, x)

    def _fire(self, handler):
        schedule(handler, self)

    def _drives(self):
        send({"out": [self._id, self._latch]})
        pins.Pin._drives(self)

    def stream(self, buf):
        poll()
        send({"np": self._id, "data": hexlify(buf).decode()})


def bus(i2c_id):
    b = buses.get(i2c_id)
    if b is None:
        b = buses[i2c_id] = VirtualI2C()
        if i2c_id == pn532_bus:
            b.attach(PN532_ADDR, chip)
    return b


def pwm(gpio, freq, duty_u16):
    send({"pwm": [gpio, freq, duty_u16]})


wdt_enabled = False  # once started, only a hard reset stops it (soft reboots do not)


def watchdog(timeout_ms):
    global wdt_enabled
    wdt_enabled = True
    send({"wdt": timeout_ms})


def feed():
    send({"feed": 1})


def phase(name):
    """Where the board is: 'boot.py', 'main.py', 'repl', 'raw', 'soft reboot'."""
    send({"phase": name})


def hard_reset(why):
    """machine.reset(): the launcher restarts the board; nothing after this runs."""
    send({"reset": why})
    if _sock is None:
        raise SystemExit  # no launcher (a test run on its own): a soft reboot at least
    while True:  # the launcher kills this process within milliseconds
        try:
            time.sleep_ms(1000)
        except BaseException:  # noqa: B036 -- a reset cannot be interrupted
            pass


def soft_reset():
    """What a soft reboot does to the hardware: Pin IRQs are disabled (rp2 machine_pin_deinit)."""
    for p in _pins.values():
        p.irq(None)


def schedule(fn, arg):
    try:
        micropython.schedule(fn, arg)
    except RuntimeError:  # the schedule queue is full: the IRQ is lost, as on the Pico
        pass


def start():
    path = os.getenv("VBOARD_SOCK")
    if path:
        _connect(path)
