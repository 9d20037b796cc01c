"""The monitor's game record (issue 15): `record` lists the board's archived games and
`record SLOT FILE` fetches one over the link, piece by piece, and writes a finished game
as a scenario that replays to the same end (an abandoned one from what is public);
`record FILE` writes the game in play from the link's public moves. The board is the
firmware in the simulator behind its real link (core.link)."""

import io
import json

import gamekit
from core.link import Link
from host_tools.games.kahuna import record, scenwrite
from host_tools.maker import monitor
from host_tools.simulator import engine as simcore
from host_tools.simulator.scenario import parse

END = ("winner", "scores", "round_scores", "bridges", "control")
PUBLIC = ("phase", "round", "turn", "bridges", "control", "supply", "discard", "drawable",
          "scores", "round_scores", "must_draw", "final_turns")


def record_usage():
    from host_tools.maker.monitorrecord import USAGE
    return USAGE


class LinkedPort:
    """A port to the simulated board: what the monitor writes goes to the link, and what
    the link sends back is handed to the monitor's session line by line."""

    def __init__(self, sim):
        self.sim = sim
        self.sent = []
        self.link = Link(sim.app, self.sent.append, lambda: sim.now)
        sim.app.listen(self.link.on_event)
        self.session = None

    def write(self, data):
        self.link.feed(data)
        while self.sent:
            self.session.received(self.sent.pop(0))


def board_with_archive():
    """A board that finished a game (seed 4's random game) and one abandoned after it."""
    board = gamekit.board()
    sim = simcore.Simulation(board)
    sim.run(parse(scenwrite.annotated_game(board, 4), board))
    finished = sim.report()
    assert finished["phase"] == "over"
    port = LinkedPort(sim)
    port.link.feed(b'{"cmd": "new", "settings": {"variant": "alternative"}}\n')
    port.link.feed(b'{"cmd": "tap", "card": "HUNA-1"}\n')
    port.link.feed(b'{"cmd": "new", "settings": {}}\n')  # the deal under way: abandoned
    port.sent.clear()
    mon = monitor.Monitor(board, io.StringIO(), colour=None)
    session = monitor.Session(port, mon, io.StringIO(), tty=False)
    port.session = session
    return sim, finished, mon, session


def test_record_lists_and_writes_a_finished_game(tmp_path):
    sim, finished, mon, session = board_with_archive()
    session.typed("record")
    assert mon.panel[0].startswith("Archived games")
    assert len(mon.panel) >= 3 and "slot 1: game" in "\n".join(mon.panel)
    slots = [int(line.split("slot ")[1].split(":")[0]) for line in mon.panel[1:]]
    path = tmp_path / "game.scn"
    whole = []
    for slot in slots:  # the finished game is one of them; the others were abandoned
        session.typed("record %d %s" % (slot, path))
        assert mon.style == "good", mon.message
        text = path.read_text()
        if not text.startswith(record.PUBLIC_TITLE):  # abandoned: what is public
            whole.append(slot)
    assert len(whole) == 1
    done = whole[0]
    session.typed("record %d %s" % (done, path))
    assert mon.message.startswith("record: slot %d written to %s" % (done, path))
    text = path.read_text()
    report, failures = simcore.run_commands(gamekit.board(), parse(text, gamekit.board()))
    assert failures == [] and report["rejected"] == []
    assert {k: report[k] for k in END} == {k: finished[k] for k in END}


def test_record_says_what_is_wrong_in_one_line(tmp_path):
    _, _, mon, session = board_with_archive()
    session.typed("record 1")
    assert (mon.message, mon.style) == (record_usage(), "bad")
    session.typed("record 7 %s" % (tmp_path / "x.scn"))
    assert mon.message == "record: the board says: no archived game in slot 7"
    assert not (tmp_path / "x.scn").exists()
    session.typed("record 1 %s" % (tmp_path / "no" / "such" / "dir.scn"))
    assert mon.style == "bad" and "record:" in mon.message and "Traceback" not in mon.message
    assert session.typed("help") and any("record SLOT FILE" in ln for ln in mon.panel)


def test_record_lines_are_not_the_games_news():
    _, _, mon, session = board_with_archive()
    mon.say("before", None)
    session.typed("record")
    assert mon.message == "before"  # the archive's answers went to the recorder only
    assert mon.panel[0].startswith("Archived games")
    # A game's event while no record is asked for is the board's news, as before.
    state_line = json.dumps({"event": "state", "changed": True})
    assert session.recorder.job is None
    assert session.received(state_line) is True


def test_record_file_writes_the_game_in_play_from_the_public_moves(tmp_path):
    board = gamekit.board()
    sim = simcore.Simulation(board)
    text = scenwrite.annotated_game(board, 2)
    sim.run(parse("\n".join(text.split("\n")[:120]), board))
    before = sim.report()
    assert before["phase"] != "over"
    port = LinkedPort(sim)
    mon = monitor.Monitor(board, io.StringIO(), colour=None)
    session = monitor.Session(port, mon, io.StringIO(), tty=False)
    port.session = session
    mon.say("before", None)
    path = tmp_path / "play.scn"
    session.typed("record %s" % path)
    assert (mon.message, mon.style) == (
        "record: the game in play written to %s (%d lines): python -m host_tools sim "
        "--scenario %s replays it" % (path, path.read_text().count("\n"), path), "good")
    written = path.read_text()
    assert written.startswith(record.PUBLIC_TITLE + "a game in play")
    # The same file as the whole journal gives, and it replays to the public state.
    assert written == record.scenario(board, bytes(sim.flash.files[simcore.JOURNAL]))
    report, failures = simcore.run_commands(board, parse(written, board))
    assert failures == [] and report["rejected"] == []
    assert {k: report[k] for k in PUBLIC} == {k: before[k] for k in PUBLIC}
    assert session.recorder.job is None
    # A path that cannot be written: one line, no traceback.
    session.typed("record %s" % (tmp_path / "no" / "dir.scn"))
    assert mon.style == "bad" and mon.message.startswith("record: cannot write ")
