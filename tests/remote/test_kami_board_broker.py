"""A Kami board through Mosquitto: a virtual board with Kami flashed on it (`make flash
BOARD=board_def/kami.json`, under MicroPython), bridged by `python -m host_tools remote
join CODE --port P --echo` at p2, a host table of random moves at p1 (`remote create
--game kami`), the dealer beside the broker; the board's player types at the bridge what
the dealer offers its seat; the bridge is killed mid-game and started again (it goes on
with the board's game). Both reports and the board's state agree at the end, and the spy
on `#` sees no Kami card before the rules show it (K6, K13, K21)."""

import json
import queue
import random
import subprocess
import sys
import threading
import time

import pytest
from remotekit import Spy, finish, path_in, report, start, stop
from test_remote_halkami import check_kami_wire

from host_tools.games.kami import remote as kremote
from mpy_runner import ROOT
from vboardkit import flash_vboard

CODE = "KB2QXM"
WAIT = 60


@pytest.fixture
def board(tmp_path):
    gen = flash_vboard(tmp_path, "board_def/kami.json")
    yield next(gen)
    for _ in gen:
        pass


def test_a_kami_board_plays_a_whole_game_through_the_broker(broker, board, tmp_path):
    dealer = start(["dealer"] + broker.args("dealer") + ["--seed", "5"],
                   path_in(tmp_path, "dealer.log"))
    spy = Spy(broker)
    host = start(["remote", "create", "--code", CODE, "--game", "kami", "--players", "2",
                  "--target", "4", "--player", "random", "--seed", "1", "--report",
                  path_in(tmp_path, "alice.json")] + broker.args("alice"),
                 path_in(tmp_path, "alice.log"))
    lines = queue.Queue()
    procs = []

    def start_bridge():
        """`remote join CODE --port P --echo` (again after a kill: the board kept its
        game, the bridge goes on with it)."""
        with open(path_in(tmp_path, "bob.log"), "a") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "host_tools", "remote", "join", CODE, "--port",
                 board.port, "--echo", "--report", path_in(tmp_path, "bob.json")]
                + broker.args("bob"), cwd=ROOT, stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=log, text=True, bufsize=1)
        threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout],
                         daemon=True).start()
        procs.append(proc)
        return proc
    bridge = start_bridge()
    rng = random.Random(2)
    table = news = state = None
    waiting = False
    typed_count = 0
    try:
        quiet = time.monotonic()
        while bridge.poll() is None or not lines.empty():
            try:
                line = json.loads(lines.get(timeout=0.05))
            except queue.Empty:
                line = None
            except ValueError:
                continue
            if line is not None:
                quiet = time.monotonic()
                table = line.get("table", table)
                b = line.get("board") or {}
                assert b.get("event") != "refused", b
                if b.get("event") == "remote":
                    news, waiting = b, False
                if isinstance(b.get("state"), dict):
                    state = b["state"]
                elif state is not None and isinstance(b.get("changed"), dict):
                    state.update(b["changed"])
            assert time.monotonic() - quiet < WAIT, (news, table and table["seq"])
            if (waiting or news is None or table is None or not table["current"]
                    or news["fed"] != table["seq"] or news["moves"] or not table["view"]):
                continue
            opts = [o for o in table["view"]["options"] if o[0] != "claim"]
            if not opts or bridge.poll() is not None:
                continue
            if typed_count == 3:  # the bridge killed mid-game, and started again
                bridge.kill()
                bridge.wait(10)
                bridge = start_bridge()
                news = None
                typed_count += 1
                continue
            act = kremote.random_request(opts, rng) or opts[0]
            typed = ("tap %s" % act[1] if len(act) == 2 else
                     "press done" if act[0] == "pass" else "press back")
            bridge.stdin.write(typed + "\n")
            bridge.stdin.flush()
            waiting = True
            typed_count += 1
        assert bridge.wait(WAIT) == 0
        finish(host, "alice's table")
    finally:
        for proc in procs + [host]:
            if proc.poll() is None:
                proc.kill()
        stop(dealer)
    assert len(procs) == 2
    assert open(path_in(tmp_path, "bob.log")).read().count("a new game on the board") == 1
    alice, bob = report(path_in(tmp_path, "alice.json")), report(path_in(tmp_path, "bob.json"))
    assert alice == bob and alice["public"]["winner"] in ("p1", "p2")
    for key in ("lines", "centre", "scores", "rounds", "winner", "hand_sizes"):
        assert state[key] == alice["public"][key], key
    assert any(e[1] == "p2" and e[2] == ["defend"] for e in alice["log"])
    seats = {"p1": "alice", "p2": "bob"}
    assert check_kami_wire(spy.got(), seats) >= alice["seq"]
    spy.close()
