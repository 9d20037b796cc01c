"""Where the board keeps its files on the Pico's flash (one home: main.py, the simulator
and the host tools use these names)."""

# The board definition the board plays, whatever its name in the repository (make flash
# BOARD=board_def/NAME.json copies it here, with the one game it names).
BOARD_FILE = "/board_def/board.json"
CARDS_FILE = "/cards.json"  # the card registry (core.cards)
JOURNAL_FILE = "/game.jnl"  # the game's journal (core.journal)
NET_FILE = "/net.json"  # a Pico W's Wi-Fi and broker settings (hw.net; make flash NET=...)
REMOTE_FILE = "/remote.json"  # a Pico W's remote game: its code and hello (core.netseat)
