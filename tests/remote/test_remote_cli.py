"""The remote play commands against a broker that says no: one line, status 2."""

import os
import re
import subprocess
import sys

from mpy_runner import ROOT


def test_a_wrong_password_is_one_line_and_status_2(broker, tmp_path):
    wrong = tmp_path / "wrong.pw"
    wrong.write_text("not-the-password\n")
    for args in (["remote", "join", "K7QXM2"], ["dealer"]):
        proc = subprocess.run(
            [sys.executable, "-m", "host_tools"] + args
            + ["--broker", "127.0.0.1:%d" % broker.port, "--user", "bob",
               "--password-file", str(wrong), "--patience", "5"],
            capture_output=True, text=True, cwd=ROOT, timeout=60, stdin=subprocess.DEVNULL)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        last = proc.stderr.splitlines()[-1]
        assert last.startswith(args[0] + ": the broker refused user bob: "), proc.stderr


def test_a_join_to_a_full_game_ends_with_one_line_and_status_2(broker, tmp_path):
    """Asking again will not free a seat: the join stops (it asked every second, for
    ever, saying the refusal once)."""
    from remotekit import code_of, finish, path_in, start, stop
    dealer = start(["dealer"] + broker.args("dealer") + ["--seed", "7"],
                   path_in(tmp_path, "dealer.log"))
    try:
        a = start(["remote", "create", "--code", "K7QXM2", "--player", "random", "--seed",
                   "1"] + broker.args("alice"), path_in(tmp_path, "alice.log"))
        assert code_of(a) == "K7QXM2"
        b = start(["remote", "join", "K7QXM2", "--player", "random", "--seed", "2"]
                  + broker.args("bob"), path_in(tmp_path, "bob.log"))
        finish(a, "alice's table")
        finish(b, "bob's table")
        proc = subprocess.run([sys.executable, "-m", "host_tools", "remote", "join", "K7QXM2"]
                              + broker.args("carol"), capture_output=True, text=True,
                              cwd=ROOT, timeout=60, stdin=subprocess.DEVNULL)
    finally:
        stop(dealer)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stderr.splitlines()[-1] == (
        "remote: game K7QXM2 has no seat for carol: every seat of K7QXM2 is taken (a table "
        "that played in it joins again as the same --user)"), proc.stderr
    assert "no answer from the dealer" not in proc.stdout + proc.stderr


def test_deal_here_without_the_dealers_password_names_that_password(tmp_path):
    """The table's own --password-file was given: the missing one is the dealer user's."""
    pw = tmp_path / "alice.pw"
    pw.write_text("secret\n")
    env = {k: v for k, v in os.environ.items() if k != "KB_MQTT_PASSWORD"}
    proc = subprocess.run([sys.executable, "-m", "host_tools", "remote", "create", "--deal-here",
                           "--user", "alice", "--password-file", str(pw), "--broker",
                           "127.0.0.1:9"], capture_output=True, text=True, cwd=ROOT, timeout=60,
                          stdin=subprocess.DEVNULL, env=env)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.splitlines()[-1] == (
        "remote: --deal-here: this table deals as the broker user dealer, whose password is "
        "missing: give --dealer-password-file FILE"), proc.stderr


def test_a_missing_broker_is_said_every_few_seconds_not_five_times_a_second(tmp_path):
    pw = tmp_path / "bob.pw"
    pw.write_text("secret\n")
    proc = subprocess.run([sys.executable, "-m", "host_tools", "remote", "join", "K7QXM2",
                           "--user", "bob", "--password-file", str(pw), "--broker",
                           "127.0.0.1:9", "--patience", "7"], capture_output=True, text=True,
                          cwd=ROOT, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert lines[-1] == "remote: no broker at 127.0.0.1:9 for 7 s: [Errno 111] Connection refused"
    tries = [ln for ln in lines if "trying again" in ln]
    assert len(tries) == 2 and tries[0].endswith("trying again"), lines  # at 0 s and ~5 s
    assert re.search(r"trying again \(for [56] s\)$", tries[1]), lines
