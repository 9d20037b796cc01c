"""Halunken and Kami in remote play without a broker (host_tools/games/*/remote.py,
host_tools/remote/commit.py, docs/remote.md): whole games end the same at every table;
nothing on the wire names a hidden card (swapped hidden cards change no message a table
reads; no movement card before its reveal, H7, H32; no face-down defence but the final
one, K6, K21); commitments bind, and a forged, replayed or mismatched reveal is refused
with its reason and changes nothing."""

import copy
import json
import random

import pytest
from memtables import CODE, Tables

from games.halunken import deck as hdeck
from games.halunken.moves import ROUNDS
from games.kami import deck as kdeck
from host_tools.remote import commit
from host_tools.remote import protocol as p

GAMES = [("halunken", {"players": 2}), ("halunken", {"players": 3, "mode": "standard"}),
         ("halunken", {"players": 4, "mode": "beginner"}),
         ("kami", {"players": 2, "target": 5}), ("kami", {"players": 3, "target": 5}),
         ("kami", {"players": 4, "target": 5})]


def msgs(t, since=0):
    return [(topic, json.loads(payload)) for topic, payload, _ in t.wire[since:]]


@pytest.mark.parametrize("kind,settings", GAMES)
def test_whole_games_end_the_same_at_every_table(kind, settings):
    for seed in (1, 2):
        t = Tables(kind, settings, seed=seed, ai=("u2",))
        t.play(random.Random(seed))
        reports = list(t.reports().values())
        assert all(r == reports[0] for r in reports)
        assert reports[0]["log"] == t.game().log  # the dealer's own
        assert reports[0]["public"]["winner"]
        assert commit.audit(reports[0]["log"]) == []  # every reveal opens its commitment
        if kind == "halunken":
            opens = [e for e in reports[0]["log"] if e[2][0] == "open"]
            assert len(opens) >= 6 * settings["players"]  # a card per seat and round


def test_the_boards_players_take_every_seat_and_are_never_refused():
    for kind, settings in GAMES:
        n = settings["players"]
        t = Tables(kind, settings, ai=["u%d" % (i + 1) for i in range(n)])
        t.play()
        assert not [line for line in t.lines if "refused" in line]


# ---------------------------------------------------------------------- hidden information

def test_no_movement_card_is_on_the_wire_before_its_reveal():
    """H7, H32: between a round's first commitment and the dealer's publication of every
    card, no message on any topic (moves included: a spy on `#`) holds a movement card,
    and the dealer holds none either (its game has no choice)."""
    t = Tables("halunken", {"players": 3, "mode": "standard"}, ai=("u3",))
    secret_rounds = []

    def each(tt):
        g = tt.game().dealt
        if g.pending is not None:
            assert g.game.choices == [-1] * 5  # the dealer knows no card yet
            secret_rounds.append(g.game.round)
    t.play(random.Random(4), each=each)
    in_secret = False
    for topic, msg in msgs(t):
        kind = topic.split("/")[2]
        action = msg.get("action")
        if kind == "event" and action[0] == "commit":
            in_secret = True
        if kind == "event" and action[0] == "open":
            in_secret = False
        if not in_secret:
            continue
        if kind == "move":
            assert action[0] in ("commit", "reveal"), msg
            if action[0] == "commit":
                assert len(action) == 3 and commit.is_digest(action[2])
        elif kind == "event":
            assert action[0] in ("commit", "reveal", "revealed"), msg
            if action[0] == "revealed":
                assert len(action) == 2  # the figure, no card
        if kind in ("event", "snapshot") and msg.get("public"):
            assert msg["public"]["round_cards"] == {} and msg["public"]["chosen"] == 0
        if kind == "hand":
            assert msg["view"]["obs"]["choice"] == -1  # the dealer holds none to tell
    assert sorted(set(secret_rounds)) == list(range(1, ROUNDS + 1))


def _seat_messages(dealt, seats):
    return json.dumps([dealt.public()] + [[dealt.hand(s), dealt.view(s)] for s in seats],
                      sort_keys=True)


def test_halunken_hidden_cards_swapped_change_nothing_a_table_reads():
    """The piles below their tops and Black-Jack's deck (H5, H12, H25), swapped at every
    step of a game, change no public state, no hand and no view."""
    t = Tables("halunken", {"players": 3, "mode": "standard"}, seed=9)
    rng = random.Random(2)
    checked = [0]

    def each(tt):
        dealt = tt.game().dealt
        g = dealt.game
        seats = dealt.seats
        before = _seat_messages(dealt, seats)
        saved = copy.deepcopy((g.piles, g.bj_deck))
        below = [(t_, i) for t_ in range(hdeck.SPACES) for i in range(1, len(g.piles[t_]))]
        if len(below) >= 2:
            (a, i), (b, j) = rng.sample(below, 2)
            g.piles[a][i], g.piles[b][j] = g.piles[b][j], g.piles[a][i]
        rng.shuffle(g.bj_deck)
        assert _seat_messages(dealt, seats) == before
        g.piles, g.bj_deck = saved
        checked[0] += 1
    t.play(random.Random(3), each=each)
    assert checked[0] > 50


def test_a_different_secret_card_sends_the_same_messages_until_the_reveal():
    """Two games alike but for p1's first movement card: every message up to the dealer's
    publication of the cards is the same, but for the commitments' digests."""
    def first_round(card_of_p1):
        t = Tables("halunken", {"players": 2}, seed=3)
        rng = random.Random(1)
        while t.game().dealt.pending is None:
            u = [u for u in t.users if t.request_of(u, random.Random(0)) is not None][0]
            t.send(u, t.request_of(u, rng))
        start = len(t.wire)
        s1 = t.seats["u1"]
        option = [o for o in s1.view["options"] if o[2] == card_of_p1][0]
        t.send("u1", t.secrets["u1"].commit(s1.view["context"], option[1], option[2]))
        while t.game().dealt.pending is not None:  # the other commitments, the reveals
            for u in t.users:
                req = t.request_of(u, random.Random(5))
                if req is not None:
                    t.send(u, req)
        return [(topic, payload) for topic, payload, _ in t.wire[start:]]
    a, b = first_round("1"), first_round("RUM")
    assert len(a) == len(b)

    def masked(m, topic):
        """The message with what differs by nature masked: the commitments' digests
        (random nonces: different in any two games) and the reveals to the dealer."""
        for e in m.get("log") or []:
            if e[2][0] == "commit":
                e[2][2] = "digest"
        action = m.get("action")
        if action and action[0] == "commit":
            action[2] = "digest"
        if action and "/move/" in topic and action[0] == "reveal":
            action[2:] = ["card", "nonce"]  # to the dealer alone
        return m
    compared = 0
    for (ta, pa), (tb, pb) in zip(a, b):
        assert ta == tb
        ma, mb = json.loads(pa), json.loads(pb)
        if ta.endswith("/event") and ma["action"][0] == "open":
            assert ma["action"][2] != mb["action"][2]  # the rules reveal the cards (H7)
            break
        assert masked(ma, ta) == masked(mb, tb), ta
        compared += 1
    else:
        raise AssertionError("the cards were never revealed")
    assert compared > 10


def test_kami_hidden_cards_swapped_change_nothing_another_table_reads():
    """Another seat's hand and face-down defences (K6, K20), swapped at every step of a
    game, change no public state and nothing of a seat's own hand, view or options."""
    t = Tables("kami", {"players": 3, "target": 5}, seed=4)
    rng = random.Random(6)
    checked = [0]

    def each(tt):
        dealt = tt.game().dealt
        g = dealt.game
        if g.phase != "play" or g.hands is None:
            return
        me = rng.randrange(g.players)
        a, b = [s for s in range(g.players) if s != me][:2]
        before = _seat_messages(dealt, [dealt.seats[me]])
        saved = g.snapshot()
        hidden_a = list(g.hands[a]) + [e for e in g.lines[a][0] if not e[1]]
        if g.hands[b] and hidden_a:
            x = rng.choice(hidden_a)
            j = rng.randrange(len(g.hands[b]))
            if isinstance(x, list):  # a face-down defence of a
                x[0], g.hands[b][j] = g.hands[b][j], x[0]
            else:
                i = g.hands[a].index(x)
                g.hands[a][i], g.hands[b][j] = g.hands[b][j], g.hands[a][i]
            g.hands[b].sort()
            assert _seat_messages(dealt, [dealt.seats[me]]) == before
            checked[0] += 1
        g.restore(saved)
    t.play(random.Random(2), each=each)
    assert checked[0] > 30


def test_kami_names_no_face_down_card_but_the_final_one():
    """On the public topics a face-down defence is ["defend"] and a face-down line entry
    names no card; a scored round's final defence is named (K21); a seat's hand topic
    holds its own cards only."""
    t = Tables("kami", {"players": 2, "target": 5}, seed=8)
    t.play(random.Random(8))
    downs = {}  # user -> cards it laid face down, from its move topic
    public = None
    checked = 0
    for topic, msg in msgs(t):
        parts = topic.split("/")
        if parts[2] == "move" and msg["action"][0] == "defend":
            downs.setdefault(parts[3], set()).add(msg["action"][1])
        if parts[2] == "event":
            assert msg["action"] == ["defend"] or msg["action"][0] != "defend"
        if parts[2] == "event" and msg.get("public"):
            public = msg["public"]
        if parts[2] in ("event", "snapshot") and msg.get("public"):
            for lines in msg["public"]["lines"].values():
                assert all(e["card"] is None for e in lines["defence"] if e["face"] == "down")
        if parts[2] == "hand":
            assert set(msg["view"]["defence_down"]) <= set(downs.get(parts[3], ()))
            assert set(msg["hand"]) <= set(kdeck.NAMES)
            # the board's observation: another seat's face-down defence is -1 (K6)
            obs = msg["view"]["obs"]
            mine = t.users.index(parts[3])
            for s, (d, _a) in enumerate(obs["lines"]):
                if s != mine and public is not None and public["round"] == obs["round"]:
                    line = public["lines"]["p%d" % (s + 1)]["defence"]
                    assert [-1 if e["face"] == "down" else kdeck.index(e["card"])
                            for e in line] == d
                    checked += 1
    assert checked > 20
    finals = [r["defence"] for r in t.seats["u1"].public["rounds"] if r["defence"]]
    assert finals  # some round ended after a defence: revealed (K21)


# ---------------------------------------------------------------------- refusals

def at_announcement(seed=3):
    """A game of Halunken at its first reveal: every commitment in, none revealed."""
    t = Tables("halunken", {"players": 2}, seed=seed)
    rng = random.Random(1)
    while True:
        pend = t.game().dealt.pending
        if pend is not None and pend.announced():
            return t
        u = [u for u in t.users if t.request_of(u, random.Random(0)) is not None][0]
        t.send(u, t.request_of(u, rng))


def refused_and_unchanged(t, user, msg, code, topic_user=None):
    d = t.dealer
    g = d.games[CODE]
    before = d.snapshot(g)[1]
    saved = json.dumps(g.save())
    pend = json.dumps(g.dealt.public()["secret"])
    out, lines = d.handle(p.topic(CODE, "move", topic_user or user), p.encode(msg))
    assert len(lines) == 1 and lines[0].startswith("refused %s " % code), lines
    assert all("/reply/" in topic for topic, _, _ in out)
    assert d.snapshot(g)[1] == before and json.dumps(g.save()) == saved
    assert json.dumps(g.dealt.public()["secret"]) == pend
    return lines[0]


def test_forged_replayed_and_mismatched_reveals_are_refused_and_change_nothing():
    t = at_announcement()
    s1, s2 = t.seats["u1"], t.seats["u2"]
    ctx = s1.view["context"]
    good = t.secrets["u1"].reveal(ctx, "p1")
    card, nonce = good[2], good[3]
    other = [w for w in hdeck.MOVE_WORDS if w != card][0]
    n, base = s1.moves + 1, s1.seq

    def move(action, seat="p1", n=n):
        return p.move(CODE, seat, n, base, action)
    line = refused_and_unchanged(t, "u1", move(["reveal", "p1", other, nonce]), "mismatch")
    assert line.endswith("p1's card and nonce do not open its commitment")
    refused_and_unchanged(t, "u1", move(["reveal", "p1", card, "0" * 32]), "mismatch")
    refused_and_unchanged(t, "u1", move(["reveal", "p1", card, "xyz"]), "malformed")
    # u2 reveals p1's figure with p1's secret (seen how?): not its seat, not its figure
    refused_and_unchanged(t, "u2", p.move(CODE, "p1", s2.moves + 1, base, good), "forged")
    refused_and_unchanged(t, "u2", p.move(CODE, "p2", s2.moves + 1, base, good),
                          "out-of-turn")
    # a commitment again after the announcement, or a copied one
    refused_and_unchanged(t, "u1", move(["commit", "p1", "a" * 64]), "already-committed")
    # the honest reveal is taken; said again (QoS 1, a replay) it is refused
    out, lines = t.send("u1", good)
    assert lines == [] and t.game().log[-1][2] == ["revealed", "p1"]
    refused_and_unchanged(t, "u1", p.move(CODE, "p1", s1.moves, s1.seq, good), "replayed")
    refused_and_unchanged(t, "u1", p.move(CODE, "p1", s1.moves + 1, s1.seq, good),
                          "already-revealed")
    # p2's reveals (its seat's, and Black-Jack's as W, H26) complete the round: every
    # card published with its nonce
    while t.request_of("u2", random.Random(0)) is not None:
        t.send("u2", t.request_of("u2", random.Random(0)))
    opens = [e[2] for e in t.game().log if e[2][0] == "open"]
    assert [o[1] for o in opens][:2] == ["p1", "p2"] and opens[0][2:] == [card, nonce]
    assert commit.audit(t.game().log) == []


def test_commitments_are_checked_before_they_count():
    t = Tables("halunken", {"players": 2}, seed=3)
    rng = random.Random(1)
    while t.game().dealt.pending is None:
        u = [u for u in t.users if t.request_of(u, random.Random(0)) is not None][0]
        t.send(u, t.request_of(u, rng))
    s1, s2 = t.seats["u1"], t.seats["u2"]

    def move(user, action, seat):
        s = t.seats[user]
        return p.move(CODE, seat, s.moves + 1, s.seq, action)
    refused_and_unchanged(t, "u1", move("u1", ["commit", "p1", "not-hex"], "p1"), "malformed")
    refused_and_unchanged(t, "u1", move("u1", ["commit", "p2", "b" * 64], "p1"), "out-of-turn")
    refused_and_unchanged(t, "u1", move("u1", ["commit", "p9", "b" * 64], "p1"), "not-offered")
    refused_and_unchanged(t, "u1", move("u1", ["reveal", "p1", "1", "0" * 32], "p1"),
                          "not-yet")
    refused_and_unchanged(t, "u1", move("u1", ["place", "T1"], "p1"), "out-of-turn")
    ok = t.secrets["u1"].commit(s1.view["context"], "p1", s1.view["options"][0][2])
    t.send("u1", ok)
    # p2 copies p1's commitment, to open it with p1's card once revealed: refused
    refused_and_unchanged(t, "u2", move("u2", ["commit", "p2", ok[2]], "p2"), "copied")
    # the commitment names its figure: p1's digest would not open as p2's anyway
    ctx = s1.view["context"]
    card, nonce = t.secrets["u1"].held[ctx + "\np1"]
    assert not commit.matches(ok[2], ctx, "p2", card, nonce)
    assert commit.matches(ok[2], ctx, "p1", card, nonce)
    # made at an older event count, a commitment still counts (every seat at once)
    s2.moves += 1
    req = t.secrets["u2"].commit(s2.view["context"], "p2", s2.view["options"][0][2])
    out, lines = t.dealer.handle(p.topic(CODE, "move", "u2"),
                                 p.encode(p.move(CODE, "p2", s2.moves, s2.seq - 1, req)))
    assert lines == [] and "p2" in t.game().dealt.pending.commits


def test_a_tables_secrets_outlive_it(tmp_path):
    path = str(tmp_path / "H7QXM2-u1.json")
    first = commit.Secrets(path)
    req = first.commit("H7QXM2/1", "p1", "3")
    again = commit.Secrets(path)  # the table started again
    assert again.commit("H7QXM2/1", "p1", "5") == req  # the first choice is kept
    assert again.reveal("H7QXM2/1", "p1")[2] == "3"
    assert again.reveal("H7QXM2/2", "p1") is None
    assert again.cards("H7QXM2/1") == {"p1": "3"} and again.cards("H7QXM2/2") == {}
    (tmp_path / "H7QXM2-u1.json").write_text("{garbage")
    assert commit.Secrets(path).reveal("H7QXM2/1", "p1") is None  # unreadable: lost
    again.forget()  # the game is over
    assert not (tmp_path / "H7QXM2-u1.json").exists()


def test_settings_and_seats_are_checked():
    from host_tools.remote import dealing
    for kind, bad, text in (("halunken", {"players": 5}, "players"),
                            ("halunken", {"seed": 3}, "not 'seed'"),
                            ("kami", {"target": 40}, "target"),
                            ("kami", {"ai": ["p2"]}, "not 'ai'")):
        d = dealing.Dealer(lambda code: 1)
        out, lines = d.handle(p.topic(CODE, "hello", "u1"),
                              p.encode(p.hello("create", "p1", bad, kind)))
        assert lines[0].startswith("refused malformed") and text in lines[0], lines
        assert CODE not in d.games
    d = dealing.Dealer(lambda code: 1)
    out, lines = d.handle(p.topic(CODE, "hello", "u1"),
                          p.encode(p.hello("create", "p3", {"players": 2}, "kami")))
    assert lines[0].startswith("refused malformed") and "p1, p2" in lines[0]
    t = Tables("kami", {"players": 2})
    out, lines = t.say("u9", "hello", p.hello("join"))
    assert lines[0].startswith("refused game-full")


def test_a_long_games_snapshot_passes_16_kb_and_is_taken():
    """A snapshot carries the whole log (a Kami game of 3 players to 15 points measured up
    to 15 KB): a table takes one past the 16 KB of a request, up to MAX_SNAPSHOT."""
    from host_tools.remote.seat import Seat
    log = [[i + 1, "p1", ["pass"]] for i in range(1200)]
    msg = {"v": 1, "game": CODE, "seq": len(log), "status": "playing", "seats": {},
           "moves": {}, "public": {"round": 1}, "log": log, "kind": "kami"}
    payload = p.encode(msg)
    assert p.MAX_PAYLOAD < len(payload) < p.MAX_SNAPSHOT
    s = Seat(CODE, "u1")
    assert s.feed(p.topic(CODE, "snapshot"), payload) == "snapshot 1200"
    assert s.kind == "kami"
    with pytest.raises(p.Bad):  # an event that big is not one of ours
        s.feed(p.topic(CODE, "event"), payload)


@pytest.mark.parametrize("kind,settings,counts", [
    ("kami", {"players": 4, "target": 5}, [2, 2]),
    ("kami", {"players": 4, "target": 5}, [3, 1]),
    ("halunken", {"players": 3, "mode": "standard"}, [2, 1]),
    ("halunken", {"players": 4, "mode": "beginner"}, [1, 3])])
def test_a_table_holds_several_seats(kind, settings, counts):
    """A table of several seats (one user): its hand topic holds each of its seats' hands
    and views, no other table's; it plays each seat; every seat's report is the same."""
    t = Tables(kind, settings, ai=("u1.1", "u2"), counts=counts)
    seats = t.game().seats
    assert sorted(seats) == ["p%d" % (i + 1) for i in range(settings["players"])]
    assert [list(seats.values()).count("u%d" % (i + 1)) for i in range(2)] == counts
    t.play(random.Random(7))
    reports = list(t.reports().values())
    assert len(reports) == settings["players"] and all(r == reports[0] for r in reports)
    assert commit.audit(reports[0]["log"]) == []
    for topic, msg in msgs(t):
        if "/hand/" in topic:
            user = topic.split("/")[3]
            mine = sorted(s for s, u in seats.items() if u == user)
            assert sorted(msg.get("seats", {msg["seat"]: None})) == mine
    # a seat of the other table is not this table's to play
    u1 = [s for s in t.seats.values() if s.user == "u1"][0]
    other = sorted(s for s, u in seats.items() if u == "u2")[0]
    out, lines = t.dealer.handle(p.topic(CODE, "move", "u1"), p.encode(
        p.move(CODE, other, 99, u1.seq, ["pass"])))
    mine = " and ".join(sorted(s for s, u in seats.items() if u == "u1"))
    assert lines == ["refused forged from u1 on %s: u1 holds %s, not %s" % (CODE, mine, other)]


@pytest.mark.parametrize("kind,settings", [("halunken", {"players": 3, "mode": "standard"}),
                                           ("kami", {"players": 4, "target": 5})])
def test_a_dealer_started_again_replays_its_games_to_the_same_state(kind, settings, tmp_path):
    """The dealer saves each game (settings, seed, seats, accepted requests: commitments
    and reveals included) before it publishes; a dealer started again from --state-dir is
    at the same state, a secret choice half made included, and the game goes on."""
    from host_tools.remote import dealing
    state = str(tmp_path)
    t = Tables(kind, settings, seed=21)
    t.dealer.state_dir = state  # saved from the first request on
    rng = random.Random(5)
    halfway = [0]

    def each(tt):
        dealt = tt.game().dealt
        half = kind == "kami" or (dealt.pending is not None and dealt.pending.commits)
        if halfway[0] == 0 and len(tt.game().log) > 20 and half:
            halfway[0] = len(tt.game().log)
            tt.dealer._save(tt.game())
            again = dealing.Dealer(lambda code: 21, state)
            g1, g2 = tt.game(), again.games[CODE]
            assert again.snapshot(g2) == tt.dealer.snapshot(g1)
            assert again.hands(g2) == tt.dealer.hands(g1)
            tt.dealer = again  # the tables go on with the dealer started again
    t.play(rng, each=each)
    assert halfway[0] > 20
    reports = list(t.reports().values())
    assert all(r == reports[0] for r in reports) and reports[0]["public"]["winner"]
    assert commit.audit(reports[0]["log"]) == []


def test_the_boards_player_knows_its_own_committed_card_for_black_jacks():
    """H26: W chooses Black-Jack's card after its own; the dealer holds no card before
    the reveal, so the table tells its board player its own committed card, and the
    player does not give Black-Jack the same number (equal numbers cancel, H7)."""
    from host_tools.games.halunken.remote import AiSeat
    seen = 0
    for seed in range(1, 40):
        t = Tables("halunken", {"players": 2}, seed=seed)
        rng = random.Random(seed)
        while not t.over():
            pend = t.game().dealt.pending
            if pend is not None and "blackjack" in pend.figures and not pend.commits:
                break
            u = [u for u in t.users if t.request_of(u, random.Random(0)) is not None][0]
            t.send(u, t.request_of(u, rng))
        if t.over():
            continue
        w = [n for n, s in t.seats.items() if s.seat == t.game().dealt.pending.figures[
            "blackjack"]][0]
        s = t.seats[w]
        for card in ("1", "4", "7"):
            if ["commit", s.seat, card] not in s.view["options"]:
                continue
            secrets = commit.Secrets()
            secrets.commit(s.view["context"], s.seat, card)
            view = dict(s.view, committed=secrets.cards(s.view["context"]))
            bj = [o for o in s.view["options"] if o[1] == "blackjack"]
            choice = AiSeat().choose(s.seat, s.public, s.hand, s.log, bj, view=view)
            assert choice[1] == "blackjack" and choice[2] != card, (seed, card, choice)
            seen += 1
    assert seen >= 5


def test_a_snapshot_naming_a_game_without_remote_play_is_refused_and_changes_nothing():
    from host_tools.remote.seat import Seat
    s = Seat(CODE, "u1")
    for kind in ("chess", "kahuna/../x", 7):
        msg = {"v": 1, "game": CODE, "seq": 0, "status": "waiting", "seats": {"p1": "u1"},
               "moves": {}, "public": None, "log": [], "kind": kind}
        with pytest.raises(p.Bad) as e:
            s.feed(p.topic(CODE, "snapshot"), p.encode(msg))
        assert e.value.code == "malformed"
        assert s.kind == "kahuna" and s.seat is None and s.status is None


def test_a_hand_message_with_a_bad_view_is_refused_and_changes_nothing():
    from host_tools.remote.seat import Seat
    s = Seat(CODE, "u1")
    good = {"v": 1, "game": CODE, "seq": 3, "seat": "p1", "hand": ["1"],
            "view": {"options": [["pass"]], "context": None}}
    for view in ({"options": "pass"}, {"options": [[]]}, {"options": [[1]]},
                 {"options": [], "context": 5}, []):
        with pytest.raises(p.Bad):
            s.feed(p.topic(CODE, "hand", "u1"), p.encode(dict(good, view=view)))
        assert s.hand is None and s.view is None
    for seats in ({"p2": {"hand": "x"}}, {"p2": {"hand": [], "view": {"options": [[2]]}}}):
        with pytest.raises(p.Bad):
            s.feed(p.topic(CODE, "hand", "u1"), p.encode(dict(good, seats=seats)))
    assert s.feed(p.topic(CODE, "hand", "u1"), p.encode(good)) == "hand 3"
    assert s.view == good["view"]
