"""The maker's hardware documentation, generated from the board definition.

    python -m host_tools hardware [--board PATH] [--out DIR] [--check]
    make hardware

Writes into `hardware/` (or --out):

    bom.csv                  bill of materials, quantities from board_def
    README.md                for makers: BOM, wiring, power, LED chain, template, assembly;
                             filled in from hardware/README.template.md
    wiring.svg, wiring.png   schematic of the Pico and everything on it (schemdraw)
    chain.svg, chain.png     the LED chain drawn over the board: the current order (LED
                             index order) beside a suggested shorter one
    template.svg/.pdf        1:1 drilling template, one page of board_size_mm
    template-a4.pdf          the same template tiled onto A4 pages with overlap marks

`--check` writes into a temporary folder and compares byte for byte with --out: exit 1
naming the stale files. Everything is deterministic: no dates, fixed number formats, PDF
metadata without a creation date. PNG and PDF go through cairosvg (system libcairo2);
the bytes depend on the cairo and font versions, the same on every machine of the project.

Positions: islands at their centres, a connection's pixel at the midpoint of its two
islands, status pixels and the Pico where `hardware` in board_def says, else at the
defaults in hwfigures; frame units (board_def `frame`, y down) scale to `board_size_mm`.

The parts: the figures (hwfigures), the model (here), the LED chain's order (chainorder),
the tables (hwtables: wiring, power, BOM), the README (hwreadme), the pictures
(wiringdiagram, chainpicture, drilltemplate), their SVG and its conversion (svgkit).
"""

import argparse
import os
import shutil
import sys
import tempfile

from core import board as boardmod
from host_tools import mpy
from host_tools.documents.chainorder import dist, path_length, suggest_chain
from host_tools.documents.chainpicture import chain_svg
from host_tools.documents.drilltemplate import template_svg, template_tiles
from host_tools.documents.hwfigures import CLOSE_FACTOR, HOLE_MM, PICO_XY, STATUS_ROW, HardwareError
from host_tools.documents.hwreadme import TEMPLATE_NAME, readme
from host_tools.documents.hwtables import amps, bom_csv, bom_rows, power_budget, wiring_rows
from host_tools.documents.svgkit import pdf_pages, png
from host_tools.documents.wiringdiagram import wiring_svg
from host_tools.paths import BOARD_DEF

DEFAULT_BOARD = BOARD_DEF
DEFAULT_OUT = os.path.join(mpy.ROOT, "hardware")

# Files this generator writes, in the order it writes them.
OUTPUTS = ("bom.csv", "wiring.svg", "wiring.png", "chain.svg", "chain.png", "template.svg",
           "template.pdf", "template-a4.pdf", "README.md")


# ------------------------------------------------------------------ the model

class Pixel:
    """One pixel of the strip: its LED index, name, kind and place on the board (mm)."""

    def __init__(self, led, name, kind, xy):
        self.led = led
        self.name = name
        self.kind = kind  # "island", "connection" or "status"
        self.xy = xy


class Hardware:
    """Everything the documents say, worked out once from a Board."""

    def __init__(self, board, board_path):
        if board.board_size_mm is None:
            raise HardwareError("layout.board_size_mm: needed for the template and wire lengths")
        self.board = board
        self.board_path = board_path
        self.size_mm = (float(board.board_size_mm[0]), float(board.board_size_mm[1]))
        if board.frame is not None:
            self.frame = (float(board.frame[0]), float(board.frame[1]))
        else:  # no frame: the island positions are taken as millimetres
            self.frame = self.size_mm
        self.scale = (self.size_mm[0] / self.frame[0], self.size_mm[1] / self.frame[1])
        hw = (board.raw or {}).get("hardware", {})
        if not isinstance(hw, dict):
            raise HardwareError("hardware: must be an object")
        fw, fh = self.frame
        self.pico_xy = self.to_mm(self._xy(hw.get("pico_xy"), "hardware.pico_xy",
                                           (PICO_XY[0] * fw, PICO_XY[1] * fh)))
        status_xy = hw.get("status_xy", {})
        if not isinstance(status_xy, dict):
            raise HardwareError("hardware.status_xy: must be an object")
        pixels = []
        for i, name in enumerate(board.islands):
            pixels.append(Pixel(board.island_led[i], name, "island",
                                self.to_mm(board.island_xy[i])))
        for k, name in enumerate(board.connections):
            a, b = board.conn_ends[k]
            (xa, ya), (xb, yb) = board.island_xy[a], board.island_xy[b]
            pixels.append(Pixel(board.conn_led[k], name, "connection",
                                self.to_mm(((xa + xb) / 2, (ya + yb) / 2))))
        status = sorted(board.status_leds.items(), key=lambda kv: kv[1])
        for j, (name, led) in enumerate(status):
            default = ((STATUS_ROW[0] + j * STATUS_ROW[2]) * fw, STATUS_ROW[1] * fh)
            xy = self._xy(status_xy.get(name), "hardware.status_xy." + name, default)
            pixels.append(Pixel(led, name, "status", self.to_mm(xy)))
        pixels.sort(key=lambda p: p.led)
        self.pixels = pixels  # by LED index: pixels[i].led == i
        self.current = list(range(len(pixels)))
        self.suggested = suggest_chain(self.pico_xy, [p.xy for p in pixels])
        self.current_mm = path_length(self.pico_xy, [p.xy for p in pixels], self.current)
        self.suggested_mm = path_length(self.pico_xy, [p.xy for p in pixels], self.suggested)
        self.close_pairs = [
            (dist(p.xy, q.xy), p, q) for i, p in enumerate(pixels) for q in pixels[i + 1:]
            if dist(p.xy, q.xy) < CLOSE_FACTOR * HOLE_MM]
        self.close_pairs.sort(key=lambda t: (t[0], t[1].led, t[2].led))
        self.wiring = wiring_rows(board)
        self.power = power_budget(board)
        self.bom = bom_rows(board, self.power, self.current_mm, self.suggested_mm)

    def _xy(self, v, field, default):
        if v is None:
            return default
        if (not isinstance(v, list) or len(v) != 2
                or not all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in v)):
            raise HardwareError("%s: must be [x, y] in frame units, got %r" % (field, v))
        return (float(v[0]), float(v[1]))

    def to_mm(self, xy):
        return (xy[0] * self.scale[0], xy[1] * self.scale[1])


# ------------------------------------------------------------------ writing

def generate(board_path, out_dir, template_dir=None):
    """Write every output into out_dir; README.md from template_dir (default out_dir)."""
    board = boardmod.load(board_path)
    hw = Hardware(board, board_path)
    tpl_path = os.path.join(template_dir or out_dir, TEMPLATE_NAME)
    try:
        with open(tpl_path, encoding="utf-8") as f:
            template_text = f.read()
    except OSError as e:
        raise HardwareError("cannot read the README template (%s)" % e) from None
    files = {}
    files["bom.csv"] = bom_csv(hw).encode("utf-8")
    wiring = wiring_svg(hw)
    files["wiring.svg"] = wiring.encode("utf-8")
    files["wiring.png"] = png(wiring, 1600)
    chain = chain_svg(hw)
    files["chain.svg"] = chain.encode("utf-8")
    files["chain.png"] = png(chain, 1290)
    tsvg = template_svg(hw)
    files["template.svg"] = tsvg.encode("utf-8")
    files["template.pdf"] = pdf_pages([tsvg], hw.size_mm, "Kahuna board template 1:1")
    pages, page = template_tiles(hw)
    files["template-a4.pdf"] = pdf_pages(pages, page, "Kahuna board template on A4")
    files["README.md"] = readme(hw, template_text).encode("utf-8")
    os.makedirs(out_dir, exist_ok=True)
    for name in OUTPUTS:
        with open(os.path.join(out_dir, name), "wb") as f:
            f.write(files[name])
    return hw


def stale(board_path, out_dir):
    """Names of outputs in out_dir that differ from a fresh generation (or are missing)."""
    tmp = tempfile.mkdtemp(prefix="kahuna-hw-")
    try:
        generate(board_path, tmp, template_dir=out_dir)
        bad = []
        for name in OUTPUTS:
            try:
                with open(os.path.join(out_dir, name), "rb") as f:
                    have = f.read()
            except OSError:
                have = None
            with open(os.path.join(tmp, name), "rb") as f:
                if f.read() != have:
                    bad.append(name)
        return bad
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv):
    ap = argparse.ArgumentParser(prog="python -m host_tools hardware",
                                 description="Generate the maker's hardware docs from "
                                 "board_def: BOM, wiring, power, LED chain, 1:1 template.")
    ap.add_argument("--board", default=DEFAULT_BOARD, help="board definition (default: "
                    "board_def/kahuna.json)")
    ap.add_argument("--out", default=DEFAULT_OUT, help="output folder, holding %s "
                    "(default: hardware/)" % TEMPLATE_NAME)
    ap.add_argument("--check", action="store_true", help="generate into a temporary folder "
                    "and fail if --out differs")
    args = ap.parse_args(argv)
    try:
        if args.check:
            bad = stale(args.board, args.out)
            if bad:
                print("hardware: stale in %s: %s (run make hardware)"
                      % (args.out, ", ".join(bad)), file=sys.stderr)
                return 1
            print("hardware: %s is up to date" % args.out)
            return 0
        hw = generate(args.board, args.out)
    except (boardmod.BoardError, HardwareError) as e:
        print("hardware: %s" % e, file=sys.stderr)
        return 2
    print("hardware: wrote %s to %s" % (", ".join(OUTPUTS), args.out))
    print("hardware: %d pixels; chain %.0f mm in LED order, %.0f mm suggested; supply %s"
          % (len(hw.pixels), hw.current_mm, hw.suggested_mm,
             amps(hw.power["recommended_a"])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
