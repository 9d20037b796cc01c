"""The frame task composes a frame only when it may have changed (core.app `_still`, the
view's `still`): every frame written is the frame a fresh composition gives at that moment
(so a change shows on the next frame), and frames are skipped while nothing moves. On
CPython and on the MicroPython unix port; and over a whole solo game on the simulated
board (the board's player's lights when it stops thinking)."""

import json

import pytest

import gamekit
from mpy_runner import MicroPython

# Kahuna's app with a strip: after every frame tick, the bytes written are compared with
# those of a frame composed afresh for the same moment (App.show). Events between the
# frames: the deal, a card pending (it pulses), withdrawn, a refusal (its flash, 600 ms,
# then steady), a bridge placed and the play phase ended, a reader fault and its end.
FRAMES = """
from core import board as boardmod
from core import gameload
from core.app import App
from core.cards import Registry
from hw.leds import Strip
from host_tools.fakehw.strip import VirtualNeoPixel


class Reader:
    lost = False


def run(deal):
    game_def = gameload.load("kahuna")
    b = boardmod.load("board_def/kahuna.json", keep_raw=False)
    names = ["%%s-%%d" %% (i, n) for i in b.islands for n in (1, 2)]
    strip = Strip(VirtualNeoPixel(b.led_count), b.led_count)
    app = App(game_def, b, Registry(names), strip)
    app.reader = Reader()
    composed = [0]
    render = app.view.render

    def counted(*args):
        composed[0] += 1
        return render(*args)

    app.view.render = counted
    events = {100: ("tap", deal[0]), 200: ("tap", deal[1]), 300: ("tap", deal[2]),
              400: ("tap", deal[3]), 500: ("tap", deal[4]), 600: ("tap", deal[5]),
              1000: ("tap", deal[0]), 1500: ("press", "back"), 2000: ("tap", "BARI-1"),
              3000: ("tap", deal[0]), 3100: ("press", "ok"), 3600: ("press", "done"),
              4000: ("lost", True), 4600: ("lost", False)}
    mismatches = []
    at = []  # the frames composed (ms)
    written = 0
    skipped = 0
    for now in range(0, 5200, 20):
        ev = events.get(now)
        if ev is not None:
            if ev[0] == "tap":
                app.tap_card(ev[1], now)
            elif ev[0] == "press":
                app.press(ev[1], now)
            else:
                app.reader.lost = ev[1]
        before = composed[0]
        app.tick_frame(now)
        written += 1
        if composed[0] == before:
            skipped += 1
        else:
            at.append(now)
        out = bytes(strip.np.buf)
        app.show(now)
        if bytes(strip.np.buf) != out:
            mismatches.append(now)
    return [written, skipped, mismatches, app.game.phase, at]


print(run(%r))
"""

DEAL = list(gamekit.WHITE_DEAL + gamekit.BLACK_DEAL)


def figures(runtime):
    code = FRAMES % (DEAL,)
    if runtime == "micropython":
        out = MicroPython(heap_kib=512).run_code(code)
        return json.loads(out.strip().splitlines()[-1].replace("'", '"'))
    got = []
    exec(code, {"print": got.append, "__name__": "frameskip"})
    return json.loads(json.dumps(got[0]))


@pytest.mark.parametrize("runtime", ["cpython", pytest.param(
    "micropython", marks=pytest.mark.micropython)])
def test_every_frame_written_is_the_fresh_frame_and_still_frames_are_not_composed(runtime):
    written, skipped, mismatches, phase, at = figures(runtime)
    assert mismatches == []  # every change (event, end of an animation, fault) shows at once
    assert phase == "draw"  # the events did what they say: a bridge, then the draw phase
    # Steady stretches (the deal, after the flash, the draw phase) are not composed; the
    # pulse, the blinking options and the fault's blink are.
    assert 0.3 * written < skipped < 0.9 * written
    # A timed animation is composed when it changes, not every frame: the deal's private
    # taps dip the phase pixel for 250 ms each (the last at 600: its end shows at 860),
    # the refusal at 2000 flashes in halves of 100 ms until 2600; the pending card's
    # pulse (1000-1500) changes every frame.
    assert [t for t in at if 100 <= t < 1000] == [860]
    assert [t for t in at if 2000 <= t < 2700] == [2100, 2200, 2300, 2400, 2500, 2600]
    assert [t for t in at if 1000 <= t < 1500] == list(range(1000, 1500, 20))


def test_a_solo_game_shows_the_board_players_lights_on_the_next_frame():
    """A whole solo game on the simulated board (the board plays white): after every frame
    tick, the frame written is the one composed afresh, while it thinks and when it stops
    (a hint asked for is lit by the board's player's tick, with no event)."""
    from solokit import SoloGame

    g = SoloGame(gamekit.board(), seed=3, ai="white")
    app = g.sim.app
    tick = app.tick_frame
    seen = {"frames": 0, "thinking": 0, "bad": []}

    def checked(now):
        tick(now)
        out = bytes(app.strip.np.buf)
        app.show(now)
        seen["frames"] += 1
        seen["thinking"] += app.thinking()
        if bytes(app.strip.np.buf) != out:
            seen["bad"].append(now)

    for task in g.sim.tasks:
        if task[2] == tick:
            task[2] = checked
    from games.kahuna import rules

    hints = 0
    while not app.game.is_over():
        if (hints < 3 and app.game.phase == rules.PLAY and app.game.turn != app.solo.side
                and app.referee.is_idle() and app.solo.hint is None
                and app.game.refill == rules.NOBODY and app.solo.step()[0] is None):
            # ok asks for the hint: the board thinks, then lights it with no event.
            g.press("ok")
            g.do("wait", 200)
            assert app.solo.hint and app.solo.hint_move()[0]
            hints += 1
            g.press("next")  # any button hides it
        assert g.step() and g.steps < 3000
    assert seen["bad"] == [] and seen["frames"] > 100
    assert app.solo.decisions > 5 and hints == 3


class SlowClock:
    """ms that pass as they are read (one a read): a decision spans many slices."""

    def __init__(self):
        self.reads = 0

    def __call__(self):
        self.reads += 1
        return self.reads


def test_a_tap_while_the_board_thinks_is_refused_at_once_and_changes_no_decision(
        monkeypatch):
    """While the board's player thinks over many slices (app.thinking(): main.py then polls
    the reader and the inputs less often, core.app THINKING_MS), a tap still lands: its
    refusal is told on the spot, its frame shows the refusal, and the decision is the one
    made without it."""
    from games.kahuna import solo as solomod
    from solokit import SoloGame

    monkeypatch.setattr(solomod, "THINK_MS", 10 ** 9)  # the slow clock: no deadline
    plans = []
    for tap in (False, True):
        g = SoloGame(gamekit.board(), seed=3, ai="white")
        app = g.sim.app
        app.solo.player.clock = app.solo.clock = SlowClock()
        while not app.thinking():
            assert g.step() and g.steps < 500
        heard = []
        app.listen(heard.append)
        ticks = 0
        while True:
            app.tick_ai(g.sim.now)
            ticks += 1
            if not app.thinking():
                break
            if tap and ticks == 3:
                out = app.tap_card("HUNA-1", g.sim.now)
                assert out.kind == "refused" and "thinking" in out.message
                assert heard[-1] is out and app.thinking()
                assert app.view.f.error_on(g.sim.now)  # the error pixel flashes now
        assert ticks > 10  # it thought over many slices
        plans.append(app.solo.plan)
    assert plans[0] and plans[0] == plans[1]
