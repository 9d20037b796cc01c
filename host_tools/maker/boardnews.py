"""The board's news: what it sends over the serial link (firmware/core/link.py), kept as
one state by `linkclient.Tracker` and said in words, one message per event (the game's
`narrate` part for what an event changed). The terminal monitor (maker/monitor.py) draws
it; the live page (web/live.py) sends it to the browsers. Nothing the board sends can
raise here: what does not parse is device output or "something unexpected"."""

import json

from core import gameload
from host_tools import games as hostgames
from host_tools.maker.linkclient import Tracker

ASK_S = 1.0  # ask again for the state this often until the board answers (it may boot)


def card_names(board):
    """The names of the board's game's cards (what `tap` and `enroll` take)."""
    return gameload.load(board.game).card_names(board)


class BoardNews:
    """The board's lines as one state (linkclient.Tracker) and its latest news in words
    (`message`, `style`, `panel`): what the terminal monitor and the live page both show."""

    def __init__(self, board):
        self.board = board
        self.text = hostgames.part(board.game, "textboard")
        self.narrate = hostgames.part(board.game, "narrate")
        self.tracker = Tracker(keep_device=3)  # what the board told: this is a view of it
        self.message = "waiting for the board..."
        self.style = None
        self.panel = []  # lines of the last answer that is not the game (cards, selftest)
        self.names = card_names(board)

    def settings_text(self, settings):
        return self.text.settings_text(settings) if settings else "?"

    @property
    def state(self):
        return self.tracker.state

    @property
    def device(self):
        return self.tracker.device

    @property
    def ask_state(self):
        """The board restarted, a line went missing, or a part came with no state."""
        return self.tracker.ask_state

    @ask_state.setter
    def ask_state(self, value):
        self.tracker.ask_state = value

    @property
    def refusal(self):
        """The last refusal as one line: "CODE: message"."""
        r = self.tracker.refusal
        return None if r is None else "%s: %s" % (r["code"], r["message"])

    def say(self, message, style=None):
        self.message = message
        self.style = style

    def line(self, raw):
        """One line from the board; returns True when the picture should be redrawn."""
        text = raw.decode("utf-8", "replace").strip() if isinstance(raw, bytes) else raw
        if not text:
            return False
        try:
            msg = json.loads(text)
        except ValueError:
            msg = None
        if not isinstance(msg, dict):
            self.tracker.text(text[:100])
            return True
        before = self.state
        try:
            self.tracker.feed(msg)
            self.event(msg, before)
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            self.say("the board sent something unexpected: %s" % (e,), "bad")
        return True

    def event(self, msg, before):
        event = msg.get("event")
        if "error" in msg:
            self.say("board says: %s" % msg["error"], "bad")
        elif event == "refused":
            self.say("refused: " + str(self.refusal), "bad")
        elif "changed" in msg:  # accepted, round-end, game-over, new-game, ...
            self.panel = []  # the game moved on: the registry or help is out of the way
            what = self.narrate.public_changes(before, self.state) if self.state else ""
            self.say(str(event) + (": " + what if what else ""), "good")
        elif event == "boot":
            self.say("board booted: firmware %s, reader %s" % (
                msg.get("firmware"), "ok" if msg.get("pn532") else "MISSING"))
        elif event == "new":
            self.say("a new game: %s" % self.settings_text(self.state.get("settings")), "good")
        elif event == "state":
            self.say("hands revealed on this screen" if self.state.get("revealed")
                     else "the board's state (hand sizes only)")
        elif event == "cards":
            self.cards_panel(msg)
            self.say("%d cards enrolled, %d missing" % (len(msg["cards"]),
                                                         len(msg["missing"])))
        elif event == "ai":  # a solo game: what the board asks of the player now
            if msg.get("say"):
                self.say("the board asks: %s" % msg["say"], "good")
        elif event == "enroll-wait":
            self.say("lay the tag for %s on the reader (its island is lit)" % msg["card"])
        elif event == "enrolled":
            worth = " worth %d" % msg["value"] if "value" in msg else ""  # H2
            self.say("enrolled %s%s as tag %s" % (msg["card"], worth, msg["uid"]), "good")
        elif event == "enroll-refused":
            self.say("tag refused for %s: %s" % (msg.get("card"), msg.get("reason")), "bad")
        elif event == "enroll-stopped":
            self.say("enrolment stopped")
        elif event == "selftest":
            self.panel = ["selftest: " + ", ".join("%s %s" % (k, v) for k, v in
                                                   sorted(msg.items()) if k != "event")]
            self.say("selftest done")
        elif event:
            self.say(event)

    def cards_panel(self, msg):
        by_card = dict((card, uid) for uid, card in msg["cards"].items())
        cells = ["%-7s %s" % (c, by_card.get(c, "-- missing --")) for c in self.names]
        self.panel = ["Card registry:"] + ["  " + "   ".join(cells[i:i + 3])
                                           for i in range(0, len(cells), 3)]
