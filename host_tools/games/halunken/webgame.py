"""Halunken & Spelunken's side of the browser page (host_tools/web/game.py, the `webgame`
host part): the simulator with a deck dealt from a seed (`deal=seed`: the board makes every
take and turns Black-Jack's cards, H33), played by clicks, every seat at one screen (hot
seat).

Halunken's requests (beside the page's own: start, new_game, tick, state, hand, scenario):

    {"op": "tap", "card": C}       a card on the scanner: a crew card (an offer, a theft),
                                   or a movement card chosen face down
    {"op": "press", "button": B}   next, prev, ok, back, done
    {"op": "pick", "option": X}    a tavern `T5` or a RUM number `4`, through the buttons

`new_game`'s options are scenario option values (players=3, mode=standard, first=p2; `ai`
once the board has its own player: the simulator's game side plays its seats after every
command, as `sim --ai` does, so the page only asks and shows);
`hand` gives the movement cards a seat has not played (or, in a won tactical round,
Black-Jack's: `blackjack`), which the page shows only when that seat asks. The state is
what any onlooker may see (docs/halunken.md, 8.3): the report without `hidden`, the deal's
settings left out (the seed would tell the piles); after a secret choice only "p2 has
chosen", the same for every card.
"""

from games.halunken import deck
from games.halunken import report as gamereport
from games.halunken.report import DEAL_KEYS
from games.halunken.rules import BJ
from games.halunken.settings import check_settings
from host_tools.games.halunken import webcheck
from host_tools.games.halunken.verbs import check_option
from host_tools.simulator.engine import Simulation
from host_tools.simulator.scenario import ScenarioError
from host_tools.web.weberror import WebError

ERRORS = ()  # a bad request is a WebError or a ValueError
# What the page's form sets: `ai` (the seats the board plays, `ai=p2,p3` as `sim --ai`) only
# once the scenario language takes it, i.e. once the game has the board's own player.
FORM_KEYS = ("players", "mode", "first", "ai")


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
    out = {"players": 3}
    for text in options:
        try:
            key, value = check_option(str(text), 0)
        except ScenarioError as e:
            raise WebError(e.message) from e
        if key not in FORM_KEYS:
            raise WebError("option %s is not the page's: it deals from the seed" % key)
        out[key] = value
    out["deal"] = "seed"
    out["seed"] = int(seed) & 0x7FFFFFFF
    try:
        return check_settings(out)
    except ValueError as e:
        raise WebError("the options disagree: %s" % e) from e


def public_report(game):
    rep = gamereport.game(game)
    del rep["hidden"]
    return rep


def describe(before, after):
    """What an accepted event changed, in words, from two public reports."""
    out = []
    if after["round"] != before["round"] and after["phase"] != "over" and after["round"]:
        out.append("round %d begins" % after["round"])
    b_cards, a_cards = before["round_cards"], after["round_cards"]
    if a_cards and not b_cards:
        out.append("revealed: " + ", ".join(
            "%s %s%s" % (f, c["card"], " (cancelled)" if c["cancelled"] else "")
            for f, c in sorted(a_cards.items())))
    a, b = after["auction"], before["auction"]
    if a is not None and b is not None and len(a["words"]) > len(b["words"]):
        for w in a["words"][len(b["words"]):]:
            out.append("%s %s" % (w["seat"], "offers " + w["card"] if w["card"] else "passes"))
    for s, where in sorted(after["captains"].items()):  # MicroPython's dicts keep no order
        if where != before["captains"].get(s) and where is not None:
            out.append("%s to %s" % (s, where))
    if after["blackjack"] != before["blackjack"] and after["blackjack"] is not None:
        out.append("Black-Jack to %s" % after["blackjack"])
    for s, crew in sorted(after["crews"].items()):
        got = [c for c in crew if c not in before["crews"].get(s, [])]
        lost = [c for c in before["crews"].get(s, []) if c not in crew]
        if got:
            out.append("%s takes %s" % (s, " ".join(got)))
        if lost:
            out.append("%s gives up %s" % (s, " ".join(lost)))
    port = [c for c in after["port"] if c not in before["port"]]
    if port:
        out.append("%s into the port" % " ".join(port))
    if after["phase"] == "over" and before["phase"] != "over":
        out.append("the game is over: won by %s" % " and ".join(after["winner"]))
    return "; ".join(out)


def hint(rep):
    """What to do now, in a sentence, from the public report."""
    turn = rep["turn"]
    fig = rep["figure"]
    st = rep["step"]
    if rep["phase"] == "over":
        return "The game is over: won by %s. Set up a new game below." % (
            " and ".join(rep["winner"]))
    if st == "place":
        return ("%s places its captain: click a vacant tavern (or next/prev to the blinking "
                "one, then ok)." % turn)
    if st == "place-bj":
        return "%s places Black-Jack: click a vacant tavern." % turn
    if st == "auction":
        return ("%s's word in the auction: click a card of %s's crew worth more than the high "
                "offer, or done to %s." % (turn, turn, "withdraw" if rep["mode"] == "tactical"
                                           else "pass"))
    if st == "choose":
        what = "Black-Jack's movement card" if fig == "blackjack" else "a movement card"
        return ("%s chooses %s in secret: pass the screen to %s, who shows the cards and "
                "clicks one. The others look away." % (turn, what, turn))
    if st == "reveal":
        return "Every card is chosen: ok reveals them."
    if st == "rum":
        return ("%s's RUM: choose the number it counts as (click one, or next/prev, then ok)."
                % turn)
    if st == "steal":
        return ("%s may take one card from %s: click it, or done to take nothing." % (
            turn, " or ".join(rep["from"] or [])))
    if st == "rob":
        return ("Black-Jack robs: %s clicks the card taken from %s%s." % (
            turn, " or ".join(rep["from"] or []), ", or done to take nothing"
            if rep["auction"] is not None and rep["auction"]["winner"] else ""))
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
        self.message = {"kind": "note", "code": None,
                        "text": "New game: %d players, %s game, %s places first." % (
                            settings["players"], settings["mode"], settings["first"])}
        self.seen = public_report(self.game)  # what the page was last told

    @property
    def game(self):
        return self.sim.app.game

    @property
    def ai(self):
        """The seats the board plays (a list of seat names; empty in hot seat)."""
        ai = self.settings.get("ai") or []
        return ai.split(",") if isinstance(ai, str) else list(ai)

    # ------------------------------------------------------------ actions

    def act(self, op, req):
        if op == "tap":
            self._run(["tap", webcheck.card(req, self.sim.names)])
        elif op == "press":
            self._run(["press", webcheck.button(req)])
        elif op == "pick":
            self._run(["pick", webcheck.option(req)])
        else:
            raise WebError("unknown request %r" % (op,))

    def _run(self, command):
        sim = self.sim
        before = public_report(self.game)
        turn, fig = gamereport.expected(self.game)  # who chooses now (public)
        refused = len(sim.rejected)
        self.line += 1
        sim.execute([self.line] + command)
        if len(sim.rejected) > refused:
            r = sim.rejected[-1]
            self.message = {"kind": "refused", "code": r["code"], "text": r["message"]}
            return
        after = public_report(self.game)
        if sim.private:  # a secret choice: the same words for every card (8.3)
            text = "%s has chosen%s" % (gamereport.seat(turn),
                                         " Black-Jack's card" if fig == BJ else "")
        else:
            text = describe(before, after)
        self.message = {"kind": "accepted", "code": None, "text": text}
        self.seen = after

    def board_acted(self):
        """The board's players acted in a tick, after the last request (host_tools/web/
        game.py): their moves join the message, in the words of the public reports (a
        secret choice has none: only the count of chosen cards shows it)."""
        after = public_report(self.game)
        text = describe(self.seen, after)
        self.seen = after
        if not text:
            return
        m = self.message
        if m["kind"] == "accepted":
            text = "; ".join(t for t in (m["text"], text) if t)
            self.message = {"kind": "accepted", "code": None, "text": text}
        else:  # after a new game's note, or in place of a refusal: said apart
            said = m["text"] + " " if m["kind"] == "note" else ""
            self.message = {"kind": "note", "code": None,
                            "text": "%sThe board: %s." % (said, text)}

    def hand(self, player):
        """The movement cards `player` (a seat, or `blackjack` in tactical) has not
        played: public (played cards are), shown when the seat asks."""
        g = self.game
        rep = public_report(g)
        if player in self.ai:
            raise WebError("%s is the board's: its cards are its own" % player)
        if player == "blackjack" and g.mode == "tactical":
            used = rep["bj_cards"]
            return [gamereport.move_name(g, BJ, m) for m in range(deck.MOVES)
                    if gamereport.move_name(g, BJ, m) not in used]
        if player not in rep["captains"]:
            raise WebError("player must be one of %s, got %r" % (
                ", ".join(rep["captains"]), player))
        s = int(player[1:]) - 1
        played = rep["played"][player]
        return [gamereport.move_name(g, s, m) for m in range(deck.MOVES)
                if gamereport.move_name(g, s, m) not in played]

    # ------------------------------------------------------------ state

    def state(self):
        rep = public_report(self.game)
        ref = self.sim.app.referee
        names = ref.option_names()
        return {
            "source": "local",
            "report": rep,
            "ui": {"options": [str(n) for n in names], "sel": ref.sel if names else None},
            "hint": hint(rep),
            "message": self.message,
            "settings": {k: v for k, v in self.settings.items() if k not in DEAL_KEYS},
            "board_players": board_players(),
            "solo": {"ai": self.ai, "asks": self.sim.app.solo.say()
                     if self.sim.app.solo is not None else ""} if self.ai else None,
            "now": self.sim.now,
        }

    def leds(self):
        return self.sim.np.rgb()
