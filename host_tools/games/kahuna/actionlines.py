"""Kahuna's rules-engine actions -> scenario lines, as a player enters them on the board
(tap, pick, the buttons). Apart from scenwrite (which also writes random whole games) so
that the game record (record.py), which the web page bundles, carries these lines only.
"""


def settings_lines(settings):
    lines = ["option variant=%s" % settings["variant"], "option first=%s" % settings["first"]]
    if settings.get("handicap"):
        who, n = settings["handicap"]
        lines.append("option handicap=%s:%d" % (who, n))
    return lines


def action_lines(action):
    kind = action[0]
    if kind in ("deal", "draw"):
        return ["tap " + action[1]]
    if kind in ("handicap", "refill"):
        return ["pick " + action[1]]
    if kind == "place":
        return ["tap " + action[1], "pick " + action[2]]
    if kind == "remove":
        return ["tap " + action[1], "tap " + action[2], "pick " + action[3]]
    if kind == "discard":
        return ["press discard", "tap " + action[1], "press done"]
    if kind in ("end_play", "decline"):
        return ["press done"]
    if kind in ("skip_refill", "resume_play", "undo"):
        return ["press back"]
    raise ValueError("unknown action %r" % (kind,))
