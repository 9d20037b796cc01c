"""Hidden information (rules 8.2, 8.3; issue 18): nothing outside the controller depends on
a face-down card. Every card tapped as a face-down defence gives the same outcome, tunes,
link lines and LED frames through the acknowledgement, on CPython and on the MicroPython
unix port (tests/games/kami/secret_defence.py); the acknowledgement's time: the same work
between the tap and the acknowledgement, counted without a wall clock (on CPython
sys.settrace's calls, lines and bytecode instructions per function; on MicroPython, whose
unix port has no settrace, the bytes allocated), the acknowledgement pushed to the strip
in the tap's own event, the same tune, link line count and journal bytes (kami_secret_work.py,
tests/tapwork.py); the conformance twins (kami_kit.py) have the same public information
and give the same frames in every kit setting."""

import importlib.util
import json
import os

import pytest

import conformance
from core import gameload
from games.kami import report
from mpy_runner import ROOT, MicroPython

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = "tests/games/kami/secret_defence.py"


def results(text):
    """[(case, card, result)]: the script's lines."""
    out = []
    for line in text.strip().splitlines():
        case, card, rest = line.split(" ", 2)
        res = json.loads(rest)
        if "lines" in res:
            res["lines"] = [json.loads(x) for x in res["lines"]]  # key order: the runtime's
        out.append((int(case), card, res))
    return out


def check(rows):
    groups = {}
    for case, card, res in rows:
        groups.setdefault(case, []).append((card, res))
    assert sorted(groups) == [0, 1, 2, 3]
    # K6: any card at a table's opening; a replay: the 28 cards not played; known deals:
    # the seat's 8 cards
    assert [len(groups[k]) for k in range(4)] == [32, 28, 8, 8]
    for key, items in groups.items():
        first = items[0][1]
        assert first["outcome"] == ["accepted", None, None, [], True]  # private, no places
        assert first["step"] == "attack" and first["lines"]
        assert first["tunes"] == [["accepted", 1000]]
        text = json.dumps(first["lines"])
        for name, _ in items:  # none of the cards it might have been is named
            assert '"%s"' % name not in text
        for card, res in items[1:]:
            assert res == first, (key, card)
        frames = first["frames"]
        assert len(set(frames)) > 2  # the acknowledgement's blink and the pulse do show


def cpython_output():
    import subprocess
    import sys
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "firmware"), ROOT,
                                         os.path.join(ROOT, "tests")])
    return subprocess.run([sys.executable, os.path.join(ROOT, SCRIPT)], env=env, cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout


def test_every_face_down_defence_looks_the_same_on_cpython():
    check(results(cpython_output()))


@pytest.mark.micropython
def test_every_face_down_defence_looks_the_same_on_micropython():
    out = MicroPython(heap_kib=512).run_script(SCRIPT, timeout=300)
    rows = results(out)
    check(rows)
    assert rows == results(cpython_output())  # line for line, as JSON values


WORK_SCRIPT = "tests/games/kami/kami_secret_work.py"


def work_output():
    import subprocess
    import sys
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "firmware"), ROOT,
                                         os.path.join(ROOT, "tests")])
    return subprocess.run([sys.executable, os.path.join(ROOT, WORK_SCRIPT)], env=env,
                          cwd=ROOT, capture_output=True, text=True, check=True).stdout


def check_work(rows, traced):
    """Every card of a case: the same measures of the tap's event (kami_secret_work.py)."""
    groups = {}
    for case, card, res in rows:
        groups.setdefault(case, []).append((card, res))
    assert sorted(groups) == list(range(8))  # the taps (0-3), their backs (4-7)
    assert [len(groups[k]) for k in range(8)] == [32, 28, 8, 8] * 2
    for key, items in groups.items():
        first = items[0][1]
        # The acknowledgement is lit in the event itself, at its `now`: one frame pushed,
        # the acknowledgement's; one tune; one link line; one journal record.
        assert first["frames_pushed"] == 1 and first["last_frame_is_the_acknowledgement"]
        assert first["link_lines"] == 1 and first["journal_bytes"] > 0
        if key < 4:
            assert first["outcome"] == ["accepted", None, None, [], True]
            assert first["tunes"] == [["accepted", 1000]] and first["step"] == "attack"
        else:  # back: the defence returns to the hand, the seat lays one again
            assert first["tunes"] == [["accepted", 3000]] and first["step"] == "open"
        text = json.dumps(first["lines"])
        for name, _ in items:  # none of the cards it might have been is named
            assert '"%s"' % name not in text
        if traced:
            calls, lines, opcodes = first["work"]
            assert calls > 100 and lines > 1000 and opcodes > 5000, first["work"]
            # The whole path is traced: the controller, the rules, the journal (and the
            # journal's form of the card), the view, the link.
            steps = (("games/kami/controller.py:tap", "games/kami/rules.py:_a_defend")
                     if key < 4 else ("games/kami/controller.py:press",
                                      "games/kami/rules.py:_a_back"))
            for part in steps + ("games/kami/game.py:journal_form", "core/journal.py:append",
                         "games/kami/view.py:render", "core/link.py:on_event"):
                assert any(k.endswith(part) for k in first["per_function"]), part
        else:
            assert first["allocated"] > 1000
        for card, res in items[1:]:
            assert res == first, (key, card)


def test_the_face_down_acknowledgement_does_the_same_work_for_every_card_on_cpython():
    check_work(results(work_output()), traced=True)


@pytest.mark.micropython
def test_the_face_down_acknowledgement_allocates_the_same_for_every_card_on_micropython():
    out = MicroPython(heap_kib=1024).run_script(WORK_SCRIPT, timeout=300)
    check_work(results(out), traced=False)


def test_the_work_count_sees_a_card_dependent_step(monkeypatch):
    """The measures can fail. With the face-down card journaled as its index (as before
    game.journal_form), SOLDAT-1..10 (indices 0-9) wrote a record one byte shorter than
    every other card (20 bytes against 21): the journal's count saw it. And a step that
    works more for one card than for another shows in the trace."""
    import kami_secret_work

    from games.kami import game
    settings, before = kami_secret_work.secret_defence.CASES[0]
    _, names, soldier = kami_secret_work.one_card(settings, before, 0)
    _, _, spear = kami_secret_work.one_card(settings, before, 10)
    assert (names[0], names[10]) == ("SOLDAT-1", "LANCE-1") and soldier == spear
    monkeypatch.setattr(game, "journal_form", lambda action: action)
    soldier = kami_secret_work.one_card(settings, before, 0)[2]
    spear = kami_secret_work.one_card(settings, before, 10)[2]
    assert soldier["journal_bytes"] + 1 == spear["journal_bytes"]

    def uneven(action):
        if action[1] < 10:
            str(action[1])
        return action

    monkeypatch.setattr(game, "journal_form", uneven)
    soldier = kami_secret_work.one_card(settings, before, 0)[2]
    spear = kami_secret_work.one_card(settings, before, 10)[2]
    key = [k for k in soldier["per_function"] if k.endswith(":uneven")]
    assert key and soldier["per_function"][key[0]] != spear["per_function"][key[0]]
    assert soldier["work"] != spear["work"]


@pytest.mark.micropython
def test_the_allocation_count_sees_a_card_dependent_step_on_micropython():
    """The MicroPython measure can fail too: a journal form that builds a list for a
    two-digit card only (LANCE-1, index 10) and not for SOLDAT-1 (index 0)."""
    script = (
        "import sys\n"
        "sys.path.append(%r)\n"
        "import kami_secret_work\n"
        "from games.kami import game\n"
        "def uneven(action):\n"
        "    if action[1] >= 10:\n"
        "        list(range(action[1]))\n"
        "    return action\n"
        "settings, before = kami_secret_work.secret_defence.CASES[0]\n"
        "for patch in (False, True):\n"
        "    if patch:\n"
        "        game.journal_form = uneven\n"
        "    got = [kami_secret_work.one_card(settings, before, k)[2]['allocated']\n"
        "           for k in (0, 10)]\n"
        "    print(got[0] == got[1])\n" % HERE)
    out = MicroPython(heap_kib=1024).run_code(script, timeout=300)
    assert out.split() == ["True", "False"]


def kit():
    path = os.path.join(HERE, "kami_kit.py")
    spec = importlib.util.spec_from_file_location("kami_kit", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_twins_differ_only_in_hidden_cards_and_give_the_same_frames():
    """Every kit setting (the conformance suite compares frames in the first only): twins
    have the same public report (report.public, what the link shows unrevealed) and give
    the same frames; each kind of hidden card is varied somewhere."""
    k = kit()
    game_def = gameload.load("kami")
    board = conformance.board_for("kami")
    kinds = set()
    for settings in k.SETTINGS:
        state, actions, _ = conformance.playout("kami", settings, 3, k.chooser())
        replay = game_def.new_state(board, settings)
        for i, act in enumerate(actions):
            replay.apply(act)
            if i % 4:
                continue
            pub = report.public(replay)
            base = None
            for twin in k.twins(replay):
                assert twin.snapshot() != replay.snapshot()
                assert report.public(twin) == pub, (settings, i, act)
                for f in ("lines", "hands", "aside", "down", "rng"):
                    if getattr(twin, f) != getattr(replay, f):
                        kinds.add(f)
                if base is None:
                    base = frames(game_def, board, replay)
                assert frames(game_def, board, twin) == base, (settings, i, act)
    assert kinds == {"lines", "hands", "aside", "down", "rng"}


def frames(game_def, board, state):
    view = game_def.view(board)
    c = game_def.controller(state)
    return [bytes(view.render(state, c, t)) for t in (0, 130, 777)]
