"""The maker's hardware documentation of every board, generated from its board definition.

    python -m host_tools hardware [--board PATH] [--out DIR] [--check]
    make hardware

For each board definition of board_def/ (or the one --board names), into its folder under
`hardware/` (or --out): board_def/kahuna.json's into `hardware/` itself, another's into
`hardware/<its file's name>/` (`hardware/halunken/`, `hardware/kami/`):

    bom.csv                  bill of materials, quantities from board_def
    README.md                for makers: BOM, wiring, power, LED chain, template, assembly;
                             filled in from README.template.md in the same folder
    wiring.svg, wiring.png   schematic of the Pico and everything on it (schemdraw)
    chain.svg, chain.png     the LED chain drawn over the board: the current order (LED
                             index order) beside a suggested shorter one
    template.svg/.pdf        1:1 drilling template, one page of board_size_mm
    template-a4.pdf          the same template tiled onto A4 pages with overlap marks

`--check` writes into a temporary folder and compares byte for byte with the board's
folder: exit 1 naming the stale files. Everything is deterministic: no dates, fixed number
formats, PDF metadata without a creation date. PNG and PDF go through cairosvg (system
libcairo2); the bytes depend on the cairo and font versions, the same on every machine of
the project. A board definition the documents cannot be made from is one line and exit
status 2, and nothing is written.

Positions: the game's `hwplaces` part (host_tools/games/<game>/hwplaces.py, found by the
board's game through the registry) says where each pixel sits, in the frame's units, what
it is called and its kind (how the pictures draw it); the Pico sits where `hardware.pico_xy`
in board_def says, else at the default in hwfigures; frame units (board_def `frame`, y
down) scale to `board_size_mm`.

The parts: the figures (hwfigures), the model (here), the LED chain's order (chainorder),
the tables (hwtables: wiring, power, BOM), the README (hwreadme), the pictures
(wiringdiagram, chainpicture, drilltemplate), their SVG and its conversion (svgkit).
"""

import argparse
import glob
import json
import os
import shutil
import sys
import tempfile

from core import board as boardmod
from host_tools import gamearg, mpy
from host_tools import games as hostgames
from host_tools.documents.chainorder import dist, path_length, suggest_chain
from host_tools.documents.chainpicture import chain_svg
from host_tools.documents.drilltemplate import template_svg, template_tiles
from host_tools.documents.hwfigures import CLOSE_FACTOR, HOLE_MM, PICO_XY, HardwareError
from host_tools.documents.hwreadme import TEMPLATE_NAME, readme
from host_tools.documents.hwtables import amps, bom_csv, bom_rows, power_budget, wiring_rows
from host_tools.documents.svgkit import pdf_pages, png
from host_tools.documents.wiringdiagram import wiring_svg
from host_tools.paths import BOARD_DEF

DEFAULT_BOARD = BOARD_DEF
BOARDS_DIR = os.path.join(mpy.ROOT, "board_def")
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
        self.kind = kind  # a kind of the game's places (KINDS): "island", "pile", ...
        self.xy = xy


def places(game):
    """The game's `hwplaces` part (host_tools/games/<game>/hwplaces.py), found by its name;
    HardwareError when the game has none."""
    try:
        gamearg.check(game, "hardware")
        return hostgames.part(game, "hwplaces")
    except hostgames.NoGame as e:
        raise HardwareError(str(e)) from None


def electronics(section):
    """A board definition's `hardware` section without what is not wiring: the buttons'
    hold gestures (`inputs.hold`, which the firmware gives each game)."""
    if not isinstance(section, dict) or not isinstance(section.get("inputs"), dict):
        return section
    inputs = {k: v for k, v in section["inputs"].items() if k != "hold"}
    return dict(section, inputs=inputs)


class Hardware:
    """Everything the documents say, worked out once from a Board: the game's places
    (its `hwplaces` part) say where each pixel sits and what it is."""

    def __init__(self, board, board_path):
        if board.board_size_mm is None:
            raise HardwareError("layout.board_size_mm: needed for the template and wire lengths")
        self.board = board
        self.board_path = board_path
        self.places = places(board.game)
        self.kinds = {k.kind: k for k in self.places.KINDS}
        self.size_mm = (float(board.board_size_mm[0]), float(board.board_size_mm[1]))
        if board.frame is not None:
            self.frame = (float(board.frame[0]), float(board.frame[1]))
        else:  # no frame: the positions are taken as millimetres
            self.frame = self.size_mm
        self.scale = (self.size_mm[0] / self.frame[0], self.size_mm[1] / self.frame[1])
        self.hw = (board.raw or {}).get("hardware", {})
        if not isinstance(self.hw, dict):
            raise HardwareError("hardware: must be an object")
        fw, fh = self.frame
        self.pico_xy = self.to_mm(self.xy(self.hw.get("pico_xy"), "hardware.pico_xy",
                                          (PICO_XY[0] * fw, PICO_XY[1] * fh)))
        pixels = [Pixel(led, name, kind, self.to_mm(xy))
                  for led, name, kind, xy in self.places.pixels(self)]
        pixels.sort(key=lambda p: p.led)
        if [p.led for p in pixels] != list(range(board.led_count)):
            raise HardwareError("%s's places do not name each of the %d pixels once"
                                % (board.game, board.led_count))
        for p in pixels:
            if p.kind not in self.kinds:
                raise HardwareError("pixel %d (%s): kind %r is not among %s's KINDS"
                                    % (p.led, p.name, p.kind, board.game))
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
        self.cards = self.places.cards(board)
        self.same_electronics = self._same_electronics()
        self.bom = bom_rows(board, self.power, self.current_mm, self.suggested_mm, self.cards)

    def _same_electronics(self):
        """The other board definitions of board_def/ whose `hardware` section is this
        one's: the same Pico, reader, buttons and wiring drive them (only the strip
        differs). The buttons' hold gestures (`inputs.hold`) are the firmware's, not the
        wiring: they may differ (Kahuna's held back takes back a turn, R12)."""
        mine = electronics((self.board.raw or {}).get("hardware"))
        same = []
        for path in sorted(boards()):
            if _same(path, self.board_path):
                continue
            try:
                with open(path, encoding="utf-8") as f:
                    other = json.load(f)
            except (OSError, ValueError):
                continue
            if isinstance(other, dict) and electronics(other.get("hardware")) == mine:
                same.append(path)
        return same

    def section(self, key):
        """An object of the hardware section the game's places may read (`status_xy`)."""
        v = self.hw.get(key, {})
        if not isinstance(v, dict):
            raise HardwareError("hardware.%s: must be an object" % key)
        return v

    def xy(self, v, field, default):
        """A position [x, y] in frame units from the hardware section, or `default`."""
        if v is None:
            return default
        if (not isinstance(v, list) or len(v) != 2
                or not all(isinstance(c, (int, float)) and not isinstance(c, bool) for c in v)):
            raise HardwareError("%s: must be [x, y] in frame units, got %r" % (field, v))
        return (float(v[0]), float(v[1]))

    def to_mm(self, xy):
        return (xy[0] * self.scale[0], xy[1] * self.scale[1])


# ------------------------------------------------------------------ writing

def boards():
    """Every board definition of board_def/, the default board (Kahuna's) first."""
    paths = sorted(glob.glob(os.path.join(BOARDS_DIR, "*.json")))
    return [DEFAULT_BOARD] + [p for p in paths if not _same(p, DEFAULT_BOARD)]


def _same(a, b):
    return os.path.abspath(a) == os.path.abspath(b)


def folder(board_path, root):
    """Where a board's documents go under `root`: the default board's in `root` itself (as
    they always were), another's in `root/<its file's name>/` (hardware/halunken/)."""
    if _same(board_path, DEFAULT_BOARD):
        return root
    return os.path.join(root, os.path.splitext(os.path.basename(board_path))[0])


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
    title = hw.places.TITLE
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
    files["template.pdf"] = pdf_pages([tsvg], hw.size_mm, "%s board template 1:1" % title)
    pages, page = template_tiles(hw)
    files["template-a4.pdf"] = pdf_pages(pages, page, "%s board template on A4" % title)
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
                                 description="Generate the maker's hardware docs of every "
                                 "board definition (or one): BOM, wiring, power, LED chain, "
                                 "1:1 template.")
    ap.add_argument("--board", help="one board definition (default: every board_def/*.json)")
    ap.add_argument("--out", default=DEFAULT_OUT, help="output folder (default: hardware/): "
                    "board_def/kahuna.json's documents go there, another board's into its "
                    "folder NAME/ there; each folder holds its %s" % TEMPLATE_NAME)
    ap.add_argument("--check", action="store_true", help="generate into a temporary folder "
                    "and fail if the output folders differ")
    args = ap.parse_args(argv)
    todo = [args.board] if args.board is not None else boards()
    try:
        if args.check:
            failed = 0
            for path in todo:
                out = folder(path, args.out)
                bad = stale(path, out)
                if bad:
                    print("hardware: stale in %s: %s (run make hardware)"
                          % (out, ", ".join(bad)), file=sys.stderr)
                    failed = 1
                else:
                    print("hardware: %s is up to date" % out)
            return failed
        for path in todo:  # every board checked before anything is written
            Hardware(boardmod.load(path), path)
            tpl = os.path.join(folder(path, args.out), TEMPLATE_NAME)
            if not os.path.isfile(tpl):
                raise HardwareError("no README template %s: write the board's prose there"
                                    % tpl)
        for path in todo:
            out = folder(path, args.out)
            hw = generate(path, out)
            print("hardware: wrote %s to %s" % (", ".join(OUTPUTS), out))
            print("hardware: %s: %d pixels; chain %.0f mm in LED order, %.0f mm suggested; "
                  "supply %s" % (hw.board.name, len(hw.pixels), hw.current_mm,
                                 hw.suggested_mm, amps(hw.power["recommended_a"])))
    except (boardmod.BoardError, HardwareError) as e:
        print("hardware: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
