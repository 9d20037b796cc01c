"""The board's own benchmark (core.loopstats, `{"cmd": "bench"}` on the link): its
answer's shape, that asking changes no game state, that recording keeps the frame at 0
bytes allocated, and the host's `bench --port` against the virtual board."""

import json
import subprocess
import sys

import pytest

import gamekit
from core.link import Link
from core.loopstats import RING, LoopStats
from host_tools.maker.vboarddef import sticker_uid
from host_tools.measure import boardbench
from host_tools.simulator import engine as simcore
from mpy_runner import ROOT, MicroPython


def bench_report(stats):
    """The report as the link's `bench` gives it, without its collection. core.benchreport
    is imported afresh each time: the link gives it back after each answer (core.unload
    empties a module it drops)."""
    from core import benchreport
    return benchreport.report(stats)


def series_report(stats, s, scale=1):
    from core import benchreport
    return benchreport.series(stats, s, scale)


def timed(sim):
    """Time the simulated board's ticks, reader and strip as main.py wires them."""
    stats = LoopStats()
    stats.watch_reader(sim.reader)
    stats.watch_strip(sim.app.strip)
    for task, (period, tick) in zip(sim.tasks, stats.tasks(sim.app)):
        assert task[1] == period
        task[2] = tick
    return stats


class Timed:
    """The simulated board, timed, with a link to ask."""

    def __init__(self):
        self.sim = simcore.Simulation(gamekit.board())
        self.stats = timed(self.sim)
        self.lines = []
        self.link = Link(self.sim.app, self.lines.append, lambda: self.sim.now, bench=self.stats)

    def send(self, obj):
        del self.lines[:]
        self.link.feed((json.dumps(obj) + "\n").encode())
        return [json.loads(line) for line in self.lines]

    def tap(self, card):
        self.sim.present(self.sim.uid_of(card), 0)


def test_series_keeps_count_max_total_and_recent_percentiles():
    stats = LoopStats()
    s = stats.series()
    for v in range(1, 101):
        stats.add(s, v * 1000)
    rep = series_report(stats, s, 1000)
    assert rep["n"] == 100 and rep["max"] == 100.0 and rep["total"] == 5050.0
    assert rep["p50"] == 84.0 and rep["p95"] == 99.0  # the last RING (32) samples: 69..100
    assert RING == 32
    assert series_report(stats, stats.series()) == {"n": 0}
    # The series beside it in the same array are left alone; a reset empties it.
    assert all(series_report(stats, k) == {"n": 0} for k in (stats.show, stats.ai_gc))
    stats.reset()
    assert series_report(stats, s) == {"n": 0}
    stats.add(s, 7)
    assert series_report(stats, s) == {"n": 1, "p50": 7, "p95": 7, "max": 7, "total": 7}


# Samples as the loop makes them: ticks of a few us, slices, decisions of seconds (the
# total crosses whole seconds), a ring that wraps; a series beside it left alone.
NATIVE_ADD = """
from array import array
from core import loopnative, loopstats
samples = [3, 0, 9000, 999999, 1, 2500000, 17, 1000000, 1073741823 // 4] + list(range(40))
rows = []
for add in (loopnative.add, loopstats._add_py):
    stats = loopstats.LoopStats()
    k = stats.series(8)
    beside = stats.series(8)
    for x in samples:
        add(stats.v, k, x)
    rows.append(list(stats.v))
print(rows[0] == rows[1], loopstats._add is loopnative.add,
      list(stats.head(beside)) == [0, 0, 0, 0], list(stats.head(k)))
"""


def test_the_native_sample_is_the_bytecode_one_under_micropython():
    """core.loopnative's `add` (machine code: what the Pico runs) leaves the series exactly
    as loopstats' bytecode steps do (what CPython and the virtual board run), and the
    unix port, with its native emitter, records with it."""
    same, native, untouched, head = MicroPython().run_code(NATIVE_ADD).strip().split(" ", 3)
    assert same == "True" and native == "True" and untouched == "True"
    n = 9 + 40
    total = 3 + 9000 + 999999 + 1 + 2500000 + 17 + 1000000 + 1073741823 // 4 + sum(range(40))
    assert head == repr([n, 1073741823 // 4, total, 8])


def test_bench_answer_shape_and_it_changes_no_game_state():
    b = Timed()
    for card in gamekit.WHITE_DEAL + gamekit.BLACK_DEAL + ("HUNA-1",):
        b.tap(card)
    b.sim.advance(2000)
    assert b.sim.app.referee.pending  # HUNA-1 waits for its bridge: the island pulses
    state = b.send({"cmd": "state"})[0]["state"]
    snapshot = b.sim.app.game.snapshot()
    journal = b.sim.flash.files.copy() if hasattr(b.sim.flash, "files") else None
    (rep,) = b.send({"cmd": "bench"})
    assert rep["event"] == "bench" and rep["ring"] == RING
    assert [t["name"] for t in rep["tasks"]] == ["reader", "inputs", "frame", "ai"]
    frame = rep["tasks"][2]
    assert frame["period_ms"] == 20 and frame["overruns"] == 0
    assert frame["busy"]["n"] > 100 and set(frame["period"]) == {"n", "p50", "p95", "max",
                                                                   "total"}
    reader = rep["reader"]
    assert reader["poll_steps"]["n"] == 7  # seven cards laid, each found by one poll
    assert reader["uid_to_frame_ms"]["n"] == 7  # and each drew its frame
    assert rep["frame_out_ms"]["n"] >= frame["busy"]["n"]
    assert rep["ai"] == {"elapsed_ms": {"n": 0}, "compute_ms": {"n": 0}, "slices": {"n": 0},
                         "outside_ms": {"n": 0}, "gc_ms": {"n": 0},
                         "long_slices": {"over_ms": 12.0, "n": 0, "of": 0}}
    assert set(rep["heap"]) >= {"free_low", "gc_seen", "gc_stall_ms"}
    # Nothing changed: the state, the game, the journal; the answer is one line.
    assert len(b.lines) == 1
    assert b.send({"cmd": "state"})[0]["state"] == state
    assert b.sim.app.game.snapshot() == snapshot
    if journal is not None:
        assert b.sim.flash.files == journal
    # reset: answered, then counting afresh
    (rep,) = b.send({"cmd": "bench", "reset": True})
    assert rep["reader"]["poll_steps"]["n"] == 7
    (rep,) = b.send({"cmd": "bench"})
    assert rep["reader"]["poll_steps"]["n"] == 0 and rep["tasks"][2]["busy"]["n"] == 0
    # The report's code (core.benchreport) is loaded for each answer and given back.
    assert "core.benchreport" not in sys.modules


def test_a_link_without_statistics_says_so():
    sim = simcore.Simulation(gamekit.board())
    lines = []
    Link(sim.app, lines.append, lambda: sim.now).feed(b'{"cmd": "bench"}\n')
    assert [json.loads(x) for x in lines] == [{"error": "this board keeps no loop statistics"}]


def test_ai_decisions_are_counted_in_a_solo_game():
    from solokit import SoloGame
    g = SoloGame(gamekit.board(), seed=3, ai="white")
    stats = timed(g.sim)
    while stats.head(stats.ai_elapsed)[0] < 2:
        assert g.step() and g.steps < 500
    lines = []
    Link(g.sim.app, lines.append, lambda: g.sim.now, bench=stats).feed(b'{"cmd": "bench"}\n')
    ai = json.loads(lines[0])["ai"]
    assert ai["elapsed_ms"]["n"] == ai["compute_ms"]["n"] == ai["slices"]["n"] == 2
    # The simulator's clock stands still inside a tick: a decision is its start's tick
    # (kahuna.solo: the observation and the words) and one slice there.
    assert ai["slices"]["max"] == 2 and ai["elapsed_ms"]["max"] > 0


# The solo interface (docs/platform.md): `thinking` while a decision spans ticks, and
# `decisions` made. Run as it is on CPython and on the MicroPython unix port: a decision
# over three slices, one within a tick, a tick that decides nothing; then Halunken's board
# playing every seat (its reveal's `ok` is no decision).
SOLO_INTERFACE = """
from core import board as boardmod
from core import gameload
from core.app import App
from core.cards import Registry
from core.loopstats import HEAD, LoopStats
from hw.leds import Strip
from host_tools.fakehw.strip import VirtualNeoPixel


class Fake:
    def __init__(self):
        self.thinking = False
        self.decisions = 0
        self.script = []

    def tick(self, now):
        self.thinking, made = self.script.pop(0)
        self.decisions += made


class FakeApp:
    def __init__(self):
        self.solo = Fake()

    def tasks(self):
        return [(20, self.tick_ai)]

    def tick_ai(self, now):
        self.solo.tick(now)


def fake():
    app = FakeApp()
    stats = LoopStats()
    ai = stats.tasks(app)[0][1]
    app.solo.script = [(True, 0), (True, 0), (False, 1), (False, 1), (False, 0)]
    for i in range(5):
        ai(20 * i)
    v = stats.v
    k = stats.ai_slices  # a series: its head (count, max, ...), its ring from HEAD
    return [stats.head(k)[0], stats.head(k)[1], v[k + HEAD], v[k + HEAD + 1],
            stats.head(stats.ai_elapsed)[0]]


def halunken():
    game_def = gameload.load("halunken")
    b = boardmod.load("board_def/halunken.json", keep_raw=False)
    strip = Strip(VirtualNeoPixel(b.led_count), b.led_count)
    app = App(game_def, b, Registry([]), strip)
    stats = LoopStats()
    ticks = stats.tasks(app)
    ai = ticks[-1][1]  # App.tasks(): the ai task last
    app.new_game({"players": 3, "seed": 5, "ai": ["p1", "p2", "p3"]})
    for i in range(8000):  # 160 s: the figures' walks hold the board's players
        ai(20 * i)
        if app.game.is_over():
            break
    return [stats.head(stats.ai_elapsed)[0], stats.head(stats.ai_compute)[0],
            stats.head(stats.ai_slices)[1],
            app.solo.decisions, app.game.is_over()]


print([fake(), halunken()])
"""


def solo_interface_figures(runtime):
    if runtime == "micropython":
        out = MicroPython(heap_kib=1024).run_code(SOLO_INTERFACE)
        return json.loads(out.strip().splitlines()[-1].replace("True", "true")
                          .replace("False", "false"))
    got = []
    exec(SOLO_INTERFACE, {"print": got.append, "__name__": "solo_interface"})
    return json.loads(json.dumps(got[0]))


@pytest.mark.parametrize("runtime", ["cpython", pytest.param(
    "micropython", marks=pytest.mark.micropython)])
def test_decisions_are_timed_through_the_solo_interface(runtime):
    fake, halunken = solo_interface_figures(runtime)
    # Three slices then a decision; one decision in one slice; a tick that made none.
    assert fake == [2, 3, 3, 1, 2]
    n, compute, slices, decisions, over = halunken
    assert over and decisions > 8  # a whole game: at least a movement card a round
    assert n == compute == decisions and slices == 1


@pytest.mark.micropython
def test_recording_keeps_the_frame_free_of_allocation_under_micropython():
    """As tests/games/kahuna/test_view.py's frame check (and with its heap), with the frame
    tick and the strip timed and the collector's looks at the heap told."""
    out = MicroPython(heap_kib=512).run_code(
        "import gc\n"
        "from hw.leds import Strip\n"
        "from host_tools.fakehw.strip import VirtualNeoPixel\n"
        "from core import board as boardmod\n"
        "from core import gameload\n"
        "from core.app import App\n"
        "from core.cards import Registry\n"
        "from core.loopstats import LoopStats\n"
        "from core import benchreport\n"
        "game_def = gameload.load('kahuna')\n"
        "b = boardmod.load('board_def/kahuna.json', keep_raw=False)\n"
        "names = ['%%s-%%d' %% (i, n) for i in b.islands for n in (1, 2)]\n"
        "strip = Strip(VirtualNeoPixel(b.led_count), b.led_count)\n"
        "stats = LoopStats()\n"
        "stats.watch_strip(strip)\n"
        "app = App(game_def, b, Registry(names), strip)\n"
        "ticks = stats.tasks(app)\n"
        "frame = [t for p, t in ticks][0]\n"
        "ai = [t for p, t in ticks][1]\n"
        "for card in %r:\n"
        "    app.tap_card(card, 0)\n"
        "for i in range(40):\n"
        "    frame(20 * i)\n"
        "    ai(20 * i)\n"
        "def measure():\n"
        "    gc.collect()\n"
        "    gc.disable()\n"
        "    a = gc.mem_alloc()\n"
        "    for i in range(200):\n"
        "        frame(1000 + 20 * i)\n"
        "        ai(1000 + 20 * i)\n"
        "        if i %% 10 == 0:\n"  # the collector's looks, one of them after a rise
        "            stats.heap_seen(50000 + 2000 * (i == 100) - i, 900)\n"
        "    return gc.mem_alloc() - a\n"
        "allocated = measure()\n"
        # its own full collection: the next look's rise is not automatic
        "benchreport.report(stats, stats.heap_now())\n"
        "stats.heap_seen(gc.mem_free() + 4096, 900)\n"
        "v = stats.v\n"  # a series' first number is its count
        "print(v[stats.show], allocated, stats.heap_low > 0 and v[stats.gc_stall] == 1)\n"
        % (list(gamekit.WHITE_DEAL + gamekit.BLACK_DEAL) + ["HUNA-1"],))
    shown, allocated, sampled = out.split()
    assert int(shown) >= 40 and sampled == "True"
    assert allocated == "0"


def test_host_bench_port_errors_are_one_line():
    proc = subprocess.run([sys.executable, "-m", "host_tools", "bench", "--port",
                           "/dev/no-such-board"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().count("\n") == 0 and "/dev/no-such-board" in proc.stderr


def test_host_bench_reads_the_virtual_boards_answer(flashed_vboard):
    board = flashed_vboard
    # A card laid on the virtual board's scanner: the board sees it, as a Pico does.
    board.client.place_tag(sticker_uid("HUNA-1"))
    import time
    time.sleep(1.5)
    board.client.remove_tag()
    proc = subprocess.run([sys.executable, "-m", "host_tools", "bench", "--port", board.port,
                           "--json"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    rep = json.loads(proc.stdout)
    assert [t["name"] for t in rep["tasks"]] == ["reader", "inputs", "frame", "ai"]
    assert rep["tasks"][2]["busy"]["n"] > 10
    assert rep["reader"]["poll_steps"]["n"] >= 1
    assert rep["heap"]["live"] > 0 and rep["heap"]["free_low"] > 0
    text = subprocess.run([sys.executable, "-m", "host_tools", "bench", "--port", board.port],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert text.returncode == 0 and "frame" in text.stdout and "heap: live" in text.stdout
    assert boardbench.table(rep).splitlines()[0].startswith("task")


def test_long_slices_are_counted_over_every_decision(monkeypatch):
    """Slices longer than LONG_SLICE_US are counted since boot, with all the slices
    (the ring of the last 32 would see the last decision only). A fake clock times them."""
    from core import loopstats

    class Solo:
        thinking = False
        decisions = 0

    class FakeApp:
        solo = Solo()

        def tasks(self):
            return [(10, self.tick_ai)]

        def tick_ai(self, now):
            pass

    app = FakeApp()
    clock = [0]
    monkeypatch.setattr(loopstats, "ticks_us", lambda: clock[0])
    stats = loopstats.LoopStats()
    stats.tasks(app)
    lengths = [8000, 13000, 10000, 18000, 12000, 12001]  # us, the slices of two decisions

    def tick(now):  # thinks over three ticks, the third decides; twice
        clock[0] += lengths[now]
        app.solo.thinking = now not in (2, 5)
        app.solo.decisions += now in (2, 5)

    ai = stats._ai(app, stats.tasks_[0], tick)
    for i in range(6):
        ai(i)
    rep = bench_report(stats)["ai"]
    assert rep["long_slices"] == {"over_ms": 12.0, "n": 3, "of": 6}  # 13, 18 and 12.001
    assert rep["slices"]["n"] == 2 and rep["compute_ms"]["max"] == 42.0
    # back to back: nothing outside the slices
    assert rep["outside_ms"]["n"] == 2 and rep["outside_ms"]["max"] == 0


def test_a_decisions_time_outside_every_tick_is_what_no_tick_collection_or_look_took(
        monkeypatch):
    """Between two slices the clock runs on for a frame tick (timed: inside), a look at the
    heap and a collection (told: inside, and reported apart) and a gap nobody timed
    (outside)."""
    from core import loopstats

    class Solo:
        thinking = False
        decisions = 0

    class FakeApp:
        solo = Solo()

        def tasks(self):
            return [(10, self.tick_ai), (20, self.tick_frame)]

        def tick_ai(self, now):
            pass

        def tick_frame(self, now):
            pass

    app = FakeApp()
    clock = [0]
    monkeypatch.setattr(loopstats, "ticks_us", lambda: clock[0])
    stats = loopstats.LoopStats()
    stats.tasks(app)

    def slice_(now):
        clock[0] += 5000
        app.solo.thinking = now < 2
        app.solo.decisions += now == 2

    def frame_(now):
        clock[0] += 1500

    ai = stats._ai(app, stats.tasks_[0], slice_)
    frame = stats._timed(stats.tasks_[1], frame_, False)
    ai(0)
    frame(0)  # 1.5 ms inside
    clock[0] += 700  # nobody's: outside
    stats.heap_seen(50000, 1000)  # a look at the heap: 1 ms inside
    clock[0] += 1000
    ai(1)
    stats.collected(20000)  # a collection, 20 ms inside
    clock[0] += 20000
    clock[0] += 300  # outside
    ai(2)
    rep = bench_report(stats)["ai"]
    assert rep["elapsed_ms"]["max"] == 38.5 and rep["compute_ms"]["max"] == 15.0
    assert rep["outside_ms"]["max"] == 1.0  # 0.7 + 0.3
    assert rep["gc_ms"]["max"] == 21.0  # the look and the collection, reported apart
    looks = bench_report(stats)["heap"]["gc_looks"]
    assert looks == {"n": 1, "total": 1.0}  # the look, counted and timed


def test_a_long_slice_is_one_over_the_slice_kahunas_player_asks_plus_20_percent():
    """Issue 20: no task overruns its slice by more than 20%; the bench counts the slices
    over that (Kahuna's player is the one that thinks over several ticks)."""
    from core import loopstats
    from games.kahuna import solo

    assert loopstats.LONG_SLICE_US == solo.SLICE_MS * 1200
