"""Two virtual boards at two tables (the firmware flashed on each with `make flash`, under
MicroPython), each bridged to a real Mosquitto by `python -m host_tools remote ... --port`,
the dealer beside the broker: a whole game of random moves, each board driven by a
simulated table (its player taps, presses and picks on its own board what the rules
allow its seat, through the bridge's typed commands), with faults on the way: a bridge
killed mid-game and started again, the broker restarted, a board reset (a power cut: it
boots from its journal), old events sent again late. Both tables' reports are the same at
the end and so are both boards' states; the spy on `#` sees no card before the rules show it."""

import json
import queue
import subprocess
import sys
import threading
import time

import pytest
from boardkit import CODE, Player
from remotekit import Spy, path_in, start, stop
from test_remote_game import check_privacy

from mpy_runner import ROOT
from vboardkit import flash_vboard

WAIT = 60  # seconds without news from a table before the test gives up


class Bridge:
    """`remote create|join --port P --echo` in a subprocess, and the simulated player at
    its board (boardkit.Player): it reads the bridge's JSON lines (the board's and what the
    table knows) and types the player's taps, presses and picks."""

    def __init__(self, args, log_path, seat, seed):
        self.args = args
        self.log_path = log_path
        self.player = Player(seat, seed, self.type)
        self.lines = queue.Queue()
        self.start()

    def start(self):
        log = open(self.log_path, "a")
        self.proc = subprocess.Popen([sys.executable, "-m", "host_tools"] + self.args,
                                    cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=log, text=True, bufsize=1)
        log.close()
        threading.Thread(target=self._read, args=(self.proc,), daemon=True).start()

    def _read(self, proc):
        for line in proc.stdout:
            self.lines.put(line)

    def kill(self):
        self.proc.kill()
        self.proc.wait(10)

    def type(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def take(self):
        """Every line the bridge printed since the last call, to the player; False when
        none came."""
        got = False
        while True:
            try:
                raw = self.lines.get_nowait()
            except queue.Empty:
                return got
            try:
                line = json.loads(raw)
            except ValueError:
                continue  # "game code: ...", the end's summary
            got = True
            self.player.line(line)


@pytest.fixture
def boards(tmp_path):
    """Two virtual boards with Kahuna flashed on each (in parallel: about 6 s each)."""
    gens, got = [], {}

    def flash(name):
        d = tmp_path / name
        d.mkdir()
        gen = flash_vboard(d)
        gens.append(gen)
        got[name] = next(gen)
    threads = [threading.Thread(target=flash, args=(n,)) for n in ("white", "black")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert set(got) == {"white", "black"}
    yield got
    for gen in gens:
        for _ in gen:
            pass


def test_two_virtual_boards_play_a_whole_game_through_faults(broker, boards, tmp_path):
    dealer = start(["dealer"] + broker.args("dealer") + ["--seed", "11", "--state-dir",
                                                          path_in(tmp_path, "games")],
                   path_in(tmp_path, "dealer.log"))
    spy = Spy(broker)
    reports = {s: path_in(tmp_path, s + ".json") for s in ("white", "black")}
    args = {"white": ["remote", "create", "--code", CODE],
            "black": ["remote", "join", CODE]}
    users = {"white": "alice", "black": "bob"}

    def bridge_args(seat, op=None):
        return ((op or args[seat]) + ["--port", boards[seat].port, "--echo", "--report",
                                      reports[seat]] + broker.args(users[seat]))
    tables = {s: Bridge(bridge_args(s), path_in(tmp_path, s + ".log"), s, i + 1)
              for i, s in enumerate(("white", "black"))}
    faults = []
    try:
        steps = 0
        quiet_since = time.monotonic()
        while not all(t.player.over() for t in tables.values()):
            news = False
            for t in tables.values():
                news |= t.take()
            moved = any([t.player.act() for t in tables.values()])
            if news or moved:
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since > WAIT:
                raise AssertionError("no news for %d s: %s" % (WAIT, [
                    (t.player.news, t.player.table and t.player.table["seq"])
                    for t in tables.values()]))
            steps += moved
            if steps == 40 and "bridge" not in faults:
                faults.append("bridge")  # white's bridge killed mid-game, started again
                tables["white"].kill()
                tables["white"].args = bridge_args("white", ["remote", "join", CODE])
                tables["white"].start()
            if steps == 90 and "broker" not in faults:
                faults.append("broker")
                broker.restart()
            if steps == 110 and "power" not in faults:
                faults.append("power")  # black's board reset (its RUN pin): it reboots
                boards["black"].client.reset()
            if steps == 130 and "late" not in faults:
                faults.append("late")  # old events, sent again late (as the dealer)
                late = Spy(broker, "dealer", topics=("kb/%s/reply/dealer" % CODE,))
                for m in [m for m in spy.got() if m[0].endswith("/event")][5:25]:
                    late.publish(m[0], m[1])
                late.close()
            time.sleep(0.005)
        for t in tables.values():
            assert t.proc.wait(WAIT) == 0, open(t.log_path).read()[-2000:]
    finally:
        for t in tables.values():
            if t.proc.poll() is None:
                t.kill()
        stop(dealer)
    print("moves typed again:", {s: t.player.again for s, t in tables.items()})
    assert faults == ["bridge", "broker", "power", "late"]
    assert "the board restarted" in open(tables["black"].log_path).read()
    for seat, t in tables.items():  # the bridge started again went on with the board's game
        assert open(t.log_path).read().count("a new game on the board") == 1, seat
    white, black = (json.load(open(reports[s])) for s in ("white", "black"))
    assert white == black and white["public"]["winner"] in ("white", "black", "draw")
    for t in tables.values():  # each board's own state is the game's
        for key in ("bridges", "control", "scores", "winner", "round", "hand_sizes"):
            assert t.player.state[key] == white["public"][key], key
    assert check_privacy(spy.got(), {"white": "alice", "black": "bob"}) >= white["seq"]
    spy.close()
