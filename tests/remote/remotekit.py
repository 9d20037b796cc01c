"""Helpers of the remote play tests: the broker, the dealer and tables as the user runs
them (`python -m host_tools dealer`, `python -m host_tools remote ...` in subprocesses),
and a spy that records every message on the broker (as the test-only user `spy`)."""

import json
import os
import subprocess
import sys
import threading
import time

import paho.mqtt.client as mqtt

from mpy_runner import ROOT

WAIT = 60  # seconds: the bound of any one wait; a whole game takes a few


def start(args, log_path):
    log = open(log_path, "a")
    proc = subprocess.Popen([sys.executable, "-m", "host_tools"] + args, cwd=ROOT,
                            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
    proc.log_path = log_path
    log.close()
    return proc


def output(proc):
    with open(proc.log_path) as f:
        return f.read()


def finish(proc, what, timeout=WAIT):
    try:
        rc = proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)
        raise AssertionError("%s did not end within %d s:\n%s"
                             % (what, timeout, output(proc))) from None
    assert rc == 0, "%s ended with %d:\n%s" % (what, rc, output(proc))
    return output(proc)


def stop(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


class Spy:
    """Every message on the broker, in order of arrival: [(topic, payload bytes, retain)]."""

    def __init__(self, broker, user="spy", topics=("#",), keep=False):
        """`keep`: a persistent session (clean session off), so that what comes while
        the broker restarts reaches the spy too."""
        self.messages = []
        self.lock = threading.Lock()
        self.subscribed = threading.Event()
        c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="spy-%s-%d"
                        % (user, time.monotonic_ns()), clean_session=not keep)
        c.username_pw_set(user, broker.passwords[user])
        self.topics = topics

        def on_connect(client, userdata, flags, reason, props):
            for t in topics:
                client.subscribe(t, qos=1)

        def on_subscribe(client, userdata, mid, reasons, props):
            self.subscribed.set()

        def on_message(client, userdata, msg):
            with self.lock:
                self.messages.append((msg.topic, bytes(msg.payload), msg.retain))

        c.on_connect = on_connect
        c.on_subscribe = on_subscribe
        c.on_message = on_message
        c.reconnect_delay_set(0.1, 0.5)
        c.connect("127.0.0.1", broker.port)
        c.loop_start()
        self.client = c
        assert self.subscribed.wait(10), "the spy could not subscribe"

    def publish(self, topic, payload, retain=False):
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        info.wait_for_publish(10)

    def got(self):
        with self.lock:
            return list(self.messages)

    def wait_for(self, pred, what, timeout=WAIT):
        end = time.monotonic() + timeout
        while True:
            found = [m for m in self.got() if pred(m)]
            if found:
                return found
            if time.monotonic() > end:
                raise AssertionError("waited %d s for %s" % (timeout, what))
            time.sleep(0.02)

    def events(self, code):
        """The events of game `code` seen, as decoded objects."""
        return [json.loads(m[1]) for m in self.got() if m[0] == "kb/%s/event" % code]

    def close(self):
        self.client.loop_stop()
        self.client.disconnect()


def report(path):
    with open(path) as f:
        return json.load(f)


def code_of(proc, timeout=WAIT):
    """The code a `remote create` printed first."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for line in output(proc).splitlines():
            if line.startswith("game code: "):
                return line.split()[-1]
        if proc.poll() is not None:
            break
        time.sleep(0.02)
    raise AssertionError("no game code from remote create:\n" + output(proc))


def path_in(tmp_path, name):
    return os.path.join(str(tmp_path), name)
