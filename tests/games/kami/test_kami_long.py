"""A long game of Kami (issue 18: a long game ran out of heap under the MicroPython
simulator). Four players to exactly 15 in mode `kami` (a total past the target returns to
0, K18), so a random game lasts dozens of rounds: it replays to the same report on
CPython and in the MicroPython unix port with the simulator's heap, with and without
power cuts; the journal stays bounded (compacted at its limit, core.journal.LIMIT), as a
board's would; and the simulator's virtual flash keeps a growing file in pages, never in
one piece the size of the file (host_tools/fakehw/flash.py, where the heap ran out); and
the journal is compacted at each round's end (game.checkpoint), so that a power cut at
any event replays the round under way only."""

import json
import os
import subprocess
import sys

import pytest

from core import board as boardmod
from core import journal as journalmod
from host_tools.fakehw.flash import PAGE, Pages
from host_tools.games.kami import randgame, scenwrite
from host_tools.simulator.engine import Simulation
from host_tools.simulator.scenario import parse
from mpy_runner import ROOT, MicroPython

SETTINGS = {"players": 4, "mode": "kami", "first": "p1", "target": 15, "deal": "given"}
HEAP_KIB = 200  # the pages against one piece: pages fit in 128, one piece not in 400
LONG = 30  # rounds: past the 17 where the unix port's 1 MB simulator heap ran out
CUT_EVERY = 25  # events between power cuts (never in an open claim: the contract drops it)


def long_game():
    """(seed, actions) of the first random game from seed 1 on that lasts LONG rounds."""
    for seed in range(1, 60):
        g = randgame.new_game(SETTINGS)
        actions = randgame.play(g, randgame.Rng(seed))
        if g.round >= LONG:
            return seed, actions, g.round
    raise AssertionError("no random game of %d rounds in 60 seeds" % LONG)


def scenario(actions, cuts):
    """The game as a scenario, with its expect lines at each round's end, and a power cut
    every CUT_EVERY events when `cuts` (outside a claim)."""
    g = randgame.new_game(SETTINGS)
    lines = scenwrite.settings_lines(SETTINGS)
    for i, act in enumerate(actions):
        scored = len(g.rounds)
        lines.extend(scenwrite.action_lines(g, act))
        g.apply(act)
        if len(g.rounds) != scored:
            lines.extend(scenwrite.expect_lines(g))
        if cuts and i % CUT_EVERY == CUT_EVERY - 1 and g.phase != "claim":
            lines.append("power-cut")
    return "\n".join(lines) + "\n", g


def sim_json(path, runtime):
    proc = subprocess.run([sys.executable, "-m", "host_tools", "sim", "--game", "kami",
                           "--scenario", path, "--json", "--runtime", runtime],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, (runtime, proc.stderr[-2000:])
    assert proc.stderr == ""
    return proc.stdout


@pytest.mark.micropython
@pytest.mark.parametrize("cuts", [False, True], ids=["no-cuts", "power-cuts"])
def test_a_long_game_replays_to_the_same_report_on_both_runtimes(cuts, tmp_path):
    seed, actions, rounds = long_game()
    text, g = scenario(actions, cuts)
    assert rounds >= LONG and g.is_over()
    assert (text.count("power-cut") > 20) == cuts
    path = tmp_path / "long.scn"
    path.write_text(text)
    outs = [sim_json(str(path), runtime) for runtime in ("cpython", "micropython")]
    assert outs[0] == outs[1]
    report = json.loads(outs[0])
    assert report["phase"] == "over" and len(report["rounds"]) == rounds
    assert report["rejected"] == []


def test_a_long_games_journal_is_compacted_and_stays_bounded():
    """On the board the journal is a file on the flash, not in the heap; it must still
    not grow without bound: it is compacted to the game's state at each round's end
    (game.checkpoint) and past its limit (core.journal.LIMIT, 32 KB; 8 KB here), and a
    power cut after that comes back to the same game."""
    seed, actions, rounds = long_game()
    text, g = scenario(actions, False)
    board = boardmod.load(os.path.join(ROOT, "board_def", "kami.json"))
    commands = parse(text, board)
    sim = Simulation(board)
    limit = 8 * 1024
    biggest = 0
    for cmd in commands:
        sim.app.journal.limit = limit  # the journal of this boot (no power cut here)
        sim.execute(cmd)
        biggest = max(biggest, len(sim.flash.files["/game.jnl"]))
    assert sim.failures == []
    assert sim.flash.bytes_written > 3 * limit  # the game's records would pass it
    assert biggest <= limit and biggest <= journalmod.LIMIT
    assert sim.app.journal.size == len(sim.flash.files["/game.jnl"])
    records = []
    sim.app.journal.replay(records.append)
    assert [r[0] for r in records[:2]] == ["new", "state"]  # it was compacted
    before = sim.report()
    sim.boot()
    after = sim.report()
    del before["leds"], after["leds"]  # the end's animation starts again at a boot
    assert after == before and after["phase"] == "over"


def test_a_growing_file_is_kept_in_pages():
    p = Pages(b"K")
    for i in range(200):
        p.extend(bytes([i]) * 201)
    assert len(p) == 1 + 200 * 201
    assert all(len(page) <= PAGE for page in p.pages)
    whole = bytes(p)
    assert whole[:2] == b"K\x00" and whole[-1] == 199
    assert p[1000:1300] == whole[1000:1300] and p[-1] == 199
    p[5] = 77
    assert bytes(p)[5] == 77 and p == bytes(p)


GROW = (
    "import sys\n"
    "from host_tools.fakehw import flash\n"
    "if sys.argv[-1] == 'bytearray':\n"
    "    flash.Pages = bytearray  # one piece per file, as before the pages\n"
    "fs = flash.VirtualFlash()\n"
    "keep = None\n"
    "for i in range(1100):\n"
    "    with fs.open('/game.jnl', 'ab') as f:\n"
    "        f.write(b'K' * 30)\n"
    "    if i % 8 == 0:\n"
    "        keep = (bytes(20), keep)  # the game's small objects between the records\n"
    "f = fs.open('/game.jnl', 'rb')\n"
    "n = 0\n"
    "while True:  # read as the journal reads: record by record\n"
    "    piece = f.read(30)\n"
    "    if not piece:\n"
    "        break\n"
    "    n += len(piece)\n"
    "print(n)\n")


@pytest.mark.micropython
def test_a_growing_file_needs_no_large_piece_of_the_heap_on_micropython(tmp_path):
    """A 33 KB file (the journal's limit, 32 KB, and a record) written record by record as
    the journal writes it, with small objects made between the writes: in pages it fits
    a 200 KB heap (it does in 128), where one bytearray growing by its records runs out
    (it did in 400: each write asked for one piece the size of the file)."""
    path = tmp_path / "grow.py"
    path.write_text(GROW)
    mpy = MicroPython(heap_kib=HEAP_KIB)
    assert mpy.run_script(str(path), "pages", timeout=120).split() == ["33000"]
    old = mpy.exec(script=str(path), args=("bytearray",), timeout=120)
    assert old.returncode != 0 and "MemoryError" in old.stdout + old.stderr


def test_a_power_cut_at_every_event_replays_only_the_round_under_way():
    """game.checkpoint: at each round's end the journal becomes the game's state (and the
    records that follow it), so a boot replays one round's records, not the game's. A
    power cut after every event of the long game's first rounds boots to the same report
    (the expect lines hold)."""
    seed, actions, rounds = long_game()
    text, g = scenario(actions, False)
    board = boardmod.load(os.path.join(ROOT, "board_def", "kami.json"))
    sim = Simulation(board)
    start = (1, 0)  # the round and the journal's action count at its start
    compacted = 0
    for cmd in parse(text, board):
        sim.execute(cmd)
        if cmd[1] == "expect":
            continue
        records = []
        sim.app.journal.replay(records.append)
        game = sim.app.game
        if game.round != start[0]:
            start = (game.round, sim.app.seq)
        if game.round > 1:
            assert [r[0] for r in records[:2]] == ["new", "state"]
            assert records[1][2] <= start[1]  # the state of this round's start or later
            assert len(records) <= 2 + sim.app.seq - start[1]
            compacted += 1
        before = sim.report()
        sim.boot()  # the power cut
        after = sim.report()
        del before["leds"], after["leds"]
        assert after == before, cmd
        if game.round > 6:
            break
    assert sim.failures == [] and compacted > 100


def test_a_state_too_long_for_a_record_leaves_the_journal_whole():
    """Past some 390 rounds Kami's state would not fit a journal record (16 KB): the
    compaction (at a round's end, or at the size limit) is skipped and the action still
    journaled, so the game goes on and a boot still replays it."""
    from host_tools.fakehw.flash import VirtualFlash

    flash = VirtualFlash()
    j = journalmod.Journal("/game.jnl", flash, limit=64)
    j.start({"players": 4})

    def huge():
        return {"players": 4}, "x" * (journalmod.MAX_PAYLOAD + 1), 1

    for _ in range(5):
        j.append(["pass"], huge)  # past the limit: compaction tried and skipped
    try:
        j.compact(huge)
    except journalmod.JournalError:
        pass
    else:
        raise AssertionError("a state longer than a record was written")
    records = []
    j.replay(records.append)
    assert records == [["new", {"players": 4}, 1]] + [["pass"]] * 5
