"""Kami's rules actions -> scenario lines, as the players enter them at the board
(docs/scenarios.md, "Kami"); `annotated_game` is `python -m host_tools scengen --game
kami`'s part: a whole random game with `expect` lines at each round's end and at the end,
which `sim --game kami` replays to the same report on both runtimes.
"""

from games.kami import deck, game
from games.kami.dealing import text as deal_text

# What each action is at the board: a tap of its card, a button, a pick.
TAPS = ("centre", "defend", "attack", "counter", "reveal", "show")
# A game of many rounds (an exact target missed again and again, K18) makes a long
# scenario: scengen draws again past MAX_ROUNDS, so that a replay stays short. (The unix
# port's 1 MB simulator heap once ran out on such games: the virtual flash kept the
# journal in one growing piece; it keeps pages now, host_tools/fakehw/flash.py, and
# tests/games/kami/test_kami_long.py replays a game of 30 rounds and more on both
# runtimes, with and without power cuts.)
MAX_ROUNDS = 10
TRIES = 20
PRESSES = {"pass": "done", "back": "back", "discard": "discard", "shown": "done",
           "withdraw": "back", "cancel": "ok", "keep": "back"}


def settings_lines(settings):
    out = ["option players=%d" % settings["players"], "option mode=%s" % settings["mode"],
           "option first=%s" % settings["first"], "option target=%d" % settings["target"]]
    if settings["deal"] == "seed":
        return out + ["option seed=%d" % settings["seed"]]
    return out + ["option deal=%s" % settings["deal"]]


def action_lines(state, action):
    """The scenario line of `action` in `state` (before it is applied)."""
    kind = action[0]
    if kind in TAPS:
        return ["tap " + deck.NAMES[action[1]]]
    if kind in PRESSES:
        return ["press " + PRESSES[kind]]
    if kind == "pick":
        return ["pick p%d" % (action[1] + 1)]
    if kind == "deal":
        return ["deal " + deal_text(action[1], action[2], action[3])]
    raise ValueError("unknown action %r" % (action,))


def expect_lines(state):
    """What must hold at a round's end (the next round's start) or at the game's end."""
    r = game.report(state)
    lines = ["expect phase %s" % r["phase"], "expect round %d" % r["round"],
             "expect rounds %d" % len(r["rounds"])]
    last = r["rounds"][-1]
    lines += ["expect rounds.%d.seat %s" % (len(r["rounds"]) - 1, last["seat"]),
              "expect rounds.%d.points %d" % (len(r["rounds"]) - 1, last["points"])]
    for side in r["scores"]:
        lines.append("expect scores.%s %d" % (side, r["scores"][side]))
    if r["winner"] is not None:
        lines.append("expect winner %s" % r["winner"])
    else:
        lines += ["expect first %s" % r["first"], "expect step %s" % (r["step"] or "none")]
    return lines


def annotated_game(board, seed, settings=None):
    """A whole random game as a scenario, with `expect` lines (from the rules engine) at
    each round's end and at the end, then events a finished game refuses. `settings`: the
    game's (else random ones from the seed)."""
    from host_tools.games.kami import randgame

    rng = randgame.Rng(seed)
    for _ in range(TRIES):
        chosen = settings if settings is not None else randgame.random_settings(rng)
        g = randgame.new_game(chosen)
        actions = randgame.play(g, rng)
        if g.round <= MAX_ROUNDS:
            break  # else the next random game of the same seed: a replay stays short
    settings = chosen
    g = randgame.new_game(settings)
    lines = ["# A whole random game of Kami (seed %d), checked at each round's end and at "
             "the end." % seed] + settings_lines(settings)
    for act in actions:
        scored = len(g.rounds)
        lines.extend(action_lines(g, act))
        g.apply(act)
        if len(g.rounds) != scored:
            lines.extend(expect_lines(g))
    lines += ["# The game is over: every event is refused (wrong-phase).",
              "press done", "tap uid:04A224B2C35E80", "expect rejected 2",
              "expect rejected.1.code wrong-phase"]
    return "\n".join(lines) + "\n"
