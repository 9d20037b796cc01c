"""The board's archived games over the serial link (core.link `archive`, core.journal):
listed from each file's first record, fetched piece by piece in lines under the link's
line limit, byte for byte the file on the flash; and replayed on the host move by move
(host_tools/games/kahuna/replay.py), hands shown only for a game played to its end."""

import base64
import json

import gamekit
from core.files import JOURNAL_FILE
from core.link import Link
from core.linkframe import MAX_LINE
from core.linkhost import ARCHIVE_PIECE
from host_tools.games.kahuna import randgame, replay
from host_tools.simulator import engine as simcore


class Board:
    def __init__(self):
        self.sim = simcore.Simulation(gamekit.board())
        self.lines = []
        self.link = Link(self.sim.app, self.lines.append, lambda: self.sim.now)
        self.sim.app.listen(self.link.on_event)

    def send(self, obj):
        self.lines.clear()
        self.link.feed((json.dumps(obj) + "\n").encode())
        for line in self.lines:
            assert len(line.encode()) < MAX_LINE, line[:200]
        return [json.loads(line) for line in self.lines]

    def play_to_the_end(self, seed):
        randgame.play_game(self.sim.app.game, seed)

    def fetch(self, slot):
        data = b""
        while True:
            (msg,) = self.send({"cmd": "archive", "slot": slot, "offset": len(data)})
            assert msg["event"] == "archive-part" and msg["offset"] == len(data), msg
            piece = base64.b64decode(msg["data"])
            assert len(piece) <= ARCHIVE_PIECE
            data += piece
            if msg["end"]:
                return data


def archive_file(board, slot):
    return board.sim.flash.open("/game-%d.jnl" % slot, "rb").read()


def test_archived_games_are_listed_and_fetched_byte_for_byte():
    b = Board()
    assert b.send({"cmd": "archive"}) == [{"event": "archive", "count": 0}]
    b.play_to_the_end(1)  # game 1, finished
    b.send({"cmd": "new", "settings": {"variant": "alternative", "first": "black"}})
    b.send({"cmd": "tap", "card": "HUNA-1"})  # game 2, abandoned after one deal
    b.send({"cmd": "new", "settings": {}})
    out = b.send({"cmd": "archive"})
    assert out[-1] == {"event": "archive", "count": 2}
    listed = {m["slot"]: (m["game"], m["settings"]) for m in out[:-1]}
    assert listed[1] == (1, {"variant": "standard", "first": "white", "handicap": None})
    assert listed[2][0] == 2 and listed[2][1]["variant"] == "alternative"
    for slot in (1, 2):
        data = b.fetch(slot)
        assert data == archive_file(b, slot)
    assert len(b.fetch(1)) > 3 * ARCHIVE_PIECE  # a whole game takes many lines
    # The game in play is not archived, and its journal is not offered.
    assert b.sim.flash.open(JOURNAL_FILE, "rb").read()
    (err,) = b.send({"cmd": "archive", "slot": 3})
    assert err == {"error": "no archived game in slot 3"}
    for bad in ({"slot": 8}, {"slot": -1}, {"slot": "1"}, {"slot": True},
                {"slot": 1, "offset": -5}, {"slot": 1, "offset": 1.5}):
        (err,) = b.send(dict(bad, cmd="archive"))
        assert "error" in err, bad
    # Past the end: nothing more, and the end said.
    (msg,) = b.send({"cmd": "archive", "slot": 2, "offset": 10 ** 6})
    assert msg["data"] == "" and msg["end"] is True


def test_a_finished_game_replays_to_its_score_with_both_hands():
    b = Board()
    b.play_to_the_end(4)
    final = b.sim.app.game
    scores = {"white": final.scores[0], "black": final.scores[1]}
    b.send({"cmd": "new", "settings": {}})
    got = replay.replay(gamekit.board(), b.fetch(1))
    assert got["finished"] and got["hands_shown"] and got["problem"] is None
    assert got["game"] == 1
    steps = got["steps"]
    assert steps[0]["text"].startswith("new game: variant standard, white starts")
    last = steps[-1]["state"]
    assert last["phase"] == "over" and last["scores"] == scores
    assert "game over" in steps[-1]["text"]
    assert len(last["round_scores"]) == 3
    assert sum("round scored" in s["text"] for s in steps) == 3
    # Every step: hands of both, sizes that agree, an LED frame of the whole chain.
    n = gamekit.board().led_count
    for s in steps:
        st = s["state"]
        assert len(st["hands"]["white"]) == st["hand_sizes"]["white"]
        assert len(s["leds"]) == 6 * n
    dealt = [s["text"] for s in steps if " is dealt " in s["text"]]
    assert len(dealt) == 6 and all("a card" not in t for t in dealt)


def test_an_abandoned_game_replays_with_hand_sizes_only_unless_revealed():
    b = Board()
    deal = ["HUNA-1", "ELAI-1", "DUDA-1", "ALOA-1", "DUDA-2", "ELAI-2"]
    for card in deal + ["HUNA-1"]:
        b.send({"cmd": "tap", "card": card})
    b.send({"cmd": "pick", "conn": "ELAI-HUNA"})
    b.send({"cmd": "new", "settings": {}})
    got = replay.replay(gamekit.board(), b.fetch(1))
    assert not got["finished"] and not got["hands_shown"]
    text = json.dumps(got)
    for card in deal:
        assert card not in text, card
    texts = [s["text"] for s in got["steps"]]
    assert texts[1] == "white is dealt a card"
    assert texts[-1] == "white plays a HUNA card: a bridge on ELAI-HUNA"
    assert got["steps"][-1]["state"]["bridges"] == {"ELAI-HUNA": "white"}
    assert got["steps"][-1]["state"]["hand_sizes"] == {"white": 2, "black": 3}
    shown = replay.replay(gamekit.board(), b.fetch(1), revealed=True)
    assert shown["hands_shown"]
    assert shown["steps"][-1]["state"]["hands"]["white"] == ["DUDA-1", "ELAI-1"]
    assert shown["steps"][-1]["text"] == "white plays HUNA-1: a bridge on ELAI-HUNA"


def test_a_damaged_archive_replays_its_readable_part_and_garbage_is_refused():
    b = Board()
    for card in ["HUNA-1", "ELAI-1", "DUDA-1"]:
        b.send({"cmd": "tap", "card": card})
    b.send({"cmd": "new", "settings": {}})
    data = b.fetch(1)
    cut = replay.replay(gamekit.board(), data[:-3])
    assert len(cut["steps"]) == 3 and "torn record" in cut["problem"]
    for junk in (b"", b"hello", data[5:]):
        try:
            replay.replay(gamekit.board(), junk)
        except replay.ReplayError as e:
            assert "not an archived game" in str(e)
        else:
            raise AssertionError("garbage replayed: %r" % junk[:20])


def test_archive_over_the_link_under_micropython(mpy, tmp_path):
    """The firmware's side under MicroPython: the list and the pieces (base64 from the
    Pico's binascii) come out as on CPython."""
    # A whole game in the simulator's in-RAM flash needs a larger heap than the Pico's.
    from mpy_runner import MicroPython
    harness = MicroPython(executable=mpy.executable, heap_kib=2048)
    out = harness.run_code(
        "import json\n"
        "import gamekit\n"
        "from host_tools.simulator import engine as simcore\n"
        "from host_tools.games.kahuna import randgame\n"
        "from core.link import Link\n"
        "sim = simcore.Simulation(gamekit.board())\n"
        "lines = []\n"
        "link = Link(sim.app, lines.append, lambda: sim.now)\n"
        "randgame.play_game(sim.app.game, 2, record=False)\n"
        "link.feed(b'{\"cmd\": \"new\"}\\n')\n"
        "del lines[:]\n"
        "link.feed(b'{\"cmd\": \"archive\"}\\n')\n"
        "off = 0\n"
        "while True:\n"
        "    link.feed(('{\"cmd\": \"archive\", \"slot\": 1, \"offset\": %d}\\n' % off).encode())\n"
        "    m = json.loads(lines[-1])\n"
        "    import binascii\n"
        "    off += len(binascii.a2b_base64(m['data']))\n"
        "    if m['end']:\n"
        "        break\n"
        "for line in lines:\n"
        "    print(line.strip())\n"
        "print(off, len(sim.flash.open('/game-1.jnl', 'rb').read()))\n")
    *sent, sizes = out.strip().splitlines()
    got, size = sizes.split()
    assert got == size and int(size) > ARCHIVE_PIECE
    msgs = [json.loads(line) for line in sent]
    assert msgs[0]["event"] == "archived" and msgs[0]["slot"] == 1 and msgs[0]["game"] == 1
    assert msgs[1] == {"event": "archive", "count": 1}
    data = b"".join(base64.b64decode(m["data"]) for m in msgs[2:])
    assert replay.replay(gamekit.board(), data)["finished"]
    assert all(len(line.encode()) < MAX_LINE for line in sent)


class FakePort:
    def __init__(self):
        self.written = []

    def write(self, data):
        self.written.append(json.loads(data))


def test_the_live_server_takes_garbage_from_the_board_in_its_stride():
    """Whatever the board sends (a traceback, broken JSON, wrong types), the live server's
    state and log carry on, and a good state afterwards is taken whole."""
    from host_tools.web.live import LiveBoard

    port = FakePort()
    live = LiveBoard(gamekit.board(), "/dev/fake", port)
    b = Board()
    good = b.send({"cmd": "state"})[0]
    for raw in (b"Traceback (most recent call last):", b"{not json", b"[1, 2]", b"\xff\xfe",
                b'{"event": "cards", "cards": 5, "missing": null}',
                b'{"event": "accepted", "changed": 7}', b'{"event": "enrolled"}',
                b'{"event": "state", "state": {"phase": 3}}', b'{"error": "bad"}',
                b'{"event": "archived", "slot": "x"}', b""):
        live.line(raw)
    assert "{not json" in live.mon.device  # shown as the board's own output
    live.line(json.dumps(good).encode())
    assert live.mon.state == good["state"]
    assert live.board_message([])["hint"].startswith("white taps the 3 cards")
    assert "hands" not in live.mon.state
    assert port.written.count({"cmd": "cards"}) == 1  # after "enrolled": the registry again


def test_a_finished_solo_game_replays_past_its_solo_records():
    from solokit import SoloGame
    board = gamekit.board()
    s = SoloGame(board, 1, ai="black", variant="standard", first="white", handicap=None)
    s.play()
    final = s.sim.app.game
    s.sim.app.new_game({})  # the finished game goes to the archive
    # Each `option` of the set-up started a game too: the solo game is the last archived.
    data = max((bytes(content) for path, content in s.sim.flash.files.items()
                if path.startswith("/game-")), key=len)
    assert b'["solo"' in data  # the AI's stack and the display were journaled
    got = replay.replay(board, data)
    assert got["problem"] is None and got["finished"]
    last = got["steps"][-1]["state"]
    assert last["phase"] == "over"
    assert last["scores"] == {"white": final.scores[0], "black": final.scores[1]}
