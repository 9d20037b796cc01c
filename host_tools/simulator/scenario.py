"""The scenario language of docs/scenarios.md: text in, checked commands out.

`parse(text, board)` returns commands as lists `[line, name, args...]` (JSON-friendly, so
they can be handed to the MicroPython runtime), or raises `ScenarioError` naming the line.
"""

from core.board import ROLES as BUTTONS
from core.cards import parse_uid
from games.kahuna import rules
from games.kahuna.rules import card_names

MAX_MS = 24 * 3600 * 1000  # a day of virtual time is plenty for one command


class ScenarioError(ValueError):
    def __init__(self, line, message):
        super().__init__("line %d: %s" % (line, message))
        self.line = line
        self.message = message


def check_card(text, cards, line):
    if text.startswith("uid:"):
        h = text[4:]
        try:
            parse_uid(h)
        except ValueError:
            raise ScenarioError(line, "bad tag %r: uid: takes a 4-, 7- or 10-byte UID in "
                                      "hex, e.g. uid:04A224B2C35E80" % text) from None
        return "uid:" + h.upper()
    if text not in cards:
        raise ScenarioError(line, "unknown card %r: cards are ISLAND-1 or ISLAND-2, "
                                  "e.g. %s" % (text, cards[1]))
    return text


def check_ms(text, line):
    try:
        ms = int(text)
    except ValueError:
        ms = -1
    if not 0 <= ms <= MAX_MS:
        raise ScenarioError(line, "bad duration %r: milliseconds, a whole number >= 0" % text)
    return ms


SEED_MAX = 2 ** 31 - 1


def check_option(arg, line):
    key, eq, value = arg.partition("=")
    if not eq:
        raise ScenarioError(line, "option takes KEY=VALUE, got %r" % arg)
    if key == "seed":  # the simulator's table of cards, not a game setting
        if not value.isdigit() or int(value) > SEED_MAX:
            raise ScenarioError(line, "option seed must be a whole number 0..%d, got %r"
                                % (SEED_MAX, value))
        return key, int(value)
    if key not in rules.SETTING_KEYS:
        raise ScenarioError(line, "unknown option %r (%s)" % (
            key, ", ".join(rules.SETTING_KEYS + ("seed",))))
    setting = value
    if key == "ai" and value == "none":
        setting = None
    if key == "ai_level":  # a number in the rules' JSON form
        setting = int(value) if value.isdigit() else value
    if key == "handicap":  # white:N in a scenario, [player, N] in the rules' JSON form
        who, colon, n = value.partition(":")
        setting = [who, int(n) if colon and n.isdigit() else n]
    try:
        rules.check_settings({key: setting})
    except ValueError as e:
        if key == "handicap":
            raise ScenarioError(line, "option handicap must be white:N or black:N with N "
                                      "1..%d, got %r" % (rules.HANDICAP_MAX, value)) from None
        raise ScenarioError(line, "option %s" % (e,)) from None
    return key, setting


def parse_line(text, line, board, cards, started):
    """One line -> a command list, or None for a blank line or comment."""
    words = text.split("#", 1)[0].split()
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
        key, value = check_option(args[0], line)
        return [line, name, key, value]
    if name == "draw":
        need(1, "draw N|deck")
        if args[0] != "deck" and args[0] not in ("1", "2", "3"):
            raise ScenarioError(line, "usage: draw N|deck (N 1..3: the display's Nth card)")
        return [line, name, args[0]]
    if name == "tap":
        need(1, "tap CARD")
        return [line, name, check_card(args[0], cards, line)]
    if name == "hold":
        need(2, "hold CARD MS")
        return [line, name, check_card(args[0], cards, line), check_ms(args[1], line)]
    if name == "press":
        if len(args) == 2 and args[1] == "long":  # held down: the button's hold action
            args = args[:1]
            name = "press-long"
        need(1, "press BUTTON [long]")
        if args[0] not in BUTTONS:
            raise ScenarioError(line, "unknown button %r (%s)" % (args[0], ", ".join(BUTTONS)))
        return [line, name, args[0]]
    if name == "pick":
        need(1, "pick CONNECTION")
        if args[0] not in board.conn_index:
            hint = ""
            ends = args[0].split("-")
            if len(ends) == 2 and "-".join(sorted(ends)) in board.conn_index:
                hint = " (did you mean %s?)" % "-".join(sorted(ends))
            raise ScenarioError(line, "unknown connection %r%s" % (args[0], hint))
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
    commands = []
    started = False
    for n, raw in enumerate(text.split("\n"), 1):
        cmd = parse_line(raw, n, board, cards, started)
        if cmd is not None:
            started = started or cmd[1] in ("tap", "hold")
            commands.append(cmd)
    return commands
