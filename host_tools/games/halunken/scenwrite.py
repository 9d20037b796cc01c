"""Halunken & Spelunken's rules actions -> scenario lines, as the players enter them on the
board (docs/scenarios.md); `annotated_game` is `python -m host_tools scengen --game
halunken`'s part: a whole random game (a seeded deal or a table deal, whose takes and
turned Black-Jack cards are taps) with `expect` lines at each round's end and at the end,
which `sim --game halunken` replays on both runtimes.
"""

from games.halunken import deck, report, rules


def settings_lines(settings):
    deal = ("option seed=%d" % settings["seed"] if settings["deal"] == "seed"
            else "option deal=table")
    return ["option players=%d" % settings["players"], "option mode=%s" % settings["mode"],
            "option first=%s" % settings["first"], deal]


def action_lines(state, action):
    """The scenario line of `action` in `state` (before it is applied)."""
    kind = action[0]
    if kind in ("place", "place_bj"):
        return ["pick " + deck.space_name(action[1])]
    if kind == "rum":
        return ["pick %d" % action[1]]
    if kind == "offer" or kind == "take":
        return ["tap " + deck.crew_name(action[1])]
    if kind == "bj_card":  # H33: Black-Jack's turned card at a table
        return ["tap " + report.move_name(state, rules.BJ, action[1])]
    if kind in ("steal", "rob"):
        return ["press done" if action[1] < 0 else "tap " + deck.crew_name(action[1])]
    if kind == "pass":
        return ["press done"]
    if kind == "choose":
        return ["tap " + report.move_name(state, action[1], action[2])]
    if kind == "reveal":
        return ["press ok"]
    if kind == "undo":
        return ["press back"]
    raise ValueError("unknown action %r" % (action,))


def expect_lines(state):
    """What must hold at a round's end (the new round's start) or at the game's end."""
    r = report.game(state)
    lines = ["expect phase %s" % r["phase"], "expect round %d" % r["round"]]
    for seat in r["scores"]:
        lines.append("expect scores.%s %d" % (seat, r["scores"][seat]))
        lines.append("expect crews.%s %d" % (seat, len(r["crews"][seat])))
        lines.append("expect captains.%s %s" % (seat, r["captains"][seat]))
        lines.append("expect played.%s %d" % (seat, len(r["played"][seat])))
    lines.append("expect port %d" % len(r["port"]))
    if r["blackjack"] is not None:
        lines.append("expect blackjack %s" % r["blackjack"])
    if r["winner"] is not None:
        lines.append("expect winner %d" % len(r["winner"]))
        lines += ["expect winner.%d %s" % (i, w) for i, w in enumerate(r["winner"])]
    return lines


def annotated_game(board, seed):
    """A whole random game as a scenario, with `expect` lines (from the rules engine) at
    each round's end and at the end, then events a finished game refuses."""
    from host_tools.games.halunken import randgame

    rng = randgame.Rng(seed)
    settings = randgame.random_settings(rng)
    actions = randgame.play(randgame.new_game(settings), rng)
    game = randgame.new_game(settings)
    lines = ["# A whole random game (seed %d), checked at each round's end and at the end."
             % seed] + settings_lines(settings)
    for act in actions:
        before = (game.round, game.phase)
        lines.extend(action_lines(game, act))
        game.apply(act)
        if (game.round, game.phase) != before and before[0] > 0:
            lines.extend(expect_lines(game))
    lines += ["# The game is over: every event is refused (wrong-phase).",
              "press ok", "tap uid:04A224B2C35E80", "expect rejected 2",
              "expect rejected.1.code wrong-phase"]
    return "\n".join(lines) + "\n"
