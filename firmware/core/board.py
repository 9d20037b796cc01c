"""The board definition: the game it is for, its hardware (pins, strip, reader, buttons,
power), the game's layout (its places and their pixels) and the palette.

    {"name": "...", "game": "kahuna",
     "hardware": {"pins": {...}, "inputs": {...}, "brightness": 0.25,
                  "max_current_ma": 450, "network": "wifi" (a Pico W; default "none"), ...},
     "layout": {...},      the game's places: games/<game>/layout.py checks them
     "palette": {"white": [255, 255, 255], ...}}

`load(path)` reads a file; `parse(data)` checks an already decoded dict and returns a
`Board` (the game's kind of it). Anything wrong raises `BoardError`, whose message starts
with the field at fault (`hardware.pins.i2c.sda: ...`, `layout.connections[3].b: unknown
island 'XYZ'`); nothing is half loaded. The platform checks the hardware, the palette's
colours and that every pixel of the strip is used once; the game named by `game` checks its
layout and the colours it needs. Runs unchanged on CPython and MicroPython.
"""

import json

from core.boardtype import Board  # noqa: F401  (the checked board's type)
from core.checks import (  # noqa: F401  (BoardError: the board definition's error)
    BoardError,
    as_dict,
    as_str,
    colour,
    get,
    gpio,
    is_int,
    is_num,
    keys,
    no_extra,
    one_of,
    pos_int,
)

# The six input roles the controllers understand: the one list of them (the referee, the
# serial link and the scenario language take these names).
ROLES = ("next", "prev", "ok", "back", "done", "discard")
NEW_GAME = "new-game"  # the action of a button held down (inputs.hold), besides its role
MENU = "menu"  # ... and the other: the settings menu (core.menu)
TAKEBACK = "takeback"  # ... and whole turns taken back (a game's controller's take_back)
ENCODER_ACTIONS = ("cw", "ccw", "press", "long_press")
# Used when pins.encoder is set but inputs.encoder is not.
DEFAULT_ENCODER = {"cw": "next", "ccw": "prev", "press": "ok", "long_press": "back"}
I2C_FREQ = 400000
TOP_KEYS = ("name", "game", "hardware", "layout", "palette")
# The hardware section; pico_xy and status_xy place the Pico and the status pixels on the
# maker's drawings (host_tools/documents/hardware.py); network says which Pico it is.
HARDWARE_KEYS = ("pins", "inputs", "brightness", "max_current_ma", "pico_xy", "status_xy",
                 "network")
# hardware.network: "none" (the default) for a Pico, "wifi" for a Pico W (its CYW43 radio):
# only then does `make flash` install the MQTT client and the network driver (hw/net.py)
# that remote play over Wi-Fi needs (docs/remote.md, "A Pico W at the table").
NETWORKS = ("none", "wifi")
NETWORK_MEANS = {"none": "a Pico", "wifi": "a Pico W"}


def game_layout(name):
    """The layout module of game `name` (games/<name>/layout.py), found by its name: the
    platform imports no game by itself."""
    try:
        return __import__("games.%s.layout" % name, None, None, ("layout",))
    except ImportError:
        raise BoardError("game", "this firmware has no game %r (firmware/games/%s/)"
                         % (name, name)) from None


def parse(data, keep_raw=True):
    """Check a decoded board definition and return a `Board`; raise `BoardError`.
    `keep_raw=False` drops the decoded dict (about 9 KB on the Pico) once checked."""
    as_dict(data, "board")
    no_extra(data, TOP_KEYS, "")
    name = as_str(get(data, "name", ""), "name")
    game = as_str(get(data, "game", ""), "game")
    if not game.isalpha() or not game.islower():
        raise BoardError("game", "a game's name is lower-case letters, got %r" % (game,))
    layout = game_layout(game)
    bd = layout.new_board()
    bd.name = name
    bd.game = game
    if keep_raw:
        bd.raw = data
    leds = {}  # LED index -> field using it
    layout.parse(as_dict(get(data, "layout", ""), "layout"), bd, leds)

    # every pixel of the strip is used exactly once: 0..N-1
    bd.led_count = len(leds)
    for n in range(bd.led_count):
        if n not in leds:
            top = max(leds)
            raise BoardError("leds", "missing LED index %d: the %d LED indices must be "
                             "0..%d (highest is %d, at %s)"
                             % (n, bd.led_count, bd.led_count - 1, top, leds[top]))

    pal = as_dict(get(data, "palette", ""), "palette")
    for key in keys(pal, ()):
        bd.palette[key] = colour(pal[key], "palette." + key)
    layout.check_palette(bd)

    hw = as_dict(get(data, "hardware", ""), "hardware")
    no_extra(hw, HARDWARE_KEYS, "hardware")
    b = get(hw, "brightness", "hardware")
    if not is_num(b) or not 0 < b <= 1:
        raise BoardError("hardware.brightness", "must be a number with 0 < brightness <= 1, "
                         "got %r" % (b,))
    bd.brightness = float(b)
    bd.network = one_of(hw.get("network", "none"), NETWORKS, "hardware.network", NETWORK_MEANS)
    bd.max_current_ma = pos_int(get(hw, "max_current_ma", "hardware"),
                                "hardware.max_current_ma")
    _pins(bd, as_dict(get(hw, "pins", "hardware"), "hardware.pins"))
    _inputs(bd, as_dict(hw.get("inputs", {}), "hardware.inputs"))
    return bd


PIN_KEYS = ("neopixel", "i2c", "pn532_reset", "buttons", "encoder", "buzzer")


def _pins(bd, pins):
    """Check pins; `bd.pins` is a copy with i2c.freq filled in. Unknown keys must be GPIOs."""
    for key in ("neopixel", "i2c", "buttons"):
        get(pins, key, "hardware.pins")
    used = {}  # GPIO -> field
    out = {}
    for key in keys(pins, PIN_KEYS):
        field = "hardware.pins." + key
        v = pins[key]
        if key == "i2c":
            i2c = as_dict(v, field)
            no_extra(i2c, ("id", "sda", "scl", "freq"), field)
            bus = get(i2c, "id", field)
            if bus not in (0, 1) or not is_int(bus):
                raise BoardError(field + ".id", "I2C id must be 0 or 1, got %r" % (bus,))
            # RP2040: I2C0 SDA/SCL on GPIO 0/1, 4/5, 8/9...; I2C1 on 2/3, 6/7, 10/11...
            for name, off in (("sda", 0), ("scl", 1)):
                g = gpio(get(i2c, name, field), field + "." + name, used)
                if g % 4 != 2 * bus + off:
                    raise BoardError(field + "." + name, "GPIO %d cannot be %s of I2C%d "
                                     "(use %d, %d, %d, ...)" % (g, name.upper(), bus,
                                                                2 * bus + off, 2 * bus + off + 4,
                                                                2 * bus + off + 8))
            out[key] = {"id": bus, "sda": i2c["sda"], "scl": i2c["scl"],
                        "freq": pos_int(i2c.get("freq", I2C_FREQ), field + ".freq")}
        elif key == "buttons":
            btn = as_dict(v, field)
            for role in sorted(btn):
                if role not in ROLES:
                    raise BoardError(field + "." + role, "unknown button role %r (roles: %s)"
                                     % (role, ", ".join(ROLES)))
            for role in keys(btn, ROLES):
                gpio(btn[role], field + "." + role, used)
            out[key] = btn
        elif key == "encoder":
            enc = as_dict(v, field)
            no_extra(enc, ("a", "b", "switch"), field)
            get(enc, "a", field)
            get(enc, "b", field)
            for name in keys(enc, ("a", "b", "switch")):
                gpio(enc[name], field + "." + name, used)
            out[key] = enc
        elif isinstance(v, dict) or isinstance(v, list):
            raise BoardError(field, "unknown pin group (expected a GPIO number)")
        else:
            out[key] = gpio(v, field, used)
    bd.pins = out


HOLD_ACTIONS = (NEW_GAME, MENU, TAKEBACK)  # what holding a button may do besides its role


def _inputs(bd, inputs):
    """Map physical inputs to the six roles: buttons by their key, encoder actions by
    `inputs.encoder`. Every role must be reachable; `inputs.bringup` names the role whose
    button, held at power-up, enters bring-up mode."""
    no_extra(inputs, ("encoder", "bringup", "hold"), "hardware.inputs")
    buttons = bd.pins["buttons"]
    enc_pins = bd.pins.get("encoder")
    enc = None
    if "encoder" in inputs:
        if enc_pins is None:
            raise BoardError("hardware.inputs.encoder", "no encoder in hardware.pins.encoder")
        enc = as_dict(inputs["encoder"], "hardware.inputs.encoder")
        no_extra(enc, ENCODER_ACTIONS, "hardware.inputs.encoder")
    elif enc_pins is not None:
        enc = DEFAULT_ENCODER
    if enc is not None:
        mapped = {}
        for action in ENCODER_ACTIONS:
            role = enc.get(action)
            if role is None:
                continue
            field = "hardware.inputs.encoder." + action
            if role not in ROLES:
                raise BoardError(field, "unknown role %r (roles: %s)" % (role, ", ".join(ROLES)))
            if action in ("press", "long_press") and "switch" not in enc_pins:
                if enc is DEFAULT_ENCODER:
                    continue
                raise BoardError(field, "the encoder has no switch (hardware.pins.encoder.switch)")
            mapped[action] = role
        enc = mapped
    reachable = list(buttons) + (list(enc.values()) if enc else [])
    for role in ROLES:
        if role not in reachable:
            raise BoardError("hardware.pins.buttons." + role,
                             "no button or encoder action gives the %r role" % (role,))
    bringup = inputs.get("bringup")
    pin = None
    if bringup is not None:
        as_str(bringup, "hardware.inputs.bringup")
        if bringup in buttons:
            pin = buttons[bringup]
        elif enc and bringup in (enc.get("press"), enc.get("long_press")):
            pin = enc_pins["switch"]
        else:
            raise BoardError("hardware.inputs.bringup", "no button or encoder switch gives %r"
                             % (bringup,))
    # A button held down long gives an action of its own: {"done": "new-game"}.
    hold = {}
    if "hold" in inputs:
        for role, action in sorted(as_dict(inputs["hold"], "hardware.inputs.hold").items()):
            field = "hardware.inputs.hold." + str(role)
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
