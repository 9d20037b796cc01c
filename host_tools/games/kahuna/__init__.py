"""Kahuna's host parts (the host side of firmware/games/kahuna/): what the simulator, the
scenario language, the terminal play, the monitor, the web page, scengen, soak, duel and
bench need of Kahuna. The tools find them through the registry (host_tools.games), by
the part names below; each part is the module of that name here.

- `verbs`      the scenario language's Kahuna words: options, `draw`, `pick`
- `simgame`    Kahuna's side of a simulation: the table of cards, draws, picks
- `simreport`  the simulator's JSON report in the contract's order, and its summary
- `play`       interactive play in a terminal (`sim` without a scenario)
- `scenwrite`  rules actions as scenario lines; random whole games as scenarios, with
                expect lines (`scengen`)
- `randgame`   random legal games (its own PRNG: the same on every runtime)
- `invariants` what must hold after every action (tests, soak)
- `soakplay`   the soak's events and its garbage that must be refused
- `baselines`  the players the AI is measured against: random and greedy (and, in
               `stylebaselines`, majority and lookahead)
- `duelgames`  whole games between the AI and the baselines (`duel`)
- `benchfigures` the speed and memory figures of `bench` (and `benchai`, the AI's)
- `textboard`  the board drawn as text (terminal play, monitor, live page)
- `narrate`    what an event changed, in words
- `picture`    the board drawn as SVG and PNG (`sim --render`, the web page's geometry)
- `chipplay`   the chip benchmark's cards, tap game and solo game (`make bench-chip`)
- `replay`     an archived game of the board replayed move by move (the live page)
- `guidepages` the player's guide, two A4 pages (`make guide`: docs/guide.pdf)
- `hwplaces`   where the pixels sit and what they are, for the maker's documents (`hardware`)
- `webgame`    Kahuna's side of the browser page: deck, display and hands by clicks, hints
- `remote`     remote play (docs/remote.md): the dealer's game with its virtual deck, a
               seat's options from what its table knows
- `record`     a game's journal (finished, or its public moves in play) as a scenario
               file (the monitor, the pages, `record`)

Beside them: `table` (the simulated table of cards), `stylebaselines` (two of the
baselines) and `solohands` (the player's hands in
a solo game), which the parts above use, and `duelpositions` (the AI's decision time on a
fixed set of positions, to compare two versions of the AI on a loaded machine) and
`recordbench` (public records of games in play: whole or stopped short, and their time).
"""

PARTS = ("verbs", "simgame", "simreport", "play", "scenwrite", "randgame", "invariants",
         "soakplay", "baselines", "duelgames", "benchfigures", "textboard", "narrate",
         "picture", "chipplay", "guidepages", "replay", "hwplaces", "webgame", "remote",
         "record", "remoteboard")
