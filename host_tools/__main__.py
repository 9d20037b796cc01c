"""`python -m host_tools COMMAND ...`: the host tools of the Kahuna smart board."""

import os
import sys

# The firmware's packages (kahuna, hw) are importable by the host tools as on the board.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "firmware"))

COMMANDS = {
    "sim": "run scenarios on the simulated board, or play interactively",
    "bench": "measure the firmware's speed and memory on CPython and MicroPython",
    "cards": "enrol the 24 card tags on a board, list, export or import its registry",
    "vboard": "run a virtual board (MicroPython unix port) on a pseudo-terminal",
    "flash": "compile the firmware and copy what changed to the board (make flash)",
    "hardware": "regenerate hardware/ (BOM, wiring, power, LED chain, template) from board_def",
    "monitor": "show the live board of a Pico over its USB serial link",
    "soak": "play many random games through the firmware, checking it never goes wrong",
    "duel": "whole games between the AI and the baselines (ai, greedy, random): wins, times",
}


def main(argv):
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in COMMANDS:
        print("usage: python -m host_tools COMMAND [options]\n\ncommands:")
        for name, text in COMMANDS.items():
            print("  %-8s %s" % (name, text))
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    module = __import__("host_tools." + argv[0], fromlist=["main"])
    return module.main(argv[1:])


sys.exit(main(sys.argv[1:]))
