"""A simple player of Kami's web page (host_tools/games/kami/webgame.py requests) that sees
what a player at the page sees: the public state, and the hand of the seat the board waits
for (asked for as the page asks, once that seat shows it). The same whole game can so be
played on CPython and in the MicroPython unix port and compared.

It never claims (K11); a claimant's partner, it plays on (`back`). Responding, it counters
with an identical card (or an Empress where one counters) when its hand keeps a card it may
attack with, and passes every `pass_every` time it could counter (so replays happen too).
Opening or replaying, it lays face down the first card whose removal leaves an attack, then
attacks with its first card that is not an Empress (an Empress when it is the last card or
the Empress is unlocked). With one card in hand and a centre card showing (2 players), the
defence is a centre card.
"""

MAX_STEPS = 4000


def kind(card):
    return card.rpartition("-")[0]


def can_attack(hand, unlocked):
    """`hand` (after a defence or counter) holds a card it may attack with."""
    if not hand:
        return False
    return unlocked or len(hand) == 1 or any(kind(c) != "IMPERATRICE" for c in hand)


def attack_card(hand, unlocked):
    for c in hand:
        if kind(c) != "IMPERATRICE":
            return c
    return hand[0]  # the last card, or unlocked (or K22 in 2 players)


def counter_card(hand, attack, unlocked, players):
    if players == 2 and len(hand) < 2:
        return None  # K7: the last card is never a counter
    for c in hand:
        rest = [x for x in hand if x != c]
        if kind(c) == kind(attack) and can_attack(rest, unlocked):
            return c
    if kind(attack) not in ("SOLDAT", "LANCE"):
        for c in hand:
            rest = [x for x in hand if x != c]
            if kind(c) == "IMPERATRICE" and can_attack(rest, True):
                return c
    return None


def move(call, state, counter=True):
    """The next request for `state` (`call` answers the page's `hand` request)."""
    rep = state["report"]
    seat = state["acting"]
    st = rep["step"]
    if rep["phase"] == "claim" and rep["claim"]["step"] == "answer":
        return {"op": "press", "button": "back"}  # the partner of a claimant plays on
    if rep["phase"] != "play":
        raise AssertionError("no move in phase %r" % rep["phase"])
    hand = call({"op": "hand", "player": seat})["cards"]
    unlocked = rep["empress_unlocked"]
    if st == "respond":
        c = counter_card(hand, rep["attack"]["card"], unlocked, rep["players"]) \
            if counter else None
        if c is None:
            return {"op": "press", "button": "done"}
        return {"op": "tap", "card": c}
    if st == "open":
        if len(hand) == 1:
            ups = [s["up"] for s in rep["centre"] or () if s["up"]]
            return {"op": "tap", "card": ups[0]}
        for c in hand:
            if can_attack([x for x in hand if x != c], unlocked):
                return {"op": "tap", "card": c}
        return {"op": "tap", "card": hand[0]}
    if st == "attack":
        return {"op": "tap", "card": attack_card(hand, unlocked)}
    raise AssertionError("no move in step %r" % (st,))


def play_game(call, start, pass_every=3):
    """Play from the `start` request to the end: (final response, steps, refusals)."""
    resp = call(start)
    steps = 0
    chances = 0
    while resp["state"]["report"]["phase"] != "over":
        steps += 1
        if steps > MAX_STEPS:
            raise AssertionError("no end after %d steps" % MAX_STEPS)
        counter = True
        if resp["state"]["report"]["step"] == "respond":
            chances += 1
            counter = chances % pass_every != 0
        req = move(call, resp["state"], counter)
        resp = call(req)
        if not resp["ok"]:
            raise AssertionError("%r: %s" % (req, resp["error"]))
        if resp["state"]["message"]["kind"] == "refused":
            raise AssertionError("%r refused: %r" % (req, resp["state"]["message"]))
    return resp, steps, []
