"""A Kami board at a remote table (firmware games/kami/remote.py, the link's `remote`
command, host_tools/remote/boardfeed.py with Kami's part remoteboard.py): whole games of
2, 3 and 4 players between the board at one seat and host tables of random players at
the others, through the dealer, in one process (tests/remote/kamiboardkit.py). Every
table's report is the dealer's log, the board's rules state the dealer's public state;
duplicated and delayed messages and power cuts at the board change nothing; the other
seats' hidden cards swapped change nothing on the board; every event that does not fit
is refused with a line and changes nothing; nothing sent to the board names another
seat's card before the rules show it (K6, K13, K21)."""

import json
import random

import pytest
from kamiboardkit import BOARD, CODE, KamiBoard, KamiMatch, check_end

from core.link import CHANNELS
from games.kami import settings as ksettings
from host_tools.simulator.engine import JOURNAL


@pytest.mark.parametrize("players,seat,seed", [(2, "p2", 1), (2, "p1", 4), (3, "p2", 1),
                                                (3, "p3", 8), (4, "p3", 6)])
def test_whole_games_end_alike_at_every_table(players, seat, seed):
    m = KamiMatch(seed, players=players, board_seat=seat, target=8)
    m.play()
    end = check_end(m)
    assert end["public"]["winner"] is not None
    sent = [c for c in m.board.sent if c["cmd"] == "remote"]
    # The other seats' face-down defences came in unnamed (K6), and a final one shown by
    # K21 with its round's last attack (K8 scored on the board).
    assert any(c["action"] == ["defend"] and c["actor"] != seat for c in sent)
    assert any(c.get("defence") for c in sent)
    # The board's player defended face down too, named to the dealer alone.
    assert any(e[1] == seat and e[2] == ["defend"] for e in end["log"])
    if players == 2:  # centre cards played at both tables (K13)
        log = m.dealer.games[CODE].log
        assert len(log) > 30


@pytest.mark.parametrize("players,seats,seed", [(3, ["p2", "p3"], 1), (4, ["p1", "p3"], 2),
                                                 (4, ["p2", "p3", "p4"], 3)])
def test_a_board_of_several_seats(players, seats, seed):
    """One board, one broker user, several seats (a team of partners in 4 players, or two
    of three): each seat's requests numbered on their own, the deal's hands of each."""
    m = KamiMatch(seed, players=players, board_seat=seats, target=8)
    m.play()
    end = check_end(m)
    assert {e[1] for e in end["log"]} >= set(seats)
    deals = [c for c in m.board.sent if c["cmd"] == "remote" and "hands" in c]
    assert deals and all(sorted(c["hands"]) == seats for c in deals)
    new = [c for c in m.board.sent if c["cmd"] == "new"]
    others = [s for s in m.names if s not in seats]
    assert new[0]["settings"]["remote"] == others
    game = m.dealer.games[CODE]
    assert all(game.moves[s] > 0 for s in seats)  # every seat's own requests


def test_a_game_in_seigneur_mode_to_15():
    m = KamiMatch(3, players=3, board_seat="p1", target=15, mode="seigneur")
    m.play()
    assert check_end(m)["public"]["winner"] is not None


def test_duplicated_and_delayed_messages_change_nothing():
    """Events held back come after later ones: the table reads the snapshot again, and
    the late event still brings its public state (the centre after it, K13)."""
    for players in (2, 3):
        plain = KamiMatch(6, players=players)
        plain.play()
        m = KamiMatch(6, players=players, duplicate=0.3, delay=0.2)
        m.play()
        assert check_end(m) == check_end(plain)


@pytest.mark.parametrize("players", [2, 3])
def test_a_power_cut_at_the_board_between_events_loses_nothing(players):
    plain = KamiMatch(5, players=players)
    plain.play()
    m = KamiMatch(5, players=players)
    cuts = []

    def every(match, step):
        if step % 7 == 5:
            b = match.board
            before = b.state()
            b.power_cut()
            after = b.state()
            del before["leds"], after["leds"]  # an acknowledgement's blink ends
            assert after == before
            cuts.append(step)
    m.play(every=every)
    assert len(cuts) > 3
    assert check_end(m) == check_end(plain)


def test_a_power_cut_at_any_write_of_an_event_loses_nothing():
    """The power fails in the middle of an event's writes (a card trade, the action, the
    bookkeeping, a compaction at a round's end): the board boots from its journal, the
    bridge sends from where it is, and the game ends as without the cuts."""
    plain = KamiMatch(8, players=2)
    plain.play()
    m = KamiMatch(8, players=2, journal_limit=2048)
    rng = random.Random(8)
    count = [0]

    def cut(b, cmd):
        count[0] += 1
        if count[0] % 3 == 0:
            b.sim.flash.cut_at(rng.choice((1, 2, 3)), rng.choice((0, 1, 5, 40)))
    m.cut = cut
    m.play()
    assert m.board.cuts > 10
    assert b"[\"state\"" in bytes(m.board.sim.flash.files[JOURNAL])  # it compacted
    assert check_end(m) == check_end(plain)


def _swap_hidden(match, rng):
    """At the dealer: two cards no table but their own may know, and that no rule will
    show, trade places: another seat's earlier face-down defences (not this turn's, which
    K21 may show) and, in 3 players, the cards set aside (K12)."""
    g = match.dealer.games[CODE].dealt.game
    if g.phase != "play":
        return 0
    board = int(match.board_seat[1:]) - 1
    spots = []
    for s in range(g.players):
        if s == board:
            continue
        for e in g.lines[s][0]:
            if not e[1] and not e[2] and not (g.placed is not None and e[0] == g.placed[0]):
                spots.append(e)
    if g.aside is not None:
        spots += [[g.aside, 0], [g.aside, 1]]
    if len(spots) < 2:
        return 0
    a, b = rng.sample(spots, 2)

    def get(x):
        return x[0][x[1]] if isinstance(x[0], list) else x[0]

    def put(x, c):
        if isinstance(x[0], list):
            x[0][x[1]] = c
        else:
            x[0] = c
    ca, cb = get(a), get(b)
    put(a, cb)
    put(b, ca)
    g.used[ca], g.used[cb] = g.used[cb], g.used[ca]
    return 1


@pytest.mark.parametrize("players", [2, 3])
def test_the_other_seats_hidden_cards_swapped_change_nothing_on_the_board(players):
    """The same game twice, the second with the other seats' hidden cards (their earlier
    face-down defences, K6; the set-aside cards, K12) traded at the dealer before every
    step: the board's every line (its LED frames, its words, its news) is the same."""
    plain = KamiMatch(2, players=players, target=8)
    plain.play()
    m = KamiMatch(2, players=players, target=8)
    rng = random.Random(3)
    swaps = [0]

    def every(match, step):
        swaps[0] += _swap_hidden(match, rng)
    m.play(every=every)
    assert swaps[0] >= 5  # a 2-player game has few earlier face-down defences (deal 2: 9)
    assert m.board.lines == plain.board.lines
    assert m.board.sent == plain.board.sent


def test_the_board_hears_no_hidden_card_of_another_seat():
    """Every card a command to the board names is its own seat's (its deal) or one the
    rules show everyone: played face up, face up in the centre, a claim's Soldiers, the
    final defence of a round (K21)."""
    for players, seed in ((2, 1), (3, 4), (4, 2)):
        m = KamiMatch(seed, players=players, board_seat="p1", target=8)
        m.play()
        game = m.dealer.games[CODE]
        shown = set()
        for _seq, publicish in sorted(m.board.seat.publics.items()):
            if publicish is None:
                continue  # the snapshot before every seat was taken
            if publicish["claim"]:
                shown.update(publicish["claim"]["soldiers"])
            for line in publicish["lines"].values():
                for e in line["defence"] + line["attack"]:
                    if e["card"]:
                        shown.add(e["card"])
            for c in publicish.get("centre") or ():
                if c["up"]:
                    shown.add(c["up"])
            for r in publicish["rounds"]:
                shown.add(r["card"])
                if r["defence"]:
                    shown.add(r["defence"]["card"])
        mine = set()  # the board's own cards, dealt to it
        for cmd in m.board.sent:
            if cmd["cmd"] != "remote":
                continue
            mine |= set(cmd.get("hands", {}).get("p1", ()))
            named = set(cmd.get("hands", {}).get("p1", ())) | {c for c in cmd.get("ups") or () if c}
            named |= {x for x in cmd["action"][1:] if "-" in str(x)}
            if cmd.get("defence"):
                named.add(cmd["defence"])
            assert named <= shown | mine, (cmd, named - shown - mine)
        assert game.log


def board(players=2, seat="p2"):
    """A board with a remote game of Kami whose other seats are elsewhere."""
    b = KamiBoard("u" + seat[1:])
    others = ["p%d" % (i + 1) for i in range(players) if "p%d" % (i + 1) != seat]
    b.send({"cmd": "new", "settings": {"players": players, "remote": others}})
    b.send({"cmd": "state"})
    return b


HAND = ["SOLDAT-1", "SOLDAT-2", "LANCE-1", "CAVALIER-1", "ARGENT-1", "OR-1", "TOUR-1",
        "IMPERATRICE-1"]
UPS = ["SOLDAT-3", "SOLDAT-4", "SOLDAT-5", "LANCE-2", "CAVALIER-2", "ARGENT-2", "OR-2",
       "FOU-1"]


def test_events_that_do_not_fit_are_refused_and_change_nothing():
    b = board()
    before = b.state()
    news = b.feed.news
    deal = {"cmd": "remote", "seq": 1, "actor": None, "action": ["deal", "1"],
            "hands": {"p2": HAND}, "ups": UPS}
    bad = [dict(deal, seq=2),  # a gap
           dict(deal, actor="p1"),  # not the dealer's
           dict(deal, action=["display", []]),  # no such event of the dealer
           dict(deal, hands={"p2": HAND[:7]}),  # a hand of 7
           dict(deal, hands={"p1": HAND}),  # another seat's hand
           dict(deal, hands={"p2": HAND[:7] + ["NOPE-1"]}),  # an unknown card
           dict(deal, ups=UPS[:7] + ["SOLDAT-1"]),  # a card dealt twice
           {k: v for k, v in deal.items() if k != "ups"},  # the centre missing
           dict(deal, seq="1")]
    for cmd in bad:
        out = b.send(cmd)
        assert len(out) == 1 and "error" in out[0], (cmd, out)
        assert b.state() == before and b.feed.news == news
    assert "error" not in b.send(deal)[-1]
    dealt = b.state()
    news = b.feed.news
    assert news["hands"] == {"p2": sorted(HAND)} and news["fed"] == 1
    assert "p2 takes" in news["say"] and "centre SOLDAT-3" in news["say"]
    for cmd in ({"cmd": "remote", "seq": 2, "actor": "p2", "action": ["defend"]},  # no move
                {"cmd": "remote", "seq": 2, "actor": "p1", "action": ["attack", "OR-1"]},
                {"cmd": "remote", "seq": 2, "actor": "p1", "action": ["attack", "OR-3"],
                 "ups": UPS},  # its defence first: p1 opens (K6)
                {"cmd": "remote", "seq": 2, "actor": "p1", "action": ["fly"], "ups": UPS},
                {"cmd": "remote", "seq": 2, "actor": "p3", "action": ["pass"]},
                {"cmd": "remote", "seq": 2, "actor": "p1", "action": ["defend"]}):  # no ups
        out = b.send(cmd)
        assert len(out) == 1 and "error" in out[0], (cmd, out)
        assert b.state() == dealt and b.feed.news == news
    # Taken already (a bridge that started again): nothing changes, its news again.
    again = b.send(deal)
    assert again[-1]["event"] == "remote" and again[-1]["fed"] == 1
    # A game without a remote seat takes no remote command.
    plain = KamiBoard("u1")
    (line,) = plain.send(deal)
    assert line == {"error": "this game has no seat played at another table"}


def test_the_tables_taps_wait_for_the_dealer_and_the_other_tables():
    b = board()
    out = [x for x in b.send({"cmd": "tap", "card": "OR-1"}) if x.get("event")][0]
    assert out["event"] == "refused" and out["code"] == "other-table"
    assert "OR-1" not in json.dumps(out)
    b.send({"cmd": "remote", "seq": 1, "actor": None, "action": ["deal", "1"],
            "hands": {"p2": HAND}, "ups": UPS})
    out = b.send({"cmd": "tap", "card": "OR-1"})[0]  # p1 opens, at the other table
    assert out["event"] == "refused" and out["code"] == "other-table"
    assert b.feed.news["say"].endswith("; p1 plays at another table")
    before = b.state()
    # p1 defends face down from its hand (K6), then attacks with a Silver Dragon.
    out = b.send({"cmd": "remote", "seq": 2, "actor": "p1", "action": ["defend"],
                  "ups": UPS})
    assert out[0]["event"] == "accepted" and "places" not in out[0]
    line = b.state()["lines"]["p1"]["defence"]
    assert line == [{"card": None, "face": "down", "from": "hand"}]
    assert b.state()["hand_sizes"] == {"p1": 7, "p2": 8}
    b.send({"cmd": "remote", "seq": 3, "actor": "p1", "action": ["attack", "ARGENT-3"],
            "ups": UPS})
    assert b.state()["attack"] == {"seat": "p1", "card": "ARGENT-3"}
    assert b.state() != before
    # p2's turn here: it counters with the centre's Silver Dragon (K13); the card beneath
    # is the dealer's to tell, so the board waits for it.
    out = b.send({"cmd": "tap", "card": "ARGENT-2"})
    assert out[0]["event"] == "accepted"
    assert b.feed.news["moves"] == [[1, ["counter", "ARGENT-2"], "p2"]]
    assert b.feed.news["say"] == "the dealer turns up the centre card"
    out = b.send({"cmd": "tap", "card": "OR-1"})[0]
    assert out["event"] == "refused" and out["code"] == "other-table"
    ups = UPS[:5] + ["TOUR-2"] + UPS[6:]
    b.send({"cmd": "remote", "seq": 4, "actor": "p2", "action": ["counter", "ARGENT-2"],
            "ups": ups})
    assert b.state()["centre"][5] == {"up": "TOUR-2", "left": 1}
    assert b.feed.news["moves"] == [] and b.feed.news["fed"] == 4
    # Its attack: a card of its hand.
    assert b.send({"cmd": "tap", "card": "OR-1"})[0]["event"] == "accepted"
    assert b.feed.news["moves"] == [[2, ["attack", "OR-1"], "p2"]]


def test_the_remote_setting_and_the_channels():
    s = ksettings.check_settings({"players": 3, "remote": ["p1", "p3"]})
    assert s["remote"] == ["p1", "p3"] and s["deal"] == "given"
    for bad in ({"players": 2, "remote": ["p1", "p2"]}, {"remote": []},
                {"remote": ["p5"]}, {"remote": ["p2"], "seed": 4},
                {"remote": ["p2"], "deal": "given", "ai": ["p1"]}, {"remote": "p2"}):
        with pytest.raises(ValueError):
            ksettings.check_settings(bad)
    m = KamiMatch(3, players=3)
    m.play()
    assert [c["cmd"] for c in m.board.sent].count("new") == 1  # the game's start
    used = {c["cmd"] for c in m.board.sent if c["cmd"] != "new"}
    assert used <= set(CHANNELS["remote"]), used


def test_the_board_stays_playable_at_its_table_with_the_host_gone():
    """Held ok opens the settings menu and done starts a game played at this table (the
    other seats back at the board, dealt at the table: games.kami.game fresh_settings)."""
    from host_tools.simulator import engine as simcore
    m = KamiMatch(6, players=2)
    for _ in range(6):
        m.pump()
        m.turn()
    sim = m.board.sim
    assert sim.app.settings.get("remote") == ["p1"]
    sim.press("ok", simcore.LONG_PRESS_MS)
    sim.press("done", simcore.HOLD_MS)
    sim.press("done", simcore.HOLD_MS)
    assert sim.app.menu is None and "remote" not in sim.app.settings
    assert sim.app.solo is None and sim.app.settings["deal"] == "table"


def test_the_same_game_on_micropython(mpy, tmp_path):
    """Kami's remote seat under the MicroPython unix port: every command the board was
    sent in a whole game of 2 players (CPython), sent to the same board there, brings the
    same lines (the LED frames included)."""
    from mpy_runner import MicroPython
    m = KamiMatch(1, players=2)
    m.play()
    b = m.board
    commands = tmp_path / "commands"
    commands.write_text("".join(json.dumps(c) + "\n" for c in b.sent))
    harness = MicroPython(executable=mpy.executable, heap_kib=512)
    out = harness.run_code(
        "from core.board import load\n"
        "from host_tools.simulator import engine as simcore\n"
        "from core.link import Link\n"
        "sim = simcore.Simulation(load(%r, keep_raw=False))\n"
        "link = Link(sim.app, lambda text: print(text.strip()), lambda: sim.now)\n"
        "sim.app.listen(link.on_event)\n"
        "sim.app.prompters.append(link.on_prompt)\n"
        "for raw in open(%r):\n"
        "    link.line(raw)\n" % (BOARD, str(commands)))
    got = [json.loads(line) for line in out.strip().splitlines()]
    assert got == [json.loads(line) for line in b.lines]
    assert any((x.get("changed") or {}).get("winner") for x in got)  # to the game's end


def test_a_board_at_a_remote_table_of_a_game_without_one_is_one_line():
    """The bridge learns the game from the snapshot (a join): a game whose host package
    has no `remoteboard` part stops it with one line (broker.Fatal)."""
    from host_tools.remote.boardfeed import BoardFeed
    from host_tools.remote.broker import Fatal
    from host_tools.remote.seat import Seat
    seat = Seat(CODE, "u1")
    seat.kind = "chess"
    with pytest.raises(Fatal, match="a board plays Kahuna's, Kami's and Halunken's remote "
                       "games only, not chess's"):
        BoardFeed(seat).game()
    seat.kind = "kami"
    assert BoardFeed(seat).game().__name__ == "host_tools.games.kami.remoteboard"


def test_another_tables_claim_answered_at_the_board_and_none_opened_there():
    """K11, 4 players: p3's claim comes in as an event and the board's p1, its partner,
    answers it with its buttons (`ok` cancels: the round is dealt again); a claim opened at
    the board itself is refused (not built), changing nothing."""
    m = KamiMatch(83, players=4, board_seat="p1", target=3)
    m.play()
    check_end(m)
    log = m.dealer.games[CODE].log
    claim = [e for e in log if e[2] == ["claim"]][0]
    assert claim[1] == "p3"
    assert [e for e in log if e[1] == "p1" and e[2][0] in ("cancel", "keep")]
    b = board(players=4, seat="p1")
    hand = ["SOLDAT-%d" % i for i in range(1, 9)]
    b.send({"cmd": "remote", "seq": 1, "actor": None, "action": ["deal", "1"],
            "hands": {"p1": hand}})
    before, news = b.state(), b.feed.news
    out = b.send({"cmd": "press", "button": "discard"})[0]
    assert out["event"] == "refused" and out["code"] == "other-table"
    assert b.state() == before and b.feed.news == news


def test_the_boards_settings_come_from_its_hand_message_before_a_snapshot_seats_it():
    """Through a broker the retained snapshot may be one from before the table was seated
    (seen through Mosquitto), the events and the hand coming before the next: the seats
    played elsewhere are every seat but those the hand message names; and nothing is
    started on the board before a snapshot named the game."""
    from host_tools.remote import dealing
    from host_tools.remote import protocol as p
    from host_tools.remote.boardfeed import BoardFeed
    from host_tools.remote.seat import Seat
    dealer = dealing.Dealer(lambda code: 1)
    created, _ = dealer.handle(p.topic(CODE, "hello", "u1"), p.encode(
        p.hello("create", "p1", {"players": 3}, "kami")))
    joined, _ = dealer.handle(p.topic(CODE, "hello", "ub"), p.encode(
        p.hello("join", count=2)))
    s = Seat(CODE, "ub")
    for topic, payload, _ in joined:
        if topic.endswith("/event") or topic.endswith("/hand/ub"):
            s.feed(topic, payload)
    assert s.public is not None and BoardFeed(s).settings() is None  # which game?
    (early,) = [m for m in created if m[0].endswith("/snapshot")]
    s.feed(early[0], early[1])
    assert json.loads(early[1])["status"] == "waiting"
    assert BoardFeed(s).settings()["remote"] == ["p1"]


def test_another_seats_locked_empress_attack_by_k22_is_taken():
    """K22: with no centre card showing, a 2-player seat holding only Empresses attacks
    with a locked one. The board holds stand-ins for that hand: the dealer's event tells
    it the hand was all Empresses, and the board's rules take the attack."""
    b = board()  # p2 here, p1 at the other table
    hand = ["SOLDAT-1", "SOLDAT-2", "LANCE-1", "CAVALIER-1", "ARGENT-1", "OR-1", "TOUR-1",
            "TOUR-2"]
    b.send({"cmd": "remote", "seq": 1, "actor": None, "action": ["deal", "1"],
            "hands": {"p2": hand}, "ups": UPS})
    b.send({"cmd": "remote", "seq": 2, "actor": "p1", "action": ["defend"], "ups": UPS})
    g = b.sim.app.game
    from games.kami import deck
    keep = [c for c in g.hands[0] if deck.KIND[c] != deck.IMPERATRICE][:2]
    g.hands[0] = keep  # p1 down to two cards, none an Empress here; the centre empty
    g.sizes[0] = 2
    g.up = [-1] * 8
    g.down = [-1] * 8
    out = b.send({"cmd": "remote", "seq": 3, "actor": "p1",
                  "action": ["attack", "IMPERATRICE-2"], "ups": [None] * 8})
    assert out[0].get("event") == "accepted", out
    assert b.state()["attack"] == {"seat": "p1", "card": "IMPERATRICE-2"}
    assert [deck.NAMES[c] for c in g.hands[0]] == ["IMPERATRICE-1"]


def test_the_bridge_says_the_boards_words_and_the_events_without_hidden_cards():
    """The bridge without --echo (host_tools/remote/boardbridge.py) for a Kami board:
    the dealer's events in words, a face-down defence unnamed (K6), and the board's
    words (the cards its player takes at the deal)."""
    from host_tools.games.kami import remote as part
    from host_tools.remote.boardbridge import BoardTable
    m = KamiMatch(1, players=2)
    for _ in range(8):
        m.pump()
        m.turn()
    said = []
    t = BoardTable(CODE, "ub", part, None, lambda text: None, {},
                   out=lambda text, flush=False: said.append(text))
    t.seat = m.board.seat
    t.tell()
    assert said[0] == "event 1: dealer deal 1"
    defences = [line for line in said if line.endswith(" defend")]
    assert defences and all(line.split()[2] in ("p1", "p2") for line in defences)
    t.board_line(m.board.feed.news)
    assert said[-1] == "board: " + m.board.feed.news["say"]


def test_a_face_down_defence_at_the_board_looks_the_same_whatever_the_card():
    """K6, 8.3: this table's face-down defence, tapped on the board, changes its lights,
    words and link lines alike whatever the card; only the news line to its own host
    names it (the request goes to the dealer alone)."""
    outs = []
    for card in ("SOLDAT-1", "IMPERATRICE-1"):
        b = board(players=2, seat="p1")
        b.send({"cmd": "remote", "seq": 1, "actor": None, "action": ["deal", "1"],
                "hands": {"p1": HAND}, "ups": UPS})
        out = b.send({"cmd": "tap", "card": card})
        assert out[0]["event"] == "accepted"
        assert b.feed.news["moves"] == [[1, ["defend", card], "p1"]]
        outs.append([x for x in out if x.get("event") != "remote"])
        b.sim.advance(3000)  # the acknowledgement's blink, and after
        outs[-1].append(b.state()["leds"])
    assert outs[0] == outs[1]
    assert "SOLDAT" not in json.dumps(outs[0]) and "IMPERATRICE" not in json.dumps(outs[0])
