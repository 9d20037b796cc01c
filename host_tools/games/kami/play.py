"""`python -m host_tools sim --game kami` with no scenario: play Kami on the simulated
board in a terminal, every seat at one screen (hot seat), with the cards dealt from a seed
(`--seed N`, else a random one, shown so the game can be replayed; `--players N`, 4 by
default).

After every command the screen shows the table drawn with text in the colours of the LED
strip's last frame: each seat's light (pulsing: to act; steady: the attacker; dim: passed)
with its defence and attack lines and hand size, the defence lights, the Empress light,
the centre stacks in 2 players and the score tracks. Never a hidden card: face-down
defences are drawn as `##` (K21: only a round's final one is shown, in its score line),
no hand is on screen unless the seat to act asks (`hand`), and while a face-down defence
is entered the typed line is not echoed (a terminal's password input; piped input is
echoed as `(hidden)`) and the board's answer names no card. Commands are the scenario
language of docs/scenarios.md (`tap OR-1`, `press done`, `pick p2`, ...), also without
their verb (`OR-1`, `done`, `p2`), plus `hand`, `help` and `quit`.

With `--ai p2,p3,p4` the board plays those seats (games/kami/solo.py, setting `ai`): after
every command they play until a person is to act (the simulator's game side,
simgame.after), and their events are said in words: an attack, a counter, a pass, a claim,
a defence only as "laid a defence face down" (8.3). `hand` never shows a board seat's
hand; when one person plays alone, its own hand is shown on every screen (nobody else
looks), else each person asks for it on its turn (hot seat).
"""

import getpass
import os
import sys

from core import frame
from games.kami import deck
from games.kami import report as gamereport
from games.kami.controller import acting_seat
from games.kami.settings import check_settings
from host_tools.games.kami import verbs
from host_tools.simulator.engine import Simulation
from host_tools.simulator.scenario import BUTTONS, ScenarioError, card_names, parse_line
from host_tools.termcolour import colour_mode, paint, shown

SETTLE_MS = -(-max(frame.ERROR_MS, frame.ACK_MS) // 1000) * 1000  # flashes are over
PROMPT = "kami> "
QUIT_WORDS = ("quit", "exit")
TAKES = ("players",)  # the settings `sim` passes on (--players)
AI_SIDES = None  # --ai names seats (p2,p3): checked with the settings, not by `sim`

HELP = """\
Commands (the scenario language, docs/scenarios.md; the verb may be left out)
  tap OR-1 (OR-1)   the card the board waits for: a face-down defence (what you type is
                    not shown), an attack, a counter, a Soldier of a claim
  done              pass (or end a claim's Soldiers)
  back              take back this turn's defence or counter; withdraw a claim, play on
  discard           open a 5-Soldier claim (4 players, before the round's first card)
  next, prev, ok    choose the claimant; ok cancels the round (the partner's answer)
  pick p2 (p2)      choose and confirm the claimant p2
  hand              show the hand of the seat to act (hot seat: the others look away;
                    never a hand of the board's seats)
  power-cut         cut the power and boot again
  help, quit"""


def secret_step(sim):
    """The next tap is a face-down defence (step open): its card is nobody else's
    business."""
    g = sim.app.game
    return g.phase == "play" and g.reveal < 0 and g.step == "open"


def public(sim):
    """The report the players may see: face-down cards unnamed, no hand, nothing hidden."""
    g = sim.app.game
    r = gamereport.public(g)
    r["players"] = g.players
    r["mode"] = g.mode
    r["target"] = g.target
    return r


def _card(e):
    return (e["card"] if e["face"] == "up" else "##") + ("*" if e["from"] == "centre" else "")


def table(sim, r, mode):
    """The table as text lines, in the lights' colours."""
    board = sim.board
    leds = sim.np.rgb()

    def light(i):
        return shown(leds[i], board.brightness)

    lines = []
    for s, seat in enumerate(r["lines"]):
        line = r["lines"][seat]
        mark = ">" if seat == r["turn"] else " "
        lines.append("%s %s  %s defence %-24s attack %-28s %d in hand" % (
            mark, paint(mode, seat, light(board.seat_led[s])),
            paint(mode, "[]", light(board.defence_led[s])),
            " ".join(_card(e) for e in line["defence"]) or "-",
            " ".join(_card(e) for e in line["attack"]) or "-", r["hand_sizes"][seat]))
    lines.append("  %s" % paint(mode, "Empress %s" % ("unlocked" if r["empress_unlocked"]
                                                       else "locked"),
                                light(board.empress_led)))
    if r["centre"] is not None:
        lines.append("  centre: " + " ".join(
            paint(mode, "%d:%s(%d)" % (i + 1, s["up"] or "-", s["left"]),
                  light(board.centre_led[i])) for i, s in enumerate(r["centre"])))
    for t, side in enumerate(r["scores"]):
        track = "".join(paint(mode, "o", light(i)) if max(leds[i]) else "."
                        for i in board.track_led[t])
        lines.append("  %-6s %s %d" % (side, track, r["scores"][side]))
    return lines


def status(r):
    lines = []
    if r["phase"] == "over":
        lines.append("The game is over: won by %s." % r["winner"])
    else:
        step = {"deal": "waiting for the deal", "centre": "the centre's face-up cards, "
                "stack 1 to 8", "claim": "a 5-Soldier claim"}.get(r["phase"], r["step"])
        lines.append("Round %d (first player %s), %s: %s" % (r["round"], r["first"], step,
                                                            r["turn"]))
    a = r["attack"]
    if a is not None and r["phase"] != "over":
        lines.append("  attack %s by %s%s" % (a["card"], a["seat"],
                                             "; passed " + " ".join(r["passed"])
                                             if r["passed"] else ""))
    c = r["claim"]
    if c is not None:
        lines.append("  claim by %s (%s): %s" % (c["seat"], c["step"],
                                                 " ".join(c["soldiers"]) or "no Soldier yet"))
    for x in r["rounds"][-3:]:
        d = x["defence"]
        lines.append("  round %d: %s ended with %s over %s%s, %d points" % (
            x["round"], x["seat"], x["card"], d["card"] if d else "no defence",
            " (doubled)" if x["doubled"] else "", x["points"]))
    return lines


def read(sim, stdin, interactive):
    """One line of input; a face-down defence's not echoed."""
    if secret_step(sim):
        if interactive:
            return getpass.getpass(PROMPT + "(face down: not shown) ")
        line = stdin.readline()
        if not line:
            raise EOFError
        print(PROMPT + "(hidden)")
        return line
    if interactive:
        return input(PROMPT)
    line = stdin.readline()
    if not line:
        raise EOFError
    print(PROMPT + line.rstrip("\n"))
    return line


def expand(text):
    """A bare word as the command it stands for: a button press, `p2` a pick, a card name
    a tap."""
    words = text.split()
    if len(words) != 1:
        return text
    w = words[0]
    if w == "power-cut":
        return w
    if w in BUTTONS:
        return "press " + w
    if w in verbs.SEATS:
        return "pick " + w
    if w[:1].isalpha() and "-" in w:
        return "tap " + w
    return text


def board_seats(sim):
    """The seats the board plays (indices; empty in hot seat)."""
    solo = sim.app.solo
    return list(solo.seats) if solo is not None else []


def hand(sim, seat=None):
    """The hand of `seat`, by default the seat the board waits for (hot seat: only that
    seat's), never one of the board's seats."""
    g = sim.app.game
    s = acting_seat(g) if seat is None else seat
    if s < 0:
        return "The game is over."
    if s in board_seats(sim):
        return "p%d is the board's seat: its hand is its own" % (s + 1)
    view = gamereport.seat_view(g, s)
    return "%s's hand: %s" % (view["seat"], " ".join(view["hand"]) or "empty")


def run_line(sim, text, line_no, cards):
    """Run one typed line; the message to show (a refusal, an error), or None."""
    secret = secret_step(sim)
    if text.split()[:1] == ["option"]:
        return "options are settings: start again with --players N --seed N"
    try:
        cmd = parse_line(expand(text), line_no, sim.board, cards, True, verbs)
    except ScenarioError as e:
        if secret:  # its words would repeat what was typed, unseen
            return ("neither a card of this game nor a command (what you typed is not shown); "
                    "hand shows your cards, help the commands")
        return e.message
    if cmd is None:
        return None
    if cmd[1] == "deal":
        return "the board deals from the seed: no deal to state"
    if cmd[1] == "expect":  # it reads the test tool's report, hidden cards and all
        return "expect is for scenarios: it could tell a hidden card"
    seat = public(sim)["turn"]
    refused = len(sim.rejected)
    sim.execute(cmd)
    sim.advance(SETTLE_MS)
    if len(sim.rejected) > refused:
        r = sim.rejected[-1]
        if sim.private or (secret and cmd[1] in ("tap", "hold")):
            return "refused: %s (the card is not named)" % r["code"]
        return "refused: %s (%s)" % (r["code"], r["message"])
    if secret and cmd[1] in ("tap", "hold"):
        return "%s laid a defence face down." % seat
    return None


def _said(who, act):
    kind = act[0]
    card = deck.NAMES[act[1]] if len(act) > 1 and kind != "pick" else None
    words = {"defend": "laid a defence face down",  # 8.3: never which card
             "attack": "attacks with %s" % card, "counter": "counters with %s" % card,
             "pass": "passes", "discard": "claims five Soldiers (K11)",
             "pick": "names p%d as the claimant" % (act[1] + 1) if kind == "pick" else "",
             "show": "shows %s" % card, "shown": "has shown its Soldiers",
             "withdraw": "withdraws the claim", "cancel": "cancels the round (K11)",
             "keep": "plays on"}.get(kind, kind)
    return "%s (the board) %s." % (who, words)


def board_moves(sim):
    """The board's seats' events since the last call (the solo's log, emptied), in words:
    never a face-down defence's card (8.3)."""
    solo = sim.app.solo
    if solo is None:
        return []
    if solo.log is None:  # a new game's or a rebooted board's player
        solo.log = []
    out = [_said("p%d" % (seat + 1), act) for seat, act in solo.log]
    del solo.log[:]
    return out


def own_hand(sim):
    """One person alone against the board: its own hand, shown on every screen; else
    None (hot seat: each asks on its turn)."""
    g = sim.app.game
    people = [s for s in range(g.players) if s not in board_seats(sim)]
    if not board_seats(sim) or len(people) != 1 or g.is_over():
        return None
    return hand(sim, people[0])


def main(board, board_path, runtime, ai, seed, players=None):
    if runtime != "cpython":
        print("sim: terminal play runs on CPython (--runtime cpython)", file=sys.stderr)
        return 2
    if seed is None:
        seed = int.from_bytes(os.urandom(3), "little")
    asked = {"players": players or 4, "seed": seed}
    if ai is not None:
        asked["ai"] = ai.split(",")
    try:
        settings = check_settings(asked)
    except ValueError as e:
        print("sim: %s" % e, file=sys.stderr)
        return 2
    sim = Simulation(board)
    sim.kit.start(settings)
    board_moves(sim)  # the board's player keeps a log from now on
    sim.kit.after()  # its seats play until a person is to act
    sim.advance(SETTLE_MS)
    mode = colour_mode(sys.stdout)
    interactive = sys.stdin.isatty()
    cards = card_names(board)
    print("Kami, %d players, %s mode, target %d, cards dealt from seed %d (--seed %d "
          "replays it)%s. help lists the commands." % (
              settings["players"], settings["mode"], settings["target"], seed, seed,
              "; the board plays " + ", ".join(settings["ai"]) if "ai" in settings else ""))
    message = None
    line_no = 0
    while True:
        r = public(sim)
        print("\n".join(table(sim, r, mode)))
        print("\n".join(status(r)))
        if message:
            print(message)
        said = board_moves(sim)
        if said:
            print("\n".join(said))
        mine = own_hand(sim)
        if mine and mine != message:
            print(mine)
        try:
            text = read(sim, sys.stdin, interactive)
        except (EOFError, KeyboardInterrupt):
            print()
            return 0
        line_no += 1
        word = text.strip().lower()
        if word in QUIT_WORDS:
            return 0
        if word == "help":
            message = HELP
            continue
        if word == "hand":
            message = hand(sim)
            continue
        message = run_line(sim, text, line_no, cards)
