"""Halunken & Spelunken's round after the secret choice: the reveal, the takes, the moves,
the thefts and Black-Jack's move (docs/halunken.md, H7-H13, H22-H29). `Moves` is the
rules' state object's half that runs them (rules.Game inherits it; the fields are
rules.Game's).

The round advances by itself until an action is needed, and stops there: a take at a
table (step `take`: the tap tells which card it was, H33), a theft (`steal`), Black-Jack's
robbery (`rob`), his turned card at a table (`bj-card`), a RUM's number (`rum`). With a
dealt deck (seeded or given) the board makes every take and turns Black-Jack's cards
itself, so only the choices stop it.
"""

from games.halunken import deck

BJ = 4  # Black-Jack as a figure
PORT = -1  # a theft's source: the port
ROUNDS = 8
UNSEEN = -1  # a card of a pile at a table: face down, known by its count only (H33)

# What a take is part of (`taking[2]`), which says what follows it.
SETUP = 0  # a captain's set-up card (H5)
STAY = 1  # a cancelled captain's take (H8)
LAND = 2  # a mover's take on landing, before its theft (H9; Black-Jack's for W, H26)


class Moves:
    # ------------------------------------------------------------ the reveal

    def _figs(self):
        return list(range(self.players)) + ([BJ] if self.bj_controlled() else [])

    def _shown(self):
        """The numbers the revealed cards show, cancelled ones included (H7)."""
        return [self.cards[f] + 1 for f in self._figs() if self.cards[f] != deck.RUM]

    def _reveal(self):
        figs = self._figs()
        for f in figs:
            self.cards[f] = self.choices[f]
            if f == BJ:
                self.bj_deck.remove(self.choices[f])
                self.bj_cards.append(self.choices[f])
            else:
                self.played[f].append(self.choices[f])
        self.choices = [-1] * 5
        for f in figs:  # H7: equal cards (RUM with RUM too) cancel
            self.cancelled[f] = [self.cards[g] for g in figs].count(self.cards[f]) > 1
            if not self.cancelled[f] and self.cards[f] != deck.RUM:
                self.numbers[f] = self.cards[f] + 1
        if self.mode == "tactical" and not self.bj_controlled():
            if self.deal == "table":
                self.step = "bj-card"  # H27: the turned P3 card is tapped now, before rum
                return
            self._turn_tactical(self.bj_deck[0])
        self._after_reveal()

    def _turn_tactical(self, c):
        """H27: Black-Jack's turned card in tactical without a bid orders and cancels
        nothing; a RUM counts as the lowest number neither player's card shows."""
        self.bj_deck.remove(c)
        self.bj_cards.append(c)
        self.cards[BJ] = c
        shown = self._shown()
        self.numbers[BJ] = c + 1 if c != deck.RUM else min(
            n for n in range(1, 8) if n not in shown)

    def _after_reveal(self):
        for f in self._figs():
            if self.cards[f] == deck.RUM and not self.cancelled[f]:
                self.rum_owner = f
                shown = self._shown()
                self.options = [n for n in range(1, 8) if n not in shown]  # H7
                self.step = "rum"
                return
        self._moves()

    def _bj_card(self, c):
        """The turned Black-Jack card tapped at a table (H33)."""
        if self.mode == "tactical":
            self._turn_tactical(c)
            return self._after_reveal()
        self._turn_standard(c)
        self.bj_stage = 1
        self._bj_go()
        return self._run()

    # ------------------------------------------------------------ the moves

    def _moves(self):
        self.options = []
        # H8: stayers take first, in seat order; a cancelled Black-Jack takes nothing
        self.stayers = [f for f in range(self.players) if self.cancelled[f]]
        movers = [f for f in self._figs() if not self.cancelled[f]]
        self.queue = sorted(movers, key=lambda f: self.numbers[f])  # H10: lowest first
        self._run()

    def _take(self, fig, space, kind):
        """`fig` takes the top card of `space` (Black-Jack into the port): at once with a
        dealt deck, else the step `take` waits for its tap (True: waiting). H13: an empty
        tavern gives nothing."""
        if not self.piles[space]:
            return False
        if self.deal == "table":
            self.taking = [fig, space, kind]
            return True
        self._took(fig, space, self.piles[space][0])  # H5: the next card is face up at once
        return False

    def _took(self, fig, space, card):
        self.piles[space].pop(0)
        (self.port if fig == BJ else self.crews[fig]).append(card)

    def _take_tapped(self, card):
        """The card tapped as taken at a table (H33), then what follows the take."""
        fig, space, kind = self.taking
        self.taking = None
        self._took(fig, space, card)
        if kind == SETUP:
            return self._placed(fig, card)
        if kind == LAND:
            self._landed(fig, space)
        return self._run()

    def _displace(self, fig, space):
        """`fig` goes to the first vacant space clockwise after `space`, taking nothing (H9)."""
        t = space
        while True:
            t = (t + 1) % deck.SPACES
            if self.occupant(t, fig) < 0:
                break
        if fig == BJ:
            self.bj = t
        else:
            self.pos[fig] = t

    def _run(self):
        """Advance the round until an action is needed or the round ends."""
        while (self.pending is None and not self.robs and self.taking is None
               and self.bj_stage != 2):
            if self.stayers:
                f = self.stayers.pop(0)
                self._take(f, self.pos[f], STAY)
            elif self.queue:
                self._land(self.queue.pop(0))
            elif self.bj_stage == 0 and self.mode != "beginner" and not self.bj_controlled():
                self._bj_move()
            else:
                return self._end_round()
        if self.taking is not None:
            self.step = "take"
        elif self.pending is not None:
            self.step = "steal"
        elif self.robs:
            self.step = "rob"
        else:
            self.step = "bj-card"
        return None

    def _land(self, fig):
        dest = (self.where(fig) + self.numbers[fig]) % deck.SPACES
        if fig == BJ:  # H26: W's second mover
            self.bj = dest
            if self.occupant(dest, BJ) == self.winner_seat():
                return self._displace(BJ, dest)  # on W's captain: goes on, takes nothing
        else:
            self.pos[fig] = dest
        if self._take(fig, dest, LAND):  # H9: the take comes first (H24: BJ's to the port)
            return None
        return self._landed(fig, dest)

    def _landed(self, fig, dest):
        """After the landing's take: the theft the rules allow, or the displacement."""
        occ = self.occupant(dest, fig)
        if occ < 0:
            return None
        w = self.winner_seat()
        if fig == BJ:  # H26: W robs the opponent Black-Jack landed on, if W holds no more
            if self.crews[occ] and len(self.crews[w]) <= len(self.crews[occ]):
                self.pending = {"thief": w, "mover": BJ, "from": [occ], "after": BJ,
                                "space": dest}
                return None
            return self._displace(BJ, dest)
        if occ == BJ:  # H24 (and H26 for the opponent of W)
            src = [PORT] if self.port else []  # H28: an empty source is no source
            if self.bj_controlled() and fig != w and self.crews[w]:
                src.append(w)
        else:
            ok = len(self.crews[fig]) <= len(self.crews[occ]) and self.crews[occ]
            src = [occ] if ok else []
        if src:
            self.pending = {"thief": fig, "mover": fig, "from": src, "after": occ,
                            "space": dest}
            return None
        return self._displace(occ, dest)

    def _steal(self, card):
        p = self.pending
        if card >= 0:
            for src in p["from"]:
                cards = self.source_cards(src)
                if card in cards:
                    cards.remove(card)
            self.crews[p["thief"]].append(card)
        self.pending = None
        self._displace(p["after"], p["space"])  # H9: displaced either way (BJ moves on)
        self._run()

    # ------------------------------------------------------------ Black-Jack's move

    def _bj_move(self):
        """Black-Jack's end move (H22, H23, H25; H27 in tactical without a bid)."""
        self.bj_stage = 1
        if self.mode == "standard":
            if self.deal == "table":
                self.bj_stage = 2  # step bj-card: his turned card is tapped (H33)
                return
            self._turn_standard(self.bj_deck[0])
        self._bj_go()

    def _turn_standard(self, c):
        self.bj_deck.remove(c)  # H25: turned in order, never reshuffled
        self.bj_cards.append(c)
        self.cards[BJ] = c
        self.numbers[BJ] = c

    def _bj_go(self):
        start = self.bj
        t = start
        passed = []
        for _ in range(self.numbers[BJ]):
            t = (t + 1) % deck.SPACES
            passed.append(t)
        while self.occupant(t, BJ) >= 0:  # H22: on to the next space without a captain
            t = (t + 1) % deck.SPACES
            passed.append(t)
        self.bj = t
        w = self.winner_seat()
        seen = []
        for space in passed[:-1]:
            s = self.occupant(space, BJ)
            if s >= 0 and s != w and s not in seen:
                seen.append(s)
        self.robs = [[s, s if w < 0 else w] for s in seen]
        self._next_rob()

    def _next_rob(self):
        while self.robs:
            victim, chooser = self.robs[0]
            w = self.winner_seat()
            # H22: checked with the counts of this moment; H28: nothing to take, skipped
            if self.crews[victim] and (w < 0 or len(self.crews[victim]) >= len(self.crews[w])):
                return
            self.robs.pop(0)

    def _rob(self, card):
        victim, chooser = self.robs.pop(0)
        if card >= 0:
            self.crews[victim].remove(card)
            if victim == chooser:
                self.port.append(card)  # H23: nobody bid, to the port
            else:
                self.crews[chooser].append(card)  # H22: into W's crew
        self._next_rob()
        self._run()

    def _end_round(self):
        self.queue = []
        if self.round >= ROUNDS:  # H29: after the 8th round's Black-Jack move
            self.phase = "over"
            self.step = None
            return None
        self._start_round()
        return None
