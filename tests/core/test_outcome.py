"""One outcome per event (firmware/core/outcome.py): the referee returns it, and the app
hands that same value to the view, the sound and its listeners."""

import gamekit
from core import gameload, outcome
from core.app import App
from core.cards import Registry
from games.kahuna.settings import card_names


class Strip:
    def show(self, frame):
        self.frame = bytes(frame)


class Sound:
    def __init__(self):
        self.played = []

    def play(self, kind, now):
        self.played.append((kind, now))

    def tick(self, now):
        return False


def app():
    board = gamekit.board()
    a = App(gameload.load(board.game), board, Registry(card_names(board)), Strip(), sound=Sound())
    heard = []
    a.listen(heard.append)
    return a, heard


def test_a_refusal_is_one_outcome_for_the_view_the_sound_and_the_listeners():
    a, heard = app()
    out = a.press("next", 100)  # nothing to choose in the deal
    assert out == (outcome.REFUSED, "wrong-phase", "there is nothing to choose", (), True)
    assert heard == [out] and heard[0] is out and a.referee.outcome is out
    assert a.sound.played == [("refused", 100)]
    assert a.view.f.error_at == 100


def test_a_private_tap_is_accepted_privately_and_a_pick_names_its_flash():
    a, heard = app()
    out = a.tap_card("HUNA-1", 50)  # a deal: which card stays secret
    assert out.kind == outcome.ACCEPTED and out.private and out.code is None
    assert a.view.f.ack_at == 50
    for card in gamekit.WHITE_DEAL[1:] + gamekit.BLACK_DEAL:
        a.tap_card(card, 60)
    a.tap_card("HUNA-1", 70)  # play phase: HUNA's options open
    out = a.pick("ALOA-BARI", 80)  # not on offer: that connection flashes
    assert out.kind == outcome.REFUSED and out.code == "not-offered" and not out.private
    # The pending card's island, then the connection that was not offered.
    assert out.places == (("island", a.board.island_index["HUNA"]),
                          ("conn", a.board.conn_index["ALOA-BARI"]))
    assert [o.kind for o in heard].count(outcome.REFUSED) == 1


def test_an_outcome_cannot_be_changed():
    out = outcome.refused("wrong-phase", "no")
    try:
        out.kind = outcome.ACCEPTED
    except AttributeError:
        return
    raise AssertionError("an Outcome took a new kind")


def test_the_same_outcomes_under_micropython(mpy):
    code = (
        "from core import outcome\n"
        "o = outcome.refused('wrong-phase', 'no', [('conn', 1)], True)\n"
        "print(o.kind, o.code, o.places, o.private, o == tuple(o))\n"
        "try:\n"
        "    o.kind = 'x'\n"
        "except AttributeError:\n"
        "    print('immutable')\n")
    assert mpy.run_code(code).split("\n")[:2] == ["refused wrong-phase (('conn', 1),) True True",
                                                  "immutable"]
