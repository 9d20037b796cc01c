"""`chipbench --profile` (host_tools/measure/chipprofile.py) without an emulator run: the
sample each execution batch leaves, their parsing, and how they are summed over the AI's
thinking windows."""

import subprocess
import sys
import types

from host_tools.measure import chipprofile
from mpy_runner import ROOT


def test_the_sampler_writes_the_core_every_10_us_of_rp2040_time(tmp_path):
    from rp2040py.clock.simulation_clock import SimulationClock

    clock = SimulationClock()
    core = types.SimpleNamespace(cycles=0, waiting=False, ipsr=0, registers=[0] * 16)
    rp = types.SimpleNamespace(core=core, clock=clock,
                               watchdog=types.SimpleNamespace(scratch_data=[0] * 8))
    path = tmp_path / "profile.txt"
    sampler = chipprofile.Sampler(str(path))
    sampler.attach(rp)
    clock.tick(4000)
    core.cycles, core.ipsr, core.registers[15], rp.watchdog.scratch_data[0] = 700, 21, 0x10001234, 5
    clock.tick(7000)  # the first sample, at 10 us
    core.waiting = True
    clock.tick(19000)  # the second and third
    sampler.out.flush()
    assert chipprofile.parse(path.read_text().splitlines()) == [
        (10000, 700, 0, 21, 0x10001234, 5), (20000, 700, 1, 21, 0x10001234, 5),
        (30000, 700, 1, 21, 0x10001234, 5)]


def test_parse_skips_a_torn_last_line():
    assert chipprofile.parse(["1 2 0 0 3 0", "4 5 0 0 6", ""]) == [(1, 2, 0, 0, 3, 0)]


def test_idle_is_exact_and_the_busy_time_goes_to_the_state_sampled():
    samples = [
        (0, 0, 0, 0, 0x10000000, 0),
        (10000, 1000, 0, 0, 0x10000104, 1),  # 8 us executed, 2 us idle, thread, mark 1
        (20000, 1500, 1, 0, 0x10000200, 0),  # 4 us executed, 6 us idle, waiting
        (30000, 2750, 0, 21, 0x20000000, 5),  # 10 us executed, in USBCTRL_IRQ
        (40000, 3000, 0, 0, 0x10000108, 1),  # outside the window
    ]
    res = chipprofile.summarize(samples, [(0, 30000)], marks={1: "wrapper"})
    assert res["ns"] == 30000 and res["samples"] == 3
    assert res["busy_ns"] == 22000 and res["idle_ns"] == 8000
    assert res["by_exception"] == {"USBCTRL_IRQ": 10000, "thread": 12000}
    assert res["by_mark"]["wrapper"] == {"busy_ns": 8000, "idle_ns": 2000}
    assert res["by_mark"]["0"] == {"busy_ns": 4000, "idle_ns": 6000}
    assert res["hot_pcs"] == [(0x10000100, 8000)]  # waiting and handler PCs are not counted
    text = "\n".join(chipprofile.table(res))
    assert "idle (WFI/WFE), exact" in text and "26.7%" in text
    assert "USBCTRL_IRQ" in text and "0x10000100" in text and "wrapper (idle 0.0 ms)" in text


def test_a_reset_of_the_core_is_not_counted():
    samples = [(0, 5000, 0, 0, 0, 0), (10000, 100, 0, 0, 0, 0), (20000, 1350, 0, 0, 0, 0)]
    res = chipprofile.summarize(samples, [(0, 20000)])
    assert res["ns"] == 10000 and res["busy_ns"] == 10000


def test_exception_names():
    assert chipprofile.exception_name(0) == "thread"
    assert chipprofile.exception_name(15) == "SysTick"
    assert chipprofile.exception_name(47) == "IRQ 31"
    assert chipprofile.exception_name(3) == "exception 3"


def test_chipbench_offers_the_profile():
    proc = subprocess.run([sys.executable, "-m", "host_tools", "chipbench", "--help"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 0 and "--profile" in proc.stdout


def test_the_emulator_is_told_where_to_sample(tmp_path, monkeypatch):
    from host_tools.measure import chipemulator

    seen = {}

    class Stop(Exception):
        pass

    def popen(cmd, env=None, **kw):
        seen["env"] = env
        raise Stop

    monkeypatch.setattr(chipemulator.subprocess, "Popen", popen)
    monkeypatch.setenv("CHIPRIG_PROFILE", "/stale")
    for profile, want in (("/tmp/p.txt", "/tmp/p.txt"), (None, None)):
        try:
            chipemulator.Emulator("x.uf2", "fs.img", None, profile=profile)
        except Stop:
            pass
        assert seen["env"].get("CHIPRIG_PROFILE") == want


def test_the_quiet_usb_host_answers_an_armed_out_buffer_once_it_has_bytes(monkeypatch):
    """chipbench's USB host (its default; `--stock-usb` leaves rp2040py's): rp2040py's CDC
    host answers an armed OUT buffer at once, with zero bytes if it has none (an interrupt
    every ~100 us on the chip); the rig's quiet host keeps the buffer armed until the host
    has bytes for it."""
    from rp2040py.clock.simulation_clock import SimulationClock
    from rp2040py.usb import cdc as cdcmod

    from host_tools.fakehw import chiprig

    monkeypatch.setattr(cdcmod.USBCDC, "__init__", cdcmod.USBCDC.__init__)
    chiprig.quiet_usb_host()
    clock = SimulationClock()
    done = []
    usb = types.SimpleNamespace(rp2040=types.SimpleNamespace(clock=clock),
                                endpoint_read_done=lambda ep, buf: done.append((ep, bytes(buf))))
    cdc = cdcmod.USBCDC(usb)
    cdc._out_endpoint = 2
    usb.on_endpoint_read(2, 64)  # armed, nothing to send: no packet
    clock.tick(50000)
    assert done == []
    for b in b"hi\n":
        cdc.send_serial_byte(b)
    assert done == []  # the bytes of one write go together, at the next clock tick
    clock.tick(0)
    assert done == [(2, b"hi\n")]
    cdc.send_serial_byte(ord("x"))  # bytes waiting when the buffer is armed: at once
    usb.on_endpoint_read(2, 64)
    assert done[-1] == (2, b"x")



def test_the_rig_logs_the_links_bytes_on_the_emulated_clock(monkeypatch):
    """chiprig's `{"link": NS}`: when the host's bytes reach the USB host (one entry per
    burst that found nothing waiting) and when each line of the board's ended, so that
    chipbench times a command in RP2040 time without its own process's time."""
    from rp2040py.clock.simulation_clock import SimulationClock
    from rp2040py.usb import cdc as cdcmod

    from host_tools.fakehw import chiprig

    monkeypatch.setattr(cdcmod.USBCDC, "__init__", cdcmod.USBCDC.__init__)
    monkeypatch.setitem(chiprig.STATE, "link", chiprig.collections.deque())
    chiprig.link_times()
    clock = SimulationClock()
    monkeypatch.setitem(chiprig.STATE, "rp", types.SimpleNamespace(clock=clock))
    usb = types.SimpleNamespace(rp2040=types.SimpleNamespace(clock=clock))
    cdc = cdcmod.USBCDC(usb)
    cdc._in_endpoint = 1
    clock.tick(1000)
    for b in b'{"cmd": "selftest"}\n':
        cdc.send_serial_byte(b)
    clock.tick(2000)
    usb.on_endpoint_write(1, b'{"event": "self')  # a line over two packets: its end counts
    clock.tick(3000)
    usb.on_endpoint_write(1, b'test"}\n{"ai": 1}\n')
    usb.on_endpoint_write(3, b"other\n")  # not the serial link's endpoint
    assert chiprig.answer({"link": 0})["link"] == [
        [1000, "host", 20], [6000, "board", '{"event": "selftest"}'], [6000, "board", '{"ai": 1}']]
    assert chiprig.answer({"link": 1000})["link"] == [
        [6000, "board", '{"event": "selftest"}'], [6000, "board", '{"ai": 1}']]


TIMELINE = [
    (0, 0, 0, 0, 0x10000000, 0),
    (10000, 1250, 0, 0, 0x10000000, 4),  # a slice: 10 us executed
    (20000, 2500, 0, 0, 0x10000000, 4),
    (30000, 3000, 0, 0, 0x10000000, 1),  # the frame: 4 us executed, 6 idle
    (40000, 4250, 0, 0, 0x10000000, 4),  # a slice again
    (50000, 5500, 0, 0, 0x10000000, 4),
]


def test_the_timeline_is_the_marks_in_the_order_they_ran():
    runs = chipprofile.timeline(TIMELINE, 0, 50000, {4: "slice", 1: "frame"})
    assert runs == [("slice", 0, 20000, 0), ("frame", 20000, 10000, 6000),
                    ("slice", 30000, 20000, 0)]
    # a window: only the intervals that end inside it; unnamed marks by number
    assert chipprofile.timeline(TIMELINE, 20000, 40000) == [("1", 20000, 10000, 6000),
                                                            ("4", 30000, 10000, 0)]
    # a reset of the core (its cycles going back) ends an interval uncounted
    reset = TIMELINE[:3] + [(30000, 100, 0, 0, 0, 1), (40000, 1350, 0, 0, 0, 1)]
    assert chipprofile.timeline(reset, 0, 40000) == [("4", 0, 20000, 0),
                                                     ("1", 30000, 10000, 0)]
    lines = chipprofile.timeline_lines(runs)
    assert lines[1].split() == ["0.020", "ms", "frame", "10", "us", "(idle", "6", "us)"]


def chipprofile_cli(*args):
    return subprocess.run([sys.executable, "-m", "host_tools", "chipprofile", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_the_timeline_command_and_its_mistakes(tmp_path):
    path = tmp_path / "profile.txt"
    path.write_text("".join("%d %d %d %d %d %d\n" % s for s in TIMELINE))
    proc = chipprofile_cli(str(path), "--from", "0.02", "--ms", "0.03", "--mark", "1=frame")
    assert proc.returncode == 0, proc.stderr
    assert [line.split()[2] for line in proc.stdout.splitlines()] == ["frame", "4"]
    binary = tmp_path / "image.uf2"
    binary.write_bytes(b"UF2\nWQ]\x9e\xff\xfe" * 50)
    for args, said in [((str(tmp_path / "none.txt"),), "No such file"),
                       ((str(binary),), "holds no samples"),
                       ((str(path), "--from", "5"), "no samples between 5.000"),
                       ((str(path), "--mark", "frame"), "--mark wants N=NAME"),
                       ((str(path), "--ms", "0"), "--ms wants a length over 0"),
                       ((str(path), "--ms", "nan"), "--ms wants a length over 0"),
                       ((str(path), "--from", "inf"), "--from wants a time in ms")]:
        proc = chipprofile_cli(*args)
        assert proc.returncode == 2 and said in proc.stderr, (args, proc.stderr)
        assert "Traceback" not in proc.stderr and proc.stdout == ""
