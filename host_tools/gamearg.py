"""`--game NAME`, the option the commands that play or show a game share (sim, scengen,
duel, soak, bench, monitor, vboard, web): which game, by its name. Without it the game is
the board definition's (`--board`, default board_def/kahuna.json), as it always was; with
it and no --board, the board is board_def/NAME.json. A name the firmware does not know, a
game whose host package (host_tools/games/NAME/) lacks what the command needs, or a board
definition for another game is one line on standard error and exit status 2."""

import json
import os
import sys

from host_tools import FIRMWARE, ROOT
from host_tools import games as hostgames
from host_tools.paths import BOARD_DEF

# Every part a game's host package (host_tools/games/<game>/) can provide, each a module
# of that name, and what it holds.
PARTS = {
    "verbs": "the scenario language's game verbs and options (scenario parsing)",
    "simgame": "the game's side of a simulation: its verbs' effects, a table of cards",
    "simreport": "the simulator's JSON report in the contract's order, and its summary",
    "play": "interactive play in a terminal",
    "scenwrite": "rules actions written as scenario lines; random whole games as scenarios",
    "randgame": "random legal games",
    "invariants": "what must hold after every action of a game",
    "soakplay": "the soak's events: actions as the board's inputs, garbage to refuse",
    "baselines": "simple players the AI is measured against",
    "duelgames": "whole games between the AI and the baselines",
    "benchfigures": "the game's figures of the speed and memory table",
    "textboard": "the board drawn as text",
    "narrate": "what an event changed, in words",
    "picture": "the board drawn as SVG and PNG",
    "chipplay": "the chip benchmark's cards, taps and solo game on the emulated RP2040",
    "guidepages": "the player's guide, pages to print (make guide)",
    "replay": "an archived game of the board replayed move by move (the live page)",
    "record": "a finished game's journal written as a scenario (a game record)",
    "hwplaces": "where the board's pixels sit and what they are, for the maker's documents",
    "webgame": "the game's side of the browser page: its requests, public state and hints",
    "remote": "remote play: the dealer's game with its hidden cards, a seat's options",
    "remoteboard": "a board at a remote table: its settings, what its bridge adds to events",
}

# What each command needs of the game (the command's word for the game's tool first).
NEEDS = {
    "sim": ("simulator", ("verbs", "simgame", "simreport")),
    "play": ("terminal play", ("verbs", "simgame", "play")),
    "render": ("picture of the board", ("picture",)),
    "scengen": ("scenario generator", ("scenwrite",)),
    "soak": ("soak", ("soakplay", "randgame", "scenwrite", "invariants")),
    "duel": ("duel", ("duelgames", "baselines")),
    "bench": ("bench", ("benchfigures", "randgame", "scenwrite")),
    "monitor": ("monitor", ("textboard", "narrate")),
    "vboard": ("virtual board", ()),  # the firmware alone: a board definition for it
    "chipbench": ("chip benchmark", ("chipplay",)),
    "guide": ("player's guide", ("guidepages",)),
    # `web`: the live page of a board on its serial link; `page`: the static browser
    # page (`web --build`), which offers every game that provides its parts.
    "web": ("live page", ("verbs", "simgame", "simreport", "narrate", "picture", "textboard")),
    "page": ("web page", ("verbs", "simgame", "simreport", "picture", "webgame")),
    "hardware": ("maker documents", ("hwplaces",)),
    "cards": ("card registry", ()),  # the firmware alone: its cards and their values
    "remote": ("remote play", ("remote",)),
}


def known():
    """The games of the firmware, by name, sorted."""
    folder = FIRMWARE + "/games"
    return sorted(d for d in os.listdir(folder)
                  if os.path.isfile(folder + "/" + d + "/game.py"))


def check(game, command):
    """Raise NoGame (one line) unless `game` is a game of the firmware whose host package
    provides what `command` (a key of NEEDS) needs."""
    games = known()
    if game not in games:
        raise hostgames.NoGame("unknown game %r (the games: %s)" % (game, ", ".join(games)))
    what, needs = NEEDS[command]
    have = hostgames.provides(game)
    missing = [p for p in needs if p not in have]
    if missing:
        raise hostgames.NoGame("%s has no %s yet (host_tools/games/%s/ does not provide %s)"
                     % (game, what, game, ", ".join(missing)))


def add(ap):
    """Add --game to the argparse parser `ap`."""
    ap.add_argument("--game", metavar="NAME",
                    help="the game (%s; default: the board definition's game)"
                         % ", ".join(known()))


def board_game(path):
    """The game a board definition file names, or None when it cannot be read (the
    command's own loading then says why)."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f).get("game")
    except (OSError, ValueError, AttributeError):
        return None


def choose(game, board_path, command):
    """(game, board path) for `command` (a key of NEEDS) from --game and
    --board (None when not given); raises host_tools.games.NoGame with the line to say."""
    if game is not None:
        check(game, command)
        if board_path is None:
            board_path = BOARD_DEF if game == board_game(BOARD_DEF) else os.path.join(
                ROOT, "board_def", game + ".json")
            if not os.path.isfile(board_path):
                raise hostgames.NoGame("%s has no board definition yet (board_def/%s.json)"
                                       % (game, game))
        named = board_game(board_path)
        if named is not None and named != game:
            raise hostgames.NoGame("%s is a board for %s, not %s" % (board_path, named, game))
        return game, board_path
    if board_path is None:
        board_path = BOARD_DEF
    named = board_game(board_path)
    if named in known():  # else the board's own checks say what is wrong
        check(named, command)
    return named, board_path


def resolve(prog, game, board_path, command):
    """`choose`, with its refusal said as `prog: ...` on standard error: (game, board
    path), or None (the command then exits with status 2)."""
    try:
        return choose(game, board_path, command)
    except hostgames.NoGame as e:
        print("%s: %s" % (prog, e), file=sys.stderr)
        return None
