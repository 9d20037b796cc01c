"""`make bench-chip` (host_tools/measure/chipbench.py) without the emulator run itself,
which takes minutes and is not part of `make test`: its command-line errors (one line,
exit status 2, no traceback, nothing started), the firmware image it boots (the files
`make flash` would copy, at their board paths), and its table."""

import json
import os
import subprocess
import sys

import pytest

from host_tools.maker import flash
from host_tools.measure import chipbench, chipemulator
from mpy_runner import ROOT


def run(*args):
    return subprocess.run([sys.executable, "-m", "host_tools", "chipbench"] + list(args),
                          capture_output=True, text=True, cwd=ROOT, timeout=60,
                          stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("args,words", [
    ([], "chipbench: name the stock MicroPython firmware for the Pico: make bench-chip "
         "UF2=path/to/RPI_PICO.uf2 (the .uf2 from https://micropython.org/download/RPI_PICO/)"),
    (["--uf2", "/nope/RPI_PICO.uf2"], "chipbench: /nope/RPI_PICO.uf2: no such file; name "
                                      "MicroPython's RPI_PICO .uf2"),
    (["--uf2", "README.md"], "chipbench: README.md is not a UF2 file"),
    (["--game", "chess"], "chipbench: unknown game 'chess'"),
])
def test_a_wrong_uf2_is_one_line_and_exit_2(args, words):
    proc = run(*args)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert proc.stderr.strip().count("\n") == 0
    assert words in proc.stderr


def test_make_bench_chip_without_uf2_says_what_to_pass():
    proc = subprocess.run(["make", "-s", "bench-chip"], capture_output=True, text=True,
                          cwd=ROOT, timeout=300, stdin=subprocess.DEVNULL)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "make bench-chip UF2=path/to/RPI_PICO.uf2" in proc.stderr.splitlines()[0]


def test_the_image_holds_what_make_flash_copies_at_the_board_paths(tmp_path):
    from littlefs import LittleFS, UserContext

    image = tmp_path / "fs.img"
    paths = chipemulator.build_image(str(image), str(tmp_path / "build"))
    want = [rel for rel, _ in flash.build(out=str(tmp_path / "again"))]
    assert paths == want and "main.py" in paths
    block_size, block_count = chipemulator.fs_layout()
    data = image.read_bytes()
    assert len(data) == block_size * block_count
    ctx = UserContext(buffsize=len(data))
    ctx.buffer[:] = data
    fs = LittleFS(context=ctx, block_size=block_size, block_count=block_count, mount=True)
    for rel in paths:
        with fs.open(rel, "rb") as f, open(os.path.join(tmp_path, "build", rel), "rb") as g:
            assert f.read() == g.read(), rel


def test_the_table_states_the_method():
    res = {"uf2": "RPI_PICO.uf2", "boot": {"ns": 9e8},
           "tag_to_frame": chipbench.summary([200.0, 180.5, 220.0]),
           "live": [("after boot", 128000, 245760), ("at the end", 133120, 245760)],
           "board": {"ai": {"elapsed_ms": {"n": 2, "total": 4000.0},
                            "compute_ms": {"n": 2, "total": 1900.0}},
                     "heap": {"live": 133120, "total": 245760, "collect_ms": 9.5}}}
    text = chipbench.table(res)
    assert "RP2040 time (emulated clock)" in text and "125 MHz" in text
    assert "AI decisions: 48% of their elapsed time in their slices (1900 of 4000 ms" in text
    line = [x for x in text.splitlines() if x.startswith("tag laid")][0]
    assert line.split()[-4:] == ["3", "200.0", "220.0", "220.0"]
    assert "live after a full collection 125.0 to 130.0 KB of 240.0 KB (2 times" in text


def test_a_round_trip_is_timed_from_the_commands_bytes_to_its_replys_line():
    log = [[100, "board", '{"ai": "thinking"}'], [200, "host", 21],
           [900, "board", '{"changed": 1}'], [5_000_200, "board", '{"event": "selftest"}']]
    assert chipbench.link_rtt(log, "selftest") == 5.0
    assert chipbench.link_rtt(log[:3], "selftest") is None  # no reply yet
    assert chipbench.link_rtt([log[3]], "selftest") is None  # no command seen


# ---------------------------------------------------------------- Halunken's part

def test_halunken_has_a_chip_benchmark_part():
    proc = run("--game", "halunken")  # the part is found: only the .uf2 is missing
    assert proc.returncode == 2 and proc.stderr.startswith("chipbench: name the stock")


class SimLink:
    """chipemulator.Link's side the chip parts use, over the simulator's board and the
    firmware's own link (core.link): the state merged from the lines, the event lines
    counted and their (virtual) times; `emu.ns()` is the virtual clock."""

    def __init__(self, sim):
        from core.link import Link
        from host_tools.maker.linkclient import merge

        self.sim = sim
        self.emu = self
        self.merge = merge
        self.out = []
        self.board = Link(sim.app, self.out.append, lambda: sim.now)
        sim.app.listen(self.board.on_event)
        self.state = None
        self.events = 0
        self.event_ns = []
        self.lines = []

    def ns(self):
        return self.sim.now * 1000000

    def read(self):
        got = []
        while self.out:
            msg = json.loads(self.out.pop(0))
            self.lines.append(msg)
            if "changed" in msg:
                self.events += 1
                self.event_ns.append(self.ns())
            self.state = self.merge(self.state, msg)
            got.append(msg)
        if not got:
            self.sim.advance(5)
        return got

    def send(self, obj):
        self.board.feed((json.dumps(obj) + "\n").encode())

    def wait(self, pred, wall=120.0, what=""):
        for _ in range(2000):
            for msg in self.read():
                if pred(msg):
                    return msg
        raise AssertionError("no %s" % what)

    def command(self, obj, wall=120.0):
        self.send(obj)
        msg = self.wait(lambda m: "changed" in m or "error" in m, wall, str(obj))
        assert "error" not in msg, msg
        return msg

    def sync(self, wall=120.0):
        self.read()


class SimSession:
    def __init__(self, link):
        self.link = link
        self.said = []
        self.heaps = []

    def say(self, text):
        self.said.append(text)

    def wait_emulated(self, ms_):
        end = self.link.ns() + ms_ * 1e6
        while self.link.ns() < end:
            self.link.read()

    def heap(self, when):
        self.heaps.append(when)


def halunken_sim():
    from core import board as boardmod
    from host_tools.games import part
    from host_tools.simulator.engine import Simulation

    path = os.path.join(ROOT, "board_def", "halunken.json")
    with open(path) as f:
        board = json.load(f)
    play = part("halunken", "chipplay").ChipPlay(board)
    sim = Simulation(boardmod.load(path, keep_raw=False))
    sim.advance(100)
    return play, sim, SimLink(sim)


def test_halunken_taps_time_an_acknowledgement_that_is_the_same_for_every_card():
    """The tap game: p1's seat light steady, then each of p2's movement cards dips it
    (the acknowledgement, 8.3) the same way; `back` takes p2's choice back."""
    from host_tools.games import part

    play, sim, link = halunken_sim()
    cards = play.tap_game(link)
    assert sim.app.game.step == "choose" and sim.app.game.choices[:3] == [2, -1, -1]
    seen = set()
    for card in cards:
        led = play.led(card)
        before = bytes(sim.app.view.frame[3 * led:3 * led + 3])
        sim.advance(100)
        assert bytes(sim.app.view.frame[3 * led:3 * led + 3]) == before  # steady
        link.command({"cmd": "tap", "card": card})
        sim.advance(20)
        dipped = bytes(sim.app.view.frame[3 * led:3 * led + 3])
        assert dipped != before
        seen.add((before, dipped))
        link.command({"cmd": "press", "button": "back"})
        sim.advance(part("halunken", "chipplay").BETWEEN_TAPS_MS)
        assert sim.app.game.choices[1] == -1
        assert bytes(sim.app.view.frame[3 * led:3 * led + 3]) == before
    assert len(seen) == 1 and len(cards) == 7  # the same frame for every card


def test_halunken_solo_counts_the_boards_decisions_as_the_board_does():
    """The solo game driven as on the chip (p1 over the link, the board's p2 and p3
    playing): the host's count of the board's decisions is the board's own, and each has
    a time on the link."""
    play, sim, link = halunken_sim()
    session = SimSession(link)
    play.solo(session, 12, 3, 60.0)
    assert play.decisions(session) >= 12
    while link.out:  # the lines the board sent since (it plays on meanwhile)
        link.read()
    n = play.decisions(session)
    assert n == sim.app.solo.decisions
    assert len(play.seen(session)) == n and min(play.seen(session)) >= 0
    assert len(session.heaps) == 1 and session.heaps[0].endswith("decisions of the board's seats")
    # to the end: every step p1 meets is answered (a robbery among them, this deal)
    play.solo(session, 10 ** 6, 3, 120.0)
    assert sim.app.game.is_over() and play.decisions(session) == sim.app.solo.decisions


# ---------------------------------------------------------------- Kami's part

def test_kami_has_a_chip_benchmark_part():
    proc = run("--game", "kami")  # the part is found: only the .uf2 is missing
    assert proc.returncode == 2 and proc.stderr.startswith("chipbench: name the stock")


def kami_sim():
    from core import board as boardmod
    from host_tools.games import part
    from host_tools.simulator.engine import Simulation

    path = os.path.join(ROOT, "board_def", "kami.json")
    with open(path) as f:
        board = json.load(f)
    play = part("kami", "chipplay").ChipPlay(board)
    sim = Simulation(boardmod.load(path, keep_raw=False))
    sim.advance(100)
    return play, sim, SimLink(sim)


def test_kami_taps_time_an_acknowledgement_that_is_the_same_for_every_card():
    """The tap game (4 players at a table, p1 to replay, K16): each Soldier laid as p1's
    new face-down defence blinks p1's defence light off at once, the same way for every
    card (K6, 8.3); `back` takes it back to the hand and the light is steady blue again."""
    from host_tools.games import part

    play, sim, link = kami_sim()
    cards = play.tap_game(link)
    g = sim.app.game
    assert (g.phase, g.step, g.turn, g.hands) == ("play", "open", 0, None)
    assert len(g.lines[0][0]) == 1 and g.passed == [1, 2, 3]  # the replay
    seen = set()
    for card in cards:
        led = play.led(card)
        before = bytes(sim.app.view.frame[3 * led:3 * led + 3])
        assert before != b"\0\0\0"  # the earlier defence: face down
        sim.advance(100)
        assert bytes(sim.app.view.frame[3 * led:3 * led + 3]) == before  # steady
        ev = link.command({"cmd": "tap", "card": card})
        assert ev["event"] == "accepted" and card not in json.dumps(ev)
        sim.advance(20)
        lit = bytes(sim.app.view.frame[3 * led:3 * led + 3])
        assert lit == b"\0\0\0"  # the blink's dark half, at once
        frame = bytearray(sim.app.view.frame)
        seat = 3 * play.seat_led["p1"]
        frame[seat:seat + 3] = b"\0\0\0"  # p1's seat light pulses: the time, not the card
        seen.add(bytes(frame))
        link.command({"cmd": "press", "button": "back"})
        sim.advance(part("kami", "chipplay").BETWEEN_TAPS_MS)
        assert g.step == "open" and len(g.lines[0][0]) == 1
        assert bytes(sim.app.view.frame[3 * led:3 * led + 3]) == before
    assert len(cards) == 8 and len(seen) == 1  # the same frame for every card


def test_kami_human_move_plays_from_its_own_hand():
    from host_tools.games.kami.chipplay import human_move

    hand = ["OR-1", "IMPERATRICE-1", "LANCE-2"]
    state = {"phase": "play", "turn": "p1", "step": "open"}
    assert [c["card"] for c in human_move(state, hand)] == ["IMPERATRICE-1", "LANCE-2", "OR-1"]
    state["step"] = "attack"
    assert [c["card"] for c in human_move(state, hand)] == ["LANCE-2", "OR-1", "IMPERATRICE-1"]
    state["step"] = "respond"
    assert human_move(state, hand) == [{"cmd": "press", "button": "done"}]
    for other in ({"phase": "play", "turn": "p2", "step": "open"}, {"phase": "deal"},
                  {"phase": "over"}, None):
        assert human_move(other, hand) == []


def test_kami_solo_counts_the_boards_decisions_as_the_board_does():
    """The solo game driven as on the chip (2 players, p1 over the link from its own hand,
    the board's p2 playing, a given deal stated over the link each round): the host's count
    of the board's decisions is the board's own, and each has a time on the link; played
    on to the end of the game, every step p1 meets is answered."""
    play, sim, link = kami_sim()
    session = SimSession(link)
    play.solo(session, 12, 3, 60.0)
    assert play.decisions(session) >= 12
    while link.out:  # the lines the board sent since (it plays on meanwhile)
        link.read()
    n = play.decisions(session)
    assert n == sim.app.solo.decisions and sim.rejected == []
    assert len(play.seen(session)) == n and min(play.seen(session)) >= 0
    assert session.heaps == ["after %d decisions of the board's seat" % n]
    play.solo(session, 10 ** 6, 3, 120.0)
    g = sim.app.game
    assert g.is_over() and play.decisions(session) == sim.app.solo.decisions
    assert len(g.rounds) >= 2 and sim.rejected == []  # deals stated again, none refused


def test_the_table_takes_the_parts_labels():
    res = {"labels": {"taps": "tag laid -> the acknowledgement", "seen": "seen here"},
           "tag_to_frame": chipbench.summary([10.0]), "ai_seen": chipbench.summary([5.0])}
    text = chipbench.table(res)
    assert "tag laid -> the acknowledgement" in text and "seen here" in text
    from host_tools.games.kahuna import chipplay
    assert chipplay.TAP_LABEL == "tag laid -> first frame with its island lit"


def test_kahuna_remote_game_part_plays_a_deal_the_board_takes():
    """`chipbench --remote` (Kahuna's chipplay.remote_game): a remote game's deal fed as
    the bridge feeds it, taken by the board without an error: this table's three cards
    tapped, the other seat's three dealt unseen, the display laid."""
    from core import board as boardmod
    from host_tools.games import part
    from host_tools.simulator.engine import Simulation

    path = os.path.join(ROOT, "board_def", "kahuna.json")
    with open(path) as f:
        play = part("kahuna", "chipplay").ChipPlay(json.load(f))
    sim = Simulation(boardmod.load(path, keep_raw=False))
    link = SimLink(sim)
    sim.app.prompters.append(link.board.on_prompt)
    play.remote_game(link)
    link.read()
    news = [m for m in link.lines if m.get("event") == "remote"][-1]
    assert news["fed"] == 7 and news["want"] is None
    assert news["hand"] == sorted(play.white_deal)
    assert link.state["hand_sizes"] == {"white": 3, "black": 3}
    assert link.state["phase"] == "play"


def test_kami_remote_game_part_plays_a_deal_the_board_takes():
    """`chipbench --game kami --remote` (Kami's chipplay.remote_game): a 2-player remote
    game's deal and the other seat's opening, fed as the bridge feeds them, taken by the
    board without an error."""
    from core import board as boardmod
    from host_tools.games import part
    from host_tools.simulator.engine import Simulation

    path = os.path.join(ROOT, "board_def", "kami.json")
    with open(path) as f:
        play = part("kami", "chipplay").ChipPlay(json.load(f))
    sim = Simulation(boardmod.load(path, keep_raw=False))
    link = SimLink(sim)
    sim.app.prompters.append(link.board.on_prompt)
    play.remote_game(link)
    link.read()
    news = [m for m in link.lines if m.get("event") == "remote"][-1]
    assert news["fed"] == 3 and news["moves"] == []
    assert news["hands"] == {"p2": sorted(play.names[:8])}
    assert link.state["hand_sizes"] == {"p1": 6, "p2": 8}
    assert link.state["attack"] == {"seat": "p1", "card": play.names[20]}


def _halunken_play():
    from core import board as boardmod
    from host_tools.games import part
    from host_tools.simulator.engine import Simulation

    path = os.path.join(ROOT, "board_def", "halunken.json")
    with open(path) as f:
        play = part("halunken", "chipplay").ChipPlay(json.load(f))
    sim = Simulation(boardmod.load(path, keep_raw=False))
    link = SimLink(sim)
    sim.app.prompters.append(link.board.on_prompt)
    return play, sim, link


def test_halunken_remote_game_part_plays_round_one_the_board_takes():
    """`chipbench --game halunken --remote` (Halunken's chipplay.remote_game and
    remote_round, chipremote.json): the remote game starts with the dealer's first event
    taken (the captains' placement, round 0), then round 1 is played to its end (the
    board's own moves confirmed by the dealer's events, its card committed and opened:
    H7, H32); nothing refused."""
    play, sim, link = _halunken_play()
    play.remote_game(link)
    news = [m for m in link.lines if m.get("event") == "remote"][-1]
    assert news["fed"] == 1 and sim.app.game.round == 0  # the captains' placement
    assert sim.app.game.remote_seats == [0, 2]
    play.remote_round(link)
    news = [m for m in link.lines if m.get("event") == "remote"][-1]
    last = [c for c in play.script["round"] if c["cmd"] == "remote"][-1]
    assert news["fed"] == last["seq"] and news["moves"] == []
    assert sim.app.game.round == 2 and sim.app.game.step == "auction"
    assert not [m for m in link.lines if "error" in m or m.get("event") == "refused"]
    # The replay's events are no decisions of the board's (chipbench's `ai_seen`).
    assert link.events > 20 and play.seen(SimSession(link)) == []


def test_halunken_remote_replay_names_a_refused_command():
    """An event out of order (seq 9 when the board took 1) stops the replay with one line
    naming it; the board's state is unchanged."""
    from host_tools.games.halunken import chipplay

    play, sim, link = _halunken_play()
    play.remote_game(link)
    before = sim.app.game.snapshot()
    with pytest.raises(ValueError, match='the board refused .*"seq": 9'):
        chipplay.replay(link, [dict(play.script["round"][1], seq=9)])
    assert sim.app.game.snapshot() == before
    play.remote_round(link)  # the script goes on from where it was
    assert sim.app.game.round == 2


def test_halunken_remote_script_is_todays_dealers():
    """chipremote.json is what the dealer deals today (its seeded shuffle, H5): recorded
    again, the same commands but the commitments' digests and the nonces (random)."""
    from host_tools.games.halunken import chipplay

    sys.path.insert(0, os.path.join(ROOT, "tests", "remote"))
    try:
        import halchipscript
        fresh = halchipscript.record()
    finally:
        sys.path.remove(os.path.join(ROOT, "tests", "remote"))

    def plain(cmds):
        out = []
        for c in cmds:
            a = c.get("action")
            if a and a[0] in ("commit", "open"):
                c = dict(c, action=a[:2] if a[0] == "commit" else a[:3])
            out.append(c)
        return out
    with open(chipplay.SCRIPT) as f:
        stored = json.load(f)
    for key in ("start", "round"):
        assert plain(stored[key]) == plain(fresh[key]), (
            "%s is out of date: .venv/bin/python tests/remote/halchipscript.py" % key)
