"""Kami's state as names and plain values: the simulator's report (sim contract keys, in
order) and the views that the link and the pages may show (public, and one seat's)."""

from games.kami import deck
from games.kami.settings import seat_names

# The report's game keys in the contract's order. CPython keeps a dict's insertion order,
# MicroPython does not: a simulator running the rules under MicroPython orders by these.
REPORT_KEYS = ("game", "players", "mode", "target", "deal", "phase", "round", "first",
               "turn", "step", "attack", "passed", "empress_unlocked", "lines",
               "hand_sizes", "hands", "centre", "claim", "scores", "rounds", "winner",
               "hidden")
ROUND_KEYS = ("round", "first", "seat", "side", "card", "defence", "doubled", "points",
              "scores")


def side_names(g):
    seats = seat_names(g.players)
    if g.players == 4:
        return ("p1+p3", "p2+p4")
    return seats


def _step(g):
    if g.phase == "centre":
        return "centre"
    if g.phase != "play":
        return None
    return "reveal" if g.reveal >= 0 else g.step


def _turn(g, seats):
    if g.phase == "over":
        return None
    if g.phase == "play":
        return seats[g.reveal_seat if g.reveal >= 0 else g.turn]
    return seats[g.first]


def _entry(e, hide):
    return {"card": None if (hide and not e[1]) else deck.NAMES[e[0]],
            "face": "up" if e[1] else "down", "from": "centre" if e[2] else "hand"}


def _lines(g, seats, hide):
    out = {}
    for s in range(g.players):
        out[seats[s]] = {"defence": [_entry(e, hide) for e in g.lines[s][0]],
                         "attack": [_entry(e, hide) for e in g.lines[s][1]]}
    return out


def _names(cards):
    return sorted(deck.NAMES[c] for c in cards)  # sorted as text (the contract)


def _rounds(g, seats, sides):
    out = []
    for r in g.rounds:
        rnd, first, seat, card, dcard, dup, doubled, pts, scores = r
        out.append({"round": rnd, "first": seats[first], "seat": seats[seat],
                    "side": sides[g.side(seat)], "card": deck.NAMES[card],
                    # K21: the final defence is revealed; a lone last card has none (K13)
                    "defence": None if dcard < 0 else
                    {"card": deck.NAMES[dcard], "face": "up" if dup else "down"},
                    "doubled": bool(doubled), "points": pts,
                    "scores": dict((sides[i], scores[i]) for i in range(len(sides)))})
    return out


def _claim(g, seats):
    if g.claim is None:
        return None
    return {"seat": seats[g.claim[0]], "step": g.claim[1],
            "soldiers": [deck.NAMES[c] for c in g.claim[2]]}


def _centre(g):
    if g.up is None:
        return None
    return [{"up": deck.NAMES[g.up[i]] if g.up[i] >= 0 else None, "left": g.left[i]}
            for i in range(len(g.up))]


def _common(g, hide):
    seats = seat_names(g.players)
    sides = side_names(g)
    d = {"phase": g.phase, "round": g.round, "first": seats[g.first],
         "turn": _turn(g, seats), "step": _step(g),
         "attack": None if g.attack is None else
         {"seat": seats[g.attack[0]], "card": deck.NAMES[g.attack[1]]},
         "passed": [seats[s] for s in g.passed],
         "empress_unlocked": g.empress_unlocked(),
         "lines": _lines(g, seats, hide),
         "hand_sizes": dict((seats[s], g.sizes[s]) for s in range(g.players))}
    return d, seats, sides


def game(g):
    """The game keys of the simulator's JSON report (the contract), in its order; the
    simulator adds `rejected` and `leds`. A test tool's view: hidden cards are named."""
    d, seats, sides = _common(g, False)
    out = {"game": "kami", "players": g.players, "mode": g.mode, "target": g.target,
           "deal": g.deal}
    out.update(d)
    out["hands"] = None if g.hands is None else \
        dict((seats[s], _names(g.hands[s])) for s in range(g.players))
    out["centre"] = _centre(g)
    out["claim"] = _claim(g, seats)
    out["scores"] = dict((sides[i], g.scores[i]) for i in range(len(sides)))
    out["rounds"] = _rounds(g, seats, sides)
    out["winner"] = sides[g.winner] if g.winner >= 0 else None
    hidden_centre = None
    if g.down is not None:
        hidden_centre = [deck.NAMES[c] if c >= 0 else None for c in g.down]
    out["hidden"] = {"aside": _names(g.aside) if g.aside is not None else None,
                     "centre": hidden_centre}
    return out


def public(g):
    """What everyone may see (8.3): face-down cards unnamed, no hand, no hidden card."""
    d, seats, sides = _common(g, True)
    d["centre"] = _centre(g)
    d["claim"] = _claim(g, seats)  # the claimed Soldiers are shown to all (K11)
    d["scores"] = dict((sides[i], g.scores[i]) for i in range(len(sides)))
    d["rounds"] = _rounds(g, seats, sides)
    d["winner"] = sides[g.winner] if g.winner >= 0 else None
    return d


def seat_view(g, seat):
    """What `seat` may see besides the public state: its own hand (known deals) and its
    own face-down defences; nothing of another seat."""
    mine = [deck.NAMES[e[0]] for e in g.lines[seat][0] if not e[1]]
    hand = None if g.hands is None else _names(g.hands[seat])
    return {"seat": seat_names(g.players)[seat], "hand": hand, "defence_down": mine}
