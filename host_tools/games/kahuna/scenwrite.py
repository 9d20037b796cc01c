"""Kahuna's rules-engine actions -> scenario lines, as a player would enter them on the
board.

Used to turn random games (`randgame`) into scenarios for the simulator, so whole games
go through the scanner, buttons, referee and view on both runtimes; `annotated_game` is
`python -m host_tools scengen`'s game part.
"""

from host_tools.games.kahuna.actionlines import action_lines, settings_lines  # noqa: F401


def game_scenario(settings, actions):
    lines = settings_lines(settings)
    for act in actions:
        lines.extend(action_lines(act))
    return "\n".join(lines) + "\n"


def annotated_game(board, seed):
    """A whole random game as a scenario, with `expect` lines (from the rules engine) after
    each scoring, at the final turns and at the end, then events a finished game refuses."""
    from games.kahuna import report, rules
    from host_tools.games.kahuna import randgame

    rng = randgame.Rng(seed)
    settings = randgame.random_settings(rng)
    game = rules.Game(board, **settings)
    actions = randgame.play_game(rules.Game(board, **settings), seed)
    lines = ["# A whole random game (seed %d), checked at every scoring and at the end."
             % seed] + settings_lines(settings)
    for act in actions:
        scorings, finals = len(game.round_scores), game.final_turns
        game.apply(act)
        lines.extend(action_lines(act))
        d = report.game(game)
        if len(game.round_scores) > scorings and game.phase != rules.OVER:
            lines.append("# round %d scored" % (scorings + 1))
            lines.append("expect round %d" % d["round"])
            lines.append("expect round_scores %d" % len(d["round_scores"]))
            n = len(d["round_scores"]) - 1
            for who in ("white", "black"):
                lines.append("expect round_scores.%d.%s %d" % (n, who, d["round_scores"][n][who]))
            lines.append("expect turn %s" % d["turn"])
            lines.append("expect drawable %d" % d["drawable"])
            lines.append("expect discard 0")
        if game.final_turns and not finals:
            lines.append("# round 3's last card: the final turns, without draws")
            lines.append("expect final_turns true")
            lines.append("expect phase play")
            lines.append("expect turn %s" % d["turn"])
    d = report.game(game)
    lines.append("# the end")
    for key in ("phase", "winner", "turn", "must_draw", "final_turns"):
        v = d[key]
        lines.append("expect %s %s" % (key, str(v).lower() if isinstance(v, bool) else v))
    for who in ("white", "black"):
        lines.append("expect scores.%s %d" % (who, d["scores"][who]))
        lines.append("expect supply.%s %d" % (who, d["supply"][who]))
    lines.append("expect bridges %d" % len(d["bridges"]))
    lines.append("expect control %d" % len(d["control"]))
    lines.append("# a finished game refuses everything, an unknown tag too")
    for ev in ("press next", "press back", "press done", "press discard",
               "pick " + game.board.connections[0], "tap " + game.card_names[0],
               "tap uid:04FFFFFFFFFFFF"):
        lines.append(ev)
    lines.append("wait 3000")
    lines.append("expect phase over")
    lines.append("expect rejected 7")
    for i in range(7):
        lines.append("expect rejected.%d.code wrong-phase" % i)
    return "\n".join(lines) + "\n"
