"""The AI and table checks inside MicroPython; prints one JSON object.

    micropython tests/mp/ai_checks.py table SEED
    micropython tests/mp/ai_checks.py peek SEED VARIANT
    micropython tests/mp/ai_checks.py hint SEED VARIANT
    micropython tests/mp/ai_checks.py slices SEED
    micropython tests/mp/ai_checks.py async SEED
    micropython tests/mp/ai_checks.py duel KIND KIND SEED VARIANT GAMES
    micropython tests/mp/ai_checks.py reach VARIANT
"""

import gc
import json
import sys

import aikit
import gamekit

gc.collect()  # compiling from source fragments the RP2040-sized heap: free the scraps
from host_tools.games.kahuna import duelgames as duelcore  # noqa: E402


def main(argv):
    what = argv[0]
    if what == "table":
        out = aikit.table_trace(int(argv[1]))
    elif what == "peek":
        out = aikit.hidden_world_pairs(int(argv[1]), argv[2])
    elif what == "hint":
        out = aikit.hint_world_pairs(int(argv[1]), argv[2])
    elif what == "async":
        out = aikit.async_check(int(argv[1]))
    elif what == "slices":
        out = aikit.slice_check(int(argv[1]))
    elif what == "reach":
        out = aikit.reach_scores(argv[1])
    elif what == "duel":
        board = gamekit.board()
        out = []
        for i in range(int(argv[5])):
            res = duelcore.play_game(board, (argv[1], argv[2]), int(argv[3]) + i, argv[4])
            out.append([res["winner"], res["scores"], res["actions"]])
    else:
        raise SystemExit("unknown check %r" % (what,))
    print(json.dumps(out))


main(sys.argv[1:])
