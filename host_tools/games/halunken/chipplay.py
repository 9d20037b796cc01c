"""Halunken & Spelunken's part of the chip benchmark (host_tools/measure/chipbench.py).

The taps: a movement card's tap is acknowledged the same way for every card (8.3: one
dip of the lights of the seats that have chosen, core.frame's ACK_MS), so that is what is
timed, and it shows no secret. A three-player beginner game with a dealt deck is set up
over the link (the three captains placed, p1's movement card chosen: p1's seat light is
then steady), and p2's movement cards are laid on the emulated reader: from the tag laid
to the first frame whose p1 seat light dipped; `back` takes p2's choice back.

The solo game: three players, the board playing p2 and p3 (`ai`, a dealt deck `seed`, the
default mode: standard, with the auction), p1 driven over the link (`human_move`: the
first movement card it has left, the first space or number offered, `done` otherwise),
until the board's seats made N decisions. The board decides within one tick of its loop
(games/halunken/solo.py) and says only whose turn it plays ("the board plays p2", not
repeated when the same seat plays twice), so its decisions are counted on the link as the
events the host did not cause (with p1 a person, every other event is a board's decision:
the reveal's `ok` is p1's), and each is timed from the event line before it (the one that
gave the board the turn) to its own, as the host read them.

The remote game (`chipbench --remote`, docs/remote.md "A Halunken board at a table"): the
board at p2 of a 3-player remote game, fed the link commands of chipremote.json, recorded
from a game played in one process through the dealer (tests/remote/halchipscript.py
writes it again): the new game and the dealer's first event (`remote_game`), then the
rest of round 1 (`remote_round`): the dealer's events as the bridge feeds them (with the
public state's crews, port and Black-Jack's cards, H33), the board's own moves tapped
and picked, its movement card committed and opened (H7, H32).
"""

import json
import os
import time

ERRORS = ()  # nothing of a table of cards here: the link's own errors stop a part
SEATS = 3
BOARD_SEATS = ["p2", "p3"]
TAP_SETUP = ("T1", "T4", "T8")  # the captains' spaces of the tap game (any free space)
TAP_LABEL = "tag laid -> first frame with the acknowledgement"
SEEN_LABEL = "board's decision, its turn -> its event (link)"
BETWEEN_TAPS_MS = 400  # the acknowledgement (250 ms) is over before the next `before`
SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "chipremote.json")


def replay(link, cmds):
    """Send each command and read the board's lines up to its answer; ValueError naming
    the first command the board refused or answered with an error."""
    for cmd in cmds:
        n = len(link.lines)
        link.send(cmd)
        link.sync()
        bad = [m for m in link.lines[n:] if "error" in m or m.get("event") == "refused"]
        if bad:
            raise ValueError("the board refused %s: %s" % (json.dumps(cmd), bad[0]))


def human_move(state):
    """p1's commands for the merged public state `state`, to try in turn until one is
    accepted; [] when it is not p1's to act (the board's seats play, or the game is
    over)."""
    if state is None or state.get("phase") == "over":
        return []
    step = state.get("step")
    if step == "reveal":
        return [{"cmd": "press", "button": "ok"}]
    if state.get("turn") != "p1":
        return []
    if step == "choose":
        played = (state.get("played") or {}).get("p1", [])
        left = [m for m in range(1, 8) if "P1-%d" % m not in played]
        return [{"cmd": "tap", "card": "P1-%d" % left[0] if left else "P1-RUM"}]
    if step in ("place", "place-bj", "rum"):
        options = (state.get("ui") or {}).get("options") or []
        if options:
            return [{"cmd": "pick", "conn": str(options[0])}]
    done = [{"cmd": "press", "button": "done"}]
    if step == "rob":  # Black-Jack robs p1: one of the crew cards he may take (H22)
        crews = state.get("crews") or {}
        return [{"cmd": "tap", "card": c} for seat in state.get("from") or ()
                for c in crews.get(seat, ())] + done
    return done  # a pass in the auction, a theft declined


class ChipPlay:
    """`board` is the board definition (decoded JSON)."""

    def __init__(self, board):
        layout = board["layout"]
        self.seat_led = dict((s["id"], s["led"]) for s in layout["seats"])
        self.taps = ["P2-%d" % m for m in range(1, 8)]
        # The cards the board is told (the taps'; p1's go over the link by name).
        self.names = ["P1-%d" % m for m in range(1, 8)] + self.taps
        self.ours = []  # indices (link.events) of the events the host's commands made
        self.base = 0

    def tap_game(self, link):
        """The tap game, in its choose step with p1's card chosen: p2's cards to lay."""
        link.send({"cmd": "new", "settings": {"players": SEATS, "mode": "beginner",
                                              "seed": 7}})
        link.wait(lambda m: m.get("event") == "new", 120, "the new game")
        for space in TAP_SETUP:
            link.command({"cmd": "pick", "conn": space})
        link.command({"cmd": "tap", "card": "P1-3"})
        end = link.emu.ns() + BETWEEN_TAPS_MS * 1e6  # p1's own acknowledgement is over
        while link.emu.ns() < end:
            link.read()
        return self.taps

    def remote_game(self, link):
        """The remote game started: the new game (settings remote p1 and p3, a table
        deal) and the dealer's first event."""
        with open(SCRIPT) as f:
            self.script = json.load(f)
        replay(link, self.script["start"])
        self.base = link.events  # no decision of the board's: none counted in `seen`

    def remote_round(self, link):
        """The rest of round 1: the dealer's events and the board's moves (p2's)."""
        replay(link, self.script["round"])
        self.base = link.events

    def led(self, card):
        """The pixel the acknowledgement of `card` (p2's) is seen on: p1's seat light,
        steady since p1 chose."""
        return self.seat_led["p1"]

    # -- the solo game

    def decisions(self, session):
        """The board's decisions so far: the events since the solo game began that the
        host's commands did not make."""
        return session.link.events - self.base - len(self.ours)

    def seen(self, session):
        """Each decision's time on the link (ms of RP2040 time): from the event line
        before it to its own, as read."""
        times = session.link.event_ns
        out = []
        for i in range(self.base + 1, len(times)):
            if i not in self.ours:
                out.append(round((times[i] - times[i - 1]) / 1e6, 2))
        return out

    def solo(self, session, decisions, seed, wall):
        """A solo game until the board's seats made `decisions` decisions; the live heap
        after them."""
        link = session.link
        link.send({"cmd": "new", "settings": {"players": SEATS, "seed": seed,
                                              "ai": BOARD_SEATS}})
        link.wait(lambda m: m.get("event") == "new", 120, "the solo game")
        link.sync()
        self.base = link.events
        self.ours = []
        end = time.monotonic() + wall
        while self.decisions(session) < decisions:
            if time.monotonic() > end:
                session.say("solo game: stopped after %.0f s wall with %d decisions"
                            % (wall, self.decisions(session)))
                break
            if (link.state or {}).get("phase") == "over":
                break
            cmds = human_move(link.state)
            if not cmds:
                session.wait_emulated(20)  # the board's seats play
                continue
            for cmd in cmds:
                n = link.events
                ev = link.command(cmd)
                self.ours.append(n)
                if ev.get("event") != "refused":
                    break
            else:
                raise ValueError("the board refused every move of p1's: %s" % cmds)
        session.say("the board's seats made %d decisions" % self.decisions(session))
        session.heap("after %d decisions of the board's seats" % self.decisions(session))
