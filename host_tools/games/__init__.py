"""The games' host parts, found by the game's name (the host side of docs/platform.md).

`host_tools/games/<game>/` holds what the host tools need of one game beside its firmware
package: its `__init__.py` lists the parts it provides in `PARTS`, each a module of that
name (host_tools/gamearg.py says what each part is and which command needs which). The
generic tools never import a game's host module by name: they ask `part(game, name)`.
Small on purpose: it runs inside MicroPython too (the simulator's engine asks it for the
game's side of a simulation), where the AI's benchmark has little heap to spare.
"""


class NoGame(ValueError):
    """A game without the host part asked for (or an unknown game); its text is the one
    line a command says."""


def _package(game):
    try:
        return __import__("host_tools.games." + game, None, None, ("PARTS",))
    except ImportError:
        return None


def provides(game):
    """The parts game `game`'s host package provides (empty when it has none)."""
    if not isinstance(game, str) or not game.isalpha() or not game.islower():
        return ()  # not a game's name (as core.gameload spells them)
    pkg = _package(game)
    return tuple(getattr(pkg, "PARTS", ())) if pkg is not None else ()


def part(game, name):
    """The module of part `name` of game `game`'s host package; NoGame when the game does
    not provide it."""
    if name not in provides(game):
        raise NoGame("%s does not provide %s (host_tools/games/%s/%s.py)"
                     % (game, name, game, name))
    return __import__("host_tools.games.%s.%s" % (game, name), None, None, (name,))
