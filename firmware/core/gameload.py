"""Finding a game by its name: the board definition names the game it is for, and the
game's interface module is `games.<name>.game` (docs/platform.md). The platform imports no
game by itself; this looks one up by name, as main.py and the host tools do."""

# Everything a game on the platform provides (docs/platform.md, "What a game provides"); a
# game whose interface lacks any of them is not playable on a board yet.
INTERFACE = ("NAME", "TITLE", "SEATS", "card_names", "check_settings", "new_state",
             "controller", "view", "replay", "resume", "report", "seat_view",
             "enroll_place", "pixel_names", "card_pixel", "solo", "preload")


def load(name):
    """The interface module of game `name`; ValueError if this firmware has no such game."""
    if not isinstance(name, str) or not name.isalpha() or not name.islower():
        raise ValueError("a game's name is lower-case letters, got %r" % (name,))
    try:
        return __import__("games.%s.game" % name, None, None, ("game",))
    except ImportError:
        raise ValueError("this firmware has no game %r (firmware/games/%s/)"
                         % (name, name)) from None


def missing(game_def):
    """The names of the interface that the game's module does not provide yet."""
    return [attr for attr in INTERFACE if not hasattr(game_def, attr)]


def needs_player(settings):
    """Whether the board's own player may be asked to play in the game whose `settings`
    the journal holds (core.journal.Journal.settings; None: no game yet). A remote game
    (a `remote` seat, played at another table) seats no board player unless its settings
    name one (`ai`): its code is then not preloaded at boot (main.py), since a Pico W
    needs that heap for its network (docs/remote.md, "A Pico W's heap"); a game started
    at the table later loads it when it starts. Any other game may, so it is preloaded."""
    if not isinstance(settings, dict) or settings.get("remote") is None:
        return True
    return bool(settings.get("ai"))
