"""`make flash` / host_tools/maker/flash.py against the virtual board: the real mpy-cross build, the
real mpremote transport, a real (virtual) serial port. Every wait is bounded."""

import json
import os
import shutil
import subprocess
import sys
import time

import pytest

from core import gameload
from host_tools.maker import flash, linkclient
from host_tools.maker.vboardclient import Running
from mpy_runner import ROOT

FIRMWARE = os.path.join(ROOT, "firmware")
TIMEOUT = 180  # seconds for one flash run (it takes a few)

# A stand-in for firmware/main.py: says it booted, then answers the serial link.
STAND_IN_MAIN = """\
import json, sys
import games.kahuna.rules
print(json.dumps({"event": "boot", "firmware": "stand-in"}))
for line in sys.stdin:
    print(json.dumps({"event": "state", "state": {}}))
"""

# Files the board writes for itself; a flash must leave them alone.
DATA = {
    "game.jnl": b"\x00journal\xffbytes\n" * 3,
    "cards.json": b'{"04A224B2C35E80": "HUNA-1"}',
    "settings.json": b'{"variant": "standard"}',
}


@pytest.fixture
def board(tmp_path):
    d = tmp_path / "board"
    d.mkdir()
    for name, data in DATA.items():
        (d / name).write_bytes(data)
    log = open(tmp_path / "vboard.log", "w")
    b = Running(str(d), log=log)
    b.dir = str(d)
    try:
        yield b
    finally:
        b.stop()
        log.close()


@pytest.fixture
def stand_in(tmp_path):
    """The firmware tree with main.py replaced by STAND_IN_MAIN."""
    fw = tmp_path / "firmware"
    shutil.copytree(FIRMWARE, fw, ignore=shutil.ignore_patterns("__pycache__"))
    (fw / "main.py").write_text(STAND_IN_MAIN)
    return str(fw)


def run_flash(port, *args, build_dir):
    cmd = [sys.executable, "-m", "host_tools.maker.flash", "--port", port, "--build-dir",
           build_dir] + list(args)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT,
                          stdin=subprocess.DEVNULL)


def progress(out):
    return [ln for ln in out.splitlines() if ln.startswith("[")]


def expected_files(firmware, game="kahuna", network="none"):
    """What a build for `game`'s board holds: the core, the drivers and that game only; a
    Pico W's (network "wifi") also its network driver and the MQTT client."""
    names = []
    for folder, dirs, files in os.walk(firmware):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        if os.path.basename(folder) == "games":
            dirs[:] = [d for d in dirs if d == game]
        for f in files:
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(folder, f), firmware).replace(os.sep, "/")
                if rel in flash.NETWORK_ONLY and network != "wifi":
                    continue
                names.append(rel if rel == "main.py" else rel[:-3] + ".mpy")
    extra = [flash.CLIENT] if network == "wifi" else []
    return sorted(names + extra + ["board_def/board.json"])


def test_flash_sends_everything_then_nothing_and_never_touches_the_data(board, stand_in,
                                                                         tmp_path):
    build_dir = str(tmp_path / "build")
    first = run_flash(board.port, "--firmware", stand_in, build_dir=build_dir)
    assert first.returncode == 0, first.stdout + first.stderr
    lines = progress(first.stdout)
    files = expected_files(stand_in)
    assert len(lines) == len(files)
    assert all("  sent (" in ln for ln in lines), lines
    assert lines[0].startswith("[1/%d] " % len(files))
    assert lines[-1].startswith("[%d/%d] main.py  sent (" % (len(files), len(files)))
    assert '"firmware": "stand-in"' in first.stdout and "the board booted" in first.stdout
    for rel in files:  # what is on the board is what was built, byte for byte
        with open(os.path.join(build_dir, rel), "rb") as f, \
                open(os.path.join(board.dir, rel), "rb") as g:
            assert f.read() == g.read(), rel
    for rel in ("games/kahuna/rules.mpy", "hw/pn532.mpy"):
        with open(os.path.join(board.dir, rel), "rb") as f:
            assert f.read(4)[:1] == b"M"  # an .mpy, not source
    # The virtual board is not a Pico: its machine code is compiled for this computer
    assert "its machine code compiled for it" in first.stdout
    with open(os.path.join(board.dir, "games/kahuna/aimodel.mpy"), "rb") as f:
        assert f.read(4)[2] >> 2 not in (0, 4)  # native code, not the Pico's armv6m (4)
    for name, data in DATA.items():
        with open(os.path.join(board.dir, name), "rb") as f:
            assert f.read() == data, name

    second = run_flash(board.port, "--firmware", stand_in, build_dir=build_dir)
    assert second.returncode == 0, second.stdout + second.stderr
    lines = progress(second.stdout)
    assert len(lines) == len(files) and all(ln.endswith("  unchanged") for ln in lines)
    assert "0 sent" in second.stdout and "the board booted" in second.stdout
    for name, data in DATA.items():
        with open(os.path.join(board.dir, name), "rb") as f:
            assert f.read() == data, name
    st = board.client.status()
    assert st["boots"] == 1 and st["main_runs"] == 2  # a soft reboot after each flash


def test_only_changed_files_go_and_stale_modules_are_removed(board, stand_in, tmp_path):
    build_dir = str(tmp_path / "build")
    assert run_flash(board.port, "--firmware", stand_in, "--no-reset",
                     build_dir=build_dir).returncode == 0
    with open(os.path.join(stand_in, "core", "scanner.py"), "a") as f:
        f.write("\nCHANGED = 1\n")
    # A source file left on the board would shadow the .mpy (MicroPython tries .py first).
    with open(os.path.join(board.dir, "games", "kahuna", "rules.py"), "w") as f:
        f.write("raise ImportError('stale')\n")
    out = run_flash(board.port, "--firmware", stand_in, build_dir=build_dir)
    assert out.returncode == 0, out.stdout + out.stderr
    sent = [ln for ln in progress(out.stdout) if "  sent (" in ln]
    assert len(sent) == 1 and "core/scanner.mpy" in sent[0]
    assert "stale games/kahuna/rules.py  removed" in out.stdout
    assert not os.path.exists(os.path.join(board.dir, "games", "kahuna", "rules.py"))
    assert "the board booted" in out.stdout  # main.py imports games.kahuna.rules: the .mpy works
    for name, data in DATA.items():
        with open(os.path.join(board.dir, name), "rb") as f:
            assert f.read() == data, name


def test_make_flash_puts_the_real_firmware_on_the_board_and_it_boots(board, tmp_path):
    build_dir = str(tmp_path / "build")
    proc = subprocess.run(
        ["make", "flash", "PORT=" + board.port, "ARGS=--build-dir " + build_dir],
        capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert len(progress(proc.stdout)) == len(expected_files(FIRMWARE))
    boot = [ln for ln in proc.stdout.splitlines() if ln.startswith("flash: the board booted: ")]
    assert boot, proc.stdout
    event = json.loads(boot[0].split(": ", 2)[2])
    with open(os.path.join(ROOT, "board_def", "kahuna.json")) as f:
        leds = json.load(f)["layout"]["status_leds"]
    assert event["event"] == "boot"
    assert event["pn532"] == [0x32, 1, 6, 7]  # the emulated PN532, through the real driver
    assert event["cards"] == 1  # it read the board's /cards.json
    assert event["leds"] > max(leds.values())
    with open(os.path.join(board.dir, "cards.json"), "rb") as f:
        assert f.read() == DATA["cards.json"]
    st = board.client.wait_for(lambda s: s["strips"].get("28", {}).get("writes", 0) > 0,
                               what="the firmware's first LED frame")
    assert st["wdt"] is not None  # main.py runs its watchdog, and feeds it
    # Again: flash has to stop the running firmware (asyncio tasks, watchdog) first.
    again = subprocess.run(
        ["make", "flash", "PORT=" + board.port, "ARGS=--build-dir " + build_dir],
        capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT, stdin=subprocess.DEVNULL)
    assert again.returncode == 0, again.stdout + again.stderr
    assert all(ln.endswith("  unchanged") for ln in progress(again.stdout))
    assert "flash: the board booted: " in again.stdout
    assert board.client.status()["resets"] == []


def test_a_flash_whose_reader_goes_away_still_flashes_and_boots(board, tmp_path):
    """`make flash | head -1`: the reader goes after the first line; the flash goes on to
    the boot line, and says nothing of a broken pipe (it used to stop there with a
    traceback, the board left in its raw REPL with its watchdog unfed)."""
    with open(tmp_path / "stderr", "w+") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "host_tools", "flash", "--port", board.port,
             "--build-dir", str(tmp_path / "build")],
            stdout=subprocess.PIPE, stderr=err, cwd=ROOT, stdin=subprocess.DEVNULL)
        assert proc.stdout.readline().startswith(b"flash: ")
        proc.stdout.close()
        assert proc.wait(timeout=TIMEOUT) == 0
        err.seek(0)
        assert err.read() == ""
    st = board.client.wait_for(lambda s: s["strips"].get("28", {}).get("writes", 0) > 0,
                               what="the firmware's first LED frame")
    assert st["phase"] == "main.py" and st["resets"] == []


def test_after_make_flash_a_scripted_game_over_the_link_reaches_the_expected_state(board,
                                                                                tmp_path):
    """The issue's acceptance test: `make flash PORT=<virtual board>`, the board boots the
    real firmware, and a game played over its serial link (taps by name, a real tag on the
    emulated reader, a button on its pin) ends up where it should."""
    build_dir = str(tmp_path / "build")
    proc = subprocess.run(
        ["make", "flash", "PORT=" + board.port, "ARGS=--build-dir " + build_dir],
        capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    import serial

    with serial.Serial(board.port, 115200, timeout=0.1) as ser:
        buf = [b""]
        known = [None]  # the state a host holds: every message merged (linkclient.merge)

        def ask(obj, want, timeout=8):
            if obj is not None:
                ser.write((json.dumps(obj) + "\n").encode())
            end = time.monotonic() + timeout
            while time.monotonic() < end:
                buf[0] += ser.read(4096)
                lines = buf[0].split(b"\n")
                buf[0] = lines.pop()
                for line in lines:
                    try:
                        msg = json.loads(line)
                    except ValueError:
                        continue  # the REPL's own output
                    if isinstance(msg, dict):
                        known[0] = linkclient.merge(known[0], msg)
                    if isinstance(msg, dict) and (msg.get("event") in want or "error" in msg):
                        return msg
            raise AssertionError("no %s from the board; last bytes %r" % (want, buf[0][-300:]))

        ask({"cmd": "new", "settings": {"variant": "standard", "first": "white",
                                        "handicap": None}}, ("new",))
        ask({"cmd": "reveal", "on": True}, ("state",))  # this test checks the hands
        for card in ("HUNA-1", "ELAI-1", "DUDA-1", "ALOA-1", "DUDA-2", "ELAI-2"):
            msg = ask({"cmd": "tap", "card": card}, ("accepted", "refused"))
            assert msg["event"] == "accepted", msg
        # White plays HUNA-1 on ELAI-HUNA through the link...
        ask({"cmd": "tap", "card": "HUNA-1"}, ("accepted", "refused"))
        msg = ask({"cmd": "pick", "conn": "ELAI-HUNA"}, ("accepted", "refused"))
        assert msg["changed"]["bridges"] == {"ELAI-HUNA": "white"}
        # ...then lays a real tag on the reader: ELAI-1, enrolled under its UID first.
        msg = ask({"cmd": "enroll", "card": "ELAI-1", "uid": "04E1A1000000E1"}, ("enrolled",))
        assert msg == {"event": "enrolled", "card": "ELAI-1", "uid": "04E1A1000000E1"}
        board.client.place_tag("04E1A1000000E1")
        msg = ask({"cmd": "state"}, ("accepted", "refused"), timeout=8)
        board.client.remove_tag()
        assert msg["event"] == "accepted" and known[0]["phase"] == "play", msg
        # ELAI's options are open: the `next` button on its pin moves the highlight, and
        # `pick` through the link places the bridge.
        board.client.press(10, ms=120)  # GP10: next
        msg = ask(None, ("accepted", "refused"))  # the button's own event
        assert msg["event"] == "accepted", msg
        msg = ask({"cmd": "pick", "conn": "DUDA-ELAI"}, ("accepted", "refused"))
        state = known[0]
        assert state["bridges"] == {"DUDA-ELAI": "white", "ELAI-HUNA": "white"}
        assert state["hands"]["white"] == ["DUDA-1"] and state["supply"]["white"] == 23


def test_a_running_watchdog_does_not_reset_the_board_during_a_flash(board, stand_in,
                                                                    tmp_path):
    # main.py starts a short watchdog; the flash interrupts main.py (nobody feeds it any more)
    # and copies for longer than its timeout: flash has to keep it fed.
    with open(os.path.join(stand_in, "core", "padding.py"), "w") as f:
        f.write("DATA = (\n%s)\n" % "".join("    %r\n" % os.urandom(200) for _ in range(1500)))
    with open(os.path.join(stand_in, "main.py"), "w") as f:
        f.write("import machine\nw = machine.WDT(timeout=500)\n" + STAND_IN_MAIN.replace(
            "for line in sys.stdin:\n",
            "import select\np = select.poll()\np.register(sys.stdin, select.POLLIN)\n"
            "while True:\n    w.feed()\n    if not p.poll(50):\n        continue\n"
            "    line = sys.stdin.readline()\n"))
    build_dir = str(tmp_path / "build")
    first = run_flash(board.port, "--firmware", stand_in, "--force", build_dir=build_dir)
    assert first.returncode == 0, first.stdout + first.stderr
    board.client.wait_for(lambda s: s["wdt"] is not None, what="main.py's watchdog")
    again = run_flash(board.port, "--firmware", stand_in, "--force", build_dir=build_dir)
    assert again.returncode == 0, again.stdout + again.stderr
    seconds = float(again.stdout.split(" stale removed in ")[1].split(" s")[0])
    assert seconds > 0.5  # the copy outlasted the watchdog's timeout ...
    assert board.client.status()["resets"] == []  # ... which never bit


def test_hard_reset_then_boot_line(board, stand_in, tmp_path):
    out = run_flash(board.port, "--firmware", stand_in, "--hard-reset",
                    build_dir=str(tmp_path / "build"))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "the board booted" in out.stdout
    assert board.client.status()["resets"] == [{"boot": 1, "why": "machine.reset()"}]


def test_a_board_that_never_reports_booting_is_a_clear_failure(board, stand_in, tmp_path):
    with open(os.path.join(stand_in, "main.py"), "w") as f:
        f.write("print('starting')\nraise RuntimeError('no reader')\n")
    out = run_flash(board.port, "--firmware", stand_in, "--timeout", "3",
                    build_dir=str(tmp_path / "build"))
    assert out.returncode == 1
    assert 'did not report {"event": "boot"} within 3.0 s' in out.stderr
    assert "RuntimeError: no reader" in out.stderr  # the board's last words are shown


def test_no_board_found_says_so(monkeypatch, tmp_path, capsys):
    from serial.tools import list_ports

    monkeypatch.setattr(list_ports, "comports", lambda *a, **k: [])
    assert flash.main(["--build-dir", str(tmp_path / "build")]) == 2
    err = capsys.readouterr().err
    assert "no board found" in err and "make flash PORT=" in err


def test_a_port_that_is_not_there_says_so(tmp_path):
    out = run_flash("/dev/does-not-exist", build_dir=str(tmp_path / "build"))
    assert out.returncode == 2  # cannot run as asked
    assert out.stderr == ("flash: cannot open /dev/does-not-exist: there is no such device; "
                          "is the board plugged in? (`python -m serial.tools.list_ports` "
                          "lists the serial ports)\n")
    assert not os.path.exists(str(tmp_path / "build"))  # said before any work


def test_a_path_that_is_no_serial_port_says_so(tmp_path):
    for port in (str(tmp_path), os.devnull):
        out = run_flash(port, build_dir=str(tmp_path / "build"))
        assert out.returncode == 2, out.stderr
        assert out.stderr.startswith("flash: cannot open %s: " % port), out.stderr
        assert out.stderr.endswith(": is that the board's serial port? (`python -m "
                                   "serial.tools.list_ports` lists them)\n"), out.stderr
        assert "another program" not in out.stderr


def test_a_build_never_contains_the_boards_data(tmp_path):
    files = flash.build(out=str(tmp_path / "build"))
    rels = [rel for rel, _ in files]
    assert not set(rels) & set(flash.PROTECTED)
    assert rels[-1] == "main.py" and "board_def/board.json" in rels


@pytest.mark.parametrize("pretend,words", [
    (["--pretend-version", "1.18.0"], "loads .mpy version 5; this firmware is compiled to "
                                      ".mpy version 6"),
    (["--pretend-version", "1.22.0"], "the board runs MicroPython 1.22.0; the firmware needs "
                                      "1.23 or later"),
])
def test_an_old_micropython_is_refused_before_anything_is_copied(tmp_path, stand_in, pretend,
                                                                 words):
    d = tmp_path / "old-board"
    d.mkdir()
    (d / "main.py").write_text("print('the old program')\n")
    with open(tmp_path / "vboard.log", "w") as log, Running(str(d), args=pretend,
                                                             log=log) as old:
        out = run_flash(old.port, "--firmware", stand_in, build_dir=str(tmp_path / "build"))
        assert out.returncode == 2, out.stdout + out.stderr
        err = out.stderr.strip().split("\n")
        assert err[0] == "flash: nothing copied: " + err[0].split(": ", 2)[2]
        assert words in err[0]
        assert err[1] == ("Fix: put the latest MicroPython for RPI_PICO "
                          "(https://micropython.org/download/RPI_PICO/) on the Pico: hold "
                          "BOOTSEL while plugging it in, drag the .uf2 onto the RPI-RP2 drive, "
                          "then flash again.")
        assert len(err) == 2
        assert "sent" not in out.stdout and sorted(os.listdir(d)) == ["main.py"]
        # It goes on running its old program: main.py runs again after the check.
        old.client.wait_for(lambda s: s["main_runs"] >= 2, what="main.py running again")


def test_the_board_version_check_reads_what_the_board_reports(board):
    b = flash.Board(board.port)
    try:
        name, version, mpy = b.implementation()
    finally:
        b.close()
    assert name == "micropython" and version >= flash.MIN_VERSION and mpy & 0xFF == 6
    flash.check_compatible((name, version, mpy), 6)  # the virtual board passes
    # ... and gets its machine code compiled for this computer's CPU, not the Pico's
    assert flash.board_march((name, version, mpy)) not in (None, flash.MARCH)
    with pytest.raises(flash.Incompatible, match="not MicroPython"):
        flash.check_compatible(("circuitpython", (9, 0, 0), 6), 6)
    with pytest.raises(flash.Incompatible, match="cannot load .mpy files"):
        flash.check_compatible(("micropython", (1, 22, 0), None), 6)


def test_a_build_holds_the_core_the_drivers_and_only_the_game_its_board_names(tmp_path):
    fw = tmp_path / "firmware"
    shutil.copytree(FIRMWARE, fw, ignore=shutil.ignore_patterns("__pycache__"))
    other = fw / "games" / "othergame"
    other.mkdir()
    (other / "__init__.py").write_text("")
    (other / "game.py").write_text("".join("%s = None\n" % name for name in gameload.INTERFACE))
    files = [rel for rel, _ in flash.build(str(fw), out=str(tmp_path / "build"))]
    assert "games/kahuna/rules.mpy" in files and "core/app.mpy" in files
    assert "hw/pn532.mpy" in files and "board_def/board.json" in files
    assert not [rel for rel in files if rel.startswith("games/othergame")]
    # The other game's board: its package, and no Kahuna.
    board = json.load(open(os.path.join(ROOT, "board_def", "kahuna.json")))
    board["game"] = "othergame"
    path = tmp_path / "other.json"
    path.write_text(json.dumps(board))
    files = [rel for rel, _ in flash.build(str(fw), str(path), out=str(tmp_path / "b2"))]
    assert "games/othergame/game.mpy" in files
    assert not [rel for rel in files if rel.startswith("games/kahuna")]
    # A game that lacks part of the platform's interface cannot run on a board: refused,
    # naming what it lacks, and nothing built.
    (other / "game.py").write_text("NAME = 'othergame'\nfrom x import view\n"
                                   "def controller(state):\n    pass\n")
    with pytest.raises(flash.FlashError, match=r"'othergame', which cannot run on a board yet: "
                       r"its games/othergame/game.py lacks TITLE, SEATS, card_names"):
        flash.build(str(fw), str(path), out=str(tmp_path / "b4"))
    assert not (tmp_path / "b4").exists()
    board["game"] = "chess"
    path.write_text(json.dumps(board))
    with pytest.raises(flash.FlashError, match="the game 'chess'"):
        flash.build(str(fw), str(path), out=str(tmp_path / "b3"))


@pytest.mark.micropython
def test_the_build_leaves_line_numbers_out_unless_asked(tmp_path, mpy):
    """-O3: the board keeps no line-number tables in its heap (the code of the solo game's
    modules is about 5 KB smaller); a traceback still names the file (by its name on the
    board, the module's __file__: one interned name) and the function. `--line-numbers`
    (OPT_LINES) keeps them."""
    fw = tmp_path / "firmware"
    shutil.copytree(FIRMWARE, fw, ignore=shutil.ignore_patterns("__pycache__"))
    (fw / "hw" / "crash.py").write_text("\n\ndef fail():\n    x = 1\n    raise ValueError(x)\n")
    shown = {}
    for opt in (flash.OPT, flash.OPT_LINES):
        out = tmp_path / ("build%d" % opt)
        files = dict(flash.build(str(fw), out=str(out), opt=opt))
        code = ("import sys, os\nsys.path.insert(0, '')\nos.chdir(%r)\nfrom hw import crash\n"
                "print('FILE', crash.__file__)\n"
                "try:\n    crash.fail()\nexcept ValueError as e:\n    sys.print_exception(e)\n"
                % str(out))
        shown[opt] = [line.strip() for line in mpy.run_code(code).splitlines()
                      if "crash.mpy" in line]
        size = sum(os.path.getsize(files[rel]) for rel in files if rel.endswith(".mpy"))
        shown[opt].append(size)
    assert shown[flash.OPT_LINES][0] == "FILE hw/crash.mpy"  # as on the Pico (sys.path '')
    assert shown[flash.OPT_LINES][1] == 'File "hw/crash.mpy", line 5, in fail'
    assert shown[flash.OPT][1] == 'File "hw/crash.mpy", line 1, in fail'  # no table: line 1
    assert shown[flash.OPT][2] < shown[flash.OPT_LINES][2] - 4000  # bytes of code saved


def test_a_broken_board_definition_is_refused_before_anything_is_copied(tmp_path):
    """The board would stop at boot on it (flash waited 20 s for a boot line, then showed
    its traceback): refused with the board's own words, before the port is looked at."""
    with open(os.path.join(ROOT, "board_def", "kahuna.json")) as f:
        bd = json.load(f)
    del bd["hardware"]["pins"]
    path = tmp_path / "nopins.json"
    path.write_text(json.dumps(bd))
    out = run_flash(os.devnull, "--board-def", str(path), build_dir=str(tmp_path / "build"))
    assert out.returncode == 2
    assert out.stderr == "flash: nothing copied: %s: hardware.pins: required field missing\n" % (
        path)
    assert not os.path.exists(str(tmp_path / "build"))


def test_a_card_registry_of_another_game_is_said_after_the_boot(board, tmp_path):
    """One controller flashed with another game: the boot line's cards_problem, in words."""
    with open(os.path.join(board.dir, "cards.json"), "w") as f:
        json.dump({"04A1B2C3D4E5F6": "SOLDAT-1"}, f)
    out = run_flash(board.port, build_dir=str(tmp_path / "build"))
    assert out.returncode == 0, out.stderr
    assert ("flash: the board could not use its card registry: SOLDAT-1 is not a card of "
            "this game\n") in out.stdout, out.stdout
