"""Kami's host parts (the host side of firmware/games/kami/): what the simulator, the
scenario language, scengen, the terminal play and the duel need of it. The tools find them
through the registry (host_tools.games), by the part names below; each part is the module
of that name here.

- `verbs`      the scenario language's Kami words: options (players, mode, first, target,
               deal, seed; `ai`, the board's seats), `deal p1:... p2:...` (a stated deal)
               and `pick pN` (a claimant)
- `simgame`    Kami's side of a simulation: the options as one new game, `deal`, `pick`;
               the board's seats played after every command
- `simreport`  the simulator's JSON report in the contract's order, and its summary
- `play`       the terminal play (`sim --game kami` without a scenario), hot seat or
               against the board's seats (`--ai p2,p3`)
- `scenwrite`  rules actions as scenario lines; random whole games as scenarios (`scengen`)
- `randgame`   random legal games (its own PRNG: the same on every runtime)
- `hwplaces`   where the card table's pixels sit and what they are, for the maker's documents
- `baselines`  the random and greedy players the board's player is measured against
- `duelgames`  whole games between them (`duel --game kami`; its command line is `duelcli`)
- `picture`    the card table drawn as SVG and PNG (`sim --render`, the web page's geometry;
               its panel is `picturepanel`)
- `webgame`    Kami's side of the browser page: hot seat with a seeded deal, each hand shown
               only to its seat, no face-down card named
- `chipplay`   the chip benchmark's session (chipbench --game kami): a face-down
               defence's acknowledgement timed, and a solo game against the board's p2
- `remote`     remote play (docs/remote.md): the dealer's game with its shuffled deck,
               each seat's hand, options and view; face-down defences never published

Every deal of the contract: `table`, `given` and `seed`. The board's players (setting `ai`,
games/kami/ai.py and solo.py) are in the duel, the scenario language (`option ai=p2,p3`,
an extension of the contract: `verbs`, `simgame`), the terminal play (`--ai p2,p3`), the
web page and the chip benchmark.
"""

PARTS = ("verbs", "simgame", "simreport", "play", "scenwrite", "randgame", "hwplaces",
         "baselines", "duelgames", "picture", "webgame", "chipplay", "remote",
         "remoteboard")
