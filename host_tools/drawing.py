"""What every game's picture of the simulated board shares (the `picture` host part of
each game, docs/platform.md): a pixel's colour at full level (`full_level`: undoing the
brightness and snapping to the palette), the SVG pieces (elements, text, a pixel's lit
disc with its glow), and the output (`check_output` before any work, `png`, `write_svg`).
"""

import os
import tempfile
from xml.sax.saxutils import escape

FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
MONO = "DejaVu Sans Mono, Menlo, Consolas, monospace"
NAVY = "#1b2c6b"  # names and text
INK = "#14213f"  # outlines of pixels
OFF_GREY = "#34383f"  # a pixel that is off

FORMATS = {".svg": "SVG (.svg)", ".png": "PNG (.png, needs the cairo library)"}


# ------------------------------------------------------------------ colours

def hex_rgb(rgb):
    return "#%02x%02x%02x" % tuple(int(round(c)) for c in rgb)


def luma(rgb):
    return 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]


def known_colours(board, defaults):
    """(name, rgb) of every colour the firmware shows at full level: the board's palette,
    then the view's `defaults` for the colours the board leaves out. Off is not listed."""
    out = list(board.palette.items())
    for name in sorted(defaults):
        if name not in board.palette:
            out.append((name, tuple(defaults[name])))
    return [(n, tuple(c)) for n, c in out if tuple(c) != (0, 0, 0)]


def unscaled(rgb, board):
    """A pixel of the frame with the board's brightness undone (clamped to 255), not
    snapped to the palette: a level the view chose (a pile's count) stays visible."""
    return tuple(int(round(min(255.0, c / board.brightness))) for c in rgb)


def full_level(rgb, board, known):
    """(colour, name) of a pixel of the frame shown at full level: `name` is the palette
    colour it is, "off" for a dark pixel, or None for a colour the palette does not hold
    (then the colour is the pixel divided by the brightness, clamped to 255)."""
    rgb = tuple(int(c) for c in rgb)
    if rgb == (0, 0, 0):
        return (0, 0, 0), "off"
    b = board.brightness
    full = [min(255.0, c / b) for c in rgb]
    # The palette colour itself, give or take the rounding of the brightness scaling.
    tol = 1.5 / b + 1
    best = None
    for name, p in known:
        d = max(abs(f - c) for f, c in zip(full, p))
        if d <= tol and (best is None or d < best[0]):
            best = (d, name, p)
    if best is None and max(rgb) >= 8:
        # A dimmed palette colour: the same hue at a lower level (a pulse, the limiter).
        for name, p in known:
            ps = [c * b for c in p]
            k = sum(v * c for v, c in zip(rgb, ps)) / sum(c * c for c in ps)
            if not 0 < k <= 1.02:
                continue
            d = max(abs(v - k * c) for v, c in zip(rgb, ps))
            if d <= 2.5 and (best is None or d < best[0]):
                best = (d, name, p)
    if best is not None:
        return best[2], best[1]
    return tuple(int(round(c)) for c in full), None


# ------------------------------------------------------------------ SVG pieces

def attrs(**kw):
    parts = []
    for k, v in kw.items():
        if v is None:
            continue
        k = k.rstrip("_").replace("_", "-")
        if isinstance(v, float):
            v = "%.1f" % v
        parts.append('%s="%s"' % (k, escape(str(v), {'"': "&quot;"})))
    return " ".join(parts)


def element(tag, title=None, **kw):
    if title is None:
        return "<%s %s/>" % (tag, attrs(**kw))
    return "<%s %s><title>%s</title></%s>" % (tag, attrs(**kw), escape(title), tag)


def svg_text(x, y, s, size=14, fill=NAVY, weight=None, anchor=None, family=FONT,
             spacing=None, halo=None, id_=None):
    common = dict(x=x, y=y, font_family=family, font_size=size, font_weight=weight,
                  text_anchor=anchor, letter_spacing=spacing)
    out = []
    if halo:
        out.append("<text %s>%s</text>" % (attrs(fill=halo, stroke=halo, stroke_width=5,
                                                 stroke_linejoin="round", opacity=0.85,
                                                 **common), escape(s)))
    out.append("<text %s>%s</text>" % (attrs(id=id_, fill=fill, **common), escape(s)))
    return "".join(out)


class Picture:
    """Collects the SVG of one picture; the gradients it needs go into <defs>."""

    def __init__(self):
        self.defs = []
        self.body = []
        self.glows = set()

    def add(self, s):
        self.body.append(s)

    def glow(self, rgb):
        """The id of a radial gradient that fades `rgb` out: the light around a pixel."""
        gid = "glow-%02x%02x%02x" % tuple(rgb)
        if gid not in self.glows:
            self.glows.add(gid)
            c = hex_rgb(rgb)
            self.defs.append(
                '<radialGradient id="%s"><stop offset="0.35" stop-color="%s" '
                'stop-opacity="0.75"/><stop offset="1" stop-color="%s" stop-opacity="0"/>'
                '</radialGradient>' % (gid, c, c))
        return gid


def draw_pixel_disc(pic, x, y, r, rgb, name, id_, title, lit_apart=False):
    """A pixel: a disc in its colour with a glow when lit; dashed dark grey when off."""
    if name == "off":
        pic.add(element("circle", title, id=id_, cx=x, cy=y, r=r, fill=OFF_GREY,
                        stroke="#9aa3ad", stroke_width=2, stroke_dasharray="4 3",
                        data_colour="off"))
        return
    if lit_apart or max(rgb) >= 110:
        pic.add(element("circle", cx=x, cy=y, r=r * (2.3 if lit_apart else 1.7),
                        fill="url(#%s)" % pic.glow(rgb)))
    pic.add(element("circle", title, id=id_, cx=x, cy=y, r=r, fill=hex_rgb(rgb), stroke=INK,
                    stroke_width=2.5, data_colour=name or hex_rgb(rgb)))
    if max(rgb) >= 60:  # a small highlight: a lamp, not a flat dot
        pic.add(element("ellipse", cx=x - r * 0.32, cy=y - r * 0.38, rx=r * 0.32,
                        ry=r * 0.2, fill="#ffffff", opacity=0.45))


def svg_document(width, height, title, pic):
    """The whole SVG text of `pic` (a Picture), `width` x `height`, with its title."""
    head = ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
            'viewBox="0 0 %d %d">' % (width, height, width, height))
    return "\n".join([head, "<title>%s</title>" % escape(title),
                      "<defs>" + "".join(pic.defs) + "</defs>"] + pic.body + ["</svg>", ""])


# ------------------------------------------------------------------ output

def check_output(out_path):
    """Why a picture cannot be written to `out_path` (a message), or None: a format we
    draw, the PNG library present, a folder we may write in. Asked before any work."""
    ext = os.path.splitext(out_path)[1].lower()
    if ext not in FORMATS:
        return ("cannot render to %r: the formats are %s; end the file name in .svg or .png"
                % (out_path, " and ".join(FORMATS.values())))
    if ext == ".png":
        try:
            import cairosvg  # noqa: F401
        except (ImportError, OSError) as e:  # OSError: cairocffi found no libcairo
            return ("cannot render PNG: the cairo library is missing (%s). Install it "
                    "(Debian/Ubuntu: apt-get install libcairo2; macOS: brew install cairo) "
                    "or render to .svg" % e)
    if os.path.isdir(out_path):
        return "cannot render to %r: it is a folder" % (out_path,)
    folder = os.path.dirname(os.path.abspath(out_path))
    try:  # the folder is made now (it would be anyway), and must take a file
        os.makedirs(folder, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as e:
        return "cannot render to %r: cannot write in %s (%s)" % (out_path, folder,
                                                                 e.strerror or e)
    return None


def png(svg_text_, path, scale=1.0):
    """Write SVG text as a PNG file (its size times `scale`)."""
    try:
        import cairosvg
    except (ImportError, OSError) as e:  # OSError: cairocffi found no libcairo
        raise RuntimeError("PNG output needs the cairosvg package and the cairo library "
                           "(Debian: libcairo2): %s" % e) from e
    cairosvg.svg2png(bytestring=svg_text_.encode("utf-8"), write_to=path, scale=scale)


def write(make_svg, out_path):
    """Write the picture `make_svg()` (SVG text) to `out_path`: SVG for .svg, PNG for .png."""
    problem = check_output(out_path)
    if problem:
        raise ValueError(problem)
    ext = os.path.splitext(out_path)[1].lower()
    folder = os.path.dirname(out_path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    if ext == ".svg":
        with open(out_path, "w", encoding="utf-8") as f:
            f.write(make_svg())
    else:
        png(make_svg(), out_path)
