"""The printed pages of a player's guide: an A4 page in millimetres written top to bottom
(headings, wrapped paragraphs, tables with colour swatches), as SVG; the tunes' notes in
words. A game's guide (its `guidepages` part, host_tools/games/<game>/guidepages.py)
writes its words with it; host_tools/documents/guide.py is the command."""

import textwrap
from xml.sax.saxutils import escape

PAGE_MM = (210, 297)
MARGIN = 14
FONT = "DejaVu Sans"
INK = "#14213f"

NOTES = ("C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B")


def note_name(hz):
    """2093 -> "C7" (equal temperament, A4 = 440 Hz)."""
    import math
    n = round(12 * math.log2(hz / 440.0)) + 57  # semitones from C0
    return "%s%d" % (NOTES[n % 12], n // 12)


def tune_text(notes):
    parts = []
    for hz, ms in notes:
        parts.append("rest %d ms" % ms if hz == 0 else "%s %d ms" % (note_name(hz), ms))
    return ", ".join(parts)


# ------------------------------------------------------------------ drawing

def _n(v):
    return ("%.2f" % v).rstrip("0").rstrip(".")


def _hex(rgb):
    return "#%02x%02x%02x" % tuple(rgb)


class Page:
    """An A4 page in millimetres, written top to bottom."""

    def __init__(self, title, number, pages=2):
        self.out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%dmm" height="%dmm" '
                    'viewBox="0 0 %d %d">' % (PAGE_MM + PAGE_MM),
                    '<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>' % PAGE_MM]
        self.y = MARGIN + 4
        self.text(MARGIN, self.y, title, 6.2, weight="bold")
        self.text(PAGE_MM[0] - MARGIN, self.y, "page %d of %d" % (number, pages), 3, anchor="end")
        self.y += 3
        self.out.append('<line x1="%d" y1="%s" x2="%d" y2="%s" stroke="%s" '
                        'stroke-width="0.4"/>' % (MARGIN, _n(self.y), PAGE_MM[0] - MARGIN,
                                                  _n(self.y), INK))
        self.y += 6

    def text(self, x, y, s, size, anchor="start", weight="normal", fill=INK):
        self.out.append('<text x="%s" y="%s" font-family="%s" font-size="%s" '
                        'text-anchor="%s" font-weight="%s" fill="%s">%s</text>'
                        % (_n(x), _n(y), FONT, _n(size), anchor, weight, fill, escape(s)))

    def heading(self, s):
        self.y += 2
        self.text(MARGIN, self.y, s, 4.4, weight="bold")
        self.y += 5

    def para(self, s, size=3.0, x=MARGIN, width=PAGE_MM[0] - 2 * MARGIN):
        for line in wrap(s, width, size):
            self.text(x, self.y, line, size)
            self.y += size * 1.3
        self.y += 0.8

    def swatch(self, x, y, rgb, size=3.2):
        self.out.append('<rect x="%s" y="%s" width="%s" height="%s" rx="0.6" fill="%s" '
                        'stroke="#777" stroke-width="0.2"/>'
                        % (_n(x), _n(y - size + 0.5), _n(size), _n(size), _hex(rgb)))

    def rows(self, rows, widths, size=2.8, header=None):
        """A table: `rows` of cells (text, or (rgb, text) for a colour swatch first)."""
        x0 = MARGIN
        if header:
            x = x0
            for cell, w in zip(header, widths):
                self.text(x, self.y, cell, size, weight="bold")
                x += w
            self.y += size * 1.4
        for row in rows:
            x = x0
            height = 1
            for cell, w in zip(row, widths):
                rgb = None
                if isinstance(cell, tuple):
                    rgb, cell = cell
                lines = wrap(cell, w - (5 if rgb else 1.5), size)
                if rgb is not None:
                    self.swatch(x, self.y, rgb)
                for i, line in enumerate(lines):
                    self.text(x + (5 if rgb else 0), self.y + i * size * 1.25, line, size)
                height = max(height, len(lines))
                x += w
            self.y += height * size * 1.25 + 0.9

    def chips(self, label, chips, label_w=44, size=2.8):
        """A row: `label`, then (rgb, text) chips, each a swatch and its words, wrapped."""
        self.text(MARGIN, self.y, label, size)
        x = MARGIN + label_w
        right = PAGE_MM[0] - MARGIN
        for rgb, words in chips:
            w = 5 + len(words) * size * 0.55 + 3
            if x + w > right:
                x = MARGIN + label_w
                self.y += size * 1.6
            self.swatch(x, self.y, rgb)
            self.text(x + 4.4, self.y, words, size)
            x += w
        self.y += size * 1.6 + 0.6

    def svg(self):
        if self.y > PAGE_MM[1] - MARGIN:
            raise ValueError("the guide's page runs over by %.0f mm"
                             % (self.y - (PAGE_MM[1] - MARGIN)))
        return "\n".join(self.out + ["</svg>"]) + "\n"


def wrap(text, width_mm, size):
    """Lines of at most `width_mm` for DejaVu Sans at `size` mm (about 0.55 em a char)."""
    chars = max(8, int(width_mm / (size * 0.55)))
    return textwrap.wrap(text, chars) or [""]
