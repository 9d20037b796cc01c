"""The solo game's hands (host_tools/games/kahuna/solohands.py): a step they cannot do on
their table is told as such (chipbench reports it and still prints its other figures)."""

import pytest

from host_tools.games.kahuna.solohands import Hands


def test_a_card_the_stack_does_not_hold_is_a_clear_error_and_takes_nothing():
    h = Hands(table=None)
    h.stack = ["HUNA-1"]
    with pytest.raises(ValueError, match="card 2 of its stack, which holds 1"):
        h.next("AI plays its 2nd card from the top: turn it up and tap it")
    assert h.stack == ["HUNA-1"] and h.turned == []
