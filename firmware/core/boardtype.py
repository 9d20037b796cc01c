"""The checked board definition as the firmware keeps it: the platform's part of it (a
game's places are its subclass, games/<game>/places.py). Apart from the checks
(core/board.py), which the board needs only at boot: main.py lets them go once the board is
loaded, and their code no longer takes heap."""


class Board:
    """A validated board definition: the platform's part. A game's layout module makes
    the object (its subclass, with the game's places) and fills its places in."""

    def __init__(self):
        self.name = ""
        self.game = ""  # the game the board is for: firmware/games/<game>/
        self.raw = None  # the checked dict, as decoded (for host tools)
        self.status_leds = {}  # name -> LED index
        self.led_count = 0  # pixels on the strip: LED indices are 0..led_count-1
        self.palette = {}  # name -> (r, g, b), before brightness
        self.brightness = 1.0  # 0 < brightness <= 1
        self.max_current_ma = 0  # current limit of the strip
        self.pins = {}  # as in the file, i2c.freq filled in
        self.inputs = {}  # {"encoder": {action: role} or None, "bringup": role or None}
        self.bringup_pin = None  # GPIO held at power-up for bring-up mode, or None
        self.network = "none"  # "wifi" on a Pico W (hardware.network): remote play over Wi-Fi
