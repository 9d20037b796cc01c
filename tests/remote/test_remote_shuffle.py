"""The dealer's secret (host_tools/remote/shuffle.py, docs/remote.md "Hidden information"):
128 bits from the system's random source per game, the shuffle's stream
HMAC-SHA256(secret, counter), kept in the game's file in --state-dir and in no message."""

import hashlib
import hmac
import json
import os
import random
import subprocess
import sys
from collections import Counter

import pytest
from boardkit import Match
from memtables import Tables
from remotekit import Spy, finish, path_in, report, start, stop
from secretkit import assert_not_on_the_wire

from host_tools import games as hostgames
from host_tools.remote import dealing
from host_tools.remote import protocol as p
from host_tools.remote.shuffle import Shuffle, check_secret, new_secret, test_secret
from mpy_runner import ROOT

CODE = "K7QXM2"
kahuna = hostgames.part("kahuna", "remote")


def test_the_stream_is_hmac_sha256_of_the_secret_and_a_counter():
    secret = test_secret(1)
    key = bytes.fromhex(secret)
    blocks = b"".join(hmac.new(key, n.to_bytes(8, "big"), hashlib.sha256).digest()
                      for n in range(3))
    r = Shuffle(secret)
    assert r.getrandbits(8) == blocks[0]
    assert r.getrandbits(12) == int.from_bytes(blocks[1:3], "big") >> 4
    assert r.getrandbits(600) == int.from_bytes(blocks[3:78], "big")  # across blocks
    assert 0 <= Shuffle(secret).random() < 1
    r.seed(5)  # random.Random's seeding does not touch the stream
    assert r.getrandbits(8) == blocks[78]


def test_a_secret_deals_one_deck_and_the_shuffle_is_even():
    cards = list(range(24))
    a, b, c = (list(cards) for _ in range(3))
    Shuffle(test_secret(3)).shuffle(a)
    Shuffle(test_secret(3)).shuffle(b)
    Shuffle(test_secret(4)).shuffle(c)
    assert a == b != c and sorted(a) == cards
    # Every order of 4 cards, about as often (2,400 deals, 100 expected each; the
    # secrets are fixed, so the counts are too).
    counts = Counter()
    for n in range(2400):
        items = [0, 1, 2, 3]
        Shuffle(test_secret(n)).shuffle(items)
        counts[tuple(items)] += 1
    assert len(counts) == 24 and 60 < min(counts.values()) <= max(counts.values()) < 140


def test_new_secrets_are_128_bits_and_bad_ones_are_refused():
    made = {new_secret() for _ in range(200)}
    assert len(made) == 200 and all(check_secret(s) == s for s in made)
    assert all(len(s) == 32 for s in made)
    for bad in (None, 5, "ab" * 15, "zz" * 16, "ab" * 17):
        with pytest.raises(ValueError, match="32 hex digits"):
            check_secret(bad)
        with pytest.raises(ValueError):
            Shuffle(bad)


def hello(d, user, op, code=CODE):
    return d.handle(p.topic(code, "hello", user),
                    p.encode(p.hello(op, "white", {"variant": "standard"})))


def started(d, code=CODE):
    hello(d, "alice", "create", code)
    hello(d, "bob", "join", code)
    return d.games[code]


def test_two_games_get_different_decks():
    d = dealing.Dealer()  # each game its own secret from the system's random source
    one, two = started(d, "K7QXM2"), started(d, "K7QXM3")
    assert one.secret != two.secret
    assert one.dealt.deck + one.dealt.display != two.dealt.deck + two.dealt.display
    # Halunken's piles and Kami's hands too (their Dealt from two secrets).
    for kind, settings in (("halunken", {"players": 3}), ("kami", {"players": 2})):
        part = hostgames.part(kind, "remote")
        games = [part.Dealt(settings, Shuffle(new_secret()), CODE).game for _ in range(2)]
        if kind == "halunken":
            assert games[0].piles != games[1].piles
        else:
            assert games[0].hands != games[1].hands


def step(d, rng):
    """One random request of the seat to act (the dealer's own options for it)."""
    g = d.games[CODE]
    seat = g.dealt.to_act()
    opts = kahuna.options(g.dealt.public(), g.dealt.hand(seat), seat)
    action = kahuna.random_request(opts, rng)
    user = g.seats[seat]
    out, lines = d.handle(p.topic(CODE, "move", user),
                          p.encode(p.move(CODE, seat, g.moves.get(seat, 0) + 1, len(g.log),
                                          list(action))))
    assert lines == [], lines
    return out


def test_a_restarted_dealer_deals_the_same_game_on_from_its_state_dir(tmp_path):
    d = dealing.Dealer(None, str(tmp_path))
    g = started(d)
    rng = random.Random(6)
    for _ in range(40):
        step(d, rng)
    saved = json.loads((tmp_path / (CODE + ".json")).read_text())
    assert saved["secret"] == g.secret and "seed" not in saved
    assert os.stat(tmp_path / (CODE + ".json")).st_mode & 0o077 == 0  # the dealer's alone

    def no_new_secret(code):
        raise AssertionError("a restart asked for a new secret")
    again = dealing.Dealer(no_new_secret, str(tmp_path))
    h = again.games[CODE]
    assert h.secret == g.secret
    assert (h.dealt.deck, h.dealt.display) == (g.dealt.deck, g.dealt.display)
    assert d.snapshot(g) == again.snapshot(h)
    # Both go on alike to the end: the next rounds' decks (the pile shuffled, R5) too.
    rng_a, rng_b = random.Random(7), random.Random(7)
    while g.dealt.to_act() is not None:
        assert step(d, rng_a) == step(again, rng_b)
    assert h.dealt.to_act() is None and h.log == g.log and g.dealt.game.round == 3


def write_game(tmp_path, text):
    (tmp_path / (CODE + ".json")).write_text(text)


@pytest.mark.parametrize("text, says", [
    ("{\"code\": ", "K7QXM2.json: not a game's JSON"),
    (json.dumps({"code": CODE, "kind": "kahuna", "settings": {}, "seed": 5, "seats": {},
                 "moves": {}, "requests": []}), "K7QXM2.json: no game's secret in it"),
    (json.dumps({"code": CODE, "kind": "kahuna", "settings": {}, "secret": "abc",
                 "seats": {}, "moves": {}, "requests": []}),
     "K7QXM2.json: not a game this dealer can replay (ValueError: the game's secret must "
     "be 32 hex digits)"),
    (json.dumps({"code": CODE, "kind": "kahuna", "settings": {}, "secret": test_secret(1)}),
     "K7QXM2.json: not a game this dealer can replay (no 'seats' in it)"),
])
def test_a_corrupt_or_old_game_file_is_one_clear_line(tmp_path, text, says):
    state = tmp_path / "state"
    state.mkdir()
    write_game(state, text)
    with pytest.raises(ValueError) as e:
        dealing.Dealer(None, str(state))
    assert str(e.value) == says or str(e.value).startswith(says), str(e.value)
    pw = tmp_path / "dealer.pw"
    pw.write_text("pw\n")
    proc = subprocess.run(
        [sys.executable, "-m", "host_tools", "dealer", "--broker", "127.0.0.1:9",
         "--user", "dealer", "--password-file", str(pw), "--state-dir", str(state)],
        capture_output=True, text=True, cwd=ROOT, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith("dealer: cannot read the games in %s: %s" % (state, says))
    assert os.listdir(state) == [CODE + ".json"]  # nothing changed


def test_the_secret_is_in_no_message_of_a_game_in_process(monkeypatch):
    """Kahuna between two boards (every message the dealer published), Halunken and Kami
    between tables (memtables' wire: every message either way)."""
    seen = []
    deliver = Match.deliver

    def spied(self, out):
        seen.extend(out)
        return deliver(self, out)
    monkeypatch.setattr(Match, "deliver", spied)
    m = Match(2)
    m.play()
    assert_not_on_the_wire(seen, m.dealer.games[CODE].secret)
    for kind, settings in (("halunken", {"players": 3}), ("kami", {"players": 2})):
        t = Tables(kind, settings, seed=3)
        t.play(random.Random(3))
        assert_not_on_the_wire(t.wire, t.game().secret)


def test_a_dealers_own_secret_is_in_no_message_on_the_broker(broker, tmp_path):
    """The dealer as a user runs it (no --seed: a secret from the system's random source,
    kept in --state-dir); a spy on `#` for a whole game; the secret is then read from the
    game's file."""
    state = tmp_path / "state"
    dealer = start(["dealer"] + broker.args("dealer") + ["--state-dir", str(state)],
                   path_in(tmp_path, "dealer.log"))
    try:
        spy = Spy(broker)
        a = start(["remote", "create", "--code", CODE, "--player", "random", "--seed", "1",
                   "--report", path_in(tmp_path, "a.json")] + broker.args("alice"),
                  path_in(tmp_path, "alice.log"))
        b = start(["remote", "join", CODE, "--player", "random", "--seed", "2",
                   "--report", path_in(tmp_path, "b.json")] + broker.args("bob"),
                  path_in(tmp_path, "bob.log"))
        finish(a, "alice's table")
        finish(b, "bob's table")
        assert report(path_in(tmp_path, "a.json")) == report(path_in(tmp_path, "b.json"))
        secret = json.loads((state / (CODE + ".json")).read_text())["secret"]
        assert check_secret(secret) == secret
        assert_not_on_the_wire(spy.got(), secret)
        spy.close()
    finally:
        stop(dealer)
