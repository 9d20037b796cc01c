"""`python -m host_tools COMMAND ...`: the host tools of the Kahuna smart board."""

import os
import sys

# command: (module, what it does)
COMMANDS = {
    "sim": ("simulator.cli", "run scenarios on the simulated board, or play interactively"),
    "scengen": ("simulator.scengen", "write a whole random game as a scenario"),
    "vboard": ("maker.vboard", "run a virtual board (MicroPython unix port) on a "
                               "pseudo-terminal"),
    "flash": ("maker.flash", "compile the firmware and copy what changed to the board "
                             "(make flash)"),
    "cards": ("maker.cards", "enrol the 24 card tags on a board, list, export or import "
                             "its registry"),
    "monitor": ("maker.monitor", "show and drive the live board over its USB serial link"),
    "hardware": ("documents.hardware", "regenerate hardware/ (BOM, wiring, power, LED chain, "
                                       "template) from every board definition"),
    "guide": ("documents.guide", "regenerate the player's guide (docs/guide.pdf, two A4 "
                                 "pages) from board_def and the firmware"),
    "web": ("web.live", "the live board in the browser over its serial link (--port); "
                        "--build builds the browser simulator into build/web/ (make web)"),
    "bench": ("measure.bench", "measure the firmware's speed and memory on CPython and "
                               "MicroPython; --port: a board's own loop statistics"),
    "chipbench": ("measure.chipbench", "measure the firmware on an emulated RP2040 running "
                                       "the stock MicroPython (make bench-chip UF2=...)"),
    "chipprofile": ("measure.chipprofile", "the phases a probe in the firmware marked, in "
                                           "the order they ran (chipbench --profile --keep)"),
    "soak": ("measure.soak", "play many random games through the firmware, checking it "
                             "never goes wrong"),
    "duel": ("measure.duel", "whole games between the AI and the baselines (ai, greedy, "
                             "random, majority, lookahead): wins, times"),
    "remote": ("remote.command", "one table of a game across tables, through an MQTT broker: "
                               "create, or join CODE"),
    "dealer": ("remote.dealer", "the dealer of games across tables, beside the MQTT broker "
                                "(holds the virtual deck)"),
}


def usage():
    return ("usage: python -m host_tools COMMAND [options]   (COMMAND --help for its options)"
            "\n\ncommands:\n" + "\n".join("  %-9s %s" % (name, text)
                                         for name, (_, text) in COMMANDS.items()))


class ReaderGoneSafe:
    """The tools' stdout: a reader that goes away (`make flash | head -3`, quitting `less`)
    ends the output, not the work. A flash stopped halfway would leave the board in its raw
    REPL with its watchdog unfed; a report would end in a BrokenPipeError's traceback. The
    rest of the output goes to /dev/null (the descriptor too, so that the interpreter's own
    last flush finds somewhere to write)."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._gone()
            return len(text)

    def flush(self):
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._gone()

    def _gone(self):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, self._stream.fileno())
        os.close(devnull)

    def __getattr__(self, name):  # isatty, fileno, encoding, buffer, ...
        return getattr(self._stream, name)


def main(argv):
    sys.stdout = ReaderGoneSafe(sys.stdout)
    if argv and argv[0] in ("-h", "--help"):
        print(usage())
        return 0
    if not argv or argv[0] not in COMMANDS:
        if argv:
            print("host_tools: unknown command %r" % argv[0], file=sys.stderr)
        print(usage(), file=sys.stderr)
        return 2
    from host_tools.mpy import MicroPythonMissing

    try:
        module = __import__("host_tools." + COMMANDS[argv[0]][0], fromlist=["main"])
        return module.main(argv[1:])
    except MicroPythonMissing as e:  # a tool that runs the MicroPython unix port
        print("%s: %s" % (argv[0], e), file=sys.stderr)
        return 2
    except ModuleNotFoundError as e:
        if (e.name or "").split(".")[0] in ("host_tools", "core", "games", "hw"):
            raise  # the project's own module: a bug, not the user's set-up
        print("%s: the Python package %r is missing: run the tools with the project's venv "
              "(`make venv` builds it): .venv/bin/python -m host_tools %s, or `source "
              ".venv/bin/activate` first" % (argv[0], e.name, argv[0]), file=sys.stderr)
        return 2


sys.exit(main(sys.argv[1:]))
