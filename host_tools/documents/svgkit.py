"""Writing the documents' SVG by hand: numbers in a fixed format, the elements, and SVG
turned into PNG or a PDF of pages through cairosvg (system libcairo2), deterministically (a
PDF has no creation date)."""

import io
from xml.sax.saxutils import escape

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


def num(v, places=2):
    """A number for SVG: fixed places, no trailing zeros, never '-0'."""
    s = ("%." + str(places) + "f") % v
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def mm_text(v):
    return "%.1f" % v


def text_width(s, size, weight="normal"):
    """The width of `s` at font `size` in the documents' font (DejaVu Sans), as cairo sets
    it: what wrapping a line needs."""
    import cairocffi

    ctx = cairocffi.Context(cairocffi.ImageSurface(cairocffi.FORMAT_ARGB32, 1, 1))
    ctx.select_font_face("DejaVu Sans", cairocffi.FONT_SLANT_NORMAL,
                         cairocffi.FONT_WEIGHT_BOLD if weight == "bold"
                         else cairocffi.FONT_WEIGHT_NORMAL)
    ctx.set_font_size(size)
    return ctx.text_extents(s)[4]


def svg_open(w, h, unit="", view=None, bg=None):
    vb = view or (0, 0, w, h)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%s%s" height="%s%s" '
           'viewBox="%s">' % (num(w), unit, num(h), unit, " ".join(num(v) for v in vb))]
    if bg:
        out.append('<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>'
                   % (num(vb[0]), num(vb[1]), num(vb[2]), num(vb[3]), bg))
    return out


def svg_text(x, y, s, size, anchor="start", weight="normal", fill="#000", extra=""):
    return ('<text x="%s" y="%s" font-family="%s" font-size="%s" text-anchor="%s" '
            'font-weight="%s" fill="%s"%s>%s</text>'
            % (num(x), num(y), FONT, num(size), anchor, weight, fill, extra, escape(s)))


def svg_line(x1, y1, x2, y2, stroke="#000", width=0.3, extra=""):
    """A line, with fill="none": cairosvg fills a line with SVG's default black, and a
    PDF viewer (Chrome's pdfium) draws that empty fill as a black hairline where a clip
    cuts the line (the A4 pages' edges)."""
    return ('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s" fill="none"%s/>'
            % (num(x1), num(y1), num(x2), num(y2), stroke, num(width), extra))


def svg_circle(x, y, r, stroke="#000", width=0.3, fill="none", extra=""):
    return ('<circle cx="%s" cy="%s" r="%s" stroke="%s" stroke-width="%s" fill="%s"%s/>'
            % (num(x), num(y), num(r), stroke, num(width), fill, extra))


def svg_rect(x, y, w, h, stroke="#000", width=0.3, fill="none", extra=""):
    return ('<rect x="%s" y="%s" width="%s" height="%s" stroke="%s" stroke-width="%s" '
            'fill="%s"%s/>' % (num(x), num(y), num(w), num(h), stroke, num(width), fill, extra))


def pdf_pages(svgs, page_mm, title):
    """SVG pages of one size as one PDF, through cairosvg, with no creation date."""
    import cairocffi
    from cairosvg.parser import Tree
    from cairosvg.surface import PDFSurface

    out = io.BytesIO()
    target = cairocffi.PDFSurface(out, page_mm[0] * 72 / 25.4, page_mm[1] * 72 / 25.4)
    target.set_metadata(cairocffi.PDF_METADATA_CREATE_DATE, "")
    target.set_metadata(cairocffi.PDF_METADATA_TITLE, title)

    class OnTarget(PDFSurface):
        def _create_surface(self, width, height):
            return target, width, height

    for svg in svgs:
        OnTarget(Tree(bytestring=svg.encode("utf-8")), None, 96)
        target.show_page()
    target.finish()
    return out.getvalue()


def png(svg, width):
    import cairosvg
    return cairosvg.svg2png(bytestring=svg.encode("utf-8") if isinstance(svg, str) else svg,
                            output_width=width)
