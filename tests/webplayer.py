"""A simple player of Kahuna on the web page (host_tools/web/game.py requests, Kahuna's
webgame part), so the same whole game can be played on CPython, in the MicroPython unix
port and in the browser, and compared. It sees what a player at the page sees: the public
state and its own hand.

Each turn it plays its cards one by one (taking the highlighted option with ok, and
withdrawing a card that only offers a removal), ends the play phase, and draws from the
deck (else the first face-up card), discarding first with a full hand (R3).
"""

MAX_STEPS = 4000


class Player:
    def __init__(self):
        self.tried = set()
        self.turn_key = None

    def move(self, state, hand):
        """The next request, given the public state and the hand of the player on turn."""
        rep = state["report"]
        ui = state["ui"]
        key = (rep["round"], rep["turn"])
        if key != self.turn_key:  # a new turn: every card may be tried again
            self.tried = set()
            self.turn_key = key
        if rep["phase"] == "deal":
            return {"op": "deck"}
        if rep["phase"] == "handicap":
            return {"op": "press", "button": "ok"}
        if ui["discarding"]:
            if len(hand) >= 5:
                return {"op": "play", "card": hand[0]}
            return {"op": "press", "button": "done"}
        if ui["picked"] is not None:
            return {"op": "press", "button": "back"}  # a removal waits for a second card
        if ui["options"]:
            if ui["options"][ui["sel"]]["kind"] == "remove" and len(ui["pending"]) == 1:
                return {"op": "press", "button": "back"}
            return {"op": "press", "button": "ok"}
        if rep["phase"] == "play":
            for card in hand:
                if card not in self.tried:
                    self.tried.add(card)
                    return {"op": "play", "card": card}
            return {"op": "press", "button": "done"}
        if rep["phase"] == "draw":
            if len(hand) >= 5:
                return {"op": "press", "button": "discard"}
            if state["table"]["deck"]:
                return {"op": "deck"}
            return {"op": "take", "card": state["table"]["display"][0]}
        return None


def play_game(call, start):
    """Play a whole game through `call(request) -> response` (dicts), starting with the
    `start` request. Returns (final response, number of requests, responses)."""
    resp = call(start)
    player = Player()
    seen = [resp]
    for n in range(MAX_STEPS):
        state = resp["state"]
        if state["report"]["phase"] == "over":
            return resp, n, seen
        turn = state["report"]["turn"]
        hand = call({"op": "hand", "player": turn})["cards"]
        req = player.move(state, hand)
        resp = call(req)
        assert resp["ok"], (req, resp)
        seen.append(resp)
    raise AssertionError("no game over after %d requests" % MAX_STEPS)
