"""Whole Kami games between the board player and the baselines, the same code on CPython
and MicroPython (`python -m host_tools duel --game kami`: duelcli).

    micropython host_tools/games/kami/duelgames.py SPEC_JSON   -> one JSON object

The rules engine referees a seeded deal; each seat's player gets only `ai.observe` of its
seat and its legal actions (`ai.seat_actions`), and every answer is checked against the
rules' legal actions before it is applied. An `ai` seat holding five Soldiers claims before
the round's first card (K11, `ai.claimant`); its partner's player answers.
"""

import gc
import json
import sys
import time

from games.kami import ai, rules
from host_tools.games.kami import baselines

try:
    ticks_us = time.ticks_us  # type: ignore[attr-defined]  # MicroPython
    ticks_diff = time.ticks_diff  # type: ignore[attr-defined]
except AttributeError:
    def ticks_us():
        return time.perf_counter_ns() // 1000

    def ticks_diff(a, b):
        return a - b


ALLOCS = []  # bytes one AI decision allocated (MicroPython only)
MAX_ACTIONS = 20000


class DuelError(Exception):
    """A player answered with an action the rules do not allow now, or none."""


def _timed(player, g, seat, acts, runs):
    """The player's decision and its time in microseconds (observation included): the
    least of `runs` runs (another process taking a shared CPU does not count); the
    decision reads the game and changes nothing, so each run is the same."""
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


def new_game(settings):
    g = rules.Game(players=settings["players"], mode=settings.get("mode", "soldat"),
                   first=settings.get("first", 0), target=settings.get("target", 15),
                   deal="seed", seed=settings["seed"])
    return g


def play_game(settings, kinds, seed=0, runs=3):
    """One game; `kinds` per seat. Returns the winning side, the scores, the AI's decision
    times in microseconds, the number of actions and of claims."""
    g = new_game(settings)
    n = g.players
    players = [baselines.make(kinds[s], seed * 8 + s + 1) for s in range(n)]
    board = [s for s in range(n) if kinds[s] == "ai"]
    claimed = []
    claims = 0
    times = []
    count = 0
    while not g.is_over():
        s = ai.claimant(g, board, claimed)
        if s >= 0:  # K11: the board presses discard and names its seat
            claimed.append(ai.claim_key(g, s))
            g.apply(("discard",))
            g.apply(("pick", s))
            claims += 1
            count += 2
            continue
        seat = ai.acting_seat(g)
        acts = ai.seat_actions(g, seat)
        timed = kinds[seat] == "ai"
        act, dt = _timed(players[seat], g, seat, acts, runs if timed else 1)
        if timed:
            times.append(dt)
        if act not in acts or act not in g.legal_actions():
            raise DuelError("p%d (%s) answered %r in phase %s step %s" % (
                seat + 1, kinds[seat], act, g.phase, g.step))
        g.apply(act)
        count += 1
        if count > MAX_ACTIONS:
            raise DuelError("the game did not end")
    return {"winner": g.winner, "scores": list(g.scores), "times_us": times,
            "actions": count, "claims": claims, "rounds": len(g.rounds)}


def duel(spec):
    """spec: players, mode, target, lineup (a kind per seat), games, seed. Game i deals
    seed spec["seed"] + i // N, with the lineup rotated by i % N seats and the first
    player rotated too, so every entry sits in every seat on the same deals. Returns per
    lineup entry its wins and games by seat (a win in 4 players is its team's: sides
    p1+p3, p2+p4), the AI's times and allocations, the claims."""
    n = spec["players"]
    lineup = spec["lineup"]
    wins = [[0] * n for _ in lineup]  # [entry][seat]
    played = [[0] * n for _ in lineup]
    times = []
    claims = 0
    rounds = 0
    for i in range(spec["games"]):
        r = i % n
        seat_of = [(j + r) % n for j in range(n)]  # entry j sits in seat (j + r) % n
        kinds = [""] * n
        for j in range(n):
            kinds[seat_of[j]] = lineup[j]
        settings = {"players": n, "mode": spec["mode"], "target": spec["target"],
                    "seed": spec["seed"] + i // n, "first": (i // n) % n}
        res = play_game(settings, kinds, spec["seed"] + i, spec.get("runs", 3))
        for j in range(n):
            s = seat_of[j]
            played[j][s] += 1
            side = s % 2 if n == 4 else s
            if side == res["winner"]:
                wins[j][s] += 1
        times.extend(res["times_us"])
        claims += res["claims"]
        rounds += res["rounds"]
    return {"games": spec["games"], "wins": wins, "played": played, "times_us": times,
            "alloc_bytes": ALLOCS, "claims": claims, "rounds": rounds}


def cli(argv):
    """The command line (`duel --game kami`): duelcli, loaded only here (argparse is not
    for MicroPython, which runs this file as a script)."""
    from host_tools.games.kami import duelcli
    return duelcli.main(argv, sys.modules[__name__])


def main(argv):
    print(json.dumps(duel(json.loads(argv[0]))))


if __name__ == "__main__":
    main(sys.argv[1:])
