"""Halunken & Spelunken's words in the scenario language (docs/scenarios.md, "Halunken &
Spelunken"): its options (players, mode, first, the deal: deal, seed, pile.Tn, bj;
colour.pN; the extension `ai`, the seats the board plays) and `pick Tn|N`. The neutral
verbs (tap, hold, press, wait, power-cut, expect, option's form) are
`host_tools.simulator.scenario`'s.

Each option line is checked on its own (a bad key or value: that line); `finish` then
checks them together (a repeated pile or a card in two piles: that line; settings that
disagree: the first line after the options, blank or not, the last line if there is none) and turns
them into one command, `option settings {...}`: the game's settings in their JSON form
(games/halunken/settings.py), so the board starts the game once, as a whole.
"""

from games.halunken import deck
from games.halunken.settings import MODES, check_settings
from host_tools.simulator.scenario import ScenarioError

CARDS_ARE = ("cards are crew cards COLOUR-k (RED-1..9, PURPLE-1..10, GREY-1..11, "
             "YELLOW-1..12), movement cards P1-1..P4-7 and P1-RUM..P4-RUM, BJ-1..BJ-12")
VERBS = ("pick",)
SEED_MAX = 2 ** 31 - 1
KEYS = ("players", "mode", "first", "deal", "seed", "pile.Tn", "bj", "colour.pN", "ai")
DEALS = ("table", "given", "seed")
SEATS = ("p1", "p2", "p3", "p4")
SPACES = tuple(deck.space_name(t) for t in range(deck.SPACES))


def uncomment(text):
    """The line without its comment: `#` starts one at the start of the line or after a
    space, so a colour `#RRGGBB` in `option colour.p1=#FF8000` is a value."""
    for i in range(len(text)):
        if text[i] == "#" and (i == 0 or text[i - 1] in " \t"):
            return text[:i]
    return text


def _bj_name(name):
    """Whether `name` is one of Black-Jack's cards in some mode (BJ-n, P3-X)."""
    if name.startswith("BJ-"):
        k = name[3:]
        return k.isdigit() and str(int(k)) == k and 1 <= int(k) <= 12
    return name.startswith("P3-") and deck.move_card(name[3:]) >= 0


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
    if key == "deal":
        if value not in DEALS:
            raise ScenarioError(line, "option deal must be table, given or seed, got %r"
                                % value)
        return key, value
    if key == "seed":
        if not value.isdigit() or int(value) > SEED_MAX:
            raise ScenarioError(line, "option seed must be a whole number 0..%d, got %r"
                                % (SEED_MAX, value))
        return key, int(value)
    if key.startswith("pile."):
        if key[5:] not in SPACES:
            raise ScenarioError(line, "unknown option %r: piles are pile.T1..pile.T14" % key)
        cards = value.split(",")
        if len(cards) != 3 or any(deck.crew_card(c) < 0 for c in cards):
            raise ScenarioError(line, "option %s must list 3 crew cards, top first "
                                      "(e.g. RED-4,PURPLE-5,RED-1), got %r" % (key, value))
        if len(set(cards)) != 3:
            raise ScenarioError(line, "option %s lists a card twice: %r" % (key, value))
        return key, cards
    if key == "bj":
        cards = value.split(",")
        if not all(_bj_name(c) for c in cards):
            raise ScenarioError(line, "option bj must list Black-Jack's cards, first turned "
                                      "first (BJ-1..BJ-12, or P3-1..P3-RUM in tactical), "
                                      "got %r" % value)
        return key, cards
    if key == "ai":  # an extension of the contract: the seats the board plays
        seats = value.split(",")
        if any(x not in SEATS for x in seats) or len(set(seats)) != len(seats):
            raise ScenarioError(line, "option ai must list seats p1..p4, each once "
                                      "(e.g. p2,p3), got %r" % value)
        return key, seats
    if key.startswith("colour."):
        if key[7:] not in SEATS:
            raise ScenarioError(line, "unknown option %r: seat colours are colour.p1.."
                                      "colour.p4" % key)
        hexa = value[1:]
        if len(value) != 7 or value[0] != "#" or any(ch not in "0123456789abcdefABCDEF"
                                                     for ch in hexa):
            raise ScenarioError(line, "option %s must be a colour #RRGGBB, got %r"
                                % (key, value))
        return key, value  # H31: the seat's light colour (settings `colours`)
    raise ScenarioError(line, "unknown option %r (%s)" % (key, ", ".join(KEYS)))


def parse_verb(name, args, line, board, need):
    """`pick X`: X is a space T1..T14 or a number 1..7; anything else is exit 2."""
    need(1, "pick Tn|N (a space T1..T14 or a number 1..7)")
    x = args[0]
    if x not in SPACES and x not in ("1", "2", "3", "4", "5", "6", "7"):
        raise ScenarioError(line, "pick takes a space T1..T14 or a number 1..7, got %r" % x)
    return [line, name, x]


def settings(options, line):
    """The game's settings (JSON form) from the checked options {key: value}, or a
    ScenarioError at `line` when they disagree."""
    deal = options.get("deal")
    given = [k for k in options if k.startswith("pile.") or k == "bj"]
    if deal is None:
        deal = "seed" if "seed" in options else ("given" if given else "table")
    if given and deal != "given":
        raise ScenarioError(line, "pile.Tn and bj state a given deal, not deal=%s" % deal)
    if "seed" in options and deal != "seed":
        raise ScenarioError(line, "seed sets deal=seed, not deal=%s" % deal)
    out = {}
    for key in ("players", "mode", "first", "ai"):
        if key in options:
            out[key] = options[key]
    out["deal"] = deal
    colours = {k[7:]: options[k] for k in options if k.startswith("colour.")}
    if colours:
        out["colours"] = colours
    if deal == "table":
        pass  # H33: the physical cards, tapped as they are taken
    elif deal == "seed":
        out["seed"] = options.get("seed", 0)
    else:
        missing = [t for t in SPACES if "pile." + t not in options]
        if missing:
            raise ScenarioError(line, "a given deal needs all 14 piles: no %s" % (
                ", ".join("pile." + t for t in missing)))
        out["piles"] = [options["pile." + t] for t in SPACES]
        if "bj" in options:
            out["bj"] = options["bj"]
    try:
        check_settings(out)  # the settings as the board takes them (card names)
    except ValueError as e:
        raise ScenarioError(line, "the options disagree: %s" % (e,)) from None
    return out


def finish(commands, last_line):
    """The parsed commands with the option lines checked together and replaced by one
    `[line, "option", "settings", SETTINGS]` (the line of the first option, or 1)."""
    options = {}
    seen = {}  # crew card -> the pile option that lists it
    first = None
    last = 0  # the last option's line
    rest = []
    for cmd in commands:
        if cmd[1] != "option":
            rest.append(cmd)
            continue
        line, key, value = cmd[0], cmd[2], cmd[3]
        if rest:
            raise ScenarioError(line, "option after the first event: the options come "
                                      "before every other command")
        if first is None:
            first = line
        last = line
        if key.startswith("pile."):
            if key in options:
                raise ScenarioError(line, "option %s given twice" % key)
            for card in value:
                if card in seen:
                    raise ScenarioError(line, "%s is already in %s" % (card, seen[card]))
                seen[card] = key
        options[key] = value
    after = min(last + 1, last_line)  # the first line after the options, else the last
    return [[first or 1, "option", "settings", settings(options, after)]] + rest
