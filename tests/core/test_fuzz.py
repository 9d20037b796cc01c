"""Bad input never crashes the board and never changes the game: random and mutated
PN532 frames, a chip that answers garbage, random unknown tags, a card held for minutes,
taps faster than the reader's poll, random bytes on the serial link."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

import gamekit
from core.link import Link
from host_tools.fakehw.i2c_bus import VirtualClock, VirtualI2C
from host_tools.fakehw.ntag213 import NTAG213
from host_tools.fakehw.pn532_chip import PN532Chip
from host_tools.games.kahuna import randgame
from host_tools.simulator import engine as simcore
from host_tools.simulator.scenario import parse
from hw import pn532

DEAL = "".join("tap %s\n" % c for c in gamekit.WHITE_DEAL + gamekit.BLACK_DEAL)
FUZZ = {"cases": 0}


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=64))
def test_random_bytes_as_a_pn532_response_raise_pn532error_or_parse(data):
    FUZZ["cases"] += 1
    try:
        body = pn532.parse_frame(data)
    except pn532.PN532Error:
        return
    assert isinstance(body, bytes)


GOOD = bytes.fromhex("0000FF0FF1D54B0101004400070 4A224B2C35E807600".replace(" ", ""))


@settings(max_examples=400, deadline=None)
@given(st.integers(0, len(GOOD) - 1), st.integers(1, 255))
def test_mutated_pn532_frames_are_caught_or_harmless(pos, flip):
    FUZZ["cases"] += 1
    frame = bytearray(GOOD)
    frame[pos] ^= flip
    try:
        body = pn532.parse_frame(bytes(frame))
    except pn532.PN532Error:
        return
    # Accepted only if the mutation hit a byte outside the checked frame (the postamble).
    assert body == pn532.parse_frame(GOOD)
    assert pos == len(GOOD) - 1


class ChaosChip:
    """An I2C device that answers any read with random bytes."""

    def __init__(self, seed):
        self.rng = randgame.Rng(seed)

    def i2c_write(self, buf):
        pass

    def i2c_read(self, n):
        return bytes(self.rng.below(256) for _ in range(n))


def test_a_chip_answering_garbage_gives_errors_not_crashes():
    for seed in range(30):
        bus = VirtualI2C()
        bus.attach(0x24, ChaosChip(seed))
        clock = VirtualClock()
        driver = pn532.PN532(bus, ticks_ms=clock.ticks_ms, sleep_ms=clock.sleep_ms)
        errors = 0
        for _ in range(300):
            FUZZ["cases"] += 1
            clock.advance(5)
            try:
                r = driver.poll_uid()
            except pn532.PN532Error:
                errors += 1
                continue
            assert r is pn532.PENDING or r is None or isinstance(r, bytes)
        assert errors > 0


def test_the_real_driver_and_chip_recover_after_injected_faults():
    bus = VirtualI2C()
    clock = VirtualClock()
    chip = PN532Chip(clock=clock.ticks_ms)
    bus.attach(0x24, chip)
    driver = pn532.PN532(bus, ticks_ms=clock.ticks_ms, sleep_ms=clock.sleep_ms)
    driver.setup()
    tag = NTAG213(bytes.fromhex("04A224B2C35E80"))
    chip.field.place(tag)
    rng = randgame.Rng(5)
    faults = ("bad_dcs", "bad_lcs", "nack", "garbage_ack", "error_frame", "short", "long",
              "stale")
    seen = 0
    for _ in range(200):
        FUZZ["cases"] += 1
        if rng.chance(30):
            chip.inject(rng.choice(faults))
        try:
            uid = driver.read_uid(timeout_ms=200)
        except pn532.PN532Error:
            continue
        if uid is not None:
            assert uid == tag.uid
            seen += 1
    assert seen > 100


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([4, 7, 10]).flatmap(  # ISO14443A UID sizes
    lambda n: st.binary(min_size=n, max_size=n)), min_size=1, max_size=8),
       st.integers(0, 40))
def test_random_unknown_tags_are_refused_in_any_phase(uids, steps):
    FUZZ["cases"] += 1
    board = gamekit.board()
    sim = simcore.Simulation(board)
    sim.run(parse(DEAL, board))
    player = randgame.Player(randgame.Rng(steps))
    for _ in range(steps):
        if sim.app.game.is_over():
            break
        sim.app.game.apply(player.choose(sim.app.game))
    before = sim.app.game.snapshot()
    for uid in uids:
        if sim.registry.card_for(uid) is not None:
            continue
        sim.present(uid, 0)
        assert sim.app.referee.outcome.code == "unknown-card"
    assert sim.app.game.snapshot() == before


def test_a_card_held_on_the_scanner_for_minutes_counts_once():
    board = gamekit.board()
    sim = simcore.Simulation(board)
    report = sim.run(parse("hold HUNA-1 300000\n", board))  # five minutes
    assert report["hands"]["white"] == ["HUNA-1"] and report["rejected"] == []
    report = sim.run(parse("tap ELAI-1\ntap DUDA-1\n" + "".join(
        "tap %s\n" % c for c in gamekit.BLACK_DEAL) + "hold HUNA-1 240000\n", board))
    assert report["rejected"] == [] and sim.app.referee.pending  # one pending card


def test_taps_faster_than_the_reader_poll():
    """Cards swapped on the scanner between two polls: each card the reader saw counts
    once; a card that came and went between polls was never seen (and is not counted)."""
    board = gamekit.board()
    sim = simcore.Simulation(board)
    app = sim.app
    names = sim.names
    uid = lambda card: simcore.sim_uid(names.index(card))  # noqa: E731
    # HUNA-1 is seen; ELAI-1 replaces it before the card left: a new card, counted.
    app.poll(uid("HUNA-1"), 0)
    app.poll(uid("ELAI-1"), 50)
    # DUDA-1 came and went between two polls: the reader never saw it.
    app.poll(None, 100)
    app.poll(uid("ELAI-1"), 150)  # ELAI-1 back after one empty poll: still the same card
    app.poll(None, 200)
    app.poll(None, 250)
    app.poll(None, 300)
    app.poll(uid("DUDA-1"), 350)
    assert app.game.hand("white") == ["DUDA-1", "ELAI-1", "HUNA-1"]
    assert app.referee.errors == 0


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=3000))
def test_random_bytes_on_the_serial_link_change_nothing(noise):
    FUZZ["cases"] += 1
    sim = simcore.Simulation(gamekit.board())
    lines = []
    link = Link(sim.app, lines.append, lambda: sim.now)
    sim.app.listen(link.on_event)
    before = sim.app.game.snapshot()
    link.feed(noise.replace(b"{", b"("))  # no "{": a random valid command is unlikely
    for line in lines:
        assert "error" in json.loads(line)
    assert sim.app.game.snapshot() == before
