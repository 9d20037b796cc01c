"""JSON text exactly as CPython writes it, on every runtime: the simulator's reports and
the browser page's answers. MicroPython's json module writes non-ASCII characters as they
are; `dumps` escapes them as CPython does. Any game's report goes through it."""

import json
import sys


def dumps(value):
    """`json.dumps(value)` exactly as CPython writes it (", " and ": ", ASCII only)."""
    text = json.dumps(value)
    if sys.implementation.name != "micropython":
        return text
    return _ascii(text)


def _ascii(text):
    """Non-ASCII characters as \\uXXXX escapes (UTF-16 surrogate pairs above U+FFFF), as
    CPython's ensure_ascii does. They only occur inside strings, where this is their
    escape."""
    for ch in text:
        if ord(ch) > 0x7F:
            break
    else:
        return text
    out = []
    for ch in text:
        n = ord(ch)
        if n <= 0x7F:
            out.append(ch)
        elif n <= 0xFFFF:
            out.append("\\u%04x" % n)
        else:
            n -= 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 + (n >> 10), 0xDC00 + (n & 0x3FF)))
    return "".join(out)
