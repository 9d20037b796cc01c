"""Whole games of Kahuna between two tables through a real Mosquitto broker and the
dealer, each side run as the user runs it (docs/remote.md)."""

import json
import re

import pytest
from remotekit import Spy, code_of, finish, output, path_in, report, start, stop
from secretkit import assert_not_on_the_wire

from host_tools.remote.shuffle import test_secret


@pytest.fixture
def dealer(broker, tmp_path):
    proc = start(["dealer"] + broker.args("dealer") + ["--seed", "7"],
                 path_in(tmp_path, "dealer.log"))
    yield proc
    stop(proc)


def play(broker, tmp_path, code="K7QXM2", seeds=(1, 2), variant="standard"):
    """A whole game between alice (create, white) and bob (join): both reports."""
    a = start(["remote", "create", "--code", code, "--player", "random", "--seed",
               str(seeds[0]), "--variant", variant, "--report", path_in(tmp_path, "a.json")]
              + broker.args("alice"), path_in(tmp_path, "alice.log"))
    assert code_of(a) == code
    b = start(["remote", "join", code, "--player", "random", "--seed", str(seeds[1]),
               "--report", path_in(tmp_path, "b.json")] + broker.args("bob"),
              path_in(tmp_path, "bob.log"))
    finish(a, "alice's table")
    finish(b, "bob's table")
    return report(path_in(tmp_path, "a.json")), report(path_in(tmp_path, "b.json"))


def test_a_whole_game_ends_the_same_at_both_tables(broker, dealer, tmp_path):
    spy = Spy(broker)
    ra, rb = play(broker, tmp_path)
    assert ra == rb
    assert ra["public"]["winner"] in ("white", "black", "draw")
    assert [e[0] for e in ra["log"]] == list(range(1, ra["seq"] + 1))
    events = spy.events("K7QXM2")
    assert sorted({e["seq"] for e in events}) == list(range(1, ra["seq"] + 1))
    spy.close()


CARD = re.compile(rb"[A-Z]{4}-[12]")


def check_privacy(messages, seats):
    """No card of a hand, nor the deck's order, on any topic a seat may not read before
    the rules reveal it: on the public topics (event, snapshot) a card appears only once it
    lies face up on the display or was played (place, remove); a seat's hand topic holds
    its own cards; a move names only cards of its writer's hand (its owner playing them)
    or face up ones (a draw from the display)."""
    revealed = set()
    hands = {}  # user -> its last hand
    named = {}  # user -> cards its own moves named
    checked = 0
    for topic, payload, _ in messages:
        parts = topic.split("/")
        cards = {c.decode() for c in CARD.findall(payload)}
        if parts[2] == "event":
            action = json.loads(payload)["action"]
            if action[0] == "display":
                revealed |= set(action[1])
            elif action[0] in ("place", "remove"):
                revealed |= set(action[1:-1])
            assert cards <= revealed, (topic, cards - revealed)
            checked += 1
        elif parts[2] == "snapshot":
            assert cards <= revealed, (topic, cards - revealed)
        elif parts[2] == "hand":
            msg = json.loads(payload)
            assert seats[msg["seat"]] == parts[3]  # the seat's own topic
            hands[parts[3]] = set(msg["hand"])
        elif parts[2] == "move":
            assert cards <= hands.get(parts[3], set()) | revealed, (topic, payload)
            named.setdefault(parts[3], set()).update(cards)
        elif parts[2] == "reply":
            assert cards <= named.get(parts[3], set()) | revealed, (topic, payload)
        else:
            assert parts[2] == "hello" and not cards, topic
    return checked


def test_no_card_is_on_the_wire_before_the_rules_reveal_it(broker, dealer, tmp_path):
    spy = Spy(broker)  # the test's user that reads every topic (#)
    # Bob's user listens where alice's secrets go: the broker's ACL gives him nothing.
    nosy = Spy(broker, "bob", topics=("kb/K7QXM2/hand/alice", "kb/K7QXM2/move/alice",
                                      "kb/K7QXM2/reply/alice", "kb/K7QXM2/event"))
    ra, rb = play(broker, tmp_path, seeds=(5, 6))
    assert ra == rb
    seats = {"white": "alice", "black": "bob"}
    assert check_privacy(spy.got(), seats) == ra["seq"]
    assert any("/hand/alice" in m[0] for m in spy.got())  # the spy did see the hands
    assert_not_on_the_wire(spy.got(), test_secret(7))  # the dealer's --seed 7
    got = {m[0] for m in nosy.got()}
    assert got == {"kb/K7QXM2/event"}, got
    spy.close()
    nosy.close()


def test_bad_messages_are_refused_with_a_reason_and_the_game_goes_on(broker, dealer,
                                                                        tmp_path):
    spy = Spy(broker)
    bob = Spy(broker, "bob", topics=("kb/K7QXM2/reply/bob",))
    carol = Spy(broker, "carol", topics=("kb/K7QXM2/reply/carol",))
    a = start(["remote", "create", "--code", "K7QXM2", "--player", "random",
               "--report", path_in(tmp_path, "a.json")] + broker.args("alice"),
              path_in(tmp_path, "alice.log"))
    b = start(["remote", "join", "K7QXM2", "--player", "random", "--seed", "3",
               "--report", path_in(tmp_path, "b.json")] + broker.args("bob"),
              path_in(tmp_path, "bob.log"))
    spy.wait_for(lambda m: m[0].endswith("/event") and json.loads(m[1])["seq"] >= 30,
                 "event 30")
    move = "kb/K7QXM2/move/bob"
    bad = [(bob, move, b"\x00garbage"),
           (bob, move, json.dumps({"v": 1, "game": "K7QXM2", "seat": "white", "n": 10 ** 6,
                                   "base": 0, "action": ["end_play"]}).encode()),
           (bob, move, json.dumps({"v": 1, "game": "K7QXM2", "seat": "black", "n": 10 ** 6,
                                   "base": 0, "action": ["fly"]}).encode()),
           (bob, "kb/K7QXM2/event", b'{"v": 1, "seq": 999}'),  # the ACL drops it
           (carol, move, b'{"v": 1}'),  # not carol's topic: the ACL drops it
           (carol, "kb/K7QXM2/move/carol", json.dumps(
               {"v": 1, "game": "K7QXM2", "seat": "black", "n": 1, "base": 0,
                "action": ["end_play"]}).encode())]
    for who, topic, payload in bad:
        who.publish(topic, payload)
    finish(a, "alice's table")
    finish(b, "bob's table")
    assert report(path_in(tmp_path, "a.json")) == report(path_in(tmp_path, "b.json"))
    log = output(dealer)
    refused = [line for line in log.splitlines() if " refused " in " " + line]
    assert any("refused malformed from bob on K7QXM2: not JSON" in r for r in refused), log
    assert any("refused forged from bob on K7QXM2: bob holds black, not white" in r
               for r in refused), log
    assert any("refused malformed from bob on K7QXM2: unknown action 'fly'" in r
               for r in refused), log
    assert any("refused not-seated from carol" in r for r in refused), log
    assert len([r for r in refused if "from carol" in r]) == 1, log  # the ACL kept the other
    replies = [json.loads(m[1])["refused"] for m in bob.got()]
    assert replies[-3:] == ["malformed", "forged", "malformed"], replies  # (a join may
    # come before the create, and be refused: unknown-game, said again)
    assert [json.loads(m[1])["refused"] for m in carol.got()] == ["not-seated"]
    assert not any(json.loads(m[1]).get("seq") == 999 for m in spy.got()
                   if m[0].endswith("/event"))
    for s in (spy, bob, carol):
        s.close()


def test_a_person_at_the_terminal_plays_and_a_closed_terminal_is_one_line(broker, dealer,
                                                                         tmp_path):
    import subprocess
    import sys

    from mpy_runner import ROOT
    log = open(path_in(tmp_path, "alice.log"), "w")
    a = subprocess.Popen([sys.executable, "-m", "host_tools", "remote", "create", "--code",
                          "K7QXM2"] + broker.args("alice"), cwd=ROOT, stdin=subprocess.PIPE,
                         stdout=log, stderr=subprocess.STDOUT)
    a.stdin.write(b"x\n99\n1\n")  # two wrong answers, then the first move; then EOF
    a.stdin.close()
    b = start(["remote", "join", "K7QXM2", "--player", "random", "--report",
               path_in(tmp_path, "b.json")] + broker.args("bob"), path_in(tmp_path, "bob.log"))
    assert a.wait(60) == 2
    log.close()
    with open(path_in(tmp_path, "alice.log")) as f:
        text = f.read()
    assert "Traceback" not in text
    assert "your hand (white): " in text and "   1 " in text
    assert text.count("a number from 1 to") == 2
    assert "event 8: white " in text  # its move, told back as the dealer numbered it
    assert text.rstrip().endswith("remote: the terminal closed; the game waits for this "
                                  "table: `remote join K7QXM2` goes on with it"), text
    # Alice comes back (a random player now) and the game goes on to its end.
    a2 = start(["remote", "join", "K7QXM2", "--player", "random", "--report",
                path_in(tmp_path, "a.json")] + broker.args("alice"),
               path_in(tmp_path, "alice2.log"))
    finish(a2, "alice's table, joined again")
    finish(b, "bob's table")
    ra, rb = report(path_in(tmp_path, "a.json")), report(path_in(tmp_path, "b.json"))
    assert ra == rb and ra["log"][7][1] == "white"


def test_a_game_over_tls_and_an_untrusted_certificate_is_one_line(tmp_path):
    from host_tools.remote.localbroker import Broker
    b = Broker(tmp_path / "tls-broker", tls=True)
    procs = []
    try:
        procs.append(start(["dealer"] + b.args("dealer"), path_in(tmp_path, "dealer.log")))

        def over_tls(user, ca):
            args = b.args(user)
            args[1] = "127.0.0.1:%d" % b.tls_port
            return args + ["--tls-ca", ca]
        wrong = start(["remote", "join", "K7QXM2"]
                      + over_tls("carol", "/etc/ssl/certs/ca-certificates.crt"),
                      path_in(tmp_path, "carol.log"))
        assert wrong.wait(60) == 2
        lines = output(wrong).splitlines()
        assert len(lines) == 1 and lines[0].startswith(
            "remote: the broker's certificate is not trusted (--tls-ca): "), lines
        a = start(["remote", "create", "--code", "K7QXM2", "--player", "random", "--report",
                   path_in(tmp_path, "a.json")] + over_tls("alice", b.cert),
                  path_in(tmp_path, "alice.log"))
        c = start(["remote", "join", "K7QXM2", "--player", "random", "--report",
                   path_in(tmp_path, "b.json")] + over_tls("bob", b.cert),
                  path_in(tmp_path, "bob.log"))
        procs += [a, c]
        finish(a, "alice's table over TLS")
        finish(c, "bob's table over TLS")
        assert report(path_in(tmp_path, "a.json")) == report(path_in(tmp_path, "b.json"))
    finally:
        for proc in procs:
            stop(proc)
        b.stop()


def test_the_boards_ai_takes_a_seat(broker, dealer, tmp_path):
    a = start(["remote", "create", "--code", "K7QXM2", "--player", "ai", "--report",
               path_in(tmp_path, "a.json")] + broker.args("alice"),
              path_in(tmp_path, "alice.log"))
    b = start(["remote", "join", "K7QXM2", "--player", "random", "--report",
               path_in(tmp_path, "b.json")] + broker.args("bob"), path_in(tmp_path, "bob.log"))
    finish(a, "alice's table (the AI)")
    finish(b, "bob's table")
    ra = report(path_in(tmp_path, "a.json"))
    assert ra == report(path_in(tmp_path, "b.json"))
    assert "refused" not in output(a)  # every request of its plans was legal
    whites = [e for e in ra["log"] if e[1] == "white" and e[2][0] in ("place", "remove")]
    assert whites  # it did play bridges
