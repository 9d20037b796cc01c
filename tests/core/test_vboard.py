"""The virtual board (host_tools/maker/vboardserver.py; vboard.py is its command line): the
MicroPython unix port behind a pseudo-terminal, answering mpremote and a serial terminal the
way a Pico does, with emulated
chips behind `machine` and `neopixel`. Every test starts its own board and ends it; every
wait is bounded.
"""

import hashlib
import os
import shutil
import stat
import subprocess
import sys
import time

import pytest
import serial

from host_tools.maker.vboardclient import Running, VBoardError
from host_tools.maker.vboardcommands import describe_reply
from mpy_runner import ROOT

MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")
TIMEOUT = 60  # seconds for any one mpremote call

LOOPING_MAIN = (
    "import time\n"
    "print('main runs')\n"
    "while True:\n"
    "    time.sleep_ms(10)\n"
)


@pytest.fixture
def start(tmp_path):
    """start(files={name: text}, args=()) -> a running virtual board on tmp_path/board."""
    boards = []
    logs = []

    def _start(files=None, args=()):
        d = tmp_path / ("board%d" % len(boards) if boards else "board")
        d.mkdir(exist_ok=True)
        for name, text in (files or {}).items():
            (d / name).parent.mkdir(parents=True, exist_ok=True)
            (d / name).write_text(text)
        log = open(tmp_path / ("vboard%d.log" % len(boards)), "w")
        logs.append(log)
        b = Running(str(d), args=args, log=log)
        b.dir = str(d)
        boards.append(b)
        return b

    yield _start
    for b in boards:
        b.stop()
    for log in logs:
        log.close()


def mpremote(port, *args, check=True, timeout=TIMEOUT):
    proc = subprocess.run([MPREMOTE, "connect", port] + list(args), capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    if check and proc.returncode != 0:
        raise AssertionError("mpremote %s failed (%d):\n%s\n%s"
                             % (" ".join(args), proc.returncode, proc.stdout, proc.stderr))
    return proc


class Term:
    """A serial terminal on the board's port, reading with deadlines."""

    def __init__(self, port):
        self.s = serial.Serial(port, 115200, timeout=0.05)
        self.seen = b""

    def write(self, data):
        self.s.write(data)

    def expect(self, pattern, timeout=10):
        """Read until pattern (bytes) has come; returns everything read up to its end."""
        end = time.monotonic() + timeout
        while pattern not in self.seen:
            if time.monotonic() > end:
                raise AssertionError("waited %s s for %r; got %r" % (timeout, pattern, self.seen))
            self.seen += self.s.read(4096)
        i = self.seen.index(pattern) + len(pattern)
        out, self.seen = self.seen[:i], self.seen[i:]
        return out

    def quiet(self, t=0.2):
        """Whatever comes within t seconds."""
        end = time.monotonic() + t
        while time.monotonic() < end:
            self.seen += self.s.read(4096)
        out, self.seen = self.seen, b""
        return out

    def close(self):
        self.s.close()


def run_on_board(port, code):
    """Run code in the board's raw REPL (mpremote exec); its printed output, stripped."""
    return mpremote(port, "exec", code).stdout.strip()


# ---------------------------------------------------------------------- the port
def test_prints_its_port_first_and_stops_cleanly_on_sigterm(start):
    b = start()
    assert b.port.startswith("/dev/pts/")
    st = os.stat(b.port)
    assert stat.S_ISCHR(st.st_mode) and os.major(st.st_rdev) == 136  # what mpremote checks
    status = b.client.wait_for(lambda s: s["phase"] == "repl", what="the REPL")
    pid = status["pid"]
    assert b.stop() == 0
    assert not os.path.exists(b.control)
    for _ in range(50):  # the board process goes with its launcher
        if not os.path.exists("/proc/%d" % pid):
            break
        time.sleep(0.1)
    assert not os.path.exists("/proc/%d" % pid)


def test_mpremote_exec_eval_and_a_failing_exec(start):
    b = start()
    assert run_on_board(b.port, "print(1+1)") == "2"
    assert mpremote(b.port, "eval", "6*7").stdout.strip() == "42"
    bad = mpremote(b.port, "exec", "x = 1\nraise ValueError('boom')", check=False)
    assert bad.returncode == 1
    assert "ValueError: boom" in bad.stdout + bad.stderr
    assert "_supervisor" not in bad.stdout + bad.stderr  # the board's own frames are hidden


def test_mpremote_fs_cp_ls_sha256sum_cat_rm_into_the_board_dir(start, tmp_path):
    b = start()
    data = os.urandom(5000) + b"\n\r\n\x00\x03\x04 end"
    local = tmp_path / "blob.bin"
    local.write_bytes(data)
    mpremote(b.port, "fs", "mkdir", ":sub", "+", "fs", "cp", str(local), ":sub/blob.bin")
    assert (tmp_path / "board" / "sub" / "blob.bin").read_bytes() == data
    ls = mpremote(b.port, "fs", "ls", ":sub").stdout
    assert "%d blob.bin" % len(data) in " ".join(ls.split())  # sizes, as LittleFS lists
    digest = mpremote(b.port, "fs", "sha256sum", ":sub/blob.bin").stdout.split()[-1]
    assert digest == hashlib.sha256(data).hexdigest()
    again = mpremote(b.port, "fs", "cp", str(local), ":sub/blob.bin").stdout
    assert "Up to date" in again  # mpremote compared the hash computed on the board
    back = tmp_path / "back.bin"
    mpremote(b.port, "fs", "cp", ":sub/blob.bin", str(back))
    assert back.read_bytes() == data
    (tmp_path / "board" / "note.txt").write_text("hello\n")
    assert mpremote(b.port, "fs", "cat", ":note.txt").stdout.endswith("hello\n")
    mpremote(b.port, "fs", "rm", ":sub/blob.bin", "+", "fs", "rmdir", ":sub")
    assert not (tmp_path / "board" / "sub").exists()


def test_the_board_sees_only_its_own_dir_at_slash(start):
    b = start(files={"data.txt": "abc"})
    out = run_on_board(b.port, "import os\n"
                               "print(sorted(os.listdir('/')))\n"
                               "os.rename('/data.txt', '/moved.txt')\n"
                               "os.chdir('/')\n"
                               "print(open('moved.txt').read(), os.getcwd())")
    assert out.splitlines() == ["['data.txt']", "abc /"]
    assert os.path.exists(os.path.join(b.dir, "moved.txt"))


# ---------------------------------------------------------------------- REPL and main.py
def test_raw_repl_and_raw_paste_framing_byte_for_byte(start):
    b = start()
    b.client.wait_for(lambda s: s["phase"] == "repl", what="the REPL")
    t = Term(b.port)
    try:
        t.write(b"\r\x03")
        t.quiet()
        t.write(b"\r\x01")
        t.expect(b"raw REPL; CTRL-B to exit\r\n>")
        t.write(b"print(7)\x04")
        assert t.expect(b">") == b"OK7\r\n\x04\x04>"
        t.write(b"1/0\x04")
        out = t.expect(b"\x04>")
        assert out.startswith(b"OK\x04Traceback (most recent call last):\r\n")
        assert out.endswith(b"ZeroDivisionError: divide by zero\r\n\x04>")
        t.write(b"\x05A\x01")  # raw-paste mode
        assert t.expect(b"\x01", timeout=5) == b"R\x01"
        assert t.expect(b"\x01", timeout=5) == b"\x80\x00\x01"  # window 128, one free
        t.write(b"print('pasted')\x04")
        assert t.expect(b">") == b"\x04pasted\r\n\x04\x04>"
        t.write(b"\x05B\x01")  # an unknown raw-paste command
        assert t.expect(b">") == b"R\x00>"
        t.write(b"\x04")  # Ctrl-D on an empty line: a soft reboot, staying in the raw REPL
        assert t.expect(b">") == b"OK\r\nMPY: soft reboot\r\nraw REPL; CTRL-B to exit\r\n>"
        t.write(b"\x02")
        out = t.expect(b">>> ")
        assert out.startswith(b"\r\nMicroPython v1.")
        assert b"; Raspberry Pi Pico with RP2040\r\n" in out
    finally:
        t.close()


def test_soft_reboot_runs_main_py_and_ctrl_c_interrupts_it(start):
    b = start(files={"main.py": LOOPING_MAIN})
    b.client.wait_for(lambda s: s["phase"] == "main.py", what="main.py")
    t = Term(b.port)
    try:
        t.write(b"\x03")
        out = t.expect(b">>> ")
        assert b'File "main.py", line 4, in <module>\r\nKeyboardInterrupt: \r\n' in out
        t.write(b"x = 20\r")
        t.expect(b">>> ")
        t.write(b"x + 1\r")
        assert t.expect(b">>> ").endswith(b"21\r\n>>> ")
        t.write(b"for i in range(2):\r")
        t.expect(b"...     ")  # auto-indent, as the Pico's REPL does
        t.write(b"print(i * 10)\r")
        t.expect(b"...     ")
        t.write(b"\x7f\r")  # backspace takes the indent back; Enter runs the loop
        assert t.expect(b">>> ") == b"\x08\x08\x08\x08\x1b[K\r\n0\r\n10\r\n>>> "
        t.write(b"if 1:\r")  # indentation typed (or pasted) after an auto-indent
        t.write(b"    print('typed')\r\x7f\r")
        assert t.expect(b">>> ").endswith(b"typed\r\n>>> ")
        t.write(b"\x04")  # Ctrl-D: soft reboot, main.py runs again
        t.expect(b"MPY: soft reboot\r\nmain runs\r\n")
        t.write(b"\x03")
        t.expect(b">>> ")
        t.write(b"x\r")  # a soft reboot starts with fresh globals
        assert b"NameError" in t.expect(b">>> ")
    finally:
        t.close()
    st = b.client.status()
    assert st["main_runs"] == 2 and st["boots"] == 1


GC_LOOP = ("import gc\n"
           "junk = [[i] * 8 for i in range(1000)]\n"  # so that collecting is most of the loop
           "print('collecting')\n"
           "while True:\n"
           "    gc.collect()\n")
TRIES = 25  # Ctrl-Cs per REPL at most; in this loop nearly each one breaks the heap (40 of 40)


def test_a_ctrl_c_that_breaks_the_heap_in_a_collection_and_the_board_goes_on(start):
    """The unix port raises a Ctrl-C's KeyboardInterrupt inside a garbage collection too,
    leaving the process's heap locked for good (the Pico never does; see _supervisor.py).
    The board goes on where it was, in a new process, as a Pico goes on after a Ctrl-C:
    the same output's last line, the REPL it was in, no reset, the watchdog still on."""
    b = start(files={"main.py": GC_LOOP})
    t = Term(b.port)
    try:
        t.expect(b"collecting\r\n")  # main.py: the friendly REPL after it, banner first
        t.write(b"\x03")
        out = t.expect(b">>> ")
        assert b"KeyboardInterrupt: \r\nMicroPython v" in out, out
        breaks = b.client.status()["broken_heaps"]
        for _ in range(TRIES):  # a line at the friendly REPL: its prompt, no banner
            # (each round imports again: a broken heap's REPL globals are lost)
            t.write(b"import gc; junk = [[i] * 8 for i in range(1000)]\r")
            t.expect(b">>> ")
            t.write(b"while True: gc.collect()\r")
            t.expect(b"... ")
            t.write(b"\r")
            t.expect(b"\r\n")  # Enter's echo, then the loop runs: a collection's count
            t.expect(b"\r\n")  # printed (single mode)
            t.write(b"\x03")
            out = t.expect(b">>> ")
            assert out.endswith(b"KeyboardInterrupt: \r\n>>> "), out[-300:]
            assert b"MicroPython" not in out, out[-300:]
            if b.client.status()["broken_heaps"] > breaks + 1:
                break
        assert b.client.status()["broken_heaps"] > breaks
        t.write(b"6 * 7\r")
        assert t.expect(b">>> ").endswith(b"42\r\n>>> ")

        breaks = b.client.status()["broken_heaps"]
        t.write(b"\x01")  # the raw REPL: its end marks, its prompt
        t.expect(b"raw REPL; CTRL-B to exit\r\n>")
        code = "import machine\nw = machine.WDT(timeout=8000)\n" + GC_LOOP
        for _ in range(TRIES):
            before = b.client.status()["broken_heaps"]
            t.write(code.encode() + b"\x04")
            t.expect(b"OKcollecting\r\n")
            t.write(b"\x03")
            out = t.expect(b"\x04>")
            assert out.startswith(b"\x04Traceback (most recent call last):\r\n"), out
            assert out.endswith(b"KeyboardInterrupt: \r\n\x04>"), out
            if b.client.status()["broken_heaps"] > before and before > breaks:
                break
        assert b.client.status()["broken_heaps"] > breaks + 1
        # The last Ctrl-C broke a heap: the new process knows the watchdog runs.
        t.write(b"import machine\nprint(machine.mem32[0x40058000] >> 30 & 1, 'w' in globals())\x04")
        assert t.expect(b"\x04>") == b"OK1 False\r\n\x04\x04>"
    finally:
        t.close()
    st = b.client.status()
    assert st["boots"] == 1 and st["resets"] == [] and st["wdt"] is not None
    assert st["main_runs"] == 1
    said = describe_reply({"cmd": "status"}, st)  # the vboard> prompt's `status`
    assert ", %d heap(s) a Ctrl-C broke, " % st["broken_heaps"] in said, said


def test_mpremote_interrupts_main_py_when_its_ctrl_c_breaks_the_heap(start):
    """What `make flash` does to a running firmware, on a main.py whose Ctrl-C breaks the
    heap: mpremote still gets its raw REPL (it failed so once in CI: 'could not enter raw
    repl')."""
    b = start(files={"main.py": GC_LOOP})
    t = Term(b.port)
    try:
        t.expect(b"collecting\r\n")  # main.py, from the power on
    finally:
        t.close()
    for _ in range(TRIES):
        before = b.client.status()["broken_heaps"]
        assert run_on_board(b.port, "print(6 * 7)") == "42"
        if b.client.status()["broken_heaps"] > before and before > 0:
            break
        t = Term(b.port)
        try:
            t.write(b"\x04")  # a soft reboot from the friendly REPL: main.py again
            t.expect(b"collecting\r\n")
        finally:
            t.close()
    st = b.client.status()
    assert st["broken_heaps"] >= 2 and st["boots"] == 1 and st["resets"] == []


def test_a_ctrl_c_that_breaks_the_heap_in_boot_py_after_a_raw_soft_reboot(start):
    """boot.py interrupted after the raw REPL's soft reboot: the next process goes on in the
    raw REPL, header first, and main.py does not run (a Pico's raw REPL skips it)."""
    boot = "import os\nif 'loop' in os.listdir():\n" + "".join(
        "    " + line + "\n" for line in GC_LOOP.splitlines())
    b = start(files={"boot.py": boot, "main.py": "print('main runs')\n"})
    b.client.wait_for(lambda s: s["phase"] == "repl", what="the REPL")
    t = Term(b.port)
    try:
        t.write(b"\x01")
        t.expect(b"raw REPL; CTRL-B to exit\r\n>")
        t.write(b"open('loop', 'w').close()\x04")
        t.expect(b"OK\x04\x04>")
        for _ in range(TRIES):
            before = b.client.status()["broken_heaps"]
            t.write(b"\x04")  # soft reboot: boot.py loops
            t.expect(b"OK\r\nMPY: soft reboot\r\ncollecting\r\n")
            t.write(b"\x03")
            out = t.expect(b"raw REPL; CTRL-B to exit\r\n>")
            assert out.endswith(b"KeyboardInterrupt: \r\nraw REPL; CTRL-B to exit\r\n>"), out
            if b.client.status()["broken_heaps"] > before:
                break
        assert b.client.status()["broken_heaps"] > before
        t.write(b"import os\nos.remove('loop')\nprint(6 * 7)\x04")
        assert t.expect(b"\x04>") == b"OK42\r\n\x04\x04>"
    finally:
        t.close()
    st = b.client.status()
    assert st["main_runs"] == 1 and st["boots"] == 1 and st["phase"] == "raw"


def test_a_full_heap_is_not_a_broken_one(start):
    """The board's code fills the heap: the traceback's last line, and the board stays in
    its process as a Pico does (a soft reboot frees it)."""
    b = start()
    b.client.wait_for(lambda s: s["phase"] == "repl", what="the REPL")
    pid = b.client.status()["pid"]
    t = Term(b.port)
    try:
        t.write(b"\r")
        t.expect(b">>> ")
        t.write(b"a = None\r")
        t.expect(b">>> ")
        t.write(b"while True: a = [a]\r\r")
        out = t.expect(b">>> ")
        assert out.endswith(b"MemoryError: memory allocation failed, allocating 32 bytes\r\n>>> ")
        t.write(b"\x04")
        t.expect(b"MPY: soft reboot\r\n")
        t.expect(b">>> ")
        t.write(b"6 * 7\r")
        assert t.expect(b">>> ").endswith(b"42\r\n>>> ")
    finally:
        t.close()
    st = b.client.status()
    assert st["broken_heaps"] == 0 and st["pid"] == pid and st["boots"] == 1


def test_a_heap_the_code_leaves_locked_is_unlocked_at_the_repl_as_on_a_pico(start):
    """micropython.heap_lock() in the board's code: "If the REPL becomes active with the heap
    locked then it will be forcefully unlocked" (MicroPython's docs). The whole traceback,
    the same process, the REPL's globals kept."""
    b = start()
    b.client.wait_for(lambda s: s["phase"] == "repl", what="the REPL")
    out = mpremote(b.port, "exec", "import micropython\nkept = 1\ne = ValueError('locked twice')\n"
                   "micropython.heap_lock()\nmicropython.heap_lock()\nraise e", check=False)
    assert 'File "<stdin>", line 6, in <module>\nValueError: locked twice' in out.stdout
    assert mpremote(b.port, "resume", "exec", "micropython.heap_lock()").stdout == ""
    out = mpremote(b.port, "resume", "exec", "print(kept, [0] * 3)")
    assert out.stdout.strip() == "1 [0, 0, 0]"
    st = b.client.status()
    assert st["broken_heaps"] == 0 and st["boots"] == 1 and st["resets"] == []


def test_boot_py_runs_at_every_boot_and_main_py_only_from_the_friendly_repl(start):
    b = start(files={"boot.py": "print('boot.py runs')\n", "main.py": "print('main.py runs')\n"})
    b.client.wait_for(lambda s: s["phase"] == "repl", what="the REPL")
    t = Term(b.port)
    try:
        t.write(b"\x04")  # friendly REPL: soft reboot, boot.py then main.py
        out = t.expect(b"main.py runs\r\n")
        assert out.endswith(b"MPY: soft reboot\r\nboot.py runs\r\nmain.py runs\r\n")
        t.expect(b">>> ")
        t.write(b"\x01")  # raw REPL: a soft reboot runs boot.py only
        t.expect(b"raw REPL; CTRL-B to exit\r\n>")
        t.write(b"\x04")
        out = t.expect(b"raw REPL; CTRL-B to exit\r\n>")
        assert out == b"OK\r\nMPY: soft reboot\r\nboot.py runs\r\nraw REPL; CTRL-B to exit\r\n>"
    finally:
        t.close()


def test_mpremote_soft_reset_and_resume_against_a_running_main(start):
    b = start(files={"main.py": LOOPING_MAIN})
    b.client.wait_for(lambda s: s["phase"] == "main.py", what="main.py")
    # resume: no soft reset, but mpremote still has to interrupt main.py to get a REPL
    assert run_on_board(b.port, "print('x' in globals())") == "False"
    assert mpremote(b.port, "resume", "exec", "y = 5").returncode == 0
    assert mpremote(b.port, "resume", "exec", "print(y)").stdout.strip() == "5"
    mpremote(b.port, "soft-reset")  # a raw-REPL soft reset does not start main.py
    assert mpremote(b.port, "resume", "exec", "print('y' in globals())").stdout.strip() == "False"
    assert b.client.status()["main_runs"] == 1


def test_main_py_talks_json_lines_over_the_port(start):
    main = ("import sys, json\n"
            "print(json.dumps({'event': 'boot'}))\n"
            "for line in sys.stdin:\n"
            "    try:\n"
            "        msg = json.loads(line)\n"
            "    except ValueError:\n"
            "        print(json.dumps({'error': 'bad line'}))\n"
            "        continue\n"
            "    print('{\"event\": \"echo\", \"got\": %s}' % json.dumps(msg))\n")
    b = start(files={"main.py": main})
    b.client.wait_for(lambda s: s["phase"] == "main.py", what="main.py")
    t = Term(b.port)
    try:
        t.write(b'{"cmd": "state"}\n')
        assert t.expect(b"\r\n").endswith(b'{"event": "echo", "got": {"cmd": "state"}}\r\n')
        t.write(b"nonsense\n")
        assert t.expect(b"\r\n").endswith(b'{"error": "bad line"}\r\n')
    finally:
        t.close()


def test_mpremote_reset_is_a_hard_reset_and_main_py_runs_again(start):
    b = start(files={"main.py": LOOPING_MAIN})
    b.client.wait_for(lambda s: s["phase"] == "main.py", what="main.py")
    assert run_on_board(b.port, "import machine\nprint(machine.reset_cause())") == "1"
    mpremote(b.port, "reset")
    st = b.client.wait_for(lambda s: s["boots"] == 2 and s["phase"] == "main.py",
                           what="the second boot")
    assert st["resets"] == [{"boot": 1, "why": "machine.reset()"}]
    assert run_on_board(b.port, "import machine\nprint(machine.reset_cause())") == "3"
    b.client.reset()  # the RUN pin, through the control channel: a power-on reset
    b.client.wait_for(lambda s: s["boots"] == 3 and s["phase"] == "main.py", what="boot 3")
    assert run_on_board(b.port, "import machine\nprint(machine.reset_cause())") == "1"


def _free_at_main(b):
    t = Term(b.port)
    try:
        t.write(b"\x03\x04")
        line = t.expect(b"\r\n>>> ").split(b"free ")[1].split(b"\r\n")[0]
    finally:
        t.close()
    return int(line)


FREE_MAIN = {"main.py": "import gc\ngc.collect()\nprint('free', gc.mem_free())\n"}


def test_free_heap_at_main_py_is_what_a_pico_has(start):
    # 241,600 bytes on the Pico (measured on the emulated RP2040); twice that on a 64-bit
    # unix port, where objects take twice the room
    factor = 2 if sys.maxsize > 2**32 else 1
    assert 236_000 * factor <= _free_at_main(start(files=FREE_MAIN)) <= 242_000 * factor
    assert 236_000 <= _free_at_main(start(files=FREE_MAIN, args=["--free", "241600"])) <= 242_000


# ---------------------------------------------------------------------- emulated hardware
def _put_driver(board_dir, *modules):
    """hw/<module>.py for each module, and the one thing of the core a driver imports."""
    for package, names in (("hw", modules), ("core", ("ticks",))):
        folder = os.path.join(board_dir, package)
        os.makedirs(folder, exist_ok=True)
        open(os.path.join(folder, "__init__.py"), "w").close()
        for m in names:
            shutil.copy(os.path.join(ROOT, "firmware", package, m + ".py"), folder)


def test_the_real_pn532_driver_reads_emulated_tags_through_machine_i2c(start):
    b = start()
    _put_driver(b.dir, "const", "pn532")  # the driver and what it imports
    user = b"\x03\x0bHUNA-1 tag\xfe"
    b.client.place_tag("04A224B2C35E80", user=user)
    code = ("import machine\n"
            "from hw.pn532 import PN532\n"
            "i2c = machine.I2C(0, scl=machine.Pin(5), sda=machine.Pin(4), freq=400000)\n"
            "print(i2c.scan())\n"
            "p = PN532(i2c)\n"
            "print(p.setup())\n"
            "print(p.read_uid().hex())\n"
            "print(p.ntag_read(4)[:len(%r)] == %r)\n" % (user, user))
    out = run_on_board(b.port, code).splitlines()
    assert out == ["[36]", "(50, 1, 6, 7)", "04a224b2c35e80", "True"]
    b.client.remove_tag()
    code = ("import machine\nfrom hw.pn532 import PN532\n"
            "p = PN532(machine.I2C(0, scl=5, sda=4))\np.setup()\nprint(p.read_uid(300))")
    assert run_on_board(b.port, code) == "None"
    # What the firmware writes to a tag stays on the tag, across a hard reset too.
    b.client.place_tag("04A224B2C35E80")
    write = ("import machine\nfrom hw.pn532 import PN532\n"
             "p = PN532(machine.I2C(0, scl=5, sda=4))\np.setup()\np.read_uid()\n"
             "p.ntag_write(6, b'KAHU')\n")
    run_on_board(b.port, write)
    mem = b.client.tag_memory("04A224B2C35E80")
    assert mem[24:28] == b"KAHU" and mem[16:16 + len(user)] == user[:8] + b"KAHU" + user[12:]
    mpremote(b.port, "reset")
    b.client.wait_for(lambda s: s["boots"] == 2 and s["phase"] == "repl", what="the reset")
    read = ("import machine\nfrom hw.pn532 import PN532\n"
            "p = PN532(machine.I2C(0, scl=5, sda=4))\np.setup()\np.read_uid()\n"
            "print(p.ntag_read(6)[:4])\n")
    assert run_on_board(b.port, read) == "b'KAHU'"
    # A controller on pins that cannot carry it fails as on the RP2040.
    bad = mpremote(b.port, "exec", "import machine\nmachine.I2C(0, scl=4, sda=5)", check=False)
    assert "ValueError: bad SCL pin" in bad.stdout + bad.stderr
    with pytest.raises(VBoardError):
        b.client.place_tag("not hex")


def test_pins_driven_through_the_control_channel_and_their_irqs(start):
    b = start()
    code = ("from machine import Pin\n"
            "b = Pin(10, Pin.IN, Pin.PULL_UP)\n"
            "n = [0]\n"
            "def falling(pin):\n"
            "    n[0] += 1\n"
            "b.irq(falling, Pin.IRQ_FALLING)\n"
            "print(b.value(), Pin(11, Pin.IN, Pin.PULL_DOWN).value(), Pin(10) is b)\n")
    assert run_on_board(b.port, code) == "1 0 True"
    b.client.set_pin(10, 0)  # the button pressed: GP10 to ground
    b.client.set_pin(11, 1)
    check = "import time\nv = b.value()\ntime.sleep_ms(5)\nprint(v, Pin(11).value(), n[0])"
    assert mpremote(b.port, "resume", "exec", check).stdout.strip() == "0 1 1"
    b.client.set_pin(10, None)  # released: the pull-up wins again
    assert mpremote(b.port, "resume", "exec", check).stdout.strip() == "1 1 1"
    out = run_on_board(b.port, "from machine import Pin\n"
                               "o = Pin('LED', Pin.OUT, value=1)\nPin(7, Pin.OUT).value(0)\n")
    assert out == ""
    outputs = b.client.status()["outputs"]
    assert outputs["25"] == 1 and outputs["7"] == 0


def test_neopixel_frames_and_pwm_reach_the_control_channel(start):
    b = start()
    code = ("import machine, neopixel\n"
            "np = neopixel.NeoPixel(machine.Pin(28), 3)\n"
            "np[0] = (255, 0, 0)\n"
            "np[2] = (1, 2, 3)\n"
            "np.write()\n"
            "pwm = machine.PWM(machine.Pin(22), freq=2000, duty_u16=32768)\n"
            "print(len(np), np[0])\n")
    assert run_on_board(b.port, code) == "3 (255, 0, 0)"
    assert b.client.frame() == bytes([0, 255, 0, 0, 0, 0, 2, 1, 3])  # GRB on the wire
    st = b.client.status()
    assert st["strips"]["28"]["writes"] == 1
    assert st["pwm"]["22"] == {"freq": 2000, "duty_u16": 32768}


PWM_STEPS = (  # one line each; the readings after each, then the output
    "pwm.duty_u16(30000)", "pwm.freq(440)", "pwm.duty_u16(70000)", "pwm.deinit()",
    "pwm.freq(880)", "pwm.duty_u16(-1)", "pwm.duty_u16(0.5)", "pwm.freq(4)",
    "pwm.init(freq=2000, duty_u16=100)", "pwm.deinit()")
PWM_PROGRAM = ("def step(line):\n"
               "    try:\n"
               "        exec(line)\n"
               "        got = 'ok'\n"
               "    except Exception as e:\n"
               "        got = type(e).__name__\n"
               "    print(got, pwm.freq(), pwm.duty_u16())\n"
               + "".join("step(%r)\n" % line for line in PWM_STEPS))


def test_the_boards_pwm_follows_the_simulators_rule_for_duty_and_deinit(start, capsys):
    # The same steps on the virtual board's machine.PWM and on the simulator's VirtualPWM:
    # the same readings, errors and output (the launcher's status), or they disagree.
    b = start()
    got = run_on_board(b.port, "import machine\npwm = machine.PWM(machine.Pin(22))\n"
                               + PWM_PROGRAM)
    from host_tools.fakehw.pins import VirtualPWM

    pwm = VirtualPWM(freq=None, duty_u16=None)
    exec(PWM_PROGRAM, {"pwm": pwm})
    want = capsys.readouterr().out.strip()
    assert got.replace("\r\n", "\n") == want
    assert want.splitlines()[2:4] == ["ok 440 65535", "ok 440 65535"]  # limited; deinit keeps
    out = b.client.status()["pwm"]["22"]
    assert (out["freq"], out["duty_u16"]) == pwm.output() == (2000, 0)


def test_an_unfed_watchdog_resets_the_board_and_a_fed_one_does_not(start):
    b = start()
    fed = ("import machine, time\n"
           "w = machine.WDT(timeout=300)\n"
           "for _ in range(20):\n"
           "    time.sleep_ms(50)\n"
           "    w.feed()\n"
           "print(machine.mem32[0x40058000] >> 30 & 1)\n")
    assert run_on_board(b.port, fed) == "1"
    assert b.client.status()["boots"] == 1
    # mpremote's soft reset does not stop it (the RP2040's does not either): unfed, it bites.
    st = b.client.wait_for(lambda s: s["boots"] == 2, timeout=10, what="the watchdog")
    assert st["resets"][0]["why"] == "watchdog not fed for 300 ms"
    assert run_on_board(b.port, "import machine\nprint(machine.reset_cause(), "
                                "machine.mem32[0x40058000])") == "3 0"


def test_unique_id_and_missing_peripherals(start):
    b = start(args=["--uid", "E66038B7134A5D2F"])
    assert run_on_board(b.port, "import machine\nprint(machine.unique_id().hex())") == \
        "e66038b7134a5d2f"
    bad = mpremote(b.port, "exec", "import machine\nmachine.Timer(period=10)", check=False)
    assert "machine.Timer is not emulated on the virtual board" in bad.stdout + bad.stderr
