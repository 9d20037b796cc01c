"""The scenario language of docs/scenarios.md: text in, checked commands out.

`parse(text, board)` returns commands as lists `[line, name, args...]` (JSON-friendly, so
they can be handed to the MicroPython runtime), or raises `ScenarioError` naming the line.
The neutral verbs are here (tap, hold, press, wait, power-cut, expect, and option's form);
the game's verbs and options are its host package's `verbs` part (host_tools/games/), which
`verbs(board)` finds by the board definition's game.
"""

from core import gameload
from core.board import ROLES as BUTTONS
from core.cards import parse_uid
from host_tools import games as hostgames

MAX_MS = 24 * 3600 * 1000  # a day of virtual time is plenty for one command


class ScenarioError(ValueError):
    def __init__(self, line, message):
        super().__init__("line %d: %s" % (line, message))
        self.line = line
        self.message = message


def verbs(board):
    """The game's scenario words (host_tools/games/<game>/verbs.py)."""
    return hostgames.part(board.game, "verbs")


def card_names(board):
    """The game's card names, what `tap` and `hold` take (the game's interface)."""
    return gameload.load(board.game).card_names(board)


def check_card(text, cards, line, cards_are="cards are"):
    if text.startswith("uid:"):
        h = text[4:]
        try:
            parse_uid(h)
        except ValueError:
            raise ScenarioError(line, "bad tag %r: uid: takes a 4-, 7- or 10-byte UID in "
                                      "hex, e.g. uid:04A224B2C35E80" % text) from None
        return "uid:" + h.upper()
    if text not in cards:
        raise ScenarioError(line, "unknown card %r: %s, e.g. %s" % (text, cards_are, cards[1]))
    return text


def check_ms(text, line):
    try:
        ms = int(text)
    except ValueError:
        ms = -1
    if not 0 <= ms <= MAX_MS:
        raise ScenarioError(line, "bad duration %r: milliseconds, a whole number >= 0" % text)
    return ms


def check_option(arg, line, board):
    """`option KEY=VALUE` -> (key, value in the game's settings' JSON form)."""
    return verbs(board).check_option(arg, line)


def parse_line(text, line, board, cards, started, game_verbs=None):
    """One line -> a command list, or None for a blank line or comment. `game_verbs`: the
    game's `verbs` part (found from the board when not given)."""
    game = game_verbs if game_verbs is not None else verbs(board)
    uncomment = getattr(game, "uncomment", None)  # a game whose values may hold a #
    words = (uncomment(text) if uncomment is not None else text.split("#", 1)[0]).split()
    if not words:
        return None
    name, args = words[0], words[1:]

    def need(n, usage):
        if len(args) != n:
            raise ScenarioError(line, "usage: %s" % usage)

    if name == "option":
        need(1, "option KEY=VALUE")
        if started:
            raise ScenarioError(line, "option after the first tap or hold: settings come "
                                      "before the deal")
        key, value = game.check_option(args[0], line)
        return [line, name, key, value]
    if name in game.VERBS:
        return game.parse_verb(name, args, line, board, need)
    if name == "tap":
        need(1, "tap CARD")
        return [line, name, check_card(args[0], cards, line, game.CARDS_ARE)]
    if name == "hold":
        need(2, "hold CARD MS")
        return [line, name, check_card(args[0], cards, line, game.CARDS_ARE),
                check_ms(args[1], line)]
    if name == "press":
        if len(args) == 2 and args[1] == "long":  # held down: the button's hold action
            args = args[:1]
            name = "press-long"
        need(1, "press BUTTON [long]")
        if args[0] not in BUTTONS:
            raise ScenarioError(line, "unknown button %r (%s)" % (args[0], ", ".join(BUTTONS)))
        return [line, name, args[0]]
    if name == "wait":
        need(1, "wait MS")
        return [line, name, check_ms(args[0], line)]
    if name == "power-cut":
        need(0, "power-cut")
        return [line, name]
    if name == "expect":
        if len(args) < 2:
            raise ScenarioError(line, "usage: expect PATH VALUE")
        return [line, name, args[0], " ".join(args[1:])]
    raise ScenarioError(line, "unknown command %r" % name)


def parse(text, board):
    cards = card_names(board)
    game = verbs(board)
    commands = []
    started = False
    lines = text.split("\n")
    for n, raw in enumerate(lines, 1):
        cmd = parse_line(raw, n, board, cards, started, game)
        if cmd is not None:
            started = started or cmd[1] in ("tap", "hold")
            commands.append(cmd)
    finish = getattr(game, "finish", None)
    if finish is not None:  # the game's checks of the whole (its options together)
        last = len(lines) - (1 if len(lines) > 1 and lines[-1] == "" else 0)
        commands = finish(commands, last)
    return commands
