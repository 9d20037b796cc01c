"""Kami's board player (games/kami/ai.py), its seats at the table (solo.py, setting `ai`),
its baselines and `duel --game kami`.

- no peeking: a twin game that differs only in the cards the seat may not know (other
  hands, face-down defences, the set-aside and hidden centre cards) gets the same
  decisions, on both runtimes; a player that peeks is caught by the same check;
- decisions the rules name: the master stroke (K8), the last card's points (K7), the
  partner's lead (4 players), an opponent's last cards, the 5-Soldier claim (K11);
- the board plays its seats through the controller to the end, a person's event in its
  turn is refused and changes nothing;
- the duel: every answer legal, the same games on both runtimes, its command line prints a
  rate per player, seat and team (a handful of games: the strength is the README's figure).
"""

import json
import subprocess
import sys

import pytest
from ai_peek import (
    new_game,
    peek_check,
    peeking_at_the_hidden_cards,
    peeking_at_the_next_hand,
    settings_for,
    twin,
)

from core import gameload
from core.app import App
from core.board import load as load_board
from games.kami import ai, deck, game, rules
from host_tools.games.kami import duelgames
from mpy_runner import ROOT

PEEK_SEEDS = range(9)  # 2, 3 and 4 players, every mode (settings_for)


def card(name):
    return deck.index(name)


# ---------------------------------------------------------------------- no peeking

def test_no_peeking_decisions_do_not_depend_on_hidden_cards():
    counts = set()
    for seed in PEEK_SEEDS:
        counts.add(settings_for(seed)["players"])
        decisions, changed, differing = peek_check(seed)
        assert differing == [], (seed, differing[:3])
        assert decisions and changed == len(decisions)  # every twin hid something else
    assert counts == {2, 3, 4}


@pytest.mark.parametrize("cheat", [peeking_at_the_next_hand, peeking_at_the_hidden_cards])
def test_a_peeking_player_is_caught(cheat):
    assert any(peek_check(seed, cheat)[2] for seed in PEEK_SEEDS)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_twin_moves_only_hidden_cards(players):
    g = new_game({"players": players, "mode": "soldat", "first": 0, "target": 15,
                  "seed": 3})
    for _ in range(6):  # a few plays: face-down defences on the lines
        g.apply(ai.choose(g, ai.acting_seat(g)))
    seat = ai.acting_seat(g)
    t, moved = twin(g, seat)
    assert moved > 2
    assert ai.observe(t, seat) == ai.observe(g, seat)
    others = [s for s in range(players) if s != seat]
    assert [t.hands[s] for s in others] != [g.hands[s] for s in others]
    assert t.hands[seat] == g.hands[seat]
    if players == 2:
        assert t.down != g.down
    if players == 3:
        assert t.aside != g.aside


def test_no_peeking_on_micropython(mpy):
    for seed in (0, 1, 2):  # 2, 3 and 4 players
        out = mpy.run_script("tests/mp/kami_ai.py", "peek", str(seed), timeout=300)
        decisions, changed, differing = json.loads(out.strip().splitlines()[-1])
        assert differing == [] and changed == len(decisions) > 0
        assert decisions == peek_check(seed)[0]  # the same player


# ---------------------------------------------------------------------- decisions

def position(players, seat, hand, step, attack=None, sizes=None):
    """An observation of a fresh seeded game with the seat's hand and the step set."""
    g = new_game({"players": players, "mode": "soldat", "first": 0, "target": 15, "seed": 1})
    obs = ai.observe(g, seat)
    obs["hand"] = [card(n) for n in hand]
    obs["step"] = step
    obs["attack"] = attack
    obs["played"] = True
    if sizes is not None:
        obs["sizes"] = sizes
    return obs


def test_the_master_stroke_and_the_last_cards_points():
    # K8, K13 (2 players): two identical cards at the opening, one face down, the other
    # ends the round doubled; not the face-up centre Fou laid down instead
    obs = position(2, 0, ["TOUR-1", "TOUR-2"], "open")
    obs["up"] = [card("FOU-1")] + [-1] * 7
    acts = [("defend", c) for c in obs["hand"]] + [("defend", card("FOU-1"))]
    assert ai.decide(obs, acts) == ("defend", card("TOUR-1"))
    # K7: the last card scores its points: keep the Tower, lay the Gold down
    obs = position(4, 0, ["OR-1", "TOUR-1"], "open")
    assert ai.decide(obs, [("defend", c) for c in obs["hand"]]) == ("defend", card("OR-1"))
    obs["hand"] = [card("TOUR-1")]
    obs["down"] = card("OR-1")
    assert ai.decide(obs, [("attack", card("TOUR-1"))]) == ("attack", card("TOUR-1"))


def test_the_partner_keeps_the_lead_an_opponent_near_his_end_is_countered():
    hand = ["LANCE-1", "LANCE-2", "OR-1", "FOU-1", "SOLDAT-1", "SOLDAT-2"]
    acts = [("counter", card("LANCE-1")), ("counter", card("LANCE-2")), ("pass",)]
    partner = position(4, 0, hand, "respond", attack=[2, card("LANCE-3")])
    assert ai.decide(partner, acts) == ("pass",)
    near = position(4, 0, hand, "respond", attack=[1, card("LANCE-3")], sizes=[6, 1, 5, 6])
    assert ai.decide(near, acts)[0] == "counter"


def test_an_attack_nobody_can_counter_is_preferred():
    # the seat sees both Towers' other copy and all four Golds but one: a Tower is safe
    g = new_game({"players": 3, "mode": "soldat", "first": 0, "target": 15, "seed": 1})
    obs = ai.observe(g, 0)
    obs["hand"] = [card(n) for n in ("TOUR-1", "TOUR-2", "SOLDAT-1", "SOLDAT-2",
                                     "IMPERATRICE-1", "IMPERATRICE-2", "FOU-1")]
    obs["step"] = "attack"
    acts = [("attack", c) for c in obs["hand"] if deck.KIND[c] != deck.IMPERATRICE]
    assert deck.KIND[ai.decide(obs, acts)[1]] in (5, 6)  # Tower or Fou, never a Soldier


def five_soldiers_game(claimant):
    """4 players, a given deal with five Soldiers in `claimant`'s hand."""
    cards = list(range(deck.COUNT))  # SOLDAT-1..10 first
    hands = [[], [], [], []]
    hands[claimant] = cards[:5] + cards[10:13]
    rest = cards[5:10] + cards[13:]  # 24 cards, the other five Soldiers spread out
    others = [s for s in range(4) if s != claimant]
    for k in range(3):
        hands[others[k]] = rest[k::3]
    g = rules.Game(players=4, deal="given")
    g.apply(("deal", hands, None, None))
    return g


def test_the_5_soldier_claim_once_per_deal():
    g = five_soldiers_game(2)
    assert ai.claimant(g, [0, 1, 3], []) == -1  # not the board's seat
    assert ai.claimant(g, [0, 2], []) == 2
    key = ai.claim_key(g, 2)
    assert ai.claimant(g, [0, 2], [key]) == -1  # claimed already: it plays on
    g.apply(("discard",))
    g.apply(("pick", 2))
    while g.phase == "claim" and g.claim[1] == "cards":
        g.apply(ai.choose(g, 2))
    assert len(g.claim[2]) == 5 and ai.acting_seat(g) == 0  # the partner answers
    answer = ai.choose(g, 0)
    weak = ai.hand_points(g.hands[0]) < ai.WEAK_HAND
    assert answer == (("cancel",) if weak else ("keep",))
    g.apply(answer)
    assert g.phase == "play" and g.round == 1
    assert ai.claimant(rules.Game(players=3, deal="seed", seed=1), [0, 1, 2], []) == -1


# ---------------------------------------------------------------------- the board's seats

class NullStrip:
    def show(self, frame):
        pass


def board_app(settings):
    board = load_board(ROOT + "/board_def/kami.json", keep_raw=False)
    return App(gameload.load("kami"), board, None, NullStrip(), settings)


def test_settings_ai_lists_seats_once_with_a_known_deal():
    assert game.check_settings({"seed": 1, "ai": ["p4", "p2"]})["ai"] == ["p2", "p4"]
    assert "ai" not in game.check_settings({"seed": 1, "ai": []})
    for bad, words in ((["p4"], "'p4' is not a seat p1..p3"), (["p2", "p2"], "twice"),
                       ("p2", "must list")):
        with pytest.raises(ValueError, match=words):
            game.check_settings({"players": 3, "seed": 1, "ai": bad})
    with pytest.raises(ValueError, match="known deal"):  # K20: no hand at a table
        game.check_settings({"players": 3, "ai": ["p2"]})
    assert game.solo(game.new_state(None, {"seed": 1}), None, None) is None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_board_plays_every_seat_to_the_end(players):
    settings = {"players": players, "seed": 21, "target": 10,
                "ai": ["p%d" % (i + 1) for i in range(players)]}
    app = board_app(settings)
    outs = []
    app.listen(outs.append)
    now = 0
    while not app.game.is_over() and now < 10 ** 7:
        now += 50
        app.tick_ai(now)
    g = app.game
    assert g.is_over() and [o for o in outs if o.kind == "refused"] == []
    # the same game by the rules alone: the actions the board entered, chosen again
    twin_g = game.new_state(None, {"players": players, "seed": 21, "target": 10})
    claimed = []
    while not twin_g.is_over():
        s = ai.claimant(twin_g, list(range(players)), claimed)
        if s >= 0:
            claimed.append(ai.claim_key(twin_g, s))
            twin_g.apply(("discard",))
            twin_g.apply(("pick", s))
        else:
            twin_g.apply(ai.choose(twin_g, ai.acting_seat(twin_g)))
    assert twin_g.rounds == g.rounds and twin_g.scores == g.scores


def test_a_persons_event_in_the_boards_turn_is_refused_and_changes_nothing():
    app = board_app({"players": 4, "seed": 5, "ai": ["p1", "p3"]})  # a team of the board
    g = app.game
    assert g.turn == 0 and app.solo.waiting_for() == 0
    before = g.snapshot()
    mine = deck.NAMES[g.hands[1][0]]
    out = app.tap_card(mine, 0)
    assert out.kind == "refused" and out.code == "wrong-phase" and g.snapshot() == before
    out = app.press("done", 0)
    assert out.kind == "refused" and g.snapshot() == before
    app.tick_ai(50)  # the board lays its defence face down: a private acknowledgement
    assert g.step == "attack" and app.referee.outcome.private
    app.tick_ai(100)
    assert g.step == "respond" and g.turn == 1 and app.solo.waiting_for() == -1
    assert app.solo.say() == ""


# ---------------------------------------------------------------------- the duel

@pytest.mark.parametrize("players,lineup", [
    (2, ["ai", "random"]), (3, ["ai", "greedy", "random"]),
    (4, ["ai", "greedy", "greedy", "random"]), (4, ["greedy", "ai", "random", "ai"])])
def test_every_duel_answer_is_legal_and_wins_are_counted(players, lineup):
    spec = {"players": players, "mode": "seigneur", "target": 8, "lineup": lineup,
            "games": players, "seed": 3, "runs": 1}
    out = duelgames.duel(spec)  # DuelError on an illegal answer
    assert out["games"] == players
    assert [sum(p) for p in out["played"]] == [players] * players  # every seat once
    wins = [sum(w) for w in out["wins"]]
    assert sum(wins) == players * (2 if players == 4 else 1)  # a team wins with 2 seats
    assert out["times_us"]


def duel_cli(*args):
    return subprocess.run([sys.executable, "-m", "host_tools", "duel", "--game", "kami"]
                          + list(args), cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def test_the_duel_prints_rates_per_seat_and_team():
    proc = duel_cli("--players", "4", "--games", "4", "--target", "5", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["lineup"] == ["ai", "greedy", "ai", "greedy"] and out["share"] == 0.5
    teams = out["teams"]
    assert [t["team"] for t in teams] == ["ai+ai(1+3)", "greedy+greedy(2+4)"]
    assert sum(t["wins"] for t in teams) == 4
    assert teams[0]["rate"] == out["results"][0]["rate"] == out["results"][2]["rate"]
    proc = duel_cli("--players", "3", "--games", "3", "--target", "5")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "3 players" in lines[0] and "a fair share is 33.3%" in lines[0]
    assert [ln.split()[0] for ln in lines[2:5]] == ["ai(1)", "greedy(2)", "random(3)"]
    assert sum(int(ln.split()[1]) for ln in lines[2:5]) == 3
    assert "AI time per decision" in proc.stdout
    bad = duel_cli("--players", "2", "--lineup", "ai,robot")
    assert bad.returncode == 2 and "unknown player 'robot'" in bad.stderr


def test_the_duel_is_the_same_game_on_micropython(mpy):
    for lineup in (["ai", "random"], ["ai", "greedy", "random"], ["ai", "greedy", "ai",
                                                                   "random"]):
        spec = {"players": len(lineup), "mode": "soldat", "target": 5, "lineup": lineup,
                "games": 2, "seed": 7, "runs": 1}
        out = mpy.run_script("host_tools/games/kami/duelgames.py", json.dumps(spec),
                             timeout=300)
        got = json.loads(out.strip().splitlines()[-1])
        want = duelgames.duel(spec)
        for key in ("wins", "played", "claims", "rounds"):
            assert got[key] == want[key], (lineup, key)
        assert len(got["times_us"]) == len(want["times_us"])


def test_a_claim_survives_a_power_cut_and_is_not_made_again():
    from core.journal import Journal
    from host_tools.fakehw.flash import VirtualFlash

    seed = next(s for s in range(500) if ai.claimant(
        game.new_state(None, {"players": 4, "seed": s}), [0, 1, 2, 3], []) >= 0)
    settings = {"players": 4, "seed": seed, "target": 3, "ai": ["p1", "p2", "p3", "p4"]}
    board = load_board(ROOT + "/board_def/kami.json", keep_raw=False)
    flash = VirtualFlash()

    def boot():
        return App(gameload.load("kami"), board, None, NullStrip(), dict(settings),
                   journal=Journal("/game.jnl", flash))

    app = boot()
    app.new_game(dict(settings))
    now = 0
    while not app.solo.claimed:
        now += 50
        app.tick_ai(now)
    made = list(app.solo.claimed)
    while app.game.phase == "claim":  # the Soldiers shown and the partner's answer
        now += 50
        app.tick_ai(now)
    app = boot()  # a power cut: the journal replays the game and the board's claims
    assert app.solo.claimed == made
    while not app.game.is_over() and now < 10 ** 7:
        now += 50
        app.tick_ai(now)
    assert app.game.is_over()


def sim_with(settings):
    from host_tools.simulator.engine import Simulation
    sim = Simulation(load_board(ROOT + "/board_def/kami.json", keep_raw=False))
    sim.kit.start(settings)
    sim.advance(100)
    return sim


def test_a_person_and_the_boards_partner_on_the_simulated_board():
    """4 players, the person at p1 (its plays chosen from its own hand and the public
    table, entered as taps and presses), the board at p2, p3 (the person's partner) and
    p4, on the simulated board's virtual time, to the end of the game."""
    from host_tools.games.kami.baselines import GreedyPlayer

    sim = sim_with({"players": 4, "seed": 9, "target": 5, "ai": ["p2", "p3", "p4"]})
    g = sim.app.game
    person = GreedyPlayer()
    plays = 0
    while not g.is_over() and sim.now < 10 ** 7:
        acts = ai.seat_actions(g, 0)
        if not acts:
            sim.advance(50)  # the board's seats play in their ticks
            continue
        act = person.decide(ai.observe(g, 0), acts)
        if act[0] in ("defend", "attack", "counter", "show"):
            sim.app.tap_card(deck.NAMES[act[1]], sim.now)
        elif act[0] in ("pass", "shown"):
            sim.app.press("done", sim.now)
        else:  # a claim's answer or a withdrawal: play on
            sim.app.press("back", sim.now)
        plays += 1
    assert g.is_over() and sim.rejected == [] and plays > 10
    assert len(g.rounds) >= 2


def test_a_persons_claim_naming_the_boards_seat_is_answered_by_the_board():
    """K11: a person opens the claim and names the board's seat p3 as claimant: the board
    shows its Soldiers if it holds five, else withdraws; never stuck waiting."""
    seed = next(s for s in range(500) if ai.claimant(
        game.new_state(None, {"players": 4, "seed": s}), [2], []) >= 0)
    app = board_app({"players": 4, "seed": seed, "ai": ["p3"]})
    g = app.game
    assert app.press("discard", 0).kind == "accepted"
    assert app.solo.waiting_for() == -1  # a person's claim: the person picks
    assert app.pick("p3", 0).kind == "accepted"
    now = 0
    while g.phase == "claim" and g.claim[1] == "cards":
        now += 50
        app.tick_ai(now)
    assert g.phase == "claim" and g.claim[1] == "answer" and len(g.claim[2]) == 5
