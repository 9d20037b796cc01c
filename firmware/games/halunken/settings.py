"""Halunken & Spelunken's settings: checked, defaults filled in (sim contract, Options).

    players 2..4 (3); mode beginner/standard/tactical (tactical for 2, else standard; H17);
    first p1..pN (p1, H4); deal "table", "given" or "seed" (table: physical cards the board
    learns as they are tapped, H33; the default when neither seed nor piles is given);
    seed 0..2147483647 (sets deal=seed); piles: 14 lists of 3 crew names, top first (sets
    deal=given); bj: Black-Jack's deck (standard BJ-1..BJ-12, tactical P3-1..P3-RUM),
    first turned first; values: {crew name: value 0..99} over the default table (H2; a
    card left out is worth its default, COLOUR-k k; a table deal's are filled in from the
    enrolled tags when the game starts, game.enrolled_settings); colours: {seat:
    "#RRGGBB"}, the seats' light colours over the board's palette (H31; only the lights
    change);
    games 1..GAMES_MAX (1): a match of that many games added up (H16), and with it
    match: {"game": k, "totals": {seat: points}}, the match's progress carried from game
    to game (`game.fresh_settings`; game 1 with every total 0 by default).
`values` and `colours` are kept in the checked settings only when given; `games` and
`match` only when games > 1, so a one-game setting checks as it always did.
"""

from games.halunken import deck

MODES = ("beginner", "standard", "tactical")
KEYS = ("players", "mode", "first", "deal", "seed", "piles", "bj", "values", "colours",
        "ai", "games", "match", "remote")
# H16: the tip's longer game is three games added up; a longer session is the held
# button's next game, so a match stops at the tip's three.
GAMES_MAX = 3
TOTAL_MAX = 99999  # a game scores at most 42 cards at 99 (H2), doubled: 8316
HEX = "0123456789abcdefABCDEF"
VALUE_RANGE = (0, 99)  # a crew card's value, set or enrolled (H2)


def _int(obj, key, default, low, high, name=None):
    v = obj.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or v < low or v > high:
        raise ValueError("%s must be a whole number %d to %d, got %r" % (
            name or key, low, high, v))
    return v


def _piles(obj):
    piles = obj["piles"]
    if not isinstance(piles, list) or len(piles) != deck.SPACES:
        raise ValueError("piles must list the 14 taverns' piles")
    seen = {}
    out = []
    for t in range(deck.SPACES):
        pile = piles[t]
        if not isinstance(pile, list) or len(pile) != 3:
            raise ValueError("piles.T%d must list 3 crew cards" % (t + 1))
        cards = []
        for name in pile:
            card = deck.crew_card(name) if isinstance(name, str) else -1
            if card < 0:
                raise ValueError("piles.T%d: %r is not a crew card" % (t + 1, name))
            if card in seen:
                raise ValueError("piles.T%d: %s is already in another pile" % (t + 1, name))
            seen[card] = True
            cards.append(card)
        out.append(cards)
    return out


def _bj(obj, mode):
    names = obj.get("bj")
    if mode == "beginner":
        if names is not None:
            raise ValueError("bj: the beginner game has no Black-Jack")
        return None
    if not isinstance(names, list):
        raise ValueError("bj must list Black-Jack's deck")
    size = 12 if mode == "standard" else deck.MOVES
    out = []
    for name in names:
        if not isinstance(name, str):
            raise ValueError("bj: %r is not a Black-Jack card" % (name,))
        if mode == "standard":
            k = name[3:]
            card = int(k) if name.startswith("BJ-") and k.isdigit() else 0
            card = card if 1 <= card <= 12 else -1
        else:
            card = deck.move_card(name[3:]) if name.startswith("P3-") else -1
        if card < 0 or card in out:
            raise ValueError("bj: %r is not a new card of Black-Jack's deck" % (name,))
        out.append(card)
    if len(out) != size:
        raise ValueError("bj must list all %d of Black-Jack's cards" % size)
    return out


def _ai(obj, players):
    """The seats the board plays, in seat order (an extension of the sim contract)."""
    seats = obj.get("ai", [])
    if not isinstance(seats, list):
        raise ValueError("ai must list the seats the board plays (p1..p%d)" % players)
    names = ["p%d" % (i + 1) for i in range(players)]
    for s in seats:
        if s not in names:
            raise ValueError("ai: %r is not a seat p1..p%d" % (s, players))
        if seats.count(s) > 1:
            raise ValueError("ai names %s twice" % s)
    return [s for s in names if s in seats]


def _values(obj):
    table = obj["values"]
    if not isinstance(table, dict):
        raise ValueError("values must map crew cards to their values")
    out = {}
    for name in table:
        v = table[name]
        if not isinstance(name, str) or deck.crew_card(name) < 0:
            raise ValueError("values: %r is not a crew card" % (name,))
        if (isinstance(v, bool) or not isinstance(v, int)
                or not VALUE_RANGE[0] <= v <= VALUE_RANGE[1]):
            raise ValueError("values.%s must be a whole number %d to %d, got %r"
                             % (name, VALUE_RANGE[0], VALUE_RANGE[1], v))
        out[name] = v
    return out


def colour(text):
    """`#RRGGBB` -> (r, g, b); ValueError otherwise."""
    if (not isinstance(text, str) or len(text) != 7 or text[0] != "#"
            or any(ch not in HEX for ch in text[1:])):
        raise ValueError("a colour is #RRGGBB, got %r" % (text,))
    return (int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16))


def _colours(obj, players):
    table = obj["colours"]
    if not isinstance(table, dict):
        raise ValueError("colours must map seats to #RRGGBB colours")
    out = {}
    for seat in table:
        if seat not in ["p%d" % (i + 1) for i in range(players)]:
            raise ValueError("colours: %r is not a seat p1..p%d" % (seat, players))
        try:
            colour(table[seat])
        except ValueError as e:
            raise ValueError("colours.%s: %s" % (seat, e)) from None
        out[seat] = table[seat]
    return out


def _match(obj, players):
    """`games` and `match` (H16): {} for one game, else both, checked and filled in."""
    games = _int(obj, "games", 1, 1, GAMES_MAX)
    if games == 1:
        if "match" in obj:
            raise ValueError("match needs games 2 to %d" % GAMES_MAX)
        return {}
    seats = ["p%d" % (i + 1) for i in range(players)]
    m = obj.get("match", {"game": 1})
    if not isinstance(m, dict) or any(k not in ("game", "totals") for k in m):
        raise ValueError("match must be {\"game\": k, \"totals\": {seat: points}}")
    k = _int(m, "game", 1, 1, games, "match.game")
    totals = m.get("totals", {s: 0 for s in seats})
    if not isinstance(totals, dict) or sorted(totals) != seats:
        raise ValueError("match.totals must give every seat p1..p%d its points" % players)
    out = {}
    for s in seats:
        out[s] = _int(totals, s, 0, 0, TOTAL_MAX, "match.totals." + s)
        if k == 1 and out[s]:
            raise ValueError("match.totals.%s: nothing is carried into game 1" % s)
    return {"games": games, "match": {"game": k, "totals": out}}


def seat_colours(checked):
    """The `colours` of checked settings as (r, g, b) or None per seat p1..p4, or None."""
    table = checked.get("colours")
    if not table:
        return None
    return tuple(colour(table[s]) if s in table else None for s in ("p1", "p2", "p3", "p4"))


def check_settings(obj):
    if not isinstance(obj, dict):
        raise ValueError("settings must be an object")
    for key in obj:
        if key not in KEYS:
            raise ValueError("unknown setting %r" % (key,))
    players = _int(obj, "players", 3, 2, 4)
    mode = obj.get("mode", "tactical" if players == 2 else "standard")
    if mode not in MODES:
        raise ValueError("mode must be beginner, standard or tactical, got %r" % (mode,))
    if (mode == "tactical") != (players == 2):  # H17
        raise ValueError("mode %s is for %s players" % (
            mode, "2" if mode == "tactical" else "3 or 4"))
    first = obj.get("first", "p1")
    if first not in ["p%d" % (i + 1) for i in range(players)]:
        raise ValueError("first must be a seat p1..p%d, got %r" % (players, first))
    given = "piles" in obj or "bj" in obj
    deal = obj.get("deal", "seed" if "seed" in obj else ("given" if given else "table"))
    if deal not in ("table", "given", "seed"):
        raise ValueError("deal must be table, given or seed, got %r" % (deal,))
    out = {"players": players, "mode": mode, "first": first, "deal": deal}
    ai = _ai(obj, players)
    if ai:
        if deal == "table":  # the board's seats make no physical take yet (solo.py)
            raise ValueError("ai: the board's players need a dealt deck (seed or piles) "
                             "so far, not a table deal")
        out["ai"] = ai
    if "values" in obj:
        out["values"] = _values(obj)
    if "colours" in obj:
        out["colours"] = _colours(obj, players)
    out.update(_match(obj, players))  # H16
    if "remote" in obj:  # seats played at other tables (games/halunken/remote.py)
        seats = _ai({"ai": obj["remote"]}, players)
        if not 0 < len(seats) < players or ai or deal != "table" or "games" in out:
            raise ValueError("remote names 1 to %d seats played at other tables, in one "
                             "game the dealer deals (no ai, piles or seed)" % (players - 1))
        out["remote"] = seats
    if deal == "table":
        if given or "seed" in obj:
            raise ValueError("a table deal is the physical cards: no seed, piles or bj")
    elif deal == "seed":
        if given:
            raise ValueError("piles and bj need deal=given, not a seeded deal")
        out["seed"] = _int(obj, "seed", 0, 0, 2147483647)
    else:
        if "seed" in obj:
            raise ValueError("seed sets deal=seed, not a given deal")
        if "piles" not in obj:
            raise ValueError("a given deal needs piles")
        out["piles"] = _piles(obj)
        out["bj"] = _bj(obj, mode)
    return out
