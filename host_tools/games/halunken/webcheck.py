"""The checks of Halunken's page requests (host_tools/games/halunken/webgame.py): each
field a request needs, or a WebError that says what was wrong and what is expected; never
a bare KeyError or tuple.index error from deep in the simulator."""

from core.board import ROLES
from core.cards import parse_uid
from host_tools.games.halunken.verbs import CARDS_ARE
from host_tools.web.weberror import WebError


def field(req, key, example):
    if key not in req:
        raise WebError("%s names its %s: %s" % (req.get("op"), key, example))
    return req[key]


def card(req, names):
    """The card a `tap` names: one of the game's `names`, or `uid:HEX`, a tag that is no
    card (the board refuses it as unknown)."""
    name = field(req, "card", '{"op": "tap", "card": "P1-3"}')
    if not isinstance(name, str):
        raise WebError("a card is named by a text, got %r" % (name,))
    if name.startswith("uid:"):
        try:
            parse_uid(name[4:])
        except ValueError as e:
            raise WebError("%r is no tag: %s" % (name, e)) from e
    elif name not in names:
        raise WebError("%r is not one of Halunken's cards (%s; or uid:HEX, a tag that is no "
                       "card)" % (name, CARDS_ARE))
    return name


def button(req):
    name = field(req, "button", '{"op": "press", "button": "ok"}')
    if name not in ROLES:
        raise WebError("unknown button %r" % (name,))
    return name


def option(req):
    name = field(req, "option", '{"op": "pick", "option": "T5"}')
    if not isinstance(name, str):
        raise WebError("an option is a tavern T1..T14 or a number, got %r" % (name,))
    return name
