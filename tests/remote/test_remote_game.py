"""Whole games of Kahuna between two tables through a real Mosquitto broker and the
dealer, each side run as the user runs it (docs/remote.md)."""


import pytest
from remotekit import Spy, code_of, finish, path_in, report, start, stop


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
