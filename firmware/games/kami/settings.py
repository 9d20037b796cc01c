"""Kami's settings: the options of the simulator contract, checked, defaults filled in."""

MODES = ("soldat", "seigneur", "kami")  # K18
DEALS = ("table", "given", "seed")  # K20: at a table the board learns cards as played
KEYS = ("players", "mode", "first", "target", "deal", "seed", "ai", "remote")
SEED_MAX = 2147483647


def seat_names(players):
    return tuple("p%d" % (i + 1) for i in range(players))


def _int(obj, key, low, high):
    v = obj[key]
    if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
        raise ValueError("%s must be a whole number from %d to %d, got %r" % (key, low, high, v))
    return v


def check_settings(obj):
    """The settings `obj` (a dict in JSON form) checked, in KEYS order with defaults:
    players 4, mode soldat, first p1 (K10), target 15, deal table, seed None (deal=seed
    and no seed: seed 0); `ai`, the seats the board plays (an extension of the contract,
    docs/kami.md "The board's players"), kept only when it names a seat and only with a
    known deal (seed or given: the board must hold its cards). ValueError names the first
    fault."""
    if not isinstance(obj, dict):
        raise ValueError("settings must be an object, got %r" % (obj,))
    for key in sorted(obj):
        if key not in KEYS:
            raise ValueError("unknown setting %r" % (key,))
    out = {"players": 4, "mode": "soldat", "first": "p1", "target": 15, "deal": "table",
           "seed": None}
    if "players" in obj:
        out["players"] = _int(obj, "players", 2, 4)
    if "mode" in obj:
        if obj["mode"] not in MODES:
            raise ValueError("mode must be one of %s, got %r" % (", ".join(MODES), obj["mode"]))
        out["mode"] = obj["mode"]
    if "first" in obj:
        if obj["first"] not in seat_names(out["players"]):
            raise ValueError("first must be a seat p1..p%d, got %r"
                             % (len(seat_names(out["players"])), obj["first"]))
        out["first"] = obj["first"]
    if "target" in obj:
        out["target"] = _int(obj, "target", 1, 15)
    if "deal" in obj:
        if obj["deal"] not in DEALS:
            raise ValueError("deal must be one of %s, got %r" % (", ".join(DEALS), obj["deal"]))
        out["deal"] = obj["deal"]
    if "seed" in obj and obj["seed"] is not None:
        out["seed"] = _int(obj, "seed", 0, SEED_MAX)
        out["deal"] = "seed"  # the contract: a seed sets deal=seed
    elif out["deal"] == "seed":
        out["seed"] = 0
    if "ai" in obj:
        seats = _ai(obj["ai"], out["players"])
        if seats and out["deal"] == "table":
            raise ValueError("ai needs a known deal (deal=seed or given): at a table the "
                             "board holds no cards (K20)")
        if seats:
            out["ai"] = seats
    if "remote" in obj:  # seats played at other tables (games/kami/remote.py)
        seats = _ai(obj["remote"], out["players"], "remote")
        if not 0 < len(seats) < out["players"] or "ai" in out or out["seed"] is not None:
            raise ValueError("remote names 1 to %d seats played at other tables, in a game "
                             "the dealer deals (no ai, no seed)" % (out["players"] - 1))
        out["deal"] = "given"  # K20: the dealer states every round's deal
        out["remote"] = seats
    return out


def _ai(seats, players, key="ai"):
    """The seats the board plays (`remote`: those played elsewhere), in seat order (a list
    of p1..pN, each once)."""
    names = seat_names(players)
    if not isinstance(seats, list):
        raise ValueError("%s must list seats (p1..p%d)" % (key, players))
    for s in seats:
        if s not in names:
            raise ValueError("%s: %r is not a seat p1..p%d" % (key, s, players))
        if seats.count(s) > 1:
            raise ValueError("%s names %s twice" % (key, s))
    return [s for s in names if s in seats]
