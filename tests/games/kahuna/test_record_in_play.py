"""The record of a game in play (issue 15): written from what is public only (the link's
`moves`, games.kahuna.game.public_move; host_tools/games/kahuna/record.py puts marked
stand-in cards where a card is hidden), it replays in the simulator to the same public
state, and shows nothing hidden: games that differ in a card of a hand, the deck's order
or a face-down discard give the very same `moves` lines and the very same file."""

import base64
import io
import json

import pytest

import gamekit
from core import journalread
from core.link import Link
from core.linkhost import MOVES_PIECE
from games.kahuna import rules
from host_tools.games.kahuna import record, scenwrite
from host_tools.simulator import engine as simcore
from host_tools.simulator.engine import JOURNAL
from host_tools.simulator.scenario import parse

# The public state a record of a game in play must reach (the simulator's report keys).
PUBLIC = ("phase", "round", "final_turns", "turn", "bridges", "control", "supply",
          "discard", "drawable", "must_draw", "scores", "round_scores", "winner")
# (seed, commands) of random games cut while in play: the deal, early play, round 2, late.
CUTS = [(1, 10), (1, 150), (1, 300), (2, 60), (2, 300), (3, 150), (6, 200), (11, 120)]


class Board:
    """The firmware on the simulator's virtual hardware, with its serial link."""

    def __init__(self, scenario_text=None):
        self.sim = simcore.Simulation(gamekit.board())
        if scenario_text is not None:
            self.sim.run(parse(scenario_text, gamekit.board()))
        self.lines = []
        self.link = Link(self.sim.app, self.lines.append, lambda: self.sim.now)

    def send(self, obj):
        self.lines.clear()
        self.link.feed((json.dumps(obj) + "\n").encode())
        return [json.loads(line) for line in self.lines]

    def moves(self):
        """Every piece of the game in play's public records: (the lines, the records)."""
        lines, items, start = [], [], 0
        while True:
            (msg,) = self.send({"cmd": "moves", "from": start})
            assert msg["event"] == "moves" and msg["from"] == start, msg
            lines.append(msg)
            items += msg["moves"]
            if msg["end"]:
                return lines, items
            assert msg["next"] - start == MOVES_PIECE
            start = msg["next"]

    def journal(self):
        return bytes(self.sim.flash.files[JOURNAL])


def cut_game(seed, n):
    text = scenwrite.annotated_game(gamekit.board(), seed)
    return "\n".join(text.split("\n")[:n]) + "\n"


def actions_of(data):
    items, problem = journalread.records(io.BytesIO(data))
    assert problem is None and items[0][0] == "new"
    return items[0][1], [tuple(i) for i in items[1:]]


def replayed(text):
    report, failures = simcore.run_commands(gamekit.board(), parse(text, gamekit.board()))
    assert failures == [], failures  # the record's own expect lines hold
    assert report["rejected"] == []
    return report


@pytest.mark.parametrize("seed,n", CUTS)
def test_a_game_in_play_replays_to_its_public_state(seed, n):
    b = Board(cut_game(seed, n))
    before = b.sim.report()
    assert before["phase"] != "over"
    text = record.scenario(gamekit.board(), b.journal())
    assert text.startswith(record.PUBLIC_TITLE + "a game in play")
    after = replayed(text)
    assert {k: after[k] for k in PUBLIC} == {k: before[k] for k in PUBLIC}
    for who in ("white", "black"):  # the hands' sizes, not their cards
        assert len(after["hands"][who]) == len(before["hands"][who])
    # Every hidden card is marked: each deal and draw, and each card discarded face down.
    settings, acts = actions_of(b.journal())
    hidden = sum(1 for a in acts if a[0] in ("deal", "draw", "discard"))
    assert text.count(record.STAND_IN) == hidden
    # The link's public moves give the very same file as the whole journal.
    _, items = b.moves()
    assert record.from_records(gamekit.board(), items) == text


def swapped(acts, x, y):
    return [tuple(y if v == x else x if v == y else v for v in a) for a in acts]


def legal(settings, acts):
    g = gamekit.board()
    game = rules.Game(g, variant=settings["variant"], first=settings["first"],
                      handicap=tuple(settings["handicap"]) if settings["handicap"] else None)
    try:
        for a in acts:
            game.apply(a)
    except (rules.Rejected, ValueError):
        return None
    return game


def named_in_play(acts):
    return {c for a in acts if a[0] in ("place", "remove") for c in a[1:-1]}


def other_game(seed, n, kind):
    """The game cut at n, and one that differs in a hidden card only: `kind` "hand" (a
    card of a hand and one still to draw swapped), "deck" (the deck's order: a card drawn
    and one still to draw) or "discard" (a card discarded face down and one still to
    draw)."""
    b = Board(cut_game(seed, n))
    settings, acts = actions_of(b.journal())
    game = legal(settings, acts)
    names = game.card_names
    played = named_in_play(acts)
    hands = [c for p in ("white", "black") for c in game.hand(p) if c not in played]
    deck = [names[c] for c in range(len(names))
            if game.place[c] == rules.DRAWABLE and names[c] not in played]
    gone = [a[1] for a in acts if a[0] == "discard" and a[1] not in played
            and game.place[game.card_index[a[1]]] == rules.DISCARD]
    drawn = [a[1] for a in acts if a[0] == "draw" and a[1] not in played]
    firsts = {"hand": hands, "deck": drawn, "discard": gone}[kind]
    for x in firsts:
        for y in deck:
            if x == y or x.split("-")[0] == y.split("-")[0]:
                continue
            other = swapped(acts, x, y)
            if other != acts and legal(settings, other) is not None:
                text = "\n".join(scenwrite.settings_lines(settings)
                                 + [ln for a in other for ln in scenwrite.action_lines(a)])
                twin = Board(text)
                assert twin.sim.report()["hands"] != b.sim.report()["hands"] or \
                    kind != "hand"
                return b, twin, (x, y)
    raise AssertionError("no %s card to swap in seed %d at %d" % (kind, seed, n))


@pytest.mark.parametrize("kind", ["hand", "deck", "discard"])
@pytest.mark.parametrize("seed,n", [(1, 40), (3, 100), (9, 110)])
def test_swapping_a_hidden_card_changes_neither_the_moves_nor_the_record(kind, seed, n):
    a, b, (x, y) = other_game(seed, n, kind)
    assert a.journal() != b.journal()  # the two games differ: x and y swapped
    pub_a = [m for m in (a.sim.report()[k] for k in PUBLIC)]
    assert pub_a == [b.sim.report()[k] for k in PUBLIC]
    lines_a, items_a = a.moves()
    lines_b, items_b = b.moves()
    assert lines_a == lines_b  # the link's answers, byte for byte the same JSON
    text_a = record.scenario(gamekit.board(), a.journal())
    text_b = record.scenario(gamekit.board(), b.journal())
    assert text_a == text_b
    assert record.from_records(gamekit.board(), items_b) == text_a
    # Nothing of the link's moves names a card (a card name has a dash and a copy).
    flat = json.dumps(items_a[1:])
    for card in gamekit.board().islands:
        assert card + "-1" not in flat and card + "-2" not in flat


def test_a_finished_game_on_the_link_comes_whole_and_records_as_played():
    b = Board(scenwrite.annotated_game(gamekit.board(), 4))
    assert b.sim.report()["phase"] == "over"
    _, items = b.moves()
    assert any(len(m) == 2 and m[0] == "draw" for m in items)  # its cards named
    text = record.from_records(gamekit.board(), items)
    assert text == record.scenario(gamekit.board(), b.journal())
    assert record.STAND_IN not in text and text.startswith("# Kahuna: a game record")


def test_moves_are_refused_in_one_line_and_change_nothing():
    b = Board(cut_game(1, 40))
    before = b.journal()
    for bad in ({"from": -1}, {"from": "0"}, {"from": 1.5}, {"from": True}):
        (err,) = b.send(dict(bad, cmd="moves"))
        assert err == {"error": "from must be a record number, 0 or more"}, bad
    (msg,) = b.send({"cmd": "moves", "from": 10 ** 6})
    assert msg["moves"] == [] and msg["end"] is True
    assert b.journal() == before
    remote = Link(b.sim.app, b.lines.append, lambda: 0, channel="remote")
    b.lines.clear()
    remote.feed(b'{"cmd": "moves"}\n')
    assert json.loads(b.lines[0]) == {"error": "moves is not allowed on the remote link"}


def test_records_that_make_no_game_say_why_in_one_line():
    board = gamekit.board()
    new = ["new", {"variant": "standard", "first": "white", "handicap": None}, 1]
    cases = [
        ([], "no game in these records"),
        ([["place", "HUNA", "ALOA-HUNA"]], "no game in these records"),
        ([new, "garbage"], "record 2 is not a move"),
        ([new, ["deal"], ["deal"], ["deal"], ["deal"], ["deal"], ["deal"],
          ["place", "XXXX", "ALOA-HUNA"]], "names no island"),
        ([new, ["place", "HUNA", "ALOA-HUNA"]], "does not replay"),
        ([new, ["deal"], ["fly"]], "unknown action"),
        ([new, ["place", 5, None]], "not a move"),
        ([new, ["state"]], "compacted"),
    ]
    for items, why in cases:
        with pytest.raises(record.RecordError, match=why):
            record.from_records(board, items)


def test_a_record_in_play_is_the_same_on_micropython(mpy, tmp_path):
    """The page's Python runs record.py in MicroPython: the same file from the same
    journal, and the file replays there (sim --runtime micropython) to the same report."""
    short = Board(cut_game(40, 300))  # a record that stops short, too
    (tmp_path / "short.bin").write_bytes(short.journal())
    b = Board(cut_game(2, 300))
    text = record.scenario(gamekit.board(), b.journal())
    data = tmp_path / "journal.bin"
    data.write_bytes(b.journal())
    from mpy_runner import MicroPython
    # The unix port compiles record.py, the rules and the journal from source here (the
    # page loads them compiled); 1 MiB, as the page's heap is larger still.
    harness = MicroPython(executable=mpy.executable, heap_kib=1024)
    out = harness.run_code(
        "import gamekit\n"
        "import binascii\n"
        "from host_tools.games.kahuna import record\n"
        "for name in (%r, %r):\n"
        "    text = record.scenario(gamekit.board(), open(name, 'rb').read())\n"
        "    print(binascii.b2a_base64(text.encode()).decode().strip())\n"
        % (str(data), str(tmp_path / "short.bin")), timeout=300)
    got = [base64.b64decode(line).decode() for line in out.strip().splitlines()[-2:]]
    assert got == [text, record.scenario(gamekit.board(), short.journal())]
    assert "# It stops short" in got[1]
    scen = tmp_path / "rec.scn"
    scen.write_text(text)
    reports = []
    for runtime in ("cpython", "micropython"):
        import subprocess
        import sys
        got = subprocess.run([sys.executable, "-m", "host_tools", "sim", "--scenario",
                              str(scen), "--json", "--runtime", runtime],
                             capture_output=True, text=True, timeout=600, check=False)
        assert got.returncode == 0, got.stderr
        reports.append(json.loads(got.stdout))
    assert reports[0] == reports[1]
    before = b.sim.report()
    assert {k: reports[1][k] for k in PUBLIC} == {k: before[k] for k in PUBLIC}


def test_a_record_without_stand_ins_for_every_move_stops_short_and_says_so():
    """Random games discard face down and take back so often that for some positions the
    search finds no stand-ins for the latest moves (README: 1% of positions in games of
    the board's players): the record then holds the moves before, says so, and its
    expect lines check the state after them."""
    b = Board(cut_game(40, 300))
    text = record.scenario(gamekit.board(), b.journal())
    assert "# It stops short: after " in text
    kept = int(text.split("# It stops short: after ")[1].split()[0])
    settings, acts = actions_of(b.journal())
    assert 0 < kept < len(acts)
    report = replayed(text)  # the expect lines (the state after `kept` moves) hold
    assert report["phase"] != "over"
    # The same from the link, and the same whatever the hidden cards.
    _, items = b.moves()
    assert record.from_records(gamekit.board(), items) == text


@pytest.mark.parametrize("game,title", [("halunken", "Halunken & Spelunken"),
                                        ("kami", "Kami")])
def test_the_other_games_boards_send_no_moves(game, title):
    """Their games have no public_move (and no record part yet): `moves` is refused in
    one line (Kami's K21 keeps its face-down cards secret even after the game)."""
    from core import board as boardmod
    sim = simcore.Simulation(boardmod.load(gamekit.ROOT + "/board_def/%s.json" % game))
    lines = []
    link = Link(sim.app, lines.append, lambda: sim.now)
    link.feed(b'{"cmd": "moves", "from": 0}\n')
    assert [json.loads(x) for x in lines] == [
        {"error": "this board sends no moves of %s" % sim.app.game_def.TITLE}]
    assert sim.app.game_def.TITLE == title


def test_the_links_moves_are_the_same_on_micropython(mpy):
    """The firmware's part (core.link `moves`, core.linkhost read_current, public_move) under
    the MicroPython unix port: the same lines as on CPython for the same game."""
    from mpy_runner import MicroPython
    harness = MicroPython(executable=mpy.executable, heap_kib=2048)
    out = harness.run_code(
        "import json\n"
        "import gamekit\n"
        "from core.link import Link\n"
        "from host_tools.games.kahuna import scenwrite\n"
        "from host_tools.simulator import engine as simcore\n"
        "from host_tools.simulator.scenario import parse\n"
        "b = gamekit.board()\n"
        "text = scenwrite.annotated_game(b, 1)\n"
        "sim = simcore.Simulation(b)\n"
        "sim.run(parse('\\n'.join(text.split('\\n')[:150]) + '\\n', b))\n"
        "lines = []\n"
        "link = Link(sim.app, lines.append, lambda: sim.now)\n"
        "start = 0\n"
        "while True:\n"
        "    lines.clear()\n"
        "    link.feed((json.dumps({'cmd': 'moves', 'from': start}) + '\\n').encode())\n"
        "    print(lines[0].strip())\n"
        "    msg = json.loads(lines[0])\n"
        "    if msg['end']:\n"
        "        break\n"
        "    start = msg['next']\n", timeout=300)
    got = [json.loads(line) for line in out.strip().splitlines()]
    lines, _ = Board(cut_game(1, 150)).moves()
    assert got == lines and len(got) > 3


@pytest.mark.parametrize("seed,upto", [(6, 220), (11, 180), (12, 200), (12, 260)])
def test_a_game_in_play_with_a_takeback_records_the_game_as_it_stands(seed, upto):
    """R12: the public record of a game in play leaves out a takeback and the turn it took
    back, and replays to the public state the board is in (from the journal and from the
    link's moves alike)."""
    from test_record import play_with_takebacks
    board = gamekit.board()
    sim, taken = play_with_takebacks(
        board, parse(scenwrite.annotated_game(board, seed), board), 2, upto)
    assert taken >= 1 and sim.report()["phase"] != "over"
    b = Board()
    b.sim = sim
    b.link = Link(sim.app, b.lines.append, lambda: sim.now)
    before = sim.report()
    text = record.scenario(board, b.journal())
    assert "takeback" not in text and "stops short" not in text
    after = replayed(text)
    assert {k: after[k] for k in PUBLIC} == {k: before[k] for k in PUBLIC}
    _, items = b.moves()
    assert record.from_records(board, items) == text
