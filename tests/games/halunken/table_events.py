"""Whole Halunken games played as a table plays them: random events (taps, presses,
picks), legal or not, through the controller (games/halunken/controller.py) until the game
ends. Run as a script on CPython or the MicroPython unix port: one line per game, the
events and refusals counted and the final report (canonical JSON), so that the two
runtimes can be compared (tests/games/halunken/test_halunken_controller.py)."""

import conformance
from core import outcome as oc
from games.halunken import controller as ctl
from games.halunken import deck, game
from games.halunken import report as hreport

GAMES = (
    {"players": 3, "mode": "standard", "seed": 21},
    {"players": 4, "mode": "beginner", "seed": 22},
    {"players": 2, "mode": "tactical", "seed": 23},
    {"players": 4, "mode": "standard", "seed": 24, "first": "p4"},
    # At a table (H33): the takes and Black-Jack's turned cards are taps too.
    {"players": 3, "mode": "standard", "deal": "table", "seed_events": 25},
    {"players": 2, "mode": "tactical", "deal": "table", "seed_events": 26},
)
NOISE = (("tap", None), ("tap", "RED-1"), ("tap", "YELLOW-12"), ("tap", "P1-1"),
         ("tap", "P2-RUM"), ("tap", "P3-4"), ("tap", "P4-7"), ("tap", "BJ-5"),
         ("press", "ok"), ("press", "next"), ("press", "prev"), ("press", "back"),
         ("press", "done"), ("press", "discard"), ("pick", "T1"), ("pick", "T14"),
         ("pick", "3"), ("pick", "7"))
CODES = ("wrong-phase", "unknown-card", "out-of-turn", "already-chosen",
         "card-already-played", "not-in-crew", "card-not-available", "bid-too-low",
         "not-offered")


def event_for(g, action):
    """The table's event for a rules action (the sim contract's step table)."""
    name = action[0]
    if name == "place" or name == "place_bj":
        return ("pick", "T%d" % (action[1] + 1))
    if name == "offer":
        return ("tap", deck.crew_name(action[1]))
    if name == "pass":
        return ("press", "done")
    if name == "choose":
        return ("tap", hreport.move_name(g, action[1], action[2]))
    if name == "reveal":
        return ("press", "ok")
    if name == "rum":
        return ("pick", str(action[1]))
    if name == "steal" or name == "rob":
        return ("press", "done") if action[1] < 0 else ("tap", deck.crew_name(action[1]))
    if name == "take":
        return ("tap", deck.crew_name(action[1]))
    if name == "bj_card":
        return ("tap", hreport.move_name(g, 4, action[1]))
    return ("press", "back")


class Failure(AssertionError):
    pass


def play(settings, max_events=5000):
    """One game; returns (events, {code: count}, final digest). Raises Failure when a
    refusal changes the game or the cursor, or has no known code."""
    settings = dict(settings)
    seed = settings.pop("seed_events", None)  # a table deal's seed for the events alone
    g = game.new_state(None, settings)
    c = game.controller(g)
    rng = deck.Rng(settings["seed"] if seed is None else seed)
    codes = {}
    events = 0
    while not g.is_over() and events < max_events:
        events += 1
        if rng.below(3) == 0:
            verb, arg = NOISE[rng.below(len(NOISE))]
        else:
            legal = [a for a in g.legal_actions() if a[0] != "undo" or rng.below(10) == 0]
            if g.step == "choose":  # H32: the expected figure's cards only
                f = ctl.expected_figure(g)
                legal = [a for a in legal if a[0] != "choose" or a[1] == f]
            verb, arg = event_for(g, legal[rng.below(len(legal))])
        snap, sel = g.snapshot(), c.sel
        out = getattr(c, verb)(arg)
        if out.kind == oc.REFUSED:
            if out.code not in CODES or not out.message or out.private:
                raise Failure("%s %s: %r" % (verb, arg, out))
            if g.snapshot() != snap or c.sel != sel:
                raise Failure("refusing %s %s changed something" % (verb, arg))
            codes[out.code] = codes.get(out.code, 0) + 1
        elif (verb != "press" or arg not in ("next", "prev")) and g.snapshot() == snap:
            raise Failure("%s %s was accepted and changed nothing" % (verb, arg))
    return events, codes, conformance.digest(game, g), g.is_over()


def main():
    for settings in GAMES:
        events, codes, digest, over = play(settings)
        print(events, over, conformance.canonical(codes), digest)


if __name__ == "__main__":
    main()
