"""`python -m host_tools chipbench --uf2 RPI_PICO.uf2` (`make bench-chip UF2=...`): the
firmware measured on an emulated RP2040 running the stock MicroPython rp2 port.

1. Builds the firmware as `make flash` does (host_tools/maker/flash.py `build()`: every
   .py compiled with mpy-cross -march=armv6m -O3, main.py as source, the board definition) and
   lays those files into a littlefs image of the Pico's file system (its layout as
   rp2040py gives it for MicroPython on a Pico: 352 blocks of 4 KB at 0xA0000).
2. Starts the emulator (`python -m rp2040py micropython`, PyPI rp2040py, pinned in
   pyproject.toml) with the UF2 the user names, that image and the board spec
   host_tools/fakehw/chiprig.py: the project's PN532 model on I2C0, a WS2812 decoder on
   the LED pin, the buttons; the board's USB serial link on a pty, and a control socket
   for the tag, the buttons, the LED frames and the emulated clock.
3. Waits for the firmware's boot line on the link, then a short scripted session:
   - idle: the frames latched by the WS2812 decoder while nothing happens;
   - the link: a command line sent on the pty to its reply line (`selftest`, then
     `state`), from its bytes reaching the emulated USB host to its reply line's end, as
     the rig logs them on the emulated clock (chiprig's `link`; also bracketed by the
     bench's two reads of the clock, which add this process's own time);
   - a game started over the link, then tags laid on the emulated reader (the control
     socket) for cards of the seat on turn: from the tag laid to the first frame the
     decoder latched with that card's pixel lit, then `back` and the tag lifted;
   - a solo game, the board's cards handled as it asks and the other seats played
     simply, until the board's player made a few decisions: by default from its `think`
     step to its next step, as the link shows it (a part that counts and times them
     otherwise gives `decisions(session)` and `seen(session)`);
   The game's part of it (which cards, which pixel, the solo game, the table's labels
   TAP_LABEL and SEEN_LABEL, the wait BETWEEN_TAPS_MS) is the game's `chipplay` part
   (host_tools/games/<game>/chipplay.py; Kahuna's: a two-player deal, then a solo game
   where the board plays white, its cards handled by solohands.py; Halunken's: a movement
   card's acknowledgement, then a solo game where the board plays p2 and p3).
   - the board's own benchmark (`{"cmd": "bench"}`, core.loopstats): its loop, its AI
     decisions, its heap after a full collection and the lowest free heap it saw.

Every time is RP2040 time: the emulated clock (rp2040py: a Cortex-M0+ at 125 MHz, cycle
counted, no flash cache misses), not this PC's; the emulator runs 30 to 50 times slower
than the chip, so the run takes minutes. Measurements come over the link, not the REPL:
the firmware arms the watchdog.

Steps 1 and 2 (the image, the emulator, the link) are host_tools/measure/chipemulator.py;
this module is the session, its figures and table, and the command line.
"""

import argparse
import json
import os
import sys
import tempfile
import time

from host_tools import gamearg
from host_tools.maker import flash
from host_tools.measure.chipemulator import ChipError, Emulator, Link, build_image

DOWNLOAD = "https://micropython.org/download/RPI_PICO/"
NEED_UF2 = ("chipbench: name the stock MicroPython firmware for the Pico: make bench-chip "
            "UF2=path/to/RPI_PICO.uf2 (the .uf2 from %s)" % DOWNLOAD)


# ---------------------------------------------------------------------- figures
def pct(values, p):
    vals = sorted(values)
    if not vals:
        return None
    return vals[min(len(vals) - 1, max(0, (len(vals) * p + 99) // 100 - 1))]


def summary(values):
    """{"n", "p50", "p95", "min", "max"} of a list (ms)."""
    if not values:
        return {"n": 0}
    return {"n": len(values), "p50": pct(values, 50), "p95": pct(values, 95),
            "min": min(values), "max": max(values)}


def ms(ns):
    return round(ns / 1e6, 2)


class Session:
    """The scripted session on the emulated board; `play` is the game's `chipplay` part
    (host_tools/games/<game>/chipplay.py): its cards, the pixel each lights, the game the
    taps are laid in and its solo game."""

    def __init__(self, emu, link, out, board_def=None):
        from host_tools import gamearg
        from host_tools.games import part
        from host_tools.maker.vboarddef import sticker_uid
        from host_tools.paths import BOARD_DEF

        self.emu = emu
        self.link = link
        self.out = out
        path = board_def or BOARD_DEF
        with open(path) as f:
            board = json.load(f)
        self.part = part(gamearg.board_game(path), "chipplay")
        self.play = self.part.ChipPlay(board)
        self.names = self.play.names
        self.uid = dict((c, sticker_uid(c)) for c in self.names)
        self.results = {"labels": {"taps": getattr(self.part, "TAP_LABEL", TAP_LABEL),
                                   "seen": getattr(self.part, "SEEN_LABEL", SEEN_LABEL)}}

    def say(self, text):
        self.out("chipbench: " + text)

    def wait_emulated(self, ms_):
        """Let `ms_` of RP2040 time pass (reading the link meanwhile)."""
        end = self.emu.ns() + ms_ * 1e6
        while self.emu.ns() < end:
            self.link.read()

    def boot(self, wall):
        t0 = time.monotonic()
        msg = self.link.wait(lambda m: m.get("event") == "boot", wall, "its boot line")
        self.results["boot"] = {"ns": self.emu.ns(), "wall_s": round(time.monotonic() - t0, 1),
                                "line": msg}
        self.say("booted at %.2f s RP2040 time (%.0f s wall): %s" % (
            self.results["boot"]["ns"] / 1e9, time.monotonic() - t0, json.dumps(msg)))
        if msg.get("pn532") is None:
            raise ChipError("the firmware found no PN532 on the emulated I2C bus: %s" % msg)

    def idle(self, idle_ms):
        t0 = self.emu.ns()
        self.wait_emulated(idle_ms)
        hist = self.emu.ctl({"since": t0})["hist"]
        times = [h[0] for h in hist]
        gaps = [ms(b - a) for a, b in zip(times, times[1:])]
        self.results["idle_frames"] = summary(gaps)
        self.say("idle: %d frames in %d ms" % (len(times), idle_ms))

    def round_trip(self, cmd, event):
        """`{"cmd": cmd}` sent, its reply (the `event`) awaited: the RP2040 ms from its
        bytes reaching the emulated USB host to the end of the reply's line, both as the
        rig saw them (chiprig's `link`), and the same bracketed by the bench's own reads
        of the emulated clock (which add the time this process takes to write, read and
        ask, in RP2040 time: a whole idle jump when the core sleeps)."""
        t0 = self.emu.ns()
        self.link.send({"cmd": cmd})
        self.link.wait(lambda m: m.get("event") == event, 120, cmd)
        bracket = ms(self.emu.ns() - t0)
        return link_rtt(self.emu.ctl({"link": t0}).get("link", []), event), bracket

    def round_trips(self, n):
        for cmd, event in (("selftest", "selftest"), ("state", "state")):
            rtts, brackets = [], []
            for _ in range(n if cmd == "selftest" else max(2, n // 2)):
                self.link.settle(0.3)
                rtt, bracket = self.round_trip(cmd, event)
                if rtt is not None:
                    rtts.append(rtt)
                brackets.append(bracket)
            self.results["rtt_" + cmd] = summary(rtts)
            self.results["rtt_%s_bracket" % cmd] = summary(brackets)
            self.say("link %s round trips (ms): %s (bracketed by the bench's clock reads: %s)"
                     % (cmd, rtts, brackets))

    def register_cards(self):
        self.link.send({"cmd": "cards", "set": dict((self.uid[c], c) for c in self.names)})
        self.link.wait(lambda m: m.get("event") == "cards", 300, "the card registry")
        self.link.settle()

    def frame_lit(self, led, before, since):
        """The first frame latched after `since` whose pixel `led` differs from `before`."""
        for at, px in self.emu.ctl({"since": since})["hist"]:
            if px[led] != before:
                return at
        return None

    def taps(self, n):
        """Tag laid -> first frame with its card's pixel lit, in the game's tap game."""
        cards = self.play.tap_game(self.link)
        samples = []
        for i in range(n):
            card = cards[i % len(cards)]
            led = self.play.led(card)
            before = self.emu.ctl({"leds": 1})["last"][led]
            n = self.link.events
            laid = self.emu.ctl({"tag": self.uid[card]})["ns"]
            lit = None
            end = laid + 3e9
            while (lit is None or self.link.events <= n) and self.emu.ns() < end:
                self.link.read()
                if lit is None:
                    lit = self.frame_lit(led, before, laid)
            self.emu.ctl({"tag": None})
            self.link.settle()
            if lit is None:
                raise ChipError("no frame lit %s's pixel within 3 s of RP2040 time after "
                                "its tag was laid" % card)
            samples.append(ms(lit - laid))
            self.link.command({"cmd": "press", "button": "back"})  # withdraw it
            # the scanner sees the card gone (3 empty polls), the part's animation ends
            self.wait_emulated(getattr(self.part, "BETWEEN_TAPS_MS", 200))
        self.results["tag_to_frame"] = summary(samples)
        self.say("%s (ms): %s" % (self.results["labels"]["taps"], samples))

    # -- a solo game, for the AI's decisions

    def solo(self, decisions, seed, wall):
        self.play.solo(self, decisions, seed, wall)

    def thinking(self, say, wall):
        """The board's player is thinking (its words on the link are `say` while it does):
        `selftest` round trips meanwhile, then its decision awaited, the frames latched
        meanwhile, and the live heap after it."""
        link = self.link
        still = lambda: link.say == say  # noqa: E731
        self.while_thinking(still)
        if still():
            link.wait(lambda m: m.get("event") == "ai" and m.get("say") != say, wall,
                      "the AI's decision")
        end = link.ai_steps[-1][0] if link.ai_steps else self.emu.ns()
        self.results.setdefault("think_windows", []).append((self.think_from, end))
        self.frames_thinking()
        link.sync()
        self.say("AI decision %d made" % self.decisions())
        self.heap("after AI decision %d" % self.decisions())

    def while_thinking(self, still, n=3):
        """While the AI thinks: `selftest` round trips (the link), and the frames from
        now to its decision (`frames_thinking`)."""
        self.think_from = self.emu.ns()
        rtts = self.results.setdefault("rtt_thinking", [])
        brackets = self.results.setdefault("rtt_thinking_bracket", [])
        for _ in range(n):
            if not still():
                break
            rtt, bracket = self.round_trip("selftest", "selftest")
            if still() and rtt is not None:  # its decision came during the command: not
                rtts.append(rtt)  # counted
                brackets.append(bracket)

    def frames_thinking(self):
        hist = self.emu.ctl({"since": self.think_from})["hist"]
        times = [h[0] for h in hist]
        self.results.setdefault("think_gaps", []).extend(
            ms(b - a) for a, b in zip(times, times[1:]))

    def decisions(self):
        """The board's player's decisions so far: the part's count, else its `think`
        steps on the link that ended."""
        count = getattr(self.play, "decisions", None)
        if count is not None:
            return count(self)
        steps = self.link.ai_steps
        return sum(1 for (_, a, _), (_, b, _) in zip(steps, steps[1:]) if a == "think")

    def phase(self, name, fn, *args):
        """Run one part of the session; a part that goes wrong is reported, and the
        figures of the others still are."""
        try:
            fn(*args)
        except (ChipError, ValueError, KeyError) + self.part.ERRORS as e:
            if not self.emu.alive():
                raise
            self.results.setdefault("problems", []).append("%s: %s" % (name, e))
            self.say("%s stopped: %s" % (name, e))

    def heap(self, when):
        """The live heap after a full collection, now (the board's bench answer)."""
        self.link.settle(0.3)
        self.link.send({"cmd": "bench"})
        rep = self.link.wait(lambda m: m.get("event") == "bench", 300, "its bench answer")
        heap = rep.get("heap", {})
        if "live" in heap:
            self.results.setdefault("live", []).append((when, heap["live"], heap["total"]))
        return rep

    def seen(self):
        """The decisions' times as the link shows them (ms): the part's, else from each
        `think` step to the next step."""
        seen = getattr(self.play, "seen", None)
        if seen is not None:
            return seen(self)
        steps = self.link.ai_steps
        return [ms(t1 - t0) for (t0, step, _), (t1, _, _) in zip(steps, steps[1:])
                if step == "think"]

    def remote(self):
        """A remote game's deal (the game's part: `remote_game`), then the live heap;
        the part's `remote_round` if it has one (a round played on), and the heap again."""
        self.play.remote_game(self.link)
        self.heap("remote game")
        more = getattr(self.play, "remote_round", None)
        if more is not None:
            more(self.link)
            self.heap("remote game, after a round")

    def board_bench(self):
        times = self.seen()
        if times:
            self.results["ai_seen"] = summary(times)
            self.say("%s (ms): %s" % (self.results["labels"]["seen"], times))
        self.results["board"] = self.heap("at the end")


def link_rtt(log, event):
    """The RP2040 ms from the first bytes the host sent (chiprig's `{"link": NS}` log, from
    just before the command) to the end of the first board line after them that names
    `event`; None if the log has no such pair."""
    start = None
    for entry in log:
        if start is None:
            if entry[1] == "host":
                start = entry[0]
        elif entry[1] == "board" and '"%s"' % event in entry[2]:
            return ms(entry[0] - start)
    return None


# ---------------------------------------------------------------------- the table
TAP_LABEL = "tag laid -> first frame with its pixel changed"  # a part may say better
SEEN_LABEL = "AI decision, think step -> next step (link)"


def _fmt(s, key):
    v = s.get(key)
    return "-" if v is None else "%.1f" % v


def table(res):
    labels = res.get("labels", {})
    rows = [(labels.get("taps", TAP_LABEL), res.get("tag_to_frame", {})),
            ("frame to frame at idle", res.get("idle_frames", {})),
            ("link: selftest command -> reply", res.get("rtt_selftest", {})),
            ("link: state command -> reply (the whole state)", res.get("rtt_state", {})),
            (labels.get("seen", SEEN_LABEL), res.get("ai_seen", {})),
            ("frame to frame while the AI thinks", summary(res.get("think_gaps", []))),
            ("link: selftest command -> reply, the AI thinking",
             summary(res.get("rtt_thinking", []))),
            ("  the same, by the bench's clock reads",
             summary(res.get("rtt_thinking_bracket", [])))]
    board = res.get("board", {})
    ai = board.get("ai", {})
    rows.append(("AI decision, first slice -> decision (board)", ai.get("elapsed_ms", {})))
    rows.append(("AI decision, time in its slices (board)", ai.get("compute_ms", {})))
    rows.append(("AI decision, slices (board, count)", ai.get("slices", {})))
    lines = ["RP2040 time (emulated clock), ms", "%-50s %4s %9s %9s %9s" % (
        "measure", "n", "p50", "p95", "max"), "-" * 85]
    for label, s in rows:
        lines.append("%-50s %4d %9s %9s %9s" % (label, s.get("n", 0), _fmt(s, "p50"),
                                                _fmt(s, "p95"), _fmt(s, "max")))
    elapsed = ai.get("elapsed_ms", {}).get("total")
    compute = ai.get("compute_ms", {}).get("total")
    if elapsed and compute is not None:
        lines.append("AI decisions: %.0f%% of their elapsed time in their slices (%.0f of %.0f "
                     "ms; issue 20 asks 70%%)" % (100.0 * compute / elapsed, compute, elapsed))
        gc_ms = ai.get("gc_ms", {}).get("total")
        outside = ai.get("outside_ms", {}).get("total")
        if gc_ms is not None and outside is not None:
            ticks = elapsed - compute - gc_ms - outside
            lines.append("  the rest: %.0f%% in collections and looks at the heap, %.0f%% in the "
                         "other tasks' ticks, %.0f%% in none of them"
                         % (100.0 * gc_ms / elapsed, 100.0 * ticks / elapsed,
                            100.0 * outside / elapsed))
    heap = board.get("heap", {})
    live = res.get("live", [])
    if live:
        kbs = [x[1] / 1024 for x in live]
        lines.append("heap: live after a full collection %.1f to %.1f KB of %.1f KB (%d "
                     "times: %s); a full collection took %s ms" % (
                         min(kbs), max(kbs), live[-1][2] / 1024, len(live),
                         ", ".join(x[0] for x in live), heap.get("collect_ms", "-")))
    boot = res.get("boot", {})
    for problem in res.get("problems", []):
        lines.append("not measured in full: %s" % problem)
    lines.append("")
    lines.append(
        "Method: the stock MicroPython firmware (%s) on rp2040py's emulated RP2040 "
        "(Cortex-M0+ at 125 MHz, cycle counted, no flash cache misses: real silicon is as "
        "fast or a little slower), the firmware built as `make flash` builds it and laid "
        "into the Pico's littlefs; the PN532 model (host_tools/fakehw/pn532_chip.py) on "
        "I2C0 says \"busy\" once before each response; frames are the WS2812 decoder's "
        "latched frames; link times run from the command's bytes reaching the emulated USB "
        "host to the end of its reply line in an IN packet, as the rig logs them (\"by "
        "the bench's clock reads\": the emulated clock read before the command went to "
        "the pty and after its reply line was read, which adds this process's own time); "
        "the USB host %s. Booted at %.2f s "
        "RP2040 time." % (
            res.get("uf2", "?"),
            "is rp2040py's own (it answers every armed OUT buffer at once: an interrupt "
            "every ~100 us, --stock-usb)" if res.get("usb_host") == "rp2040py's own" else
            "sends an OUT packet only with bytes for the board, as a real host does",
            boot.get("ns", 0) / 1e9))
    return "\n".join(lines)


# ---------------------------------------------------------------------- command line
def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="python -m host_tools chipbench",
        description="Measure the firmware on an emulated RP2040 running the stock "
                    "MicroPython rp2 port (rp2040py): tap to frame, frame cadence, link "
                    "round trip, AI decisions, heap, in RP2040 time. Takes minutes.")
    ap.add_argument("--uf2", help="MicroPython for the Pico (RPI_PICO .uf2, from %s)"
                    % DOWNLOAD)
    ap.add_argument("--taps", type=int, default=5, help="tags laid (default 5)")
    ap.add_argument("--round-trips", type=int, default=8, help="link commands (default 8)")
    ap.add_argument("--idle-ms", type=int, default=600, help="RP2040 ms watched at idle")
    ap.add_argument("--decisions", type=int, default=3,
                    help="AI decisions to wait for in the solo game (default 3; 0: none)")
    ap.add_argument("--remote", action="store_true",
                    help="also a remote game's deal (the board's remote seat, docs/remote.md)"
                         " and the live heap after it (Halunken: after round 1 too)")
    ap.add_argument("--seed", type=int, default=3, help="the solo game's deck (default 3)")
    ap.add_argument("--wall", type=float, default=1500.0,
                    help="wall-clock seconds the solo game may take (default 1500)")
    ap.add_argument("--keep", help="keep the image, build, emulator log and link log (link.log: "
                         "every line sent and read) in this folder")
    ap.add_argument("--json", action="store_true", help="the figures as one JSON object")
    ap.add_argument("--profile", action="store_true",
                    help="sample the emulated core after each execution batch and say where "
                         "the RP2040's time went while the AI thought (idle, interrupts, "
                         "the firmware's marks, hot PC ranges: host_tools/measure/"
                         "chipprofile.py); the samples are kept as profile.txt")
    ap.add_argument("--stock-usb", action="store_true",
                    help="rp2040py's own USB host, which answers every armed OUT buffer at "
                         "once, with zero bytes if need be: an interrupt every ~100 us that a "
                         "real host does not make (the figures before issue 20's third stop "
                         "were measured so); by default the host sends OUT packets only when "
                         "it has bytes for the board")
    ap.add_argument("--line-numbers", action="store_true",
                    help="the firmware built with its line numbers (make flash's option)")
    gamearg.add(ap)
    ap.add_argument("--board", metavar="PATH",
                    help="board definition (default: the game's, board_def/kahuna.json)")
    args = ap.parse_args(argv)
    chosen = gamearg.resolve("chipbench", args.game, args.board, "chipbench")
    if chosen is None:
        return 2
    board_def = chosen[1]
    if not args.uf2:
        print(NEED_UF2, file=sys.stderr)
        return 2
    if not os.path.isfile(args.uf2):
        print("chipbench: %s: no such file; name MicroPython's RPI_PICO .uf2 (from %s)"
              % (args.uf2, DOWNLOAD), file=sys.stderr)
        return 2
    with open(args.uf2, "rb") as f:
        head = f.read(8)
    if head[:8] != b"UF2\nWQ]\x9e":
        print("chipbench: %s is not a UF2 file" % args.uf2, file=sys.stderr)
        return 2
    import rp2040py  # noqa: F401  (missing: __main__ names the venv)

    work = args.keep or tempfile.mkdtemp(prefix="chipbench-")
    os.makedirs(work, exist_ok=True)
    uf2 = os.path.abspath(args.uf2)  # a path, never a version tag: nothing is downloaded
    out = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731
    image = os.path.join(work, "fs.img")
    files = build_image(image, os.path.join(work, "build"), board_def,
                        flash.OPT_LINES if args.line_numbers else flash.OPT)
    out("chipbench: %d files in %s; starting the emulator" % (len(files), image))
    log = open(os.path.join(work, "emulator.log"), "w")
    profile = os.path.join(work, "profile.txt") if args.profile else None
    emu = link = None
    t0 = time.monotonic()
    try:
        emu = Emulator(uf2, image, log, profile=profile, quiet_usb=not args.stock_usb)
        link_log = open(os.path.join(work, "link.log"), "w")
        link = Link(emu, link_log)
        s = Session(emu, link, out, board_def)
        s.results["uf2"] = os.path.basename(uf2)
        s.results["usb_host"] = "rp2040py's own" if args.stock_usb else "quiet"
        s.boot(600)
        s.idle(args.idle_ms)
        s.round_trips(args.round_trips)
        s.register_cards()
        s.heap("after boot")
        s.phase("taps", s.taps, args.taps)
        if args.remote:
            s.phase("remote", s.remote)
        if args.decisions:
            s.phase("solo", s.solo, args.decisions, args.seed, args.wall)
        s.board_bench()
        res = s.results
        res["wall_s"] = round(time.monotonic() - t0, 1)
        res["end_ns"] = emu.ns()
    except ChipError as e:
        print("chipbench: %s" % e, file=sys.stderr)
        return 1
    finally:
        if link is not None:
            link.close()
            link_log.close()
        if emu is not None:
            emu.stop()
        log.close()
    if profile:
        from host_tools.measure import chipprofile

        res["profile"] = chipprofile.summarize(chipprofile.read(profile),
                                               res.get("think_windows", []))
        out("chipbench: the core's samples are in %s" % profile)
    if args.json:
        print(json.dumps(res))
        return 0
    from host_tools.measure import boardbench
    print(table(res))
    print("Run: %.0f s wall for %.1f s of RP2040 time." % (res["wall_s"], res["end_ns"] / 1e9))
    print()
    print("The board's own benchmark at the end ({\"cmd\": \"bench\"}):")
    print(boardbench.table(res["board"]))
    if profile:
        print()
        print("\n".join(chipprofile.table(res["profile"])))
    return 0
