"""The board definition: islands, connections, LEDs, colours and pins.

`load(path)` reads `board_def/kahuna.json`; `parse(data)` checks an already decoded dict and
returns a `Board`. Anything wrong raises `BoardError`, whose message starts with the field
at fault (`connections[3].b: unknown island 'XYZ'`); nothing is half loaded.

Runs unchanged on CPython and MicroPython, hence a plain class and '%' formatting. Note that
MicroPython dicts do not keep the file's key order, so dicts are always walked in a fixed
order (known keys first, then the others sorted) to give the same error on both.

Islands and connections become small integers, in file order; `Board` holds parallel lists.
"""

import json
import math

# The six input roles the referee understands: the one list of them (the referee, the
# serial link and the scenario language take these names).
ROLES = ("next", "prev", "ok", "back", "done", "discard")
NEW_GAME = "new-game"  # the action of a button held down (inputs.hold), besides its role
MENU = "menu"  # ... and the other: the settings menu (core.menu)
STATUS_LEDS = ("turn_white", "turn_black", "phase", "error")
PALETTE = ("white", "black", "free", "uncontrolled", "error",
           "option_place", "option_remove", "pending")
ENCODER_ACTIONS = ("cw", "ccw", "press", "long_press")
# Used when pins.encoder is set but inputs.encoder is not.
DEFAULT_ENCODER = {"cw": "next", "ccw": "prev", "press": "ok", "long_press": "back"}
GPIO_MAX = 29  # RP2040: GPIO 0..29
I2C_FREQ = 400000


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

def _is_int(v):
    # bool is an int in CPython (not in MicroPython): refuse it on both.
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _at(where, key):
    return where + "." + key if where else key


def _get(d, key, where):
    if key not in d:
        raise BoardError(_at(where, key), "required field missing")
    return d[key]


def _dict(v, field):
    if not isinstance(v, dict):
        raise BoardError(field, "must be an object, got %r" % (v,))
    return v


def _list(v, field):
    if not isinstance(v, list):
        raise BoardError(field, "must be a list, got %r" % (v,))
    return v


def _str(v, field):
    if not isinstance(v, str) or not v:
        raise BoardError(field, "must be a non-empty string, got %r" % (v,))
    return v


def _pos_int(v, field):
    if not _is_int(v) or v <= 0:
        raise BoardError(field, "must be a positive integer, got %r" % (v,))
    return v


def _pos_num(v, field):
    if not _is_num(v) or v <= 0:
        raise BoardError(field, "must be a positive number, got %r" % (v,))
    return v


def _keys(d, known):
    """The keys of `d`: those of `known` first, in that order, then the others sorted."""
    return [k for k in known if k in d] + sorted(k for k in d if k not in known)


def _no_extra(d, known, where):
    for k in sorted(d):
        if k not in known:
            raise BoardError(_at(where, k), "unknown field (expected one of %s)"
                             % ", ".join(known))


def _colour(v, field):
    if (not isinstance(v, list) or len(v) != 3
            or not all(_is_int(c) and 0 <= c <= 255 for c in v)):
        raise BoardError(field, "colour must be 3 integers 0..255, got %r" % (v,))
    return (v[0], v[1], v[2])


def _led(v, field, leds):
    if not _is_int(v) or v < 0:
        raise BoardError(field, "LED index must be an integer >= 0, got %r" % (v,))
    if v in leds:
        raise BoardError(field, "LED index %d used twice (also %s)" % (v, leds[v]))
    leds[v] = field
    return v


def _gpio(v, field, used):
    if not _is_int(v) or not 0 <= v <= GPIO_MAX:
        raise BoardError(field, "GPIO must be an integer 0..%d (RP2040), got %r"
                         % (GPIO_MAX, v))
    if v in used:
        raise BoardError(field, "GPIO %d used twice (also %s)" % (v, used[v]))
    used[v] = field
    return v


def _clockwise(x0, y0, x1, y1):
    """Angle of (x1, y1) seen from (x0, y0): 0 at 12 o'clock, growing clockwise (y down)."""
    a = math.atan2(x1 - x0, y0 - y1)
    if a < 0:
        a += 2 * math.pi
    return a


# ------------------------------------------------------------------ the board

class Board:
    """A validated board. Build it with `parse` or `load`.

    Islands and connections are indices in file order. `conn_ends[k]` is (a, b) with island
    a's name before b's alphabetically; `island_conns[i]` lists the connections of island i
    clockwise from 12 o'clock (by the other end's position), the order a rotary encoder
    sweeps them in.
    """

    def __init__(self):
        self.name = ""
        self.game = ""  # the game the board is for: firmware/games/<game>/
        self.raw = None  # the checked dict, as decoded (for host tools)
        self.frame = None  # (width, height) of the x, y coordinates, or None
        self.board_size_mm = None  # (width, height) of the printed board, or None
        self.islands = []  # island ids, file order
        self.island_index = {}  # id -> index
        self.island_xy = []  # (x, y), y down
        self.island_led = []  # LED index per island
        self.island_conns = []  # per island: its connection indices, clockwise from 12
        self.island_degree = []  # per island: number of connections
        self.connections = []  # connection ids ("ALOA-BARI"), file order
        self.conn_index = {}  # id -> index
        self.conn_ends = []  # (a, b) island indices, a's name first alphabetically
        self.conn_led = []  # LED index per connection
        self.status_leds = {}  # name -> LED index
        self.led_count = 0  # pixels on the strip: LED indices are 0..led_count-1
        self.palette = {}  # name -> (r, g, b), before brightness
        self.brightness = 1.0  # 0 < brightness <= 1
        self.max_current_ma = 0  # current limit of the strip
        self.pins = {}  # as in the file, i2c.freq filled in
        self.inputs = {}  # {"encoder": {action: role} or None, "bringup": role or None}
        self.bringup_pin = None  # GPIO held at power-up for bring-up mode, or None

    def degree(self, i):
        return len(self.island_conns[i])

    def conn_between(self, a, b):
        """The connection joining islands a and b (indices), or None."""
        for k in self.island_conns[a]:
            if self.other_end(k, a) == b:
                return k
        return None

    def other_end(self, k, i):
        """The island at the other end of connection k from island i."""
        a, b = self.conn_ends[k]
        return b if a == i else a


def parse(data, keep_raw=True):
    """Check a decoded board definition and return a `Board`; raise `BoardError`.
    `keep_raw=False` drops the decoded dict (about 9 KB on the Pico) once checked."""
    _dict(data, "board")
    bd = Board()
    if keep_raw:
        bd.raw = data
    bd.name = _str(_get(data, "name", ""), "name")
    bd.game = _str(data.get("game", bd.name), "game")  # the game it is for (its package)
    leds = {}  # LED index -> field using it

    # frame: the coordinate system of the island positions (optional)
    if "frame" in data:
        fr = _dict(data["frame"], "frame")
        bd.frame = (_pos_num(_get(fr, "width", "frame"), "frame.width"),
                    _pos_num(_get(fr, "height", "frame"), "frame.height"))

    if "board_size_mm" in data:
        sz = _dict(data["board_size_mm"], "board_size_mm")
        bd.board_size_mm = (
            _pos_num(_get(sz, "width", "board_size_mm"), "board_size_mm.width"),
            _pos_num(_get(sz, "height", "board_size_mm"), "board_size_mm.height"))

    # islands
    islands = _list(_get(data, "islands", ""), "islands")
    if not islands:
        raise BoardError("islands", "no islands")
    for i, isl in enumerate(islands):
        w = "islands[%d]" % i
        _dict(isl, w)
        iid = _str(_get(isl, "id", w), w + ".id")
        if "-" in iid:
            raise BoardError(w + ".id", "island id must not contain '-', got %r" % (iid,))
        if iid in bd.island_index:
            raise BoardError(w + ".id", "island %s listed twice (also islands[%d])"
                             % (iid, bd.island_index[iid]))
        xy = []
        for key, lim in (("x", 0), ("y", 1)):
            v = _get(isl, key, w)
            if not _is_num(v) or v < 0 or (bd.frame and v > bd.frame[lim]):
                raise BoardError(w + "." + key, "position must be a number %s, got %r"
                                 % ("0..%s" % bd.frame[lim] if bd.frame else ">= 0", v))
            xy.append(v)
        bd.island_index[iid] = i
        bd.islands.append(iid)
        bd.island_xy.append((xy[0], xy[1]))
        bd.island_led.append(_led(_get(isl, "led", w), w + ".led", leds))

    # connections
    conns = _list(_get(data, "connections", ""), "connections")
    touching = [[] for _ in islands]
    for k, c in enumerate(conns):
        w = "connections[%d]" % k
        _dict(c, w)
        a = _str(_get(c, "a", w), w + ".a")
        b = _str(_get(c, "b", w), w + ".b")
        for key, end in (("a", a), ("b", b)):
            if end not in bd.island_index:
                raise BoardError(w + "." + key, "unknown island %r" % (end,))
        if a == b:
            raise BoardError(w, "self-loop %s-%s" % (a, b))
        lo, hi = (a, b) if a < b else (b, a)
        expected = lo + "-" + hi
        cid = _get(c, "id", w)
        if cid != expected:
            raise BoardError(w + ".id", "expected %r for ends %s, %s, got %r"
                             % (expected, a, b, cid))
        if cid in bd.conn_index:
            raise BoardError(w, "%s listed twice (also connections[%d])"
                             % (cid, bd.conn_index[cid]))
        ia, ib = bd.island_index[lo], bd.island_index[hi]
        bd.conn_index[cid] = k
        bd.connections.append(cid)
        bd.conn_ends.append((ia, ib))
        bd.conn_led.append(_led(_get(c, "led", w), w + ".led", leds))
        touching[ia].append(k)
        touching[ib].append(k)

    for i, ks in enumerate(touching):
        if not ks:
            raise BoardError("islands[%d]" % i, "island %s has no connection" % bd.islands[i])
        x0, y0 = bd.island_xy[i]
        order = []
        for k in ks:
            x1, y1 = bd.island_xy[bd.other_end(k, i)]
            order.append((_clockwise(x0, y0, x1, y1), k))
        order.sort()
        bd.island_conns.append([k for _, k in order])
    bd.island_degree = [len(ks) for ks in bd.island_conns]

    # status pixels
    st = _dict(_get(data, "status_leds", ""), "status_leds")
    for name in STATUS_LEDS:
        _get(st, name, "status_leds")
    for name in _keys(st, STATUS_LEDS):
        field = "status_leds." + name
        bd.status_leds[name] = _led(st[name], field, leds)

    # every pixel of the strip is used exactly once: 0..N-1
    bd.led_count = len(leds)
    for n in range(bd.led_count):
        if n not in leds:
            top = max(leds)
            raise BoardError("leds", "missing LED index %d: the %d LED indices must be "
                             "0..%d (highest is %d, at %s)"
                             % (n, bd.led_count, bd.led_count - 1, top, leds[top]))

    # colours
    pal = _dict(_get(data, "palette", ""), "palette")
    for name in PALETTE:
        _get(pal, name, "palette")
    for name in _keys(pal, PALETTE):
        bd.palette[name] = _colour(pal[name], "palette." + name)
    for name in ("white", "black"):
        if bd.palette[name] == (0, 0, 0):
            raise BoardError("palette." + name, "a player's colour must not be off")
    for name in ("free", "uncontrolled"):
        for player in ("white", "black"):
            if bd.palette[name] == bd.palette[player]:
                raise BoardError("palette." + name, "must differ from palette." + player)
    if bd.palette["option_remove"] == bd.palette["option_place"]:
        raise BoardError("palette.option_remove", "must differ from palette.option_place")

    b = _get(data, "brightness", "")
    if not _is_num(b) or not 0 < b <= 1:
        raise BoardError("brightness", "must be a number with 0 < brightness <= 1, got %r"
                         % (b,))
    bd.brightness = float(b)
    bd.max_current_ma = _pos_int(_get(data, "max_current_ma", ""), "max_current_ma")

    _pins(bd, _dict(_get(data, "pins", ""), "pins"))
    _inputs(bd, _dict(data.get("inputs", {}), "inputs"))
    return bd


PIN_KEYS = ("neopixel", "i2c", "pn532_reset", "buttons", "encoder", "buzzer")


def _pins(bd, pins):
    """Check pins; `bd.pins` is a copy with i2c.freq filled in. Unknown keys must be GPIOs."""
    for key in ("neopixel", "i2c", "buttons"):
        _get(pins, key, "pins")
    used = {}  # GPIO -> field
    out = {}
    for key in _keys(pins, PIN_KEYS):
        field = "pins." + key
        v = pins[key]
        if key == "i2c":
            i2c = _dict(v, field)
            _no_extra(i2c, ("id", "sda", "scl", "freq"), field)
            bus = _get(i2c, "id", field)
            if bus not in (0, 1) or not _is_int(bus):
                raise BoardError(field + ".id", "I2C id must be 0 or 1, got %r" % (bus,))
            # RP2040: I2C0 SDA/SCL on GPIO 0/1, 4/5, 8/9...; I2C1 on 2/3, 6/7, 10/11...
            for name, off in (("sda", 0), ("scl", 1)):
                g = _gpio(_get(i2c, name, field), field + "." + name, used)
                if g % 4 != 2 * bus + off:
                    raise BoardError(field + "." + name, "GPIO %d cannot be %s of I2C%d "
                                     "(use %d, %d, %d, ...)" % (g, name.upper(), bus,
                                                                2 * bus + off, 2 * bus + off + 4,
                                                                2 * bus + off + 8))
            out[key] = {"id": bus, "sda": i2c["sda"], "scl": i2c["scl"],
                        "freq": _pos_int(i2c.get("freq", I2C_FREQ), field + ".freq")}
        elif key == "buttons":
            btn = _dict(v, field)
            for role in sorted(btn):
                if role not in ROLES:
                    raise BoardError(field + "." + role, "unknown button role %r (roles: %s)"
                                     % (role, ", ".join(ROLES)))
            for role in _keys(btn, ROLES):
                _gpio(btn[role], field + "." + role, used)
            out[key] = btn
        elif key == "encoder":
            enc = _dict(v, field)
            _no_extra(enc, ("a", "b", "switch"), field)
            _get(enc, "a", field)
            _get(enc, "b", field)
            for name in _keys(enc, ("a", "b", "switch")):
                _gpio(enc[name], field + "." + name, used)
            out[key] = enc
        elif isinstance(v, dict) or isinstance(v, list):
            raise BoardError(field, "unknown pin group (expected a GPIO number)")
        else:
            out[key] = _gpio(v, field, used)
    bd.pins = out


HOLD_ACTIONS = (NEW_GAME, MENU)  # what holding a button may do besides its role


def _inputs(bd, inputs):
    """Map physical inputs to the six roles: buttons by their key, encoder actions by
    `inputs.encoder`. Every role must be reachable; `inputs.bringup` names the role whose
    button, held at power-up, enters bring-up mode."""
    _no_extra(inputs, ("encoder", "bringup", "hold"), "inputs")
    buttons = bd.pins["buttons"]
    enc_pins = bd.pins.get("encoder")
    enc = None
    if "encoder" in inputs:
        if enc_pins is None:
            raise BoardError("inputs.encoder", "no encoder in pins.encoder")
        enc = _dict(inputs["encoder"], "inputs.encoder")
        _no_extra(enc, ENCODER_ACTIONS, "inputs.encoder")
    elif enc_pins is not None:
        enc = DEFAULT_ENCODER
    if enc is not None:
        mapped = {}
        for action in ENCODER_ACTIONS:
            role = enc.get(action)
            if role is None:
                continue
            field = "inputs.encoder." + action
            if role not in ROLES:
                raise BoardError(field, "unknown role %r (roles: %s)" % (role, ", ".join(ROLES)))
            if action in ("press", "long_press") and "switch" not in enc_pins:
                if enc is DEFAULT_ENCODER:
                    continue
                raise BoardError(field, "the encoder has no switch (pins.encoder.switch)")
            mapped[action] = role
        enc = mapped
    reachable = list(buttons) + (list(enc.values()) if enc else [])
    for role in ROLES:
        if role not in reachable:
            raise BoardError("pins.buttons." + role,
                             "no button or encoder action gives the %r role" % (role,))
    bringup = inputs.get("bringup")
    pin = None
    if bringup is not None:
        _str(bringup, "inputs.bringup")
        if bringup in buttons:
            pin = buttons[bringup]
        elif enc and bringup in (enc.get("press"), enc.get("long_press")):
            pin = enc_pins["switch"]
        else:
            raise BoardError("inputs.bringup", "no button or encoder switch gives %r"
                             % (bringup,))
    # A button held down long gives an action of its own: {"done": "new-game"}.
    hold = {}
    if "hold" in inputs:
        for role, action in sorted(_dict(inputs["hold"], "inputs.hold").items()):
            field = "inputs.hold." + str(role)
            if role not in buttons:
                raise BoardError(field, "no button has the %r role" % (role,))
            if action not in HOLD_ACTIONS:
                raise BoardError(field, "unknown action %r (actions: %s)"
                                 % (action, ", ".join(HOLD_ACTIONS)))
            hold[role] = action
    bd.inputs = {"encoder": enc, "bringup": bringup, "hold": hold}
    bd.bringup_pin = pin


def load(path, keep_raw=True):
    """Read and check a board definition file; raise `BoardError` naming the path."""
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise BoardError(None, "cannot read the board definition (%s)" % (e,), path) from None
    except ValueError as e:
        raise BoardError(None, "not valid JSON (%s)" % (e,), path) from None
    try:
        return parse(data, keep_raw)
    except BoardError as e:
        raise BoardError(e.field, e.problem, path) from None
