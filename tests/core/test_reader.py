"""The card reader as the board runs it (firmware/hw/reader.py over hw/pn532.py), in the
simulator, which runs the app's own reader task at its own period over the emulated PN532:
a chip that ACKs on the second status read, one that answers late, one that wedges until
its reset pin is pulsed, one that leaves the bus and comes back. The same module runs
inside MicroPython (tests/core/test_reader_mpy.py)."""

import gamekit
from core.app import READER_MS
from host_tools.fakehw.i2c_bus import VirtualI2C
from host_tools.fakehw.pn532_chip import PN532Chip
from host_tools.simulator.engine import Simulation
from host_tools.simulator.scenario import parse
from hw.pn532 import PENDING, PN532, PN532Error


def tap(sim, card):
    sim.run(parse("tap %s\n" % card, sim.board))


def error_pixel(sim):
    return sim.report()["leds"][sim.board.status_leds["error"]]


def events(sim, key):
    return [e for e in sim.reader_events if key in e]


# ------------------------------------------------------------------ the driver's deadlines

def driver(**chip_args):
    bus = VirtualI2C()
    t = [0]
    chip = PN532Chip(clock=lambda: t[0], **chip_args)
    bus.attach(0x24, chip)
    pn = PN532(bus, ticks_ms=lambda: t[0], sleep_ms=lambda ms: None)
    pn.setup()  # bounded retries: a poll without a card answers "none"
    return pn, chip, t


def test_an_ack_at_the_second_status_read_a_reader_tick_later_is_no_fault():
    pn, chip, t = driver(ack_polls=1, response_polls=0)
    assert READER_MS > pn.ack_timeout_ms  # the board's tick is longer than the ACK's limit
    assert pn.poll_uid(0) is PENDING  # InListPassiveTarget written
    assert pn.poll_uid(READER_MS) is PENDING  # busy, past the 15 ms: one late read allowed
    assert pn.poll_uid(2 * READER_MS) is PENDING  # the ACK
    assert pn.poll_uid(3 * READER_MS) is None  # no card


def test_one_late_tick_does_not_fail_a_command_but_two_busy_reads_past_it_do():
    pn, chip, t = driver(ack_polls=0, response_polls=0)
    chip.inject("no_ack")
    assert pn.poll_uid(0) is PENDING
    assert pn.poll_uid(5) is PENDING  # busy, within 15 ms
    assert pn.poll_uid(120) is PENDING  # a late tick (a garbage collection): not yet
    try:
        pn.poll_uid(140)  # still nothing at the next read: the chip is not answering
        raise AssertionError("no error")
    except PN532Error as e:
        assert "no ACK" in str(e)


def test_the_deadline_is_the_callers_clock_not_the_drivers():
    pn, chip, t = driver(ack_polls=3, response_polls=0)
    t[0] = 10000  # the driver's own clock runs far ahead; the caller's does not
    assert pn.poll_uid(0) is PENDING
    for now in (1, 2, 3):
        assert pn.poll_uid(now) is PENDING
    assert pn.poll_uid(4) is PENDING  # the ACK, 4 ms after the command by the caller's clock


# ------------------------------------------------------------------ the board, simulated

def test_a_chip_that_acks_on_the_second_status_read_reads_cards():
    sim = Simulation(gamekit.board())
    sim.rig.chip.ack_polls = 1
    for card in ("HUNA-1", "ELAI-1"):
        tap(sim, card)
    assert sorted(sim.report()["hands"]["white"]) == ["ELAI-1", "HUNA-1"]
    assert sim.reader_events == [] and not sim.reader.lost


def test_a_chip_that_answers_late_reads_cards():
    sim = Simulation(gamekit.board())
    sim.rig.chip.response_ms = 300  # fifteen reader ticks after the ACK
    tap(sim, "HUNA-1")
    assert sim.report()["hands"]["white"] == ["HUNA-1"]
    assert sim.reader_events == [] and not sim.reader.lost


def test_a_wedged_chip_is_reset_through_its_pin_and_reads_cards_again():
    sim = Simulation(gamekit.board())
    tap(sim, "HUNA-1")
    resets = sim.rig.chip.resets
    sim.rig.chip.wedge()
    sim.advance(200)
    assert sim.rig.chip.resets == resets + 1 and not sim.rig.chip.wedged
    reset, back = sim.reader_events  # reset, then the chip's version once it answers
    assert "no ACK" in reset["reset"] and back["pn532"] == [0x32, 1, 6, 7]
    assert not events(sim, "error")  # recovered before it was ever lost: no fault shown
    tap(sim, "ELAI-1")
    assert sorted(sim.report()["hands"]["white"]) == ["ELAI-1", "HUNA-1"]
    assert not sim.reader.lost


def test_a_chip_that_leaves_the_bus_shows_the_fault_and_recovers_when_it_returns():
    sim = Simulation(gamekit.board())
    tap(sim, "HUNA-1")
    sim.rig.vanish()
    sim.advance(300)
    assert sim.reader.lost
    (lost,) = events(sim, "error")
    assert "not responding" in lost["error"]
    seen = set()
    for _ in range(50):  # the error pixel blinks while the reader is missing
        sim.advance(20)
        seen.add(tuple(error_pixel(sim)))
    assert (0, 0, 0) in seen and len(seen) == 2
    tap(sim, "ELAI-1")  # nobody reads it
    assert sim.report()["hands"]["white"] == ["HUNA-1"]
    sim.rig.come_back()
    sim.advance(2500)  # the next retry finds it
    assert not sim.reader.lost
    assert events(sim, "pn532")[-1]["pn532"] == [0x32, 1, 6, 7]
    sim.advance(1000)
    assert error_pixel(sim) == [0, 0, 0]
    tap(sim, "ELAI-1")
    assert sorted(sim.report()["hands"]["white"]) == ["ELAI-1", "HUNA-1"]


def test_without_a_reset_pin_a_failing_reader_is_lost_at_once_and_retried_every_2_s():
    from host_tools.fakehw.reader_rig import ReaderRig
    from hw.reader import Reader
    rig = ReaderRig()
    said = []
    reader = Reader(rig.driver, None, said.append)
    assert reader.start(0) == (0x32, 1, 6, 7)
    rig.vanish()
    now = 0
    while not reader.lost and now < 1000:
        now += READER_MS
        reader.poll(now)
    assert reader.lost and [sorted(e) for e in said] == [["error", "event"]]
    lost_at = now
    rig.come_back()
    while reader.lost:
        now += READER_MS
        reader.poll(now)
    assert now - lost_at == Reader.RETRY_MS  # found again at the first retry
    assert said[-1] == {"event": "reader", "pn532": [0x32, 1, 6, 7]}
    assert rig.chip.resets == 1  # only the rig's power-on: nothing pulsed the pin


# ------------------------------------------------------------------ the board's tight poll

def test_a_burst_runs_a_polls_steps_back_to_back_and_one_step_stays_one():
    """main.py sets `burst_us`: a poll's steps (command, ACK, busy, response) in one call
    while the chip has a command in flight; without it (the simulator) one step a call."""
    from host_tools.fakehw.ntag213 import NTAG213
    from hw.reader import Reader

    def reader(burst_us):
        pn, chip, t = driver(ack_polls=0, response_polls=1)
        chip.field.tag = NTAG213(bytes.fromhex("04A224B2C35E80"))
        r = Reader(pn)
        r.start(0)
        r.burst_us = burst_us
        return r

    r = reader(0)
    calls = 1
    while not r.poll(calls):
        assert r.busy
        calls += 1
    assert calls >= 3 and r.uid == bytes.fromhex("04A224B2C35E80")
    r = reader(50000)
    assert r.poll(0) and r.uid == bytes.fromhex("04A224B2C35E80") and not r.busy
