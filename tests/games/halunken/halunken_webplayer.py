"""A simple player of Halunken's web page (host_tools/games/halunken/webgame.py requests)
that sees what a player at the page sees: the public state, and the movement cards of the
seat choosing (asked for as the page asks, once that seat shows them). The same whole game
can so be played on CPython, in the MicroPython unix port and compared.

It places on the first option, offers its most valuable crew card when that beats the high
offer (else passes), chooses the card at (round + seat) in its list, names the first RUM
number, and steals (or gives up) the first card it may.
"""

MAX_STEPS = 3000


def value(card):
    return int(card.rsplit("-", 1)[1])


def move(call, state):
    """The next request for `state` (`call` answers the page's `hand` request)."""
    rep = state["report"]
    st = rep["step"]
    if st in ("place", "place-bj", "rum"):
        return {"op": "pick", "option": state["ui"]["options"][0]}
    if st == "auction":
        offers = [w["card"] for w in rep["auction"]["words"] if w["card"]]
        high = value(offers[-1]) if offers else 0
        crew = sorted(rep["crews"][rep["turn"]], key=lambda c: (value(c), c))  # a total order:
        # MicroPython's sort is not stable
        if crew and value(crew[-1]) > high:
            return {"op": "tap", "card": crew[-1]}
        return {"op": "press", "button": "done"}
    if st == "choose":
        fig = rep["figure"] or rep["turn"]
        cards = call({"op": "hand", "player": fig})["cards"]
        return {"op": "tap", "card": cards[(rep["round"] + int(rep["turn"][1:])) % len(cards)]}
    if st == "reveal":
        return {"op": "press", "button": "ok"}
    if st in ("steal", "rob"):
        for src in rep["from"]:
            cards = rep["port"] if src == "port" else rep["crews"][src]
            if cards:
                return {"op": "tap", "card": sorted(cards)[0]}
        return {"op": "press", "button": "done"}
    raise AssertionError("no move in step %r" % (st,))


def play_game(call, start):
    """Play from the `start` request to the end: (final response, steps, refusals)."""
    resp = call(start)
    steps = 0
    refused = []
    while resp["state"]["report"]["phase"] != "over":
        steps += 1
        if steps > MAX_STEPS:
            raise AssertionError("no end after %d steps" % MAX_STEPS)
        req = move(call, resp["state"])
        resp = call(req)
        if not resp["ok"]:
            raise AssertionError("%r: %s" % (req, resp["error"]))
        if resp["state"]["message"]["kind"] == "refused":
            refused.append(resp["state"]["message"]["code"])
            raise AssertionError("%r refused: %r" % (req, resp["state"]["message"]))
    return resp, steps, refused
