"""`python -m host_tools vboard`: a virtual Kahuna board on a pseudo-terminal.

For a maker (the README's "Rehearse without hardware"): it prints its port, then takes
commands at its own `vboard>` prompt, or from another terminal as
`python -m host_tools vboard tap ISLAND-1`: lay a card on the virtual scanner, press a
button by name, reset. Its flash is ~/.cache/kahuna-vboard/flash (XDG_CACHE_HOME is
honoured; --dir for another), kept between runs like a Pico's; its control socket is
~/.cache/kahuna-vboard/control.sock (--control for another).

This module is the command line. The board itself is host_tools/maker/vboardserver.py (the
launcher: its pseudo-terminals, the board process, the sockets) around vboardworld.py (the
outside world and what the board shows); the control channel's client and `Running` (a
board in a subprocess) are vboardclient.py; the commands in words vboardcommands.py.
"""

import argparse
import os
import re
import sys

from host_tools import gamearg
from host_tools.maker.vboardclient import VBoardClient, VBoardError
from host_tools.maker.vboardcommands import COMMANDS, describe_reply, request_for
from host_tools.maker.vboarddef import board_pin, example_card
from host_tools.maker.vboardserver import HEAP, VBoard
from host_tools.mpy import find_micropython


def home():
    """The virtual board's own folder: its flash and its control socket live there."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "kahuna-vboard")


def mpy_version_of(version):
    """The .mpy format a MicroPython release loads (docs: reference/mpyfiles)."""
    for first, mpy in (((1, 19), 6), ((1, 12), 5), ((1, 11), 4), ((1, 9, 3), 3), ((1, 9), 2)):
        if tuple(version) >= first:
            return mpy
    return 0


def control_socket(control):
    """The control socket: `control` itself if it names one, else control.sock in it."""
    if control.endswith(".sock") and not os.path.isdir(control):
        return control
    return os.path.join(control, "control.sock")


def _split_control(argv):
    """argv without its `--control DIR` (or `--control=DIR`), wherever it stands, and DIR
    (None: not given); ValueError when DIR is missing."""
    for i, word in enumerate(argv):
        if word.startswith("--control="):
            return argv[:i] + argv[i + 1:], word.split("=", 1)[1]
        if word == "--control":
            if i + 1 >= len(argv):
                raise ValueError("--control needs the directory (or socket) the board printed")
            return argv[:i] + argv[i + 2:], argv[i + 1]
    return argv, None


def command(argv):
    """`python -m host_tools vboard tap ISLAND-1` and friends, to the running board."""
    try:
        argv, control = _split_control(argv)
    except ValueError as e:
        print("vboard: %s" % e, file=sys.stderr)
        return 2
    control = control or home()
    try:
        req = request_for(argv)
    except ValueError as e:
        print("vboard: %s" % e, file=sys.stderr)
        return 2
    path = control_socket(control)
    try:
        client = VBoardClient(path)
    except OSError:
        print("vboard: no virtual board is running at %s: start one with "
              "`python -m host_tools vboard` (or give --control DIR of the one you started)"
              % path, file=sys.stderr)
        return 2
    try:
        reply = client.request_raw(req)
    finally:
        client.close()
    print(describe_reply(req, reply))
    return 0 if reply.get("ok") else 2


def _heap(text):
    if not re.fullmatch(r"[0-9]+[KkMm]?", text):
        raise argparse.ArgumentTypeError("%r: bytes, or a number with K or M (512K)" % text)
    return text


def _version(text):
    try:
        version = tuple(int(x) for x in text.split("."))
        if len(version) not in (2, 3):
            raise ValueError
    except ValueError:
        raise argparse.ArgumentTypeError("%r: a MicroPython version, e.g. 1.20.0"
                                         % text) from None
    return version + (0,) * (3 - len(version))


def main(argv):
    try:
        words = _split_control(argv)[0]
    except ValueError:
        words = argv
    if words and not words[0].startswith("-"):  # a command to a running board
        if words[0].lower() in COMMANDS:
            return command(argv)
        print("vboard: unknown command %r: %s; or no command, to run a board (--help)"
              % (words[0], ", ".join(COMMANDS)), file=sys.stderr)
        return 2
    ap = argparse.ArgumentParser(
        prog="python -m host_tools vboard",
        description="Run a virtual Kahuna board (MicroPython unix port) behind a "
                    "pseudo-terminal, until Ctrl-C or `quit`. Prints its port, then "
                    "`control SOCKET`, then takes commands at its vboard> prompt (help). "
                    "From another terminal: python -m host_tools vboard tap "
                    + example_card() + " | "
                    "place CARD | lift | press BUTTON [MS] | status | reset.")
    ap.add_argument("--dir", default=None,
                    help="the board's flash, a folder (created if missing; default %s)"
                         % os.path.join(home(), "flash"))
    ap.add_argument("--control", default=None,
                    help="directory for the control sockets (default %s)" % home())
    ap.add_argument("--heap", default=HEAP, type=_heap,
                    help="MicroPython GC heap (default %s)" % HEAP)
    ap.add_argument("--uid", default=None,
                    help="machine.unique_id() as 16 hex digits (default: from --dir)")
    ap.add_argument("--free", type=int, default=None,
                    help="bytes of free heap when main.py starts (default: the Pico's "
                         "236 KiB, doubled on a 64-bit unix port)")
    ap.add_argument("--pn532-bus", type=int, default=0, choices=(0, 1),
                    help="the I2C controller the PN532 is wired to (default 0)")
    ap.add_argument("--pretend-version", type=_version, default=None, metavar="X.Y.Z",
                    help="report this MicroPython version in sys.implementation, as an "
                         "older Pico would (and its .mpy version; see --pretend-mpy)")
    ap.add_argument("--pretend-mpy", type=int, default=None, metavar="N",
                    help="the .mpy version to report (default: the one of "
                         "--pretend-version's release)")
    ap.add_argument("--no-prompt", action="store_true",
                    help="take no commands from standard input")
    ap.add_argument("--pn532-reset", type=int, default=board_pin("pn532_reset"),
                    help="the GPIO wired to the PN532's RSTPDN (default: board_def's "
                         "pins.pn532_reset); -1: not wired")
    ap.add_argument("--pico-w", action="store_true",
                    help="a Pico W: its `network` module (Wi-Fi that joins at once; the "
                         "host's own network behind it), for remote play's MQTT client")
    gamearg.add(ap)
    args = ap.parse_args(argv)
    if args.game is not None and gamearg.resolve("vboard", args.game, None, "vboard") is None:
        return 2  # the board runs the board definition flashed on it (else the project's)
    if args.pn532_reset is not None and args.pn532_reset < 0:
        args.pn532_reset = None
    if args.uid is not None:
        try:
            if len(bytes.fromhex(args.uid)) != 8:
                raise ValueError
        except ValueError:
            ap.error("--uid needs 16 hex digits")
    pretend = None
    if args.pretend_version is not None or args.pretend_mpy is not None:
        version = args.pretend_version or (1, 29, 0)
        mpy = args.pretend_mpy if args.pretend_mpy is not None else mpy_version_of(version)
        pretend = (version, mpy)
    board_dir = args.dir or os.path.join(home(), "flash")
    control = args.control or home()
    for path, what in ((board_dir, "--dir"), (control, "--control")):
        try:
            os.makedirs(path, exist_ok=True)
        except OSError as e:
            print("vboard: cannot use %s as %s: %s" % (path, what, e.strerror), file=sys.stderr)
            return 2
        if not os.access(path, os.W_OK):
            print("vboard: cannot use %s as %s: not writable" % (path, what), file=sys.stderr)
            return 2
    try:
        find_micropython()
    except RuntimeError as e:
        print("vboard: %s" % e, file=sys.stderr)
        return 2
    board = VBoard(board_dir, control, args.heap, args.uid, args.pn532_bus, args.free,
                   pretend, args.pn532_reset, pico_w=args.pico_w)
    try:
        port = board.open()
    except VBoardError as e:
        print("vboard: %s" % e, file=sys.stderr)
        return 2
    except OSError as e:  # e.g. a control path too long for a Unix socket
        print("vboard: cannot open the control socket %s: %s" % (board.ctl_path, e),
              file=sys.stderr)
        return 2
    sys.stdout.write(port + "\n")
    sys.stdout.write("control %s\n" % board.ctl_path)
    if sys.stdin.isatty() and not args.no_prompt:
        sys.stdout.write("flash %s; type help for the commands\n" % board.board_dir)
    sys.stdout.flush()
    try:
        board.serve(prompt=not args.no_prompt)
    except BaseException:
        board.close()
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
