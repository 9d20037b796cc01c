"""The serial link: JSON lines between the board and a host over USB.

Host -> board, one JSON object per line (at most MAX_LINE bytes):

    {"cmd": "state"}                                   the whole state (see below)
    {"cmd": "reveal", "on": true}                      include the hands from now on
    {"cmd": "reveal", "on": false}                     hand sizes only again (the default)
    {"cmd": "new", "settings": {"variant": "standard", "first": "white", "handicap": null}}
                                                       (and "ai": "black" for a solo game)
    {"cmd": "tap", "card": "HUNA-1"}  or  {"cmd": "tap", "uid": "04A224B2C35E80"}
    {"cmd": "press", "button": "next"}                 next prev ok back done discard
    {"cmd": "pick", "conn": "ALOA-BARI"}
    {"cmd": "selftest"}
    {"cmd": "cards"}                                   the card registry
    {"cmd": "cards", "set": {"04A2...": "HUNA-1", ...}} replace it (checked whole first)
    {"cmd": "enroll", "card": "HUNA-1"}               wait for a tag, write its name, enrol it
    {"cmd": "enroll", "card": "HUNA-1", "uid": "04A2..."} register a UID without a tag
    {"cmd": "enroll", "stop": true}
    {"cmd": "archive"}                                 the archived games (journal: the last 8)
    {"cmd": "archive", "slot": N, "offset": K}         the next piece of one, from byte K
    {"cmd": "bench"}                                   the board's loop statistics
    {"cmd": "bench", "reset": true}                    the same, then counting afresh

Board -> host, one JSON object per line:

    {"event": "state", "state": STATE}           answer to state and to reveal
    {"event": "new", "state": STATE}             answer to new
    {"event": KIND, "changed": PART}             after every referee event, whatever its
                                                 source (scanner, buttons or this link);
                                                 KIND is the outcome: "accepted",
                                                 "round-end", "game-over" (more may come)
    {"event": "refused", "code": CODE, "message": TEXT, "changed": PART}
                                                 CODE as the simulator's rejection codes
    {"event": "selftest", "pn532": [ic, ver, rev, support] | null, "reader_error": TEXT |
     null, "leds": n}
    {"event": "cards", "cards": {UID: CARD}, "missing": [CARD...]}
    {"event": "enroll-wait", "card": CARD}       the island is lit: lay a tag on the reader
    {"event": "enrolled", "card": CARD, "uid": UID, ...}
    {"event": "enroll-refused", "card": CARD, "uid": UID, "reason": TEXT}
    {"event": "enroll-stopped"}
    {"event": "archived", "slot": N, "game": G | null, "settings": SETTINGS | null}
                                                 one line per archived game (null: its
                                                 first record is damaged), then
    {"event": "archive", "count": n}
    {"event": "archive-part", "slot": N, "offset": K, "data": BASE64, "end": bool}
                                                 at most ARCHIVE_PIECE bytes of the game's
                                                 journal file from byte K; "end" once the
                                                 file ends in it. A host asks for piece
                                                 after piece (K += bytes got), so the board
                                                 never holds a file nor floods the port.
    {"event": "ai", "step": STEP, "say": TEXT}   a solo game (settings "ai"): what the board
                                                 asks of the player now, whenever it
                                                 changes (kahuna.solo: STEP display, deal,
                                                 think, tap, confirm, discard, take, draw,
                                                 or null and "" on the player's own turn);
                                                 it names no card of the AI's stack; a
                                                 solo game's answer to state has it too
    {"event": "bench", "tasks": [...], "reader", "frame_out_ms", "ai", "heap", ...}
                                                 the loop statistics (kahuna.loopstats: what
                                                 each figure is); it changes no game state
    {"error": TEXT}                              a line that is malformed, too long or not
                                                 understood: it changed nothing
    main.py adds {"event": "boot", "firmware", "pn532", "reader_error", "leds", "cards",
    "resumed", "journal_problem"} at power-up and {"event": "reader", "pn532": [...]} or
    {"event": "reader", "error": TEXT} when the card reader comes or goes. Lines that are
    not JSON (the REPL, a traceback) may come too: a host passes over them.

STATE is an object with the keys below, and replaces what the host held; PART holds only
the keys whose value changed since the link last sent them (each key's value is replaced
whole), so a host that starts with {"cmd": "state"} and merges every PART into its copy
always holds the board's state (host_tools/maker/linkclient.py `merge` does it):

    phase, round, turn, final_turns, must_draw, winner   as the simulator's JSON report
    bridges {CONN: player}, control {ISLAND: player}, supply, scores {player: n},
    round_scores [{white, black}], discard (cards in the pile), drawable (cards left)
    hand_sizes   {"white": n, "black": n}
    hands        {"white": [card...], "black": [...]}, only while revealed
    revealed     true when a host asked for the hands (a screen should say so)
    settings     {"variant", "first", "handicap"} of the game in force, and "ai" (the
                 side the board plays) in a solo game
    ui           the referee's open move: {"options": [[kind, CONN]...] (kind place,
                 remove, handicap or refill), "sel": index of the highlighted option,
                 "pending": [ISLAND...] of the cards waiting to be played, "picked": CONN
                 or null (an opponent bridge waiting for its second card), "discarding",
                 "refill": CONN or null, "handicap_left": n, "undo": true when back
                 takes back an action of this turn}
    leds         the LED frame at the event: 6 hex digits (RRGGBB) per LED, in chain order

Privacy: the table keeps its secrets. Unless a host sent {"cmd": "reveal", "on": true},
nothing the board sends names a card of a hand, a drawn card or a discarded one: the state
has hand sizes, not hands; a refusal names no card ("this card is not among the drawable
cards" in the deal, the draw and discard mode, where even its island stays hidden; "HUNA
card allows no bridge" in the play phase, where the LEDs show the island anyway); the
pending cards of a play are given as their islands. The reveal lasts until it is turned
off, a new game starts (from the link or the board's buttons) or the board restarts, and
every state says whether it is on; a host that turned it on turns it off when it leaves.

Archived games are sent whole, hands included, whatever the reveal: the journal archives
a game only when the next one starts, dealt from the shuffled deck again, so an archived
game is no longer in play and its cards tell nothing of the game that is. What a host
shows of them is its choice (host_tools/web/replay.py: both hands once the game was
played to its end, hand sizes only for an abandoned one unless revealed).
"""

import json
from binascii import b2a_base64, hexlify

from kahuna import outcome as oc
from kahuna import rules
from kahuna.board import ROLES
from kahuna.cards import RegistryError, parse_uid

MAX_LINE = 1024  # bytes; a longer line is refused whole
ARCHIVE_PIECE = 480  # bytes of an archived game per line: 640 in base64, a line < 1024
READ_MAX = 2 * MAX_LINE  # bytes read in one go, so a flood cannot hold the other tasks
FIELDS = ("phase", "round", "turn", "final_turns", "must_draw", "winner", "bridges",
          "control", "supply", "scores", "round_scores", "discard", "drawable",
          "hand_sizes", "hands", "revealed", "settings", "ui", "leds")
_UNSENT = object()


class LinkError(ValueError):
    pass


def without_cards(message, card_names, private):
    """`message` naming no card of a hand: "this card" where even the island must stay
    hidden (`private`: the deal, a draw, a discard), else the island the LEDs show
    ("HUNA card")."""
    for name in card_names:
        if name in message:
            message = message.replace(name, "this card" if private
                                      else name[:name.index("-")] + " card")
    return message


def read_waiting(stream, poller, feed, buf):
    """Feed every byte waiting on `stream` (at most len(buf)) without blocking; returns
    how many. MicroPython's USB stdin on the rp2 port blocks in read(n) until n bytes
    came and cannot say how many wait, so the bytes are taken one at a time while
    `poller` (a select.poll with `stream` registered for POLLIN) says one is there."""
    one = bytearray(1)
    n = 0
    most = len(buf)
    while n < most and poller.poll(0):
        if not stream.readinto(one):
            break
        buf[n] = one[0]
        n += 1
    if n:
        feed(memoryview(buf)[:n])
    return n


class StateView:
    """The board's state as the link reports it (see the module's docstring), built from
    the app; `known` remembers what the host was sent, so that `state(only_changed=True)`
    gives only what changed. The terminal play draws from it too (revealed)."""

    def __init__(self, app, reveal=False):
        self.app = app
        self.reveal = reveal
        self.known = {}  # field -> the raw value the host was last sent

    def _raws(self):
        """Every field (in FIELDS order) as cheap to compare as can be, not yet in its
        JSON form: one pass, as this runs after every event."""
        app = self.app
        g = app.game
        r = app.referee
        white = len(g.hand("white"))
        black = len(g.hand("black"))
        hands = (tuple(g.hand("white")), tuple(g.hand("black"))) if self.reveal else None
        return (g.phase, g.round, rules.PLAYERS[g.turn], g.final_turns, g.must_draw,
                g.winner, tuple(g.bridges), tuple(g.control), (g.supply[0], g.supply[1]),
                (g.scores[0], g.scores[1]), len(g.round_scores), g.discard_count(),
                g.drawable_count(), (white, black), hands, self.reveal, app.settings,
                (tuple(r.options), r.sel, tuple(r.pending), r.picked, r.discarding,
                 g.refill, g.handicap_left, len(g.history) > 0),
                bytes(app.view.frame))

    def _value(self, name, raw):
        """A field's JSON value from its raw form."""
        board = self.app.board
        if name == "bridges" or name == "control":
            names = board.connections if name == "bridges" else board.islands
            return dict((names[k], rules.PLAYERS[o]) for k, o in enumerate(raw)
                        if o != rules.NOBODY)
        if name == "supply" or name == "scores" or name == "hand_sizes":
            return {"white": raw[0], "black": raw[1]}
        if name == "round_scores":
            return [{"white": w, "black": b} for w, b in self.app.game.round_scores]
        if name == "hands":
            return {"white": list(raw[0]), "black": list(raw[1])}
        if name == "settings":
            return rules.check_settings(raw)  # the defaults filled in
        if name == "ui":
            options, sel, pending, picked, discarding, refill, left, undo = raw
            conns = board.connections
            return {"options": [[kind, conns[k]] for kind, k in options], "sel": sel,
                    "pending": [board.islands[c // 2] for c in pending],
                    "picked": conns[picked] if picked != rules.NOBODY else None,
                    "discarding": discarding,
                    "refill": conns[refill] if refill != rules.NOBODY else None,
                    "handicap_left": left, "undo": undo}
        if name == "leds":
            return hexlify(raw).decode()
        return raw

    def state(self, only_changed=False):
        """The state (see the module's docstring), or the part of it the host was not
        sent yet; either way the host knows it all afterwards."""
        out = {}
        known = self.known
        raws = self._raws()
        for i in range(len(FIELDS)):
            name = FIELDS[i]
            raw = raws[i]
            if only_changed and known.get(name, _UNSENT) == raw:
                continue
            known[name] = raw
            if raw is not None or name != "hands":  # no hands key unless revealed
                out[name] = self._value(name, raw)
        return out


class Link:
    """Feeds bytes from the serial port, answers through `write(text)` (one line each).

    `app` is the `kahuna.app.App`; `now()` gives the clock in ms; `selftest()` (optional)
    returns the self-test report; `save_cards()` (optional) persists the registry;
    `bench` (optional) is a kahuna.loopstats.LoopStats, for {"cmd": "bench"}."""

    def __init__(self, app, write, now, selftest=None, save_cards=None, bench=None):
        self.app = app
        self.write = write
        self.now = now
        self.selftest = selftest
        self.save_cards = save_cards
        self.bench = bench
        self.buf = bytearray()
        self.overflow = False
        self.view = StateView(app)
        self.readbuf = bytearray(READ_MAX)
        app.prompters.append(self.on_prompt)

    def on_prompt(self, text):
        """A solo game's step changed: what the board asks of the player, as one line."""
        solo = self.app.solo
        step = solo.step()[0] if solo is not None else None
        self.send({"event": "ai", "step": step, "say": text})

    def on_event(self, outcome):
        """After every event, whatever its source (scanner, button or this link): its
        kahuna.outcome.Outcome as one line. The app calls it (app.listen)."""
        if outcome.kind == oc.NEW_GAME:
            self.view.reveal = False  # a new game's hands are secret again
        self.event(outcome.kind, outcome.code, outcome.message, outcome.private)

    def event(self, kind, code, message, private):
        """One referee event as one line: its kind, the refusal's code and message (no
        card named when `private`), and the part of the state that changed."""
        msg = {"event": kind}
        if code is not None:
            msg["code"] = code
        if message is not None:
            msg["message"] = (message if self.view.reveal else
                              without_cards(message, self.app.game.card_names, private))
        msg["changed"] = self.view.state(only_changed=True)
        self.send(msg)

    def read_waiting(self, stream, poller):
        """The serial task's read: every byte waiting on `stream`, without blocking."""
        return read_waiting(stream, poller, self.feed, self.readbuf)

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

    def cmd_state(self, msg):
        self.send({"event": "state", "state": self.view.state()})
        if self.app.solo is not None:  # a host that comes mid-game learns the step too
            self.on_prompt(self.app.solo.say())

    def cmd_reveal(self, msg):
        on = msg.get("on")
        if not isinstance(on, bool):
            raise LinkError("reveal needs \"on\": true or false")
        self.view.reveal = on
        self.send({"event": "state", "state": self.view.state()})

    def cmd_new(self, msg):
        try:
            settings = rules.check_settings(msg.get("settings", {}))
        except ValueError as e:
            raise LinkError(str(e)) from None
        self.app.new_game(settings)
        self.app.show(self.now())
        self.view.reveal = False  # a new game's hands are secret again
        self.send({"event": "new", "state": self.view.state()})

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

    def cmd_bench(self, msg):
        if self.bench is None:
            raise LinkError("this board keeps no loop statistics")
        self.send(self.bench.report())
        if msg.get("reset") is True:
            self.bench.reset()

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

    def cmd_archive(self, msg):
        """{}: list the archived games; {"slot": N, "offset": K}: one piece of one, read
        from the flash into one small buffer (see the module's docstring)."""
        journal = self.app.journal
        if journal is None:
            raise LinkError("this board keeps no journal")
        slot = msg.get("slot")
        if slot is None:
            games = journal.archived()
            for s, game_no, settings in games:
                self.send({"event": "archived", "slot": s, "game": game_no,
                           "settings": settings})
            self.send({"event": "archive", "count": len(games)})
            return
        offset = msg.get("offset", 0)
        if type(slot) is not int or not 0 <= slot < journal.keep:
            raise LinkError("slot must be 0 to %d" % (journal.keep - 1))
        if type(offset) is not int or offset < 0:
            raise LinkError("offset must be a whole number of bytes")
        try:
            data = journal.read_archived(slot, offset, ARCHIVE_PIECE)
        except OSError:
            raise LinkError("no archived game in slot %d" % slot) from None
        self.send({"event": "archive-part", "slot": slot, "offset": offset,
                   "data": b2a_base64(data).decode().strip(),
                   "end": len(data) < ARCHIVE_PIECE})
