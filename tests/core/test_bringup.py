"""Bring-up mode: the LED walk names every pixel once, a tapped card lights its island and
is named (an unknown tag too), and every button press is reported."""

import gamekit
from core import bringup, gameload
from host_tools.fakehw.reader_rig import ReaderRig
from host_tools.fakehw.strip import VirtualNeoPixel
from host_tools.simulator import engine as simcore
from hw.leds import Strip


class Inputs:
    def __init__(self):
        self.queue = []

    def poll(self, now):
        out, self.queue = self.queue, []
        return out


def test_bringup_walks_the_chain_names_cards_and_buttons():
    board = gamekit.board()
    np = VirtualNeoPixel(board.led_count)
    rig = ReaderRig()  # the firmware's reader over the emulated PN532
    inputs = Inputs()
    said = []
    b = bringup.Bringup(board, gameload.load(board.game), simcore.sim_registry(board),
                        Strip(np, board.led_count),
                        rig.reader, inputs, said.append)
    b.start()
    assert said[0] == {"event": "bringup", "leds": 43, "pn532": [0x32, 1, 6, 7]}
    now = 0
    for _ in range(board.led_count):
        b.tick(now)
        lit = [j // 3 for j in range(len(np.sent)) if np.sent[j]]
        assert set(lit) == {b.led}  # exactly one pixel, the one named
        now += bringup.STEP_MS
    walk = [m for m in said if "led" in m and "name" in m]
    assert [m["led"] for m in walk] == list(range(board.led_count))
    names = dict((m["led"], m["name"]) for m in walk)
    assert names[board.island_led[board.island_index["HUNA"]]] == "HUNA"
    assert names[board.conn_led[board.conn_index["ALOA-BARI"]]] == "ALOA-BARI"
    assert names[board.status_leds["error"]] == "status:error"
    # A card on the reader: named, its island lit green; an unknown tag: named as unknown.
    uid = simcore.sim_uid(gameload.load(board.game).card_names(board).index("KAHU-2"))

    def ticks(n):  # bring-up's loop: a reader step every tick
        nonlocal now
        for _ in range(n):
            now += bringup.TICK_MS
            rig.clock.set(now)
            b.tick(now)

    rig.place(uid)
    ticks(6)  # a poll under way when the card came, then the poll that lists it
    assert said[-1] == {"event": "bringup", "tag": uid.hex().upper(), "card": "KAHU-2"}
    kahu = board.island_led[board.island_index["KAHU"]]
    assert np.rgb()[kahu] == [0, 60, 0]
    rig.remove()
    ticks(12)
    rig.place(bytes.fromhex("04AABBCCDDEEFF"))
    ticks(6)
    assert said[-1]["card"] is None and said[-1]["tag"] == "04AABBCCDDEEFF"
    inputs.queue = ["next", "back"]
    ticks(1)
    assert said[-2:] == [{"event": "bringup", "button": "next"},
                         {"event": "bringup", "button": "back"}]
