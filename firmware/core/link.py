"""The link's protocol: JSON lines between the board and a host. The framing is
core.linkframe's, over any byte stream (today USB serial); the game's part of the state is
the game's (`game_def.public_state`; Kahuna's below).

Channels: a link is made for a channel, which allows some commands only (CHANNELS): "usb"
(the board's own port) takes every command; "remote" (another table, through a broker)
only state, tap, press and pick. Any other command gets {"error": "CMD is not allowed on
the remote link"} and changes nothing.

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
    {"event": KIND, "game": G, "seq": N, "changed": PART}
                                                 after every event, whatever its source
                                                 (scanner, buttons or this link); KIND is
                                                 the outcome: "accepted", "round-end",
                                                 "game-over", "new-game", "menu" (more may
                                                 come). G is the game's number on this
                                                 board (a new game, a new number) and N how
                                                 many actions it has applied: both survive
                                                 a power cut (the journal keeps them), and a
                                                 refusal keeps N
    {"event": "refused", "game": G, "seq": N, "code": CODE, "places": [PLACE...],
     "message": TEXT, "changed": PART}
                                                 CODE as the simulator's rejection codes;
                                                 "places" the places the refusal flashes,
                                                 by name (left out when there are none, and
                                                 always for a private refusal: the deal,
                                                 a draw, a discard)
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
                                                 at most 480 bytes (ARCHIVE_PIECE, core.
                                                 linkhost) of the game's journal file
                                                 from byte K; "end" once the
                                                 file ends in it. A host asks for piece
                                                 after piece (K += bytes got), so the board
                                                 never holds a file nor floods the port.
    {"event": "ai", "step": STEP, "say": TEXT}   a solo game (settings "ai"): what the board
                                                 asks of the player now, whenever it
                                                 changes (games.kahuna.solo: STEP display, deal,
                                                 think, tap, confirm, discard, take, draw,
                                                 or null and "" on the player's own turn);
                                                 it names no card of the AI's stack; a
                                                 solo game's answer to state has it too
    {"event": "bench", "tasks": [...], "reader", "frame_out_ms", "ai", "heap", ...}
                                                 the loop statistics (core.loopstats: what
                                                 each figure is); it changes no game state
    {"error": TEXT}                              a line that is malformed, too long or not
                                                 understood: it changed nothing
    main.py adds {"event": "boot", "firmware", "pn532", "reader_error", "leds", "cards",
    "resumed", "journal_problem", "cards_problem"} at power-up and {"event": "reader",
    "pn532": [...]} or {"event": "reader", "error": TEXT} when the card reader comes or
    goes. Lines that are not JSON (the REPL, a traceback) may come too: a host passes over.

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
    menu         the platform's own field: the buttons' settings menu while it is open,
                 {"item": KEY, "settings": {...}, "asking": bool}, else null

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
shows of them is its choice (host_tools/games/kahuna/replay.py: both hands once the game was
played to its end, hand sizes only for an abandoned one unless revealed).
"""

# Card values (core.cards; Halunken's crew cards, H2), kept out of the docstring above,
# whose text MicroPython holds whole while it compiles this module:
#   {"cmd": "enroll", "card": "RED-3", "value": 5} (or with "uid"): a card that carries a
#   value (the game's card_value_range) is enrolled with it, and refused without it or
#   with one out of range; "enrolled" then says "value"; a card without one takes none.
#   {"cmd": "cards", "set": {UID: [CARD, value], ...}}: an entry may carry a value, and
#   the "cards" event adds "values": {CARD: value} when any tag has one.
# A held button (kept out of the docstring too):
#   {"cmd": "press", "button": "back", "hold": true}: the button held down, its hold action
#   (board_def inputs.hold; Kahuna's: back takes back whole turns, games.kahuna.takeback;
#   ok opens the menu; done starts a new game once over); the usb channel only.
#   {"event": "ai", "step": "takeback", "say": TEXT}: a takeback asked for or walked
#   through, in two-player games too; TEXT names no hidden card. Kahuna's state "ui" has
#   "takeback": null, or {"asking": bool (two players: waiting for ok), "say": TEXT}.
# The game in play's moves (a game record of a running game, issue 15), for a game whose
# part has public_move (Kahuna's hides the deal, the draws and the discards):
#   {"cmd": "moves", "from": K} -> {"event": "moves", "game": G, "from": K, "next": K2,
#   "moves": [RECORD...], "end": bool}: the journal's records K to K2 - 1 (at most
#   core.linkhost's MOVES_PIECE) as public_move gives them, those it keeps back left out;
#   a host asks from K2 until "end". The game's part refuses nothing over: a finished
#   game's go whole.
# A remote game (Kahuna's settings "remote": the seat played at another table; the module
# games.kahuna.remote says all): {"cmd": "remote", "seq": N, "actor": SEAT | null,
#   "action": [...], "card": CARD} feeds the dealer's event N; the board answers with its
#   news line {"event": "remote", "fed", "moves", "want", "say"} whenever it changes. It
#   names this table's own cards (its discards, the card to take): its host sends them to
#   the dealer. {"error"} for an event that does not fit, and nothing changes.

import json

from core import outcome as oc
from core.board import ROLES
from core.cards import RegistryError, parse_uid
from core.linkframe import MAX_LINE, Lines
from core.unload import unload

_UNSENT = object()

# The commands each channel may send (an allow-list): the board's own USB port may do
# everything; a remote table (another board or a page, through a broker) only plays.
CHANNELS = {
    "usb": ("state", "reveal", "new", "tap", "press", "pick", "selftest", "cards", "enroll",
            "archive", "moves", "bench", "remote"),
    "remote": ("state", "tap", "press", "pick", "remote"),
}
# A host's commands whose code (core.linkhost) is loaded for each and given back after it.
HOST = ("cards", "enroll", "archive", "moves")
HOST_MOVED = 4096  # counted in `Link.moved` for one: its code, loaded and let go, is garbage


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


class StateView:
    """The board's state as the link reports it (see the module's docstring): the game's
    public fields (`app.game_def.public_state`: FIELDS, `raws`, `value`) and the
    platform's own (`menu`); `known` remembers what the host was sent (a list: each field's
    raw value in FIELDS' order, then the menu's; a dict's table took about 0.2 KB more on
    the Pico, issue 20), so that
    `state(only_changed=True)` gives only what changed. The terminal play draws from it
    too (revealed)."""

    def __init__(self, app, reveal=False):
        self.app = app
        self.reveal = reveal
        self.known = None  # the raw values the host was last sent (made at the first state)

    def state(self, only_changed=False):
        """The state (see the module's docstring), or the part of it the host was not
        sent yet; either way the host knows it all afterwards."""
        out = {}
        app = self.app
        public = app.game_def.public_state
        fields = public.FIELDS
        n = len(fields)
        known = self.known
        if known is None:
            known = self.known = [_UNSENT] * (n + 1)
        raws = public.raws(app, self.reveal)
        for i in range(n):
            name = fields[i]
            raw = raws[i]
            if only_changed and known[i] == raw:
                continue
            known[i] = raw
            if raw is not None or name not in public.HIDDEN:  # no hands unless revealed
                out[name] = public.value(app, name, raw)
        menu = app.menu
        raw = None if menu is None else (menu.item, tuple(menu.choice), menu.asking)
        if not only_changed or known[n] != raw:
            known[n] = raw
            out["menu"] = app.menu_state()
        return out


class Link:
    """The protocol: commands in, events out, through `write(text)` (one line each), over
    the framing of core.linkframe (`feed` bytes as they arrive).

    `app` is the `core.app.App`; `now()` gives the clock in ms; `selftest()` (optional)
    returns the self-test report; `save_cards()` (optional) persists the registry;
    `bench` (optional) is a core.loopstats.LoopStats, for {"cmd": "bench"}; `channel` (a
    key of CHANNELS) says which commands this link takes."""

    def __init__(self, app, write, now, selftest=None, save_cards=None, bench=None,
                 channel="usb"):
        if channel not in CHANNELS:
            raise ValueError("unknown channel %r" % (channel,))
        self.app = app
        self.write = write
        self.now = now
        self.selftest = selftest
        self.save_cards = save_cards
        self.bench = bench
        self.channel = channel
        self.allowed = CHANNELS[channel]
        self.lines = Lines(self.line, self._too_long)
        # bytes in and out (a host command's loaded code counted as HOST_MOVED), for the
        # serial task: it looks at the heap once they add up (main.py, LINK_GC_BYTES)
        self.moved = 0
        self.view = StateView(app)
        app.prompters.append(self.on_prompt)

    def on_prompt(self, text):
        """A solo game's step changed, or a takeback's: what the board asks of the
        player(s), as one line (a remote seat's news line instead, games.kahuna.remote)."""
        solo = self.app.solo
        if hasattr(solo, "news"):
            self.news()
            return
        step = solo.step()[0] if solo is not None else None
        busy = getattr(self.app.referee, "taking_back", None)
        if text and busy is not None and busy():
            step = "takeback"
        self.send({"event": "ai", "step": step, "say": text})

    def on_event(self, outcome):
        """After every event, whatever its source (scanner, button or this link): its
        core.outcome.Outcome as one line. The app calls it (app.listen)."""
        if outcome.kind == oc.NEW_GAME:
            self.view.reveal = False  # a new game's hands are secret again
        self.event(outcome)

    def event(self, outcome):
        """One event as one line: its kind, the game and the event's number in it, a
        refusal's code, the places it is about (its flash: none when the outcome is
        private) and its message (naming no card of a hand), and the part of the state
        that changed."""
        app = self.app
        msg = {"event": outcome.kind, "game": app.game_no(), "seq": app.seq}
        if outcome.code is not None:
            msg["code"] = outcome.code
        if outcome.places and not outcome.private:
            msg["places"] = app.game_def.place_names(app.board, outcome.places)
        if outcome.message is not None:
            msg["message"] = (outcome.message if self.view.reveal else
                              without_cards(outcome.message, app.registry.card_names,
                                            outcome.private))
        msg["changed"] = self.view.state(only_changed=True)
        self.send(msg)
        self.news()

    def news(self, force=False):
        """A remote seat's news line ({"event": "remote", ...}) when it changed."""
        news = getattr(self.app.solo, "news", None)
        line = news(force) if news is not None else None
        if line is not None:
            self.send(line)

    # ------------------------------------------------------------ framing

    def feed(self, data):
        """Bytes as they arrive (core.linkframe.Lines): every complete line is handled."""
        self.moved += len(data)
        self.lines.feed(data)

    def read_waiting(self, stream, poller):
        """The serial task's read: every byte waiting on `stream`, without blocking; how
        many."""
        n = self.lines.read_waiting(stream, poller)
        self.moved += n
        return n

    def _too_long(self):
        self.send({"error": "line longer than %d bytes, ignored" % MAX_LINE})

    def send(self, obj):
        line = json.dumps(obj) + "\n"
        self.moved += len(line)
        self.write(line)

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
        cmd = msg["cmd"]
        handler = getattr(self, "cmd_" + cmd, None)
        if handler is None and cmd not in HOST:
            self.send({"error": "unknown command %r" % (cmd,)})
            return
        if cmd not in self.allowed:
            self.send({"error": "%s is not allowed on the %s link" % (cmd, self.channel)})
            return
        try:
            if handler is not None:
                handler(msg)
            else:
                self._host(cmd, msg)
        except (LinkError, RegistryError) as e:
            self.send({"error": str(e)})

    def _host(self, cmd, msg):
        """A host's command (HOST): its code loaded for it, and given back to the heap
        after it (core.unload), so a board in play keeps none of it (nor of the journal's
        reading, core.journalread, which it loads: its globals kept, as Journal's own)."""
        from core import linkhost
        self.moved += HOST_MOVED
        try:
            getattr(linkhost, cmd)(self, msg)
        finally:
            unload(("core.linkhost",))
            unload(("core.journalread",), clear=False)

    # ------------------------------------------------------------ commands

    def cmd_state(self, msg):
        self.send({"event": "state", "state": self.view.state()})
        busy = getattr(self.app.referee, "taking_back", None)
        if busy is not None and busy():  # a host that comes mid-walk learns the step
            self.on_prompt(self.app.referee.say())
        elif hasattr(self.app.solo, "news"):
            self.news(True)
        elif self.app.solo is not None:  # a host that comes mid-game learns the step too
            self.on_prompt(self.app.solo.say())

    def cmd_reveal(self, msg):
        on = msg.get("on")
        if not isinstance(on, bool):
            raise LinkError("reveal needs \"on\": true or false")
        self.view.reveal = on
        self.send({"event": "state", "state": self.view.state()})

    def cmd_new(self, msg):
        try:
            settings = self.app.game_def.check_settings(msg.get("settings", {}))
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
            # A game's state may index its cards (Kahuna); else the registry's names.
            known = getattr(self.app.game, "card_index", None)
            if card not in (self.app.registry.card_names if known is None else known):
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
        hold = msg.get("hold", False)
        if hold is not False:
            if hold is not True:
                raise LinkError("hold must be true or false")
            if self.channel != "usb":
                raise LinkError("a held button is the board's own table's")
            action = self.app.board.inputs.get("hold", {}).get(button)
            if action is None:
                raise LinkError("%s has no hold action on this board" % (button,))
            button = action
        self.app.press(button, self.now())

    def cmd_pick(self, msg):
        conn = msg.get("conn")
        # A board of connections checks the name here (Kahuna); other games' controllers
        # refuse what they do not offer (Halunken: `not-offered`).
        names = getattr(self.app.board, "conn_index", None)
        if not isinstance(conn, str) or (names is not None and conn not in names):
            raise LinkError("unknown connection %r" % (conn,))
        self.app.pick(conn, self.now())

    def cmd_remote(self, msg):
        """The dealer's event for a game with a seat at another table (see the remote
        seat's news below): applied, or {"error"} and nothing changed."""
        try:
            out = self.app.remote(msg, self.now())
        except ValueError as e:
            raise LinkError(str(e)) from None
        if out is None:  # taken already: its news again
            self.news(True)

    def cmd_selftest(self, msg):
        report = self.selftest() if self.selftest else {}
        report["event"] = "selftest"
        report["leds"] = self.app.board.led_count
        self.send(report)

    def cmd_bench(self, msg):
        if self.bench is None:
            raise LinkError("this board keeps no loop statistics")
        heap = self.bench.heap_now()  # before the report's code is loaded: the board's own
        from core import benchreport  # loaded for the answer, given back after it
        try:
            self.send(benchreport.report(self.bench, heap))
        finally:
            unload(("core.benchreport",))
        if msg.get("reset") is True:
            self.bench.reset()
