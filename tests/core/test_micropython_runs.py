"""The MicroPython unix port runs, set up like the Pico: heap, import path, failures."""

import pytest

from mpy_runner import HEAP_KIB, MicroPythonError


def test_it_is_micropython_with_the_firmware_importable(mpy):
    out = mpy.run_code(
        "import sys\n"
        "import games.kahuna\n"
        "import host_tools\n"
        "print(sys.implementation.name)\n"
        "print(games.kahuna.__file__)\n"
        "print(host_tools.__file__)\n"
    )
    name, kahuna_file, host_tools_file = out.split()
    assert name == "micropython"
    assert kahuna_file.endswith("firmware/games/kahuna/__init__.py")
    assert host_tools_file.endswith("host_tools/__init__.py")


def test_heap_is_the_size_of_the_rp2040s(mpy):
    out = mpy.run_code(
        "import gc\n"
        "import games.kahuna\n"
        "gc.collect()\n"
        "print(gc.mem_free() + gc.mem_alloc())\n"
    )
    total = int(out)
    # The GC keeps a few KiB of the requested heap for its own tables.
    assert 0.95 * HEAP_KIB * 1024 <= total <= HEAP_KIB * 1024


def test_allocating_more_than_the_board_has_is_a_memory_error(mpy):
    out = mpy.run_code(
        "try:\n"
        "    b = bytearray(%d)\n"
        "    print('allocated')\n"
        "except MemoryError:\n"
        "    print('MemoryError')\n" % (HEAP_KIB * 1024)
    )
    assert out.strip() == "MemoryError"


def test_asyncio_is_there_as_on_the_board(mpy):
    out = mpy.run_code(
        "import asyncio\n"
        "async def main():\n"
        "    await asyncio.sleep_ms(1)\n"
        "    return 42\n"
        "print(asyncio.run(main()))\n"
    )
    assert out.strip() == "42"


def test_script_gets_its_arguments(mpy, tmp_path):
    script = tmp_path / "args.py"
    script.write_text("import sys\nprint(' '.join(sys.argv[1:]))\n")
    assert mpy.run_script(str(script), "a", "b c").strip() == "a b c"


def test_a_failure_inside_micropython_fails_the_test_with_its_traceback(mpy):
    with pytest.raises(MicroPythonError) as err:
        mpy.run_code("import dataclasses")
    assert "status 1" in str(err.value)
    assert "ImportError" in str(err.value)
    result = mpy.exec(code="import sys\nprint('bye')\nsys.exit(3)")
    assert (result.returncode, result.stdout) == (3, "bye\n")


def test_a_hung_snippet_times_out(mpy):
    with pytest.raises(MicroPythonError, match="timed out"):
        mpy.run_code("while True:\n    pass\n", timeout=1)
