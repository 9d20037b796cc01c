"""The link commands of `chipbench --game halunken --remote` (host_tools/games/halunken/
chipremote.json), recorded from a remote game played in one process (halboardkit: the
board at p2 of 3, host tables of random players at p1 and p3, the dealer with a seeded
deal): every command the bridge and the board's player sent the board, the `state`
queries left out, up to the end of round 1 (the captains placed in round 0). `start` is
the new game and the dealer's events before the board's first input; `round` the rest.

    .venv/bin/python tests/remote/halchipscript.py     # writes the file again
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "host_tools", "games", "halunken", "chipremote.json")
SEED, PLAYERS, SEAT = 3, 3, "p2"


def record(seed=SEED, players=PLAYERS, seat=SEAT):
    """{"start": [...], "round": [...]}: the commands, as sent."""
    from halboardkit import HalMatch

    m = HalMatch(seed, players=players, board_seat=seat)
    for _ in range(5000):
        m.pump()
        if m.board.sim.app.game.round >= 2:
            break
        assert m.turn(), "nobody can act"
    else:
        raise AssertionError("round 1 did not end")
    sent = [c for c in m.board.sent if c["cmd"] != "state"]
    first = next(i for i, c in enumerate(sent) if c["cmd"] not in ("new", "remote"))
    return {"seed": seed, "players": players, "seat": seat,
            "start": sent[:first], "round": sent[first:]}


def dump(script):
    """The file's text: one command a line."""
    head = dict((k, v) for k, v in script.items() if k not in ("start", "round"))
    parts = [json.dumps(head)[:-1]]
    for key in ("start", "round"):
        parts.append(', "%s": [\n%s\n]' % (key, ",\n".join(json.dumps(c)
                                                           for c in script[key])))
    return "".join(parts) + "}\n"


def main():
    for path in (os.path.join(ROOT, "firmware"), ROOT, os.path.join(ROOT, "tests"), HERE):
        if path not in sys.path:
            sys.path.insert(0, path)
    script = record()
    with open(OUT, "w") as f:
        f.write(dump(script))
    print("%s: %d + %d commands" % (OUT, len(script["start"]), len(script["round"])))


if __name__ == "__main__":
    main()
