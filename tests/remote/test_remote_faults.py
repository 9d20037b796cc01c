"""A whole game of Kahuna between two tables with faults injected (docs/remote.md): a table
killed and started again, old events said again late and requests said twice, the broker
restarted, the dealer killed and started again. No move is lost: both tables end with the
same log and state as the dealer's last snapshot, numbered without a hole."""

import json
import os
import signal
import time

from remotekit import Spy, code_of, finish, output, path_in, report, start, stop

CODE = "FA2XTS"


def held(procs):
    """The tables stopped (SIGSTOP) while a fault is set up, so that it comes mid-game
    however fast the game runs; they go on (SIGCONT) when the block ends."""
    class Hold:
        def __enter__(self):
            for proc in procs:
                proc.send_signal(signal.SIGSTOP)

        def __exit__(self, *exc):
            for proc in procs:
                proc.send_signal(signal.SIGCONT)
    return Hold()


def logged(proc, text, timeout=30):
    """Wait until the process's log says `text`."""
    end = time.monotonic() + timeout
    while text not in output(proc):
        assert time.monotonic() < end, "no %r in %d s: %s" % (text, timeout, output(proc))
        time.sleep(0.05)


def seq_at_least(n):
    return lambda m: m[0] == "kb/%s/event" % CODE and json.loads(m[1])["seq"] >= n


def test_no_move_is_lost_through_kills_duplicates_and_a_broker_restart(broker, tmp_path):
    state = path_in(tmp_path, "dealer-state")

    def dealer():
        return start(["dealer"] + broker.args("dealer") + ["--state-dir", state],
                     path_in(tmp_path, "dealer.log"))

    def bob(seed):
        return start(["remote", "join", CODE, "--player", "random", "--seed", str(seed),
                      "--report", path_in(tmp_path, "b.json")] + broker.args("bob"),
                     path_in(tmp_path, "bob.log"))

    spy = Spy(broker)
    d = dealer()
    a = start(["remote", "create", "--code", CODE, "--player", "random", "--seed", "4",
               "--report", path_in(tmp_path, "a.json")] + broker.args("alice"),
              path_in(tmp_path, "alice.log"))
    assert code_of(a) == CODE
    b = bob(5)
    procs = [a, b, d]
    try:
        # A table's power cut: killed outright, then started again with join.
        # (Every fault comes in round 1, 60 to 80 events long, which no game ends in.)
        spy.wait_for(seq_at_least(15), "event 15")
        b.send_signal(signal.SIGKILL)
        b.wait(10)
        b = bob(6)
        procs.append(b)

        # Old events said again late, and alice's requests said twice (QoS 1 may).
        spy.wait_for(seq_at_least(25), "event 25")
        with held([a, b]):
            old = [m for m in spy.got() if m[0] == "kb/%s/event" % CODE][:10]
            moves = [m for m in spy.got() if m[0] == "kb/%s/move/alice" % CODE]
            as_dealer = Spy(broker, "dealer", topics=("kb/none",))
            as_alice = Spy(broker, "alice", topics=("kb/none",))
            for topic, payload, _ in old:
                as_dealer.publish(topic, payload)
            for topic, payload, _ in moves:
                as_alice.publish(topic, payload)
            as_dealer.close()
            as_alice.close()
        # Each fault taken before the next: a table stopped again and cut off by the
        # broker's restart before it read what lay in its socket would never see them.
        logged(a, "dropped duplicate")
        logged(d, "refused replayed from alice")

        # The broker restarted (its persistence keeps the retained snapshot and sessions).
        spy.wait_for(seq_at_least(35), "event 35")
        with held([a, b]):
            broker.restart()

        # The dealer killed and started again: it replays its state file.
        spy.wait_for(seq_at_least(45), "event 45")
        with held([a, b]):
            d.send_signal(signal.SIGKILL)
            d.wait(10)
            d = dealer()
            procs.append(d)

        finish(a, "alice's table")
        finish(b, "bob's table")
    finally:
        for proc in procs:
            stop(proc)
    spy.close()
    ra, rb = report(path_in(tmp_path, "a.json")), report(path_in(tmp_path, "b.json"))
    assert ra == rb
    assert [e[0] for e in ra["log"]] == list(range(1, ra["seq"] + 1))
    assert ra["public"]["winner"] in ("white", "black", "draw")
    # The dealer's own last word, read afresh from the broker: the same game.
    last = Spy(broker, "spy", topics=("kb/%s/snapshot" % CODE,))
    snap = json.loads(last.wait_for(lambda m: True, "the retained snapshot")[0][1])
    last.close()
    assert snap["log"] == ra["log"] and snap["public"] == ra["public"]
    assert snap["status"] == "over"
    with open(os.path.join(state, CODE + ".json")) as f:
        saved = json.load(f)
    assert len(saved["requests"]) == len([e for e in ra["log"] if e[1] is not None
                                          and e[2][0] not in ("deal", "display")])
    dealer_log = output(d)
    assert "refused replayed from alice" in dealer_log, dealer_log
    assert "dropped duplicate" in output(a), output(a)
    assert "no connection to the broker" in output(a)  # it lived through the restart
