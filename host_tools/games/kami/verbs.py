"""Kami's words in the scenario language (docs/scenarios.md, "Kami"): its options
(players, mode, first, target, deal, seed; the extension `ai`, the seats the board plays),
`deal p1:CARD,... p2:...` (a stated deal) and `pick pN` (the 5-Soldier claimant). The
neutral verbs (tap, hold, press, wait, power-cut, expect, option's form) are
`host_tools.simulator.scenario`'s.

Each option line is checked on its own (a bad key or value: that line); `finish` then
checks them together (settings that disagree: the later line of the two; an option after
the first tap, hold, press, pick or deal: that line) and every `deal` line against the
number of players (dealing.parse, the firmware's own reader of a deal: that line), and
turns the options into one command, `option settings {...}`: the game's settings in their
JSON form (games/kami/settings.py), so the board starts the game once, as a whole.
"""

from games.kami import dealing
from games.kami.settings import DEALS, MODES, SEED_MAX, check_settings
from host_tools.simulator.scenario import ScenarioError

CARDS_ARE = ("cards are SOLDAT-1..10, LANCE-1..4, CAVALIER-1..4, ARGENT-1..4, OR-1..4, "
             "TOUR-1..2, FOU-1..2, IMPERATRICE-1..2")
VERBS = ("pick", "deal")
KEYS = ("players", "mode", "first", "target", "deal", "seed", "ai")
SEATS = ("p1", "p2", "p3", "p4")
EVENTS = ("tap", "hold", "press", "press-long", "pick", "deal")  # options come before these


def _whole(key, value, low, high, line):
    if not value.isdigit() or not low <= int(value) <= high:
        raise ScenarioError(line, "option %s must be a whole number %d..%d, got %r"
                            % (key, low, high, value))
    return int(value)


def check_option(arg, line):
    """`option KEY=VALUE` -> (key, value): one line's own checks."""
    key, eq, value = arg.partition("=")
    if not eq:
        raise ScenarioError(line, "option takes KEY=VALUE, got %r" % arg)
    if key == "players":
        if value not in ("2", "3", "4"):
            raise ScenarioError(line, "option players must be 2, 3 or 4, got %r" % value)
        return key, int(value)
    if key == "mode":
        if value not in MODES:
            raise ScenarioError(line, "option mode must be %s, got %r"
                                % (", ".join(MODES), value))
        return key, value
    if key == "first":
        if value not in SEATS:
            raise ScenarioError(line, "option first must be a seat p1..p4, got %r" % value)
        return key, value
    if key == "target":
        return key, _whole(key, value, 1, 15, line)
    if key == "deal":
        if value not in DEALS:
            raise ScenarioError(line, "option deal must be table, given or seed, got %r"
                                % value)
        return key, value
    if key == "seed":
        return key, _whole(key, value, 0, SEED_MAX, line)
    if key == "ai":  # an extension of the contract: the seats the board plays
        seats = value.split(",")
        if any(x not in SEATS for x in seats) or len(set(seats)) != len(seats):
            raise ScenarioError(line, "option ai must list seats p1..p4, each once "
                                      "(e.g. p2,p3), got %r" % value)
        return key, seats
    raise ScenarioError(line, "unknown option %r (%s)" % (key, ", ".join(KEYS)))


def parse_verb(name, args, line, board, need):
    """`pick pN` (a seat p1..p4; anything else is exit 2) and `deal FIELD ...` (its
    fields are checked in `finish`, once the number of players is known)."""
    if name == "pick":
        need(1, "pick pN (a seat p1..p4)")
        if args[0] not in SEATS:
            raise ScenarioError(line, "pick takes a seat p1..p4, got %r" % args[0])
        return [line, name, args[0]]
    if not args:
        raise ScenarioError(line, "usage: deal p1:CARD,... p2:CARD,... [p3:...] [p4:...] "
                                  "[aside:CARD,CARD] [centre:UP/DOWN,...]")
    return [line, name, " ".join(args)]


def settings(options, lines):
    """The game's settings (JSON form) from the checked options {key: value}; a
    ScenarioError at the later of the lines that disagree."""
    out = {}
    for key in ("players", "mode", "first", "target", "ai"):
        if key in options:
            out[key] = options[key]
    deal = options.get("deal")
    if "seed" in options:
        if deal is not None and deal != "seed":
            raise ScenarioError(max(lines["seed"], lines["deal"]),
                                "seed sets deal=seed, not deal=%s" % deal)
        out["seed"] = options["seed"]
    if deal is not None:
        out["deal"] = deal
    if "first" in options:
        n = options.get("players", 4)
        if int(options["first"][1:]) > n:
            raise ScenarioError(max(lines["first"], lines.get("players", 0)),
                                "option first=%s: a game of %d players has seats p1..p%d"
                                % (options["first"], n, n))
    try:
        return check_settings(out)  # the settings as the board takes them
    except ValueError as e:
        raise ScenarioError(max(lines.values()), "the options disagree: %s" % (e,)) from None


def finish(commands, last_line):
    """The parsed commands with the option lines checked together and replaced by one
    `[line, "option", "settings", SETTINGS]` (the line of the first option, or 1), and
    every `deal` line checked against the number of players."""
    options = {}
    lines = {}
    started = None  # the first event's command
    rest = []
    for cmd in commands:
        if cmd[1] != "option":
            if started is None and cmd[1] in EVENTS:
                started = cmd
            rest.append(cmd)
            continue
        line, key, value = cmd[0], cmd[2], cmd[3]
        if started is not None:
            raise ScenarioError(line, "option after the first %s (line %d): the options "
                                      "come before every event" % (started[1], started[0]))
        options[key] = value
        lines[key] = line
    chosen = settings(options, lines)
    for cmd in rest:
        if cmd[1] == "deal":
            try:
                dealing.parse(cmd[2], chosen["players"])
            except ValueError as e:
                raise ScenarioError(cmd[0], "deal: %s" % (e,)) from None
    first = min(lines.values()) if lines else 1
    return [[first, "option", "settings", chosen]] + rest
