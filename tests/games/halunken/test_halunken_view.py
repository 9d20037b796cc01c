"""Halunken's view (games/halunken/view.py): the lights of section 8.1 (H30, H31) from
public information only, the cursor, the refusal flash, and no heap allocation per frame."""

import pytest
from halunken_kit import given

import conformance
from games.halunken import controller as ctl
from games.halunken.view import PILE_LEVELS, View
from mpy_runner import MicroPython


@pytest.fixture(scope="module")
def board():
    return conformance.board_for("halunken")


def rgb(frame, led):
    return tuple(frame[3 * led:3 * led + 3])


def colour(view, name, level=256):
    return tuple((v * level) >> 8 for v in view.colours[name]) if level < 256 else tuple(
        view.colours[name])


def setup(players=3, mode="beginner"):
    g = given(players, mode)
    c = ctl.Controller(g)
    for t in ("T1", "T3", "T6", "T9")[:players]:
        c.pick(t)
    return g, c


def test_H30_pile_lights_show_three_levels_of_white_and_never_the_cards(board):
    g, c = setup()
    view = View(board)
    frame = view.render(g, c, 0)
    assert rgb(frame, board.pile_led[0]) == colour(view, "pile", PILE_LEVELS[2])  # T1: 2 left
    assert rgb(frame, board.pile_led[1]) == colour(view, "pile")  # T2: 3 left
    g.piles[1] = g.piles[1][:1]
    assert rgb(view.render(g, c, 0), board.pile_led[1]) == colour(view, "pile", PILE_LEVELS[1])
    g.piles[1] = []
    assert rgb(view.render(g, c, 0), board.pile_led[1]) == (0, 0, 0)
    levels = {PILE_LEVELS[k] for k in (1, 2, 3)}
    assert len(levels) == 3 and 0 not in levels


def test_H31_space_lights_show_the_figures_in_their_colours(board):
    g, c = setup(3, "standard")
    c.pick("T4")  # Black-Jack
    view = View(board)
    frame = view.render(g, c, 0)
    assert rgb(frame, board.space_led[0]) == colour(view, "p1")
    assert rgb(frame, board.space_led[2]) == colour(view, "p2")
    assert rgb(frame, board.space_led[5]) == colour(view, "p3")
    assert rgb(frame, board.space_led[3]) == colour(view, "blackjack")
    assert rgb(frame, board.space_led[1]) == (0, 0, 0)  # vacant


def test_the_cursor_blinks_on_its_space_and_moves(board):
    g = given(3, "beginner")
    c = ctl.Controller(g)
    view = View(board)
    on = bytes(view.render(g, c, 100))
    off = bytes(view.render(g, c, 400))
    led = board.space_led[0]
    assert rgb(on, led) == colour(view, "cursor") and rgb(off, led) == (0, 0, 0)
    c.press("next")
    assert rgb(view.render(g, c, 100), board.space_led[1]) == colour(view, "cursor")
    assert rgb(view.render(g, c, 100), led) == (0, 0, 0)


def test_seat_lights_in_the_secret_choice(board):
    g, c = setup()
    view = View(board)
    c.tap("P1-4")
    frame = view.render(g, c, 250)
    assert rgb(frame, board.seat_led[0]) == colour(view, "p1")  # chosen: steady
    assert rgb(frame, board.seat_led[1]) != (0, 0, 0)  # expected: pulses
    assert rgb(frame, board.seat_led[2]) == (0, 0, 0)
    assert rgb(frame, board.seat_led[3]) == (0, 0, 0)  # no fourth seat


def test_auction_seat_and_port_lights(board):
    g, c = setup(3, "standard")
    c.pick("T4")
    view = View(board)
    speaker = g.auction["speaker"]
    c.press("done")  # the opener passes
    frame = view.render(g, c, 0)
    assert rgb(frame, board.seat_led[speaker]) == colour(view, "p%d" % (speaker + 1), 48)
    assert rgb(frame, board.port_led) == (0, 0, 0)
    s = g.auction["speaker"]
    card = g.crews[s][0]
    from games.halunken import deck
    c.tap(deck.crew_name(card))
    frame = view.render(g, c, 0)
    if g.step == "auction":
        assert rgb(frame, board.port_led) == colour(view, "p%d" % (s + 1))  # high bidder


def test_round_lights(board):
    g, c = setup()
    view = View(board)
    assert rgb(view.render(g, c, 0), board.round_led[0]) == colour(view, "round", 48)
    assert rgb(view.render(g, c, 0), board.round_led[1]) == (0, 0, 0)


def test_a_refusal_flashes_its_places(board):
    g, c = setup()
    view = View(board)
    out = c.tap("P3-2")  # out of turn: p3's seat flashes
    assert out.places == (("seat", 2),)
    view.note(out, 1000)
    assert rgb(view.render(g, c, 1010), board.seat_led[2]) == colour(view, "error")
    assert rgb(view.render(g, c, 1000 + 2000), board.seat_led[2]) == (0, 0, 0)


@pytest.mark.micropython
def test_frames_allocate_nothing_under_micropython():
    """The frame path alone (App, view, LED driver into a NeoPixel buffer) in the middle
    of a standard auction: a frame in the steady state allocates nothing."""
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
        "          {'players': 3, 'mode': 'standard', 'seed': 5})\n"
        "for t in ('T1', 'T3', 'T6', 'T9'):\n"
        "    app.pick(t, 0)\n"
        "app.press('done', 0)\n"
        "for i in range(20):\n"
        "    app.show(20 * i)\n"
        "def measure():\n"
        "    gc.collect()\n"
        "    gc.disable()\n"
        "    a = gc.mem_alloc()\n"
        "    for i in range(200):\n"
        "        app.show(1000 + 20 * i)\n"
        "    return gc.mem_alloc() - a\n"
        "print(app.game.step, measure())\n")
    step, allocated = out.split()
    assert step == "auction"
    assert allocated == "0"


def test_reveal_blinks_every_seat_and_a_theft_blinks_the_victim(board):
    from halunken_kit import EXAMPLE1_PILES
    g = given(3, "beginner", piles=[p.split(",") for p in EXAMPLE1_PILES])
    c = ctl.Controller(g)
    for ev in ("pick T1", "pick T3", "pick T6", "tap P1-5", "tap P2-3", "tap P3-5"):
        verb, arg = ev.split()
        getattr(c, verb)(arg)
    view = View(board)
    on, off = bytes(view.render(g, c, 100)), bytes(view.render(g, c, 400))
    for s in range(3):
        assert rgb(on, board.seat_led[s]) == colour(view, "p%d" % (s + 1))
        assert rgb(off, board.seat_led[s]) == (0, 0, 0)  # all blink together
    c.press("ok")
    assert g.step == "steal"  # p2 on p3's space: p3 (the victim) blinks, p2 pulses
    on, off = bytes(view.render(g, c, 100)), bytes(view.render(g, c, 400))
    assert rgb(on, board.seat_led[2]) == colour(view, "p3")
    assert rgb(off, board.seat_led[2]) == (0, 0, 0)
    assert rgb(on, board.seat_led[1]) != (0, 0, 0) and rgb(on, board.seat_led[0]) == (0, 0, 0)


def test_game_over_the_winners_pulse(board):
    g = given(3, "beginner")
    g.restore(_finished())
    assert g.is_over()
    view = View(board)
    c = ctl.Controller(g)
    a, b = bytes(view.render(g, c, 0)), bytes(view.render(g, c, 500))
    for s in range(3):
        lit = rgb(a, board.seat_led[s]) != rgb(b, board.seat_led[s])
        assert lit == (s in g.winners()), s
    assert all(rgb(a, led) == colour(view, "round") for led in board.round_led)


def _finished():
    from games.halunken import game
    g = game.new_state(None, {"players": 3, "mode": "beginner", "seed": 4})
    while not g.is_over():
        g.apply([a for a in g.legal_actions() if a[0] != "undo"][0])
    return g.snapshot()


@pytest.mark.parametrize("settings", (
    {"players": 3, "mode": "standard", "deal": "table"},
    {"players": 2, "mode": "tactical", "deal": "table", "first": "p2"}))
def test_H33_at_a_table_frames_show_public_information_only(board, settings):
    """A whole random game at a table: in step take the pile taken from blinks, and every
    frame is the same for twins that differ in a seat's (or W's Black-Jack) unrevealed
    choice; no card of a pile exists to show."""
    import halunken_kit

    from games.halunken import game
    _, actions, _ = conformance.playout("halunken", settings, 9, halunken_kit.chooser())
    g = game.new_state(board, settings)
    compared = takes = 0
    for act in actions:
        g.apply(act)
        frames = []
        for s in [g] + halunken_kit.twins(g):
            frames.append([bytes(View(board).render(s, ctl.Controller(s), t))
                           for t in (0, 130, 777)])
        assert all(f == frames[0] for f in frames[1:]), act
        compared += len(frames) - 1
        if g.step == "take":
            takes += 1
            lit = rgb(frames[0][0], board.pile_led[g.taking[1]])  # blink on at t=0
            assert lit == colour(View(board), "cursor")
    assert compared > 20 and takes > 10
