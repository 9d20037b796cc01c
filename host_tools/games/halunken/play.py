"""`python -m host_tools sim --game halunken` with no scenario: play Halunken & Spelunken
on the simulated board in a terminal, every seat at one screen (hot seat), with a deck
dealt from a seed (`--seed N`, else a random one, shown so the game can be replayed).

After every command the screen shows the ring of 14 taverns drawn with text in the colours
of the LED strip's last frame (each space's light, its pile light, the seats' lights, the
port, the rounds), and what the players may know: steps, crews, the port, the top cards,
the auction, how many have chosen. Never a secret choice: while movement cards are chosen
the typed line is not echoed (a terminal's password input), piped input is echoed as
`(hidden)`, and the screen says only "p2 has chosen". With `--ai p2,p3` the board plays
those seats (games/halunken/solo.py): their events are said in words after each command,
their movement cards never before the reveal. Commands are the scenario language
of docs/scenarios.md (`pick T5`, `tap P1-4`, `press ok`, ...), also without their verb
(`T5`, `4`, `P1-4`, `ok`), plus `help` and `quit`.
"""

import getpass
import os
import sys

from core import frame
from games.halunken import deck, walks
from games.halunken import report as gamereport
from games.halunken.rules import BJ
from games.halunken.settings import check_settings
from host_tools.games.halunken import verbs
from host_tools.simulator.engine import Simulation
from host_tools.simulator.scenario import BUTTONS, ScenarioError, card_names, parse_line

# The screen is drawn once the flashes are over and the figures' walks have arrived.
SETTLE_MS = -(-max(frame.ERROR_MS, frame.ACK_MS, walks.BUDGET_MS) // 1000) * 1000
BOARD_TURNS = 60  # at most this many settles for the board's seats after one command
PROMPT = "halunken> "
QUIT_WORDS = ("quit", "exit")
TAKES = ("players", "mode")  # the settings `sim` passes on (--players, --mode)
AI_SIDES = None  # --ai names seats (p2,p3): checked with the settings, not by `sim`
SEATS = ("p1", "p2", "p3", "p4")
# The ring, clockwise: T1..T5 along the top, T6..T7 down the right, T8..T12 back along
# the bottom, T13..T14 up the left.
TOP = (0, 1, 2, 3, 4)
RIGHT = (5, 6)
BOTTOM = (11, 10, 9, 8, 7)
LEFT = (13, 12)
CELL = 14  # a space's width on screen

HELP = """\
Commands (the scenario language, docs/scenarios.md; the verb may be left out)
  pick T5 (T5)     place a captain or Black-Jack on a vacant space
  pick 4 (4)       the number a RUM counts as
  tap RED-7        an offer in the auction, a card stolen or given up
  tap P2-5 (P2-5)  a movement card, face down: the line you type is not shown
  next, prev, ok   move through an option list and confirm; ok also reveals
  done             pass (auction), take nothing (a theft)
  back             take the last event back
  power-cut        cut the power and boot again
  help, quit"""


def colour_mode(stream):
    if os.environ.get("NO_COLOR"):
        return None
    forced = os.environ.get("FORCE_COLOR")
    if not forced and not (hasattr(stream, "isatty") and stream.isatty()):
        return None
    if os.environ.get("COLORTERM", "").lower() in ("truecolor", "24bit"):
        return "truecolor"
    return "256"


def shown(rgb, brightness):
    """A pixel as the eye sees it: the brightness undone, dim lights lifted."""
    return tuple(int(round(255 * min(1.0, v / (255.0 * brightness)) ** 0.5)) for v in rgb)


def paint(mode, text, rgb):
    if mode is None or rgb is None or max(rgb) < 30:
        return text
    if mode == "truecolor":
        code = "38;2;%d;%d;%d" % tuple(rgb)
    else:
        code = "38;5;%d" % (16 + 36 * (rgb[0] * 5 // 255) + 6 * (rgb[1] * 5 // 255)
                            + rgb[2] * 5 // 255)
    return "\x1b[1;%sm%s\x1b[0m" % (code, text)


def public(sim):
    """The report the players may see: no `hidden`."""
    r = sim.game_def.report(sim.app.game)
    del r["hidden"]
    return r


def ring(sim, r, mode):
    """The ring of taverns as text lines, in the lights' colours."""
    board = sim.board
    leds = sim.np.rgb()
    bright = board.brightness

    def light(i):
        return shown(leds[i], bright)

    def cell(t):
        name = "T%d" % (t + 1)
        who = [s for s in r["captains"] if r["captains"][s] == name]
        if r["blackjack"] == name:
            who.append("BJ")
        fig = paint(mode, ("%-3s %-5s" % (name, "+".join(who)))[:9], light(board.space_led[t]))
        left = r["taverns"][name]["left"]
        pile = paint(mode, ("#" * left).ljust(3) if left else "---", light(board.pile_led[t]))
        return fig + " " + pile + " "

    lines = ["".join(cell(t) for t in TOP)]
    inner = CELL * (len(TOP) - 2)
    for a, b in zip(LEFT, RIGHT):
        lines.append(cell(a) + " " * inner + cell(b))
    lines.append("".join(cell(t) for t in BOTTOM))
    seats = "  ".join(paint(mode, s, light(board.seat_led[i]))
                      for i, s in enumerate(r["captains"]))
    rounds = "".join(paint(mode, "o", light(i)) if max(leds[i]) else "."
                     for i in board.round_led)
    lines.append("seats %s   port %s   rounds %s" % (
        seats, paint(mode, "[%d]" % len(r["port"]), light(board.port_led)), rounds))
    return lines


def status(r):
    lines = []
    if r["phase"] == "over":
        lines.append("The game is over: won by %s." % " and ".join(r["winner"]))
    else:
        who = r["turn"] or "anyone"
        fig = r["figure"]
        lines.append("Round %d, %s: %s%s" % (
            r["round"], r["step"], who,
            " (for %s)" % fig if fig is not None and fig != who else ""))
        if r["options"] is not None:
            lines.append("  options: %s" % " ".join(str(o) for o in r["options"]))
        if r["from"] is not None:
            lines.append("  take from: %s" % " ".join(r["from"]))
        if r["step"] in ("choose", "reveal"):
            lines.append("  %d movement card(s) chosen, face down" % r["chosen"])
    for s in r["captains"]:
        lines.append("  %s on %s: crew %s (%d)%s" % (
            s, r["captains"][s] or "-", " ".join(r["crews"][s]) or "none", r["scores"][s],
            "; played " + " ".join(r["played"][s]) if r["played"][s] else ""))
    lines.append("  port: %s" % (" ".join(r["port"]) or "empty"))
    tops = ["%s %s" % (t, v["top"]) for t, v in r["taverns"].items() if v["top"]]
    if tops:
        lines.append("  top cards: %s" % ", ".join(tops))
    a = r["auction"]
    if a is not None:
        words = ", ".join("%s %s" % (w["seat"], w["card"] or "passes") for w in a["words"])
        lines.append("  auction (opened by %s): %s%s" % (
            a["opener"], words or "no word yet",
            "; won by %s" % a["winner"] if a["winner"] else ""))
    for f, c in r["round_cards"].items():
        lines.append("  %s revealed %s%s" % (f, c["card"],
                                             " (cancelled)" if c["cancelled"] else ""))
    return lines


def secret_step(sim):
    return sim.app.game.step == "choose"


def read(sim, stdin, interactive):
    """One line of input; during the secret choice not echoed."""
    if secret_step(sim):
        if interactive:
            return getpass.getpass(PROMPT + "(your card is not shown) ")
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
    """A bare word as the command it stands for: `T5`/`4` pick, a card name tap, a
    button press."""
    words = text.split()
    if len(words) != 1:
        return text
    w = words[0]
    if w in BUTTONS:
        return "press " + w
    if w in verbs.SPACES or w in ("1", "2", "3", "4", "5", "6", "7"):
        return "pick " + w
    if w[:1].isalpha() and "-" in w:
        return "tap " + w
    return text


def boards_turn(game):
    """Whether only the board's seats are to act now (a person has nothing to do)."""
    acting = game.to_act() if not game.is_over() else ()
    return bool(acting) and all(i in game.ai_seats for i in acting)


def run_line(sim, text, line_no, cards):
    """Run one typed line; the message to show (a refusal, an error), or None."""
    try:
        cmd = parse_line(expand(text), line_no, sim.board, cards, True, verbs)
    except ScenarioError as e:
        if secret_step(sim):  # its words would repeat what was typed, unseen
            return ("neither a card of this game nor a command (what you typed is not shown); "
                    "help lists the commands")
        return e.message
    if cmd is None:
        return None
    if cmd[1] == "option":
        return "options are settings: start again with --players N --mode M --seed N"
    refused = len(sim.rejected)
    turn, fig = gamereport.expected(sim.app.game)  # who chooses now (public)
    sim.execute(cmd)
    sim.advance(SETTLE_MS)
    for _ in range(BOARD_TURNS):  # the board's seats play on, each after the walks it
        if not boards_turn(sim.app.game):  # waits for (their lights are followed)
            break
        sim.advance(SETTLE_MS)
    if cmd[1] == "expect" and sim.failures:
        return sim.failures.pop()
    if len(sim.rejected) > refused:
        r = sim.rejected[-1]
        return "refused: %s (%s)" % (r["code"], r["message"])
    if sim.private:
        return "%s has chosen%s." % (gamereport.seat(turn),
                                     " Black-Jack's card" if fig == BJ else "")
    return None


def board_moves(sim):
    """The board's seats' events since the last call (the solo's log, emptied), in words:
    never which movement card (8.3)."""
    solo = sim.app.solo
    if solo is None:
        return []
    if solo.log is None:  # a new game's or a rebooted board's player
        solo.log = []
    out = []
    for seat, act in solo.log:
        who = "%s (the board)" % SEATS[seat]
        kind, arg = act[0], act[-1]
        if kind == "choose":
            out.append("%s has chosen%s." % (who, " Black-Jack's card" if act[1] == BJ
                                             else ""))
        elif kind == "offer":
            out.append("%s offers %s." % (who, deck.crew_name(arg)))
        elif kind == "pass":
            out.append("%s passes." % who)
        elif kind in ("steal", "rob"):
            out.append("%s %s." % (who, "takes nothing" if arg < 0
                                   else "picks " + deck.crew_name(arg)))
        elif kind in ("place", "place_bj"):
            out.append("%s places %s on %s." % (who, "Black-Jack" if kind == "place_bj"
                                                else "its captain", deck.space_name(arg)))
        elif kind == "rum":
            out.append("%s names %d for its RUM." % (who, arg))
    del solo.log[:]
    return out


def main(board, board_path, runtime, ai, seed, players=None, mode=None):
    if runtime != "cpython":
        print("sim: terminal play runs on CPython (--runtime cpython)", file=sys.stderr)
        return 2
    if seed is None:
        seed = int.from_bytes(os.urandom(3), "little")
    settings = {"players": players or 3, "deal": "seed", "seed": seed}
    if mode is not None:
        settings["mode"] = mode
    if ai is not None:
        settings["ai"] = ai.split(",")
    try:
        check_settings(settings)
    except ValueError as e:
        print("sim: %s" % e, file=sys.stderr)
        return 2
    sim = Simulation(board)
    sim.kit.start(settings)
    board_moves(sim)  # the board's player keeps a log from now on
    sim.advance(SETTLE_MS)
    mode_ = colour_mode(sys.stdout)
    interactive = sys.stdin.isatty()
    cards = card_names(board)
    r = public(sim)
    print("Halunken & Spelunken, %d players, %s game, deck dealt from seed %d "
          "(--seed %d replays it)%s. help lists the commands." % (
              r["players"], r["mode"], seed, seed,
              "; the board plays " + ", ".join(settings["ai"]) if ai is not None else ""))
    message = None
    line_no = 0
    while True:
        r = public(sim)
        print("\n".join(ring(sim, r, mode_)))
        print("\n".join(status(r)))
        if message:
            print(message)
        said = board_moves(sim)
        if said:
            print("\n".join(said))
        try:
            text = read(sim, sys.stdin, interactive)
        except EOFError:
            print()
            return 0
        except KeyboardInterrupt:
            print()
            return 0
        line_no += 1
        word = text.strip().lower()
        if word in QUIT_WORDS:
            return 0
        if word == "help":
            message = HELP
            continue
        message = run_line(sim, text, line_no, cards)
