"""Crew values recorded with the tags (H2) through the platform: core.app.App with a
journal and the registry on a virtual flash, the serial link (core.link) and the enroller
(core.enroll) writing emulated NTAG213 tags. A crew card is enrolled with its value, a
table deal (H33) scores it, a power cut resumes with the same values; a dealt deck plays
the default table; a registry written before values loads and means the same; corrupt or
missing values are refused with a reason. Run as a script on CPython or the MicroPython
unix port (tests/games/halunken/test_halunken_enrolled.py): one JSON line per check, the
same on both.
"""

import json

import conformance
from core import gameload, ndef
from core.app import App
from core.cards import Registry, RegistryError
from core.enroll import Enroller
from core.journal import Journal
from core.link import Link
from games.halunken import deck
from host_tools.fakehw.flash import VirtualFlash

G = gameload.load("halunken")
BOARD = conformance.board_for("halunken")
NAMES = G.card_names(BOARD)
RANGE = G.card_value_range
CARDS = "/cards.json"
NTAG213 = b"\x00\x04\x04\x02\x01\x00\x0f\x03"


class Strip:
    def show(self, frame):
        pass


class Tag:
    """An NTAG213's user memory as the reader driver reaches it (the enroller's `tagio`);
    `keep` pages are written, the rest lost (a tag torn away mid-write)."""

    def __init__(self, n, keep=99):
        self.uid = bytes((0x04, 0x51, n, 0x22, 0x33, 0x44, 0x80 + n))
        self.mem = bytearray(144)
        self.keep = keep

    def ntag_get_version(self):
        return NTAG213

    def ntag_write(self, page, data):
        if page - 4 < self.keep:
            i = 4 * (page - 4)
            self.mem[i:i + 4] = data

    def ntag_read(self, page):
        i = 4 * (page - 4)
        return bytes(self.mem[i:i + 16])


class Rig:
    """A board: App, link, enroller; the tag on the reader is `rig.tag`."""

    def __init__(self, flash, settings):
        self.flash = flash
        self.registry = Registry.load(NAMES, CARDS, RANGE, flash)
        self.tag = None
        self.app = App(G, BOARD, self.registry, Strip(), settings,
                       journal=Journal("/game.jnl", flash))
        self.lines = []
        self.link = Link(self.app, self.lines.append, lambda: 0,
                         save_cards=lambda: self.registry.save(CARDS, flash))
        self.app.listen(self.link.on_event)
        self.app.make_enroller = lambda: Enroller(
            self.registry, lambda: self.registry.save(CARDS, flash), self, self.link.send,
            G.TITLE)

    # The reader driver's part: the tag laid on the reader answers.
    def ntag_get_version(self):
        return self.tag.ntag_get_version()

    def ntag_write(self, page, data):
        self.tag.ntag_write(page, data)

    def ntag_read(self, page):
        return self.tag.ntag_read(page)

    def send(self, msg):
        """One command; the board's answers (events only, as JSON values)."""
        del self.lines[:]
        self.link.feed((json.dumps(msg) + "\n").encode())
        return [json.loads(x) for x in self.lines]

    def lay(self, tag):
        """A tag laid on the reader and taken away; the board's answers."""
        del self.lines[:]
        self.tag = tag
        self.app.poll(tag.uid, 0)
        self.app.poll(None, 0)
        return [json.loads(x) for x in self.lines if '"event": "enroll' in x
                or '"enrolled"' in x]

    def stored(self):
        with self.flash.open(CARDS) as f:
            return json.loads(f.read())


def say(check, value):
    print(json.dumps([check, value]))


def reason(fn):
    """The refusal's text of a call that must refuse (RegistryError or ValueError)."""
    try:
        fn()
    except (RegistryError, ValueError) as e:
        return str(e)
    return "accepted"


def set_up(app, seats):
    """Each seat places (pick) and taps the tag it took (H33): [(space, tag)]."""
    for space, tag in seats:
        app.pick(space, 0)
        app.tap_uid(tag.uid, 0)


def enrol_and_play():
    flash = VirtualFlash()
    rig = Rig(flash, {"players": 3, "mode": "beginner", "deal": "table"})
    red1, grey2, yellow11, red1_again = Tag(1), Tag(2), Tag(3), Tag(4)
    # H2: a crew card is enrolled with its value; the tag's text carries it.
    say("missing-value", rig.send({"cmd": "enroll", "card": "RED-1"}))
    say("bad-value", rig.send({"cmd": "enroll", "card": "RED-1", "value": 100}))
    say("bool-value", rig.send({"cmd": "enroll", "card": "RED-1", "value": True}))
    say("text-value", rig.send({"cmd": "enroll", "card": "RED-1", "value": "12"}))
    say("move-value", rig.send({"cmd": "enroll", "card": "P1-3", "value": 3}))
    say("wait", rig.send({"cmd": "enroll", "card": "RED-1", "value": 12}))
    # A refused request meanwhile leaves RED-1 (and its value) waiting for its tag.
    say("refused-meanwhile", rig.send({"cmd": "enroll", "card": "GREY-3"}))
    say("torn", rig.lay(Tag(9, keep=10)))  # the last pages never written: refused
    say("enrolled", rig.lay(red1))
    say("text", ndef.parse_ndef_text(bytes(red1.mem)))
    rig.send({"cmd": "enroll", "card": "GREY-2", "value": 0})
    rig.lay(grey2)
    rig.send({"cmd": "enroll", "card": "YELLOW-11", "uid": "04513322334489"})
    rig.send({"cmd": "enroll", "card": "YELLOW-11", "uid": "04513322334489", "value": 11})
    yellow11.uid = bytes.fromhex("04513322334489")
    rig.send({"cmd": "enroll", "card": "P1-3"})  # a movement card: its name alone
    rig.lay(Tag(5))
    say("cards", rig.send({"cmd": "cards"}))
    say("stored", rig.stored())
    # A table deal (H33) plays the enrolled values: RED-1 12, GREY-2 0.
    rig.send({"cmd": "new", "settings": {"players": 3, "mode": "beginner", "deal": "table"}})
    g = rig.app.game
    say("values", [g.values[deck.crew_card(n)] for n in ("RED-1", "GREY-2", "RED-2")])
    set_up(rig.app, [("T1", red1), ("T3", yellow11), ("T6", grey2)])
    say("scores", [g.score(s) for s in range(3)])
    say("ranks", [g.low, g.high])  # H18 ranks by the recorded value
    # A power cut; meanwhile RED-1's tag is lost and a new one enrolled worth 3. The
    # resumed game plays the values it started with (the journal's), the next game the new.
    rig.send({"cmd": "enroll", "card": "RED-1", "value": 3})
    say("re-enrolled", [m["event"] for m in rig.lay(red1_again)])
    booted = Rig(flash, {"players": 3})
    g = booted.app.game
    say("resumed", [g.values[deck.crew_card("RED-1")], [g.score(s) for s in range(3)],
                    booted.registry.values["RED-1"]])
    booted.send({"cmd": "new", "settings": {"players": 3, "deal": "table"}})
    say("next-game", booted.app.game.values[deck.crew_card("RED-1")])
    # A dealt deck is virtual: the default table (or the settings' own `values`).
    booted.send({"cmd": "new", "settings": {"players": 3, "seed": 4}})
    say("seeded", booted.app.game.values[deck.crew_card("RED-1")])
    booted.send({"cmd": "new", "settings": {"players": 3, "seed": 4,
                                            "values": {"RED-1": 7}}})
    say("seeded-set", booted.app.game.values[deck.crew_card("RED-1")])


OLD = ('{"04A224B2C35E80": "RED-1", "04A224B2C35E81": "P1-3", '
       '"04A224B2C35E82": "YELLOW-12"}')


def old_registry():
    """A registry written before values (names only) loads, records no value and is
    written back byte for byte; the table deal then plays the settings' values over the
    default, as before."""
    flash = VirtualFlash()
    with flash.open(CARDS, "w") as f:
        f.write(OLD)
    rig = Rig(flash, {"players": 3, "deal": "table", "values": {"YELLOW-12": 40}})
    reg = rig.registry
    say("old-loads", [reg.card_for("04A224B2C35E80"), reg.values, reg.missing()[:2]])
    say("old-same-bytes", reg.to_json() == OLD)
    g = rig.app.game
    say("old-values", [g.values[deck.crew_card(n)] for n in ("RED-1", "YELLOW-12")])
    say("old-settings", rig.app.settings)


def corrupt():
    """Corrupt values in a stored registry or a `cards set`: refused, never a traceback."""
    uid = "04A224B2C35E80"
    for entry in (["RED-1", 100], ["RED-1", -1], ["RED-1", "5"], ["RED-1", True],
                  ["RED-1", None], ["RED-1"], ["RED-1", 5, 6], ["P1-3", 2], [5, 5]):
        flash = VirtualFlash()
        with flash.open(CARDS, "w") as f:
            f.write(json.dumps({uid: entry}))
        say("corrupt-file", reason(lambda f=flash: Registry.load(NAMES, CARDS, RANGE, f)))
    rig = Rig(VirtualFlash(), {"players": 3})
    rig.send({"cmd": "cards", "set": {uid: ["RED-1", 5]}})
    say("set-bad", rig.send({"cmd": "cards", "set": {uid: ["RED-1", 500],
                                                    "04A224B2C35E81": "RED-2"}}))
    say("set-kept", [rig.registry.by_uid, rig.registry.values])
    # A game without values (Kahuna's registry, no range) refuses a value for any card.
    say("no-range", reason(lambda: Registry(["HUNA-1"], {uid: ["HUNA-1", 3]})))


def main():
    enrol_and_play()
    old_registry()
    corrupt()


main()
