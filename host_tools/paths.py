"""The repository's files the host tools read by default, at the paths the firmware gives
them on the board (`core.files`): `make flash` copies the repository's tree there.
CPython and MicroPython."""

from core.files import BOARD_FILE
from host_tools import ROOT

BOARD_DEF = ROOT + BOARD_FILE  # board_def/kahuna.json of this repository
