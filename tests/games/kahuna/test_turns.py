"""The turn log (games.kahuna.turns) keeps its entries packed in bytes, so that a board's
heap does not grow by them over a game: the finished turns whole, the turn under way its
core alone. Read back (`entry`, `to_json`: games.kahuna.turnread) they are the entries
kept unpacked, at every step of whole solo games, on CPython and on the MicroPython unix
port; what does not pack stays as it is."""

import json

import pytest

from core import board as boardmod
from games.kahuna import turns
from host_tools.paths import BOARD_DEF

# Whole solo games, each played twice from its seed: with the log packed, and with
# `_pack` giving every entry back as it is (the log as it was kept before). The log's
# JSON form must be the same at every step (compared by its text's hash: the unix port's
# heap holds no game's worth of them), and the packed log must have packed.
GAMES = """
import json
from core import board as boardmod
from host_tools.paths import BOARD_DEF
from games.kahuna import turns
from solokit import SoloGame

board = boardmod.load(BOARD_DEF, keep_raw=False)
real = turns._pack


def canon(x):
    # `x` as text, a dict's items in their keys' order (its own order is no part of it)
    if isinstance(x, dict):
        x = sorted(x.items())
    if isinstance(x, (list, tuple)):
        return "[%s]" % ",".join(canon(v) for v in x)
    return json.dumps(x)


def records(seed, ai, variant, pack):
    turns._pack = pack
    try:
        g = SoloGame(board, seed, ai=ai, variant=variant)
        out, packed = [], 0
        while g.step():
            log = g.game.turns
            e = log.entries
            packed += sum(1 for x in e[:-1] if type(x) is bytes)
            packed += 1 if e and type(e[-1][1]) is bytes else 0
            out.append(hash(canon(log.to_json())))
    finally:
        turns._pack = real
    return out, packed


same = packed = steps = 0
for seed in SEEDS:
    for ai, variant in (("white", "standard"), ("black", "alternative")):
        a, n = records(seed, ai, variant, real)
        b, _ = records(seed, ai, variant, lambda e, settings: e)
        same += a == b
        packed += n
        steps += len(a)
print(json.dumps({"same": same, "games": 2 * len(SEEDS), "packed": packed, "steps": steps}))
"""


def check_games(result, games):
    assert result["games"] == games
    assert result["same"] == games  # every step's record the same, packed or not
    assert result["packed"] > result["steps"]  # most steps hold packed entries


def test_the_packed_log_reads_back_as_kept_on_cpython():
    out = {}
    scope = {"print": lambda text: out.update(json.loads(text)), "SEEDS": (1, 2, 3)}
    exec(GAMES, scope)
    check_games(out, 6)


@pytest.mark.micropython
def test_the_packed_log_reads_back_as_kept_on_micropython(mpy):
    from mpy_runner import MicroPython
    runner = MicroPython(heap_kib=1024, timeout=300)  # the simulator's host side too
    text = runner.run_code("SEEDS = (4, 5)\n" + GAMES)
    check_games(json.loads(text.strip().splitlines()[-1]), 4)


@pytest.mark.micropython
def test_the_packed_log_holds_a_third_of_the_heap_on_micropython(mpy):
    """The same four turns, packed and as lists: what each keeps of the unix port's heap
    (64-bit objects; on the Pico about 0.9 KB packed against 3 KB, estimated)."""
    code = GAMES.split("same = packed")[0] + """
import gc
g = SoloGame(board, 3, ai="white")
while g.sim.app.solo.decisions < 6:
    g.step()
log = g.game.turns
settings = g.game.settings
plain = json.dumps(log.to_json()[0])


def held(pack):
    from games.kahuna import turnread  # (given back after each use: imported afresh)
    gc.collect()
    before = gc.mem_alloc()
    kept = [turnread.from_json(e) for e in json.loads(plain)]
    if pack:
        kept[-1][1] = turns._pack(kept[-1][1], settings)
        for i in range(len(kept) - 1):
            kept[i] = turns._pack(kept[i], settings)
    gc.collect()
    return gc.mem_alloc() - before, len(kept)


(a, n), (b, _) = held(False), held(True)
print(json.dumps([n, a, b]))
"""
    from mpy_runner import MicroPython
    runner = MicroPython(heap_kib=1024)  # the simulator's host side too
    n, plain, packed = json.loads(runner.run_code(code).strip().splitlines()[-1])
    print("%d turns: %d bytes as lists, %d packed" % (n, plain, packed))
    assert n == turns.KEEP
    assert packed * 3 < plain


@pytest.fixture(scope="module")
def settings():
    from games.kahuna.settings import Settings
    return Settings(boardmod.load(BOARD_DEF))


CORE = ("play", 1, 0, (-1,) * 27, (-1,) * 12, (25, 25), (3,) * 24, 6, 0, False, False, 0,
        (0, 0), (), None, None, -1)
SAVE = {"display": [1, 2], "stack": [3], "seen": 1 << 23, "known": 0, "count": 3,
        "moves": 0, "own": 5}


def test_an_entry_packs_and_reads_back_with_its_types(settings):
    from games.kahuna import turnread
    core = CORE[:12] + ((3, 7), ((1, 0), (0, 2)), (6, 5), "white", 4)
    e = [1, core, [("place", "ALOA-1", "ALOA-BARI"), ("end_play",), ("draw", "HUNA-2")],
         SAVE, [4]]
    packed = turns._pack(e, settings)
    assert type(packed) is bytes and len(packed) < 128
    assert turnread.unpack(packed, settings) == e
    back = turnread.unpack(packed, settings)
    assert type(back[1]) is tuple and type(back[1][13][0]) is tuple
    assert type(back[3]["stack"]) is list and back[1][9] is False
    under_way = [0, turns._pack(CORE, settings), [("undo",)], None, []]
    assert turnread.unpack(under_way, settings) == [0, CORE, [("undo",)], None, []]


def test_what_does_not_pack_stays_as_it_is(settings):
    older_save = dict(SAVE)
    del older_save["own"]  # a journal written before the hint's own tracker
    for e in ([0, CORE, [], older_save, []],
              [0, CORE, [("place", "NOCARD-1", "ALOA-BARI")], None, []],
              [0, CORE[:16] + (-2,), [], None, []],
              [0, CORE, [], None, ["x"]]):
        assert turns._pack(e, settings) is e


def test_the_packing_code_is_loaded_at_a_turns_start_and_given_back():
    """games.kahuna.turnpack is loaded only to pack (a board keeps its code out of the heap
    in play): after every step of a solo game it is gone again, and the log has packed."""
    import sys

    from solokit import SoloGame
    sys.modules.pop("games.kahuna.turnpack", None)  # (the tests above packed directly)
    g = SoloGame(boardmod.load(BOARD_DEF, keep_raw=False), 3, ai="white")
    packed = 0
    while g.step() and g.steps < 200:
        assert "games.kahuna.turnpack" not in sys.modules
        packed += sum(1 for x in g.game.turns.entries if type(x) is bytes)
    assert packed > 0
