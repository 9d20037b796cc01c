"""The other table's moves as a board shows them (firmware games/kahuna/remote.py, core
frame's blinks, core.tunes.MOVED), one scenario for CPython and the MicroPython unix port
alike (test_board_remote.py runs it under both and compares).

Black's board (white plays at the other table) takes the dealer's events through its
link: white's deal (hidden cards), black's own deal (`cards`, tapped), the display, then
white's moves: a card placed (public: its island and bridge blink), the play ended, a
card discarded face down and the deck's top card drawn (hidden: the board never learns
them; stand-ins of its own choosing take their places, `standins`). After each event the
frame is sampled every FRAME_MS for SAMPLE_MS (equal frames in a row counted); the sounds
the app played are recorded.
"""

import json

import gamekit
from core.link import Link
from host_tools.simulator import engine as simcore

FRAME_MS = 20
SAMPLE_MS = 1700  # past the blinks (core.frame.MOVED_MS) and every other animation
DISPLAY = ["DUDA-1", "DUDA-2", "ELAI-1"]
PLACED = "ALOA-1"  # the card white places, on the first connection of its island


class Sounds:
    """The buzzer's part the app calls (hw.buzzer.Buzzer's play and tick), recorded."""

    def __init__(self):
        self.played = []

    def play(self, kind, now):
        self.played.append(kind)

    def tick(self, now):
        pass


def run(cards, emit):
    """Black's board through the scenario, black dealt `cards` (three names):
    `emit(step)` for each event, a dict: the command, the link's lines (the news's `hand`,
    this table's own cards, left out), the frames, the sounds and the stand-ins the board
    chose (the cards whose place the event changed)."""
    b = gamekit.board()
    sim = simcore.Simulation(b)
    lines = []
    link = Link(sim.app, lines.append, lambda: sim.now)
    sim.app.listen(link.on_event)
    sim.app.prompters.append(link.on_prompt)
    sounds = Sounds()
    sim.app.sound = sounds
    link.line(json.dumps({"cmd": "new", "settings": {"remote": "white"}}))
    conn = [c for c in b.connections if c.startswith(PLACED[:4] + "-")][0]
    names = sim.app.game.card_names
    steps = [{"cmd": "remote", "seq": s, "actor": "white", "action": ["deal"]}
             for s in (1, 2, 3)]
    steps += [{"cmd": "remote", "seq": 4 + i, "actor": "black", "action": ["deal"],
               "card": cards[i]} for i in range(3)]
    steps.append({"cmd": "remote", "seq": 7, "actor": None, "action": ["display", DISPLAY]})
    for seq, action in ((8, ["place", PLACED, conn]), (9, ["end_play"]), (10, ["discard"]),
                        (11, ["draw"])):
        steps.append({"cmd": "remote", "seq": seq, "actor": "white", "action": action})
    for cmd in steps:
        del lines[:]
        del sounds.played[:]
        before = list(sim.app.game.place)
        link.line(json.dumps(cmd))
        if cmd.get("card"):  # this table's player takes its card and taps it
            link.line(json.dumps({"cmd": "tap", "card": cmd["card"]}))
        got = []
        for raw in lines:
            line = json.loads(raw)
            if line.get("event") == "remote":
                line.pop("hand")
            got.append(line)
        frames = []  # [[count, frame hex]]: equal frames in a row counted (the heap)
        for _ in range(SAMPLE_MS // FRAME_MS):
            sim.advance(FRAME_MS)
            frame = bytes(sim.app.view.frame).hex()
            if frames and frames[-1][1] == frame:
                frames[-1][0] += 1
            else:
                frames.append([1, frame])
        after = sim.app.game.place
        emit({"cmd": cmd, "lines": got, "frames": frames, "sounds": list(sounds.played),
              "standins": sorted([names[c] for c in range(len(after))
                                  if after[c] != before[c]])})
