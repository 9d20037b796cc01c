"""Kami's part of the chip benchmark (host_tools/measure/chipbench.py).

The taps: a face-down defence's tap is acknowledged the same way for every card (K6, 8.2,
8.3: the seat's defence light blinks: off for the first half of core.frame's ACK_MS, then
blue), so that is what is timed, and it shows no card. A four-player game at a table
(`deal=table`: the board learns each card as it is tapped, K20) is brought to p1's replay
over the link (p1 lays SOLDAT-1 face down and attacks with SOLDAT-2, the others pass,
K16): p1's defence light is then steady blue, and each Soldier laid on the emulated reader
as p1's new face-down defence blinks it off at once: from the tag laid to the first frame
whose p1 defence light changed; `back` takes the defence back to the hand (the light is
blue again, for the earlier one). From an opening instead, the light would go from off to
blue only after the blink's dark half (125 ms of design, not of latency).

The solo game: two players (the board's player thinks longest there: the centre cards,
K13, and the most unseen cards; docs/kami.md), the board playing p2 (`ai`), with a given
deal (`deal=given`, a known deal as `ai` needs, K20) that the host states over the link at
each round's start (the controller's `pick` of "deal p1:... p2:... centre:..."), shuffled
from the session's seed; p1 is driven over the link from its own hand and the public state
(`human_move`: a defence, an Empress first since it cannot attack while locked, K4; an
attack, not an Empress while it may not; a pass, K15), until the board's seat made N
decisions. The board decides within one tick of its loop (games/kami/solo.py), so its
decisions are counted on the link as the events the host did not cause (with p1 the only
person, every other event is a board's decision), and each is timed from the event line
before it (the one that gave the board the turn) to its own, as the host read them.
"""

import random
import time

from games.kami import deck
from games.kami.dealing import split, text

ERRORS = ()  # nothing of a table of cards here: the link's own errors stop a part
TAP_PLAYERS = 4
PLAYERS = 2
BOARD_SEATS = ["p2"]
TAP_SETUP = ("SOLDAT-1", "SOLDAT-2")  # p1's defence and attack before its replay
TAP_CARDS = tuple("SOLDAT-%d" % k for k in range(3, 11))  # p1's face-down defences
TAP_LABEL = "tag laid -> first frame with the defence's blink (face down)"
SEEN_LABEL = "board's decision, its turn -> its event (link)"
BETWEEN_TAPS_MS = 400  # the blink (core.frame.ACK_MS, 250 ms) is over before the next tap


def deal_command(rng):
    """A shuffled two-player deal stated over the link, and p1's hand (card names)."""
    cards = list(range(deck.COUNT))
    rng.shuffle(cards)
    hands, aside, centre = split(cards, PLAYERS)
    return ({"cmd": "pick", "conn": "deal " + text(hands, aside, centre)},
            [deck.NAMES[c] for c in hands[0]])


def human_move(state, hand):
    """p1's commands for the merged public state `state` and its hand (card names), to try
    in turn until one is accepted; [] when it is not p1's to act (the board's seat plays,
    a deal is awaited, or the game is over)."""
    if state is None or state.get("phase") != "play" or state.get("turn") != "p1":
        return []
    step = state.get("step")
    if step == "respond":
        return [{"cmd": "press", "button": "done"}]  # K15: a pass is always allowed
    empresses = [c for c in hand if c.startswith("IMPERATRICE")]
    others = sorted(c for c in hand if c not in empresses)
    if step == "open":
        order = empresses + others  # K4: an Empress laid down, not left to attack with
    elif step == "attack":
        order = others + empresses  # K4: an Empress attacks only unlocked or as the last
    else:
        return []
    return [{"cmd": "tap", "card": c} for c in order]


class ChipPlay:
    """`board` is the board definition (decoded JSON)."""

    def __init__(self, board):
        layout = board["layout"]
        self.defence_led = dict((d["id"], d["led"]) for d in layout["defences"])
        self.seat_led = dict((d["id"], d["led"]) for d in layout["seats"])
        self.taps = list(TAP_CARDS)
        self.names = list(deck.NAMES)  # the board is told every card (p1's go by name)
        self.ours = []  # indices (link.events) of the events the host's commands made
        self.base = 0

    def tap_game(self, link):
        """The tap game: four players at a table, p1 to replay (K16: its earlier defence
        face down, its light steady blue), its new face-down defences to lay."""
        link.send({"cmd": "new", "settings": {"players": TAP_PLAYERS}})
        link.wait(lambda m: m.get("event") == "new", 120, "the new game")
        for card in TAP_SETUP:
            link.command({"cmd": "tap", "card": card})
        for _ in range(TAP_PLAYERS - 1):
            link.command({"cmd": "press", "button": "done"})
        end = link.emu.ns() + BETWEEN_TAPS_MS * 1e6  # p1's own blink is over
        while link.emu.ns() < end:
            link.read()
        return self.taps

    def remote_game(self, link):
        """A remote game of 2 players (`chipbench --remote`: settings remote, p1 played
        at another table, the board at p2) through its deal and p1's opening, fed as the
        board's bridge feeds it (host_tools/remote/boardfeed.py, remoteboard.py): p2's
        hand and the centre's face-up cards told, p1's face-down defence and attack."""
        link.send({"cmd": "new", "settings": {"players": 2, "remote": ["p1"]}})
        link.wait(lambda m: m.get("event") == "new", 300, "the new remote game")
        hand, ups = self.names[:8], self.names[8:16]
        for seq, actor, action, extra in (
                (1, None, ["deal", "1"], {"hands": {"p2": hand}}),
                (2, "p1", ["defend"], {}),
                (3, "p1", ["attack", self.names[20]], {})):
            cmd = {"cmd": "remote", "seq": seq, "actor": actor, "action": action,
                   "ups": ups}
            cmd.update(extra)
            link.command(cmd)

    def led(self, card):
        """The pixel the acknowledgement of `card` is seen on: p1's defence light, steady
        blue before it (the earlier defence, face down)."""
        return self.defence_led["p1"]

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

    def _command(self, link, cmd):
        """Send one of the host's commands; its event line."""
        n = link.events
        ev = link.command(cmd)
        self.ours.append(n)
        return ev

    def solo(self, session, decisions, seed, wall):
        """A solo game until the board's seat made `decisions` decisions; the live heap
        after them."""
        link = session.link
        rng = random.Random(seed)
        link.send({"cmd": "new", "settings": {"players": PLAYERS, "deal": "given",
                                              "ai": BOARD_SEATS}})
        link.wait(lambda m: m.get("event") == "new", 120, "the solo game")
        link.sync()
        self.base = link.events
        self.ours = []
        hand = []
        end = time.monotonic() + wall
        while self.decisions(session) < decisions:
            if time.monotonic() > end:
                session.say("solo game: stopped after %.0f s wall with %d decisions"
                            % (wall, self.decisions(session)))
                break
            state = link.state or {}
            if state.get("phase") == "over":
                break
            if state.get("phase") == "deal":
                cmd, hand = deal_command(rng)
                if self._command(link, cmd).get("event") == "refused":
                    raise ValueError("the board refused the stated deal: %s" % cmd["conn"])
                continue
            cmds = human_move(state, hand)
            if not cmds:
                session.wait_emulated(20)  # the board's seat plays
                continue
            for cmd in cmds:
                if self._command(link, cmd).get("event") != "refused":
                    if cmd["cmd"] == "tap":
                        hand.remove(cmd["card"])
                    break
            else:
                raise ValueError("the board refused every move of p1's: %s" % cmds)
        session.say("the board's seat made %d decisions" % self.decisions(session))
        session.heap("after %d decisions of the board's seat" % self.decisions(session))
