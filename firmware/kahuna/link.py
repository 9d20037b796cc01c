"""The serial link: JSON lines between the board and a host over USB.

Host -> board, one JSON object per line:

    {"cmd": "state"}                                   the game as the simulator reports it
    {"cmd": "new", "settings": {"variant": "standard", "first": "white", "handicap": null}}
    {"cmd": "tap", "card": "HUNA-1"}  or  {"cmd": "tap", "uid": "04A224B2C35E80"}
    {"cmd": "press", "button": "next"}
    {"cmd": "pick", "conn": "ALOA-BARI"}
    {"cmd": "selftest"}
    {"cmd": "cards"}                                   the card registry
    {"cmd": "cards", "set": {"04A2...": "HUNA-1", ...}} replace it (checked whole first)
    {"cmd": "enroll", "card": "HUNA-1"}               wait for a tag, write its name, enrol it
    {"cmd": "enroll", "card": "HUNA-1", "uid": "04A2..."} register a UID without a tag
    {"cmd": "enroll", "stop": true}

Board -> host: `{"event": ...}` lines (boot, state, accepted, refused, selftest, cards, ...)
and `{"error": "..."}` for a line that is malformed, too long or not understood: such a
line changes nothing.
"""

import json

from kahuna import outcome as oc
from kahuna import report, rules
from kahuna.board import ROLES
from kahuna.cards import RegistryError, parse_uid

MAX_LINE = 1024  # bytes; a longer line is refused whole


class LinkError(ValueError):
    pass


class Link:
    """Feeds bytes from the serial port, answers through `write(text)` (one line each).

    `app` is the `kahuna.app.App`; `now()` gives the clock in ms; `selftest()` (optional)
    returns the self-test report; `save_cards()` (optional) persists the registry."""

    def __init__(self, app, write, now, selftest=None, save_cards=None):
        self.app = app
        self.write = write
        self.now = now
        self.selftest = selftest
        self.save_cards = save_cards
        self.buf = bytearray()
        self.overflow = False

    def on_event(self, outcome):
        """After every event, whatever its source (scanner, button or this link): its
        kahuna.outcome.Outcome, and the new state. The app calls it (app.listen)."""
        if outcome.kind == oc.REFUSED:
            msg = {"event": "refused", "code": outcome.code, "message": outcome.message}
        else:
            msg = {"event": "accepted", "outcome": outcome.kind}
        msg["state"] = self.state()
        self.send(msg)

    # ------------------------------------------------------------ framing

    def feed(self, data):
        """Bytes as they arrive; every complete line is handled."""
        for b in data:
            if b == 10:  # \n
                if self.overflow:
                    self.send({"error": "line longer than %d bytes, ignored" % MAX_LINE})
                else:
                    self.line(bytes(self.buf))
                self.buf = bytearray()
                self.overflow = False
            elif self.overflow:
                continue
            elif len(self.buf) >= MAX_LINE:
                self.overflow = True
            elif b != 13:  # \r
                self.buf.append(b)

    def send(self, obj):
        self.write(json.dumps(obj) + "\n")

    def line(self, raw):
        text = raw.strip()
        if not text:
            return
        try:
            msg = json.loads(text)
        except ValueError:
            self.send({"error": "not JSON"})
            return
        if not isinstance(msg, dict) or not isinstance(msg.get("cmd"), str):
            self.send({"error": "expected an object with a \"cmd\""})
            return
        handler = getattr(self, "cmd_" + msg["cmd"], None)
        if handler is None:
            self.send({"error": "unknown command %r" % (msg["cmd"],)})
            return
        try:
            handler(msg)
        except (LinkError, RegistryError) as e:
            self.send({"error": str(e)})

    # ------------------------------------------------------------ commands

    def state(self):
        r = report.game(self.app.game)
        r["leds"] = list(self.app.view.frame)
        return r

    def cmd_state(self, msg):
        self.send({"event": "state", "state": self.state()})

    def cmd_new(self, msg):
        try:
            settings = rules.check_settings(msg.get("settings", {}))
        except ValueError as e:
            raise LinkError(str(e)) from None
        self.app.new_game(settings)
        self.app.show(self.now())
        self.send({"event": "new", "state": self.state()})

    def cmd_tap(self, msg):
        card = msg.get("card")
        uid = msg.get("uid")
        if isinstance(card, str):
            if card not in self.app.game.card_index:
                raise LinkError("unknown card %r" % (card,))
            self.app.tap_card(card, self.now())
        elif isinstance(uid, str):
            try:
                raw = parse_uid(uid)
            except ValueError as e:
                raise LinkError(str(e)) from None
            self.app.tap_uid(raw, self.now())
        else:
            raise LinkError("tap needs \"card\" or \"uid\"")

    def cmd_press(self, msg):
        button = msg.get("button")
        if button not in ROLES:
            raise LinkError("button must be one of " + ", ".join(ROLES))
        self.app.press(button, self.now())

    def cmd_pick(self, msg):
        conn = msg.get("conn")
        if not isinstance(conn, str) or conn not in self.app.board.conn_index:
            raise LinkError("unknown connection %r" % (conn,))
        self.app.pick(conn, self.now())

    def cmd_selftest(self, msg):
        report = self.selftest() if self.selftest else {}
        report["event"] = "selftest"
        report["leds"] = self.app.board.led_count
        self.send(report)

    def cmd_cards(self, msg):
        reg = self.app.registry
        if "set" in msg:
            entries = msg["set"]
            if not isinstance(entries, dict):
                raise LinkError("cards set needs an object {uid: card}")
            new = type(reg)(reg.card_names, entries)  # checks every entry first
            reg.by_uid = new.by_uid
            if self.save_cards:
                self.save_cards()
        self.send({"event": "cards", "cards": reg.by_uid, "missing": reg.missing()})

    def cmd_enroll(self, msg):
        """{"card": C}: wait for a tag and enrol it as C (the board writes its NDEF name);
        {"card": C, "uid": U}: register U as C without a tag (import); {"stop": true}."""
        enroller = self.app.enroller
        if msg.get("stop"):
            if enroller is not None:
                enroller.stop()
            self.send({"event": "enroll-stopped"})
            return
        card = msg.get("card")
        uid = msg.get("uid")
        if not isinstance(card, str):
            raise LinkError("enroll needs \"card\"")
        if uid is None:
            if enroller is None:
                raise LinkError("this board has no reader to enrol cards with")
            try:
                enroller.start(card)
            except ValueError as e:
                raise LinkError(str(e)) from None
            self.app.show(self.now())  # the island lights up, then the host is told
            self.send({"event": "enroll-wait", "card": card})
            return
        if not isinstance(uid, str):
            raise LinkError("uid must be hex text")
        self.app.registry.enroll(card, uid)
        if self.save_cards:
            self.save_cards()
        self.send({"event": "enrolled", "card": card, "uid": uid.upper()})
