"""The duel's baselines of other styles (host_tools/games/kahuna/stylebaselines.py):
`majority` and `lookahead`.

- they play legal whole games against the AI and greedy, both variants, with and without
  a handicap (the duel checks every action against the rules' legal actions);
- they decide from the observation only: the same public record with other hidden cards
  gives the same decision (the AI's no-peeking check);
- they are other styles than greedy: on the same observations their turns differ;
- `majority` counts a near-majority for itself and the opponent's against itself;
- the duel's command line accepts their names.
"""

import json

import pytest
from test_ai import run_duel

import aikit
import gamekit
from games.kahuna import observe, rules
from host_tools.games.kahuna import baselines, stylebaselines
from host_tools.games.kahuna import duelgames as duelcore

STYLES = ("majority", "lookahead")


@pytest.mark.parametrize("kind", STYLES)
def test_whole_games_are_legal(kind):
    board = gamekit.board()
    for seed, (other, variant, handicap) in enumerate((
            ("ai", "standard", None), ("greedy", "alternative", ("white", 2)),
            ("ai", "alternative", ("black", 1)), (kind, "standard", None))):
        kinds = (kind, other) if seed % 2 else (other, kind)
        res = duelcore.play_game(board, kinds, 300 + seed, variant, 2, handicap,
                                 first=("white", "black")[seed % 2], check=True)
        assert res["winner"] in ("white", "black", "draw")
        assert res["actions"] > 40


@pytest.mark.parametrize("kind", STYLES)
def test_they_do_not_peek(kind):
    board = gamekit.board()
    checked = differing = 0
    for seed in range(1, 5):
        decisions, diff = aikit.hidden_world_pairs(
            seed, ("standard", "alternative")[seed % 2],
            make_player=lambda: baselines.make(kind, board, seed=9))
        assert decisions and None not in decisions, "seed %d: it peeked" % seed
        checked += len(decisions)
        differing += diff
    assert checked >= 10 and differing >= 4  # the hidden cards really differed


def _observations(n_games=2):
    """Observations of the player on turn at each turn start of a few AI-greedy games."""
    board = gamekit.board()
    out = []
    for seed in range(n_games):
        game = rules.Game(board, variant=("standard", "alternative")[seed % 2])
        real = baselines.make
        seen = []

        class Spy(baselines.GreedyPlayer):
            def decide(self, obs, seen=seen):
                seen.append(obs)
                return baselines.GreedyPlayer.decide(self, obs)

        try:
            baselines.make = (lambda kind, *a, _real=real, _spy=Spy, **k:
                              _spy(board) if kind == "greedy" else _real(kind, *a, **k))
            duelcore.play_game(board, ("ai", "greedy"), 50 + seed, game.settings.variant)
        finally:
            baselines.make = real
        out.extend(seen)
    return board, out


def test_they_are_other_styles_than_greedy():
    board, observations = _observations()
    assert len(observations) >= 20
    differ = {kind: 0 for kind in STYLES}
    for obs in observations:
        want = baselines.make("greedy", board, seed=3).decide(obs)
        for kind in STYLES:
            if baselines.make(kind, board, seed=3).decide(obs) != want:
                differ[kind] += 1
    for kind in STYLES:
        assert differ[kind] >= len(observations) // 10, (kind, differ)


def test_majority_values_near_majorities_and_fears_the_opponents():
    board = gamekit.board()
    g = rules.Game(board)
    player = baselines.MajorityPlayer(board)
    # the island with the most connections: three bridges of one side leave it short by one
    island = max(range(len(g.control)), key=lambda i: board.island_degree[i])
    conns = list(board.island_conns[island])
    need = board.island_degree[island] // 2 + 1
    assert need >= 2
    empty = player._metric(g, rules.WHITE)
    for k in conns[:need - 1]:
        g.bridges[k] = rules.WHITE
    assert stylebaselines._short_by_one(g, island, rules.WHITE)
    assert not stylebaselines._short_by_one(g, island, rules.BLACK)
    assert player._metric(g, rules.WHITE) > empty + (need - 1)  # more than its bridges
    assert player._metric(g, rules.BLACK) < empty - (need - 1)
    # blocked: the free connections taken by the other side, no near-majority is left
    for k in conns[need - 1:]:
        g.bridges[k] = rules.BLACK
    assert not stylebaselines._short_by_one(g, island, rules.WHITE)


def test_the_duel_accepts_their_names():
    for kind in STYLES:
        proc = run_duel("--white", kind, "--black", "ai", "--games", "2", "--seed", "3",
                        "--json")
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout)
        assert out["black"] == "ai" and out["white"] == kind
        assert sum(out["wins"].values()) + out["draws"] == 2
    assert set(STYLES) <= set(baselines.KINDS)
    with pytest.raises(ValueError):
        baselines.make("nobody", gamekit.board())


def test_they_play_the_same_on_micropython(mpy):
    for kind in STYLES:
        proc = run_duel("--white", "ai", "--black", kind, "--games", "2", "--seed", "4",
                        "--runtime", "micropython", "--json")
        assert proc.returncode == 0, proc.stderr
        here = json.loads(run_duel("--white", "ai", "--black", kind, "--games", "2",
                                   "--seed", "4", "--json").stdout)
        assert json.loads(proc.stdout)["by_seat"] == here["by_seat"]


def test_observe_is_what_they_get():
    """A guard for the no-peeking claim: the duel hands players `observe.Observation`s."""
    board, observations = _observations(1)
    assert all(isinstance(o, observe.Observation) for o in observations)
