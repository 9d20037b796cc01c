"""Kami's side of the browser page (host_tools/web/game.py, the `webgame` host part): the
simulator with the cards dealt from a seed (`deal=seed`: the board knows the hands, so a
card a seat does not hold is refused), played by clicks, every seat at one screen (hot
seat).

Kami's requests (beside the page's own: start, new_game, tick, state, hand, scenario):

    {"op": "tap", "card": C}       a card on the scanner: from the hand of the seat the
                                   board waits for (a defence laid face down, a counter, an
                                   attack, a Soldier of a claim), or a face-up centre card
                                   (2 players)
    {"op": "press", "button": B}   done (pass, or end a claim's Soldiers), back (take back
                                   this turn's defence or counter; withdraw a claim, play
                                   on), discard (open a 5-Soldier claim), next, prev, ok
    {"op": "pick", "seat": S}      choose and confirm the claimant S (p1..p4)

`new_game`'s options are scenario option values (players=3, mode=kami, first=p2,
target=10; `ai=p2,p4` once the scenario language takes it: the board plays those seats in
its own ticks, as on the board, so the page only asks and shows). `hand` gives one seat's
cards (the page asks only once that seat shows its hand; never a board's seat). The state
is what any onlooker may see (rules 8.3): the public report (no hand, no face-down card's
name, no hidden centre or set-aside card), the settings without the seed, and a message
that never names a face-down defence: accepted, it reads "p1 lays a defence face down"
for every card; refused, it gives the code alone.
"""

from core.board import ROLES
from games.kami import deck
from games.kami import report as gamereport
from games.kami.controller import acting_seat
from games.kami.settings import check_settings, seat_names
from host_tools.games.kami.verbs import CARDS_ARE, SEATS, check_option
from host_tools.simulator.engine import PRESS_MS, Simulation
from host_tools.simulator.scenario import ScenarioError
from host_tools.web.weberror import WebError

ERRORS = ()  # a bad request is a WebError or a ValueError
# What the page's form sets: `ai` (the seats the board plays) only once the scenario
# language takes it, i.e. once the game has the board's own player on the simulator.
FORM_KEYS = ("players", "mode", "first", "target", "ai")
SETTLE_MS = 1000  # after an event: the acknowledgement's blink is over
DEAL_KEYS = ("seed",)  # never shown back: the seed would tell every hand


def board_players():
    """Whether the board can play seats (the scenario language takes `option ai=p2`): only
    then does the page offer it."""
    try:
        check_option("ai=p2", 0)
    except ScenarioError:
        return False
    return True


def settings_from(options, seed):
    """The form's option values -> the game's settings, dealt from `seed`."""
    if not isinstance(options, list):
        raise WebError("options must be a list of KEY=VALUE texts")
    out = {}
    for text in options:
        try:
            key, value = check_option(str(text), 0)
        except ScenarioError as e:
            raise WebError(e.message) from e
        if key not in FORM_KEYS:
            raise WebError("option %s is not the page's: it deals from the seed" % key)
        out[key] = value.split(",") if key == "ai" and isinstance(value, str) else value
    out["seed"] = int(seed) & 0x7FFFFFFF
    if "first" in out and int(out["first"][1:]) > out.get("players", 4):
        raise WebError("the options disagree: first=%s, but a game of %d players has "
                       "seats p1..p%d" % (out["first"], out.get("players", 4),
                                          out.get("players", 4)))
    try:
        return check_settings(out)
    except ValueError as e:
        raise WebError("the options disagree: %s" % e) from e


def public_report(game):
    """The report as everyone at the table sees it (8.3), with the game's settings."""
    rep = {"game": "kami", "players": game.players, "mode": game.mode,
           "target": game.target, "deal": game.deal}
    rep.update(gamereport.public(game))
    return rep


def _new_cards(before, after, seat, part):
    b = before["lines"].get(seat, {}).get(part, [])
    a = after["lines"][seat][part]
    return a[len(b):] if len(a) >= len(b) else None


def describe(before, after, cancelled=False):
    """What an accepted event changed, in words, from two public reports (a face-down
    card is never named: it has no name there); `cancelled`: the claimant's partner
    pressed ok, the round is dealt again (the public report alone cannot tell)."""
    out = []
    if len(after["rounds"]) > len(before["rounds"]):
        r = after["rounds"][-1]
        d = r["defence"]
        out.append("%s plays its last card, %s, over %s: %d point%s for %s%s" % (
            r["seat"], r["card"], "%s (face %s)" % (d["card"], d["face"]) if d else
            "no defence", r["points"], "" if r["points"] == 1 else "s", r["side"],
            ", doubled (a master stroke)" if r["doubled"] else ""))
        if after["phase"] == "over":
            out.append("the game is over: won by %s" % after["winner"])
        else:
            out.append("round %d begins, %s first" % (after["round"], after["first"]))
        return "; ".join(out)
    if cancelled:
        return "the round is cancelled (K11) and dealt again, %s first" % after["first"]
    for seat in after["lines"]:
        for part in ("defence", "attack"):
            new = _new_cards(before, after, seat, part)
            if new is None:
                out.append("%s takes back its %s" % (
                    seat, "counter" if before["lines"][seat][part][-1]["face"] == "up"
                    else "defence"))
                continue
            for e in new:
                where = " from the centre" if e["from"] == "centre" else ""
                if part == "attack":
                    out.append("%s attacks with %s%s" % (seat, e["card"], where))
                elif e["face"] == "down":
                    out.append("%s lays a defence face down%s" % (seat, where))
                else:
                    out.append("%s counters with %s%s" % (seat, e["card"], where))
    for seat in after["passed"]:
        if seat not in before["passed"]:
            out.append("%s passes" % seat)
    b, a = before["claim"], after["claim"]
    if a is not None and b is None:
        out.append("a 5-Soldier claim is opened")
    elif a is not None and b is not None:
        if a["step"] != b["step"]:
            out.append({"cards": "%s claims: it shows its Soldiers" % a["seat"],
                        "answer": "%s has shown five Soldiers: its partner answers"
                                  % a["seat"]}.get(a["step"], "claim: %s" % a["step"]))
        elif a["seat"] != b["seat"]:
            out.append("%s highlighted" % a["seat"])
        for c in a["soldiers"][len(b["soldiers"]):]:
            out.append("%s shows %s" % (a["seat"], c))
    elif b is not None and a is None:
        out.append("the claim is over: play on")
    return "; ".join(out)


def hint(rep, acting):
    """What to do now, in a sentence, from the public report."""
    turn = rep["turn"]
    if rep["phase"] == "over":
        return "The game is over: won by %s. Set up a new game below." % rep["winner"]
    if rep["phase"] == "claim":
        c = rep["claim"]
        if c["step"] == "seat":
            return ("A 5-Soldier claim: choose the claimant (click a seat's claim button, or "
                    "next/prev then ok); back withdraws it.")
        if c["step"] == "cards":
            return ("%s shows its hand and clicks five different Soldiers, then done; back "
                    "withdraws the claim." % c["seat"])
        return "%s, the partner, answers: ok cancels the round (a new deal), back plays on." \
            % acting
    step = rep["step"]
    if step == "open":
        return ("%s shows its hand and clicks a card to lay face down in defence (the others "
                "look away), then its attack." % turn)
    if step == "attack":
        return "%s clicks its attack card (back takes back its defence or counter)." % turn
    if step == "respond":
        a = rep["attack"]
        return ("%s answers %s's %s: click an identical card (or an Empress, but not against "
                "a Soldier or a Spear) to counter, or done to pass." % (
                    turn, a["seat"], a["card"]))
    return ""


class WebGame:
    def __init__(self, board, seed, options=None):
        self.board = board
        self.sim = Simulation(board)
        self.line = 0
        self.new_game([] if options is None else options, seed)

    # ------------------------------------------------------------ set-up

    def new_game(self, options, seed):
        settings = settings_from(options, seed)
        self.settings = settings
        self.sim.kit.start(settings)
        before = public_report(self.game)
        self.sim.kit.after()  # the board's seats play until a person is to act
        self.sim.advance(SETTLE_MS)
        self.seen = public_report(self.game)
        moved = describe(before, self.seen) if self.seen != before else ""
        self.message = {"kind": "note", "code": None,
                        "text": "New game: %d players, %s to %d, %s opens%s.%s" % (
                            settings["players"], settings["mode"], settings["target"],
                            settings["first"], "; the board plays %s" % " and ".join(
                                self.ai) if self.ai else "",
                            " The board: %s." % moved if moved else "")}

    @property
    def game(self):
        return self.sim.app.game

    @property
    def ai(self):
        """The seats the board plays (a list of seat names; empty in hot seat)."""
        return list(self.settings.get("ai") or [])

    # ------------------------------------------------------------ actions

    def act(self, op, req):
        if op == "tap":
            card = req["card"]
            if not isinstance(card, str):
                raise WebError("a card is named by a text, got %r" % (card,))
            if deck.index(card) < 0 and not card.startswith("uid:"):
                raise WebError("%r is not one of Kami's cards (%s; or uid:HEX, a tag that "
                               "is no card)" % (card, CARDS_ARE))
            self._run(["tap", card])
        elif op == "press":
            if req["button"] not in ROLES:
                raise WebError("unknown button %r" % (req["button"],))
            self._run(["press", req["button"]])
        elif op == "pick":
            seat = req["seat"]
            if seat not in SEATS:
                raise WebError("pick names a seat p1..p4, got %r" % (seat,))
            self._run(["pick", seat])
        else:
            raise WebError("unknown request %r" % (op,))

    def _run(self, command):
        sim = self.sim
        before = public_report(self.game)
        refused = len(sim.rejected)
        self.line += 1
        sim.execute([self.line] + command)
        sim.advance(SETTLE_MS if command[0] != "press" else max(0, SETTLE_MS - PRESS_MS))
        after = public_report(self.game)
        self.seen = after
        if len(sim.rejected) > refused:
            r = sim.rejected[refused]
            # 8.3: a refused face-down defence names no card, not even in its words
            text = ("the card is not named (a face-down defence)" if r["code"] != "unknown-card"
                    and command[0] == "tap" and sim.private else r["message"])
            self.message = {"kind": "refused", "code": r["code"], "text": text}
            return
        cancelled = (command == ["press", "ok"] and before["claim"] is not None
                     and before["claim"]["step"] == "answer")
        self.message = {"kind": "accepted", "code": None,
                        "text": describe(before, after, cancelled)}

    def hand(self, player):
        """The cards `player` (a seat) holds: shown only when that seat asks."""
        names = seat_names(self.game.players)
        if player not in names:
            raise WebError("player must be one of %s, got %r" % (", ".join(names), player))
        if player in self.ai:
            raise WebError("%s is the board's: its cards are its own" % player)
        return gamereport.seat_view(self.game, names.index(player))["hand"]

    # ------------------------------------------------------------ state

    def state(self):
        rep = public_report(self.game)
        if rep != self.seen:  # the board's seats played in its own ticks
            self.message = {"kind": "accepted", "code": None,
                            "text": "the board: " + describe(self.seen, rep)}
            self.seen = rep
        s = acting_seat(self.game)
        acting = seat_names(self.game.players)[s] if s >= 0 else None
        solo = self.sim.app.solo
        return {
            "source": "local",
            "report": rep,
            "acting": acting,
            "undo": self.sim.app.referee.can_undo(),
            "hint": hint(rep, acting),
            "message": self.message,
            "settings": {k: v for k, v in self.settings.items() if k not in DEAL_KEYS},
            "board_players": board_players(),
            "solo": {"ai": self.ai, "asks": solo.say() if solo is not None else ""}
            if self.ai else None,
            "now": self.sim.now,
        }

    def leds(self):
        return self.sim.np.rgb()
