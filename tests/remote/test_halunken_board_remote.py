"""A Halunken board at a remote table (firmware games/halunken/remote.py, the link's
`remote` command, host_tools/remote/boardfeed.py with Halunken's part remoteboard.py):
whole games between the board at one or more seats and host tables of random players at
the others, through the dealer, in one process (tests/remote/halboardkit.py). Every
table's report is the dealer's log, the board's public state the dealer's; every
commitment opens (commit.audit). The board's movement card reaches the dealer as its
commitment only, before the reveal (H7, H32); a power cut of the board between events
changes nothing; bad remote lines are refused with a reason and change nothing."""

import json

import pytest
from halboardkit import CODE, HalMatch, check_end

from games.halunken import settings as hsettings


@pytest.mark.parametrize("players,seat,seed,mode", [
    (2, "p2", 1, None), (2, "p1", 3, None), (3, "p2", 1, None), (3, "p3", 5, None),
    (4, "p4", 2, None), (3, "p1", 4, "beginner")])
def test_whole_games_end_alike_at_every_table(players, seat, seed, mode):
    m = HalMatch(seed, players=players, board_seat=seat, mode=mode)
    m.play()
    end = check_end(m)
    assert end["public"]["winner"]
    log = m.dealer.games[CODE].log
    # The board's own seat committed (H32) and its card was opened with the others'.
    assert any(e[1] == seat and e[2][0] == "commit" for e in log)
    assert any(e[1] == seat and e[2][0] == "open" for e in log)


def test_a_board_of_two_seats():
    m = HalMatch(2, players=3, board_seat=["p1", "p3"])
    m.play()
    check_end(m)
    new = [c for c in m.board.sent if c["cmd"] == "new"]
    assert new[0]["settings"]["remote"] == ["p2"]
    assert new[0]["settings"]["deal"] == "table"  # H33: the board learns each take


def test_the_boards_card_is_never_sent_before_its_reveal():
    """Every request of the board's user before the dealer's open of a figure carries no
    card of it: a commitment (a digest) only, then card and nonce once the reveal is
    announced (the move topic is the dealer's alone)."""
    m = HalMatch(4, players=2, board_seat="p2")
    sent = []
    handle = m.dealer.handle

    def spy(topic, payload):
        if topic.endswith("/ub"):
            sent.append((len(m.dealer.games[CODE].log), json.loads(payload)))
        return handle(topic, payload)
    m.dealer.handle = spy
    m.play()
    check_end(m)
    log = m.dealer.games[CODE].log
    commits = [(n, msg) for n, msg in sent if msg.get("action", [""])[0] == "commit"]
    assert commits
    for _n, msg in commits:
        assert len(msg["action"]) == 3 and len(msg["action"][2]) == 64
    for n, msg in sent:
        if msg.get("action", [""])[0] == "reveal":  # only once the dealer asked for it
            assert log[n - 1][2][0] in ("reveal", "revealed"), log[n - 1]


@pytest.mark.parametrize("players", [2, 3])
def test_a_power_cut_between_events_changes_nothing(players):
    """The board boots from its journal between two steps (its state the same, its
    bookkeeping back: the events taken, its moves not confirmed yet), and the game ends
    as without the cuts."""
    plain = HalMatch(6, players=players, board_seat="p2")
    plain.play()
    m = HalMatch(6, players=players, board_seat="p2")
    cuts = []

    def every(match, step):
        if step % 5 == 3:
            b = match.board
            before = b.state()
            b.power_cut()
            after = b.state()
            del before["leds"], after["leds"]  # an acknowledgement's blink ends
            assert after == before
            cuts.append(step)
    m.play(every=every)
    assert len(cuts) > 3
    assert _plays(check_end(m)) == _plays(check_end(plain))


def _plays(report):
    """A report's log without the commitments' digests and the nonces (random)."""
    return [[e[0], e[1], e[2][:2] if e[2][0] == "commit" else e[2][:3] if e[2][0] == "open"
             else e[2]] for e in report["log"]], report["public"]


def test_bad_remote_lines_are_refused_and_change_nothing():
    m = HalMatch(7, players=2, board_seat="p2")
    for _ in range(6):
        m.pump()
        m.turn()
    m.pump()
    b = m.board
    before = b.state()
    fed = b.feed.news["fed"]
    good = {"crews": {"p1": [], "p2": []}, "port": [], "bj_cards": []}
    bad = [{"cmd": "remote", "seq": fed + 2, "actor": "p1", "action": ["pass"]},
           dict(good, cmd="remote", seq=fed + 1, actor="p9", action=["pass"]),
           dict(good, cmd="remote", seq=fed + 1, actor="p1", action=["fly", "T3"]),
           {"cmd": "remote", "seq": fed + 1, "actor": "p1", "action": ["pass"]},
           dict(good, cmd="remote", seq=fed + 1, actor="p2", action=["commit", "p1", "x"]),
           dict(good, cmd="remote", seq=fed + 1, actor=None, action=["deal", "1"]),
           dict(good, cmd="remote", seq=fed + 1, actor="p1", action=["pass"],
                crews={"p1": ["GOLD-3"], "p2": []}),
           dict(good, cmd="remote", seq=fed + 1, actor="p1", action=["pass"],
                crews={"p1": []}),
           dict(good, cmd="remote", seq=fed + 1, actor="p1", action=["pass"],
                bj_cards=[7])]
    for cmd in bad:
        out = b.send(cmd)
        errors = [x["error"] for x in out if "error" in x]
        assert len(errors) == 1 and errors[0], (cmd, out)
    assert b.state() == before
    m.play()
    check_end(m)


def test_remote_settings_are_checked():
    from games.halunken import game
    ok = hsettings.check_settings({"players": 3, "remote": ["p1", "p3"]})
    assert ok["remote"] == ["p1", "p3"] and ok["deal"] == "table"
    # A game started at the table (the menu, held done) is this table's alone; a remote
    # game plays the dealer's values, not the enrolled tags' (H2).
    assert "remote" not in game.fresh_settings({"players": 3, "remote": ["p2"]}, 7)
    remote = {"players": 3, "remote": ["p2"]}
    assert game.enrolled_settings(remote, {"RED-1": 50}) is remote
    for bad in ({"players": 2, "remote": ["p1", "p2"]}, {"players": 2, "remote": []},
                {"players": 2, "remote": ["p1"], "seed": 3},
                {"players": 3, "remote": ["p2"], "ai": ["p3"], "seed": 1},
                {"players": 2, "remote": ["p5"]}):
        with pytest.raises(ValueError):
            hsettings.check_settings(bad)


def _until_first_open(seed, swap):
    """The board's lines until the dealer's first open reaches it, in a 3-player game
    with the board at p2; `swap`: at the dealer, the cards below two piles' tops trade
    places (H5) and p1 and p3 commit to another card than they chose (H7)."""
    m = HalMatch(seed, players=3, board_seat="p2")
    if swap:
        g = m.dealer.games[CODE].dealt.game
        g.piles[0][2], g.piles[5][1] = g.piles[5][1], g.piles[0][2]
        for sec in m.secrets.values():
            real = sec.commit

            def other(context, figure, card, real=real):  # another card, committed
                return real(context, figure, "6" if card == "7" else "7")
            sec.commit = other
    lines = []
    send = m.board.send

    def spy(cmd):
        if cmd.get("cmd") == "remote" and cmd["action"][0] == "open":
            raise StopIteration
        out = send(cmd)
        lines.extend(m.board.lines[len(lines):])
        return out
    m.board.send = spy
    with pytest.raises(StopIteration):
        m.play()
    return m.board.lines, m


def test_the_other_seats_hidden_cards_swapped_change_nothing_on_the_board_until_opened():
    """The same game twice, the second with the other seats' movement cards (H7) and the
    piles' hidden cards (H5) changed at the dealer: every line of the board (its LED
    frames, its words, its news) is the same until the dealer opens the cards."""
    plain, _ = _until_first_open(2, False)
    swapped, m = _until_first_open(2, True)
    log = m.dealer.games[CODE].log
    assert any(e[2][0] == "commit" and e[1] != "p2" for e in log)
    assert len(plain) > 20
    assert swapped == plain


def test_the_same_game_on_micropython(mpy, tmp_path):
    """Halunken's remote seat under the MicroPython unix port: every command the board was
    sent in a whole game of 3 players (CPython), bad lines among them, sent to the same
    board there, brings the same lines (the LED frames included)."""
    from halboardkit import BOARD

    from mpy_runner import MicroPython
    m = HalMatch(1, players=3, board_seat="p2")
    m.board.send({"cmd": "remote", "seq": 1, "actor": "p9", "action": ["pass"]})
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
    assert any("error" in x for x in got)  # the bad line, refused there too
    assert any((x.get("changed") or {}).get("winner") for x in got)  # to the game's end


def test_the_bridges_secrets_survive_its_restart(tmp_path):
    """The bridge keeps card and nonce on disk (commit.Secrets, written before the
    commitment goes out): a bridge started again between any two steps (its secrets read
    back from the file, what was in flight asked again) reveals what it committed to."""
    from host_tools.remote import commit
    path = str(tmp_path / "K7QXM2-ub.json")
    m = HalMatch(8, players=2, board_seat="p1")
    m.board.feed.secrets = commit.Secrets(path)

    def every(match, step):
        match.board.feed.secrets = commit.Secrets(path)
        match.board.feed.ask_again()
    m.play(every=every)
    check_end(m)
    assert len(commit.Secrets(path).held) >= 2  # every round's card, kept until the end


def test_a_power_cut_at_any_write_of_an_event_loses_nothing():
    """The power fails in the middle of an event's writes (the actions, the takes, the
    bookkeeping record, a compaction): the board boots from its journal, the bridge sends
    from where it is, and the game ends as without the cuts."""
    import random
    plain = HalMatch(8, players=3, board_seat="p2")
    plain.play()
    m = HalMatch(8, players=3, board_seat="p2", journal_limit=2048)
    rng = random.Random(8)
    count = [0]

    def cut(b, cmd):
        count[0] += 1
        if count[0] % 3 == 0:
            b.sim.flash.cut_at(rng.choice((1, 2, 3)), rng.choice((0, 1, 5, 40)))
    m.cut = cut
    m.play()
    assert m.board.cuts > 10
    assert _plays(check_end(m)) == _plays(check_end(plain))


def test_the_bridge_says_the_events_the_tops_and_no_card_before_its_open():
    """The bridge without --echo (host_tools/remote/boardbridge.py) for a Halunken board:
    the dealer's events in words (a commitment's digest, never a card before its open),
    the taverns' top cards the board cannot show (H5), and the board's words."""
    from host_tools.games.halunken import remoteboard as part
    from host_tools.remote.boardbridge import BoardTable
    m = HalMatch(1, players=2, board_seat="p2")
    for _ in range(12):
        m.pump()
        m.turn()
    said = []
    t = BoardTable(CODE, "ub", part, None, lambda text: None, {},
                   out=lambda text, flush=False: said.append(text))
    t.seat = m.board.seat
    t.tell()
    assert said[0] == "event 1: p1 place %s" % m.board.seat.log[0][2][1]
    assert said[-1].startswith("tops: T")
    public = m.board.seat.public
    assert said[-1] == "tops: " + " ".join(
        "%s:%s" % (k, v["top"] or "?") for k, v in public["taverns"].items() if v["left"])
    commits = [line for line in said if " commit " in line]
    assert commits and all(len(line.split()[-1]) == 64 for line in commits)
    t.board_line(m.board.feed.news)
    assert said[-1] == "board: " + m.board.feed.news["say"]
