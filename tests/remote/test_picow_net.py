"""The Pico W's network driver (firmware/hw/net.py) on the MicroPython unix port, with the
MQTT client `make flash` installs (/lib/mqtt_async.mpy, compiled by flash.build_client
from the pinned PyPI archive) and the virtual board's fake `network`: it connects with a
user and password to a real Mosquitto on loopback (the tests' own, localbroker.py),
subscribes, receives and publishes; survives a broker restart with no QoS 1 message lost
either way, nor across a power cut of the board; a wrong password or Wi-Fi key gives one
clear line; garbage on a subscribed topic ends nothing. The board's side is tests/mp/net_peer.py."""

import json
import os
import queue
import subprocess
import threading
import time

import pytest
from remotekit import Spy

from host_tools.maker import flash
from mpy_runner import ROOT, find_micropython

WAIT = 30  # seconds: the bound of any one wait
# The Pico's GC heap (240 KiB), doubled: the unix port's words are 8 bytes, the Pico's 4.
HEAP = "480k"
TOPIC_IN = "kb/T1/event"  # the dealer writes it, alice may read it (docs/remote.md's ACL)
TOPIC_OUT = "kb/T1/move/alice"  # alice may write it, the dealer reads it


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    out = tmp_path_factory.mktemp("picow")
    path = flash.build_client(str(out))
    return os.path.dirname(path)


class Peer:
    """tests/mp/net_peer.py in the unix port: lines out in a queue, commands in."""

    def __init__(self, lib, net_json, topics, env=()):
        path = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "host_tools", "fakehw",
                                                             "pico"), lib, ROOT, ".frozen"]
        e = dict(os.environ, MICROPYPATH=":".join(path))
        e.update(env)
        self.proc = subprocess.Popen(
            [find_micropython(), "-X", "heapsize=" + HEAP, "tests/mp/net_peer.py", net_json]
            + list(topics), cwd=ROOT, env=e, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def wait(self, pred, what, timeout=WAIT):
        """The first line, said so far or from now on, for which pred(line) is true."""
        for line in self.seen:
            if pred(line):
                return line
        end = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                line = ""
            if line is None or time.monotonic() > end:
                self.stop()
                raise AssertionError("waited for %s; the board said:\n%s\nstderr:\n%s"
                                     % (what, "\n".join(self.seen), self.proc.stderr.read()))
            if line:
                self.seen.append(line)
                if pred(line):
                    return line

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        return self.proc.stderr.read()


def net_json(tmp_path, broker, user="alice", password=None, **change):
    conf = {"ssid": "home", "wifi_password": "wifi-key", "host": "127.0.0.1",
            "port": broker.port, "user": user,
            "password": password if password is not None else broker.passwords[user]}
    conf.update(change)
    path = tmp_path / "net.json"
    path.write_text(json.dumps(conf))
    return str(path)


def got(payload):
    """The peer's line for a message on TOPIC_IN with `payload`."""
    return lambda line: line.startswith("got %s %s " % (TOPIC_IN, payload.hex() or "-"))


def publish_when_up(spy, topic, payload, timeout=WAIT):
    """Publish (once) as the spy's user once its client is connected again."""
    end = time.monotonic() + timeout
    while not spy.client.is_connected():
        assert time.monotonic() < end, "the dealer's client did not connect again"
        time.sleep(0.05)
    spy.publish(topic, payload)


def test_the_driver_connects_subscribes_receives_and_publishes(tmp_path, broker, lib):
    dealer = Spy(broker, user="dealer", topics=("kb/#",))
    peer = Peer(lib, net_json(tmp_path, broker), [TOPIC_IN])
    try:
        line = peer.wait(lambda s: s.startswith("say net: connected"), "the connection")
        assert line == "say net: connected to 127.0.0.1:%d as alice" % broker.port
        peer.wait(lambda s: s == "ready", "the subscription")
        dealer.publish(TOPIC_IN, b'{"seq": 1}')
        peer.wait(got(b'{"seq": 1}'), "the dealer's message")
        peer.send("pub %s a move from the board" % TOPIC_OUT)
        peer.wait(lambda s: s == "published a move from the board", "the broker's ack")
        dealer.wait_for(lambda m: m[0] == TOPIC_OUT and m[1] == b"a move from the board",
                        "the board's message at the dealer")
        # The ACL holds for the board too: what it may not read never reaches it.
        dealer.publish("kb/T1/hand/bob", b'{"hand": ["ALOA-1"]}')
        dealer.publish(TOPIC_IN, b'{"seq": 2}')
        peer.wait(got(b'{"seq": 2}'), "the next message")
        assert not [s for s in peer.seen if "hand" in s or "414c4f41" in s]
        peer.send("quit")
        assert peer.proc.wait(WAIT) == 0
        assert peer.proc.stderr.read() == ""
    finally:
        peer.stop()
        dealer.close()


def test_a_broker_restart_loses_no_qos1_message_either_way(tmp_path, broker, lib):
    dealer = Spy(broker, user="dealer", topics=("kb/#",))
    peer = Peer(lib, net_json(tmp_path, broker), [TOPIC_IN])
    try:
        peer.wait(lambda s: s == "ready", "the first connection")
        broker.stop()
        peer.wait(lambda s: s.startswith("say net: connection to 127.0.0.1:%d lost"
                                         % broker.port), "the drop noticed")
        # Published while the broker is away: held by the board until it is back.
        peer.send("pub %s while the broker was down" % TOPIC_OUT)
        time.sleep(1.5)
        broker.start()
        # Published for the board before it is back: the broker keeps it in its session.
        publish_when_up(dealer, TOPIC_IN, b'{"seq": 3}')
        peer.wait(lambda s: s == "published while the broker was down", "the held message")
        peer.wait(got(b'{"seq": 3}'), "the message kept by the broker")
        dealer.wait_for(lambda m: m[0] == TOPIC_OUT and m[1] == b"while the broker was down",
                        "the board's held message at the dealer")
        reconnected = [s for s in peer.seen if s.startswith("say net: connected")]
        assert len(reconnected) == 2, peer.seen
        assert len([s for s in peer.seen if got(b'{"seq": 3}')(s)]) == 1, peer.seen
        assert not [s for s in peer.seen if "Traceback" in s]
    finally:
        assert "Traceback" not in peer.stop()
        dealer.close()


def test_a_wrong_password_is_one_clear_line_and_no_crash(tmp_path, broker, lib):
    peer = Peer(lib, net_json(tmp_path, broker, password="not-the-password"), [TOPIC_IN])
    try:
        line = peer.wait(lambda s: s.startswith("say "), "the refusal")
        assert line == ("say net: the broker at 127.0.0.1:%d refused user 'alice': wrong user "
                        "or password, or not allowed" % broker.port)
        time.sleep(2.5)  # it tries again (1 s, then 2 s later) and says nothing new
        assert peer.proc.poll() is None
        assert [s for s in peer.seen if s.startswith("say ")] == [line]
    finally:
        err = peer.stop()
    assert "not-the-password" not in "\n".join(peer.seen) + err
    assert "Traceback" not in err


@pytest.mark.parametrize("wifi,words", [
    ("home:another-key", "Wi-Fi 'home': wrong Wi-Fi password"),
    ("office:wifi-key", "Wi-Fi 'home': no access point with that SSID"),
])
def test_a_wifi_that_will_not_join_is_one_clear_line(tmp_path, broker, lib, wifi, words):
    peer = Peer(lib, net_json(tmp_path, broker), [TOPIC_IN], env={"VBOARD_WIFI": wifi})
    try:
        line = peer.wait(lambda s: s.startswith("say "), "the Wi-Fi's refusal")
        assert line == "say net: " + words
    finally:
        err = peer.stop()
    assert "wifi-key" not in "\n".join(peer.seen) + err


def test_broken_settings_on_the_board_are_one_line(tmp_path, broker, lib):
    path = tmp_path / "net.json"
    path.write_text('{"ssid": "home", "user": 3}')
    peer = Peer(lib, str(path), [TOPIC_IN])
    line = peer.wait(lambda s: s.startswith("error "), "the settings' error")
    assert line == "error %s: wifi_password: required field missing" % path
    assert peer.proc.wait(WAIT) == 2
    path.write_text("{not json")
    peer = Peer(lib, str(path), [TOPIC_IN])
    assert peer.wait(lambda s: s.startswith("error "), "the error") == \
        "error %s: not valid JSON" % path


def test_garbage_on_a_subscribed_topic_ends_nothing(tmp_path, broker, lib):
    dealer = Spy(broker, user="dealer", topics=("kb/#",))
    peer = Peer(lib, net_json(tmp_path, broker), [TOPIC_IN])
    try:
        peer.wait(lambda s: s == "ready", "the connection")
        junk = [b"", b"\xff\xfe\x00 not JSON", os.urandom(16 * 1024), b"{\"seq\": "]
        for payload in junk:
            dealer.publish(TOPIC_IN, payload)
        dealer.publish(TOPIC_IN, b"raise: the callback fails on this one")
        dealer.publish(TOPIC_IN, b'{"seq": 4}')
        peer.wait(got(b'{"seq": 4}'), "a good message after the garbage")
        for payload in junk:  # handed over as they came (the callback judges them)
            assert [s for s in peer.seen if got(payload)(s)], payload[:20]
        assert "say net: message on %s dropped (ValueError)" % TOPIC_IN in peer.seen
        peer.send("pub %s still here" % TOPIC_OUT)
        peer.wait(lambda s: s == "published still here", "a publication after it")
    finally:
        assert "Traceback" not in peer.stop()
        dealer.close()


def test_a_power_cut_loses_nothing_the_broker_held_for_the_board(tmp_path, broker, lib):
    """The board's session outlives it (clean session off, the same client id from the
    Pico's unique id): what comes while it is off is delivered once it is back."""
    dealer = Spy(broker, user="dealer", topics=("kb/#",))
    path = net_json(tmp_path, broker)
    peer = Peer(lib, path, [TOPIC_IN])
    try:
        peer.wait(lambda s: s == "ready", "the first connection")
    finally:
        peer.stop()  # killed: no DISCONNECT, as when the power goes
    try:
        dealer.publish(TOPIC_IN, b'{"seq": 5}')  # while the board is off
        peer = Peer(lib, path, [TOPIC_IN])
        peer.wait(got(b'{"seq": 5}'), "the message held by the broker")
        assert len([s for s in peer.seen if got(b'{"seq": 5}')(s)]) == 1
    finally:
        peer.stop()
        dealer.close()
