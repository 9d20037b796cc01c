"""Per-game tokens (docs/remote.md, "Per-game tokens"): a private game's creator gets a
token with the code; the dealer seats nobody without it, so a stranger who has broker
credentials but not the token can neither join nor write a seat (a move from a user
without a seat is refused, and changes nothing)."""

import json

from remotekit import Spy, code_of, finish, output, path_in, report, start, stop

from host_tools.remote import dealing
from host_tools.remote import protocol as p

CODE = "K7QXM2"
TOKEN = "Q4WX7T9KMZ"


def handle(d, user, kind, msg):
    return d.handle(p.topic(CODE, kind, user), p.encode(msg))


def replies(out, user):
    return [json.loads(m[1]) for m in out if m[0] == p.topic(CODE, "reply", user)]


def test_a_private_game_seats_nobody_without_its_token():
    d = dealing.Dealer(lambda code: 3)
    handle(d, "alice", "hello", p.hello("create", "white", {}, token=TOKEN))
    g = d.games[CODE]
    for msg in (p.hello("join"), p.hello("join", token="WRQNGTQKEN")):
        out, lines = handle(d, "carol", "hello", msg)
        assert [r["refused"] for r in replies(out, "carol")] == ["bad-token"]
        assert lines and "refused bad-token from carol" in lines[0]
        assert g.seats == {"white": "alice"} and g.dealt is None  # nothing changed
    out, _ = handle(d, "carol", "hello", {"v": 1, "op": "join", "token": 42})
    assert [r["refused"] for r in replies(out, "carol")] == ["malformed"]
    # Writing a seat without one: refused, the game as it was.
    move = p.move(CODE, "black", 1, 0, ["end_play"])
    out, _ = handle(d, "carol", "move", move)
    assert [r["refused"] for r in replies(out, "carol")] == ["not-seated"]
    # The token nowhere in what the dealer publishes.
    out, _ = handle(d, "bob", "hello", p.hello("join", token=TOKEN))
    assert g.seats == {"white": "alice", "black": "bob"} and g.dealt is not None
    assert all(TOKEN.encode() not in m[1] for m in out)
    assert g.save()["token"] == TOKEN  # kept by the dealer (its state dir) for a restart
    assert dealing.Game.load(json.loads(json.dumps(g.save()))).token == TOKEN
    # A seated table comes back without it (its broker user is its seat's).
    out, lines = handle(d, "bob", "hello", p.hello("join"))
    assert lines == ["bob rejoined K7QXM2"]


def test_a_dealer_that_requires_tokens_refuses_an_open_game():
    d = dealing.Dealer(lambda code: 3, require_token=True)
    out, _ = handle(d, "alice", "hello", p.hello("create", "white", {}))
    assert [r["refused"] for r in replies(out, "alice")] == ["bad-token"]
    assert CODE not in d.games
    handle(d, "alice", "hello", p.hello("create", "white", {}, token=TOKEN))
    assert d.games[CODE].token == TOKEN


def test_a_stranger_with_credentials_cannot_join_a_private_game(broker, tmp_path):
    """Through Mosquitto and the dealer as the user runs them: carol (a broker user)
    says join without the token and writes a move; bob joins with it; the game is played
    to its end between alice and bob."""
    dealer = start(["dealer"] + broker.args("dealer") + ["--seed", "5"],
                   path_in(tmp_path, "dealer.log"))
    spy = Spy(broker)
    carol = Spy(broker, "carol", topics=("kb/%s/reply/carol" % CODE,))
    try:
        a = start(["remote", "create", "--code", CODE, "--private", "--player", "random",
                   "--report", path_in(tmp_path, "a.json")] + broker.args("alice"),
                  path_in(tmp_path, "alice.log"))
        assert code_of(a) == CODE
        token = [line.split()[2] for line in output(a).splitlines()
                 if line.startswith("game token: ")][0]
        spy.wait_for(lambda m: m[0] == "kb/%s/snapshot" % CODE, "the game created")
        carol.publish("kb/%s/hello/carol" % CODE, p.encode(p.hello("join")))
        carol.publish("kb/%s/move/carol" % CODE,
                      p.encode(p.move(CODE, "black", 1, 0, ["end_play"])))
        carol.wait_for(lambda m: b"not-seated" in m[1], "carol's move refused", timeout=20)
        assert [json.loads(m[1])["refused"] for m in carol.got()] == ["bad-token",
                                                                    "not-seated"]
        wrong = start(["remote", "join", CODE, "--player", "random", "--patience", "5"]
                      + broker.args("bob"), path_in(tmp_path, "wrong.log"))
        spy.wait_for(lambda m: m[0] == "kb/%s/reply/bob" % CODE and b"bad-token" in m[1],
                     "bob refused without the token")
        stop(wrong)
        b = start(["remote", "join", CODE, "--token", token, "--player", "random",
                   "--report", path_in(tmp_path, "b.json")] + broker.args("bob"),
                  path_in(tmp_path, "bob.log"))
        finish(a, "alice's table")
        finish(b, "bob's table")
    finally:
        stop(dealer)
    ra, rb = report(path_in(tmp_path, "a.json")), report(path_in(tmp_path, "b.json"))
    assert ra == rb and ra["public"]["winner"] in ("white", "black", "draw")
    snaps = [json.loads(m[1]) for m in spy.got() if m[0].endswith("/snapshot")]
    assert all("carol" not in s["seats"].values() for s in snaps)
    assert all(token.encode() not in m[1] for m in spy.got()
               if not m[0].endswith(("/hello/alice", "/hello/bob")))
    assert "refused bad-token from carol" in output(dealer)
    spy.close()
    carol.close()
