"""The serial link: JSON lines in, events out (only what changed); anything malformed
gets an error line and changes nothing; no card of a hand leaves the board unless a host
asks for the hands."""

import json
import sys

import gamekit
from core import outcome as oc
from core.link import HOST_MOVED, Link
from core.linkframe import MAX_LINE, READ_CHUNK, READ_MAX, Lines
from host_tools.games.kahuna import randgame
from host_tools.maker import linkclient
from host_tools.simulator import engine as simcore


class Board:
    """The firmware App on the simulator's virtual hardware, with a link to talk to; `known`
    is the state a host holds by merging what the board sent."""

    def __init__(self, reveal=False, channel="usb"):
        self.sim = simcore.Simulation(gamekit.board())
        self.lines = []
        self.sent = []  # every line the board sent
        self.link = Link(self.sim.app, self.write, lambda: self.sim.now, channel=channel)
        self.sim.app.listen(self.link.on_event)
        self.known = None
        if reveal:
            self.send({"cmd": "reveal", "on": True})
        else:
            self.state()

    def write(self, text):
        self.lines.append(text)
        self.sent.append(text)

    def send(self, obj_or_text):
        text = obj_or_text if isinstance(obj_or_text, str) else json.dumps(obj_or_text)
        self.lines.clear()
        self.link.feed((text + "\n").encode())
        out = [json.loads(line) for line in self.lines]
        for msg in out:
            self.known = linkclient.merge(self.known, msg)
        return out

    def state(self):
        return self.send({"cmd": "state"})[0]["state"]


DEAL = ["HUNA-1", "ELAI-1", "DUDA-1", "ALOA-1", "DUDA-2", "ELAI-2"]


def test_a_game_over_the_link():
    b = Board(reveal=True)
    for card in DEAL:
        (ev,) = b.send({"cmd": "tap", "card": card})
        assert ev["event"] == "accepted"
    assert b.known["phase"] == "play" and sorted(b.known["hands"]["white"]) == sorted(DEAL[:3])
    (ev,) = b.send({"cmd": "tap", "card": "HUNA-1"})
    assert ev["event"] == "accepted" and "phase" not in ev["changed"]  # only what changed
    assert ev["changed"]["ui"]["pending"] == ["HUNA"]
    assert ["place", "ELAI-HUNA"] in ev["changed"]["ui"]["options"]
    (ev,) = b.send({"cmd": "pick", "conn": "ELAI-HUNA"})
    assert ev["changed"]["bridges"] == {"ELAI-HUNA": "white"}
    assert ev["changed"]["ui"]["pending"] == [] and ev["changed"]["ui"]["undo"] is True
    (ev,) = b.send({"cmd": "press", "button": "next"})
    assert ev == {"event": "refused", "code": "wrong-phase", "game": 1, "seq": 7,
                  "message": "there is nothing to choose", "changed": ev["changed"]}
    assert len(b.known["leds"]) == 6 * gamekit.board().led_count
    assert linkclient.leds(b.known)[0] == list(b.sim.app.view.frame[0:3])


def test_merging_every_message_gives_the_whole_state():
    b = Board(reveal=True)
    for card in DEAL + ["HUNA-1"]:
        b.send({"cmd": "tap", "card": card})
    b.send({"cmd": "pick", "conn": "ELAI-HUNA"})
    b.send({"cmd": "press", "button": "done"})
    known = dict(b.known)
    known.pop("leds")
    full = b.state()
    full.pop("leds")
    assert known == full
    report = b.sim.report()
    for key in ("phase", "round", "turn", "bridges", "control", "supply", "hands", "discard",
                "drawable", "must_draw", "scores", "round_scores", "winner", "final_turns"):
        assert full[key] == report[key], key
    assert full["hand_sizes"] == {"white": 2, "black": 3} and full["revealed"] is True
    assert full["settings"] == {"variant": "standard", "first": "white", "handicap": None}


def test_no_card_of_a_hand_leaves_the_board_unless_revealed():
    """A deal, a draw and a discard over the link, with refusals in each: nothing the board
    sends names a card that is or was in a hand."""
    b = Board()
    secret = set()
    for card in DEAL:  # the deal
        b.send({"cmd": "tap", "card": card})
        secret.add(card)
    b.send({"cmd": "tap", "card": "HUNA-1"})  # a refused deal tap, in the deal: none here
    b.send({"cmd": "tap", "card": "HUNA-1"})  # played face up: HUNA is public from now
    b.send({"cmd": "pick", "conn": "ELAI-HUNA"})
    b.send({"cmd": "press", "button": "discard"})  # a discard: which card stays secret
    b.send({"cmd": "tap", "card": "ALOA-2"})  # refused: not in white's hand
    b.send({"cmd": "tap", "card": "DUDA-1"})
    b.send({"cmd": "press", "button": "done"})
    b.send({"cmd": "press", "button": "done"})  # end of the play phase
    b.send({"cmd": "tap", "card": "ELAI-1"})  # refused: in white's hand, not drawable
    b.send({"cmd": "tap", "card": "BARI-2"})  # the draw
    secret.add("BARI-2")
    assert sorted(b.sim.report()["hands"]["white"]) == ["BARI-2", "ELAI-1"]
    assert any('"refused"' in line for line in b.sent)
    text = "".join(b.sent)
    for card in sorted(secret | {"ALOA-2"}):
        assert card not in text, card
    assert "this card is not among the drawable cards" in text
    assert b.known["hand_sizes"] == {"white": 2, "black": 3}
    assert "hands" not in b.known and b.known["revealed"] is False
    # Asked for, the hands come (and every state says they are revealed).
    (ev,) = b.send({"cmd": "reveal", "on": True})
    assert sorted(ev["state"]["hands"]["white"]) == ["BARI-2", "ELAI-1"]
    assert ev["state"]["revealed"] is True
    (ev,) = b.send({"cmd": "reveal", "on": False})
    assert "hands" not in ev["state"] and ev["state"]["revealed"] is False
    (ev,) = b.send({"cmd": "reveal", "on": "yes"})
    assert "error" in ev


def test_new_game_with_settings_and_bad_settings():
    b = Board()
    b.send({"cmd": "tap", "card": "HUNA-1"})
    (ev,) = b.send({"cmd": "new", "settings": {"variant": "alternative", "first": "black",
                                                "handicap": ["white", 2]}})
    assert ev["event"] == "new" and ev["state"]["hand_sizes"]["white"] == 0
    assert ev["state"]["settings"] == {"variant": "alternative", "first": "black",
                                       "handicap": ["white", 2]}
    assert b.sim.app.settings["variant"] == "alternative"
    before = b.state()
    for bad in ({"variant": "chaos"}, {"first": "red"}, {"handicap": ["white", 4]},
                {"handicap": ["white", True]}, {"colour": "x"}, "standard"):
        (ev,) = b.send({"cmd": "new", "settings": bad})
        assert "error" in ev, bad
    assert b.state() == before


def test_malformed_lines_get_an_error_and_change_nothing():
    b = Board()
    for card in DEAL:
        b.send({"cmd": "tap", "card": card})
    before = b.state()
    journal = bytes(b.sim.flash.files["/game.jnl"])
    for text in ("{not json", "[1, 2]", '{"cmd": 3}', '{"cmd": "fly"}',
                 '{"cmd": "tap"}', '{"cmd": "tap", "card": "NOPE-1"}',
                 '{"cmd": "tap", "uid": "zz"}', '{"cmd": "press", "button": "up"}',
                 '{"cmd": "pick", "conn": "ALOA-ZZZZ"}', '{"cmd": "cards", "set": [1]}',
                 '{"cmd": "cards", "set": {"04": "HUNA-1"}}',
                 '{"cmd": "enroll", "card": "HUNA-9", "uid": "04A224B2C35E80"}'):
        out = b.send(text)
        assert len(out) == 1 and "error" in out[0], text
    assert b.state() == before
    assert bytes(b.sim.flash.files["/game.jnl"]) == journal


def test_an_oversized_line_is_refused_whole_and_the_next_line_works():
    b = Board()
    out = b.send('{"cmd": "tap", "card": "HUNA-1", "pad": "' + "x" * (2 * MAX_LINE) + '"}')
    assert out == [{"error": "line longer than %d bytes, ignored" % MAX_LINE}]
    assert b.state()["hand_sizes"]["white"] == 0
    (ev,) = b.send({"cmd": "tap", "card": "HUNA-1"})
    assert ev["event"] == "accepted"


def test_a_flood_is_read_a_small_buffer_at_a_time_up_to_its_cap():
    """read_waiting keeps a READ_CHUNK buffer, not one the size of a flood: the bytes
    waiting go through it chunk by chunk, at most READ_MAX of them in one call, and the
    lines come out whole and in order (one spans two chunks); the rest waits for the
    next call."""
    lines = [b'{"cmd": "state", "n": %d}' % i for i in range(100)]
    waiting = bytearray(b"\n".join(lines) + b"\n")
    assert READ_MAX < len(waiting) < 2 * READ_MAX

    class Stream:
        def readinto(self, one):
            one[0] = waiting.pop(0)
            return 1

    class Poller:  # as select.poll's: the (stream, event) pairs ready
        def poll(self, timeout):
            return [(self, 1)] if waiting else []

    got, sizes = [], []
    framing = Lines(got.append, lambda: got.append(None))
    assert len(framing.readbuf) == READ_CHUNK

    def feed(data):
        sizes.append(len(data))
        framing.feed(data)

    from core.linkframe import read_waiting
    assert read_waiting(Stream(), Poller(), feed, framing.readbuf) == READ_MAX
    assert set(sizes) == {READ_CHUNK}
    assert read_waiting(Stream(), Poller(), feed, framing.readbuf) < READ_MAX
    assert got == lines and not waiting


def test_random_bytes_on_the_link_change_nothing():
    b = Board()
    for card in DEAL:
        b.send({"cmd": "tap", "card": card})
    before = b.state()
    rng = randgame.Rng(77)
    errors = 0
    for _ in range(300):
        noise = bytes(rng.below(256) for _ in range(rng.below(200)))
        b.lines.clear()
        b.link.feed(noise.replace(b"{", b"(") + b"\n")  # braces would make real JSON rarely
        for line in b.lines:
            assert "error" in json.loads(line)
            errors += 1
    assert errors > 250
    assert b.state() == before


def test_cards_registry_over_the_link():
    b = Board()
    (ev,) = b.send({"cmd": "cards"})
    assert len(ev["cards"]) == 24 and ev["missing"] == []
    (ev,) = b.send({"cmd": "cards", "set": {"04A224B2C35E80": "HUNA-1"}})
    assert ev["cards"] == {"04A224B2C35E80": "HUNA-1"} and len(ev["missing"]) == 23
    (ev,) = b.send({"cmd": "enroll", "card": "HUNA-2", "uid": "04a224b2c35e81"})
    assert ev == {"event": "enrolled", "card": "HUNA-2", "uid": "04A224B2C35E81"}
    (ev,) = b.send({"cmd": "enroll", "card": "ELAI-1", "uid": "04A224B2C35E81"})
    assert ev["error"] == "tag 04A224B2C35E81 is already enrolled as HUNA-2"
    # A host's command's code (core.linkhost) is given back after it, refused or not, and
    # the journal's reading it loads (core.journalread) with it.
    assert "core.linkhost" not in sys.modules and "core.journalread" not in sys.modules
    (ev,) = b.send({"cmd": "tap", "uid": "04A224B2C35E80"})
    assert ev["event"] == "accepted" and ev["changed"]["hand_sizes"]["white"] == 1
    assert b.sim.report()["hands"]["white"] == ["HUNA-1"]


def test_the_link_counts_the_bytes_it_moved_and_a_host_commands_code():
    """`Link.moved`: main.py's serial task looks at the heap after a burst only once they
    add up (LINK_GC_BYTES), so a short command is not held up by a look."""
    b = Board()
    b.link.moved = 0
    b.send({"cmd": "selftest"})
    line = json.dumps({"cmd": "selftest"}) + "\n"
    assert b.link.moved == len(line) + len(b.sent[-1])
    waiting = bytearray(line.encode())  # the same read off the serial port (main.py)

    class Stream:
        def readinto(self, one):
            one[0] = waiting.pop(0)
            return 1

    class Poller:
        def poll(self, timeout):
            return [(self, 1)] if waiting else []

    b.link.moved = 0
    assert b.link.read_waiting(Stream(), Poller()) == len(line)
    assert b.link.moved == len(line) + len(b.sent[-1])
    b.link.moved = 0
    b.send({"cmd": "cards"})
    assert b.link.moved > HOST_MOVED  # its code loaded and let go: garbage to collect


PRIVATE_GAME = [
    {"cmd": "tap", "card": c} for c in DEAL] + [
    {"cmd": "tap", "card": "HUNA-1"}, {"cmd": "pick", "conn": "ELAI-HUNA"},
    {"cmd": "press", "button": "discard"}, {"cmd": "tap", "card": "ALOA-2"},
    {"cmd": "tap", "card": "DUDA-1"}, {"cmd": "press", "button": "done"},
    {"cmd": "press", "button": "done"}, {"cmd": "tap", "card": "ELAI-1"},
    {"cmd": "tap", "card": "BARI-2"}, {"cmd": "state"}]


def test_the_link_under_micropython(mpy, tmp_path):
    """The same firmware under MicroPython: a deal, a discard and a draw (refusals
    included) name no card of a hand; the bytes come in through `read_waiting` from a
    polled stream, as main.py's serial task takes them."""
    # The simulator's virtual hardware and the test kit share this heap with the firmware,
    # so this harness gets 512 KiB; firmware-only tests keep the RP2040's 240 KiB.
    from mpy_runner import MicroPython
    commands = tmp_path / "commands"
    commands.write_bytes(b"".join(json.dumps(c).encode() + b"\n" for c in PRIVATE_GAME)
                         + b"{garbage\n")
    harness = MicroPython(executable=mpy.executable, heap_kib=512)
    out = harness.run_code(
        "import select\n"
        "import gamekit\n"
        "from host_tools.simulator import engine as simcore\n"
        "from core.link import Link\n"
        "sim = simcore.Simulation(gamekit.board())\n"
        "lines = []\n"
        "link = Link(sim.app, lines.append, lambda: sim.now)\n"
        "sim.app.listen(link.on_event)\n"
        "f = open(%r, 'rb')\n"
        "p = select.poll()\n"
        "p.register(f, select.POLLIN)\n"
        "n = 0\n"
        "while True:\n"
        "    got = link.read_waiting(f, p)\n"
        "    if not got:\n"
        "        break\n"
        "    n += got\n"
        "print(n)\n"
        "for line in lines:\n"
        "    print(line.strip())\n"
        "print(sorted(sim.report()['hands']['white']))\n" % str(commands))
    count, *sent, hand = out.strip().splitlines()
    assert int(count) == commands.stat().st_size
    assert hand == "['BARI-2', 'ELAI-1']"
    events = [json.loads(line) for line in sent]
    assert len(events) == len(PRIVATE_GAME) + 1
    assert events[-1] == {"error": "not JSON"}
    assert events[-2]["state"]["hand_sizes"] == {"white": 2, "black": 3}
    assert [e.get("event") for e in events].count("refused") == 2
    for card in set(DEAL) | {"BARI-2", "ALOA-2"}:
        assert card not in "".join(sent), card


def test_an_outcome_makes_the_event_line():
    """The line is built from the Outcome the app hands over: a private refusal names no
    card, not even its island; a public one names the island the LEDs show."""
    message = "HUNA-1 is not among the drawable cards"
    b = Board()
    b.lines.clear()
    b.link.on_event(oc.refused("card-not-drawable", message, private=True))
    (ev,) = [json.loads(line) for line in b.lines]
    assert ev["event"] == "refused" and ev["code"] == "card-not-drawable"
    assert ev["message"] == "this card is not among the drawable cards"
    b.lines.clear()
    b.link.on_event(oc.refused("card-not-drawable", message, private=False))
    assert json.loads(b.lines[0])["message"] == "HUNA card is not among the drawable cards"


def test_a_host_forgets_the_hands_when_the_board_hides_them_again():
    known = {"phase": "play", "revealed": True, "hands": {"white": ["HUNA-1"], "black": []}}
    # A board that restarted sends everything again, revealed false and no hands.
    after = linkclient.merge(known, {"event": "accepted", "changed": {"revealed": False}})
    assert "hands" not in after and after["phase"] == "play"
    assert linkclient.merge(None, {"event": "accepted", "changed": {"phase": "x"}}) is None


def test_a_new_game_hides_the_hands_again():
    b = Board(reveal=True)
    assert b.known["revealed"] is True and "hands" in b.known
    (ev,) = b.send({"cmd": "new", "settings": {}})
    assert ev["event"] == "new" and ev["state"]["revealed"] is False
    assert "hands" not in ev["state"]


def test_every_event_carries_its_game_and_number_which_a_power_cut_keeps():
    b = Board()
    seqs = []
    for card in DEAL:
        (ev,) = b.send({"cmd": "tap", "card": card})
        seqs.append((ev["game"], ev["seq"]))
    assert seqs == [(1, n) for n in range(1, 7)]  # one action each
    (ev,) = b.send({"cmd": "press", "button": "next"})
    assert ev["event"] == "refused" and (ev["game"], ev["seq"]) == (1, 6)  # nothing done
    b.sim.boot()  # a power cut: the number comes back from the journal
    assert b.sim.app.seq == 6 and b.sim.app.game_no() == 1
    b.sim.app.journal.limit = 1  # the next action compacts the journal: its number stays
    (ev,) = b.send({"cmd": "tap", "card": "HUNA-1"})
    (ev,) = b.send({"cmd": "pick", "conn": "ELAI-HUNA"})
    assert ev["seq"] == 7
    b.sim.boot()
    assert b.sim.app.seq == 7
    (ev,) = b.send({"cmd": "new", "settings": {}})
    (ev,) = b.send({"cmd": "tap", "card": "HUNA-1"})
    assert (ev["game"], ev["seq"]) == (2, 1)  # a new game, a new number


def test_a_refusal_names_the_places_it_flashes_but_never_a_private_cards_island():
    b = Board()
    for card in DEAL:
        b.send({"cmd": "tap", "card": card})
    (ev,) = b.send({"cmd": "tap", "card": "HUNA-1"})
    (ev,) = b.send({"cmd": "pick", "conn": "ALOA-BARI"})
    assert ev["event"] == "refused" and ev["places"] == ["HUNA", "ALOA-BARI"]
    b = Board()
    (ev,) = b.send({"cmd": "tap", "card": "HUNA-1"})
    (ev,) = b.send({"cmd": "tap", "card": "HUNA-1"})  # the deal: which card stays secret
    assert ev["event"] == "refused" and "places" not in ev


def test_a_remote_link_only_plays_and_a_forbidden_command_changes_nothing():
    b = Board(channel="remote")
    before = b.sim.app.game.snapshot()
    cards = dict(b.sim.app.registry.by_uid)
    for cmd in ({"cmd": "reveal", "on": True}, {"cmd": "new", "settings": {}},
                {"cmd": "cards"}, {"cmd": "enroll", "card": "HUNA-1", "uid": "04A224B2C35E80"},
                {"cmd": "archive"}, {"cmd": "selftest"}):
        (ev,) = b.send(cmd)
        assert ev == {"error": "%s is not allowed on the remote link" % cmd["cmd"]}
    assert b.sim.app.game.snapshot() == before and b.sim.app.registry.by_uid == cards
    assert not b.link.view.reveal
    (ev,) = b.send({"cmd": "tap", "card": "HUNA-1"})
    assert ev["event"] == "accepted"
    try:
        Link(b.sim.app, b.write, lambda: 0, channel="mqtt")
    except ValueError as e:
        assert "mqtt" in str(e)
    else:
        raise AssertionError("an unknown channel was accepted")
