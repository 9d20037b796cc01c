"""Kahuna's words in the scenario language (docs/scenarios.md): its options (the rules'
settings, and `seed` for a table of cards), `draw N|deck`, `pick CONNECTION` and
`takeback` (`back` held: whole turns taken back, games.kahuna.takeback). The
neutral verbs (tap, hold, press, wait, power-cut, expect, option's form) are
`host_tools.simulator.scenario`'s."""


from games.kahuna import settings as kahunasettings
from host_tools.simulator.scenario import ScenarioError

CARDS_ARE = "cards are ISLAND-1 or ISLAND-2"  # what an unknown card's message says
VERBS = ("draw", "pick", "takeback")
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
    keys = tuple(k for k in kahunasettings.SETTING_KEYS if k != "remote")  # its host's
    if key not in keys:
        raise ScenarioError(line, "unknown option %r (%s)" % (key, ", ".join(keys + ("seed",))))
    setting = value
    if key == "ai" and value == "none":
        setting = None
    if key == "ai_level":  # a number in the rules' JSON form
        setting = int(value) if value.isdigit() else value
    if key == "handicap":  # white:N in a scenario, [player, N] in the rules' JSON form
        who, colon, n = value.partition(":")
        setting = [who, int(n) if colon and n.isdigit() else n]
    try:
        kahunasettings.check_settings({key: setting})
    except ValueError as e:
        if key == "handicap":
            raise ScenarioError(line, "option handicap must be white:N or black:N with N "
                                      "1..%d, got %r" % (kahunasettings.HANDICAP_MAX, value)
                                      ) from None
        raise ScenarioError(line, "option %s" % (e,)) from None
    return key, setting


def parse_verb(name, args, line, board, need):
    """A Kahuna verb -> its command list; `need(n, usage)` checks the argument count."""
    if name == "draw":
        need(1, "draw N|deck")
        if args[0] != "deck" and args[0] not in ("1", "2", "3"):
            raise ScenarioError(line, "usage: draw N|deck (N 1..3: the display's Nth card)")
        return [line, name, args[0]]
    if name == "takeback":
        need(0, "takeback")
        return [line, name]
    need(1, "pick CONNECTION")  # pick
    if args[0] not in board.conn_index:
        hint = ""
        ends = args[0].split("-")
        if len(ends) == 2 and "-".join(sorted(ends)) in board.conn_index:
            hint = " (did you mean %s?)" % "-".join(sorted(ends))
        raise ScenarioError(line, "unknown connection %r%s" % (args[0], hint))
    return [line, name, args[0]]
