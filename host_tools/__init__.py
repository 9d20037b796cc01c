"""The host tools of the Kahuna board, run as `python -m host_tools COMMAND` (see
__main__.py for the commands), grouped by job:

- `simulator/`  the simulated board, game-neutral: the firmware on fake hardware driven by
  scenarios (`engine`, `scenario` with the neutral verbs, `jsontext`, `cli` for `sim`,
  `scengen`);
- `games/`      each game's host parts (`games/<game>/`: its scenario verbs, its side of a
  simulation, the report, terminal play, the board as text and as a picture, narration,
  random games, baselines, ...), found by the game's name (`games/__init__.py`);
  `gamearg` is the commands' `--game`;
- `fakehw/`     every piece of fake hardware, one of each for the simulator and the virtual
  board: the PN532 chip and NTAG213 tags on a virtual I2C bus, `machine.Pin` and PWM
  (`pins`), the NeoPixel and its strip (`strip`), the reader's rig for the simulator
  (`reader_rig`), the flash, and `pico/` (the virtual board's `machine` and `neopixel`
  over those same fakes, and its supervisor);
- `maker/`      the maker's tools on a real or virtual board: `flash`, `cards`, `monitor`,
  `vboard` (the virtual board's command line; the board itself in `vboardserver` with
  `vboardworld` and `vboardio`, its control channel's client in `vboardclient`, its
  commands in words in `vboardcommands`, its cards and buttons in `vboarddef`), and the
  host end of the serial link (`linkclient`, `findport`);
- `documents/`  the maker's documents: `hardware/` from each board definition (`hardware`,
  the command and its model, over the game's `hwplaces` part; the figures in `hwfigures`,
  the LED chain's order in `chainorder`, the tables in `hwtables`, the README in
  `hwreadme`, the pictures in `wiringdiagram`, `chainpicture` and `drilltemplate`, SVG and
  its conversion in `svgkit`), the player's
  guide;
- `measure/`    `bench`, `soak` and `duel` (over the game's parts), `chipbench`;
- `web/`        the browser page: its build and its Python side;
- `remote/`     remote play through an MQTT broker: the protocol, the dealer, the tables
  (docs/remote.md);
- `paths`       the repository's files the tools read, at the paths the firmware gives them;
- `mpy`         running the MicroPython unix port.

Importing this package makes the firmware's own packages (`kahuna`, `hw`) importable, as
they are on the board: the host tools' one path set-up. It works on CPython and inside
MicroPython (whose `__file__` is a plain path string). It imports no firmware itself: the
virtual board imports this package, and must run the firmware flashed on it.
"""

import sys

_parts = __file__.replace("\\", "/").rsplit("/", 2)
ROOT = _parts[0] if len(_parts) == 3 else "."
FIRMWARE = ROOT + "/firmware"
if FIRMWARE not in sys.path:
    sys.path.insert(0, FIRMWARE)
