"""Input drivers (firmware/hw/buttons.py, encoder.py, inputs.py) on virtual pins
(host_tools/fakehw/pins.py): debounce, short and long presses, the quadrature decoder,
the board_def mapping of inputs to roles, bring-up detection; the same sequences under
the MicroPython unix port, and no allocation per poll there."""

import contextlib
import copy
import io
import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import board as boardmod
from host_tools.fakehw.pins import Clock, VirtualGPIO, VirtualPin, turn
from hw.buttons import Button, Buttons
from hw.encoder import Encoder
from hw.inputs import Inputs, build, held_at_boot
from mpy_runner import ROOT

BOARD_PATH = os.path.join(ROOT, "board_def", "kahuna.json")
POLL = Button.POLL_MS
DEBOUNCE = Button.DEBOUNCE_MS
LONG = Button.LONG_MS


def raw_board():
    with open(BOARD_PATH) as f:
        return json.load(f)


class Rig:
    """Virtual clock and pins; `run(until)` polls `target` every `step` ms and keeps the
    events as (time, role)."""

    def __init__(self):
        self.clock = Clock()
        self.gpio = VirtualGPIO(self.clock)
        self.events = []

    def on_event(self, role):
        self.events.append((self.clock.now, role))

    def pin(self, name="pin"):
        return VirtualPin(1, self.clock, name=name)

    def run(self, target, until, step=POLL):
        t = self.clock.now
        while t <= until:
            self.clock.set(t)
            got = target.poll(t)
            if isinstance(got, (list, tuple)):  # Inputs.poll returns its roles
                for role in got:
                    self.on_event(role)
            t += step
        return self.roles()

    def roles(self):
        return [role for _, role in self.events]


def one_button(long_role=None, role="ok"):
    rig = Rig()
    pin = rig.pin()
    buttons = Buttons([Button(pin, role, long_role=long_role)], rig.on_event)
    rig.run(buttons, 0)  # first poll: the button is up
    return rig, pin, buttons


# ------------------------------------------------------------------ debounce

@pytest.mark.parametrize("bounce_ms", [0, 1, 3, 5, 8, 12])
@pytest.mark.parametrize("long_role", [None, "back"])
def test_one_press_is_one_event_whatever_the_chatter(bounce_ms, long_role):
    rig, pin, buttons = one_button(long_role)
    pin.press(100, 150, bounce_ms=bounce_ms)
    assert rig.run(buttons, 1000) == ["ok"]


@pytest.mark.parametrize("period_ms", [1, 2, 3])
def test_five_ms_of_chatter_at_both_edges_of_many_presses(period_ms):
    rig, pin, buttons = one_button()
    t = 50
    for _ in range(10):
        pin.press(t, 120, bounce_ms=5, period_ms=period_ms)
        t += 300
    assert rig.run(buttons, t) == ["ok"] * 10


def test_a_press_counts_once_the_contact_has_settled_for_the_debounce_time():
    rig, pin, buttons = one_button()
    # Pressed at 102, bouncing until 112 (0 at 102, 1 at 105, 0 at 108, 1 at 111, 0 at
    # 112): the polls at 100, 105, 110, 115 see 1, 1, 0, 0; the last change seen is at 110.
    settled = pin.chatter(102, 0, 10, period_ms=3)
    rig.run(buttons, 400)
    (t, role), = rig.events
    assert role == "ok"
    assert t == 110 + DEBOUNCE
    # In general: within a poll interval of the debounce time after the contact settles.
    assert settled + DEBOUNCE - POLL <= t <= settled + DEBOUNCE + POLL


@given(st.lists(st.tuples(st.integers(1, DEBOUNCE - 1), st.integers(POLL, 40)),
                min_size=1, max_size=12),
       st.integers(0, POLL - 1))
@settings(max_examples=300, deadline=None)
def test_presses_shorter_than_the_debounce_time_never_count(noise, phase):
    """Contact noise: pressed for less than DEBOUNCE_MS at a time. (Released gaps shorter
    than a poll interval can fall between two polls and join two pieces of noise into
    one press, as they would on the board: polling sees only its samples.)"""
    rig, pin, buttons = one_button()
    t = 100 + phase
    for down, gap in noise:
        pin.at(t, 0)
        pin.at(t + down, 1)
        t += down + gap
    assert rig.run(buttons, t + 200) == []


def test_a_glitch_while_held_is_not_a_second_press():
    rig, pin, buttons = one_button("back")
    pin.at(100, 0)
    pin.bounce(200, "101010")  # 6 ms of noise in the middle of a 300 ms press
    pin.at(400, 1)
    assert rig.run(buttons, 800) == ["ok"]


def test_active_high_buttons():
    rig = Rig()
    pin = VirtualPin(0, rig.clock, active=1)
    buttons = Buttons([Button(pin, "done", active_low=False)], rig.on_event)
    pin.press(100, 100, bounce_ms=5)
    assert rig.run(buttons, 500) == ["done"]


def test_the_tunables_are_class_attributes():
    rig, pin, buttons = one_button()
    pin.press(100, 25)
    pin.press(300, 50)
    buttons.buttons[0].DEBOUNCE_MS = 40  # one instance: only held-for-40 ms counts
    assert rig.run(buttons, 600) == ["ok"]

    class Slow(Button):
        LONG_MS = 2000

    rig = Rig()
    pin = rig.pin()
    buttons = Buttons([Slow(pin, "ok", long_role="back")], rig.on_event)
    pin.press(100, 1500)
    assert rig.run(buttons, 2000) == ["ok"]  # 1.5 s is short for this one


# ------------------------------------------------------------------ short and long

def test_short_press_reports_the_role_at_release():
    rig, pin, buttons = one_button("back")
    end = pin.press(100, 300, bounce_ms=5)
    rig.run(buttons, 1000)
    (t, role), = rig.events
    assert role == "ok"
    assert end + DEBOUNCE - POLL <= t <= end + DEBOUNCE + POLL


def test_long_press_reports_the_long_role_as_soon_as_it_is_held_long_enough():
    rig, pin, buttons = one_button("back")
    pin.press(100, 1000, bounce_ms=5)
    rig.run(buttons, 2000)
    (t, role), = rig.events
    assert role == "back"
    # Held from the press (100, settled at 105): long by 810, before the release at 1100.
    assert 100 + LONG <= t <= 105 + LONG + POLL


def test_just_under_and_just_over_the_long_time():
    rig, pin, buttons = one_button("back")
    pin.press(100, LONG - 40)
    pin.press(2000, LONG + 40)
    assert rig.run(buttons, 4000) == ["ok", "back"]


def test_a_held_button_reports_the_long_press_once():
    rig, pin, buttons = one_button("back")
    pin.press(100, 10000, bounce_ms=5)
    assert rig.run(buttons, 12000) == ["back"]


def test_a_held_button_without_a_long_role_reports_once():
    rig, pin, buttons = one_button()
    pin.press(100, 10000, bounce_ms=5)
    rig.run(buttons, 12000)
    (t, role), = rig.events
    assert role == "ok"
    assert t < 200  # on the press: nothing to wait for


def test_only_a_long_press_when_the_short_one_means_nothing():
    rig, pin, buttons = one_button("back", role=None)
    pin.press(100, 200)
    pin.press(1000, 1000)
    assert rig.run(buttons, 3000) == ["back"]


def test_a_button_down_at_the_first_poll_is_ignored_until_released():
    rig = Rig()
    pin = VirtualPin(0, rig.clock)  # held at power-up
    short = VirtualPin(0, rig.clock)
    buttons = Buttons([Button(pin, "ok"), Button(short, "ok", long_role="back")],
                      rig.on_event)
    pin.at(3000, 1)  # released after a long hold: no event
    short.at(300, 1)  # released early: no event either
    assert rig.run(buttons, 4000) == []
    pin.press(4100, 100)
    short.press(4100, 100)
    assert rig.run(buttons, 5000) == ["ok", "ok"]


def test_buttons_report_in_their_order_and_count_events():
    rig = Rig()
    a, b = rig.pin("a"), rig.pin("b")
    buttons = Buttons([Button(a, "next"), Button(b, "prev")], rig.on_event)
    a.press(100, 100)
    b.press(100, 100)
    rig.run(buttons, 0)
    delivered = 0
    for t in range(5, 300, 5):
        rig.clock.set(t)
        delivered += buttons.poll(t)
    assert delivered == 2
    assert rig.roles() == ["next", "prev"]


@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 400), st.integers(1, 900)),
                max_size=8))
@settings(max_examples=150, deadline=None)
def test_levels_at_once_find_the_same_events_as_reading_each_button(presses):
    """Buttons.levels (the board reads every button's GPIO in one register read): polls
    that would find nothing are skipped, and the events and their times stay the same."""
    def play(with_levels):
        rig = Rig()
        pins = [rig.pin(n) for n in ("a", "b", "c")]
        buttons = Buttons([Button(pins[0], "next"), Button(pins[1], "ok", long_role="back"),
                           Button(pins[2], "done", long_role="new-game")], rig.on_event)
        if with_levels:
            buttons.levels = lambda: sum(p() << i for i, p in enumerate(pins))
        for which, at, held in presses:
            pins[which].press(100 + at, held, bounce_ms=3)
        rig.run(buttons, 2500)
        return rig.events
    assert play(True) == play(False)


def test_levels_at_once_skip_the_reads_while_nothing_changes():
    rig = Rig()
    reads = []
    pin = rig.pin("a")
    buttons = Buttons([Button(lambda: reads.append(1) or pin(), "next")], rig.on_event)
    buttons.levels = pin
    pin.press(100, 100)
    rig.run(buttons, 600)
    assert rig.roles() == ["next"]
    assert 0 < len(reads) < 20  # polled 121 times; read one by one only around the press


# ------------------------------------------------------------------ encoder

def make_encoder(cw="next", ccw="prev"):
    rig = Rig()
    a, b = rig.pin("A"), rig.pin("B")
    return rig, a, b, Encoder(a, b, rig.on_event, cw, ccw)


@pytest.mark.parametrize("detents, role", [(1, "next"), (5, "next"), (-1, "prev"),
                                           (-7, "prev")])
def test_encoder_one_event_per_detent(detents, role):
    rig, a, b, enc = make_encoder()
    end = turn(a, b, 10, detents, step_ms=6)
    assert rig.run(enc, end + 20, step=Encoder.POLL_MS) == [role] * abs(detents)


@pytest.mark.parametrize("bounce_ms", [1, 2, 3])
def test_encoder_with_contact_bounce(bounce_ms):
    rig, a, b, enc = make_encoder()
    t = turn(a, b, 10, 4, step_ms=8, bounce_ms=bounce_ms)
    t = turn(a, b, t + 50, -3, step_ms=8, bounce_ms=bounce_ms)
    t = turn(a, b, t + 50, 2, step_ms=8, bounce_ms=bounce_ms)
    assert rig.run(enc, t + 20, step=1) == ["next"] * 4 + ["prev"] * 3 + ["next"] * 2


def test_encoder_with_contact_bounce_polled_every_2_ms():
    rig, a, b, enc = make_encoder()
    t = turn(a, b, 10, 3, step_ms=10, bounce_ms=3)
    t = turn(a, b, t + 50, -3, step_ms=10, bounce_ms=3)
    assert rig.run(enc, t + 20, step=2) == ["next"] * 3 + ["prev"] * 3


def test_encoder_invalid_transitions_give_no_step():
    rig, a, b, enc = make_encoder()
    # Both channels at once, in every way, and back: no valid Gray-code step anywhere.
    t = 10
    for ab in ("00", "11", "10", "01", "10", "01", "11", "00", "11"):
        a.at(t, int(ab[0]))
        b.at(t, int(ab[1]))
        t += 10
    assert rig.run(enc, t + 20, step=2) == []
    # Half way clockwise, then a jump to the last quarter and home: not a whole detent.
    a.at(t, 0)                       # 01
    b.at(t + 10, 0)                  # 00
    a.at(t + 20, 1)                  # 10 (valid so far)
    a.at(t + 30, 0)                  # back to 00
    a.at(t + 40, 1)                  # 11 in one jump from 00: invalid
    b.at(t + 40, 1)
    assert rig.run(enc, t + 100, step=2) == []
    # and the next real detent still counts
    end = turn(a, b, t + 120, 1, step_ms=6)
    assert rig.run(enc, end + 20, step=2) == ["next"]


def test_encoder_wiggle_at_a_detent_or_half_way_gives_nothing():
    rig, a, b, enc = make_encoder()
    a.bounce(10, "0101010101")  # A chatters, B stays: 11 <-> 01
    b.bounce(40, "0101")  # 11 <-> 10
    # A quarter, half way, then back the same way: a turn given up.
    a.at(60, 0)
    b.at(65, 0)
    b.at(70, 1)
    a.at(75, 1)
    assert rig.run(enc, 120, step=1) == []


def test_encoder_too_fast_for_polling_loses_detents_but_never_reverses():
    rig, a, b, enc = make_encoder()
    t = turn(a, b, 10, 10, step_ms=1)  # an edge every ms, polled every 2: states missed
    t = turn(a, b, t + 20, 10, step_ms=3)
    roles = rig.run(enc, t + 20, step=2)
    assert "prev" not in roles and 10 <= len(roles) <= 20


def test_encoder_roles_follow_the_mapping_and_none_is_silent():
    rig, a, b, enc = make_encoder(cw="prev", ccw=None)
    t = turn(a, b, 10, 2, step_ms=5)
    t = turn(a, b, t + 20, -2, step_ms=5)
    assert rig.run(enc, t + 20, step=2) == ["prev", "prev"]


def test_encoder_active_high():
    rig = Rig()
    a, b = VirtualPin(0, rig.clock), VirtualPin(0, rig.clock)
    enc = Encoder(a, b, rig.on_event, active_low=False)
    # With the detent at 00 the same sequence inverted: A rises first = clockwise.
    for t, pin, lv in ((10, a, 1), (15, b, 1), (20, a, 0), (25, b, 0)):
        pin.at(t, lv)
    assert rig.run(enc, 60, step=1) == ["next"]


@given(st.lists(st.sampled_from((1, -1)), max_size=60))
@settings(max_examples=200, deadline=None)
def test_encoder_counts_the_net_whole_detents_of_any_valid_walk(steps):
    """A walk along the Gray code (one channel changes per step, either way), then back
    to the detent behind: the events add up to the detents gained."""
    events = []
    a, b = VirtualPin(), VirtualPin()
    enc = Encoder(a, b, events.append)
    gray = ((1, 1), (0, 1), (0, 0), (1, 0))  # clockwise from the detent
    pos = 0
    while pos % 4 or steps:
        pos += steps.pop(0) if steps else -1
        a.set(gray[pos % 4][0])
        b.set(gray[pos % 4][1])
        enc.poll()
    assert events.count("next") - events.count("prev") == pos // 4


def test_encoder_irq_variant_counts_edges_between_slow_polls():
    rig = Rig()
    a, b = rig.pin("A"), rig.pin("B")
    enc = Encoder(a, b, rig.on_event)
    enc.use_irq()
    # A quick flick: an edge every 2 ms with 1 ms of bounce, polled every 50 ms only.
    t = turn(a, b, 10, 12, step_ms=2, bounce_ms=1)
    t = turn(a, b, t + 100, -5, step_ms=2, bounce_ms=1)
    assert rig.run(enc, t + 100, step=50) == ["next"] * 12 + ["prev"] * 5


def test_encoder_irq_back_and_forth_between_polls_cancels():
    rig = Rig()
    a, b = rig.pin("A"), rig.pin("B")
    enc = Encoder(a, b, rig.on_event)
    enc.use_irq()
    t = turn(a, b, 10, 3, step_ms=2)
    turn(a, b, t + 2, -1, step_ms=2)
    rig.clock.set(100)
    assert enc.pending() == 2
    assert enc.poll(100) == 2
    assert rig.roles() == ["next", "next"]
    assert enc.pending() == 0 and enc.poll(150) == 0


def test_encoder_position_wraps_without_growing():
    events = []
    a, b = VirtualPin(), VirtualPin()
    enc = Encoder(a, b, events.append)
    enc._pos = enc._seen = 0xFFFE
    for la, lb in ((0, 1), (0, 0), (1, 0), (1, 1)) * 3:
        a.set(la)
        b.set(lb)
        enc._step()
    assert enc._pos == 1 and enc.pending() == 3
    assert enc.poll() == 3 and events == ["next"] * 3


# ------------------------------------------------------------------ board_def mapping

def built(raw, rig=None):
    rig = rig or Rig()
    bd = boardmod.parse(raw)
    inputs = build(bd, rig.gpio)
    rig.run(inputs, 0, step=1)
    return rig, bd, inputs


def press_gpio(rig, inputs, gpio, hold=100):
    start = rig.clock.now + 10
    end = rig.gpio[gpio].press(start, hold, bounce_ms=5)
    rig.events.clear()
    rig.run(inputs, end + 100, step=inputs.poll_ms)
    return rig.roles()


def turn_encoder(rig, inputs, detents, a=16, b=17):
    end = turn(rig.gpio[a], rig.gpio[b], rig.clock.now + 10, detents, step_ms=6,
               bounce_ms=1)
    rig.events.clear()
    rig.run(inputs, end + 50, step=inputs.poll_ms)
    return rig.roles()


def test_the_shipped_board_maps_every_input():
    rig, bd, inputs = built(raw_board())
    buttons = bd.pins["buttons"]
    assert sorted(rig.gpio.pins) == sorted(list(buttons.values()) + [16, 17, 18])
    assert inputs.poll_ms == Encoder.POLL_MS
    for role in boardmod.ROLES:
        assert press_gpio(rig, inputs, buttons[role]) == [role]
    assert turn_encoder(rig, inputs, 3) == ["next"] * 3
    assert turn_encoder(rig, inputs, -2) == ["prev"] * 2
    assert press_gpio(rig, inputs, 18, hold=200) == ["ok"]
    assert press_gpio(rig, inputs, 18, hold=2000) == ["back"]


def test_roles_follow_a_changed_mapping():
    raw = copy.deepcopy(raw_board())
    raw["hardware"]["pins"]["buttons"] = {"ok": 20, "done": 11, "discard": 10}  # GP10 now discard
    raw["hardware"]["inputs"]["encoder"] = {"cw": "prev", "ccw": "next", "press": "back",
                                "long_press": None}
    raw["hardware"]["inputs"]["bringup"] = "done"
    del raw["hardware"]["inputs"]["hold"]["back"]  # held back (takeback): back has no button
    rig, bd, inputs = built(raw)
    assert sorted(rig.gpio.pins) == [10, 11, 16, 17, 18, 20]
    assert press_gpio(rig, inputs, 10) == ["discard"]
    assert press_gpio(rig, inputs, 11) == ["done"]
    assert press_gpio(rig, inputs, 20) == ["ok"]
    assert turn_encoder(rig, inputs, 2) == ["prev", "prev"]
    assert turn_encoder(rig, inputs, -1) == ["next"]
    assert press_gpio(rig, inputs, 18, hold=150) == ["back"]
    assert press_gpio(rig, inputs, 18, hold=2000) == ["back"]  # no long role: on press


def test_swapped_encoder_pins_turn_the_other_way():
    raw = copy.deepcopy(raw_board())
    raw["hardware"]["pins"]["encoder"] = {"a": 17, "b": 16, "switch": 18}
    rig, bd, inputs = built(raw)
    assert turn_encoder(rig, inputs, 2) == ["prev", "prev"]


def test_encoder_without_a_switch_or_rotation_roles():
    raw = copy.deepcopy(raw_board())
    raw["hardware"]["pins"]["encoder"] = {"a": 16, "b": 17}
    del raw["hardware"]["inputs"]["encoder"]  # the default mapping, press actions dropped
    rig, bd, inputs = built(raw)
    assert 18 not in rig.gpio.pins
    assert inputs.encoder is not None
    assert len(inputs.buttons.buttons) == 6

    raw["hardware"]["inputs"]["encoder"] = {"cw": None, "ccw": None}
    rig, bd, inputs = built(raw)
    assert inputs.encoder is None and inputs.poll_ms == Button.POLL_MS
    assert 16 not in rig.gpio.pins


def test_board_without_an_encoder():
    raw = copy.deepcopy(raw_board())
    del raw["hardware"]["pins"]["encoder"]
    del raw["hardware"]["inputs"]["encoder"]
    rig, bd, inputs = built(raw)
    assert inputs.encoder is None
    assert sorted(rig.gpio.pins) == [10, 11, 12, 13, 14, 15]
    assert press_gpio(rig, inputs, 13) == ["back"]


def test_encoder_irq_through_inputs():
    rig = Rig()
    bd = boardmod.parse(raw_board())
    inputs = build(bd, rig.gpio)
    inputs.use_irq()
    assert inputs.poll_ms == Button.POLL_MS
    end = turn(rig.gpio[16], rig.gpio[17], 10, 6, step_ms=1)
    rig.run(inputs, end + 20, step=inputs.poll_ms)
    assert rig.roles() == ["next"] * 6


# ------------------------------------------------------------------ bring-up

def test_held_at_boot_reads_the_bringup_button():
    bd = boardmod.parse(raw_board())
    assert bd.bringup_pin == 12
    gpio = VirtualGPIO()
    assert held_at_boot(bd, gpio) is False
    gpio[12].set(0)
    assert held_at_boot(bd, gpio) is True
    gpio[12].set(1)
    gpio[18].set(0)  # another button held: not bring-up
    assert held_at_boot(bd, gpio) is False


def test_bringup_on_the_encoder_switch_and_none():
    raw = copy.deepcopy(raw_board())
    del raw["hardware"]["pins"]["buttons"]["ok"]  # ok comes from the encoder press now
    del raw["hardware"]["inputs"]["hold"]["ok"]  # and the menu's hold goes with the button
    bd = boardmod.parse(raw)
    assert bd.bringup_pin == 18
    gpio = VirtualGPIO()
    gpio[18].set(0)
    assert held_at_boot(bd, gpio) is True
    del raw["hardware"]["inputs"]["bringup"]
    assert held_at_boot(boardmod.parse(raw), gpio) is False


def test_the_bringup_button_held_at_boot_gives_no_event():
    rig = Rig()
    rig.gpio[12].set(0)
    bd = boardmod.parse(raw_board())
    assert held_at_boot(bd, rig.gpio)
    inputs = build(bd, rig.gpio)
    rig.gpio[12].at(1500, 1)
    rig.run(inputs, 2000, step=inputs.poll_ms)
    assert rig.events == []
    assert press_gpio(rig, inputs, 12) == ["ok"]


def test_poll_returns_the_roles():
    rig = Rig()
    bd = boardmod.parse(raw_board())
    inputs = build(bd, rig.gpio)  # as firmware/main.py: for role in inputs.poll(now)
    gpio = rig.gpio
    gpio[14].press(20, 60)
    end = turn(gpio[16], gpio[17], 200, 2, step_ms=6)
    got = []
    quiet = None
    for t in range(0, end + 50, inputs.poll_ms):
        rig.clock.set(t)
        roles = inputs.poll(t)
        if roles:
            got.append((t, list(roles)))
        else:
            quiet = roles
    assert quiet == ()
    assert [r for _, rs in got for r in rs] == ["done", "next", "next"]


def test_events_of_one_poll_come_together():
    rig = Rig()
    bd = boardmod.parse(raw_board())
    inputs = build(bd, rig.gpio)
    inputs.use_irq()
    inputs.poll(0)
    rig.gpio[10].at(5, 0)
    rig.gpio[15].at(5, 0)
    rig.clock.set(6)
    assert inputs.poll(6) == ()  # the buttons are seen down, not yet debounced
    turn(rig.gpio[16], rig.gpio[17], 10, -3, step_ms=1)
    rig.clock.set(40)
    # the encoder first, then the buttons in role order
    assert inputs.poll(40) == ["prev", "prev", "prev", "discard", "next"]
    assert inputs.poll(45) == ()


def test_inputs_without_an_encoder_is_just_the_buttons():
    rig = Rig()
    pin = rig.pin()
    inputs = Inputs(Buttons([Button(pin, "ok")], rig.on_event))
    pin.press(20, 60)
    assert rig.run(inputs, 300) == ["ok"]


# ------------------------------------------------------------------ MicroPython

# One script, run by CPython and by MicroPython: the same events at the same times.
SEQUENCE = """
from host_tools.fakehw.pins import Clock, VirtualGPIO, turn
from hw.inputs import build, held_at_boot
from core import board as boardmod

bd = boardmod.load('board_def/kahuna.json', keep_raw=False)
clock = Clock()
gpio = VirtualGPIO(clock)
events = []
print('bringup', held_at_boot(bd, gpio))
inputs = build(bd, gpio)
gpio[10].press(100, 80, bounce_ms=5)
gpio[11].press(300, 80, bounce_ms=5, period_ms=2)
t = turn(gpio[16], gpio[17], 500, 3, step_ms=6, bounce_ms=2)
t = turn(gpio[16], gpio[17], t + 50, -2, step_ms=6, bounce_ms=2)
gpio[18].press(t + 50, 200, bounce_ms=5)
gpio[18].press(t + 500, 1500, bounce_ms=5)
for n in range(0, t + 2500, inputs.poll_ms):
    clock.set(n)
    for role in inputs.poll(n):
        events.append((n, role))
for e in events:
    print(e[0], e[1])
"""


def run_here(code):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<sequence>", "exec"), {"__name__": "sequence"})
    return out.getvalue()


def test_the_same_sequence_under_micropython(mpy):
    here = run_here(SEQUENCE)
    lines = here.split("\n")
    assert lines[0] == "bringup False"
    assert [ln.split()[1] for ln in lines[1:] if ln] == (
        ["next", "prev"] + ["next"] * 3 + ["prev"] * 2 + ["ok", "back"])
    assert mpy.run_code(SEQUENCE) == here


def test_polling_allocates_nothing_under_micropython(mpy):
    # heap_lock: any allocation in the quiet loop raises MemoryError. A poll that reports
    # events returns a new list: that one may allocate.
    out = mpy.run_code("""
import micropython
from host_tools.fakehw.pins import VirtualGPIO
from hw.inputs import build
from core import board as boardmod

bd = boardmod.load('board_def/kahuna.json', keep_raw=False)
gpio = VirtualGPIO()
inputs = build(bd, gpio)
a, b, sw, nxt = gpio[16], gpio[17], gpio[18], gpio[10]
quad = (0, 1, 0, 0, 1, 0, 1, 1)
def loop():
    t = 0
    n = 0
    for i in range(40):
        for j in range(0, 8, 2):
            a.set(quad[j])
            b.set(quad[j + 1])
            for k in range(3):
                t += 2
                n += len(inputs.poll(t))
        nxt.set(i & 1)
        sw.set(i & 1)
        for k in range(20):
            t += 2
            n += len(inputs.poll(t))
    return t, n
inputs.poll(0)
end, count = loop()
print(count)

# The quiet polls return () and allocate nothing.
def quiet():
    n = 0
    for t in range(end + 2, end + 2000, 2):
        for role in inputs.poll(t):
            n += 1
    return n
micropython.heap_lock()
try:
    print(quiet())
finally:
    micropython.heap_unlock()
""")
    # 40 detents, 20 presses of `next` and 20 short presses of the switch; then nothing.
    assert out.split() == ["80", "0"]
