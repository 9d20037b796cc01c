"""The player's guide (docs/guide.pdf, docs/guide-*.svg), generated from board_def and the
firmware's tables by host_tools/games/kahuna/guidepages.py (`make guide`): never stale,
and nothing the firmware shows, sounds or refuses goes unexplained."""

import os
import re
import shutil
import subprocess
import sys

import gamekit
from core import board as boardmod
from core import outcome as oc
from core import tunes
from games.kahuna import game as kahuna
from games.kahuna import solo, view
from host_tools.documents import guidekit
from host_tools.games.kahuna import guidepages as guide

ROOT = gamekit.ROOT
DOCS = os.path.join(ROOT, "docs")


def run_guide(*args):
    return subprocess.run([sys.executable, "-m", "host_tools", "guide"] + list(args),
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_the_guide_in_docs_is_what_the_board_and_firmware_give_today():
    # In a process of its own: cairo's font state, once used here, would change the PNGs
    # that tests/core/test_hardware.py renders later in this process.
    proc = run_guide("--check")
    assert proc.returncode == 0, proc.stderr  # `make guide` rewrites it
    with open(os.path.join(DOCS, "guide.pdf"), "rb") as f:
        pdf = f.read()
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page") >= 2
    with open(os.path.join(DOCS, "guide-2.svg"), encoding="utf-8") as f:
        assert "page 2 of 2" in f.read()


def test_a_stale_guide_is_named(tmp_path):
    for name in guide.OUTPUTS:
        shutil.copy(os.path.join(DOCS, name), tmp_path / name)
    (tmp_path / "guide-2.svg").write_text("<svg/>")
    proc = run_guide("--check", "--out", str(tmp_path))
    assert proc.returncode == 1
    assert "guide-2.svg" in proc.stderr and "guide-1.svg" not in proc.stderr


def test_every_colour_the_view_paints_is_explained():
    board = gamekit.board()
    painted = set(view.DEFAULTS) | set(board.palette)
    assert painted <= set(guide.COLOURS), painted - set(guide.COLOURS)
    text = guide.page_one(board)
    for name in painted:
        assert name.replace("_", " ") in text


def test_every_status_pixel_sound_and_refusal_code_is_explained():
    board = gamekit.board()
    assert set(board.status_leds) == set(guide.STATUS)
    assert set(oc.KINDS) | {oc.MOVED} == set(guide.SOUNDS) == set(tunes.SOUNDS)
    text = open(os.path.join(ROOT, "docs", "scenarios.md")).read()
    kahuna = text[text.index("\n## Refusals\n"):]  # Kahuna's section, not another game's
    kahuna = kahuna[:kahuna.index("\n## ", 1)]
    contract = set(re.findall(r"^\| `([a-z-]+)` \| (?!cut)", kahuna, re.M))
    assert contract == set(guide.CODES)  # the rejection codes of docs/scenarios.md
    text = guide.page_one(board)
    for code in guide.CODES:
        assert code in text


def test_every_button_hold_menu_item_and_solo_step_is_explained():
    board = gamekit.board()
    assert set(guide.BUTTONS) == set(boardmod.ROLES)
    assert set(board.inputs["hold"].values()) <= set(guide.HOLDS)
    assert set(guide.HOLDS) == set(boardmod.HOLD_ACTIONS)
    assert [key for key, _ in kahuna.MENU] == list(guide.MENU_LABELS)
    steps = [v for k, v in vars(solo).items() if k.isupper() and isinstance(v, str)
             and k in ("DISPLAY", "DEAL", "THINK", "TAP", "CONFIRM", "DISCARD", "TAKE",
                       "DRAW", "HINT")]
    assert set(steps) == set(guide.SOLO_STEPS)
    text = guide.page_two(board)
    for role in board.inputs["hold"]:
        assert "hold " + role in text
    for label in guide.MENU_LABELS.values():
        assert label in text


def test_notes_are_named_as_a_musician_reads_them():
    assert guidekit.note_name(440) == "A4"
    assert guidekit.note_name(2093) == "C7"
    assert guidekit.tune_text(((220, 120), (0, 80))) == "A3 120 ms, rest 80 ms"


def test_a_broken_board_definition_gets_one_line(tmp_path):
    bad = tmp_path / "board.json"
    bad.write_text('{"name": "kahuna",')
    proc = run_guide("--board", str(bad), "--out", str(tmp_path))
    assert proc.returncode == 2
    assert proc.stderr.startswith("guide: ") and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
