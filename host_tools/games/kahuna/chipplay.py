"""Kahuna's part of the chip benchmark (host_tools/measure/chipbench.py): which cards to
lay on the emulated reader and which pixel shows each, a two-player deal for the taps,
and a solo game (the board plays white) whose AI cards are handled as the board asks
(solohands) while the other side is played simply, until the AI made a few decisions."""

from host_tools.games.kahuna.solohands import Hands
from host_tools.games.kahuna.table import Table, TableError

ERRORS = (TableError,)  # a table that cannot do what the session asked: a part stopped
THINKING = "the AI is thinking"
TAP_LABEL = "tag laid -> first frame with its island lit"  # chipbench's table


class ChipPlay:
    """`board` is the board definition (decoded JSON)."""

    def __init__(self, board):
        islands = board["layout"]["islands"]
        self.island_led = dict((i["id"], i["led"]) for i in islands)
        self.names = ["%s-%d" % (i["id"], n) for i in islands for n in (1, 2)]
        # The two-player deal: white the 1 cards of the first three islands, black the 2s.
        self.white_deal = tuple(self.names[0:6:2])
        self.black_deal = tuple(self.names[1:6:2])

    def tap_game(self, link):
        """A new two-player game in its play phase: the cards to lay, in turn."""
        link.send({"cmd": "new", "settings": {}})
        link.wait(lambda m: m.get("event") == "new", 120, "the new game")
        for card in self.white_deal + self.black_deal:
            link.command({"cmd": "tap", "card": card})
        return self.white_deal

    def remote_game(self, link):
        """A remote game (settings remote: black is played at another table) through its
        deal, fed as the board's bridge feeds it (host_tools/remote/boardfeed.py): this
        table's cards told and tapped, the other seat's dealt unseen, the display laid."""
        link.send({"cmd": "new", "settings": {"remote": "black"}})
        link.wait(lambda m: m.get("event") == "new", 300, "the new remote game")
        seq = 0
        for card in self.white_deal:
            seq += 1
            link.send({"cmd": "remote", "seq": seq, "actor": "white", "action": ["deal"],
                       "card": card})
            link.wait(lambda m, card=card: m.get("event") == "remote" and m.get("want") == card,
                      300,
                      "the board asking for %s" % card)
            link.command({"cmd": "tap", "card": card})
        for actor, action in [("black", ["deal"])] * 3 + [(None, ["display",
                                                                  list(self.black_deal)])]:
            seq += 1
            link.command({"cmd": "remote", "seq": seq, "actor": actor, "action": action})

    def led(self, card):
        """The pixel that lights when `card` is laid (its island)."""
        return self.island_led[card.split("-")[0]]

    def solo(self, session, decisions, seed, wall):
        """A solo game until the AI made `decisions` decisions (session.decisions()),
        measuring each while it thinks (session.thinking)."""
        import time

        link = session.link
        table = Table(self.names, seed)
        hands = Hands(table)
        mine = []
        link.send({"cmd": "new", "settings": {"ai": "white"}})
        link.wait(lambda m: m.get("event") == "new", 120, "the solo game")
        session.wait_emulated(50)  # the AI's tick says what it asks
        link.sync()
        rnd = 1
        end = time.monotonic() + wall
        while session.decisions() < decisions:
            if time.monotonic() > end:
                session.say("solo game: stopped after %.0f s wall with %d decisions"
                            % (wall, session.decisions()))
                break
            if link.say == THINKING:
                session.thinking(THINKING, max(60.0, end - time.monotonic()))
                continue
            s = link.state
            if s["round"] != rnd:
                rnd = s["round"]
                hands.round_ended()
            if s["phase"] == "over":
                break
            say = link.say
            move = hands.next(say) if say else None
            if move is not None:
                if move[0] == "tap":
                    ev = link.command({"cmd": "tap", "card": move[1]})
                else:
                    ev = link.command({"cmd": "press", "button": move[1]})
                if ev.get("event") == "refused":  # the hands are out of step with the board
                    raise ValueError("the board refused the AI's %s %s, asked as %r: %s %s"
                                     % (move[0], move[1], say, ev.get("code"),
                                        ev.get("message")))
            elif not link.say and s.get("turn") != "white":
                self.human(link, table, hands, mine)
            else:  # its words to come, or the board's own move in the AI's turn (no words)
                session.wait_emulated(20)
                link.sync()

    def human(self, link, table, hands, mine):
        """The other side, played simply: its deal, the first card it can place, a draw."""
        s = link.state
        if s["phase"] == "deal":
            card = table.deal()
            mine.append(card)
            link.command({"cmd": "tap", "card": card})
            return
        if s["phase"] == "play":
            for card in list(mine):
                ev = link.command({"cmd": "tap", "card": card})
                if ev["event"] == "refused":
                    continue
                places = [o for o in link.state["ui"]["options"] if o[0] == "place"]
                if not places:
                    link.command({"cmd": "press", "button": "back"})
                    continue
                link.command({"cmd": "pick", "conn": places[0][1]})
                mine.remove(card)
                table.discard(card)
                return
            if link.state["ui"].get("refill"):
                link.command({"cmd": "press", "button": "back"})
            link.command({"cmd": "press", "button": "done"})
            return
        if len(mine) >= 5:
            if not s["must_draw"]:
                link.command({"cmd": "press", "button": "done"})
                return
            card = mine.pop(0)
            link.command({"cmd": "press", "button": "discard"})
            link.command({"cmd": "tap", "card": card})
            link.command({"cmd": "press", "button": "done"})
            table.discard(card)
        if table.display:
            card = table.take(table.display[0])
            hands.took(card)
        else:
            card = table.take_top()
        mine.append(card)
        link.command({"cmd": "tap", "card": card})
