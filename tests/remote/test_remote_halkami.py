"""Whole games of Halunken and Kami between tables through a real Mosquitto broker and the
dealer, each side run as the user runs it (docs/remote.md): the reports alike at every
table, a spy on `#` that finds no hidden card on the wire, a table killed and started
again that goes on (its committed secret kept in its --secrets folder)."""

import json
import os
import re
import signal
import time

import pytest
from remotekit import Spy, code_of, finish, output, path_in, report, start, stop
from secretkit import assert_not_on_the_wire

from host_tools.remote import commit
from host_tools.remote.shuffle import test_secret


@pytest.fixture
def dealer(broker, tmp_path):
    proc = start(["dealer"] + broker.args("dealer") + ["--seed", "11"],
                 path_in(tmp_path, "dealer.log"))
    yield proc
    stop(proc)


USERS = ("alice", "bob", "carol")


def tables(broker, tmp_path, code, game, players, create_args=(), kinds=("random",)):
    """Start one table per seat (alice creates, the others join): the processes."""
    procs = []
    for i, user in enumerate(USERS[:players]):
        kind = kinds[i % len(kinds)]
        common = ["--player", kind, "--seed", str(i + 1), "--report",
                  path_in(tmp_path, "%s.json" % user), "--secrets",
                  path_in(tmp_path, "secrets-%s" % user)] + broker.args(user)
        if i == 0:
            args = ["remote", "create", "--code", code, "--game", game, "--players",
                    str(players)] + list(create_args) + common
        else:
            args = ["remote", "join", code] + common
        procs.append(start(args, path_in(tmp_path, "%s.log" % user)))
        if i == 0:
            assert code_of(procs[0]) == code
    return procs


def reports(tmp_path, players):
    return [report(path_in(tmp_path, "%s.json" % u)) for u in USERS[:players]]


KAMI_CARD = re.compile(rb"(SOLDAT|LANCE|CAVALIER|ARGENT|OR|TOUR|FOU|IMPERATRICE)-\d+")


def check_kami_wire(messages, seats):
    """K6, K20, K21 on everything the spy saw: a card on a public topic only once shown
    (an attack, a counter, a claim's Soldier, a face-up centre card, a scored round's
    final defence); a hand topic names its own seat's cards; a move topic only cards of
    its writer's hand or the centre. Returns the number of public messages checked."""
    shown = set()
    hands = {}
    checked = 0
    for topic, payload, _ in messages:
        parts = topic.split("/")
        cards = {c.decode() for c in re.findall(rb"[A-Z]+-\d+", payload)
                 if KAMI_CARD.fullmatch(c)}
        msg = json.loads(payload)
        if parts[2] in ("event", "snapshot"):
            public = msg.get("public") or {}
            action = msg.get("action") or []
            if action[:1] in (["attack"], ["counter"], ["show"]):
                shown.add(action[1])
            for st in public.get("centre") or []:
                if st["up"]:
                    shown.add(st["up"])
            for r in public.get("rounds") or []:  # K21: the final defence, and only it
                shown.add(r["card"])
                if r["defence"]:
                    shown.add(r["defence"]["card"])
            for entry in msg.get("log") or []:
                if entry[2][:1] in (["attack"], ["counter"], ["show"]):
                    shown.add(entry[2][1])
            assert cards <= shown, (topic, cards - shown)
            checked += 1
        elif parts[2] == "hand":
            assert seats[msg["seat"]] == parts[3]
            hands[parts[3]] = set(msg["hand"])
        elif parts[2] == "move":
            assert cards <= hands.get(parts[3], set()) | shown, (topic, payload)
    return checked


def test_kami_three_tables_alike_and_no_hidden_card_on_the_wire(broker, dealer, tmp_path):
    spy = Spy(broker)
    procs = tables(broker, tmp_path, "KM3XTS", "kami", 3, ["--target", "4"],
                   kinds=("random", "ai"))
    for user, proc in zip(USERS, procs):
        finish(proc, "%s's table" % user)
    ra, rb, rc = reports(tmp_path, 3)
    assert ra == rb == rc and ra["public"]["winner"]
    assert [e[0] for e in ra["log"]] == list(range(1, ra["seq"] + 1))
    snapshots = [json.loads(m[1]) for m in spy.got() if m[0].endswith("/snapshot")]
    seats = snapshots[-1]["seats"]  # bob and carol join in either order
    assert sorted(seats.values()) == ["alice", "bob", "carol"] and seats["p1"] == "alice"
    assert check_kami_wire(spy.got(), seats) >= ra["seq"]
    assert_not_on_the_wire(spy.got(), test_secret(11))  # the dealer's --seed 11
    assert any(e[2] == ["defend"] for e in ra["log"])  # face-down defences were laid
    # the board's player: every request legal (a join said before the create is refused
    # as unknown-game, and said again: not a request)
    assert not [line for line in output(procs[1]).splitlines()
                if "refused" in line and "unknown-game" not in line], output(procs[1])
    spy.close()


def test_halunken_movement_cards_only_after_every_commitment(broker, dealer, tmp_path):
    """H7, H32 on the wire: a spy on `#` sees each round's commitments, the dealer's
    announcement, and only then the cards (with nonces that open the commitments); no
    table's move names its card before the announcement."""
    spy = Spy(broker)
    procs = tables(broker, tmp_path, "HN3XTS", "halunken", 3, ["--mode", "standard"],
                   kinds=("random", "ai", "random"))
    for user, proc in zip(USERS, procs):
        finish(proc, "%s's table" % user)
    ra, rb, rc = reports(tmp_path, 3)
    assert ra == rb == rc and ra["public"]["winner"]
    assert commit.audit(ra["log"]) == []
    # The tables are done; the spy's last messages may still be on their way (a loaded
    # machine): it reads on until the last round's cards are opened.
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and sum(
            1 for t, m, _ in spy.got() if t.endswith("/event") and b'"open"' in m) < 8 * 3:
        time.sleep(0.2)
    announced = set()
    commits = {}  # figure -> its commitments seen on the event topic
    opened = reveals = 0
    for topic, payload, _ in spy.got():
        msg = json.loads(payload)
        action = msg.get("action") or []
        if topic.endswith("/event") and action[:1] == ["reveal"]:
            announced.add(action[1])
        if topic.endswith("/event") and action[:1] == ["commit"]:
            commits[action[1]] = commits.get(action[1], 0) + 1
        if "/move/" in topic and action[:1] == ["reveal"]:
            # sent only once the figure's last commitment was announced
            assert commits.get(action[1], 0) == len(announced), (topic, action)
            reveals += 1
        if "/move/" in topic and action[:1] == ["commit"]:
            assert commit.is_digest(action[2])
        if topic.endswith("/event") and action[:1] == ["open"]:
            opened += 1
    assert reveals >= 8 * 3
    assert len(announced) == 8 and opened == 8 * 3
    spy.close()


def test_a_halunken_table_killed_after_committing_comes_back_and_reveals(broker, dealer,
                                                                          tmp_path):
    spy = Spy(broker)
    code = "HK2XTS"
    procs = tables(broker, tmp_path, code, "halunken", 2)
    # bob killed right after his commitment of round 3 (held back: the dealer waits for
    # alice's), then started again with join: his --secrets folder holds card and nonce
    spy.wait_for(lambda m: m[0] == "kb/%s/move/bob" % code
                 and json.loads(m[1])["action"][0] == "commit"
                 and json.loads(m[1])["base"] > 25, "bob's commitment in a later round")
    procs[0].send_signal(signal.SIGSTOP)
    procs[1].send_signal(signal.SIGKILL)
    procs[1].wait(10)
    procs[0].send_signal(signal.SIGCONT)
    again = start(["remote", "join", code, "--player", "random", "--seed", "9", "--report",
                   path_in(tmp_path, "bob.json"), "--secrets",
                   path_in(tmp_path, "secrets-bob")] + broker.args("bob"),
                  path_in(tmp_path, "bob2.log"))
    try:
        finish(procs[0], "alice's table")
        finish(again, "bob's table, started again")
    finally:
        stop(again)
    ra, rb = reports(tmp_path, 2)
    assert ra == rb and commit.audit(ra["log"]) == []
    assert "bob rejoined %s" % code in output(dealer)
    assert os.listdir(path_in(tmp_path, "secrets-bob")) == []  # forgotten at the end
    assert "refused mismatch" not in output(dealer)
    assert "cannot reveal" not in output(again)
    spy.close()


def test_a_table_of_two_seats_plays_halunken_against_one(broker, dealer, tmp_path):
    """alice's table holds p1 and p2 (`--seats 2`), bob's p3: each table commits for its
    own figures; alice's hand topic carries both her seats, bob's only his."""
    spy = Spy(broker)
    code = "HS3XTS"
    common = ["--player", "random", "--secrets", path_in(tmp_path, "secrets")]
    a = start(["remote", "create", "--code", code, "--game", "halunken", "--players", "3",
               "--mode", "standard", "--seats", "2", "--report", path_in(tmp_path, "a.json")]
              + common + broker.args("alice"), path_in(tmp_path, "alice.log"))
    assert code_of(a) == code
    b = start(["remote", "join", code, "--player", "ai", "--report",
               path_in(tmp_path, "b.json")] + common + broker.args("bob"),
              path_in(tmp_path, "bob.log"))
    finish(a, "alice's table of two seats")
    finish(b, "bob's table")
    ra, rb = report(path_in(tmp_path, "a.json")), report(path_in(tmp_path, "b.json"))
    assert ra == rb and commit.audit(ra["log"]) == []
    assert {e[1] for e in ra["log"] if e[2][0] == "commit"} == {"p1", "p2", "p3"}
    for topic, payload, _ in spy.got():
        if "/hand/" in topic:
            msg = json.loads(payload)
            held = sorted(msg.get("seats", {msg["seat"]: None}))
            assert held == (["p1", "p2"] if topic.endswith("/alice") else ["p3"]), topic
    spy.close()


def test_a_join_names_no_game_and_a_wrong_setting_is_one_line(broker, dealer, tmp_path):
    bad = start(["remote", "create", "--code", "HB2XTS", "--game", "kami", "--players",
                 "7"] + broker.args("alice"), path_in(tmp_path, "bad.log"))
    assert bad.wait(30) == 2
    lines = output(bad).splitlines()
    assert lines == ["remote: players must be a whole number from 2 to 4, got 7"], lines


def test_a_person_at_the_terminal_commits_and_a_closed_terminal_is_one_line(broker, dealer,
                                                                            tmp_path):
    import subprocess
    import sys

    from mpy_runner import ROOT
    code = "HT2XTS"
    secrets = path_in(tmp_path, "secrets")
    log = open(path_in(tmp_path, "alice.log"), "w")
    a = subprocess.Popen([sys.executable, "-m", "host_tools", "remote", "create", "--code",
                          code, "--game", "halunken", "--secrets", secrets]
                         + broker.args("alice"), cwd=ROOT, stdin=subprocess.PIPE,
                         stdout=log, stderr=subprocess.STDOUT)
    a.stdin.write(b"x\n99\n" + b"1\n" * 12)  # two wrong answers, then first options; EOF
    a.stdin.close()
    b = start(["remote", "join", code, "--player", "random", "--secrets", secrets,
               "--report", path_in(tmp_path, "b.json")] + broker.args("bob"),
              path_in(tmp_path, "bob.log"))
    assert a.wait(60) == 2
    log.close()
    with open(path_in(tmp_path, "alice.log")) as f:
        text = f.read()
    assert "Traceback" not in text
    assert "your hand (p1): 1 2 3 4 5 6 7 RUM" in text
    assert "commit p1 1" in text  # a secret choice offered by its card
    assert text.count("a number from 1 to") == 2
    assert re.search(r"event \d+: p1 commit p1 [0-9a-f]{64}", text), text
    assert text.rstrip().endswith("remote: the terminal closed; the game waits for this "
                                  "table: `remote join %s` goes on with it" % code), text
    a2 = start(["remote", "join", code, "--player", "random", "--secrets", secrets,
                "--report", path_in(tmp_path, "a.json")] + broker.args("alice"),
               path_in(tmp_path, "alice2.log"))
    finish(a2, "alice's table, joined again")
    finish(b, "bob's table")
    ra, rb = report(path_in(tmp_path, "a.json")), report(path_in(tmp_path, "b.json"))
    assert ra == rb and commit.audit(ra["log"]) == []
