"""Checking a decoded board definition: the helpers that core/board.py and every game's
layout (games/<game>/layout.py) use, so that each fault is named by its field
(`layout.connections[3].b: unknown island 'XYZ'`) the same way on CPython and MicroPython.

MicroPython dicts do not keep the file's key order, so dicts are always walked in a fixed
order (known keys first, then the others sorted) to give the same error on both.
"""

GPIO_MAX = 29  # RP2040: GPIO 0..29


class BoardError(ValueError):
    """A broken board definition. `field` is the path of the fault (None for the file)."""

    def __init__(self, field, problem, path=None):
        # MicroPython has no ValueError.__init__, hence super().
        parts = [p for p in (path, field) if p]
        parts.append(problem)
        super().__init__(": ".join(parts))
        self.field = field
        self.problem = problem
        self.path = path


# ------------------------------------------------------------------ small checks

def is_int(v):
    # bool is an int in CPython (not in MicroPython): refuse it on both.
    return isinstance(v, int) and not isinstance(v, bool)


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def at(where, key):
    return where + "." + key if where else key


def get(d, key, where):
    if key not in d:
        raise BoardError(at(where, key), "required field missing")
    return d[key]


def as_dict(v, field):
    if not isinstance(v, dict):
        raise BoardError(field, "must be an object, got %r" % (v,))
    return v


def as_list(v, field):
    if not isinstance(v, list):
        raise BoardError(field, "must be a list, got %r" % (v,))
    return v


def as_str(v, field):
    if not isinstance(v, str) or not v:
        raise BoardError(field, "must be a non-empty string, got %r" % (v,))
    return v


def one_of(v, choices, field, meaning=None):
    """`v`, one of `choices`; `meaning` ({choice: what it is}) explains each in the error."""
    if v not in choices or not isinstance(v, str):
        shown = ", ".join('"%s"%s' % (c, " (%s)" % meaning[c] if meaning else "")
                          for c in choices)
        raise BoardError(field, "must be one of %s, got %r" % (shown, v))
    return v


def pos_int(v, field):
    if not is_int(v) or v <= 0:
        raise BoardError(field, "must be a positive integer, got %r" % (v,))
    return v


def pos_num(v, field):
    if not is_num(v) or v <= 0:
        raise BoardError(field, "must be a positive number, got %r" % (v,))
    return v


def keys(d, known):
    """The keys of `d`: those of `known` first, in that order, then the others sorted."""
    return [k for k in known if k in d] + sorted(k for k in d if k not in known)


def no_extra(d, known, where):
    for k in sorted(d):
        if k not in known:
            raise BoardError(at(where, k), "unknown field (expected one of %s)"
                             % ", ".join(known))


def colour(v, field):
    if (not isinstance(v, list) or len(v) != 3
            or not all(is_int(c) and 0 <= c <= 255 for c in v)):
        raise BoardError(field, "colour must be 3 integers 0..255, got %r" % (v,))
    return (v[0], v[1], v[2])


def led(v, field, leds):
    if not is_int(v) or v < 0:
        raise BoardError(field, "LED index must be an integer >= 0, got %r" % (v,))
    if v in leds:
        raise BoardError(field, "LED index %d used twice (also %s)" % (v, leds[v]))
    leds[v] = field
    return v


def gpio(v, field, used):
    if not is_int(v) or not 0 <= v <= GPIO_MAX:
        raise BoardError(field, "GPIO must be an integer 0..%d (RP2040), got %r"
                         % (GPIO_MAX, v))
    if v in used:
        raise BoardError(field, "GPIO %d used twice (also %s)" % (v, used[v]))
    used[v] = field
    return v


# ------------------------------------------------------ places with a position and a light

def position(d, where, frame, kx="x", ky="y"):
    """(x, y) of the object `d` at `where`, within `frame` ((width, height) or None)."""
    out = []
    for key, lim in ((kx, 0), (ky, 1)):
        v = get(d, key, where)
        if not is_num(v) or v < 0 or (frame and v > frame[lim]):
            raise BoardError(where + "." + key, "position must be a number %s, got %r"
                             % ("0..%s" % frame[lim] if frame else ">= 0", v))
        out.append(v)
    return (out[0], out[1])


def size(data, key, where):
    """(width, height) of the object `data[key]`, both positive."""
    w = at(where, key)
    d = as_dict(data[key], w)
    no_extra(d, ("width", "height"), w)
    return (pos_num(get(d, "width", w), w + ".width"),
            pos_num(get(d, "height", w), w + ".height"))


def entries(data, key, count, prefix, where):
    """The list `data[key]` of `count` objects; with a prefix, their ids are prefix1..N."""
    w0 = at(where, key)
    items = as_list(get(data, key, where), w0)
    if len(items) != count:
        raise BoardError(w0, "%d expected, got %d" % (count, len(items)))
    for i, item in enumerate(items):
        w = "%s[%d]" % (w0, i)
        as_dict(item, w)
        if prefix:
            want = "%s%d" % (prefix, i + 1)
            if get(item, "id", w) != want:
                raise BoardError(w + ".id", "expected %r, got %r" % (want, item["id"]))
    return items


def lights(data, key, count, prefix, where, frame, leds, xys, out):
    """The list `data[key]` of `count` lights ({"id"?, "x", "y", "led"}): their positions
    appended to `xys`, their LED indices to `out`."""
    for i, item in enumerate(entries(data, key, count, prefix, where)):
        w = "%s.%s[%d]" % (where, key, i)
        no_extra(item, ("id", "x", "y", "led") if prefix else ("x", "y", "led"), w)
        xys.append(position(item, w, frame))
        out.append(led(get(item, "led", w), w + ".led", leds))


def light(data, key, where, frame, leds):
    """((x, y), LED index) of the one light `data[key]` ({"x", "y", "led"})."""
    w = at(where, key)
    d = as_dict(get(data, key, where), w)
    no_extra(d, ("x", "y", "led"), w)
    return position(d, w, frame), led(get(d, "led", w), w + ".led", leds)
