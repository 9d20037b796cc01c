"""Kami's board player inside MicroPython; prints one JSON object.

    micropython tests/mp/kami_ai.py peek SEED
"""

import json
import sys

sys.path.append("tests/games/kami")

import ai_peek  # noqa: E402


def main(argv):
    if argv[0] == "peek":
        out = ai_peek.peek_check(int(argv[1]))
    else:
        raise SystemExit("unknown check %r" % (argv[0],))
    print(json.dumps(out))


main(sys.argv[1:])
