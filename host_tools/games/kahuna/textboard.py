"""The board drawn with text: one home for the picture and the status block that the
terminal play (`play.py`, the simulator) and the monitor (`monitor.py`, a live board) show.

Both draw from a state in the serial link's form (`core.link`: bridges, control, hand
sizes or hands, the referee's open move in `ui`, the LED frame), so the monitor shows the
simulator's picture: options, the highlight, the hint, the last refusal.

Colours are plain ANSI escapes: 24-bit where the terminal says it has them (COLORTERM),
else the 256-colour palette, and none when standard output is not a terminal or NO_COLOR
is set.
"""

import math
import os

PLAYERS = ("white", "black")
HAND_LIMIT = 5  # R3, as rules.HAND_LIMIT (this module stays free of the firmware)


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

    def render(self, state, leds, painter, brightness):
        """Lines of text (with colour escapes when `painter` has a mode) for a state in
        the serial link's form (`core.link`); `leds` is the frame as [r, g, b] lists."""
        b = self.board
        g = self.glyphs(self.uni)
        blank = (" ", None, None, False)
        grid = [[blank] * self.width for _ in range(self.height)]
        ui = state.get("ui") or {}
        opts = {}
        for idx, (kind, conn) in enumerate(ui.get("options", ())):
            opts[b.conn_index[conn]] = (kind, idx == ui.get("sel"))
        owners = [None] * len(b.connections)
        for conn, who in state["bridges"].items():
            owners[b.conn_index[conn]] = who
        picked = b.conn_index.get(ui.get("picked") or "", -1)
        # Free connections first, so bridges and options win where lines cross.
        order = sorted(range(len(b.connections)),
                       key=lambda k: (owners[k] is not None or k in opts, k))
        for k in order:
            colour = readable(shown_colour(leds[b.conn_led[k]], brightness))
            owner = owners[k]
            cells = self.cells[k]
            for r, c, d in cells:
                if owner is None:
                    grid[r][c] = (g["free"], colour, None, False)
                else:
                    grid[r][c] = (g[d], colour, None, True)
            if not cells:
                continue
            mark = None
            if k in opts:
                kind, sel = opts[k]
                mark = g["sel"] if sel else g["remove"] if kind == "remove" else g["place"]
            elif k == picked:
                mark = g["picked"]
            elif owner is not None:
                mark = "W" if owner == "white" else "B"
            if mark is not None:
                r, c, _ = cells[len(cells) // 2]
                grid[r][c] = (mark, colour, None, True)
        pending = set(b.island_index[i] for i in ui.get("pending", ()))
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


# ------------------------------------------------------------------------------ status

def player_rgb(board, name):
    scale = int(board.brightness * 256 + 0.5)
    led = [(v * scale) >> 8 for v in board.palette[name]]
    rgb = shown_colour(led, board.brightness)
    return GREY if is_dark(rgb) else rgb


def hint(board, state, free=()):
    """What the player can do now, in a sentence. `free`: cards one may register now (the
    simulator knows them; the link does not say, as it would tell the hands)."""
    p = state["turn"]
    ph = state["phase"]
    ui = state.get("ui") or {}
    if ph == "over":
        return "the game is over."
    if ph == "deal":
        n = state["hand_sizes"][p]
        example = (", e.g. tap %s" % free[0]) if free else ""
        return "%s taps the 3 cards of their hand (%d to go)%s." % (p, 3 - n, example)
    if ph == "handicap":
        return ("%s places %d handicap bridge(s) without cards: pick a free connection "
                "(or next/prev, then ok)." % (p, ui.get("handicap_left", 0)))
    taking = ui.get("takeback")
    if taking:  # a takeback asked for or walked through (games.kahuna.takeback)
        return taking["say"] + "."
    if ui.get("discarding"):
        return "tap each card to discard, then done."
    if ui.get("refill"):
        return ("free refill of %s: ok places your bridge there for free, back declines."
                % ui["refill"])
    if ui.get("picked"):
        a, b = board.conn_ends[board.conn_index[ui["picked"]]]
        return ("tap a second card of %s or %s to remove %s; back withdraws."
                % (board.islands[a], board.islands[b], ui["picked"]))
    pending = ui.get("pending", ())
    if len(pending) == 2:
        return "pick the bridge to remove (or next/prev, then ok); back withdraws both cards."
    if pending:
        return ("pick a connection (or next/prev, then ok); or tap a second card to remove "
                "with a pair; back withdraws the card.")
    if ph == "play":
        text = "tap a card to place a bridge or remove one (two cards); discard; "
        text += "done ends your turn (final turn, no draw)." if state["final_turns"] else \
            "done ends the play phase."
        if ui.get("undo"):
            text += " back undoes."
        return text
    if ph == "draw":
        if state["must_draw"]:
            return "%s must draw: tap the card taken%s." % (p, " (listed above)" if free
                                                            else "")
        if state["hand_sizes"][p] >= HAND_LIMIT:
            return "hand full: discard first to draw, or done to decline; back to play on."
        return ("tap the card you drew%s, or done to decline; back returns to the play "
                "phase." % (" (listed above)" if free else ""))
    return ""


NEW_ANYWAY = "anyway"  # `new anyway ...` abandons a game in progress (play and monitor)
# The settings a `new` takes, as the monitor's help says them.
SETTINGS_HELP = ("variant=standard|alternative first=white|black handicap=white:N|black:N "
                 "ai=white|black|none ai_level=1|2|3")


def parse_settings(words):
    """`variant=alternative first=black handicap=white:2 ai=black` -> the link's settings
    (the monitor's `new`); ValueError says what a setting may be."""
    out = {}
    for word in words:
        key, eq, value = word.partition("=")
        key = key.lower()
        if not eq or key not in ("variant", "first", "handicap", "ai", "ai_level"):
            raise ValueError("a setting is variant=..., first=..., handicap=PLAYER:N, "
                               "ai=white|black|none or ai_level=1|2|3")
        if key == "ai":
            if value.lower() not in ("white", "black", "none"):
                raise ValueError("ai=white, black or none (the board plays no side)")
            out[key] = None if value.lower() == "none" else value.lower()
        elif key == "ai_level":
            if value not in ("1", "2", "3"):
                raise ValueError("ai_level=1, 2 or 3 (stronger, and slower)")
            out[key] = int(value)
        elif key == "handicap":
            if value.lower() in ("none", "off", "0"):
                out[key] = None
                continue
            who, colon, n = value.partition(":")
            if not colon or not n.isdigit():
                raise ValueError("handicap=PLAYER:N, e.g. handicap=white:2")
            out[key] = [who.lower(), int(n)]
        else:
            out[key] = value.lower()
    return out


def settings_text(settings):
    """The settings in force, in words: `standard variant, white first, no handicap`
    (and `, the board plays black` in a solo game)."""
    handicap = settings.get("handicap")
    return "%s variant, %s first, %s%s" % (
        settings.get("variant", "standard"), settings.get("first", "white"),
        "handicap %s:%d" % (handicap[0], int(handicap[1])) if handicap else "no handicap",
        ", the board plays %s%s" % (settings["ai"], " at level %d" % settings["ai_level"]
                                    if settings.get("ai_level") else "")
        if settings.get("ai") else "")


def status(board, state, painter, unicode, width, message="", style=None, free=None,
           pending_cards=None, over_hint="", display=None):
    """The status block under the picture: round, phase, turn, the players (hands when the
    state reveals them, else how many cards), islands, the option list with the highlight,
    the hint and `message` ("bad" or "good" `style` colours it). `free` (a title and card
    names) and `pending_cards` are for the simulator, which may show them; `display`
    (the face-up display's cards and the deck's size, at a table of cards) is shown in
    every phase."""
    p = painter
    ui = state.get("ui") or {}
    turn = state["turn"]
    dot = "\u00b7" if unicode else "|"  # a separator
    lines = []

    def player(name, text=None, bold=True):
        return p.paint(text or name, player_rgb(board, name), None, bold)

    # Header: round, phase, turn, flags, card counts.
    phase = state["phase"]
    title = "Round %d of 3" % state["round"]
    head = [(title, p.paint(title, bold=True)), (dot, dot),
            (phase.upper(), p.paint(phase.upper(), bold=True)), (dot, dot)]
    if phase == "over":
        w = state["winner"]
        txt = "a draw" if w == "draw" else "%s wins" % w
        head.append((txt, player(w, txt) if w in PLAYERS else txt))
    else:
        txt = {"deal": "%s registers cards", "handicap": "%s places bridges",
               "draw": "%s to draw"}.get(phase, "%s to play") % turn
        head.append((txt, player(turn, txt)))
    red = (255, 80, 80)
    if ui.get("discarding"):
        head += [(dot, dot), ("DISCARD MODE", p.paint("DISCARD MODE", red, bold=True))]
    if state["final_turns"] and phase != "over":
        head += [(dot, dot), ("FINAL TURNS", p.paint("FINAL TURNS", red, bold=True))]
    if state["must_draw"]:
        head += [(dot, dot), ("MUST DRAW", p.paint("MUST DRAW", red, bold=True))]
    for txt in (dot, "drawable %d" % state["drawable"], dot,
                "discard pile %d" % state["discard"]):
        head.append((txt, txt))
    lines += wrap_words(head, width)
    if state.get("settings"):
        txt = "Game: " + settings_text(state["settings"])
        lines += wrap_words([(w, w) for w in txt.split()], width, indent="  ")

    # The players: hand (or its size), supply, bridges on the board, islands, score.
    hands = state.get("hands")
    if hands is not None:
        shown = dict((q, " ".join(hands[q]) or "-") for q in PLAYERS)
    else:
        shown = dict((q, "%d card%s" % (state["hand_sizes"][q],
                                        "" if state["hand_sizes"][q] == 1 else "s"))
                     for q in PLAYERS)
    hw = max(34, max(len(shown[q]) for q in PLAYERS))
    hw = min(hw, max(20, width - 38))
    lines.append("         %-*s %6s %6s %7s %5s" % (hw, "hand (5 at most)", "supply",
                                                    "board", "islands", "score"))
    for q in PLAYERS:
        mark = (("\u25b6" if unicode else "*") if q == turn and phase != "over" else " ")
        lines.append("%s %s  %-*s %6d %6d %7d %5d" % (
            mark, player(q, "%-6s" % q), hw, cut(shown[q], hw), state["supply"][q],
            list(state["bridges"].values()).count(q),
            list(state["control"].values()).count(q), state["scores"][q]))
    islands = [("Islands:", "Islands:")]
    for q in PLAYERS:
        names = [i for i, who in state["control"].items() if who == q]
        islands.append((q, player(q)))
        islands += [(n, n) for n in names] or [("-", "-")]
        if q == "white":
            islands.append((dot, dot))
    if state["round_scores"]:
        txt = "· rounds: " + ", ".join("%d-%d" % (s["white"], s["black"])
                                        for s in state["round_scores"])
        islands.append((txt, txt))
    lines += wrap_words(islands, width, indent="  ")

    # Cards one may register now (only the simulator knows them).
    if display is not None and phase != "over":
        cards, deck = display
        words = [("Display:", "Display:")] + ([(c, c) for c in cards] or [("-", "-")])
        words += [(dot, dot), ("deck %d" % deck, "deck %d" % deck)]
        lines += wrap_words(words, width, indent="  ")[:3]
    elif free and phase in ("deal", "draw") and not ui.get("discarding"):
        title = "Not dealt yet:" if phase == "deal" else "Drawable:"
        lines += wrap_words([(title, title)] + [(c, c) for c in free], width,
                            indent="  ")[:3]

    # The option list, pending cards, what to do.
    pending = pending_cards if pending_cards is not None else ui.get("pending", ())
    if pending or ui.get("picked"):
        txt = "Pending: %s" % " + ".join(pending)
        if ui.get("picked"):
            txt += ", waiting for a second card to remove %s" % ui["picked"]
        lines.append(cut(txt, width))
    if ui.get("options"):
        words = [("Options:", "Options:")]
        for idx, (kind, name) in enumerate(ui["options"]):
            if kind == "remove":
                name += "(remove)"
            elif kind == "refill":
                name += "(free refill)"
            if idx == ui.get("sel"):
                shown_name = "[%s]" % name
                words.append((shown_name, p.paint(shown_name, bold=True, reverse=True)))
            else:
                words.append((name, name))
        opt_lines = wrap_words(words, width, indent="  ")
        if len(opt_lines) > 3:
            opt_lines = opt_lines[:3]
            opt_lines[-1] = opt_lines[-1] + " ..."
        lines += opt_lines
    text = hint(board, state, free or ())
    if phase == "over" and over_hint:
        text = text.rstrip(".") + ": " + over_hint
    lines += wrap_words([(w, w) for w in ("Next: " + text).split()], width, indent="  ")
    colour = {"bad": (255, 90, 90), "good": (110, 220, 110)}.get(style)
    for i, ml in enumerate(message.split("\n")):
        words = [(w, w) for w in ml.split()]
        for out in wrap_words(words, width, first="> " if i == 0 else "  ", indent="  "):
            lines.append(p.paint(out, colour) if colour else out)
    return lines
