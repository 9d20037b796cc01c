"""`python -m host_tools cards ...`: the board's card registry over its serial link.

    cards enroll --port PORT [--card HUNA-1]    walk through the cards not enrolled yet
                                                (or enrol one again: a lost card)
    cards list   --port PORT                    which tag is which card, which are missing
    cards export --port PORT FILE               save the registry as JSON {uid: card}
    cards import --port PORT FILE               load it into the board (checked whole first)

Enrolling: the board lights the card's island and the prompt names the card (`lay the
tag for HUNA-1 on the reader`). The tag must be an NTAG213/215/216 not enrolled as another
card; the board writes an NDEF text record naming the card (`Kahuna HUNA-1`) so a phone
shows it. A refused tag is explained and the same card is asked for again. Ctrl-C stops
the board's enrolment too; the next `enroll` goes on with the cards still missing.
"""

import argparse
import json
import os
import sys
import time

from core import board as boardmod
from core import gameload
from core.cards import Registry, RegistryError
from host_tools.maker.linkclient import LinkClient, PortError
from host_tools.paths import BOARD_DEF

BOARD = BOARD_DEF


def deck():
    board = boardmod.load(BOARD, keep_raw=False)
    return gameload.load(board.game).card_names(board)


def enroll(link, cards, timeout, out):
    done = 0
    for card in cards:
        island = card.rsplit("-", 1)[0]
        while True:
            link.send({"cmd": "enroll", "card": card})
            # Prompt only once the board waits (its island lit): a card laid before that
            # would count as a game tap, not an enrollment.
            ready = link.wait(("enroll-wait",), 10)
            if ready is None or "error" in ready:
                out("the board did not start enrolling %s: %s"
                    % (card, (ready or {}).get("error", "no answer")))
                return 1
            out("lay the tag for %s on the reader (%s is lit)" % (card, island))
            msg = link.wait(("enrolled", "enroll-refused"), timeout)
            if msg is None:
                link.send({"cmd": "enroll", "stop": True})
                out("no tag within %.0f s: enrollment stopped at %s" % (timeout, card))
                if any(line.startswith("Traceback") for line in link.device):
                    out("the board printed:\n  " + "\n  ".join(link.device))
                return 1
            if "error" in msg:
                out("the board says: %s" % msg["error"])
                return 1
            if msg["event"] == "enrolled":
                done += 1
                out("%s enrolled: tag %s (%s)" % (card, msg["uid"], msg.get("tag", "NTAG")))
                break
            out("refused: %s. Tap another tag for %s." % (msg["reason"], card))
    out("%d card%s enrolled" % (done, "" if done == 1 else "s"))
    return 0


READY_S = 10.0  # a board just flashed or reset takes a few seconds to listen
ASK_EVERY_S = 1.0


def registry(link, timeout, every=ASK_EVERY_S):
    """The board's card registry. The request is sent again every `every` s until `timeout`:
    a board still booting (right after `make flash`, a reset, plugging in) loses what it
    is sent before its link listens. PortError, one line, if it never answers."""
    deadline = time.time() + timeout
    msg = None
    while True:
        link.send({"cmd": "cards"})
        msg = link.wait(("cards",), max(0.0, min(every, deadline - time.time())))
        if msg is not None and "error" not in msg or time.time() >= deadline:
            break
    if msg is None or "error" in msg:
        raise PortError("the board did not send its card registry within %.0f s%s" % (
            timeout, ": " + msg["error"] if msg else " (is the Kahuna firmware running?)"))
    return msg


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools cards")
    ap.add_argument("action", choices=("enroll", "list", "export", "import"))
    ap.add_argument("file", nargs="?", help="the JSON file for export and import")
    ap.add_argument("--port", help="the board's serial device (default: the first Pico "
                                   "found)")
    ap.add_argument("--card", help="enrol only this card (a lost one): ISLAND-1 or ISLAND-2")
    ap.add_argument("--timeout", type=float, default=300.0,
                    help="seconds to wait for each tag (default 300)")
    args = ap.parse_intermixed_args(argv)  # `export --port P FILE` as well as `export FILE ...`
    names = deck()
    if args.card and args.card not in names:
        print("cards: %s is not a Kahuna card (ISLAND-1 or ISLAND-2)" % args.card,
              file=sys.stderr)
        return 2
    if args.action in ("export", "import") and not args.file:
        print("cards: %s needs a FILE" % args.action, file=sys.stderr)
        return 2
    if args.action == "export":
        folder = os.path.dirname(os.path.abspath(args.file))
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
            print("cards: cannot write %s: %s is not a folder we may write in"
                  % (args.file, folder), file=sys.stderr)
            return 2
    entries = None
    if args.action == "import":
        try:
            with open(args.file) as f:
                entries = json.load(f)
            Registry(names, entries)  # refuse a broken file before touching the board
        except (OSError, ValueError, AttributeError, RegistryError) as e:
            print("cards: %s is not a card registry: %s" % (args.file, e), file=sys.stderr)
            return 2
    from host_tools.maker.findport import choose
    args.port = choose("cards", args.port,
                       "python -m host_tools cards %s --port /dev/ttyACM0" % args.action)
    if args.port is None:
        return 2
    try:
        link = LinkClient(args.port)
    except PortError as e:
        print("cards: %s" % e, file=sys.stderr)
        return 2

    def out(text):
        print(text, flush=True)

    try:
        try:
            reg = registry(link, READY_S)  # the board is up and listening (it may boot)
        except PortError as e:
            print("cards: %s on %s" % (e, args.port), file=sys.stderr)
            return 2
        if args.action == "enroll":
            if args.card:
                cards = [args.card]
            else:
                missing = reg["missing"]
                cards = [c for c in names if c in missing]
                if not cards:
                    out("all %d cards are enrolled (--card CARD enrols one again)"
                        % len(names))
                    return 0
                out("%d card%s to enrol: %s" % (len(cards), "" if len(cards) == 1 else "s",
                                               " ".join(cards)))
            return enroll(link, cards, args.timeout, out)
        if args.action == "import":
            link.send({"cmd": "cards", "set": entries})
            msg = link.wait(("cards",), 10)
            if msg is None or "error" in msg:
                out("the board refused the registry: %s" % (msg or {}).get("error", "no answer"))
                return 1
            out("%d cards imported, %d missing" % (len(msg["cards"]), len(msg["missing"])))
            return 0
        if args.action == "export":
            try:
                with open(args.file, "w") as f:
                    json.dump(reg["cards"], f, indent=1, sort_keys=True)
            except OSError as e:
                print("cards: cannot write %s: %s" % (args.file, e), file=sys.stderr)
                return 2
            out("%d cards exported to %s" % (len(reg["cards"]), args.file))
            return 0
        by_card = dict((card, uid) for uid, card in reg["cards"].items())
        for card in names:
            out("%-7s %s" % (card, by_card.get(card, "-- not enrolled --")))
        out("%d enrolled, %d missing" % (len(reg["cards"]), len(reg["missing"])))
        return 0
    except KeyboardInterrupt:
        if args.action == "enroll":
            try:
                link.send({"cmd": "enroll", "stop": True})  # the board back to the game
            except OSError:
                pass
        print("\ncards: interrupted%s" % (": enrolment stopped" if args.action == "enroll"
                                           else ""), file=sys.stderr)
        return 130
    except RuntimeError as e:  # the board did not answer
        print("cards: %s on %s: is the board's firmware running? (make flash)"
              % (e, args.port), file=sys.stderr)
        return 1
    except (OSError, ValueError) as e:  # serial.SerialException: the port went away
        print("cards: lost the board on %s: %s" % (args.port, e), file=sys.stderr)
        return 1
    finally:
        link.close()
