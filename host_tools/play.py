"""`python -m host_tools sim` with no scenario: play on the simulated board in a terminal.

The firmware runs in CPython on virtual hardware (`simcore.Simulation`). After every command
the screen shows a picture of the board drawn with text, coloured with the LED strip's last
frame, and a status block: turn, phase, hands, supplies, scores, the open option list and
the last message. Commands are the scenario language of sim-contract.md, plus shorthands
(`next`, `ok`, `back`, `undo`, a bare card or connection name), `help` and `quit`.

Colours are plain ANSI escapes: 24-bit where the terminal says it has them (COLORTERM),
else the 256-colour palette, and none when standard output is not a terminal or NO_COLOR
is set. Piped input works too: each command is echoed after the prompt.
"""

import math
import os
import shutil
import sys
import traceback

from host_tools.narrate import describe
from host_tools.scenario import BUTTONS, ScenarioError, card_names, parse_line
from host_tools.simcore import Simulation
from kahuna import referee as refmod
from kahuna import rules

# After each command virtual time moves on by at least this much, so that an error flash,
# the acknowledgement of a private tap and a round's scoring animation (all under 2 s) are
# over and the board shows its steady state. It then moves on to the next whole second
# + 500 ms: the blinking options are lit then and the pending island's pulse is at its peak.
SETTLE_MS = 2000
SETTLE_PHASE_MS = 500

PROMPT = "kahuna> "
PLAYERS = rules.PLAYERS
SHORT_BUTTONS = {"undo": "back"}  # extra words for a button
QUIT_WORDS = ("quit", "exit")
COMMAND_WORDS = ("tap", "pick", "press", "hold", "wait", "power-cut", "option", "expect",
                 "help", "undo", "quit", "exit") + BUTTONS

HELP = """\
Commands (lower case works too)
  tap CARD       present a card to the scanner: tap HUNA-1 (or type HUNA-1)
  pick CONN      choose an offered connection and confirm it: pick ALOA-HUNA
                 (or type ALOA-HUNA)
  next, prev     move the highlight through the options;  ok  confirms it
  back, undo     withdraw pending cards, decline a free refill, leave the draw
                 phase, or take back the last action of this turn
  done           end the play phase; in the draw phase decline to draw; in
                 discard mode stop discarding
  discard        discard mode: then tap each card to discard, then done
  press BUTTON   the same buttons by name: next prev ok back done discard
  hold CARD MS   keep a card on the scanner for MS ms;  wait MS  let time pass
  power-cut      cut the power and boot again (the game resumes from flash)
  option K=V     before the first tap: variant=standard|alternative,
                 first=white|black, handicap=white:N|black:N (N 1..3)
  expect PATH V  check the JSON report: expect bridges.ALOA-HUNA white
  help           this text;  Enter shows the board;  quit, exit, Ctrl-D leave
How a turn is entered
  Deal     white taps their 3 cards (tap ALOA-1, ...), then black taps theirs.
  Place    tap HUNA-1 offers HUNA's connections: pick ALOA-HUNA puts your
           bridge there (or next/prev to move the highlight, then ok).
  Remove   tap two cards naming the ends of an opponent bridge (tap HUNA-1,
           tap ALOA-2), then pick ALOA-HUNA. Two cards of one island (HUNA-1,
           HUNA-2) remove any opponent bridge on HUNA.
  Discard  discard, tap each card, done.
  End      done ends the play phase; then tap the card you drew (tap KAHU-2),
           or done to decline (the opponent must draw next turn).
  Control  owning more than half of an island's connections takes it and
           removes the opponent's bridges there. A round ends when its last
           card is drawn; after round 3 the higher score wins.
On the board: %(free)s%(free)s%(free)s a free connection, a line with W or B a bridge of white or
  black, %(place)s an option, %(remove)s an opponent bridge to remove, %(sel)s the highlighted
  option, [HUNA] a pending card's island. The colours are those of the LEDs."""


def help_text(unicode):
    return HELP % Picture.glyphs(unicode)


# ------------------------------------------------------------------------------ colour

def colour_mode(stream):
    """None (plain text), "256" or "truecolor" for `stream`."""
    if os.environ.get("NO_COLOR"):
        return None
    forced = os.environ.get("FORCE_COLOR")
    if not forced and not (hasattr(stream, "isatty") and stream.isatty()):
        return None
    if os.environ.get("TERM") == "dumb" and not forced:
        return None
    if os.environ.get("COLORTERM", "").lower() in ("truecolor", "24bit"):
        return "truecolor"
    return "256"


def _cube(v):
    levels = (0, 95, 135, 175, 215, 255)
    return min(range(6), key=lambda i: abs(levels[i] - v))


def ansi256(rgb):
    r, g, b = rgb
    if max(rgb) - min(rgb) < 12:  # a grey: the 24-step grey ramp is finer
        level = (r + g + b) // 3
        if level < 4:
            return 16
        if level > 246:
            return 231
        return 232 + min(23, (level - 3) // 10)
    return 16 + 36 * _cube(r) + 6 * _cube(g) + _cube(b)


class Painter:
    def __init__(self, mode):
        self.mode = mode

    def _code(self, base, rgb):
        if self.mode == "truecolor":
            return "%d;2;%d;%d;%d" % (base, rgb[0], rgb[1], rgb[2])
        return "%d;5;%d" % (base, ansi256(rgb))

    def paint(self, text, fg=None, bg=None, bold=False, reverse=False):
        if not self.mode or not text or (fg is None and bg is None and not bold
                                         and not reverse):
            return text
        codes = []
        if bold:
            codes.append("1")
        if reverse:
            codes.append("7")
        if fg is not None:
            codes.append(self._code(38, fg))
        if bg is not None:
            codes.append(self._code(48, bg))
        return "\x1b[%sm%s\x1b[0m" % (";".join(codes), text)


def shown_colour(led, brightness):
    """An LED's colour as the eye sees it: the brightness scaling undone, and lifted (a
    square root) so that dim colours, such as a free connection's, stay visible on screen."""
    out = []
    for v in led:
        u = min(1.0, v / (255.0 * brightness))
        out.append(int(round(255 * u ** 0.5)))
    return tuple(out)


def is_dark(rgb):
    return max(rgb) < 40


def text_on(bg):
    """Black or white text, whichever reads better on `bg`."""
    lum = 0.299 * bg[0] + 0.587 * bg[1] + 0.114 * bg[2]
    return (0, 0, 0) if lum > 140 else (255, 255, 255)


GREY = (120, 120, 120)


def readable(rgb, least=170):
    """`rgb` as a text colour on a dark background: the same hue, at least `least` bright
    in its strongest channel; grey for an LED that is off."""
    top = max(rgb)
    if top < 8:
        return GREY
    if top >= least:
        return rgb
    return tuple(min(255, v * least // top) for v in rgb)


# ------------------------------------------------------------------------------ picture

class Picture:
    """The board on a character grid: islands at their x/y positions, scaled, and each
    connection a line of cells between its two islands."""

    LABEL = 6  # " HUNA ": the name with a cell of tile on each side

    def __init__(self, board, width, height, unicode):
        self.board = board
        self.width = width
        self.height = height
        self.uni = unicode
        xs = [x for x, _ in board.island_xy]
        ys = [y for _, y in board.island_xy]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        self.centre = []  # (row, first column of the label)
        taken = []
        for x, y in board.island_xy:
            col = int(round((x - x0) * (width - self.LABEL) / max(1, x1 - x0)))
            row = int(round((y - y0) * (height - 1) / max(1, y1 - y0)))
            row = self._free_row(row, col, taken)
            taken.append((row, col))
            self.centre.append((row, col))
        self.label_cells = set()
        for row, col in self.centre:
            for c in range(col, col + self.LABEL):
                self.label_cells.add((row, c))
        self.cells = [self._line(a, b) for a, b in board.conn_ends]

    def _free_row(self, row, col, taken):
        """`row`, or the nearest row where the label does not touch another label."""
        for d in (0, 1, -1, 2, -2):
            r = row + d
            if 0 <= r < self.height and all(
                    r != tr or abs(col - tc) > self.LABEL for tr, tc in taken):
                return r
        return row

    def _line(self, a, b):
        """The cells of the line between islands a and b, one per step along its longer
        axis, each with its glyph's direction ('-', '|', '\\' or '/'). A shallow line is a
        run of '-' that steps down with a diagonal, a steep one a run of '|' that steps
        aside with one, and the others are diagonals all along."""
        ra, ca = self.centre[a]
        rb, cb = self.centre[b]
        half = self.LABEL / 2.0 - 0.5
        ca, cb = ca + half, cb + half
        dr, dc = rb - ra, cb - ca
        steps = max(1, int(round(max(abs(dc), abs(dr)))))
        diag = "\\" if (dr > 0) == (dc > 0) else "/"
        if abs(dc) >= 3 * abs(dr):
            run, axis = "-", 0  # the row changes now and then
        elif abs(dr) >= 1.5 * abs(dc):
            run, axis = "|", 1  # the column changes now and then
        else:
            run, axis = diag, None
        out = []
        seen = set()
        last = None
        for i in range(steps + 1):
            t = i / float(steps)
            p = (int(math.floor(ra + dr * t + 0.5)), int(math.floor(ca + dc * t + 0.5)))
            d = run
            if axis is not None and last is not None and p[axis] != last[axis]:
                d = diag
            last = p
            if p not in self.label_cells and p not in seen:
                seen.add(p)
                out.append((p[0], p[1], d))
        return out

    # -------------------------------------------------------------- drawing

    @staticmethod
    def glyphs(unicode):
        if unicode:
            return {"free": "·", "-": "─", "|": "│", "\\": "╲", "/": "╱",
                    "sel": "◆", "place": "+", "remove": "×", "picked": "?"}
        return {"free": ".", "-": "-", "|": "|", "\\": "\\", "/": "/",
                "sel": "@", "place": "+", "remove": "x", "picked": "?"}

    def render(self, game, ref, leds, painter, brightness):
        """Lines of text (with colour escapes when `painter` has a mode)."""
        b = self.board
        g = self.glyphs(self.uni)
        blank = (" ", None, None, False)
        grid = [[blank] * self.width for _ in range(self.height)]
        opts = {}
        for idx, (kind, k) in enumerate(ref.options):
            opts[k] = (kind, idx == ref.sel)
        # Free connections first, so bridges and options win where lines cross.
        order = sorted(range(len(b.connections)),
                       key=lambda k: (game.bridges[k] != rules.NOBODY or k in opts, k))
        for k in order:
            colour = readable(shown_colour(leds[b.conn_led[k]], brightness))
            owner = game.bridges[k]
            cells = self.cells[k]
            for r, c, d in cells:
                if owner == rules.NOBODY:
                    grid[r][c] = (g["free"], colour, None, False)
                else:
                    grid[r][c] = (g[d], colour, None, True)
            if not cells:
                continue
            mark = None
            if k in opts:
                kind, sel = opts[k]
                mark = g["sel"] if sel else g["remove"] if kind == refmod.REMOVE else g["place"]
            elif k == ref.picked:
                mark = g["picked"]
            elif owner != rules.NOBODY:
                mark = "W" if owner == rules.WHITE else "B"
            if mark is not None:
                r, c, _ = cells[len(cells) // 2]
                grid[r][c] = (mark, colour, None, True)
        pending = set(card // 2 for card in ref.pending)
        for i, (row, col) in enumerate(self.centre):
            colour = shown_colour(leds[b.island_led[i]], brightness)
            name = b.islands[i][:self.LABEL - 2].center(self.LABEL - 2)
            text = ("[%s]" if i in pending else " %s ") % name
            if painter.mode and not is_dark(colour):
                fg, bg = text_on(colour), colour
            else:
                fg, bg = (GREY if is_dark(colour) else colour), None
            for j, ch in enumerate(text):
                if 0 <= col + j < self.width:
                    grid[row][col + j] = (ch, fg, bg, True)
        lines = []
        for row in grid:
            out = []
            run = ""
            style = None
            for ch, fg, bg, bold in row:
                st = (fg, bg, bold)
                if st != style and run:
                    out.append(painter.paint(run, style[0], style[1], style[2]))
                    run = ""
                style = st
                run += ch
            if run:
                out.append(painter.paint(run, style[0], style[1], style[2]))
            lines.append("".join(out).rstrip())
        return lines


# ------------------------------------------------------------------------------ text

def wrap_words(words, width, first="", indent=""):
    """Lay `words` (pairs of visible text and painted text) out in lines of at most
    `width` visible characters, the first starting with `first`, the others with `indent`."""
    lines = []
    cur, vis = first, len(first)
    empty = True
    for plain, painted in words:
        extra = len(plain) + (0 if empty else 1)
        if not empty and vis + extra > width:
            lines.append(cur)
            cur, vis, empty = indent, len(indent), True
            extra = len(plain)
        cur += ("" if empty else " ") + painted
        vis += extra
        empty = False
    lines.append(cur)
    return lines


def cut(text, width):
    return text if len(text) <= width else text[:max(0, width - 3)] + "..."


class Session:
    """One interactive game: commands in, screens out."""

    def __init__(self, board, out=None, colour=None, unicode=None):
        self.board = board
        self.out = out or sys.stdout
        self.painter = Painter(colour_mode(self.out) if colour is None else colour)
        if unicode is None:
            unicode = "utf" in (getattr(self.out, "encoding", "") or "").lower()
        self.unicode = unicode
        self.sim = Simulation(board)
        self.cards = card_names(board)
        self.line = 0
        self.started = False
        self.message = ("Welcome to the Kahuna board simulator. Type help for the commands; "
                        "start by tapping white's 3 cards (tap ALOA-1).")
        self.message_style = None
        self.pictures = {}
        self.settle()

    # -------------------------------------------------------------- time

    def settle(self):
        sim = self.sim
        target = sim.now + SETTLE_MS
        target += (SETTLE_PHASE_MS - target) % 1000
        sim.advance(target - sim.now)

    # ----------------------------------------------------------- commands

    def normalise(self, text):
        """A typed line -> a scenario line (shorthands expanded, names in capitals); ""
        for a blank line or a comment. Anything else goes to the parser as it is."""
        words = text.split("#", 1)[0].split()
        if not words:
            return ""
        head = words[0].lower()
        rest = words[1:]
        if head in BUTTONS or head in SHORT_BUTTONS:
            # With more words, the parser's "usage: press BUTTON" says what is wrong.
            return " ".join(["press", SHORT_BUTTONS.get(head, head)] + rest)
        upper = words[0].upper()
        island, dash, other = upper.partition("-")
        if not rest and island in self.board.island_index and dash:
            # A bare name: ISLAND-1 is a card to tap, ISLAND-ISLAND a connection to pick.
            return ("tap " if other.isdigit() else "pick ") + upper
        if not rest and upper.startswith("UID:"):
            return "tap " + self._card(words[0])
        if head in ("tap", "hold") and rest:
            rest = [self._card(rest[0])] + rest[1:]
        elif head == "pick" and rest:
            rest = [rest[0].upper()] + rest[1:]
        elif head == "press" and rest:
            rest = [SHORT_BUTTONS.get(rest[0].lower(), rest[0].lower())] + rest[1:]
        return " ".join([head] + rest)

    @staticmethod
    def _card(word):
        if word.lower().startswith("uid:"):
            return "uid:" + word[4:]
        return word.upper()

    def handle(self, text):
        """Run one typed line. Returns "quit", "help", "same" (nothing ran: a blank line or
        a comment) or None (redraw)."""
        words = text.split()
        if words and words[0].lower() in QUIT_WORDS and len(words) == 1:
            return "quit"
        if words and words[0].lower() == "help":
            return "help"
        scen = self.normalise(text)
        if not scen:
            return "same"
        self.line += 1
        try:
            cmd = parse_line(scen, self.line, self.board, self.cards, self.started)
        except ScenarioError as e:
            hint = " (type help for the commands)" if "unknown command" in e.message else ""
            self.say("not understood: %s%s. Nothing changed." % (e.message, hint), "bad")
            return None
        if cmd is None:
            return "same"
        self.run(cmd, scen)
        return None

    def run(self, cmd, scen):
        sim = self.sim
        before = sim.report()
        n_rejected = len(sim.rejected)
        n_failures = len(sim.failures)
        was_idle = sim.app.referee.is_idle()
        try:
            sim.execute(cmd)
        except Exception:  # a firmware bug: show it, keep the session
            self.say("internal error (a bug; please report it):\n"
                     + traceback.format_exc().rstrip(), "bad")
            return
        if cmd[1] in ("tap", "hold"):
            self.started = True
        if cmd[1] != "wait":
            self.settle()
        after = sim.report()
        if len(sim.rejected) > n_rejected:
            r = sim.rejected[-1]
            self.say("%s: refused: %s: %s" % (scen, r["code"], r["message"]), "bad")
        elif cmd[1] == "expect":
            if len(sim.failures) > n_failures:
                self.say(sim.failures[-1].split(": ", 1)[1].replace(": got", ": FAILED, got"),
                         "bad")
            else:
                self.say("%s: ok" % scen, "good")
        elif cmd[1] == "wait":
            self.say("%s: the lights at %.1f s of virtual time" % (scen, sim.now / 1000.0),
                     None)
        elif cmd[1] == "power-cut":
            text = "power-cut: the board booted again and resumed the game from its journal"
            if not was_idle:
                text += "; the pending move was dropped (its cards stay in hand)"
            if sim.app.boot_problem:
                text += "; journal problem: %s" % sim.app.boot_problem
            self.say(text, "good")
        else:
            changes = describe(before, after)
            if cmd[1] == "press" and cmd[2] == "back" and changes and (
                    before["hands"] != after["hands"] or before["bridges"] != after["bridges"]):
                changes = "taken back: " + changes
            self.say("%s: accepted%s" % (scen, (". " + changes) if changes else ""), "good")

    def say(self, message, style):
        self.message = message
        self.message_style = style

    # -------------------------------------------------------------- screen

    def picture(self, width, height):
        key = (width, height)
        if key not in self.pictures:
            self.pictures = {key: Picture(self.board, width, height, self.unicode)}
        return self.pictures[key]

    def screen(self, columns, rows):
        """The whole screen as lines, fitted to a terminal of `columns` x `rows`."""
        width = max(40, columns - 1)
        status = self.status(width)
        spare = rows - len(status) - 2  # the prompt line and one blank line
        height = max(9, min(spare, 34))
        # Keep the board's shape roughly (a cell is about twice as tall as wide).
        bwidth = min(width, max(48, int(height * 4.5)), 110)
        pic = self.picture(bwidth, height)
        game = self.sim.app.game
        report = self.sim.report()
        lines = pic.render(game, self.sim.app.referee, report["leds"], self.painter,
                           self.board.brightness)
        pad = " " * max(0, (width - bwidth) // 2)
        return [pad + ln if ln else ln for ln in lines] + [""] + status

    def player(self, name, text=None, bold=True):
        rgb = self._player_rgb(name)
        return self.painter.paint(text or name, rgb, None, bold)

    def _player_rgb(self, name):
        scale = int(self.board.brightness * 256 + 0.5)
        led = [(v * scale) >> 8 for v in self.board.palette[name]]
        rgb = shown_colour(led, self.board.brightness)
        return GREY if is_dark(rgb) else rgb

    def status(self, width):
        p = self.painter
        sim = self.sim
        game = sim.app.game
        ref = sim.app.referee
        rep = sim.report()
        turn = rep["turn"]
        dot = "\u00b7" if self.unicode else "|"  # a separator
        lines = []

        # Header: round, phase, turn, flags, card counts.
        phase = rep["phase"]
        title = "Round %d of 3" % rep["round"]
        head = [(title, p.paint(title, bold=True)), (dot, dot),
                (phase.upper(), p.paint(phase.upper(), bold=True)), (dot, dot)]
        if rep["phase"] == "over":
            w = rep["winner"]
            txt = "a draw" if w == "draw" else "%s wins" % w
            head.append((txt, self.player(w, txt) if w in PLAYERS else txt))
        else:
            txt = {"deal": "%s registers cards", "handicap": "%s places bridges",
                   "draw": "%s to draw"}.get(rep["phase"], "%s to play") % turn
            head.append((txt, self.player(turn, txt)))
        red = (255, 80, 80)
        if ref.discarding:
            head += [(dot, dot), ("DISCARD MODE", p.paint("DISCARD MODE", red, bold=True))]
        if rep["final_turns"] and rep["phase"] != "over":
            head += [(dot, dot), ("FINAL TURNS", p.paint("FINAL TURNS", red, bold=True))]
        if rep["must_draw"]:
            head += [(dot, dot), ("MUST DRAW", p.paint("MUST DRAW", red, bold=True))]
        for txt in (dot, "drawable %d" % rep["drawable"], dot,
                    "discard pile %d" % rep["discard"]):
            head.append((txt, txt))
        lines += wrap_words(head, width)

        # The players: hand, supply, bridges on the board, islands, score.
        hw = max(34, max(len(" ".join(rep["hands"][q])) for q in PLAYERS))
        hw = min(hw, max(20, width - 38))
        lines.append("         %-*s %6s %6s %7s %5s" % (hw, "hand (5 at most)", "supply",
                                                        "board", "islands", "score"))
        for q in PLAYERS:
            hand = " ".join(rep["hands"][q]) or "-"
            mark = (("\u25b6" if self.unicode else "*") if q == turn
                    and rep["phase"] != "over" else " ")
            name = self.player(q, "%-6s" % q)
            lines.append("%s %s  %-*s %6d %6d %7d %5d" % (
                mark, name, hw, cut(hand, hw), rep["supply"][q],
                game.bridges_on_board(rules.player_index(q)),
                game.controlled_count(rules.player_index(q)), rep["scores"][q]))
        islands = [("Islands:", "Islands:")]
        for q in PLAYERS:
            names = [i for i, who in rep["control"].items() if who == q]
            islands.append((q, self.player(q)))
            islands += [(n, n) for n in names] or [("-", "-")]
            if q == "white":
                islands.append((dot, dot))
        if rep["round_scores"]:
            txt = "· rounds: " + ", ".join("%d-%d" % (s["white"], s["black"])
                                            for s in rep["round_scores"])
            islands.append((txt, txt))
        lines += wrap_words(islands, width, indent="  ")

        # Cards one may register now.
        if rep["phase"] in ("deal", "draw") and not ref.discarding:
            free = [game.card_names[c] for c in range(len(game.place))
                    if game.place[c] == rules.DRAWABLE]
            title = "Not dealt yet:" if rep["phase"] == "deal" else "Drawable:"
            lines += wrap_words([(title, title)] + [(c, c) for c in free], width,
                                indent="  ")[:3]

        # The option list, pending cards, what to do.
        if ref.pending or ref.picked != rules.NOBODY:
            cards = " + ".join(game.card_names[c] for c in ref.pending)
            txt = "Pending: %s" % cards
            if ref.picked != rules.NOBODY:
                txt += ", waiting for a second card to remove %s" % (
                    self.board.connections[ref.picked])
            lines.append(cut(txt, width))
        if ref.options:
            words = [("Options:", "Options:")]
            for idx, (kind, k) in enumerate(ref.options):
                name = self.board.connections[k]
                if kind == refmod.REMOVE:
                    name += "(remove)"
                elif kind == refmod.REFILL:
                    name += "(free refill)"
                if idx == ref.sel:
                    shown = "[%s]" % name
                    words.append((shown, p.paint(shown, bold=True, reverse=True)))
                else:
                    words.append((name, name))
            opt_lines = wrap_words(words, width, indent="  ")
            if len(opt_lines) > 3:
                opt_lines = opt_lines[:3]
                opt_lines[-1] = opt_lines[-1] + " ..."
            lines += opt_lines
        lines += wrap_words([(w, w) for w in ("Next: " + todo(game, ref)).split()], width,
                            indent="  ")
        colour = {"bad": (255, 90, 90), "good": (110, 220, 110)}.get(self.message_style)
        for i, ml in enumerate(self.message.split("\n")):
            words = [(w, w) for w in ml.split()]
            for out in wrap_words(words, width, first="> " if i == 0 else "  ",
                                  indent="  "):
                lines.append(p.paint(out, colour) if colour else out)
        return lines


def todo(game, ref):
    """What the player can do now, in a sentence."""
    p = PLAYERS[game.turn]
    ph = game.phase
    board = game.board
    if ph == rules.OVER:
        return "the game is over. quit leaves."
    if ph == rules.DEAL:
        n = len(game.hand(p))
        example = [game.card_names[c] for c in range(len(game.place))
                   if game.place[c] == rules.DRAWABLE][0]
        return "%s taps the 3 cards of their hand (%d to go), e.g. tap %s." % (p, 3 - n,
                                                                            example)
    if ph == rules.HANDICAP:
        return ("%s places %d handicap bridge(s) without cards: pick a free connection "
                "(or next/prev, then ok)." % (p, game.handicap_left))
    if ref.discarding:
        return "tap each card to discard, then done."
    if game.refill != rules.NOBODY:
        return ("free refill of %s: ok places your bridge there for free, back declines."
                % board.connections[game.refill])
    if ref.picked != rules.NOBODY:
        a, b = board.conn_ends[ref.picked]
        return ("tap a second card of %s or %s to remove %s; back withdraws."
                % (board.islands[a], board.islands[b], board.connections[ref.picked]))
    if len(ref.pending) == 2:
        return "pick the bridge to remove (or next/prev, then ok); back withdraws both cards."
    if ref.pending:
        return ("pick a connection (or next/prev, then ok); or tap a second card to remove "
                "with a pair; back withdraws the card.")
    if ph == rules.PLAY:
        text = "tap a card to place a bridge or remove one (two cards); discard; "
        text += "done ends your turn (final turn, no draw)." if game.final_turns else \
            "done ends the play phase."
        if game.history:
            text += " back undoes."
        return text
    if ph == rules.DRAW:
        if game.must_draw:
            return "%s must draw: tap the card taken (see Drawable)." % p
        if len(game.hand(p)) >= rules.HAND_LIMIT:
            return "hand full: discard first to draw, or done to decline; back to play on."
        return ("tap the card you drew (see Drawable), or done to decline; back returns to "
                "the play phase.")
    return ""


# ------------------------------------------------------------------------------ main

def _completer(session):
    conns = list(session.board.connections)
    cards = session.cards

    def complete(text, state):
        try:
            import readline
            line = readline.get_line_buffer()
        except Exception:
            line = text
        words = line.split()
        first = not words or (len(words) == 1 and not line.endswith(" "))
        if first:
            pool = list(COMMAND_WORDS) + cards
        else:
            head = words[0].lower()
            pool = {"tap": cards, "hold": cards, "pick": conns, "press": list(BUTTONS),
                    "option": ["variant=standard", "variant=alternative", "first=white",
                               "first=black"] + ["handicap=%s:%d" % (q, n) for q in PLAYERS
                                                 for n in (1, 2, 3)]}.get(head, [])
        match = [w + " " for w in pool if w.lower().startswith(text.lower())]
        return match[state] if state < len(match) else None

    return complete


def _setup_readline(session):
    try:
        import readline
    except ImportError:
        return
    readline.set_completer(_completer(session))
    readline.set_completer_delims(" ")
    readline.parse_and_bind("tab: complete")


def main(board, board_path, runtime):
    if runtime != "cpython":
        print("sim: interactive play runs the firmware in CPython; --runtime %s is for "
              "scenario runs (--scenario FILE)" % runtime, file=sys.stderr)
        return 2
    out = sys.stdout
    if hasattr(out, "reconfigure"):
        out.reconfigure(errors="replace")  # a terminal without some glyph: never a crash
    tty_out = out.isatty()
    tty_in = sys.stdin.isatty()
    session = Session(board, out)
    if tty_in:
        _setup_readline(session)

    def draw(lines):
        if tty_out:
            out.write("\x1b[H\x1b[2J")
        out.write("\n".join(lines) + "\n")
        out.flush()

    def size():
        cols, rows = shutil.get_terminal_size((100, 40))
        return max(40, cols), max(20, rows)

    draw(session.screen(*size()))
    while True:
        try:
            text = input(PROMPT)
        except EOFError:
            out.write("\n")
            return 0
        except KeyboardInterrupt:
            out.write("\n")
            return 130
        if not tty_in:
            out.write(text + "\n")  # the transcript shows what was typed
        what = session.handle(text)
        if what == "same" and not tty_in:
            continue  # a blank line or a comment in piped commands: nothing to show
        if what == "quit":
            out.write("bye\n")
            out.flush()
            return 0
        if what == "help":
            draw(help_text(session.unicode).split("\n") + ["(Enter shows the board again.)"])
            continue
        draw(session.screen(*size()))
