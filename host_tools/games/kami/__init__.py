"""Kami's host parts (the host side of firmware/games/kami/): what the host tools need of
it. The tools find them through the registry (host_tools.games), by the part names below;
each part is the module of that name here.

- `baselines`  the random and greedy players the board's player is measured against
- `duelgames`  whole games between them (`duel --game kami`; its command line is `duelcli`)
"""

PARTS = ("baselines", "duelgames")
