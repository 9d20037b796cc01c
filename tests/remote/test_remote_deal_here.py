"""The creating table as dealer (`remote create --deal-here`, docs/remote.md): no dealer
beside the broker; the creator's process deals its own game as the broker's dealer user
(both tables trust it: it holds the deck), and a whole game ends the same at both tables,
with no card on the wire before the rules show it."""

from remotekit import Spy, code_of, finish, path_in, report, start
from test_remote_game import check_privacy

CODE = "K7QXM2"


def test_the_creating_table_deals_a_whole_game(broker, tmp_path):
    spy = Spy(broker)
    a = start(["remote", "create", "--code", CODE, "--deal-here", "--dealer-password-file",
               broker.pwfile("dealer"), "--player", "random", "--seed", "4", "--report",
               path_in(tmp_path, "a.json")] + broker.args("alice"),
              path_in(tmp_path, "alice.log"))
    assert code_of(a) == CODE
    b = start(["remote", "join", CODE, "--player", "random", "--seed", "5", "--report",
               path_in(tmp_path, "b.json")] + broker.args("bob"), path_in(tmp_path, "bob.log"))
    log = finish(a, "alice's table")
    finish(b, "bob's table")
    ra, rb = report(path_in(tmp_path, "a.json")), report(path_in(tmp_path, "b.json"))
    assert ra == rb and ra["public"]["winner"] in ("white", "black", "draw")
    assert "dealer: created %s (kahuna) for alice as white" % CODE in log
    assert check_privacy(spy.got(), {"white": "alice", "black": "bob"}) == ra["seq"]
    spy.close()
