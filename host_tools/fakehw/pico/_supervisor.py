"""The virtual board's "ROM": what the Pico's MicroPython does around the user's code.

Run by host_tools/maker/vboardserver.py as `micropython _supervisor.py`, with
stdin/stdout/stderr on a terminal whose line discipline turns Ctrl-C into SIGINT (ISIG), like
the Pico's USB stack turns it into a KeyboardInterrupt. It mounts the board's file system,
then loops as ports/rp2/main.c does: boot.py, main.py (friendly mode only), the REPL, "MPY:
soft reboot".

The REPLs follow shared/runtime/pyexec.c byte for byte where a host tool reads them:
- raw REPL: Ctrl-A -> "raw REPL; CTRL-B to exit\\r\\n>", code, Ctrl-D -> "OK", output, \\x04,
  exception text, \\x04, ">"; Ctrl-D on an empty line -> "OK\\r\\n" and a soft reboot;
  Ctrl-C clears the line; Ctrl-B -> friendly REPL.
- raw-paste mode: Ctrl-E 'A' Ctrl-A -> "R\\x01", window size (2 bytes LE) and \\x01, then a
  \\x01 per window consumed, \\x04 when the code has been received.
- friendly REPL: banner, ">>> ", echo, continuation lines ("... "), Ctrl-C, Ctrl-D (soft
  reboot), Ctrl-E paste mode, Ctrl-A (raw REPL), Ctrl-B (banner again).

Ctrl-C is a data byte while a REPL reads its input (ISIG off) and a KeyboardInterrupt while
code runs (ISIG on), as mp_hal_set_interrupt_char does on the Pico. The terminal adds the
\\r before each \\n (ONLCR), as the Pico's cooked stdout does, so this file writes "\\n".

One difference the unix port forces: it raises the KeyboardInterrupt inside its SIGINT
handler, wherever the process is (MICROPY_ASYNC_KBD_INTR), where the Pico raises it at the
VM's next check. A Ctrl-C that lands during a garbage collection leaves this process's heap
locked for good, mid-collection. The board then writes the exception's last line (the
frames would need the heap) and ends with an exit code that names the step it had reached
(RESUME_*); the launcher starts the next process there, on the same terminal. What the old
one held is lost as in a soft reboot (the REPL's variables, the modules main.py imported,
its Pin IRQs), and the emulated PN532 starts afresh (see lose_heap).
"""

import gc
import io
import os
import sys
import termios

import _vboard
import micropython

FRIENDLY = 0
RAW = 1
SOFT_RESET = 2
FORCED_EXIT = 0x100

CTRL_A = 1
CTRL_B = 2
CTRL_C = 3
CTRL_D = 4
CTRL_E = 5

PASTE_WINDOW = 128  # MICROPY_REPL_STDIN_BUFFER_MAX (256) / 2, as on the Pico

# Free heap when boot.py/main.py start, as on a freshly booted Pico: 241,600 bytes (236 KiB)
# of its 240.1 KiB GC heap after a gc.collect() at the top of main.py (the stock v1.28
# RPI_PICO image on the emulated RP2040, rp2040py). The Pico's words are 4 bytes and its
# GC blocks 16; on a 64-bit unix port they are 8 and 32, so the same objects take about
# twice the room there: the target doubles.
# The process gets a larger heap because the supervisor and the chip emulators live in it
# too; a ballast block takes up the difference.
PICO_FREE = 241_600
WORD_FACTOR = 2 if sys.maxsize > 2**32 else 1
FREE_AT_BOOT = int(os.getenv("VBOARD_FREE") or PICO_FREE * WORD_FACTOR)

ROOT = os.getenv("VBOARD_ROOT") or os.getcwd()
_stdin = sys.stdin.buffer
_stdout = sys.stdout.buffer
_HERE = __file__


def w(s):
    sys.stdout.write(s)


def wb(b):
    _stdout.write(b)


def getc():
    b = _stdin.read(1)
    if not b:  # the terminal is gone: the launcher has stopped
        raise SystemExit(0)
    return b[0]


# ---------------------------------------------------------------------- Ctrl-C = SIGINT
_ISIG = 0x1  # termios c_lflag bit (Linux)
_attrs = None


def isig(on):
    global _attrs
    try:
        if _attrs is None:
            _attrs = termios.tcgetattr(0)
        _attrs[3] = (_attrs[3] | _ISIG) if on else (_attrs[3] & ~_ISIG)
        termios.tcsetattr(0, termios.TCSANOW, _attrs)
    except OSError:
        pass  # stdin is not a terminal (a test running the supervisor on a pipe)


# ---------------------------------------------------------------------- file system
class BoardFS:
    """The board's flash: a directory of the host, mounted at /.

    A Python VFS over VfsPosix without a root (paths are joined here: VfsPosix's own root
    option garbles os.rename in this build). ilistdir gives 4-tuples with sizes, as the
    Pico's LittleFS does, so `mpremote fs ls` shows them."""

    def __init__(self, root):
        self.root = root.rstrip("/")
        self.p = os.VfsPosix()
        self.cwd = "/"

    def _h(self, path):
        if not path.startswith("/"):
            path = self.cwd.rstrip("/") + "/" + path
        parts = []
        for part in path.split("/"):
            if part in ("", "."):
                continue
            if part == "..":
                if parts:
                    parts.pop()
                continue
            parts.append(part)
        return self.root + "/" + "/".join(parts)

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        pass

    def ilistdir(self, path):
        host = self._h(path)
        for e in self.p.ilistdir(host):
            size = 0
            if e[1] == 0x8000:
                try:
                    size = self.p.stat(host + "/" + e[0])[6]
                except OSError:
                    pass
            yield (e[0], e[1], 0, size)

    def chdir(self, path):
        host = self._h(path)
        if not self.p.stat(host)[0] & 0x4000:
            raise OSError(20)  # ENOTDIR
        self.cwd = host[len(self.root):] or "/"

    def getcwd(self):
        return self.cwd

    def mkdir(self, path):
        self.p.mkdir(self._h(path))

    def remove(self, path):
        self.p.remove(self._h(path))

    def rename(self, old, new):
        self.p.rename(self._h(old), self._h(new))

    def rmdir(self, path):
        self.p.rmdir(self._h(path))

    def stat(self, path):
        return self.p.stat(self._h(path))

    def statvfs(self, path):
        return self.p.statvfs(self._h(path))

    def open(self, path, mode):
        return self.p.open(self._h(path), mode)


# ---------------------------------------------------------------------- a heap a Ctrl-C broke
# Exit codes of a process whose heap a Ctrl-C left locked: where the next one goes on
# (main(), VBOARD_RESUME). host_tools/maker/vboardserver.py RESUME_EXIT_CODES lists them.
RESUME_MAIN = 80  # boot.py was interrupted, after the friendly REPL: main.py next
RESUME_REPL = 81  # main.py was: the friendly REPL, its banner first
RESUME_PROMPT = 82  # a line at the friendly REPL was: ">>> "
RESUME_RAW = 83  # code sent to the raw REPL was: ">"
RESUME_RAW_BOOT = 84  # boot.py was, after the raw REPL's soft reboot: the raw REPL, header first
# Made now: raising one of them later allocates nothing.
_RESUME_EXITS = {n: SystemExit(n) for n in (RESUME_MAIN, RESUME_REPL, RESUME_PROMPT, RESUME_RAW,
                                            RESUME_RAW_BOOT)}


def heap_broken():
    """Whether a Ctrl-C broke the heap in a collection. What the board's code left locked
    with micropython.heap_lock() is unlocked first, as the Pico's REPL does. A broken heap
    still refuses to allocate a block then, with most of its room free; a full one has
    next to nothing free (and the board goes on in this process, as a Pico would)."""
    micropython.heap_lock()
    while micropython.heap_unlock():  # the depth left after this unlock
        pass
    try:
        bytearray(1)
    except MemoryError:
        return gc.mem_free() >= 4096  # (it allocates nothing)
    return False


def lose_heap(e, resume, print_eof):
    """End this process because its heap can no longer allocate (see the module's
    docstring), after what the Pico would print that can be printed without the heap: the
    exception's last line (its frames are left out), and the raw REPL's second end mark."""
    if e is not None:
        print_last_line(e)
    if print_eof:
        w("\x04")
    raise _RESUME_EXITS[resume]


# ---------------------------------------------------------------------- running code
def print_exc(e):
    """The traceback as the Pico prints it: without this file's own frames. The Pico prints
    it without allocating; here a heap too full for the text gets its last line only."""
    try:
        buf = io.StringIO()
        sys.print_exception(e, buf)
        text = "".join(line + "\n" for line in buf.getvalue().split("\n")
                       if line and not (line.startswith("  File ") and _HERE in line))
    except MemoryError:
        print_last_line(e)
        return
    w(text)


def print_last_line(e):
    """A traceback's first and last lines, written without allocating (the message only
    when it is a string)."""
    w("Traceback (most recent call last):\n")
    w(type(e).__name__)
    w(": ")
    if e.args and isinstance(e.args[0], str):
        w(e.args[0])
    w("\n")


def execute(src, filename, mode, g, resume, print_eof=False):
    """parse_compile_execute: compile and run src in globals g. resume: where the next
    process goes on if a Ctrl-C breaks this one's heap (RESUME_*)."""
    ret = 0
    try:
        try:
            if mode == "exec":
                g["__file__"] = filename
            code = compile(src, filename, mode)
            isig(True)
            try:
                exec(code, g)
            finally:
                isig(False)
        except SystemExit:
            if print_eof:
                w("\x04")
            ret = FORCED_EXIT
        except BaseException as e:  # noqa: B036 -- KeyboardInterrupt too, as on the Pico
            if print_eof:
                w("\x04")
            if heap_broken():
                lose_heap(e, resume, print_eof)
            print_exc(e)
        else:
            if print_eof:
                w("\x04")
        if print_eof:
            w("\x04")
    except KeyboardInterrupt:  # a Ctrl-C that landed after the code had finished
        isig(False)
    if heap_broken():  # (and a heap the code left locked is unlocked)
        lose_heap(None, resume, False)
    return ret


def execute_file(name, g, resume):
    try:
        if not os.stat(name)[0] & 0x8000:
            return 0
    except OSError:
        return 0  # no file is the same as an empty file
    try:
        with open(name) as f:
            src = f.read()
    except OSError as e:
        print_exc(e)
        return 0
    return execute(src, name, "exec", g, resume)


# ---------------------------------------------------------------------- raw REPL
def raw_repl(g, header=True):
    if header:
        w("raw REPL; CTRL-B to exit\n")
    _vboard.phase("raw")
    while True:
        w(">")
        line = bytearray()
        while True:
            c = getc()
            if c == CTRL_A:
                if len(line) == 2 and line[0] == CTRL_E:
                    if raw_paste(line[1], g) & FORCED_EXIT:
                        return SOFT_RESET
                    line = bytearray()
                    w(">")
                    continue
                w("raw REPL; CTRL-B to exit\n>")
                line = bytearray()
            elif c == CTRL_B:
                w("\n")
                return FRIENDLY
            elif c == CTRL_C:
                line = bytearray()
            elif c == CTRL_D:
                break
            else:
                line.append(c)
        w("OK")
        if not line:
            w("\n")
            return SOFT_RESET
        if execute(bytes(line), "<stdin>", "exec", g, RESUME_RAW, True) & FORCED_EXIT:
            return SOFT_RESET


def raw_paste(kind, g):
    if kind != ord("A"):
        wb(b"R\x00")  # unsupported command
        return 0
    wb(b"R\x01")
    wb(bytes((PASTE_WINDOW & 0xFF, PASTE_WINDOW >> 8, 0x01)))
    src = bytearray()
    remain = PASTE_WINDOW
    while True:
        c = getc()
        if c == CTRL_D or c == CTRL_C:
            wb(b"\x04")  # end of data acknowledged
            if c == CTRL_C:
                w("\x04")
                print_exc(KeyboardInterrupt())
                w("\x04")
                return 0
            break
        src.append(c)
        remain -= 1
        if remain == 0:
            wb(b"\x01")  # room for another window
            remain = PASTE_WINDOW
    return execute(bytes(src), "<stdin>", "exec", g, RESUME_RAW, True)


# ---------------------------------------------------------------------- pretending
class _Impl:
    """sys.implementation as an older MicroPython would report it."""

    def __init__(self, real, version, mpy):
        self.name = real.name
        self.version = version
        self._mpy = mpy
        for key in ("_machine", "_build", "_thread"):
            if hasattr(real, key):
                setattr(self, key, getattr(real, key))


class _Sys:
    pass


def pretend():
    """VBOARD_PRETEND="1.20.0:6" (version, .mpy version): from then on `import sys` in the
    board's code (a host tool's raw REPL included) sees that version, so tools can be tested
    against an old Pico. The supervisor keeps the real sys for itself."""
    spec = os.getenv("VBOARD_PRETEND")
    if not spec:
        return sys.implementation
    ver, _, mpy = spec.partition(":")
    version = tuple(int(x) for x in ver.split(".")) + ("",)
    real = sys.implementation
    impl = _Impl(real, version, (real._mpy & ~0xFF) | int(mpy))
    fake = _Sys()
    for key in dir(sys):
        if not key.startswith("__"):
            setattr(fake, key, getattr(sys, key))
    fake.implementation = impl
    sys.modules["sys"] = fake
    return impl


IMPL = sys.implementation  # what the board says it is (see pretend)


# ---------------------------------------------------------------------- friendly REPL
def banner():
    v = IMPL.version
    tag = "v%d.%d.%d" % (v[0], v[1], v[2])
    if len(v) > 3 and v[3]:
        tag += "-" + v[3]
    date = sys.version.rsplit(" on ", 1)[-1] if " on " in sys.version else ""
    w("MicroPython %s on %s; Raspberry Pi Pico with RP2040\n" % (tag, date))
    w('Type "help()" for more information.\n')


_last_cr = False
_indenting = True  # auto-indent, on at the start of each statement


def _no_indent():
    global _indenting
    _indenting = False


def auto_indent(buf):
    """readline_auto_indent: the spaces a continuation line starts with."""
    if len(buf) > 1 and buf[-1] == "\n":
        i = buf.rfind("\n", 0, len(buf) - 1) + 1  # start of the previous line
        j = i
        while j < len(buf) and buf[j] == " ":
            j += 1
        if i > 0 and j + 1 == len(buf):  # the previous line is not the first and all spaces
            k = buf.rfind("\n", 0, i - 1) + 1
            if k > 0 and not buf[k:i - 1].strip(" "):
                return ""  # the last two lines are all spaces: no more indent
        n = (j - i) // 4
        if buf[-2] == ":":
            n += 1
        return "    " * n
    return ""


def readline(prompt, buf=""):
    """readline.c: edits the last line of buf; (control char, buf) or (0, buf) on Enter.
    Ctrl-A/B/D/E count only on an empty line, Ctrl-C anywhere."""
    global _last_cr
    w(prompt)
    indent = auto_indent(buf) if _indenting else ""
    w(indent)
    line = bytearray(indent.encode())
    just_indented = bool(indent)
    while True:
        c = getc()
        if c == 10 and _last_cr:  # \r\n from the host is one Enter
            _last_cr = False
            continue
        _last_cr = c == 13
        if just_indented and c in (9, 32):
            # Typed indentation after an auto-indent (a paste): auto-indent is off for
            # this statement; a space also takes back 3 of the 4 spaces added.
            _no_indent()
            just_indented = False
            if c == 32:
                line = line[:-3]
                wb(b"\x08\x08\x08\x1b[K")
            continue
        just_indented = False
        if c == CTRL_C:
            return CTRL_C, buf + line.decode()
        if c in (CTRL_A, CTRL_B, CTRL_D, CTRL_E) and not line:
            return c, buf
        if c in (13, 10):
            w("\n")
            return 0, buf + line.decode()
        if c in (8, 127):
            if line:
                n = 4 if len(line) >= 4 and not line.strip(b" ") else 1
                line = line[:-n]
                wb(b"\x08" * n + b"\x1b[K")  # cursor back, erase to the end of line
        elif c == 27:  # an escape sequence (arrow keys): swallowed, no history here
            c = getc()
            if c in (ord("["), ord("O")):
                c = getc()
                while 0x30 <= c <= 0x3F:
                    c = getc()
        elif c >= 32 or c == 9:
            line.append(c)
            wb(bytes((c,)))


def continue_with_input(text):
    """mp_repl_continue_with_input (py/repl.c): is this input unfinished?"""
    if not text:
        return False
    j = 0
    while j < len(text) and (text[j].isalpha() or text[j].isdigit() or text[j] == "_"):
        j += 1
    compound = text[0] == "@" or text[:j] in _COMPOUND
    paren = quote = 0  # quote: 0 none, 1 ', 2 ", 3 \'\'\', 4 \"\"\"
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "'" or c == '"':
            one, three = (1, 3) if c == "'" else (2, 4)
            if quote in (0, three) and text.startswith(c * 3, i):
                i += 2
                quote = three - quote
            elif quote in (0, one):
                quote = one - quote
        elif c == "\\" and i + 1 < n and text[i + 1] in "'\"\\":
            if quote:
                i += 1
        elif not quote:
            if c in "([{":
                paren += 1
            elif c in ")]}":
                paren -= 1
        i += 1
    if quote >= 3:
        return True
    if paren > 0 and not quote:
        return True
    if text[-1] == "\\":
        return True
    return compound and text[-1] != "\n"


_COMPOUND = ("if", "while", "for", "try", "with", "def", "class", "async")


def friendly_repl(g, first_banner=True):
    if first_banner:
        banner()
    _vboard.phase("repl")
    global _indenting
    while True:
        _indenting = True
        kind, line = readline(">>> ")
        if kind == CTRL_A:
            w("\n")
            return RAW
        if kind == CTRL_B:
            w("\n")
            banner()
            continue
        if kind == CTRL_C:
            w("\n")
            continue
        if kind == CTRL_D:
            w("\n")
            return SOFT_RESET
        mode = "single"
        if kind == CTRL_E:
            w("\npaste mode; Ctrl-C to cancel, Ctrl-D to finish\n=== ")
            buf = bytearray()
            while True:
                c = getc()
                if c == CTRL_C:
                    w("\n")
                    buf = None
                    break
                if c == CTRL_D:
                    w("\n")
                    break
                buf.append(c)
                if c == 13:
                    w("\n=== ")
                else:
                    wb(bytes((c,)))
            if buf is None:
                continue
            line = buf.decode().replace("\r\n", "\n").replace("\r", "\n")
            mode = "exec"
        elif not line:
            continue
        else:
            cancelled = False
            while continue_with_input(line):
                kind, line = readline("... ", line + "\n")
                if kind == CTRL_C:
                    w("\n")
                    cancelled = True
                    break
                if kind == CTRL_D:
                    break
            if cancelled:
                continue
        if execute(line, "<stdin>", mode, g, RESUME_PROMPT) & FORCED_EXIT:
            return SOFT_RESET


# ---------------------------------------------------------------------- the board
def main():
    isig(False)
    _vboard.start()
    # What the Pico has in ROM is imported before the board's file system hides the host's.
    import socket  # noqa: F401  (the Pico's lwIP answers; host_tools/fakehw/pico/socket.py)

    import machine  # noqa: F401
    import neopixel  # noqa: F401

    if os.getenv("VBOARD_PICO_W"):  # a Pico W's ROM has `network` too (a Pico's has none)
        import network  # noqa: F401

    os.mount(BoardFS(ROOT), "/")
    os.chdir("/")
    global IMPL
    IMPL = pretend()
    rom = set(sys.modules)
    # Where the last process stopped if a Ctrl-C broke its heap (RESUME_*), else 0: a boot.
    resume = int(os.getenv("VBOARD_RESUME") or 0)
    mode = RAW if resume in (RESUME_RAW, RESUME_RAW_BOOT) else FRIENDLY
    ballast = []
    while True:
        sys.path[:] = ["", ".frozen", "/lib"]
        g = {"__name__": "__main__"}
        ballast.clear()
        gc.collect()
        extra = gc.mem_free() - FREE_AT_BOOT
        if extra > 64:
            ballast.append(bytearray(extra - 64))  # held until the next soft reboot
        ret = 0
        if not resume and _exists("boot.py"):
            _vboard.phase("boot.py")
            ret = execute_file("boot.py", g, RESUME_MAIN if mode == FRIENDLY else RESUME_RAW_BOOT)
        if (resume in (0, RESUME_MAIN) and not ret & FORCED_EXIT and mode == FRIENDLY
                and _exists("main.py")):
            _vboard.phase("main.py")
            ret = execute_file("main.py", g, RESUME_REPL)
        # Going on after a broken heap at a prompt: the prompt only, not the REPL's header.
        header = resume not in (RESUME_PROMPT, RESUME_RAW)
        resume = 0
        while not ret & FORCED_EXIT:
            r = raw_repl(g, header) if mode == RAW else friendly_repl(g, header)
            header = True
            if r == SOFT_RESET:
                break
            mode = r
        w("MPY: soft reboot\n")
        _vboard.phase("soft reboot")
        for name in list(sys.modules):
            if name not in rom:
                del sys.modules[name]
        _vboard.soft_reset()
        os.chdir("/")


def _exists(name):
    try:
        return bool(os.stat(name)[0] & 0x8000)
    except OSError:
        return False


main()
