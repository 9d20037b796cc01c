"""Whole Halunken & Spelunken games between the board player and the baselines, the same
code on CPython and MicroPython (`python -m host_tools duel --game halunken`: duelcli).

    micropython host_tools/games/halunken/duelgames.py SPEC_JSON   -> one JSON object

The rules engine referees a seeded deal; each seat's player gets only `ai.observe` of its
seat and its legal actions (`ai.seat_actions`), and every answer is checked against the
rules' legal actions before it is applied. The reveal needs no player (a button press).
"""

import gc
import json
import sys
import time

from games.halunken import ai, rules
from games.halunken.settings import check_settings
from host_tools.games.halunken import baselines

try:
    ticks_us = time.ticks_us  # type: ignore[attr-defined]  # MicroPython
    ticks_diff = time.ticks_diff  # type: ignore[attr-defined]
except AttributeError:
    def ticks_us():
        return time.perf_counter_ns() // 1000

    def ticks_diff(a, b):
        return a - b


ALLOCS = []  # bytes one AI decision allocated (MicroPython only; garbage once it is made)


class DuelError(Exception):
    """A player answered with an action the rules do not allow now, or none."""


def _timed(player, g, seat, acts, runs):
    """The player's decision and its time in microseconds (observation included): the
    least of `runs` runs, so that another process taking the CPU (a shared machine) does
    not count; the decision reads the game and changes nothing, so each run is the same."""
    best = None
    act = None
    if runs > 1 and hasattr(gc, "mem_alloc"):  # MicroPython: what one decision allocates
        gc.collect()
        gc.disable()
        a0 = gc.mem_alloc()
        player.decide(ai.observe(g, seat), acts)
        ALLOCS.append(gc.mem_alloc() - a0)
        gc.enable()
    for _ in range(runs):
        t0 = ticks_us()
        act = player.decide(ai.observe(g, seat), acts)
        dt = ticks_diff(ticks_us(), t0)
        if best is None or dt < best:
            best = dt
    return act, best


def play_game(settings, kinds, seed=0):
    """One game; `kinds` per seat. Returns winners (seat indices), scores, the AI's
    decision times in microseconds and the number of actions."""
    g = rules.Game(check_settings(settings))
    players = [baselines.make(kinds[s], seed * 8 + s + 1) for s in range(g.players)]
    times = []
    count = 0
    while not g.is_over():
        if g.step == "reveal":
            g.apply(("reveal",))
            count += 1
            continue
        seat = ai.expected_seat(g)
        acts = ai.seat_actions(g, seat)
        act, dt = _timed(players[seat], g, seat, acts, 3 if kinds[seat] == "ai" else 1)
        if kinds[seat] == "ai":
            times.append(dt)
        if act not in acts or act not in g.legal_actions():
            raise DuelError("p%d (%s) answered %r in step %s" % (seat + 1, kinds[seat], act,
                                                                 g.step))
        g.apply(act)
        count += 1
        if count > 2000:
            raise DuelError("the game did not end")
    return {"winners": g.winners(), "scores": [g.score(s) for s in range(g.players)],
            "times_us": times, "actions": count}


def duel(spec):
    """spec: players, mode, lineup (a kind per seat), games, seed. Game i deals seed
    spec["seed"] + i // N and rotates the lineup by i % N seats, so every player sits in
    every seat with the same deals. A shared win counts 1/k for each of k winners (H15).
    Returns wins per lineup entry (total and by seat), games per entry and seat, times."""
    n = spec["players"]
    lineup = spec["lineup"]
    wins = [[0.0] * n for _ in lineup]  # [entry][seat]
    played = [[0] * n for _ in lineup]
    times = []
    for i in range(spec["games"]):
        r = i % n
        seat_of = [(j + r) % n for j in range(n)]  # entry j sits in seat (j + r) % n
        kinds = [None] * n
        for j in range(n):
            kinds[seat_of[j]] = lineup[j]
        settings = {"players": n, "mode": spec["mode"], "seed": spec["seed"] + i // n}
        res = play_game(settings, kinds, spec["seed"] + i)
        for j in range(n):
            played[j][seat_of[j]] += 1
            if seat_of[j] in res["winners"]:
                wins[j][seat_of[j]] += 1.0 / len(res["winners"])
        times.extend(res["times_us"])
    return {"games": spec["games"], "wins": wins, "played": played, "times_us": times,
            "alloc_bytes": ALLOCS}


def cli(argv):
    """The command line (`duel --game halunken`): duelcli, loaded only here (argparse is
    not for MicroPython, which runs this file as a script)."""
    from host_tools.games.halunken import duelcli
    return duelcli.main(argv, sys.modules[__name__])


def main(argv):
    print(json.dumps(duel(json.loads(argv[0]))))


if __name__ == "__main__":
    main(sys.argv[1:])
