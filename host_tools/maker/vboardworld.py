"""The virtual board's world: what is outside the board (the tag on the reader and what the
board wrote to the tags, the levels driven onto its input pins, the PN532's presence and
speed) and what the board shows (output pins, PWM, NeoPixel frames, the watchdog, its
phase), kept by the launcher so that it survives hard resets; the board's messages that
change it, and the control channel's requests that act on it.

`World` is the launcher's (host_tools/maker/vboardserver.py `VBoard`) base: the launcher
provides `status()` and `hard_reset(why, cause)`, fills `console` with the board's recent
output and sets `dev`, the board's own socket (a vboardio.Conn; None while it boots).
"""

import time

from host_tools.maker.vboarddef import buttons as board_buttons
from host_tools.maker.vboarddef import card_uid, example_card

PWRON_RESET = 1
WDT_RESET = 3
PN532_SETTINGS = ("ack_polls", "response_ms", "present")  # the control channel's "pn532"
TAP_MS = 400  # a tapped card stays on the reader this long: a few reader polls
PRESS_MS = 150  # a pressed button is held this long unless told


class World:
    """The outside world and what the board shows; see the module's docstring."""

    def __init__(self, board_dir):
        self.board_dir = board_dir
        self.dev = None
        self.timers = []  # [(monotonic s, fn)]: a tapped card lifted, a button released
        # The PN532 as the world has it: on the bus or not, how slowly it answers.
        self.pn532 = {"present": True, "ack_polls": 0, "response_ms": 2}
        self.pn532_resets = 0  # times the board released the chip's reset pin (this boot)
        # The world outside the board, and what the board shows.
        self.tag = None  # {"uid": hex, "user": hex or None} of the tag on the reader
        self.tag_mem = {}  # UID -> hex of the tag's whole memory, as the board last wrote it
        self.driven = {}
        self.outputs = {}
        self.pwm = {}
        self.strips = {}
        self.wdt = None  # {"timeout": ms, "deadline": monotonic s}
        self.phase = "off"
        self.boots = 0
        self.main_runs = 0
        self.resets = []  # [{"boot": n, "why": text}]
        self.console = bytearray()

    def _board_message(self, msg):
        if "hello" in msg:
            # wdt: a board process that goes on after a broken heap (vboardserver._go_on)
            # finds the watchdog still running, as the RP2040 keeps it through a Ctrl-C,
            # and counts the PN532's resets on from where the last one was.
            self.dev.send({"world": {"tag": self._tag_desc(),
                                     "pins": {str(k): v for k, v in self.driven.items()},
                                     "pn532": self.pn532, "wdt": self.wdt is not None,
                                     "pn532_resets": self.pn532_resets}})
        elif "tagmem" in msg:
            self.tag_mem[msg["tagmem"]] = msg["mem"]
        elif "out" in msg:
            gpio, level = msg["out"]
            self.outputs[gpio] = level
        elif "np" in msg:
            gpio = msg["np"]
            st = self.strips.setdefault(gpio, {"data": None, "writes": 0})
            st["data"] = msg["data"]
            st["writes"] += 1
        elif "pwm" in msg:
            gpio, freq, duty = msg["pwm"]
            self.pwm[gpio] = {"freq": freq, "duty_u16": duty}
        elif "wdt" in msg:
            self.wdt = {"timeout": msg["wdt"], "deadline": time.monotonic() + msg["wdt"] / 1000}
        elif "feed" in msg:
            if self.wdt is not None:
                self.wdt["deadline"] = time.monotonic() + self.wdt["timeout"] / 1000
        elif "pn532_resets" in msg:
            self.pn532_resets = msg["pn532_resets"]
        elif "phase" in msg:
            self.phase = msg["phase"]
            if self.phase == "main.py":
                self.main_runs += 1
        elif "reset" in msg:
            self.hard_reset(msg["reset"], WDT_RESET)

    def _tag_desc(self):
        if self.tag is None:
            return None
        return {"uid": self.tag["uid"], "user": self.tag["user"],
                "mem": self.tag_mem.get(self.tag["uid"])}

    def _tell_board(self, obj):
        if self.dev is not None:
            self.dev.send(obj)

    def _control(self, req):
        cmd = req.get("cmd")
        if cmd == "status":
            return self.status()
        if cmd == "tag":
            uid = req.get("uid")
            if uid is None:
                self.tag = None
            else:
                uid = str(uid).replace(":", "").replace(" ", "").upper()
                try:
                    raw = bytes.fromhex(uid)
                except ValueError:
                    return {"ok": False, "error": "tag uid %r is not hex" % req.get("uid")}
                if len(raw) not in (4, 7):
                    return {"ok": False, "error": "tag uid must be 4 or 7 bytes (NTAG213: 7)"}
                self.tag = {"uid": uid, "user": req.get("user")}
                if req.get("user") is not None:
                    self.tag_mem.pop(uid, None)  # a fresh tag with this user memory
            self._tell_board({"tag": self._tag_desc()})
            return {"ok": True}
        if cmd == "tagmem":
            uid = str(req.get("uid", "")).upper()
            return {"ok": True, "uid": uid, "mem": self.tag_mem.get(uid)}
        if cmd == "pin":
            pin, level = req.get("pin"), req.get("level")
            if not isinstance(pin, int) or not 0 <= pin <= 29 or level not in (0, 1, None):
                return {"ok": False, "error": "pin needs \"pin\": 0..29, \"level\": 0, 1 or null"}
            if level is None:
                self.driven.pop(pin, None)
            else:
                self.driven[pin] = level
            self._tell_board({"pin": [pin, level]})
            return {"ok": True}
        if cmd == "frame":
            pin = req.get("pin")
            if pin is None and self.strips:
                pin = min(self.strips)
            st = self.strips.get(pin)
            if st is None:
                return {"ok": True, "pin": pin, "data": None, "writes": 0}
            return {"ok": True, "pin": pin, "data": st["data"], "writes": st["writes"]}
        if cmd in ("tap", "place"):
            card = str(req.get("card", ""))
            uid = card_uid(self.board_dir, card)
            if uid is None:
                return {"ok": False, "error": "unknown card %r: cards are ISLAND-1 or "
                                              "ISLAND-2 (%s), or uid:HEX for any tag"
                                              % (card, example_card())}
            reply = self._control({"cmd": "tag", "uid": uid})
            if not reply["ok"]:
                return reply
            if cmd == "tap":
                self.later(TAP_MS, lambda: self._control({"cmd": "tag", "uid": None}))
            return {"ok": True, "uid": uid}
        if cmd == "lift":
            return self._control({"cmd": "tag", "uid": None})
        if cmd == "press":
            buttons = board_buttons(self.board_dir)
            name, ms = req.get("button"), req.get("ms", PRESS_MS)
            if name not in buttons:
                return {"ok": False, "error": "unknown button %r (%s)"
                                              % (name, ", ".join(buttons))}
            if not isinstance(ms, int) or not 0 < ms <= 60000:
                return {"ok": False, "error": "a press lasts 1 to 60000 ms"}
            pin = buttons[name]
            self._control({"cmd": "pin", "pin": pin, "level": 0})  # buttons pull to ground
            self.later(ms, lambda: self._control({"cmd": "pin", "pin": pin, "level": None}))
            return {"ok": True, "pin": pin}
        if cmd == "pn532":
            return self._control_pn532(req)
        if cmd == "reset":
            self.hard_reset("control channel (RUN pin)", PWRON_RESET)
            return {"ok": True}
        if cmd == "console":
            return {"ok": True, "text": self.console.decode("utf-8", "replace")}
        return {"ok": False, "error": "unknown command %r" % (cmd,)}

    def later(self, ms, fn):
        self.timers.append((time.monotonic() + ms / 1000, fn))

    def _run_timers(self):
        now = time.monotonic()
        due = [t for t in self.timers if t[0] <= now]
        self.timers = [t for t in self.timers if t[0] > now]
        for _, fn in sorted(due, key=lambda t: t[0]):
            fn()

    def _control_pn532(self, req):
        """{"cmd": "pn532", "present": bool, "ack_polls": n, "response_ms": n,
        "wedge": true}: the chip leaves or rejoins the bus, answers more slowly, or hangs
        until its reset pin is pulsed."""
        change = {}
        for key in PN532_SETTINGS:
            if key in req:
                v = req[key]
                ok = isinstance(v, bool) if key == "present" else (
                    isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10000)
                if not ok:
                    return {"ok": False, "error": "pn532 %s: bad value %r" % (key, v)}
                change[key] = v
        wedge = req.get("wedge", False)
        if not isinstance(wedge, bool):
            return {"ok": False, "error": "pn532 wedge: true or false"}
        self.pn532.update(change)
        msg = {"pn532": dict(self.pn532)}
        if wedge:
            msg["wedge"] = True
        self._tell_board(msg)
        return {"ok": True, "pn532": dict(self.pn532)}
