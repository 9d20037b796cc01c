"""Halunken & Spelunken's host parts (the host side of firmware/games/halunken/): what the
simulator, the scenario language and scengen need of it. The tools find them through the
registry (host_tools.games), by the part names below; each part is the module of that
name here.

- `verbs`      the scenario language's Halunken words: options (the deal, `colour.pN` among
               them), `pick`
- `simgame`    Halunken's side of a simulation: the options as one new game, `pick`
- `simreport`  the simulator's JSON report in the contract's order, and its summary
- `play`       the terminal play (`sim --game halunken` without a scenario), hot seat
- `scenwrite`  rules actions as scenario lines; random whole games as scenarios (`scengen`)
- `randgame`   random legal games (its own PRNG: the same on every runtime)
- `baselines`  the random and greedy players the board's player is measured against
- `duelgames`  whole games between them (`duel --game halunken`; its command line is
               `duelcli`)
- `hwplaces`   where the ring's pixels sit and what they are, for the maker's documents
- `picture`    the ring drawn as SVG and PNG (`sim --render`, the web page's geometry)
- `webgame`    Halunken's side of the browser page: hot seat, the secret choice hidden
- `chipplay`   the chip benchmark's session (chipbench --game halunken): a movement card's
               acknowledgement timed, and a solo game against the board's p2 and p3
- `remote`     remote play (docs/remote.md): the dealer's game with its dealt deck, a
               seat's options and view; movement cards by commit and reveal
- `remoteboard` a board at a remote table: its settings, what an event carries to it, its
               movement card committed and revealed by the bridge (boardfeed)

Every deal of the contract: `deal=table` (the default: each take and turned Black-Jack card
tapped, steps `take` and `bj-card`), `deal=given` and `deal=seed`; scengen's random games
deal both ways. The simulator keeps the default deck table (COLOUR-k is worth k, H2).
"""

PARTS = ("verbs", "simgame", "simreport", "play", "scenwrite", "randgame", "baselines",
         "duelgames", "hwplaces", "picture", "webgame", "chipplay", "remote",
         "remoteboard")
