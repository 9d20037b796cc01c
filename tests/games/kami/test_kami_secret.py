"""Hidden information (rules 8.2, 8.3; issue 18): nothing outside the controller depends on
a face-down card. Every card tapped as a face-down defence gives the same outcome, tunes,
link lines and LED frames through the acknowledgement, on CPython and on the MicroPython
unix port (tests/games/kami/secret_defence.py); the conformance twins (kami_kit.py) have
the same public information and give the same frames in every kit setting."""

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
        res["lines"] = [json.loads(x) for x in res["lines"]]  # key order is the runtime's
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
