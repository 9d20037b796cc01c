"""Where the board keeps its files on the Pico's flash (one home: main.py, the simulator
and the host tools use these names)."""

BOARD_FILE = "/board_def/kahuna.json"  # the board definition, copied by make flash
CARDS_FILE = "/cards.json"  # the card registry (core.cards)
JOURNAL_FILE = "/game.jnl"  # the game's journal (core.journal)
