"""Text in the colours of the board's lights, for the terminal plays: whether a stream
takes colour (`colour_mode`), a pixel as the eye sees it (`shown`) and text painted in it
(`paint`). Kahuna's textboard and Halunken's play keep older copies of these lines."""

import os


def colour_mode(stream):
    """None (plain text), "256" or "truecolor" for `stream` (NO_COLOR, FORCE_COLOR)."""
    if os.environ.get("NO_COLOR"):
        return None
    forced = os.environ.get("FORCE_COLOR")
    if not forced and not (hasattr(stream, "isatty") and stream.isatty()):
        return None
    if os.environ.get("COLORTERM", "").lower() in ("truecolor", "24bit"):
        return "truecolor"
    return "256"


def shown(rgb, brightness):
    """A pixel as the eye sees it: the brightness undone, dim lights lifted."""
    return tuple(int(round(255 * min(1.0, v / (255.0 * brightness)) ** 0.5)) for v in rgb)


def paint(mode, text, rgb):
    """`text` in colour `rgb` (bold), or plain without colour or for a dark light."""
    if mode is None or rgb is None or max(rgb) < 30:
        return text
    if mode == "truecolor":
        code = "38;2;%d;%d;%d" % tuple(rgb)
    else:
        code = "38;5;%d" % (16 + 36 * (rgb[0] * 5 // 255) + 6 * (rgb[1] * 5 // 255)
                            + rgb[2] * 5 // 255)
    return "\x1b[1;%sm%s\x1b[0m" % (code, text)
