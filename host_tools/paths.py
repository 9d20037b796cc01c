"""The repository's files the host tools read by default. CPython and MicroPython."""

from host_tools import ROOT

BOARD_DEF = ROOT + "/board_def/kahuna.json"  # the default board: Kahuna's
