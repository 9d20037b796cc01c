"""`make flash` onto the virtual board as a Pico W (`vboard --pico-w`): a Pico W's board
definition gets the network driver and /lib/mqtt_async.mpy, `--net FILE` gets /net.json
(never shown), and on the board the driver reaches the tests' Mosquitto through them;
flashing a plain Pico's definition afterwards takes both away again."""

import json
import os
import subprocess
import sys
import time

import pytest
from remotekit import Spy

from host_tools.maker import flash
from host_tools.maker.vboardclient import Running
from mpy_runner import ROOT

TIMEOUT = 240  # seconds for one flash (the whole firmware through the virtual serial line)
KAHUNA = os.path.join(ROOT, "board_def", "kahuna.json")

# Run on the board in its raw REPL: the driver with the flashed settings, subscribed to the
# topic whose retained message the dealer left, publishing one message of its own.
ON_BOARD = """\
import asyncio
from hw import net
from core.files import NET_FILE
got = []
said = []
n = net.start(NET_FILE, lambda topic, payload, retained: got.append((topic, payload,
              retained)), said.append)
async def go():
    await n.subscribe('kb/T1/event')
    await asyncio.wait_for(n.run(), 8)
    await n.publish('kb/T1/move/alice', b'from the virtual Pico W')
    for _ in range(100):
        if got:
            break
        await asyncio.sleep_ms(50)
    await n.stop()
asyncio.run(go())
print(repr((said, got)))
"""


@pytest.fixture
def board(tmp_path):
    d = tmp_path / "board"
    d.mkdir()
    log = open(tmp_path / "vboard.log", "w")
    b = Running(str(d), args=["--pico-w"], log=log)
    b.dir = str(d)
    try:
        yield b
    finally:
        b.stop()
        log.close()


def run_flash(port, board_def, build_dir, *args):
    return subprocess.run([sys.executable, "-m", "host_tools", "flash", "--port", port,
                           "--board-def", board_def, "--build-dir", build_dir, "--no-reset"]
                          + list(args), capture_output=True, text=True, timeout=TIMEOUT,
                          cwd=ROOT, stdin=subprocess.DEVNULL)


def test_a_pico_w_flash_installs_the_client_and_it_reaches_the_broker(tmp_path, broker,
                                                                      board):
    with open(KAHUNA) as f:
        raw = json.load(f)
    raw["hardware"]["network"] = "wifi"
    picow = tmp_path / "picow.json"
    picow.write_text(json.dumps(raw))
    password = broker.passwords["alice"]
    net = tmp_path / "net.json"
    net.write_text(json.dumps({"ssid": "home", "wifi_password": "wifi-key-123",
                               "host": "127.0.0.1", "port": broker.port, "user": "alice",
                               "password": password}))
    proc = run_flash(board.port, str(picow), str(tmp_path / "b1"), "--net", str(net))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert "[settings] net.json  sent (not shown)" in lines
    assert [ln for ln in lines if " lib/mqtt_async.mpy  sent (" in ln], lines
    assert [ln for ln in lines if " hw/net.mpy  sent (" in ln], lines
    assert password not in proc.stdout + proc.stderr and "wifi-key-123" not in proc.stdout
    on_flash = json.loads((tmp_path / "board" / "net.json").read_text())
    assert on_flash["password"] == password and on_flash["port"] == broker.port
    assert (tmp_path / "board" / "lib" / "mqtt_async.mpy").is_file()

    dealer = Spy(broker, user="dealer", topics=("kb/#",))
    try:
        dealer.publish("kb/T1/event", b'{"seq": 1}', retain=True)
        b = flash.Board(board.port)
        try:
            said, got = b.eval(ON_BOARD)
        finally:
            b.close()
        assert said == ["net: connected to 127.0.0.1:%d as alice" % broker.port]
        assert got == [("kb/T1/event", b'{"seq": 1}', True)]
        dealer.wait_for(lambda m: m[0] == "kb/T1/move/alice"
                        and m[1] == b"from the virtual Pico W", "the board's message")
    finally:
        dealer.close()

    # The same board flashed as a plain Pico: no network code stays on it (its settings,
    # the board's data, do).
    proc = run_flash(board.port, KAHUNA, str(tmp_path / "b2"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "stale lib/mqtt_async.mpy  removed" in proc.stdout.splitlines()
    assert "stale hw/net.mpy  removed" in proc.stdout.splitlines()
    assert not (tmp_path / "board" / "lib" / "mqtt_async.mpy").exists()
    assert not (tmp_path / "board" / "hw" / "net.mpy").exists()
    assert (tmp_path / "board" / "net.json").is_file()


HAS_NETWORK = ("try:\n import network\n print(network.WLAN(network.STA_IF).isconnected() "
               "is False)\nexcept ImportError:\n print(None)\n")


def test_only_a_virtual_pico_w_has_the_network_module(tmp_path, board):
    """A virtual Pico (no --pico-w) has no `network`, as a Pico's MicroPython has none; a
    virtual Pico W has one, whose station has not joined before it is asked to."""
    b = flash.Board(board.port)
    try:
        assert b.eval(HAS_NETWORK) is True
    finally:
        b.close()
    d = tmp_path / "plain"
    d.mkdir()
    with open(tmp_path / "plain.log", "w") as log:
        plain = Running(str(d), log=log)
        try:
            b = flash.Board(plain.port)
            try:
                assert b.eval(HAS_NETWORK) is None
            finally:
                b.close()
        finally:
            plain.stop()


def test_a_virtual_pico_w_creates_a_remote_game_from_its_menu(tmp_path, broker, board):
    """main.py on a virtual Pico W flashed with --net: the settings menu's `remote: create`
    says a new code, the board's own seat (core.netseat, started by main.py with the
    driver) says its hello, the dealer seats it, and once a host table has joined the
    board starts the remote game (the other seat `remote`)."""
    from remotekit import path_in, start, stop

    from vboardkit import BoardLink
    with open(KAHUNA) as f:
        raw = json.load(f)
    raw["hardware"]["network"] = "wifi"
    picow = tmp_path / "picow.json"
    picow.write_text(json.dumps(raw))
    net = tmp_path / "net.json"
    net.write_text(json.dumps({"ssid": "home", "wifi_password": "wifi-key-123",
                               "host": "127.0.0.1", "port": broker.port, "user": "alice",
                               "password": broker.passwords["alice"]}))
    dealer = start(["dealer"] + broker.args("dealer") + ["--seed", "5"],
                   path_in(tmp_path, "dealer.log"))
    spy = Spy(broker)
    bob = None
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "host_tools", "flash", "--port", board.port, "--board-def",
             str(picow), "--build-dir", str(tmp_path / "b"), "--net", str(net)],
            capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT,
            stdin=subprocess.DEVNULL)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        link = BoardLink(board.port)
        link.send({"cmd": "state"})
        link.until(lambda x: x.get("event") == "state", 60)
        link.send({"cmd": "press", "button": "ok", "hold": True})
        for role in ["ok"] * 5 + ["next"]:
            link.send({"cmd": "press", "button": role})
        link.send({"cmd": "press", "button": "done"})
        said = link.until(lambda x: "give the other table this code" in x.get("message", ""),
                          30)["message"]
        code = said.split()[2].rstrip(":")
        spy.wait_for(lambda m: m[0] == "kb/%s/hello/alice" % code
                     and json.loads(m[1])["op"] == "create", "the board's hello", 60)
        spy.wait_for(lambda m: m[0] == "kb/%s/snapshot" % code
                     and json.loads(m[1])["seats"].get("white") == "alice", "seated", 60)
        # The game begins once the other table is seated too.
        bob = start(["remote", "join", code, "--player", "random"] + broker.args("bob"),
                    path_in(tmp_path, "bob.log"))
        end = time.monotonic() + 60
        while True:
            link.send({"cmd": "state"})
            state = link.until(lambda x: x.get("event") == "state", 30)["state"]
            if state["settings"].get("remote") == "black":
                break
            assert time.monotonic() < end, state["settings"]
            time.sleep(0.5)
        assert (board.dir and os.path.isfile(os.path.join(board.dir, "remote.json")))
    finally:
        spy.close()
        if bob is not None:
            stop(bob)
        stop(dealer)
