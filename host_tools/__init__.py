"""The host tools of the Kahuna board, run as `python -m host_tools COMMAND` (see
__main__.py for the commands), grouped by job:

- `simulator/`  the simulated board: the firmware on fake hardware driven by scenarios
  (`core`, `scenario`, `cli` for `sim`), terminal play (`play`), random games and the
  simulated table of cards;
- `fakehw/`     every piece of fake hardware: the PN532 chip and NTAG213 tags on a virtual
  I2C bus, pins and PWM, the LED strip, the flash, and `pico/` (the `machine` and
  `neopixel` modules and the supervisor of the virtual board);
- `maker/`      the maker's tools on a real or virtual board: `flash`, `cards`, `monitor`,
  `vboard`, and the host end of the serial link (`linkclient`, `findport`);
- `documents/`  the maker's documents: `hardware/` from board_def, pictures of the board;
- `measure/`    `bench`, `soak` and `duel`;
- `web/`        the browser page: its build and its Python side;
- `textboard`   the board drawn as text, shared by terminal play and the monitor;
- `mpy`         running the MicroPython unix port.

Importing this package makes the firmware's own packages (`kahuna`, `hw`) importable, as
they are on the board: the host tools' one path set-up. It works on CPython and inside
MicroPython (whose `__file__` is a plain path string).
"""

import sys

_parts = __file__.replace("\\", "/").rsplit("/", 2)
ROOT = _parts[0] if len(_parts) == 3 else "."
FIRMWARE = ROOT + "/firmware"
if FIRMWARE not in sys.path:
    sys.path.insert(0, FIRMWARE)
