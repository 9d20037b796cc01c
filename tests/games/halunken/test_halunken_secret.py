"""Hidden information (section 8.3, H32; issue 17): before the reveal nothing outside the
controller depends on which card a seat chose. Every possible card of a seat (and every
card W may choose for Black-Jack in tactical) gives the same outcome, the same link lines
and the same LED frames through the acknowledgement, on CPython and on the MicroPython
unix port (tests/games/halunken/secret_choice.py)."""

import json
import os

import pytest

from mpy_runner import MicroPython

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = "tests/games/halunken/secret_choice.py"


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
    assert sorted(groups) == [0, 1, 2, 3, 4]
    # p2's cards (3 and 4 players), Black-Jack's P3 set chosen by W (tactical); cases 3
    # and 4 again at a table (deal=table, H33)
    assert [sorted({card[:3] for card, _ in groups[k]}) for k in range(5)] == [
        ["P2-"], ["P2-"], ["P3-"], ["P2-"], ["P3-"]]
    for key, items in groups.items():
        assert len(items) >= 8, key  # every card of the set, in each case
        first = items[0][1]
        assert first["outcome"] == ["accepted", None, None, [], True]  # private, no places
        assert first["lines"] and first["chosen"] >= 1
        assert "P2-" not in json.dumps(first["lines"]) and "P3-" not in json.dumps(
            first["lines"])
        for card, res in items[1:]:
            assert res == first, card
        frames = first["frames"]
        assert len(set(frames)) > 1  # the acknowledgement and the pulse do show


def cpython_output():
    import subprocess
    import sys
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
    env["PYTHONPATH"] = os.pathsep.join([os.path.join(root, "firmware"), root,
                                         os.path.join(root, "tests")])
    return subprocess.run([sys.executable, os.path.join(root, SCRIPT)], env=env, cwd=root,
                          capture_output=True, text=True, check=True).stdout


def test_every_card_of_a_secret_choice_looks_the_same_on_cpython():
    check(results(cpython_output()))


@pytest.mark.micropython
def test_every_card_of_a_secret_choice_looks_the_same_on_micropython():
    out = MicroPython(heap_kib=512).run_script(SCRIPT, timeout=300)
    rows = results(out)
    check(rows)
    # And the same as on CPython, line for line (as JSON values: key order may differ).
    assert rows == results(cpython_output())


def test_the_link_plays_halunken_and_names_places():
    """core.link with Halunken: tap and pick commands, refusals naming their places, the
    state with the cursor and without the secret choices unless revealed."""
    import conformance
    from core import gameload
    from core.app import App
    from core.cards import Registry
    from core.link import Link

    class Strip:
        def show(self, frame):
            pass

    g = gameload.load("halunken")
    b = conformance.board_for("halunken")
    app = App(g, b, Registry(g.card_names(b)), Strip(), {"players": 3, "mode": "beginner",
                                                          "seed": 1})
    lines = []
    link = Link(app, lambda t: lines.append(json.loads(t)), lambda: 0)
    app.listen(link.on_event)
    link.line('{"cmd": "state"}')
    state = lines[-1]["state"]
    assert state["step"] == "place" and state["ui"]["cursor"] == "T1"
    assert "hidden" not in state
    # The deal is hidden: no seed a host could shuffle with (8.3), until a reveal.
    assert state["settings"] == {"players": 3, "mode": "beginner", "first": "p1",
                                 "deal": "seed"}
    for t in ("T2", "T2"):
        link.line(json.dumps({"cmd": "pick", "conn": t}))
    assert lines[-1]["event"] == "refused" and lines[-1]["code"] == "not-offered"
    assert lines[-1]["places"] == ["T2"]
    link.line('{"cmd": "pick", "conn": "T5"}')
    link.line('{"cmd": "pick", "conn": "T9"}')
    link.line('{"cmd": "tap", "card": "P2-3"}')
    assert lines[-1]["code"] == "out-of-turn" and lines[-1]["places"] == ["p2"]
    link.line('{"cmd": "tap", "card": "P1-3"}')
    assert lines[-1]["event"] == "accepted" and lines[-1]["changed"]["chosen"] == 1
    assert "P1-3" not in json.dumps(lines[-1])
    link.line('{"cmd": "tap", "card": "NOPE-1"}')
    assert "error" in lines[-1]
    link.line('{"cmd": "reveal", "on": true}')
    assert lines[-1]["state"]["hidden"]["choices"] == {"p1": "P1-3"}
    assert lines[-1]["state"]["settings"]["seed"] == 1
