"""The Pico W heap measurement (host_tools/measure/picowheap.py), without the emulator: the
image it lays holds the Pico W's build with its own main.py in front of the firmware's
(unchanged), the measurement-only stand-ins in /lib, the settings; its projection is the
Pico's heap less the network stack's static RAM; its report states both. The emulator run
itself takes minutes (README, "Play across tables")."""

import json
import os
import subprocess
import sys

from littlefs import LittleFS, UserContext

from host_tools.maker import flash
from host_tools.measure import chipemulator, picowheap
from mpy_runner import ROOT, MicroPython


def test_the_image_is_the_pico_ws_build_with_the_measurements_main_in_front(tmp_path):
    board = picowheap.pico_w_board(str(tmp_path))
    with open(os.path.join(flash.FIRMWARE, "main.py"), "rb") as f:
        firmware_main = f.read()
    extra = picowheap.image_files()
    main_py = dict(extra)["main.py"]
    assert b"NO_AI" not in main_py and b"preload" not in main_py
    assert b"_game.preload = lambda: None" in dict(picowheap.image_files(no_ai=True))["main.py"]
    image = tmp_path / "fs.img"
    paths = chipemulator.build_image(str(image), str(tmp_path / "build"), board, flash.OPT,
                                     extra)
    assert {"hw/net.mpy", "lib/mqtt_async.mpy", "main.py", "firmware_main.py",
            "lib/network.py", "lib/socket.py", "net.json"} <= set(paths)
    assert paths.count("main.py") == 1
    block_size, block_count = chipemulator.fs_layout()
    data = image.read_bytes()
    ctx = UserContext(buffsize=len(data))
    ctx.buffer[:] = data
    fs = LittleFS(context=ctx, block_size=block_size, block_count=block_count, mount=True)
    with fs.open("main.py", "rb") as f:
        assert f.read() == main_py
    with fs.open("firmware_main.py", "rb") as f:
        assert f.read() == firmware_main
    with fs.open("net.json", "r") as f:
        assert set(json.load(f)) == {"ssid", "wifi_password", "host", "port", "user",
                                     "password"}


def test_the_stand_ins_let_the_driver_start_and_never_join(tmp_path):
    """The measurement's network stand-in on MicroPython: the driver starts, its task tries
    to join and says why not, and never raises (the board goes on playing)."""
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "network.py").write_text(picowheap.NETWORK)
    (lib / "socket.py").write_text(picowheap.SOCKET)
    (tmp_path / "net.json").write_text(picowheap.NET_JSON)
    client = flash.build_client(str(tmp_path / "client"))
    mp = MicroPython(path=(".frozen", str(lib), os.path.dirname(client),
                           os.path.join(ROOT, "firmware"),
                           os.path.join(ROOT, "host_tools", "fakehw", "pico"), ROOT),
                     heap_kib=380)
    out = mp.run_code(
        "import asyncio\nfrom hw import net\nnet.WIFI_S = 1\n"
        "n = net.start(%r, lambda *a: None, print)\n"
        "async def go():\n"
        "    t = asyncio.create_task(n.run())\n"
        "    await asyncio.sleep(1.5)\n"
        "    print('still trying', not t.done())\n"
        "asyncio.run(go())\n" % str(tmp_path / "net.json"))
    assert out.splitlines() == ["net: Wi-Fi 'measure': not joined within 1 s (status 1)",
                                "still trying True"]


def test_the_projection_takes_the_network_stacks_static_ram_off():
    low, high = picowheap.projection(240.0)
    fixed = (picowheap.LWIP_BYTES + picowheap.CYW43_BYTES) / 1024.0
    assert high == 240.0 - fixed - 3.0 and low == 240.0 - fixed - 6.0
    assert 205 < low < high < 210


def test_the_report_states_measure_and_projection():
    wifi = {"live": [("after boot", 100 * 1024, 240 * 1024), ("at the end", 110 * 1024,
                                                              240 * 1024)],
            "board": {"heap": {"free_low": 40 * 1024}},
            "net_lines": ["net: Wi-Fi 'measure': not joined within 20 s (status 1)"]}
    plain = {"live": [("after boot", 90 * 1024, 240 * 1024), ("at the end", 99 * 1024,
                                                              240 * 1024)],
             "board": {"heap": {"free_low": 50 * 1024}}}
    text = picowheap.report(wifi, plain)
    assert "live heap after a full collection: 100.0 to 110.0 KiB of 240.0 KiB" in text
    assert "the network driver and the client's cost: 10.0 to 11.0 KiB" in text
    low, high = picowheap.projection(240.0)
    assert "projected GC heap of a Pico W: %.1f to %.1f KiB" % (low, high) in text
    assert "projected room above the live heap on a Pico W: %.1f to %.1f KiB" % (
        low - 110, high - 110) in text
    assert "not joined within 20 s" in text
    assert "at least 24.0 KiB (from 64 KiB, where it collects, down to 40.0)" in text
    assert "at most %.1f to %.1f KiB free" % (low - 110 - 24, high - 110 - 24) in text
    assert "game, AI, network driver" in text
    wifi["no_ai"] = True  # --no-ai: no game was played, so no low point to project
    text = picowheap.report(wifi, None)
    assert "game, the AI not loaded, network driver" in text
    assert "lowest free" not in text


def test_a_missing_uf2_is_one_line_and_exit_2(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "host_tools.measure.picowheap", "--uf2",
                           str(tmp_path / "none.uf2")], capture_output=True, text=True,
                          cwd=ROOT, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "picowheap: %s: no such file" % (tmp_path / "none.uf2")


def test_the_seat_run_boots_the_firmwares_main_into_a_remote_game(tmp_path):
    """--seat: the firmware's main.py itself (it starts the driver and the seat), a remote
    game in the journal that seats no board player (its AI not preloaded), /remote.json in
    core.netseat's form."""
    from core import gameload, netseat
    from core.journal import Journal
    from host_tools.fakehw.flash import DiskFlash
    files = dict(picowheap.image_files(seat=True))
    with open(os.path.join(flash.FIRMWARE, "main.py"), "rb") as f:
        assert files["main.py"] == f.read()
    assert "firmware_main.py" not in files and "net.json" in files
    board = DiskFlash(str(tmp_path))
    for name in ("game.jnl", "remote.json"):
        with board.open("/" + name, "wb") as f:
            f.write(files[name])
    settings = Journal("/game.jnl", board).settings()
    assert settings["remote"] == "black" and not gameload.needs_player(settings)
    record = netseat.load(str(tmp_path / "remote.json"))
    assert record["code"] == picowheap.SEAT_CODE and record["hello"]["op"] == "create"
