"""Remote play's protocol without a broker (host_tools/remote/: dealing, seat, protocol;
Kahuna's remote part): every message is checked before it touches a game, and a bad one is
refused with its reason and changes nothing; a table drops duplicates and heals gaps."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from host_tools import games as hostgames
from host_tools.remote import dealing
from host_tools.remote import protocol as p
from host_tools.remote.seat import Seat
from host_tools.remote.shuffle import Shuffle, test_secret

CODE = "K7QXM2"
part = hostgames.part("kahuna", "remote")


def hello(dealer, user, op, seat="white"):
    return dealer.handle(p.topic(CODE, "hello", user),
                         p.encode(p.hello(op, seat, {"variant": "standard"})))


def started(state_dir=None, seed=5):
    d = dealing.Dealer(lambda code: seed, state_dir)
    hello(d, "alice", "create")
    hello(d, "bob", "join")
    return d


def snapshot(d):
    return d.snapshot(d.games[CODE])[1]


def request(d, user, action, n=None, base=None, seat=None, game=CODE):
    g = d.games[CODE]
    seat = seat or g.seat_of(user)
    msg = p.move(game, seat, n if n is not None else g.moves.get(seat, 0) + 1,
                 base if base is not None else len(g.log), action)
    return d.handle(p.topic(CODE, "move", user), p.encode(msg))


def a_legal(d, seed=0):
    g = d.games[CODE]
    seat = g.dealt.to_act()
    opts = part.options(g.dealt.public(), g.dealt.hand(seat), seat)
    return g.seats[seat], seat, part.random_request(opts, random.Random(seed))


# ---------------------------------------------------------------------- refusals

def bad_moves(d):
    """(what, topic, payload, the refusal code) of bad requests, in the position of `d`."""
    g = d.games[CODE]
    user, seat, action = a_legal(d)
    other = [u for u in g.seats.values() if u != user][0]
    oseat = g.seat_of(other)
    n = g.moves.get(seat, 0) + 1
    base = len(g.log)
    move = p.topic(CODE, "move", user)
    hand = g.dealt.hand(seat)
    return [
        ("not JSON", move, b"\xff{garbage", "malformed"),
        ("not an object", move, b"[1, 2]", "malformed"),
        ("another version", move, p.encode(dict(p.move(CODE, seat, n, base, action), v=9)),
         "malformed"),
        ("no action", move, p.encode(dict(p.move(CODE, seat, n, base, action), action=[])),
         "malformed"),
        ("an unknown action", move, p.encode(p.move(CODE, seat, n, base, ["fly", "HUNA-1"])),
         "malformed"),
        ("too many names", move, p.encode(p.move(CODE, seat, n, base, ["end_play", "x"])),
         "malformed"),
        ("a huge message", move, b"{" + b" " * 20000 + b"}", "malformed"),
        ("another game's name", move, p.encode(p.move("ZZZZZZ", seat, n, base, action)),
         "forged"),
        ("the other seat", p.topic(CODE, "move", other),
         p.encode(p.move(CODE, seat, n, base, action)), "forged"),
        ("a stranger", p.topic(CODE, "move", "carol"), p.encode(p.move(CODE, seat, n, base,
                                                                          action)),
         "not-seated"),
        ("no such game", p.topic("ZZZZZZ", "move", user),
         p.encode(p.move("ZZZZZZ", seat, n, base, action)), "unknown-game"),
        ("an old number", move, p.encode(p.move(CODE, seat, n - 1 if n > 1 else 0, base,
                                                action)), "replayed" if n > 1 else "malformed"),
        ("an old state", move, p.encode(p.move(CODE, seat, n, base - 1, action)), "stale"),
        ("out of turn", p.topic(CODE, "move", other),
         p.encode(p.move(CODE, oseat, g.moves.get(oseat, 0) + 1, base, ["end_play"])),
         "out-of-turn"),
        ("a card not in hand", move, p.encode(p.move(CODE, seat, n, base, [
            "discard", [c for c in part.card_names() if c not in hand][0]])),
         "card-not-in-hand"),
        ("a bad topic", "kb/nonsense", b"{}", "malformed"),
    ]


def test_every_bad_request_is_refused_with_its_reason_and_changes_nothing():
    d = started()
    rng = random.Random(3)
    for step in range(60):  # through the game, in every phase it passes
        g = d.games[CODE]
        if step % 10 == 0:
            before = snapshot(d)
            saved = json.dumps(g.save())
            for what, topic, payload, code in bad_moves(d):
                out, lines = d.handle(topic, payload)
                assert len(lines) == 1 and lines[0].startswith("refused %s " % code), (
                    what, lines)
                assert snapshot(d) == before and json.dumps(g.save()) == saved, what
                # The answer goes to the writer's reply topic alone, and says why.
                assert all("/reply/" in t for t, _, _ in out), what
                for _t, payload2, _ in out:
                    assert json.loads(payload2)["refused"] == code
        user, seat, action = a_legal(d, rng.randrange(1000))
        out, lines = request(d, user, action)
        assert lines == [] and any(t.endswith("/event") for t, _, _ in out)


def test_a_request_said_twice_is_taken_once():
    d = started()
    user, seat, action = a_legal(d)
    msg = p.encode(p.move(CODE, seat, 1, len(d.games[CODE].log), action))
    out, lines = d.handle(p.topic(CODE, "move", user), msg)
    assert lines == []
    seq = len(d.games[CODE].log)
    out, lines = d.handle(p.topic(CODE, "move", user), msg)  # QoS 1's second delivery
    assert lines[0].startswith("refused replayed") and len(d.games[CODE].log) == seq


def test_hellos_are_checked_and_idempotent():
    d = dealing.Dealer(lambda code: 1)
    out, lines = d.handle(p.topic(CODE, "hello", "bob"), p.encode(p.hello("join")))
    assert lines[0].startswith("refused unknown-game")
    out, lines = d.handle(p.topic(CODE, "hello", "alice"),
                          p.encode(p.hello("create", "white", {"variant": "nonsense"})))
    assert lines[0].startswith("refused malformed") and CODE not in d.games
    out, lines = d.handle(p.topic(CODE, "hello", "alice"),
                          p.encode(p.hello("create", "white", {"ai": "black"})))
    assert "seats no AI" in lines[0]
    hello(d, "alice", "create")
    assert hello(d, "alice", "create")[1] == []  # said again: nothing new
    assert hello(d, "carol", "create")[1][0].startswith("refused code-taken")
    hello(d, "bob", "join")
    assert hello(d, "bob", "join")[1] == ["bob rejoined %s" % CODE]
    assert hello(d, "carol", "join")[1][0].startswith("refused game-full")
    assert d.games[CODE].seats == {"white": "alice", "black": "bob"}


# ---------------------------------------------------------------------- whole games

def play_out(d, seed):
    rng = random.Random(seed)
    g = d.games[CODE]
    while g.dealt.to_act() is not None:
        user, seat, action = a_legal(d, rng.randrange(10 ** 6))
        out, lines = request(d, user, action)
        assert lines == [], lines
        dealt = g.dealt
        # The dealer's deck and display are the rules' drawable cards, always.
        assert len(dealt.deck) + len(dealt.display) == dealt.game.drawable_count()
        assert len(dealt.display) <= 3
        yield out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whole_games_through_the_dealer_end_and_a_restarted_dealer_goes_on(tmp_path, seed):
    d = started(str(tmp_path), seed=seed)
    steps = play_out(d, seed)
    for _ in range(70):
        next(steps)
    again = dealing.Dealer(lambda code: 99, str(tmp_path))  # a restart: replays its file
    assert snapshot(again) == snapshot(d)
    for _ in steps:
        pass
    assert d.games[CODE].status() == "over"
    assert json.loads(snapshot(d))["public"]["winner"] in ("white", "black", "draw")


def test_a_table_drops_duplicates_and_heals_gaps_from_the_snapshot():
    d = dealing.Dealer(lambda code: 5)
    start = hello(d, "alice", "create")[0] + hello(d, "bob", "join")[0]
    published = []
    for out in play_out(d, 4):
        published += out
        if len(published) > 200:
            break
    events = [(t, m) for t, m, _ in published if t.endswith("/event")]
    last_snapshot = [m for t, m, _ in published if t.endswith("/snapshot")][-1]
    s = Seat(CODE, "alice")
    for t, m, _ in start:  # the start: the deal's events, the hand, the snapshot
        if "/hand/bob" not in t:
            s.feed(t, m)
    assert s.seq == 7 and s.seat == "white"
    t, m = events[0]
    assert s.feed(t, m) == "event 8"
    assert s.feed(t, m) == "duplicate 8" and s.seq == 8
    assert s.feed(*events[2]).startswith("gap") and s.need_snapshot and s.seq == 8
    assert s.feed(p.topic(CODE, "snapshot"), last_snapshot).startswith("snapshot")
    assert not s.need_snapshot and s.log == json.loads(last_snapshot)["log"]
    assert s.feed(*events[3]).startswith("duplicate")  # a delayed one: dropped
    forged = json.loads(events[0][1])
    forged["action"] = ["place", "HUNA-1", "ALOA-HUNA"]
    with pytest.raises(p.Bad) as e:
        s.feed(events[0][0], p.encode(forged))
    assert e.value.code == "forged"
    for topic, payload in [(p.topic(CODE, "hand", "bob"), b"{}"),
                           (p.topic("ZZZZZZ", "event"), events[0][1]),
                           (p.topic(CODE, "event"), b"not json"),
                           (p.topic(CODE, "event"), p.encode({"v": 1, "seq": "x"}))]:
        held = s.report()
        with pytest.raises(p.Bad):
            s.feed(topic, payload)
        assert s.report() == held


# ---------------------------------------------------------------------- garbage

JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10 ** 6) | st.text(max_size=12)
    | st.sampled_from(["white", "black", CODE, "HUNA-1", "ALOA-HUNA", "draw", "place"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["v", "game", "seat", "n", "base", "action", "op", "kind",
                         "settings", "seq", "public", "hand", "log", "status", "seats",
                         "moves", "actor"]), inner, max_size=7),
    max_leaves=12)


def payloads():
    as_json = JSONISH.map(lambda obj: json.dumps(obj).encode())
    with_version = st.dictionaries(st.sampled_from(["game", "seat", "n", "base", "action",
                                                    "op", "seq", "public", "hand", "log"]),
                                   JSONISH, max_size=6).map(
        lambda d: json.dumps(dict(d, v=1)).encode())
    return st.one_of(st.binary(max_size=40), as_json, with_version)


TOPICS = st.sampled_from([p.topic(CODE, "move", "alice"), p.topic(CODE, "move", "bob"),
                          p.topic(CODE, "hello", "carol"), p.topic(CODE, "event"),
                          p.topic(CODE, "snapshot"), p.topic(CODE, "hand", "alice"),
                          p.topic(CODE, "reply", "alice"), "kb/x", "kb/%s/move/" % CODE])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(topic=TOPICS, payload=payloads())
def test_garbage_never_breaks_the_dealer_nor_a_table(topic, payload):
    d = started()
    before = snapshot(d)
    out, lines = d.handle(topic, payload)  # never raises
    if lines and lines[0].startswith("refused"):
        assert snapshot(d) == before and len(lines) == 1
    s = Seat(CODE, "alice")
    try:
        s.feed(topic, payload)
    except p.Bad:
        assert s.report() == Seat(CODE, "alice").report()


# ---------------------------------------------------------------------- the AI's view

def test_the_ai_seats_observation_is_the_boards_but_for_its_own_discards(monkeypatch):
    """observation() from a table's knowledge against games.kahuna.observe.Tracker fed the
    whole game: the same, except that cards the seat itself discarded are not among `seen`
    (the public log names no discarded card), as AiSeat's docstring says."""
    from games.kahuna import observe, rules
    holder = {}
    trackers = {}
    apply = rules.Game.apply

    def noted(game, action):
        actor = game.turn
        face_up = action[0] == "draw" and action[1] in holder["dealt"].display \
            if "dealt" in holder else False
        apply(game, action)
        if game is holder.get("game"):
            for t in trackers.values():
                t.note(game, action, actor, face_up)

    monkeypatch.setattr(rules.Game, "apply", noted)
    d = part.Dealt({"first": "black"}, Shuffle(test_secret(21)))
    game = d.game
    # The deal happened before the trackers could listen: feed it to them now.
    for me in (0, 1):
        trackers[me] = observe.Tracker(rules.Game(game.board), me)
    fresh = rules.Game(game.board, first="black")
    holder.update(game=game, dealt=d)
    for seat_i in (1, 1, 1, 0, 0, 0):
        for me in (0, 1):
            trackers[me].note(fresh, ("deal", "HUNA-1"), seat_i)  # names unread: opp count
    log = [[i + 1, a, act] for i, (a, act) in enumerate(d.events)]
    discarded = {"white": 0, "black": 0}  # each seat's own discards this round (bits)
    rnd = game.round
    rng = random.Random(2)
    players = {"white": part.AiSeat(seed=3), "black": part.AiSeat(seed=4)}
    compared = 0
    while d.to_act():
        if game.round != rnd:  # R5: the pile became the deck; the trackers forget it too
            rnd = game.round
            discarded = {"white": 0, "black": 0}
        seat = d.to_act()
        me = rules.player_index(seat)
        public, hand = d.public(), d.hand(seat)
        got = part.observation(seat, public, hand, log)
        want = trackers[me].observe(game, d.display)
        for name in ("me", "variant", "phase", "turn", "round", "final_turns", "must_draw",
                     "refill", "bridges", "control", "supply", "hand", "opp_known",
                     "opp_count", "discard_count", "drawable_count", "display"):
            assert getattr(got, name) == getattr(want, name), (name, len(log))
        assert got.seen & ~want.seen == 0  # nothing seen that the board would not see
        assert want.seen & ~got.seen & ~discarded[seat] == 0  # only its own discards missed
        compared += 1
        opts = part.options(public, hand, seat)
        action = (players[seat].choose(seat, public, hand, log, opts) if rng.random() < 0.7
                  else part.random_request(opts, rng))
        if action[0] == "discard":
            discarded[seat] |= 1 << game.card_index[action[1]]
        for actor, act in d.request(seat, action):
            log.append([len(log) + 1, actor, act])
    assert compared > 50


def test_new_codes_are_island_letters_and_old_codes_still_pass():
    """Issue 19: a new code, the host's, is six of the ten island initials a board spells
    and takes (core.remoteproto.NEW_CODE_LETTERS); the checks keep every CODE_LETTERS code."""
    rand = random.Random(19)
    codes = [p.new_code(rand) for _ in range(300)]
    assert all(len(c) == 6 and set(c) <= set("ABCDEFGHJK") for c in codes)
    assert set("".join(codes)) == set("ABCDEFGHJK")
    assert p.check_code("k7qxm2") == "K7QXM2"  # an old host's code: still a code
    with pytest.raises(ValueError):
        p.check_code("K7QXI2")
