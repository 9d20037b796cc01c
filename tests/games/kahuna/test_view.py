"""The view: colours from the board definition, brightness, the current limiter, and no
heap allocation per frame."""

import pytest

import gamekit
from games.kahuna import referee as ref
from games.kahuna import rules
from games.kahuna.view import MA_PER_CHANNEL, View
from host_tools.simulator import engine as simcore
from host_tools.simulator.scenario import parse
from mpy_runner import MicroPython

DEAL = "tap HUNA-1\ntap ELAI-1\ntap DUDA-1\ntap ALOA-1\ntap DUDA-2\ntap ELAI-2\n"


def test_brightness_scales_the_palette():
    board = gamekit.board()
    game = gamekit.new_game()
    view = View(board)
    frame = view.render(game, ref.Referee(game), 5000)
    k = int(board.brightness * 256 + 0.5)
    led = board.conn_led[0]
    assert list(frame[3 * led:3 * led + 3]) == [(v * k) >> 8 for v in board.palette["free"]]


def test_current_limiter_keeps_the_estimate_under_the_limit():
    import json

    from core import board as boardmod
    raw = json.load(open(gamekit.BOARD_PATH))
    raw["hardware"]["brightness"] = 1.0  # 25 full-white pixels would draw 25 * 3 * 20 = 1500 mA
    board = boardmod.parse(raw)
    game = gamekit.position(rules.Game(board),
                            bridges=dict((c, "white") for c in board.connections[:25]))
    view = View(board)
    frame = view.render(game, ref.Referee(game), 5000)
    limit = board.max_current_ma
    assert view.last_ma <= limit
    # Without the limiter this frame would draw more than the limit: it really scaled.
    unlimited = sum(min(255, (int(v) * int(board.brightness * 256 + 0.5)) >> 8)
                    for v in board.palette["white"]) * 25
    assert unlimited * MA_PER_CHANNEL // 255 > limit
    assert sum(frame) * MA_PER_CHANNEL // 255 == view.last_ma


def test_options_blink_and_removals_look_unlike_placements():
    board = gamekit.board()
    g = gamekit.position(gamekit.new_game(), bridges={"ELAI-HUNA": "black"},
                         hands={"white": ["HUNA-1"], "black": []})
    r = ref.Referee(g)
    r.tap("HUNA-1")
    kinds = dict((board.connections[k], kind) for kind, k in r.options)
    assert kinds["ELAI-HUNA"] == ref.REMOVE and kinds["DUDA-HUNA"] == ref.PLACE
    view = View(board)
    on = bytes(view.render(g, r, 100))  # blink phase: on
    off = bytes(view.render(g, r, 400))  # blink phase: off
    place = board.conn_led[board.conn_index["HUNA-LALE"]]
    remove = board.conn_led[board.conn_index["ELAI-HUNA"]]
    assert on[3 * place:3 * place + 3] != off[3 * place:3 * place + 3]
    assert on[3 * remove:3 * remove + 3] != on[3 * place:3 * place + 3]


@pytest.mark.micropython
def test_frames_allocate_nothing_under_micropython():
    """The firmware's frame path alone (App, view, LED driver into a NeoPixel buffer): a
    frame in the steady state allocates nothing. The heap is larger than the board's: the
    64-bit unix port compiles the firmware from source here, which needs contiguous blocks
    that the board, loading precompiled .mpy files, never asks for."""
    out = MicroPython(heap_kib=512).run_code(
        "import gc\n"
        "from host_tools.fakehw.strip import VirtualNeoPixel\n"
        "from hw.leds import Strip\n"
        "from core import board as boardmod\n"
        "from core.app import App\n"
        "from core.cards import Registry\n"
        "from core import gameload\n"
        "game_def = gameload.load('kahuna')\n"
        "b = boardmod.load('board_def/kahuna.json', keep_raw=False)\n"
        "names = ['%%s-%%d' %% (i, n) for i in b.islands for n in (1, 2)]\n"
        "app = App(game_def, b, Registry(names),\n"
        "          Strip(VirtualNeoPixel(b.led_count), b.led_count))\n"
        "for card in %r:\n"
        "    app.tap_card(card, 0)\n"
        "for i in range(20):\n"
        "    app.show(20 * i)\n"
        "def measure():\n"  # locals only: a new global would grow the module's dict
        "    gc.collect()\n"
        "    gc.disable()\n"
        "    a = gc.mem_alloc()\n"
        "    for i in range(200):\n"
        "        app.show(1000 + 20 * i)\n"
        "    return gc.mem_alloc() - a\n"
        "print(len(app.referee.options), measure())\n"
        % (list(gamekit.WHITE_DEAL + gamekit.BLACK_DEAL) + ["HUNA-1"],))
    options, allocated = out.split()
    assert int(options) == 5  # HUNA-1 is pending: its options blink
    assert allocated == "0"


def test_game_over_display_and_scoring_animation_end():
    board = gamekit.board()
    text = open(gamekit.ROOT + "/tests/scenarios/game-standard-handicap.scn").read()
    s = simcore.Simulation(board)
    s.run(parse(text, board))
    assert s.app.game.phase == rules.OVER
    a = bytes(s.np.sent)
    s.advance(700)
    assert bytes(s.np.sent) != a  # the winner's bridges and islands breathe
