"""`make bench-chip` (host_tools/measure/chipbench.py) without the emulator run itself,
which takes minutes and is not part of `make test`: its command-line errors (one line,
exit status 2, no traceback, nothing started), the firmware image it boots (the files
`make flash` would copy, at their board paths), and its table."""

import os
import subprocess
import sys

import pytest

from host_tools.maker import flash
from host_tools.measure import chipbench, chipemulator
from mpy_runner import ROOT


def run(*args):
    return subprocess.run([sys.executable, "-m", "host_tools", "chipbench"] + list(args),
                          capture_output=True, text=True, cwd=ROOT, timeout=60,
                          stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("args,words", [
    ([], "chipbench: name the stock MicroPython firmware for the Pico: make bench-chip "
         "UF2=path/to/RPI_PICO.uf2 (the .uf2 from https://micropython.org/download/RPI_PICO/)"),
    (["--uf2", "/nope/RPI_PICO.uf2"], "chipbench: /nope/RPI_PICO.uf2: no such file; name "
                                      "MicroPython's RPI_PICO .uf2"),
    (["--uf2", "README.md"], "chipbench: README.md is not a UF2 file"),
    # The game's part of the session (host_tools/games/<game>/chipplay.py) must be there.
    (["--game", "kami"], "chipbench: kami has no chip benchmark yet "
                         "(host_tools/games/kami/ does not provide chipplay)"),
    (["--game", "chess"], "chipbench: unknown game 'chess'"),
])
def test_a_wrong_uf2_is_one_line_and_exit_2(args, words):
    proc = run(*args)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert proc.stderr.strip().count("\n") == 0
    assert words in proc.stderr


def test_make_bench_chip_without_uf2_says_what_to_pass():
    proc = subprocess.run(["make", "-s", "bench-chip"], capture_output=True, text=True,
                          cwd=ROOT, timeout=300, stdin=subprocess.DEVNULL)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "make bench-chip UF2=path/to/RPI_PICO.uf2" in proc.stderr.splitlines()[0]


def test_the_image_holds_what_make_flash_copies_at_the_board_paths(tmp_path):
    from littlefs import LittleFS, UserContext

    image = tmp_path / "fs.img"
    paths = chipemulator.build_image(str(image), str(tmp_path / "build"))
    want = [rel for rel, _ in flash.build(out=str(tmp_path / "again"))]
    assert paths == want and "main.py" in paths
    block_size, block_count = chipemulator.fs_layout()
    data = image.read_bytes()
    assert len(data) == block_size * block_count
    ctx = UserContext(buffsize=len(data))
    ctx.buffer[:] = data
    fs = LittleFS(context=ctx, block_size=block_size, block_count=block_count, mount=True)
    for rel in paths:
        with fs.open(rel, "rb") as f, open(os.path.join(tmp_path, "build", rel), "rb") as g:
            assert f.read() == g.read(), rel


def test_the_table_states_the_method():
    res = {"uf2": "RPI_PICO.uf2", "boot": {"ns": 9e8},
           "tag_to_frame": chipbench.summary([200.0, 180.5, 220.0]),
           "live": [("after boot", 128000, 245760), ("at the end", 133120, 245760)],
           "board": {"ai": {}, "heap": {"live": 133120, "total": 245760, "collect_ms": 9.5}}}
    text = chipbench.table(res)
    assert "RP2040 time (emulated clock)" in text and "125 MHz" in text
    line = [x for x in text.splitlines() if x.startswith("tag laid")][0]
    assert line.split()[-4:] == ["3", "200.0", "220.0", "220.0"]
    assert "live after a full collection 125.0 to 130.0 KB of 240.0 KB (2 times" in text
