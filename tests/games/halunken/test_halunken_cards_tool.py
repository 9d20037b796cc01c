"""H2 at the maker's desk: `python -m host_tools cards --game halunken` enrols a crew card
with its value over a pseudo-terminal to a Halunken board (the firmware's App, link and
enroller; the emulated PN532 read by the real driver; emulated NTAG213 tags), lists and
exports the values and imports them back; a crew card without a value, a value out of
range and a value for a movement card are refused in one line before the board is asked."""

import json
import os
import subprocess
import sys
import threading
import time

import pytest

import conformance
import gamekit
from core import gameload, ndef
from core.app import READER_MS, App
from core.cards import Registry
from core.enroll import Enroller
from core.journal import Journal
from core.link import Link
from host_tools.fakehw.flash import VirtualFlash
from host_tools.fakehw.ntag213 import NTAG213
from host_tools.fakehw.reader_rig import ReaderRig
from host_tools.fakehw.strip import VirtualNeoPixel
from hw.leds import Strip

G = gameload.load("halunken")


def ntag(n):
    return NTAG213(bytes((0x04, 0x20, n, 0x22, 0x33, 0x44, 0x80 + n)))


class PtyBoard:
    """A Halunken board on a pty; `hand(card)` is the tag laid when it waits for `card`."""

    def __init__(self, hand):
        self.hand = hand
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)
        board = conformance.board_for("halunken")
        self.flash = VirtualFlash()
        self.registry = Registry(G.card_names(board), None, G.card_value_range)
        self.reader = ReaderRig()
        self.reader.reader.start(0)
        self.app = App(G, board, self.registry,
                       Strip(VirtualNeoPixel(board.led_count), board.led_count),
                       journal=Journal("/game.jnl", self.flash), reader=self.reader.reader)
        self.link = Link(self.app, self.write, lambda: self.now, save_cards=self.save)
        self.app.listen(self.link.on_event)
        self.app.make_enroller = lambda: Enroller(self.registry, self.save, self.reader.driver,
                                                  self.link.send, G.TITLE)
        self.now = 0
        self.asked = []  # the enroll-wait events
        self.stop = False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def save(self):
        self.registry.save("/cards.json", self.flash)

    def write(self, text):
        os.write(self.master, text.encode())
        msg = json.loads(text)
        if msg.get("event") == "enroll-wait":
            self.asked.append(msg["card"])
            tag = self.hand(msg["card"])
            self.reader.chip.field.place(tag)
            self.ticks(lambda: self.app.scanner.present == tag.uid)
            self.reader.remove()
            self.ticks(lambda: self.app.scanner.present is None)

    def ticks(self, done):
        for _ in range(200):
            if done():
                return
            self.now += READER_MS
            self.reader.clock.set(self.now)
            self.app.tick_reader(self.now)
        raise AssertionError("the reader never got there")

    def run(self):
        import select
        while not self.stop:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if ready:
                try:
                    data = os.read(self.master, 1024)
                except OSError:
                    return
                self.link.feed(data)

    def close(self):
        self.stop = True
        self.thread.join(2)
        os.close(self.master)
        os.close(self.slave)


def cards_tool(*args):
    return subprocess.run([sys.executable, "-m", "host_tools", "cards", "--game", "halunken"]
                          + list(args), capture_output=True, text=True, cwd=gamekit.ROOT,
                          timeout=120)


@pytest.fixture
def board():
    tags = {}
    b = PtyBoard(lambda card: tags.setdefault(card, ntag(len(tags) + 1)))
    b.tags = tags
    yield b
    b.close()


def test_H2_enrol_a_crew_card_with_its_value_list_export_import(board, tmp_path):
    proc = cards_tool("enroll", "--port", board.path, "--card", "RED-3", "--value", "5",
                      "--timeout", "20")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "RED-3 enrolled worth 5: tag 04200122334481 (NTAG213)" in proc.stdout
    assert "lay the tag for RED-3 on the reader (the board lights it)" in proc.stdout
    assert board.registry.values == {"RED-3": 5}
    text = ndef.parse_ndef_text(bytes(board.tags["RED-3"].mem[16:]))
    assert text == "Halunken & Spelunken RED-3 value 5"
    # A movement card is enrolled by its name alone.
    proc = cards_tool("enroll", "--port", board.path, "--card", "P2-RUM", "--timeout", "20")
    assert proc.returncode == 0 and "P2-RUM enrolled: tag" in proc.stdout
    listing = cards_tool("list", "--port", board.path).stdout
    assert "RED-3   04200122334481 worth 5" in listing
    assert "P2-RUM  04200222334482\n" in listing and "2 enrolled, 84 missing" in listing
    out = tmp_path / "deck.json"
    assert cards_tool("export", "--port", board.path, str(out)).returncode == 0
    assert json.loads(out.read_text()) == {"04200122334481": ["RED-3", 5],
                                           "04200222334482": "P2-RUM"}
    back = tmp_path / "back.json"
    back.write_text(json.dumps({"04200122334481": ["RED-3", 7], "04AABBCC": "RED-4"}))
    proc = cards_tool("import", "--port", board.path, str(back))
    assert proc.returncode == 0 and "2 cards imported, 84 missing" in proc.stdout
    assert board.registry.values == {"RED-3": 7}  # RED-4 imported by name: no value
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"04200122334481": ["RED-3", 100]}))
    proc = cards_tool("import", "--port", board.path, str(bad))
    assert proc.returncode == 2 and "not a card registry" in proc.stderr
    assert "whole number 0 to 99, got 100" in proc.stderr and "Traceback" not in proc.stderr
    assert board.registry.values == {"RED-3": 7}  # the broken file changed nothing


@pytest.mark.parametrize("args, words", [
    (("--card", "RED-3"), "RED-3 is enrolled with its value (the number printed on it, 0 "
                          "to 99): --card RED-3 --value N, or --values FILE"),
    (("--card", "RED-3", "--value", "100"), "whole number 0 to 99, got 100"),
    (("--card", "RED-3", "--value", "-1"), "whole number 0 to 99, got -1"),
    (("--card", "P1-3", "--value", "3"), "P1-3 carries no value"),
    (("--card", "RED-10"), "RED-10 is not a Halunken & Spelunken card"),
])
def test_H2_a_missing_or_bad_value_is_one_line_and_the_board_is_not_asked(board, args, words):
    proc = cards_tool("enroll", "--port", board.path, *args)
    assert proc.returncode == 2 and proc.stdout == ""
    assert words in proc.stderr and proc.stderr.count("\n") == 1
    time.sleep(0.1)
    assert board.asked == [] and board.registry.by_uid == {}


def test_H2_a_walk_needs_the_crew_values(board, tmp_path):
    proc = cards_tool("enroll", "--port", board.path)
    assert proc.returncode == 2 and "RED-1 is enrolled with its value" in proc.stderr
    assert board.asked == []
    values = tmp_path / "values.json"
    values.write_text(json.dumps({"RED-1": "x"}))
    proc = cards_tool("enroll", "--port", board.path, "--values", str(values))
    assert proc.returncode == 2 and "the value of RED-1 must be a whole number" in proc.stderr
    assert board.asked == []


def test_H2_a_walk_with_the_default_table_goes_on_with_the_cards_missing(board):
    names = G.card_names(None)
    for i, name in enumerate(names):  # enrolled earlier, in a run that was stopped
        if name not in ("YELLOW-12", "BJ-12"):
            value = int(name.rsplit("-", 1)[1]) if G.card_value_range(name) else None
            board.registry.enroll(name, "04%012X" % (0x1000 + i), value)
    proc = cards_tool("enroll", "--port", board.path, "--values", "default",
                      "--timeout", "20")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert board.asked == ["YELLOW-12", "BJ-12"]
    assert "YELLOW-12 enrolled worth 12" in proc.stdout and "BJ-12 enrolled: tag" in proc.stdout
    assert board.registry.missing() == [] and len(board.registry.values) == 42


def test_H2_the_monitor_enrols_a_crew_card_with_its_value():
    from host_tools.maker import boardnews, monitor
    board = conformance.board_for("halunken")
    names = boardnews.card_names(board)
    cmd = monitor.command
    assert cmd("enroll red-3 5", board, names) == {"cmd": "enroll", "card": "RED-3",
                                                   "value": 5}
    assert cmd("enroll p1-rum", board, names) == {"cmd": "enroll", "card": "P1-RUM"}
    with pytest.raises(monitor.CommandError) as e:
        cmd("enroll red-3 five", board, names)
    assert str(e.value) == "RED-3's value is a whole number, got five"
    news = boardnews.BoardNews.__new__(boardnews.BoardNews)
    said = []
    news.say = lambda text, *kind: said.append(text)
    news.event({"event": "enrolled", "card": "RED-3", "uid": "04AA", "value": 5}, None)
    assert said == ["enrolled RED-3 worth 5 as tag 04AA"]
