"""At the table, without a PC: holding `done` once a game is over starts a new one with
the same settings (board_def inputs.hold); mid-game the long press is refused."""

import json

import pytest

import gamekit
from core import board as boardmod
from host_tools.simulator import engine as simcore
from host_tools.simulator.scenario import parse

GAME = gamekit.ROOT + "/tests/scenarios/game-standard-handicap.scn"


def hold(sim, role, ms):
    pin = sim.gpio[sim.board.pins["buttons"][role]]
    pin.press(sim.now, ms, 2)
    sim.advance(ms + 60)


def test_holding_done_after_the_end_starts_a_new_game_and_archives_the_old():
    board = gamekit.board()
    sim = simcore.Simulation(board)
    sim.run(parse(open(GAME).read(), board))
    assert sim.app.game.phase == "over"
    settings = dict(sim.app.settings)
    hold(sim, "done", 900)
    assert sim.app.game.phase == "deal" and sim.app.settings == settings
    assert "/game-1.jnl" in sim.flash.files or any(
        name.startswith("/game-") for name in sim.flash.files)
    sim.boot()  # and the new game is what the board comes back to
    assert sim.app.game.phase == "deal"


def test_holding_done_mid_game_is_refused_and_a_short_press_still_ends_the_play_phase():
    board = gamekit.board()
    sim = simcore.Simulation(board)
    sim.run(parse("".join("tap %s\n" % c for c in gamekit.WHITE_DEAL + gamekit.BLACK_DEAL),
                  board))
    before = sim.app.game.snapshot()
    hold(sim, "done", 900)
    assert sim.app.referee.outcome.code == "wrong-phase"
    assert sim.app.game.snapshot() == before
    sim.press("done")
    assert sim.app.game.phase == "draw"


@pytest.mark.parametrize("hold_map,field", [
    ({"jump": "new-game"}, "hardware.inputs.hold.jump"),
    ({"done": "self-destruct"}, "hardware.inputs.hold.done"),
])
def test_a_bad_hold_mapping_is_refused_naming_the_field(hold_map, field):
    raw = json.load(open(gamekit.BOARD_PATH))
    raw["hardware"]["inputs"]["hold"] = hold_map
    with pytest.raises(boardmod.BoardError) as e:
        boardmod.parse(raw)
    assert str(e.value).startswith(field)
