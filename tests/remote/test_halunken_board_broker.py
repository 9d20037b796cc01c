"""A Halunken board through Mosquitto: a virtual board with Halunken flashed on it (`make
flash BOARD=board_def/halunken.json`, under MicroPython), bridged by `python -m host_tools
remote join CODE --port P --echo --secrets DIR` at p2, a host table of random moves at p1
(`remote create --game halunken`), the dealer beside the broker; the board's player types
at the bridge what the dealer offers its seat (its movement card tapped); the bridge is
killed right after a commitment and started again (its secrets read back from DIR, it
reveals). Both reports agree, every commitment opens, and the spy on `#` sees the board's
user send a digest, never a card, before the dealer announces the reveal (H7, H32)."""

import json
import os
import queue
import random
import subprocess
import sys
import threading
import time

import pytest
from remotekit import Spy, finish, path_in, report, start, stop

from host_tools.games.halunken import remote as hremote
from host_tools.remote import commit
from mpy_runner import ROOT
from vboardkit import flash_vboard

CODE = "HB2QXM"
WAIT = 60


@pytest.fixture
def board(tmp_path):
    gen = flash_vboard(tmp_path, "board_def/halunken.json")
    yield next(gen)
    for _ in gen:
        pass


def typed(act):
    """What the board's player types at the bridge for request `act`."""
    k = act[0]
    if k in ("place", "place_bj", "rum"):
        return "pick %s" % act[1]
    if k == "commit":
        return "tap P%d-%s" % (3 if act[1] == "blackjack" else int(act[1][1:]), act[2])
    if len(act) == 2 and act[1] != "none":
        return "tap %s" % act[1]
    return "press done"


def test_a_halunken_board_plays_a_whole_game_through_the_broker(broker, board, tmp_path):
    dealer = start(["dealer"] + broker.args("dealer") + ["--seed", "5"],
                   path_in(tmp_path, "dealer.log"))
    spy = Spy(broker)
    host = start(["remote", "create", "--code", CODE, "--game", "halunken", "--players", "2",
                  "--player", "random", "--seed", "1", "--secrets",
                  path_in(tmp_path, "alice-secrets"), "--report",
                  path_in(tmp_path, "alice.json")] + broker.args("alice"),
                 path_in(tmp_path, "alice.log"))
    lines = queue.Queue()
    procs = []
    secrets = path_in(tmp_path, "bob-secrets")

    def start_bridge():
        with open(path_in(tmp_path, "bob.log"), "a") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "host_tools", "remote", "join", CODE, "--port",
                 board.port, "--echo", "--secrets", secrets, "--report",
                 path_in(tmp_path, "bob.json")] + broker.args("bob"), cwd=ROOT,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True,
                bufsize=1)
        threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout],
                         daemon=True).start()
        procs.append(proc)
        return proc
    bridge = start_bridge()
    rng = random.Random(2)
    table = news = None
    waiting = False
    killed = False
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
            assert time.monotonic() - quiet < WAIT, (news, table and table["seq"])
            secret = table["public"].get("secret") if table is not None else None
            if not killed and secret and "p2" in secret["committed"]:
                bridge.kill()  # right after its commitment: its secret is on disk
                bridge.wait(10)
                bridge = start_bridge()
                killed = True
                news = table = None
                continue
            if (waiting or news is None or table is None or not table["current"]
                    or news["fed"] != table["seq"] or news["moves"] or not table["view"]):
                continue
            opts = [o for o in table["view"]["options"] if o[0] != "reveal"]
            if not opts or bridge.poll() is not None:
                continue
            act = hremote.random_request(opts, rng) or opts[0]
            bridge.stdin.write(typed(act) + "\n")
            bridge.stdin.flush()
            waiting = True
        assert bridge.wait(WAIT) == 0
        finish(host, "alice's table")
    finally:
        for proc in procs + [host]:
            if proc.poll() is None:
                proc.kill()
        stop(dealer)
    assert killed and len(procs) == 2
    assert open(path_in(tmp_path, "bob.log")).read().count("a new game on the board") == 1
    alice, bob = report(path_in(tmp_path, "alice.json")), report(path_in(tmp_path, "bob.json"))
    assert alice == bob and alice["public"]["winner"]
    assert commit.audit(alice["log"]) == []
    assert not os.path.exists(os.path.join(secrets, "%s-bob.json" % CODE))  # forgotten
    announced = set()
    commits = {}  # figure -> its commitments seen on the event topic
    reveals = 0
    for topic, payload, _ in spy.got():
        msg = json.loads(payload)
        action = msg.get("action") or []
        if topic.endswith("/event") and action[:1] == ["reveal"]:
            announced.add(action[1])
        if topic.endswith("/event") and action[:1] == ["commit"]:
            commits[action[1]] = commits.get(action[1], 0) + 1
        if topic.endswith("/move/bob") and action[:1] == ["commit"]:
            assert len(action) == 3 and commit.is_digest(action[2])  # no card
        if topic.endswith("/move/bob") and action[:1] == ["reveal"]:
            # the board's card, sent only once its round's reveal was announced
            assert commits.get(action[1], 0) == len(announced), (topic, action)
            reveals += 1
    assert reveals >= 2 and len(announced) >= 2
    spy.close()
