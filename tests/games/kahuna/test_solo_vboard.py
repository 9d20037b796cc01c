"""A solo game played to the end on the virtual board (the firmware flashed with `make
flash`, running under MicroPython): every card laid on its scanner and every button
pressed through its control socket, the AI's cards handled by the physical procedure the
board asks for on its serial link (host_tools/games/kahuna/solohands.py reads only those
words), the player's own plays chosen from its hand and the offered options."""

import json
import time

import pytest
import serial

from host_tools.games.kahuna.solohands import Hands
from host_tools.games.kahuna.table import Table
from host_tools.maker.linkclient import merge
from host_tools.maker.vboarddef import sticker_uid

PINS = {"next": 10, "prev": 11, "ok": 12, "back": 13, "done": 14, "discard": 15}
NAMES = ["%s-%d" % (i, n) for i in ("ALOA", "BARI", "COCO", "DUDA", "ELAI", "FAAA", "GOLA",
                                    "HUNA", "IFFI", "JOJO", "KAHU", "LALE") for n in (1, 2)]


class Table_:
    """The player at the virtual board: its serial link, its scanner and buttons."""

    def __init__(self, board, ser, seed):
        self.board = board
        self.ser = ser
        self.client = board.client
        self.state = None
        self.say = ""
        self.events = []
        self.lines = []
        self.table = Table(NAMES, seed)
        self.hands = Hands(self.table)
        self.mine = []  # the player's own hand
        self.round = 1

    def send(self, obj):
        self.ser.write((json.dumps(obj) + "\n").encode())

    def pump(self, quiet=0.25, until=None, timeout=60):
        """Read the link until `until()` holds (or, without it, until it has been quiet
        for `quiet` s)."""
        end = time.monotonic() + timeout
        last = time.monotonic()
        while time.monotonic() < end:
            line = self.ser.readline()
            if not line:
                if until is None and time.monotonic() - last >= quiet:
                    return
                if until is not None and until():
                    return
                continue
            last = time.monotonic()
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if not isinstance(msg, dict):
                continue
            self.lines.append(msg)
            if msg.get("event") == "ai":
                self.say = msg["say"]
            self.state = merge(self.state, msg)
            if "changed" in msg:
                self.events.append(msg)
            if until is not None and until():
                return
        raise AssertionError("the board did not answer: %s" % (self.lines[-5:],))

    def _await_event(self, n, timeout=60):
        self.pump(until=lambda: len(self.events) > n, timeout=timeout)
        return self.events[-1]

    def tap(self, card):
        n = len(self.events)
        for _attempt in range(3):
            self.client.place_tag(sticker_uid(card))
            try:
                ev = self._await_event(n, timeout=20)
                break
            except AssertionError:
                # As a player does when the board stays silent (a loaded machine can
                # miss the read): lift the card and lay it again.
                self.client.remove_tag()
                time.sleep(1.0)
        else:
            raise AssertionError("the board never read %s: %s" % (card, self.lines[-3:]))
        self.client.remove_tag()
        time.sleep(0.3)  # seen gone (three empty polls) before the next card
        return ev

    def press(self, role):
        n = len(self.events)
        self.client.press(PINS[role], ms=60)
        ev = self._await_event(n)
        time.sleep(0.06)  # the release debounced before the next press
        return ev

    def human(self):
        s = self.state
        t = self.table
        if s["phase"] == "deal":
            card = t.deal()
            self.mine.append(card)
            assert self.tap(card)["event"] == "accepted"
            return
        if s["phase"] == "play":
            for card in list(self.mine):
                ev = self.tap(card)
                if ev["event"] == "refused":
                    continue
                options = self.state["ui"]["options"]
                places = [i for i, o in enumerate(options) if o[0] == "place"]
                if not places:
                    self.press("back")
                    continue
                for _ in range(places[0]):
                    self.press("next")
                assert self.press("ok")["event"] != "refused"
                self.mine.remove(card)
                t.discard(card)
                return
            if self.state["ui"].get("refill"):
                self.press("back")
            assert self.press("done")["event"] != "refused"
            return
        # The draw phase.
        if len(self.mine) >= 5:
            if not s["must_draw"]:
                self.press("done")
                return
            card = self.mine.pop(0)
            self.press("discard")
            self.tap(card)
            self.press("done")
            t.discard(card)
        display = t.display
        if display:
            card = t.take(display[0])
            self.hands.took(card)
        else:
            card = t.take_top()
        self.mine.append(card)
        assert self.tap(card)["event"] != "refused"

    def step(self):
        self.pump()
        if self.say == "the AI is thinking":
            self.pump(until=lambda: self.say != "the AI is thinking")
            self.pump()
        if self.state["round"] != self.round:
            self.round = self.state["round"]
            self.hands.round_ended()
        if self.state["phase"] == "over":
            return False
        move = self.hands.next(self.say) if self.say else None
        if move is not None:
            ev = self.tap(move[1]) if move[0] == "tap" else self.press(move[1])
            assert ev["event"] != "refused", (self.say, ev)
        elif not self.say:
            self.human()
        return True


@pytest.mark.slow
def test_a_solo_game_to_the_end_on_the_virtual_board(flashed_vboard):
    board = flashed_vboard  # conftest: the firmware flashed on a virtual board
    with serial.Serial(board.port, 115200, timeout=0.05) as ser:
        p = Table_(board, ser, seed=2)
        p.send({"cmd": "cards", "set": dict((sticker_uid(c), c) for c in NAMES)})
        p.pump(until=lambda: any(m.get("event") == "cards" for m in p.lines))
        p.send({"cmd": "new", "settings": {"ai": "black"}})
        p.pump(until=lambda: p.state is not None and p.state.get("settings", {}).get("ai"))
        steps = 0
        while p.step():
            steps += 1
            assert steps < 1500, p.lines[-5:]
        assert p.state["winner"] in ("white", "black", "draw")
        refused = [m for m in p.lines if m.get("event") == "refused"]
        assert refused == [] or all(m["code"] in ("no-option", "bad-pair") for m in refused)
        # The AI's face-down stack is what the board held for it: as many cards.
        assert len(p.hands.stack) == p.state["hand_sizes"]["black"]
        assert any(m.get("event") == "ai" and m["step"] == "draw" for m in p.lines)
        # No line on the link named a card of the AI's hand while it lay face down.
        for m in p.lines:
            assert "hands" not in m.get("changed", {}) and "hands" not in m.get("state", {})
