"""The serial link: JSON lines in, events out; anything malformed gets an error line and
changes nothing."""

import json

import gamekit
from host_tools import randgame, simcore
from kahuna.link import MAX_LINE, Link


class Board:
    """The firmware App on the simulator's virtual hardware, with a link to talk to."""

    def __init__(self):
        self.sim = simcore.Simulation(gamekit.board())
        self.lines = []
        self.link = Link(self.sim.app, self.lines.append, lambda: self.sim.now)
        self.sim.app.listen(self.link.on_event)

    def send(self, obj_or_text):
        text = obj_or_text if isinstance(obj_or_text, str) else json.dumps(obj_or_text)
        self.lines.clear()
        self.link.feed((text + "\n").encode())
        return [json.loads(line) for line in self.lines]

    def state(self):
        return self.send({"cmd": "state"})[0]["state"]


DEAL = ["HUNA-1", "ELAI-1", "DUDA-1", "ALOA-1", "DUDA-2", "ELAI-2"]


def test_a_game_over_the_link():
    b = Board()
    for card in DEAL:
        (ev,) = b.send({"cmd": "tap", "card": card})
        assert ev["event"] == "accepted"
    (ev,) = b.send({"cmd": "tap", "card": "HUNA-1"})
    assert ev["event"] == "accepted" and ev["state"]["phase"] == "play"
    (ev,) = b.send({"cmd": "pick", "conn": "ELAI-HUNA"})
    assert ev["state"]["bridges"] == {"ELAI-HUNA": "white"}
    (ev,) = b.send({"cmd": "press", "button": "next"})
    assert ev == {"event": "refused", "code": "wrong-phase",
                  "message": "there is nothing to choose", "state": ev["state"]}
    assert len(ev["state"]["leds"]) == 3 * gamekit.board().led_count


def test_new_game_with_settings_and_bad_settings():
    b = Board()
    b.send({"cmd": "tap", "card": "HUNA-1"})
    (ev,) = b.send({"cmd": "new", "settings": {"variant": "alternative", "first": "black",
                                                "handicap": ["white", 2]}})
    assert ev["event"] == "new" and ev["state"]["hands"]["white"] == []
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
    assert b.state()["hands"]["white"] == []
    (ev,) = b.send({"cmd": "tap", "card": "HUNA-1"})
    assert ev["event"] == "accepted"


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
    (ev,) = b.send({"cmd": "tap", "uid": "04A224B2C35E80"})
    assert ev["event"] == "accepted" and ev["state"]["hands"]["white"] == ["HUNA-1"]


def test_the_link_under_micropython(mpy):
    # The simulator's virtual hardware and the test kit share this heap with the firmware,
    # so this harness gets 320 KiB; firmware-only tests keep the RP2040's 190 KiB.
    from mpy_runner import MicroPython
    harness = MicroPython(executable=mpy.executable, heap_kib=320)
    out = harness.run_code(
        "import json\n"
        "import gamekit\n"
        "from host_tools import simcore\n"
        "from kahuna.link import Link\n"
        "sim = simcore.Simulation(gamekit.board())\n"
        "lines = []\n"
        "link = Link(sim.app, lines.append, lambda: sim.now)\n"
        "sim.app.listen(link.on_event)\n"
        "link.feed(b'{\"cmd\": \"tap\", \"card\": \"HUNA-1\"}\\n{garbage\\n')\n"
        "link.feed(b'{\"cmd\": \"state\"}\\n')\n"
        "for line in lines:\n"
        "    d = json.loads(line)\n"
        "    print(d.get('event'), d.get('error'), d.get('state', {}).get('hands'))\n")
    first, second, third = out.strip().splitlines()
    assert first.startswith("accepted None")
    assert second == "None not JSON None"
    assert third.startswith("state None") and "HUNA-1" in third
