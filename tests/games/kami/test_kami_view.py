"""Kami's view (games/kami/view.py): the lights of rules section 8.1 (K19) from public
information only, the face-down defence's acknowledgement, the refusal flash, the score's
fill-up, and no heap allocation per frame."""

import pytest

import conformance
from core import frame as fr
from games.kami import controller as ctl
from games.kami import game
from games.kami.view import DIM, FILL_MS, View
from mpy_runner import MicroPython


@pytest.fixture(scope="module")
def board():
    return conformance.board_for("kami")


def rgb(frame, led):
    return tuple(frame[3 * led:3 * led + 3])


def colour(view, name, level=256):
    return tuple((v * level) >> 8 for v in view.colours[name]) if level < 256 else tuple(
        view.colours[name])


OFF = (0, 0, 0)


def setup(**settings):
    g = game.new_state(None, settings)
    return g, ctl.Controller(g)


def test_seat_lights_pulse_steady_dim_off(board):
    g, c = setup(players=3)
    v = View(board)
    frames = [v.render(g, c, t)[:] for t in (0, 250, 500)]
    assert len({rgb(f, board.seat_led[0]) for f in frames}) == 3  # p1 acts: pulsing
    assert rgb(frames[0], board.seat_led[1]) == OFF
    for name in ("SOLDAT-3", "SOLDAT-1"):
        v.note(c.tap(name), 0)
    c.press("done")  # p2 passes
    f = v.render(g, c, 5000)
    assert rgb(f, board.seat_led[0]) == colour(v, "p1")  # the attacker: steady
    assert rgb(f, board.seat_led[1]) == colour(v, "p2", DIM)  # passed
    assert rgb(f, board.seat_led[2]) != OFF  # p3 acts
    assert rgb(f, board.seat_led[3]) == OFF  # no fourth seat in 3 players


def test_four_players_partners_share_their_teams_colour(board):
    g, c = setup(players=4)
    v = View(board)
    c.tap("SOLDAT-3")
    c.tap("SOLDAT-1")
    c.press("done")
    c.press("done")  # p2, p3 passed: dim in their teams' colours
    f = v.render(g, c, 5000)
    assert rgb(f, board.seat_led[1]) == colour(v, "team2", DIM)
    assert rgb(f, board.seat_led[2]) == colour(v, "team1", DIM)


def test_defence_lights_blue_face_down_white_face_up_and_the_acknowledgement(board):
    g, c = setup(players=3)
    v = View(board)
    assert rgb(v.render(g, c, 0), board.defence_led[0]) == OFF
    v.note(c.tap("SOLDAT-3"), 1000)  # 8.2: face down, one private outcome
    assert rgb(v.render(g, c, 1000), board.defence_led[0]) == OFF  # the blink
    assert rgb(v.render(g, c, 1000 + fr.ACK_MS), board.defence_led[0]) == colour(
        v, "defence_down")
    c.tap("SOLDAT-1")
    c.tap("SOLDAT-2")  # p2's counter, face up (K2)
    assert rgb(v.render(g, c, 3000), board.defence_led[1]) == colour(v, "defence_up")


def test_the_empress_light_shows_an_unlocked_empress_attack(board):
    g, c = setup(players=3)
    v = View(board)
    c.tap("IMPERATRICE-1")  # K5: face down does not unlock
    c.tap("OR-1")
    assert rgb(v.render(g, c, 0), board.empress_led) == OFF
    c.tap("IMPERATRICE-2")  # K4: a face-up Empress counter unlocks
    assert rgb(v.render(g, c, 0), board.empress_led) == colour(v, "empress")


def test_centre_lights_in_two_players(board):
    g, c = setup(players=2)
    v = View(board)
    blink_on, blink_off = 0, 400
    assert rgb(v.render(g, c, blink_on), board.centre_led[0]) == colour(v, "centre")
    assert rgb(v.render(g, c, blink_off), board.centre_led[0]) == OFF  # to be tapped
    for name in ("OR-3", "SOLDAT-1", "SOLDAT-2", "SOLDAT-3", "SOLDAT-4", "SOLDAT-5",
                 "SOLDAT-6", "SOLDAT-7"):
        c.tap(name)
    f = v.render(g, c, blink_off)
    assert {rgb(f, p) for p in board.centre_led} == {colour(v, "centre")}  # 2 cards each
    c.tap("OR-3")  # K13: stack 1's card as a defence: the card beneath is awaited
    assert rgb(v.render(g, c, blink_off), board.centre_led[0]) == OFF
    assert rgb(v.render(g, c, blink_on), board.centre_led[0]) == colour(v, "centre")
    c.tap("TOUR-1")  # turned up, the stack's last card: dim
    assert rgb(v.render(g, c, blink_off), board.centre_led[0]) == colour(v, "centre", DIM)
    g3, c3 = setup(players=3)
    assert {rgb(v.render(g3, c3, 0), p) for p in board.centre_led} == {OFF}


def score_round(c, finals=("OR-1", "ARGENT-1")):
    """3 players: p1 replays down to its last card and attacks with it."""
    for i in range(4):
        c.tap("SOLDAT-%d" % (2 * i + 1))
        c.tap("SOLDAT-%d" % (2 * i + 2))
        c.press("done")
        c.press("done")
    c.tap(finals[0])
    return c.tap(finals[1])


def test_score_tracks_fill_up_after_a_round(board):
    g, c = setup(players=3)
    v = View(board)
    v.note(score_round(c), 10000)  # 3 points, not doubled
    track = board.track_led[0]
    lit = [sum(rgb(v.render(g, c, 10000 + t), p) != OFF for p in track)
           for t in (0, FILL_MS, 2 * FILL_MS, 10 * FILL_MS, 20 * FILL_MS)]
    assert lit == [0, 1, 2, 3, 3]
    f = v.render(g, c, 99999)
    assert rgb(f, track[2]) == colour(v, "p1") and rgb(f, track[3]) == OFF
    assert {rgb(f, p) for p in board.track_led[1]} == {OFF}


def test_a_master_stroke_fills_at_double_speed_and_the_winner_pulses(board):
    g, c = setup(players=3, target=10)
    v = View(board)
    out = score_round(c, ("IMPERATRICE-1", "IMPERATRICE-2"))  # K8: 10 points, the game
    assert g.is_over()
    v.note(out, 0)
    track = board.track_led[0]
    assert sum(rgb(v.render(g, c, 2 * FILL_MS), p) != OFF for p in track) == 4
    frames = [v.render(g, c, 100000 + t)[:] for t in (0, 250, 500)]
    assert len({rgb(f, track[0]) for f in frames}) == 3  # the winning side's track pulses
    assert len({rgb(f, board.seat_led[0]) for f in frames}) == 3  # and its seat
    assert {rgb(frames[0], board.seat_led[s]) for s in (1, 2)} == {OFF}


def test_a_refusal_flashes_the_acting_seat_red(board):
    g, c = setup(players=3)
    v = View(board)
    v.note(c.press("done"), 0)  # an opener cannot pass
    assert rgb(v.render(g, c, 0), board.seat_led[0]) == colour(v, "error")
    assert rgb(v.render(g, c, 0), board.seat_led[1]) == OFF


def test_the_claims_cursor_blinks_on_the_highlighted_seat(board):
    g, c = setup(players=4)
    v = View(board)
    c.press("discard")
    c.press("next")
    assert rgb(v.render(g, c, 0), board.seat_led[1]) == colour(v, "cursor")
    assert rgb(v.render(g, c, 400), board.seat_led[1]) == OFF


def test_frames_allocate_nothing_under_micropython():
    """The view in the middle of a 2-player round (centre, lines, a reveal pending) and of
    a scored 4-player game: a frame in the steady state allocates nothing."""
    out = MicroPython(heap_kib=512).run_code(
        "import gc\n"
        "from core import board as boardmod\n"
        "from games.kami import game\n"
        "b = boardmod.load('board_def/kami.json', keep_raw=False)\n"
        "def measure(g, c, v):\n"
        "    for i in range(20):\n"
        "        v.render(g, c, 20 * i)\n"
        "    gc.collect()\n"
        "    gc.disable()\n"
        "    a = gc.mem_alloc()\n"
        "    for i in range(200):\n"
        "        v.render(g, c, 1000 + 20 * i)\n"
        "    n = gc.mem_alloc() - a\n"
        "    gc.enable()\n"
        "    return n\n"
        "g = game.new_state(b, {'players': 2})\n"
        "c = game.controller(g)\n"
        "from games.kami.view import View\nv = View(b)\n"
        "for n in ('OR-3', 'SOLDAT-1', 'SOLDAT-2', 'SOLDAT-3', 'SOLDAT-4', 'SOLDAT-5',\n"
        "          'SOLDAT-6', 'SOLDAT-7', 'OR-3'):\n"
        "    c.tap(n)\n"
        "print(g.reveal, measure(g, c, v))\n"
        "g = game.new_state(b, {'players': 4, 'seed': 3})\n"
        "c = game.controller(g)\n"
        "while g.round == 1:\n"
        "    a = [x for x in g.legal_actions() if x[0] != 'discard'][0]\n"
        "    g.apply(a)\n"
        "v.note(c.press('next'), 0)\n"
        "print(g.round, measure(g, c, v))\n")
    lines = out.split("\n")
    assert lines[0] == "0 0"  # a reveal pending on stack 1, no allocation
    assert lines[1] == "2 0"
