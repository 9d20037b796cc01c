"""`python -m host_tools.measure.picowheap --uf2 RPI_PICO.uf2`: the heap of a Pico W with
remote play set up, measured on the emulated RP2040 of `make bench-chip` and projected to
the Pico W's smaller heap.

Measured: the stock RPI_PICO image (rp2040py, host_tools/measure/chipemulator.py) runs the
firmware as `make flash` builds it for a Pico W's board definition (Kahuna's, with
`"hardware": {"network": "wifi"}`): the network driver (hw/net.mpy) and the MQTT client
(/lib/mqtt_async.mpy, PyPI micropython-mqtt 0.7b4) beside the game and its AI. The main.py
of the image is this measurement's own: it starts the driver as a Pico W with /net.json
would (its task trying to join the Wi-Fi, again and again: the network is "down"), then
runs the firmware's main.py unchanged. The RPI_PICO image has no `network` and no `socket`:
minimal stand-ins for the measurement only are laid in /lib (a WLAN that never joins, and
a socket module that is never used, since no connection is made). chipbench's session then
plays a solo game against the board's AI (white, level 2) until it made --decisions
decisions and reads the board's own figures: the live heap after a full collection at
each point, and the lowest free heap it saw. With --baseline the same session runs on the
plain Pico's build, for the difference. With --seat the image's main.py is the firmware's
own, with a remote game in the journal and /remote.json: main.py itself skips the AI's
preload and starts the driver and the board's own seat (core.netseat), as on a Pico W
set up for remote play; the live heap after boot is then the seat's figure.

Projected: the RPI_PICO_W image's GC heap is the RPI_PICO one's less the static RAM of its
network stack (the rp2 port gives the GC all the RAM left after .bss: memmap_mp.ld's
__GcHeapStart = __bss_end__). From MicroPython v1.28's sources: lwIP, 26,700 bytes
(ports/rp2/lwip_inc/lwipopts.h says so of its own settings: MEM_SIZE 8000, TCP_MSS 800,
windows of 8 MSS, 32 TCP segments); the CYW43 driver's state, cyw43_ll_t's 536 words
(CYW43_LL_STATE_SIZE_WORDS for SPI) and the rest of cyw43_t with its two netifs, about 2.5
KB; BTstack, compiled into RPI_PICO_W (MICROPY_PY_BLUETOOTH), static pools sized by
extmod/btstack/btstack_config_common.h (one HCI connection, 3 L2CAP channels, 1021-byte ACL
payloads, a 512-byte ATT database): estimated 3 to 6 KB, not computed. Not measured on a
Pico W: neither the image nor the board was at hand.

Takes a few minutes of wall time per run (the emulator is 30-50 times slower than the chip).
"""

import argparse
import json
import os
import sys
import tempfile
import time

from host_tools.maker import flash
from host_tools.measure.chipemulator import ChipError, Emulator, Link, build_image

KIB = 1024.0
LWIP_BYTES = 26700  # ports/rp2/lwip_inc/lwipopts.h (v1.28): "lwip takes 26700 bytes"
CYW43_BYTES = 2560  # cyw43_ll_t: 536 words = 2,144 B; the rest of cyw43_t and 2 netifs
BTSTACK_BYTES = (3 * 1024, 6 * 1024)  # estimated from btstack_config_common.h's pools
GC_LOW_KIB = 64  # firmware/main.py's GC_LOW: it collects after a poll when free is under it

# The measurement's own main.py: the driver first, as a Pico W set up for remote play
# would start it, then the firmware's main.py as it is (kept as /firmware_main.py).
MAIN = '''\
# main.py of the Pico W heap measurement (host_tools/measure/picowheap.py), not the
# firmware's: the network driver and the MQTT client loaded and started as on a Pico W
# with remote play set up, then the firmware's own main.py, unchanged.
import asyncio
import json
import sys

from hw import net


def _say(line):
    sys.stdout.write(json.dumps({"event": "net", "say": line}) + "\\n")


_net = net.start("/net.json", lambda topic, payload, retained: None, _say)
asyncio.create_task(_net.run())
NO_AI
import firmware_main  # noqa: E402,F401
'''
# --no-ai: a remote game's board, whose own player plays no seat: its code is not
# preloaded at boot (main.py calls the game's preload(), made a no-op here).
NO_AI = ("from games.kahuna import game as _game\n"
         "_game.preload = lambda: None  # the board's AI stays unloaded\n")

# Stand-ins for the RPI_PICO image, which has no network stack: for this measurement only.
NETWORK = '''\
# A stand-in for the Pico W's network module, for the heap measurement on the RPI_PICO
# image (host_tools/measure/picowheap.py): a station that never joins.
STA_IF = 0
STAT_CONNECTING = 1


class WLAN:
    def __init__(self, interface=STA_IF):
        self._on = False

    def active(self, value=None):
        if value is None:
            return self._on
        self._on = bool(value)

    def connect(self, ssid=None, key=None):
        pass

    def disconnect(self):
        pass

    def isconnected(self):
        return False

    def status(self):
        return STAT_CONNECTING
'''
SOCKET = '''\
# A stand-in for the Pico W's socket module, for the heap measurement on the RPI_PICO image
# (host_tools/measure/picowheap.py): imported by mqtt_async, never used (no connection).
def getaddrinfo(host, port, *args):
    raise OSError(-2)
'''
NET_JSON = json.dumps({"ssid": "measure", "wifi_password": "-", "host": "192.0.2.1",
                       "port": 1883, "user": "board", "password": "-"})


def image_files(no_ai=False, seat=False):
    """The measurement's own files for the image: [(board path, bytes)]. `seat`: the
    firmware's main.py alone, a remote game in the journal and /remote.json: main.py skips
    the AI's preload and starts the driver and the board's own seat (core.netseat) itself,
    as on a Pico W set up for remote play."""
    with open(os.path.join(flash.FIRMWARE, "main.py"), "rb") as f:
        firmware_main = f.read()
    stand_ins = [("lib/network.py", NETWORK.encode()), ("lib/socket.py", SOCKET.encode()),
                 ("net.json", NET_JSON.encode())]
    if seat:
        return [("main.py", firmware_main)] + stand_ins + remote_game()
    main_py = MAIN.replace("NO_AI\n", NO_AI if no_ai else "")
    return [("main.py", main_py.encode()), ("firmware_main.py", firmware_main)] + stand_ins


SEAT_CODE = "K7QXM2"


def remote_game():
    """A remote game on the board (white here, black at the other table) before its deal:
    the journal's first record and /remote.json (core.netseat.save's form)."""
    from core import gameload
    from core.journal import encode
    from core.remoteproto import hello
    settings = gameload.load("kahuna").check_settings({"remote": "black"})  # the board's
    return [("game.jnl", encode(["new", settings, 1])),
            ("remote.json", json.dumps({"code": SEAT_CODE, "hello": hello(
                "create", "white", {})}).encode())]


def pico_w_board(folder):
    """Kahuna's board definition as a Pico W's, in `folder`."""
    with open(flash.BOARD_DEF) as f:
        raw = json.load(f)
    raw["hardware"]["network"] = "wifi"
    path = os.path.join(folder, "kahuna-picow.json")
    with open(path, "w") as f:
        json.dump(raw, f)
    return path


def session(uf2, work, board_def, extra, decisions, seed, wall, out):
    """One emulator run: boot, the heap after boot, a solo game to `decisions` AI
    decisions, the board's own figures. Returns chipbench's results."""
    from host_tools.measure.chipbench import Session

    os.makedirs(work, exist_ok=True)
    image = os.path.join(work, "fs.img")
    files = build_image(image, os.path.join(work, "build"), board_def, flash.OPT, extra)
    out("picowheap: %d files in %s; starting the emulator" % (len(files), image))
    log = open(os.path.join(work, "emulator.log"), "w")
    emu = link = None
    t0 = time.monotonic()
    try:
        emu = Emulator(uf2, image, log)
        link = Link(emu)
        s = Session(emu, link, out, board_def)
        s.boot(900)
        s.register_cards()
        s.heap("after boot")
        if decisions:
            s.phase("solo", s.solo, decisions, seed, wall)
        s.board_bench()
        res = s.results
        res["files"] = files
        res["net_lines"] = [m.get("say") for m in link.lines if m.get("event") == "net"]
        res["wall_s"] = round(time.monotonic() - t0, 1)
        return res
    finally:
        if link is not None:
            link.close()
        if emu is not None:
            emu.stop()
        log.close()


def live_range(res):
    """(lowest, highest live heap KiB, the GC heap's total KiB, lowest free KiB)."""
    live = res.get("live", [])
    kbs = [x[1] / KIB for x in live]
    total = live[-1][2] / KIB if live else None
    low = res.get("board", {}).get("heap", {}).get("free_low")
    return (min(kbs) if kbs else None, max(kbs) if kbs else None, total,
            low / KIB if isinstance(low, (int, float)) and low >= 0 else None)


def projection(total_kib):
    """(low, high) KiB of a Pico W's GC heap, from the Pico's total."""
    fixed = (LWIP_BYTES + CYW43_BYTES) / KIB
    return (total_kib - fixed - BTSTACK_BYTES[1] / KIB,
            total_kib - fixed - BTSTACK_BYTES[0] / KIB)


def report(wifi, plain):
    lo, hi, total, low = live_range(wifi)
    no_ai = wifi.get("no_ai", False)
    lines = ["Pico W heap (RPI_PICO v1.28 image on rp2040py; the Pico W's build: game, %s"
             "network driver, MQTT client%s)" % (
                 "the AI not loaded, " if no_ai else "AI, ",
                 ", the board's own seat in a remote game" if wifi.get("seat") else "")]
    lines.append("  live heap after a full collection: %.1f to %.1f KiB of %.1f KiB (%d "
                 "points: %s)" % (lo, hi, total, len(wifi["live"]),
                                  ", ".join(x[0] for x in wifi["live"])))
    if low is not None and not no_ai:
        lines.append("  lowest free heap seen by the board: %.1f KiB" % low)
    if plain is not None:
        plo, phi, _, plow = live_range(plain)
        lines.append("  the same session on a plain Pico's build: live %.1f to %.1f KiB%s"
                     % (plo, phi, "; lowest free %.1f KiB" % plow if plow is not None else ""))
        lines.append("  the network driver and the client's cost: %.1f to %.1f KiB of live "
                     "heap" % (lo - plo, hi - phi))
    plo_w, phi_w = projection(total)
    lines.append("  projected GC heap of a Pico W: %.1f to %.1f KiB (%.1f less lwIP %.1f, "
                 "CYW43 %.1f, BTstack %.1f-%.1f)" % (
                     plo_w, phi_w, total, LWIP_BYTES / KIB, CYW43_BYTES / KIB,
                     BTSTACK_BYTES[0] / KIB, BTSTACK_BYTES[1] / KIB))
    lines.append("  projected room above the live heap on a Pico W: %.1f to %.1f KiB "
                 "(on the Pico: %.1f)" % (plo_w - hi, phi_w - hi, total - hi))
    if low is not None and not no_ai:
        burst = GC_LOW_KIB - low
        lines.append("  allocated between two of main.py's looks at the free heap: at least "
                     "%.1f KiB (from %d KiB, where it collects, down to %.1f)"
                     % (burst, GC_LOW_KIB, low))
        lines.append("  projected low point on a Pico W after such a burst: at most %.1f to "
                     "%.1f KiB free" % (plo_w - hi - burst, phi_w - hi - burst))
    lines.append("  the driver said: %s" % ("; ".join(wifi.get("net_lines", [])) or "-"))
    for res in (wifi, plain):
        for problem in (res or {}).get("problems", []):
            lines.append("  not measured in full: %s" % problem)
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="python -m host_tools.measure.picowheap",
        description="The heap of a Pico W with remote play set up: measured on the "
                    "emulated RP2040 (RPI_PICO image) with the game, its AI, the network "
                    "driver and the MQTT client, projected to the Pico W's smaller heap.")
    ap.add_argument("--uf2", required=True, help="MicroPython's RPI_PICO .uf2 (v1.28)")
    ap.add_argument("--decisions", type=int, default=2,
                    help="AI decisions in the solo game (default 2)")
    ap.add_argument("--seed", type=int, default=3, help="the solo game's deck (default 3)")
    ap.add_argument("--wall", type=float, default=1200.0,
                    help="wall-clock seconds the solo game may take (default 1200)")
    ap.add_argument("--baseline", action="store_true",
                    help="the same session on the plain Pico's build too (twice the time)")
    ap.add_argument("--no-ai", action="store_true",
                    help="a remote game's board: the AI's code not preloaded, no solo game "
                         "(the live heap after boot and at the end only)")
    ap.add_argument("--seat", action="store_true",
                    help="a Pico W in a remote game, as main.py boots it: the AI's code not "
                         "preloaded, the driver and the board's own seat started by "
                         "main.py (the live heap after boot and at the end only)")
    ap.add_argument("--keep", help="keep the images, builds and logs in this folder")
    ap.add_argument("--json", action="store_true", help="the figures as one JSON object")
    args = ap.parse_args(argv)
    if not os.path.isfile(args.uf2):
        print("picowheap: %s: no such file" % args.uf2, file=sys.stderr)
        return 2
    work = args.keep or tempfile.mkdtemp(prefix="picowheap-")
    out = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731
    uf2 = os.path.abspath(args.uf2)
    decisions = 0 if args.no_ai or args.seat else args.decisions
    extra = image_files(args.no_ai, args.seat)
    try:
        wifi = session(uf2, os.path.join(work, "picow"), pico_w_board(work), extra,
                       decisions, args.seed, args.wall, out)
        wifi["no_ai"] = args.no_ai or args.seat
        wifi["seat"] = args.seat
        plain = None
        if args.baseline:
            plain = session(uf2, os.path.join(work, "pico"), flash.BOARD_DEF, (),
                            decisions, args.seed, args.wall, out)
    except (ChipError, flash.FlashError) as e:
        print("picowheap: %s" % e, file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"picow": wifi, "pico": plain}))
        return 0
    print(report(wifi, plain))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
