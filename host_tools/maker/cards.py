"""`python -m host_tools cards ...`: the board's card registry over its serial link.

    cards enroll --port PORT [--card HUNA-1]    walk through the cards not enrolled yet
                                                (or enrol one again: a lost card)
    cards list   --port PORT                    which tag is which card, which are missing
    cards export --port PORT FILE               save the registry as JSON {uid: card}
    cards import --port PORT FILE               load it into the board (checked whole first)

    --game NAME / --board FILE: the board's game (default: board_def/kahuna.json's).

A game whose cards carry values (Halunken's crew cards, H2: the number printed on the
card) enrols each such card with its value: `--card RED-3 --value 5`, or for a walk
`--values FILE`, a JSON object {card: value} (`--values default`: the rules' default
table, COLOUR-k worth k). A card that needs a value and has none is refused before the
board is asked; the board checks it again and writes it into the tag's text
(`Halunken & Spelunken RED-3 value 5`). `list` shows the values; `export` writes a tag
with a value as [card, value], which `import` takes back.

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
from core.cardvalues import check_value
from host_tools import gamearg
from host_tools.maker.linkclient import LinkClient, PortError
from host_tools.mpy import ROOT
from host_tools.paths import BOARD_DEF

BOARD = BOARD_DEF


class Deck:
    """The board's game's cards: `names`, `value_range` (None: names only), `title`."""

    def __init__(self, path):
        board = boardmod.load(path, keep_raw=False)
        game_def = gameload.load(board.game)
        self.game = board.game
        self.title = game_def.TITLE
        self.names = game_def.card_names(board)
        self.value_range = getattr(game_def, "card_value_range", None)

    def valued(self, card):
        return self.value_range is not None and self.value_range(card) is not None


def deck():
    return Deck(BOARD).names


def other_game(reg, d):
    """None when the board's registry `reg` (its `cards` answer) holds the cards of Deck
    `d`'s game; else the words for a board flashed with another game: `plays kami, not
    kahuna: give --game kami`."""
    theirs = set(reg["cards"].values()) | set(reg["missing"])
    if theirs == set(d.names):
        return None
    other = game_of(theirs)
    return "plays %s, not %s: give --game %s" % (other or "another game", d.game,
                                                 other or "NAME")


def game_of(cards):
    """The game of the board definition in board_def/ whose cards are `cards` (a board's
    registry: enrolled and missing), or None."""
    folder = os.path.join(ROOT, "board_def")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json"):
            d = Deck(os.path.join(folder, name))
            if set(d.names) == set(cards):
                return d.game
    return None


def default_values(names, valued):
    """H2's default table: the k-th card of a colour (its name's number) is worth k."""
    return dict((n, int(n.rsplit("-", 1)[1])) for n in names if valued(n))


def values_for(args, d, cards):
    """{card: value} for the cards to enrol that carry one (--value, --values), checked;
    ValueError names the fault (a card without a value, a value out of range)."""
    given = {}
    if args.values == "default":
        given = default_values(d.names, d.valued)
    elif args.values:
        try:
            with open(args.values) as f:
                given = json.load(f)
        except (OSError, ValueError) as e:
            raise ValueError("cannot read the values in %s: %s" % (args.values, e)) from None
        if not isinstance(given, dict):
            raise ValueError("%s must be a JSON object {card: value}" % args.values)
    if args.value is not None:
        if not args.card:
            raise ValueError("--value goes with --card (one card); --values FILE for many")
        given = dict(given)
        given[args.card] = args.value
    out = {}
    for card in cards:
        if not d.valued(card):
            if args.value is not None and card == args.card:
                raise ValueError("%s carries no value" % card)
            continue
        if card not in given:
            low, high = d.value_range(card)
            raise ValueError("%s is enrolled with its value (the number printed on it, %d "
                             "to %d): --card %s --value N, or --values FILE"
                             % (card, low, high, card))
        try:
            out[card] = check_value(card, given[card], d.value_range)
        except RegistryError as e:
            raise ValueError(str(e)) from None
    return out


def enroll(link, cards, timeout, out, values=None, islands=True):
    """`islands`: the board lights a card's island (Kahuna: HUNA for HUNA-1), which the
    prompt names; else it says the board shows where."""
    done = 0
    values = values or {}
    for card in cards:
        lit = "%s is lit" % card.rsplit("-", 1)[0] if islands else "the board lights it"
        while True:
            ask = {"cmd": "enroll", "card": card}
            if card in values:
                ask["value"] = values[card]  # H2: recorded with the tag
            link.send(ask)
            # Prompt only once the board waits (its island lit): a card laid before that
            # would count as a game tap, not an enrollment.
            ready = link.wait(("enroll-wait",), 10)
            if ready is None or "error" in ready:
                out("the board did not start enrolling %s: %s"
                    % (card, (ready or {}).get("error", "no answer")))
                return 1
            out("lay the tag for %s on the reader (%s)" % (card, lit))
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
                worth = " worth %d" % msg["value"] if "value" in msg else ""
                out("%s enrolled%s: tag %s (%s)" % (card, worth, msg["uid"],
                                                    msg.get("tag", "NTAG")))
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


def stored_form(reg):
    """The board's `cards` answer as the registry file holds it: {uid: card}, and
    [card, value] for a tag enrolled with a value (what `import` takes back)."""
    worth = reg.get("values", {})
    return dict((uid, [card, worth[card]] if card in worth else card)
                for uid, card in reg["cards"].items())


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools cards")
    ap.add_argument("action", choices=("enroll", "list", "export", "import"))
    ap.add_argument("file", nargs="?", help="the JSON file for export and import")
    ap.add_argument("--port", help="the board's serial device (default: the first Pico "
                                   "found)")
    ap.add_argument("--card", help="enrol only this card (a lost one): ISLAND-1 or ISLAND-2")
    ap.add_argument("--value", type=int, help="the value of --card, for a card that carries "
                                              "one (Halunken's crew cards, H2)")
    ap.add_argument("--values", metavar="FILE", help="the values of the cards that carry "
                    "one, JSON {card: value}; 'default' for the rules' default table")
    ap.add_argument("--board", help="the board definition (default: board_def/kahuna.json)")
    gamearg.add(ap)
    ap.add_argument("--timeout", type=float, default=300.0,
                    help="seconds to wait for each tag (default 300)")
    args = ap.parse_intermixed_args(argv)  # `export --port P FILE` as well as `export FILE ...`
    chosen = gamearg.resolve("cards", args.game, args.board, "cards")
    if chosen is None:
        return 2
    d = Deck(chosen[1])
    names = d.names
    if args.card and args.card not in names:
        if d.game == "kahuna":
            print("cards: %s is not a Kahuna card (ISLAND-1 or ISLAND-2)" % args.card,
                  file=sys.stderr)
        else:
            print("cards: %s is not a %s card (%s, ...)" % (args.card, d.title,
                                                             ", ".join(names[:3])),
                  file=sys.stderr)
        return 2
    if args.action != "enroll" and (args.value is not None or args.values):
        print("cards: --value and --values are for enroll", file=sys.stderr)
        return 2
    if args.action == "enroll" and args.card:
        try:  # a card that needs a value and has none: refused before the board is asked
            values_for(args, d, [args.card])
        except ValueError as e:
            print("cards: %s" % e, file=sys.stderr)
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
            Registry(names, entries, d.value_range)  # refuse a broken file first
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
        wrong = other_game(reg, d)
        if wrong:
            print("cards: the board on %s %s" % (args.port, wrong), file=sys.stderr)
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
            try:
                values = values_for(args, d, cards)
            except ValueError as e:
                print("cards: %s" % e, file=sys.stderr)
                return 2
            return enroll(link, cards, args.timeout, out, values, d.game == "kahuna")
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
                    json.dump(stored_form(reg), f, indent=1, sort_keys=True)
            except OSError as e:
                print("cards: cannot write %s: %s" % (args.file, e), file=sys.stderr)
                return 2
            out("%d cards exported to %s" % (len(reg["cards"]), args.file))
            return 0
        by_card = dict((card, uid) for uid, card in reg["cards"].items())
        worth = reg.get("values", {})
        for card in names:
            line = "%-7s %s" % (card, by_card.get(card, "-- not enrolled --"))
            out(line + (" worth %d" % worth[card] if card in worth else ""))
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
