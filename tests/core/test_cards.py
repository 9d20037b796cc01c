"""Card enrollment end to end: the `cards` tool talks over a pseudo-terminal to a board
(the firmware's App, link and enroller) whose reader is the emulated PN532 read by the real
driver; a person lays emulated NTAG213 tags on it when the board asks."""

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

import gamekit
from core import board as boardmod
from core import gameload, ndef
from core.app import READER_MS, App
from core.cards import Registry
from core.enroll import Enroller
from core.journal import Journal
from core.link import Link
from host_tools.fakehw.flash import VirtualFlash
from host_tools.fakehw.ntag213 import NTAG213, ISO14443ATag
from host_tools.fakehw.reader_rig import ReaderRig
from host_tools.fakehw.strip import VirtualNeoPixel
from host_tools.maker.cards import Deck
from hw.leds import Strip

NAMES = ["%s-%d" % (i, n) for i in gamekit.board().islands for n in (1, 2)]


def ntag(n):
    return NTAG213(bytes((0x04, 0x10, n, 0x22, 0x33, 0x44, 0x80 + n)))


class PtyBoard:
    """A board on a pty. `hand(card, attempt)` gives the tag a person lays down when the
    board waits for `card` (None: nobody comes)."""

    def __init__(self, hand, deaf=0.0, board_def=None):
        self.hand = hand
        self.deaf_until = time.time() + deaf  # still booting: what it is sent is lost
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)
        board = gamekit.board() if board_def is None else boardmod.load(board_def,
                                                                          keep_raw=False)
        self.flash = VirtualFlash()
        self.registry = Registry(NAMES if board_def is None else Deck(board_def).names)
        self.reader = ReaderRig()
        self.reader.reader.start(0)
        self.app = App(gameload.load(board.game), board, self.registry,
                       Strip(VirtualNeoPixel(board.led_count), board.led_count),
                       journal=Journal("/game.jnl", self.flash), reader=self.reader.reader)
        self.link = Link(self.app, self.write, lambda: self.now,
                         save_cards=self.save)
        self.app.listen(self.link.on_event)
        self.app.make_enroller = lambda: Enroller(self.registry, self.save, self.reader.driver,
                                                  self.link.send, "Kahuna")
        self.now = 0
        self.saves = 0
        self.attempts = {}
        self.lit = []  # the island the board lit while waiting, per enroll request
        self.stop = False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def save(self):
        self.registry.save("/cards.json", self.flash)
        self.saves += 1

    def write(self, text):
        os.write(self.master, text.encode())
        msg = json.loads(text)
        if msg.get("event") == "enroll-wait":
            card = msg["card"]
            island = self.app.board.island_index[card.split("-")[0]]
            self.lit.append((card, self.app.enrolling_place() == island))
            n = self.attempts.get(card, 0)
            self.attempts[card] = n + 1
            tag = self.hand(card, n)
            if tag is not None:
                self.reader.chip.field.place(tag)
                self.ticks(lambda: self.app.scanner.present == tag.uid)
                self.reader.remove()
                self.ticks(lambda: self.app.scanner.present is None)

    def ticks(self, done):
        """The app's reader task, tick after tick, until done() (bounded)."""
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
                if time.time() >= self.deaf_until:
                    self.link.feed(data)

    def close(self):
        self.stop = True
        self.thread.join(2)
        os.close(self.master)
        os.close(self.slave)


def cards_tool(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "host_tools", "cards"] + list(args),
                          capture_output=True, text=True, cwd=gamekit.ROOT, timeout=timeout)


@pytest.fixture
def tags():
    return dict((name, ntag(i)) for i, name in enumerate(NAMES))


def test_enrol_a_full_deck_with_every_refusal_case(tags):
    mifare = ISO14443ATag(bytes.fromhex("A1B2C3D4"))  # answers no NTAG command
    locked = ntag(99)
    locked.mem[10] = 0xF0  # static lock bits L4..L7: the NDEF pages are read-only
    locked.mem[11] = 0xFF

    def hand(card, attempt):
        if card == "ALOA-1" and attempt == 0:
            return mifare
        if card == "ALOA-2" and attempt == 0:
            return tags["ALOA-1"]  # already enrolled as ALOA-1
        if card == "BARI-1" and attempt == 0:
            return locked
        return tags[card]

    board = PtyBoard(hand)
    try:
        proc = cards_tool("enroll", "--port", board.path, "--timeout", "20")
    finally:
        board.close()
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr
    assert "lay the tag for ALOA-1 on the reader (ALOA is lit)" in out
    assert "lay the tag for LALE-2 on the reader (LALE is lit)" in out
    assert "refused: not an NTAG tag" in out
    assert "refused: this tag is already enrolled as ALOA-1" in out
    assert "refused: writing the card's name failed" in out
    assert out.strip().endswith("24 cards enrolled")
    assert board.registry.missing() == []
    for name in NAMES:  # each tag now carries its card's name, as a phone reads it
        assert ndef.parse_ndef_text(bytes(tags[name].mem[16:])) == "Kahuna " + name
        assert board.registry.card_for(tags[name].uid) == name
    assert all(lit for _, lit in board.lit)  # the board lit the island it asked for
    saved = json.loads(bytes(board.flash.files["/cards.json"]).decode())
    assert len(saved) == 24


def test_re_enrol_one_lost_card_then_list_export_and_import(tags, tmp_path):
    board = PtyBoard(lambda card, attempt: tags[card])
    try:
        assert cards_tool("enroll", "--port", board.path, "--card", "HUNA-2").returncode == 0
        new_tag = ntag(77)
        board.hand = lambda card, attempt: new_tag  # HUNA-2 was lost: a new sticker
        proc = cards_tool("enroll", "--port", board.path, "--card", "HUNA-2")
        assert proc.returncode == 0 and "HUNA-2 enrolled" in proc.stdout
        assert board.registry.card_for(new_tag.uid) == "HUNA-2"
        assert board.registry.card_for(tags["HUNA-2"].uid) is None
        listing = cards_tool("list", "--port", board.path).stdout
        assert "HUNA-2  04104D22334" in listing and "1 enrolled, 23 missing" in listing
        out = tmp_path / "deck.json"
        assert cards_tool("export", "--port", board.path, str(out)).returncode == 0
        assert json.loads(out.read_text()) == {"04104D223344CD": "HUNA-2"}
        deck = tmp_path / "full.json"
        deck.write_text(json.dumps(dict(("04%012X" % i, n) for i, n in enumerate(NAMES))))
        proc = cards_tool("import", "--port", board.path, str(deck))
        assert proc.returncode == 0 and "24 cards imported, 0 missing" in proc.stdout
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps({"04AA": "HUNA-1"}))
        proc = cards_tool("import", "--port", board.path, str(bad))
        assert proc.returncode == 2 and "not a card registry" in proc.stderr
        assert len(board.registry.by_uid) == 24  # the broken file changed nothing
        for action in ("list", "enroll"):  # a Kahuna board, the tool told another game
            proc = cards_tool(action, "--port", board.path, "--game", "kami")
            assert proc.returncode == 2 and proc.stderr == (
                "cards: the board on %s plays kahuna, not kami: give --game kahuna\n"
                % board.path), proc.stderr
        assert len(board.registry.by_uid) == 24
    finally:
        board.close()


def test_enrollment_gives_up_cleanly_when_nobody_taps():
    board = PtyBoard(lambda card, attempt: None)
    try:
        proc = cards_tool("enroll", "--port", board.path, "--card", "KAHU-1",
                          "--timeout", "1")
    finally:
        board.close()
    assert proc.returncode == 1 and "no tag within 1 s" in proc.stdout
    assert board.app.enroller.card is None  # the tool told the board to stop waiting


def test_enroll_goes_on_with_the_cards_still_missing(tags):
    board = PtyBoard(lambda card, attempt: tags[card])
    try:
        for name in NAMES[:22]:  # enrolled earlier, in a run that was stopped
            board.registry.enroll(name, tags[name].uid.hex().upper())
        proc = cards_tool("enroll", "--port", board.path, "--timeout", "20")
        assert proc.returncode == 0, proc.stdout + proc.stderr
        asked = [line.split()[4] for line in proc.stdout.splitlines()
                 if line.startswith("lay the tag for ")]
        assert asked == NAMES[22:]
        assert board.registry.missing() == []
        proc = cards_tool("enroll", "--port", board.path)
        assert proc.returncode == 0 and "all 24 cards are enrolled" in proc.stdout
    finally:
        board.close()


def test_ctrl_c_while_enrolling_stops_the_board_waiting():
    board = PtyBoard(lambda card, attempt: None)
    try:
        # Ctrl-C as at a terminal: SIGINT at its default in the tool even when the tests run
        # as a background job (whose shell ignores SIGINT, and children inherit that).
        # PYTHONFAULTHANDLER: should the tool still hang, SIGABRT makes it say where.
        tool = subprocess.Popen([sys.executable, "-m", "host_tools", "cards", "enroll",
                                 "--port", board.path, "--card", "KAHU-1"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                cwd=gamekit.ROOT, env=dict(os.environ, PYTHONFAULTHANDLER="1"),
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        assert tool.stdout.readline().startswith("lay the tag for KAHU-1")
        assert board.app.enroller.card == "KAHU-1"
        tool.send_signal(signal.SIGINT)
        try:
            status = tool.wait(timeout=20)
        except subprocess.TimeoutExpired:
            tool.send_signal(signal.SIGABRT)
            tool.wait(timeout=10)
            pytest.fail("the tool did not stop on Ctrl-C; where it was:\n" + tool.stderr.read())
        assert status == 130
        err = tool.stderr.read()
        assert "interrupted: enrolment stopped" in err and "Traceback" not in err
        for _ in range(100):  # the stop reaches the board's loop thread
            if board.app.enroller.card is None:
                break
            time.sleep(0.05)
        assert board.app.enroller.card is None
    finally:
        board.close()


# ------------------------------------------------------- a board that boots (issue 15, 4)

def test_a_tool_started_while_the_board_boots_waits_for_it(tags):
    """`cards enroll` right after `make flash`: the board, still booting, loses the first
    requests; the tool asks again until it answers."""
    board = PtyBoard(lambda card, attempt: tags[card], deaf=2.5)
    try:
        t0 = time.time()
        proc = cards_tool("enroll", "--port", board.path, "--card", "KAHU-1",
                          "--timeout", "20")
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert time.time() - t0 >= 2.5 and "KAHU-1 enrolled" in proc.stdout
        board.deaf_until = time.time() + 2.5
        proc = cards_tool("list", "--port", board.path)
        assert proc.returncode == 0 and "1 enrolled, 23 missing" in proc.stdout
    finally:
        board.close()


@pytest.mark.parametrize("action", ["enroll", "list"])
def test_a_board_that_never_answers_gets_one_line_and_exit_2(action):
    board = PtyBoard(lambda card, attempt: None, deaf=1e9)
    try:
        t0 = time.time()
        proc = cards_tool(action, "--port", board.path)
        took = time.time() - t0
    finally:
        board.close()
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == ("cards: the board did not send its card registry within 10 s (is "
                           "the Kahuna firmware running?) on %s\n" % board.path)
    assert took < 20


def test_a_board_of_another_game_is_named_by_cards_and_the_live_page():
    """A Kami board, the tools left at their default game (Kahuna): one line naming both
    games and the --game to give (cards listed 32 Kahuna cards as not enrolled; the live
    page drew a Kahuna board in another game's lights)."""
    board = PtyBoard(lambda card, attempt: None,
                     board_def=os.path.join(gamekit.ROOT, "board_def", "kami.json"))
    try:
        for tool in (["cards", "list"], ["web"]):
            proc = subprocess.run([sys.executable, "-m", "host_tools"] + tool
                                  + ["--port", board.path], capture_output=True, text=True,
                                  cwd=gamekit.ROOT, timeout=120, stdin=subprocess.DEVNULL)
            assert proc.returncode == 2 and proc.stderr == (
                "%s: the board on %s plays kami, not kahuna: give --game kami\n"
                % (tool[0], board.path)), proc.stderr
    finally:
        board.close()
