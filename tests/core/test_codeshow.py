"""A Pico W's game code on the islands (issue 19: core.codeshow, core.codeentry with
Kahuna's letter_pixels, core.netplay.new_code), under CPython and the MicroPython unix port
alike: the islands lit over a clock spell the code; the board's new codes are of the ten
island letters; the join's letter on offer is lit on its island."""

import json

import pytest

from mpy_runner import MicroPython

CODE = """
import json
import gamekit
from core import frame as fr
from core import menu as menumod
from core import netplay
from core.codeentry import CodeEntry
from core.codeshow import CodeShow
from core.remoteproto import NEW_CODE_LETTERS
from games.kahuna import game

b = gamekit.board()
f = fr.Frame(b, {})
names = {}
for i in range(len(b.islands)):
    names[b.island_led[i]] = b.islands[i][0]

def lit(buf):
    return [names[p] for p in names if buf[3 * p] or buf[3 * p + 1] or buf[3 * p + 2]]

codes = [netplay.new_code(NEW_CODE_LETTERS) for _ in range(60)]
code = codes[0]
show = CodeShow(code, game.letter_pixels(b, code))
seen = []
last = None
for t in range(0, 2 * show.round_ms, 50):
    buf = show.paint(f, (), b.status_leds.get("phase", -1), -1, t)
    now = lit(buf)
    if now and now != last:  # a new letter: its initial, and "*" when green (marked)
        p = [q for q in names if names[q] == now[0]][0]
        seen.append(now[0] + ("*" if buf[3 * p] == 0 else ""))
    last = now

entry = CodeEntry(NEW_CODE_LETTERS, game.letter_pixels(b, NEW_CODE_LETTERS))
offered = []
for ch in "JCH":
    while NEW_CODE_LETTERS[entry.pick] != ch:
        entry.press("next")
    offered.append(lit(entry.paint(f, (), -1, -1, 300)))
    entry.press("ok")
print(json.dumps({"codes": codes, "code": code, "seen": seen, "offered": offered,
                  "entered": entry.code(),
                  "pixels": game.letter_pixels(b, "ABCDEFGHJKL7")}))
"""


def run(runtime):
    if runtime == "micropython":
        return json.loads(MicroPython().run_code(CODE).strip().splitlines()[-1])
    got = []
    exec(CODE, {"print": got.append, "__name__": "codeshow"})
    return json.loads(got[0])


@pytest.mark.parametrize("runtime", ["cpython", pytest.param(
    "micropython", marks=pytest.mark.micropython)])
def test_the_code_on_the_islands_and_its_entry(runtime):
    out = run(runtime)
    assert all(len(c) == 6 and set(c) <= set("ABCDEFGHJK") for c in out["codes"])
    assert len(set("".join(out["codes"]))) == 10  # all ten come
    # Two rounds from time 0: the code's letters, one island at a time, twice.
    assert "".join(s[0] for s in out["seen"]) == out["code"] * 2
    assert [i for i, s in enumerate(out["seen"]) if s.endswith("*")] == [0, 6]  # first marked
    # Kahuna's islands by initial: ALOA is pixel 0 ... KAHU 10 (board_def/kahuna.json);
    # L (LALE) is no code letter but has its island; 7 has none.
    assert out["pixels"] == [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, -1]
    # Join: the letter on offer's island lit, with those taken before it.
    assert [sorted(o) for o in out["offered"]] == [["J"], ["C", "J"], ["C", "H", "J"]]
    assert out["entered"] == "JCH"
