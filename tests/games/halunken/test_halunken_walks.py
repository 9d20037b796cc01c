"""The figures' walks (games/halunken/walks.py, section 8.2: each figure light steps
along the ring as the figure moves): which space is lit in which figure's colour at which
time, several moves in the rules' order (H10, H9, H22), an event cutting them short, a
power cut replaying none, frames that allocate nothing mid-walk, the same timeline in the
MicroPython unix port."""

import glob
import json
import os

import pytest
from halunken_kit import EXAMPLE1_PILES, ORDERED, given, sp

import conformance
from games.halunken import controller as ctl
from games.halunken import deck, walks
from games.halunken.view import View
from mpy_runner import MicroPython

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
STEP = walks.STEP_MS
FIGS = ("p1", "p2", "p3", "p4", "blackjack")


@pytest.fixture(scope="module")
def board():
    return conformance.board_for("halunken")


def lit(board, view, frame):
    """{space name: figure name} of the space lights lit in a figure's colour."""
    out = {}
    for t, led in enumerate(board.space_led):
        px = tuple(frame[3 * led:3 * led + 3])
        for name in FIGS:
            if px == tuple(view.colours[name]) if name == "blackjack" else (
                    FIGS.index(name) < 4 and px == tuple(view.seat_colour[FIGS.index(name)])):
                out["T%d" % (t + 1)] = name
    return out


def play(c, events):
    for ev in events:
        verb, arg = ev.split()
        out = getattr(c, verb)(arg)
        assert out.kind != "refused", (ev, out.code)


def event(view, c, verb, arg, now):
    """An event at `now`, as the app does it: the controller, then the view's note."""
    out = getattr(c, verb)(arg)
    view.note(out, now)
    return out


def example1(board):
    """Example 1 (beginner, 3 players): p1 T1, p2 T3, p3 T6; p1 and p3 play 5 and
    cancel, p2 plays 3 and lands on p3 (a theft is open)."""
    g = given(3, "beginner", piles=[p.split(",") for p in EXAMPLE1_PILES])
    c = ctl.Controller(g)
    play(c, ("pick T1", "pick T3", "pick T6", "tap P1-5", "tap P2-3", "tap P3-5"))
    view = View(board)
    view.render(g, c, 0)
    return g, c, view


def test_a_move_steps_one_space_at_a_time_then_stays(board):
    g, c, view = example1(board)
    assert lit(board, view, view.render(g, c, 900)) == {"T1": "p1", "T3": "p2", "T6": "p3"}
    event(view, c, "press", "ok", 1000)
    assert g.step == "steal" and g.pos[1] == sp("T6")  # the rules moved p2 at once
    seen = {}
    for t in (1000, 1000 + STEP - 1, 1000 + STEP, 1000 + 2 * STEP - 1, 1000 + 2 * STEP,
              1000 + 5 * STEP):
        seen[t - 1000] = lit(board, view, view.render(g, c, t))
    # The first step at once, then one every STEP ms; the walker shows over the occupant.
    assert seen[0] == {"T1": "p1", "T4": "p2", "T6": "p3"}
    assert seen[STEP - 1] == seen[0]
    assert seen[STEP] == {"T1": "p1", "T5": "p2", "T6": "p3"}
    assert seen[2 * STEP - 1] == seen[STEP]
    # Arrived on p3's space: the frame at rest, as a fresh view shows it; the space shows
    # the figure that arrived while the theft is open (p3's seat light blinks, H9).
    rest = lit(board, view, View(board).render(g, c, 1000 + 2 * STEP))
    assert seen[2 * STEP] == rest == {"T1": "p1", "T6": "p2"}
    assert seen[5 * STEP] == rest  # and stays
    assert not view.busy(1000 + 5 * STEP)


def test_moves_of_one_event_play_in_the_rules_order(board):
    """4 players: p2 and p4 play 4 and cancel (H7); p3 (1) moves first, then p1 (2) lands
    on p2, who holds no crew (no theft, H28), and p2 is displaced to T4 right after it
    (H9). The round ends with the event: its numbers come from the cards played."""
    g = given(4, "beginner")
    c = ctl.Controller(g)
    play(c, ("pick T1", "pick T3", "pick T6", "pick T9"))
    g.crews[1] = []  # p2: no crew, and its tavern empty: nothing to steal (H28, H13)
    g.piles[sp("T3")] = []
    play(c, ("tap P1-2", "tap P2-4", "tap P3-1", "tap P4-4"))
    view = View(board)
    assert lit(board, view, view.render(g, c, 0)) == {
        "T1": "p1", "T3": "p2", "T6": "p3", "T9": "p4"}
    event(view, c, "press", "ok", 1000)
    assert g.round == 2 and [g.pos[s] for s in range(4)] == [sp("T3"), sp("T4"), sp("T7"),
                                                            sp("T9")]
    want = {
        0: {"T1": "p1", "T3": "p2", "T7": "p3", "T9": "p4"},  # p3's one step, at once
        STEP: {"T2": "p1", "T3": "p2", "T7": "p3", "T9": "p4"},  # p1 steps
        2 * STEP: {"T3": "p1", "T7": "p3", "T9": "p4"},  # p1 arrives over p2
        3 * STEP: {"T3": "p1", "T4": "p2", "T7": "p3", "T9": "p4"},  # p2 displaced
    }
    for t, spaces in want.items():
        assert lit(board, view, view.render(g, c, 1000 + t)) == spaces, t
    assert not view.busy(1000 + 3 * STEP)


def test_a_long_chain_ends_within_the_budget(board):
    """A whole round of movers on one event: every walk in order, the last step no later
    than BUDGET_MS after the event (the report's animations end within 2 s)."""
    g = given(3, "beginner")
    c = ctl.Controller(g)
    play(c, ("pick T1", "pick T3", "pick T6", "tap P1-6", "tap P2-7", "tap P3-5"))
    view = View(board)
    view.render(g, c, 0)
    event(view, c, "press", "ok", 1000)
    assert g.round == 2
    view.render(g, c, 1000)
    w = view.walks
    assert [w.fig[i] for i in range(w.n)] == [2, 0, 1]  # 5, 6, 7: lowest first (H10)
    assert sum(w.steps[i] for i in range(w.n)) == 18
    assert w.step_ms < STEP and w.end - 1000 <= walks.BUDGET_MS
    final = {"T%d" % (g.pos[s] + 1): "p%d" % (s + 1) for s in range(3)}
    assert lit(board, view, view.render(g, c, 1000 + walks.BUDGET_MS // 2)) != final
    assert lit(board, view, view.render(g, c, 1000 + walks.BUDGET_MS)) == final


def test_an_event_ends_the_walk_at_once_and_a_refusal_flashes(board):
    g, c, view = example1(board)
    event(view, c, "press", "ok", 1000)
    assert lit(board, view, view.render(g, c, 1010)) == {"T1": "p1", "T4": "p2", "T6": "p3"}
    out = event(view, c, "tap", "P3-2", 1100)  # refused: the walk ends, the seat flashes
    assert out.kind == "refused"
    frame = view.render(g, c, 1110)
    assert lit(board, view, frame) == lit(board, view, View(board).render(g, c, 1110))
    assert "T4" not in lit(board, view, frame)
    (kind, seat), = out.places
    led = board.seat_led[seat]
    assert kind == ctl.SEAT and tuple(frame[3 * led:3 * led + 3]) == tuple(view.colours["error"])
    assert not view.walks.busy(1110)
    # The theft declined: p3 is displaced one space (H9), its one step at once.
    event(view, c, "press", "done", 2000)
    assert lit(board, view, view.render(g, c, 2000)) == {"T1": "p1", "T6": "p2", "T7": "p3"}
    assert g.pos[2] == sp("T7")


def test_a_power_cut_replays_no_walk(board):
    """A new view (the board booted again) shows the figures where the game has them."""
    g, c, view = example1(board)
    event(view, c, "press", "ok", 1000)
    fresh = View(board)
    assert lit(board, fresh, fresh.render(g, c, 1010)) == {"T1": "p1", "T6": "p2"}
    assert not fresh.busy(1010)
    view.reset()  # a new game on the same view: likewise
    assert lit(board, view, view.render(g, c, 1010)) == {"T1": "p1", "T6": "p2"}


def test_H22_black_jacks_move_walks_and_its_undo_jumps_back(board):
    """Standard at a table: Black-Jack's turned card moves him (H22) a space at a time;
    taking the card back (undo) puts him back at once, no walk backwards or round."""
    from games.halunken import game
    g = game.new_state(None, {"players": 3, "mode": "standard", "deal": "table"})
    c = ctl.Controller(g)
    play(c, ("pick T1", "tap RED-1", "pick T5", "tap PURPLE-4", "pick T9", "tap GREY-6",
             "pick T3"))
    for _ in range(3):
        c.press("done")  # nobody bids
    play(c, ("tap P1-1", "tap P2-2", "tap P3-3", "press ok"))
    while g.step == "take":  # the takes at a table: any crew card still in a pile
        c.tap([n for n in ORDERED if not g.known(deck.crew_card(n))][0])
    assert g.step == "bj-card", g.step
    view = View(board)
    start = g.bj
    view.render(g, c, 0)
    event(view, c, "tap", "BJ-5", 1000)  # T3 to T8, passing p2 on T7: p2 gives a card
    frame = view.render(g, c, 1000)
    assert g.bj != start
    steps = (g.bj - start) % 14
    assert steps == 5 and g.step == "rob"
    assert view.walks.n == 1 and view.walks.steps[0] == steps
    bj_at = [k for k, v in lit(board, view, frame).items() if v == "blackjack"]
    assert bj_at == ["T%d" % ((start + 1) % 14 + 1)]
    event(view, c, "press", "back", 1100)  # his robbery awaited: back takes it all back
    assert g.bj == start and g.step == "bj-card"
    frame = view.render(g, c, 1100)
    assert view.walks.n == 0
    assert [k for k, v in lit(board, view, frame).items() if v == "blackjack"] == ["T3"]


MP_TIMELINE = r"""
import json
from core import board as boardmod
from games.halunken import controller as ctl, game
from games.halunken.view import View
b = boardmod.load('board_def/halunken.json', keep_raw=False)
piles = %s
g = game.new_state(b, {'players': 3, 'mode': 'beginner', 'piles': piles})
c = ctl.Controller(g)
for ev in ('pick T1', 'pick T3', 'pick T6', 'tap P1-6', 'tap P2-7', 'tap P3-5'):
    verb, arg = ev.split()
    getattr(c, verb)(arg)
v = View(b)
v.render(g, c, 0)
v.note(c.press('ok'), 1000)
out = []
for t in range(1000, 3200, 40):
    f = v.render(g, c, t)
    out.append([list(f[3 * led:3 * led + 3]) for led in b.space_led])
print(json.dumps(out))
"""


def timeline(run):
    from halunken_kit import in_order_piles
    return run(MP_TIMELINE % json.dumps(in_order_piles()))


@pytest.mark.micropython
def test_the_walks_are_the_same_in_the_micropython_unix_port():
    def cpython(code):
        import contextlib
        import io
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            exec(compile(code, "<walk>", "exec"), {})
        return buf.getvalue()
    mp = MicroPython(heap_kib=512).run_code(timeline(lambda code: code))
    assert json.loads(mp) == json.loads(timeline(cpython))
    frames = json.loads(mp)
    assert len({json.dumps(f) for f in frames}) > 10  # it walks: many different frames


@pytest.mark.micropython
def test_frames_mid_walk_allocate_nothing_under_micropython():
    """The frame path (App, view, LED driver) while a round's walks play after the
    reveal of a dealt deck: a frame allocates nothing."""
    out = MicroPython(heap_kib=512).run_code(
        "import gc\n"
        "from host_tools.fakehw.strip import VirtualNeoPixel\n"
        "from hw.leds import Strip\n"
        "from core import board as boardmod\n"
        "from core.app import App\n"
        "from core.cards import Registry\n"
        "from core import gameload\n"
        "game_def = gameload.load('halunken')\n"
        "b = boardmod.load('board_def/halunken.json', keep_raw=False)\n"
        "app = App(game_def, b, Registry(game_def.card_names(b)),\n"
        "          Strip(VirtualNeoPixel(b.led_count), b.led_count),\n"
        "          {'players': 3, 'mode': 'beginner', 'seed': 5})\n"
        "for t in ('T1', 'T3', 'T6'):\n"
        "    app.pick(t, 0)\n"
        "for card in ('P1-6', 'P2-7', 'P3-5'):\n"
        "    app.tap_card(card, 0)\n"
        "app.press('ok', 1000)\n"
        "app.show(1000)\n"
        "def measure():\n"
        "    gc.collect()\n"
        "    gc.disable()\n"
        "    a = gc.mem_alloc()\n"
        "    for i in range(60):\n"
        "        app.show(1020 + 20 * i)\n"
        "    return gc.mem_alloc() - a\n"
        "w = app.view.walks\n"
        "print(app.game.round, w.n, w.busy(1500), measure())\n")
    rnd, n, busy, allocated = out.split()
    assert rnd == "2" and int(n) >= 2 and busy == "True"
    assert allocated == "0"


SCENARIOS = sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "halunken", "*.scn")))


@pytest.mark.parametrize("path", SCENARIOS, ids=[os.path.basename(p) for p in SCENARIOS])
def test_two_seconds_after_the_last_event_every_figure_light_is_at_rest(path):
    """The report's `leds` keeps its meaning (the contract's "as in Kahuna": every
    animation ends within 2,000 ms): each scenario with `wait 2000` after its last event
    has the space lights of a view that never walked (a fresh one, at the same time)."""
    from core import board as boardmod
    from host_tools.simulator.engine import Simulation
    from host_tools.simulator.scenario import parse
    board = boardmod.load(os.path.join(ROOT, "board_def", "halunken.json"))
    with open(path, encoding="utf-8") as f:
        commands = parse(f.read() + "wait 2000\n", board)
    sim = Simulation(board)
    sim.run(commands)
    app = sim.app
    rest = View(board).render(app.game, app.referee, sim.now)
    frame = app.view.render(app.game, app.referee, sim.now)
    for led in board.space_led:
        assert frame[3 * led:3 * led + 3] == rest[3 * led:3 * led + 3], led


@pytest.mark.parametrize("settings", (
    {"players": 3, "mode": "standard", "seed": 11},
    {"players": 4, "mode": "beginner", "seed": 2, "first": "p2"},
    {"players": 2, "mode": "tactical", "seed": 3}))
def test_walks_depend_on_public_information_only(board, settings):
    """A whole random game with a dealt deck: before each action, twins that differ only
    in hidden cards (the cards below the tops, Black-Jack's next cards, an unrevealed
    choice: halunken_kit.twins); each has a view that saw it, then takes the same action.
    Twins whose public state is still the same after it (a choice that was revealed, or
    Black-Jack's card that was turned, may differ) walk with the same frames."""
    import halunken_kit

    from games.halunken import game
    _, actions, _ = conformance.playout("halunken", settings, 5, halunken_kit.chooser())
    g = game.new_state(board, settings)
    compared = walked = 0
    for act in actions:
        groups = {}
        for s in [halunken_kit._copy(g)] + halunken_kit.twins(g):
            view = View(board)
            view.render(s, ctl.Controller(s), 0)
            try:
                s.apply(act)
            except Exception:  # a twin for which the action is not legal: no twin
                continue
            c = ctl.Controller(s)
            frames = [bytes(view.render(s, c, 1000))]
            walked += view.walks.n > 0
            frames += [bytes(view.render(s, c, t)) for t in (1130, 1450, 1777, 2600)]
            public = game.report(s)
            public.pop("hidden")
            groups.setdefault(json.dumps(public, sort_keys=True), []).append(frames)
        for same in groups.values():
            for other in same[1:]:
                assert other == same[0], act
                compared += 1
        g.apply(act)
    assert compared > 50 and walked > 10


def test_terminal_play_draws_the_figures_once_their_walks_have_arrived(board):
    """`sim --game halunken` without a scenario draws the ring from the strip's last frame
    after each command: by then (play.SETTLE_MS) a whole dealt round's walks have arrived,
    so each captain's space light is its seat's colour."""
    from core import board as boardmod
    from host_tools.games.halunken import play as termplay
    from host_tools.simulator.engine import Simulation
    from host_tools.simulator.scenario import card_names
    b = boardmod.load(os.path.join(ROOT, "board_def", "halunken.json"))
    sim = Simulation(b)
    sim.kit.start({"players": 3, "mode": "beginner", "seed": 5})
    cards = card_names(b)
    for n, text in enumerate(("T1", "T3", "T6", "P1-6", "P2-7", "P3-5"), 1):
        termplay.run_line(sim, text, n, cards)
    before = list(sim.app.game.pos)
    termplay.run_line(sim, "ok", 7, cards)
    assert sim.rejected == []
    g = sim.app.game
    assert g.round == 2 and list(g.pos) != before  # every captain moved on one event
    leds = sim.np.rgb()
    view = sim.app.view
    for s in range(3):
        assert tuple(leds[b.space_led[g.pos[s]]]) == tuple(view.seat_colour[s]), s


def test_a_power_cut_in_the_simulator_comes_back_at_rest():
    """A power cut mid-walk: the board boots from the journal with every figure where
    the game has it, and nothing walks (the simulator's `power-cut`)."""
    from core import board as boardmod
    from host_tools.simulator.engine import Simulation
    from host_tools.simulator.scenario import parse
    b = boardmod.load(os.path.join(ROOT, "board_def", "halunken.json"))
    text = ("option players=3\noption mode=beginner\noption seed=5\npick T1\npick T3\n"
            "pick T6\ntap P1-6\ntap P2-7\ntap P3-5\npress ok\n")
    commands = parse(text + "power-cut\n", b)
    sim = Simulation(b)
    sim.run(commands[:-1])
    assert sim.app.view.walks.busy(sim.now)  # walking when the power fails
    sim.run(commands[-1:])
    app = sim.app
    assert not app.view.walks.busy(sim.now) and app.game.round == 2
    leds = sim.np.rgb()
    for s in range(3):
        assert tuple(leds[b.space_led[app.game.pos[s]]]) == tuple(app.view.seat_colour[s])


def test_a_named_rum_walks_in_its_numbers_turn(board):
    """H7, H10: p1's RUM named 3 moves after p2's 2 and before p3's 5; the round ends with
    the event (the new round forgets the named number: the walk's length tells it)."""
    g = given(3, "beginner")
    c = ctl.Controller(g)
    play(c, ("pick T1", "pick T3", "pick T6", "tap P1-RUM", "tap P2-2", "tap P3-5",
             "press ok"))
    assert g.step == "rum"
    view = View(board)
    view.render(g, c, 0)
    event(view, c, "pick", "3", 1000)
    assert g.round == 2
    view.render(g, c, 1000)
    w = view.walks
    assert [(w.fig[i], w.steps[i]) for i in range(w.n)] == [(1, 2), (0, 3), (2, 5)]
    assert lit(board, view, view.render(g, c, 1000 + STEP)) == {
        "T1": "p1", "T5": "p2", "T6": "p3"}  # p2 has arrived; p1 waits for its turn


def test_H10_displaced_before_its_move_it_steps_aside_then_moves_in_its_turn(board):
    """4 players, one event: p3 (1) T6-T7; p1 (2) T1-T3 onto p2, who holds no crew (no
    theft, H28): p2 steps aside to T4 right after p1 (H9); p2 (4) then moves from T4 to
    T8 in its own turn (H10); p4 (7) T9-T2 last."""
    g = given(4, "beginner")
    c = ctl.Controller(g)
    play(c, ("pick T1", "pick T3", "pick T6", "pick T9"))
    g.crews[1] = []
    g.piles[sp("T3")] = []
    play(c, ("tap P1-2", "tap P2-4", "tap P3-1", "tap P4-7"))
    view = View(board)
    view.render(g, c, 0)
    event(view, c, "press", "ok", 1000)
    assert g.round == 2 and [g.pos[s] for s in range(4)] == [sp("T3"), sp("T8"), sp("T7"),
                                                            sp("T2")]
    view.render(g, c, 1000)
    w = view.walks
    assert [(w.fig[i], w.frm[i] + 1, w.steps[i]) for i in range(w.n)] == [
        (2, 6, 1), (0, 1, 2), (1, 3, 1), (1, 4, 4), (3, 9, 7)]
    ms = w.step_ms
    assert ms == walks.BUDGET_MS // 14  # 15 steps in all
    # p1 arrives on T3 (over p2), then p2 steps aside to T4 and waits there for its turn.
    assert lit(board, view, view.render(g, c, 1000 + 2 * ms)) == {
        "T3": "p1", "T7": "p3", "T9": "p4"}
    assert lit(board, view, view.render(g, c, 1000 + 3 * ms)) == {
        "T3": "p1", "T4": "p2", "T7": "p3", "T9": "p4"}
    assert lit(board, view, view.render(g, c, 1000 + 4 * ms)) == {
        "T3": "p1", "T5": "p2", "T7": "p3", "T9": "p4"}
    assert lit(board, view, view.render(g, c, 1000 + 7 * ms)) == {
        "T3": "p1", "T8": "p2", "T7": "p3", "T9": "p4"}
    assert lit(board, view, view.render(g, c, 1000 + 8 * ms)) == {
        "T3": "p1", "T8": "p2", "T7": "p3", "T10": "p4"}
