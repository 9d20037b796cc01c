"""Kami's host parts (the host side of firmware/games/kami/). The tools find them through
the registry (host_tools.games), by the part names below; each part is the module of that
name here.

- `hwplaces`   where the card table's pixels sit and what they are, for the maker's documents
"""

PARTS = ("hwplaces",)
