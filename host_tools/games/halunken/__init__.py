"""Halunken & Spelunken's host parts (the host side of firmware/games/halunken/): what the
simulator, the scenario language and scengen need of it. The tools find them through the
registry (host_tools.games), by the part names below; each part is the module of that
name here.

- `verbs`      the scenario language's Halunken words: options (the deal among them), `pick`
- `simgame`    Halunken's side of a simulation: the options as one new game, `pick`
- `simreport`  the simulator's JSON report in the contract's order, and its summary
- `play`       the terminal play (`sim --game halunken` without a scenario), hot seat
- `scenwrite`  rules actions as scenario lines; random whole games as scenarios (`scengen`)
- `randgame`   random legal games (its own PRNG: the same on every runtime)
- `baselines`  the random and greedy players the board's player is measured against
- `duelgames`  whole games between them (`duel --game halunken`; its command line is
               `duelcli`)

Only dealt decks (`deal=seed`, `deal=given`) so far: a table deal needs the firmware's take
and bj-card steps (docs/halunken.md), and a scenario asking for one is refused.
"""

PARTS = ("verbs", "simgame", "simreport", "play", "scenwrite", "randgame", "baselines",
         "duelgames")
