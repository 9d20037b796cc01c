"""Whole games between two players on a simulated table, the same code on CPython and
MicroPython (`python -m host_tools duel` is the command line).

    micropython host_tools/games/kahuna/duelgames.py BOARD_JSON SPEC_JSON   -> one JSON object

The rules engine referees; `table.Table` holds the physical cards (a seeded deck, the
display, the discard pile). Each player gets only its own `observe.Tracker`'s observation and
answers with a whole turn. Every action is checked against the rules' legal actions
before it is applied, so a player that tries an illegal move stops the duel with an error.
"""

import json
import sys
import time

from core import board as boardmod
from games.kahuna import ai, observe, rules
from host_tools.games.kahuna import baselines
from host_tools.games.kahuna.table import Table

try:
    ticks_us = time.ticks_us  # type: ignore[attr-defined]  # MicroPython
    ticks_diff = time.ticks_diff  # type: ignore[attr-defined]
except AttributeError:
    def ticks_us():
        return time.perf_counter_ns() // 1000

    def ticks_diff(a, b):
        return a - b


class DuelError(Exception):
    """A player did something the rules refuse, or a turn that does not end."""


def play_game(board, kinds, seed, variant="standard", level=ai.DEFAULT_LEVEL,
              handicap=None, first="white", check=True, on_decision=None):
    """One game; `kinds` = (white's, black's) player kind. Returns a dict: winner,
    scores, the time of each AI decision in microseconds, the number of actions."""
    game = rules.Game(board, variant=variant, first=first, handicap=handicap)
    table = Table(game.card_names, seed)
    players = [baselines.make(kinds[p], board, level, seed * 2 + 1 + p) for p in (0, 1)]
    trackers = [observe.Tracker(game, 0), observe.Tracker(game, 1)]
    times = []
    moved = []  # per undoable action of this turn: the cards it put on the discard pile
    count = [0]

    def do(act, face_up=False):
        actor = game.turn
        if check and act not in game.legal_actions():
            raise DuelError("%s (%s) played an illegal action %r in the %s phase"
                            % (rules.PLAYERS[actor], kinds[actor], act, game.phase))
        before = game.round
        game.apply(act)
        count[0] += 1
        for t in trackers:
            t.note(game, act, actor, face_up)
        kind = act[0]
        if kind in ("place", "discard"):
            table.discard(act[1])
            moved.append((act[1],))
        elif kind == "remove":
            table.discard(act[1])
            table.discard(act[2])
            moved.append((act[1], act[2]))
        elif kind == "refill":
            moved.append(())
        elif kind == "undo":
            for name in moved.pop():
                table.pile.remove(name)
        if game.turn != actor or game.phase not in (rules.PLAY, rules.DRAW):
            del moved[:]
        if game.round != before:
            table.new_round()  # R5: the discard pile becomes the new deck and display
        if check and game.phase != rules.DEAL and table.drawable() != game.drawable_count():
            raise DuelError("the table and the rules disagree on the drawable cards")

    while game.phase == rules.DEAL:
        do(("deal", table.deal()))
    table.lay_display()
    turns = 0
    while not game.is_over():
        p = game.turn
        key = (game.turn, game.round, game.drawable_count(), game.phase, game.final_turns,
               game.handicap_left)
        obs = trackers[p].observe(game, table.display)
        t0 = ticks_us()
        plan = players[p].decide(obs)
        dt = ticks_diff(ticks_us(), t0)
        if kinds[p] == "ai":
            times.append(dt)
            if on_decision is not None:
                on_decision(players[p], obs)
        for act in plan:
            if game.is_over():
                break
            if act[0] == "draw":
                if act[1] not in table.display:
                    raise DuelError("%s drew %s, which is not on display" % (kinds[p], act[1]))
                table.take(act[1])
                do(act, True)
            elif act[0] == "draw_top":
                card = table.take_top()
                if card is None:
                    raise DuelError("%s drew from an empty deck" % (kinds[p],))
                do(("draw", card), False)
            else:
                do(act)
        after = (game.turn, game.round, game.drawable_count(), game.phase, game.final_turns,
                 game.handicap_left)
        if not game.is_over() and after == key:
            raise DuelError("%s's turn plan %r did not end the turn" % (kinds[p], plan))
        turns += 1
        if turns > 2000:
            raise DuelError("the game did not end")
    return {"winner": game.winner, "scores": list(game.scores), "times_us": times,
            "actions": count[0]}


def duel(board, spec):
    """Play spec["games"] games: game i uses seed spec["seed"] + i // 2, the first player
    of the pair as white, the second as black, then swapped."""
    a, b = spec["white"], spec["black"]
    out = {"games": 0, "wins": {a: 0, b: 0}, "draws": 0, "times_us": [],
           "by_seat": {"white": [0, 0, 0], "black": [0, 0, 0]}}
    if a == b:
        out["wins"] = {a + "(1)": 0, b + "(2)": 0}
    for i in range(spec["games"]):
        seed = spec["seed"] + i // 2
        swapped = i % 2 == 1
        kinds = (b, a) if swapped else (a, b)
        res = play_game(board, kinds, seed, spec.get("variant", "standard"),
                        spec.get("level", ai.DEFAULT_LEVEL), spec.get("handicap"))
        out["games"] += 1
        w = res["winner"]
        seat_of_a = "black" if swapped else "white"
        if w == "draw":
            out["draws"] += 1
            out["by_seat"][seat_of_a][2] += 1
        else:
            a_won = w == seat_of_a
            name = a if a_won else b
            if a == b:
                name = a + "(1)" if a_won else b + "(2)"
            out["wins"][name] += 1
            out["by_seat"][seat_of_a][0 if a_won else 1] += 1
        out["times_us"].extend(res["times_us"])
    return out


def main(argv):
    board = boardmod.load(argv[0], keep_raw=False)
    spec = json.loads(argv[1])
    if spec.get("handicap"):
        spec["handicap"] = tuple(spec["handicap"])
    print(json.dumps(duel(board, spec)))


if __name__ == "__main__":
    main(sys.argv[1:])
