"""The browser page's one error (host_tools/web/game.py and each game's `webgame` part)."""


class WebError(ValueError):
    """A request the page should not have sent (a bug or a hand-made call)."""
