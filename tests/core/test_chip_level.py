"""The simulator's taps and presses go through the chip-level emulation and the real
drivers (PN532 over a virtual I2C bus, buttons from pin levels with contact bounce), and
give the same game as events handed straight to the firmware."""

import glob
import os

import pytest

import gamekit
from host_tools.simulator import engine as simcore
from host_tools.simulator.scenario import parse
from hw.buttons import Button

SCENARIOS = sorted(glob.glob(os.path.join(gamekit.ROOT, "tests", "scenarios", "*.scn")))


class Direct(simcore.Simulation):
    """Events straight into the App, no drivers: the reference."""

    def present(self, uid, ms):
        self.app.poll(uid, self.now)
        self.advance(max(ms, 0) + 200)
        self.app.poll(None, self.now)
        self.app.poll(None, self.now)
        self.app.poll(None, self.now)

    def press(self, role, held=simcore.HOLD_MS):
        # A held button gives its hold action (board_def inputs.hold), as the driver does.
        hold = self.board.inputs["hold"].get(role) if held >= Button.LONG_MS else None
        self.app.press(hold or role, self.now)
        self.advance(simcore.PRESS_MS - simcore.HOLD_MS + held)


@pytest.mark.parametrize("path", SCENARIOS, ids=[os.path.basename(p) for p in SCENARIOS])
def test_chip_level_gives_the_same_game_as_direct_events(path):
    board = gamekit.board()
    commands = parse(open(path).read(), board)
    chip = simcore.Simulation(board)
    a = chip.run(commands)
    b = Direct(board).run(commands)
    a.pop("leds")
    b.pop("leds")
    assert a == b
    assert chip.failures == []


def test_taps_are_read_by_the_pn532_driver_over_i2c():
    board = gamekit.board()
    sim = simcore.Simulation(board)
    sim.run(parse("tap HUNA-1\n", board))
    assert sim.reader.version == (0x32, 1, 6, 7)  # the emulated chip's GetFirmwareVersion
    assert sim.rig.bus.transactions > 10
    assert any(code == 0x4A for code, _ in sim.rig.chip.commands)  # InListPassiveTarget
    assert sim.report()["hands"]["white"] == ["HUNA-1"]


def test_a_bouncing_button_press_counts_once():
    board = gamekit.board()
    sim = simcore.Simulation(board)
    sim.run(parse("".join("tap %s\n" % c for c in gamekit.WHITE_DEAL + gamekit.BLACK_DEAL)
                  + "tap HUNA-1\n", board))
    pin = sim.gpio[board.pins["buttons"]["next"]]
    pin.chatter(sim.now, 0, bounce_ms=8)  # 8 ms of chatter, then held
    pin.chatter(sim.now + 60, 1, bounce_ms=8)  # released with 8 ms of chatter
    sel = sim.app.referee.sel
    sim.advance(200)  # the app's own inputs task polls the pin
    assert sim.app.referee.sel == sel + 1
