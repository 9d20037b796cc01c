"""`python -m host_tools sim` with no scenario: play on the simulated board in a terminal.

The firmware runs in CPython on virtual hardware (`simcore.Simulation`). After every command
the screen shows a picture of the board drawn with text, coloured with the LED strip's last
frame, and a status block: turn, phase, hands, supplies, scores, the open option list and
the last message. Commands are the scenario language of docs/scenarios.md, plus shorthands
(`next`, `ok`, `back`, `undo`, a bare card or connection name), `help` and `quit`.

Colours are plain ANSI escapes: 24-bit where the terminal says it has them (COLORTERM),
else the 256-colour palette, and none when standard output is not a terminal or NO_COLOR
is set. Piped input works too: each command is echoed after the prompt.
"""

import shutil
import sys
import traceback

from core import frame
from core.link import StateView, without_cards
from games.kahuna import rules, view
from games.kahuna import settings as kahunasettings
from host_tools.games.kahuna import textboard
from host_tools.games.kahuna.narrate import describe, takeover_words, undone
from host_tools.games.kahuna.textboard import (  # noqa: F401
    NEW_ANYWAY,
    Painter,
    Picture,
    colour_mode,
    settings_text,
    shown_colour,
)
from host_tools.games.kahuna.verbs import check_option
from host_tools.simulator.engine import Simulation
from host_tools.simulator.scenario import BUTTONS, ScenarioError, card_names, parse_line

# After each command virtual time moves on by at least this much, so that an error flash,
# the acknowledgement of a private tap and a round's scoring animation are over (the
# longest, rounded up to a whole second) and the board shows its steady state. It then
# moves on to the middle of the pending island's next pulse: the pulse is at its peak, and
# the blinking options (a whole number of blink periods later) are lit.
SETTLE_MS = -(-max(frame.ERROR_MS, frame.ACK_MS, view.SCORING_MS) // 1000) * 1000
SETTLE_PHASE_MS = view.PULSE_MS // 2

PROMPT = "kahuna> "
TAKES = ("ai_level",)  # the settings `sim` passes on (--ai-level)
PLAYERS = rules.PLAYERS
SHORT_BUTTONS = {"undo": "back"}  # extra words for a button
QUIT_WORDS = ("quit", "exit")
COMMAND_WORDS = ("tap", "pick", "press", "hold", "wait", "power-cut", "option", "expect",
                 "new", "record", "help", "undo", "quit", "exit") + BUTTONS
OVER_HINT = ("new plays again (new variant=alternative first=black handicap=white:2 "
             "changes the settings); record FILE writes the game as a scenario file; quit "
             "leaves.")

HELP = """\
Commands (lower case works too)
  tap CARD       present a card to the scanner: tap %(a)s-1 (or type %(a)s-1)
  pick CONN      choose an offered connection and confirm it: pick %(conn)s
                 (or type %(conn)s)
  next, prev     move the highlight through the options;  ok  confirms it
  back, undo     withdraw pending cards, decline a refill, leave the draw
                 phase, undo the last action; takeback: whole turns (R12)
  done           end the play phase; in the draw phase decline to draw; in
                 discard mode stop discarding
  discard        discard mode: then tap each card to discard, then done
  press BUTTON   the same buttons by name: next prev ok back done discard
  hold CARD MS   keep a card on the scanner for MS ms;  wait MS  let time pass
  power-cut      cut the power and boot again (the game resumes from flash)
  option K=V     before the first tap: variant=standard|alternative,
                 first=white|black, handicap=white:N|black:N (N 1..3)
  expect PATH V  check the JSON report: expect bridges.%(conn)s white
  new [K=V ...]  once a game is over, another (new variant=alternative first=
                 black handicap=white:2); record FILE: the game as a scenario
  draw N, draw deck  at a table of cards (sim --seed N, --ai black): take the
                 display's Nth card or the deck's top card, and register it
  ok (hint)      against the board (sim --ai black --ai-level 1..3): ok with
                 nothing to choose lights and says the board's move for you
  help           this text;  Enter shows the board;  quit, exit, Ctrl-D leave
How a turn is entered
  Deal     white taps their 3 cards (tap %(first)s-1, ...), then black taps theirs.
  Place    tap %(a)s-1 offers %(a)s's connections: pick %(conn)s puts your
           bridge there (or next/prev to move the highlight, then ok).
  Remove   tap two cards naming the ends of an opponent bridge (tap %(a)s-1,
           tap %(b)s-2), then pick %(conn)s. Two cards of one island (%(a)s-1,
           %(a)s-2) remove any opponent bridge on %(a)s.
  Discard  discard, tap each card, done.
  End      done ends the play phase; then tap the card you drew (tap %(other)s-2),
           or done to decline (the opponent must draw next turn).
  Control  owning more than half of an island's connections takes it and
           removes the opponent's bridges there. A round ends when its last
           card is drawn; after round 3 the higher score wins.
On the board: %(free)s%(free)s%(free)s a free connection, a line with W or B a bridge of white or
  black, %(place)s an option, %(remove)s an opponent bridge to remove, %(sel)s the highlighted
  option, [%(a)s] a pending card's island. The colours are those of the LEDs."""


def examples(board):
    """Names for the help's examples, from the board: a connection and its two islands,
    the first island, another one."""
    a, b = board.conn_ends[0]
    return {"a": board.islands[a], "b": board.islands[b], "conn": board.connections[0],
            "first": board.islands[0], "other": board.islands[-2]}


def help_text(unicode, board):
    values = examples(board)
    values.update(Picture.glyphs(unicode))
    return HELP % values


class Session:
    """One interactive game: commands in, screens out.

    With a `seed` the simulator holds a shuffled table of cards (table.py): it deals, the
    player draws with `draw 1|2|3` (a display card) or `draw deck`, and the hand of the
    player not on turn stays hidden (hot seat). With `ai` too (white or black) the board
    plays that side (a solo game, games.kahuna.solo): the simulator does the AI's card
    procedure itself (solohands.py), and only the player's hand is shown."""

    def __init__(self, board, out=None, colour=None, unicode=None, ai=None, seed=None,
                 ai_level=None):
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
                        "start by tapping white's 3 cards (tap %s)." % self.cards[0])
        self.message_style = None
        self.pictures = {}
        self.ai = ai
        self.ai_level = ai_level  # None: the AI's default level
        if seed is not None:
            self.start_table(seed)
        self.settle()

    # -------------------------------------------------------------- the table

    @property
    def table(self):
        seated = self.sim.kit.seated
        return seated.table if seated is not None else None

    def start_table(self, seed):
        """A shuffled table of cards (and the AI's side, if any): a new game on it; the
        simulation deals and does the AI's card procedure (solohands.Seated)."""
        sim = self.sim
        self.seed = seed
        if self.ai is not None:
            sim.settings = dict(sim.settings, ai=self.ai)
            if self.ai_level is not None:
                sim.settings["ai_level"] = self.ai_level
            sim.app.new_game(sim.settings)
            sim._log_ai()
        sim.kit.sit(seed)
        self.started = True  # the settings are those of the command line
        level = sim.settings.get("ai_level")
        who = ("you play %s against the board (the AI plays %s, level %s; ok with nothing "
               "to choose lights a hint)"
               % (PLAYERS[1 - kahunasettings.player_index(self.ai)], self.ai,
                  level or "default")) if self.ai else \
            "hot seat: the hand of the player not on turn is hidden"
        self.message = ("Deck seed %d, cards dealt; %s. Draw with draw 1, draw 2, draw 3 "
                        "(the display) or draw deck; help for the rest." % (seed, who))

    def draw(self, args):
        """`draw 1|2|3|deck`: take that card from the table and tap it, as a player
        registers the card drawn (the simulation's draw command)."""
        which = args[0].lower() if len(args) == 1 else ""
        self.line += 1
        self.run([self.line, "draw", which], "draw %s" % which)

    # -------------------------------------------------------------- time

    def settle(self):
        sim = self.sim
        target = sim.now + SETTLE_MS
        target += (SETTLE_PHASE_MS - target) % view.PULSE_MS
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
        if words and words[0].lower() == "new":
            self.line += 1
            self.new_game(words[1:])
            return None
        if words and words[0].lower() == "draw" and self.table is not None:
            self.draw(words[1:])
            return None
        if words and words[0].lower() == "record":
            self.record(words[1:])
            return None
        scen = self.normalise(text)
        if not scen:
            return "same"
        self.line += 1
        try:
            cmd = parse_line(scen, self.line, self.board, self.cards, self.started)
        except ScenarioError as e:
            hint = " (type help for the commands)" if "unknown command" in e.message else ""
            self.say("not understood: %s%s. Nothing changed." % (e.message, hint), "bad")
            if self.hot_seat():  # the words may echo a card typed for a draw or a discard
                game = self.sim.app.game
                self.message = without_cards(self.message, self.cards, game.phase in (
                    rules.DEAL, rules.DRAW) or self.sim.app.referee.discarding)
            return None
        if cmd is None:
            return "same"
        self.run(cmd, scen)
        return None

    def new_game(self, args):
        """`new [anyway] [KEY=VALUE ...]`: a new game, with the settings in force changed by
        those given (`handicap=none` drops a handicap), as the board's held `done` or the
        link's new-game command start one. A game in progress is kept unless `anyway`."""
        anyway = bool(args) and args[0].lower() == NEW_ANYWAY
        if anyway:
            args = args[1:]
        settings = dict(self.sim.app.settings)
        for arg in args:
            key, _, value = arg.partition("=")
            key = key.lower()
            if key == "handicap" and value.lower() in ("none", "off", "0"):
                settings["handicap"] = None
                continue
            try:
                key, value = check_option("%s=%s" % (key, value.lower()), self.line)
            except ScenarioError as e:
                self.say("not understood: %s. Nothing changed. (new variant=standard|"
                         "alternative first=white|black handicap=white:N|black:N|none)"
                         % e.message, "bad")
                return
            settings[key] = value
        game = self.sim.app.game
        in_progress = game.phase != rules.OVER and (game.phase != rules.DEAL or any(
            game.hand(q) for q in PLAYERS))
        if in_progress and not anyway:
            self.say("this game is not over (round %d, %s): new starts one once it is; "
                     "new %s%s abandons it. Nothing changed."
                     % (game.round, game.phase, NEW_ANYWAY,
                        "".join(" " + a for a in args)), "bad")
            return
        sim = self.sim
        sim.settings = settings  # a power cut boots into this game, from its journal
        sim.app.new_game(settings)
        sim.app.show(sim.now)
        self.started = False  # `option` works again until the first tap
        if sim.kit.seated is not None:
            self.ai = settings.get("ai")
            self.start_table(self.seed + 1)
        self.settle()
        self.say("new game: %s. %s taps their 3 cards."
                 % (settings_text(settings), settings.get("first", "white")), "good")

    def record(self, args):
        """`record FILE`: the game as a scenario file (a game record, record.py): a game
        in play from what is public, with stand-ins for its hidden cards."""
        from host_tools.games.kahuna import record
        from host_tools.simulator.engine import JOURNAL
        if len(args) != 1:
            self.say("record FILE writes the game as a scenario file (a game in play: "
                     "what is public, stand-ins for its hidden cards). Nothing changed.",
                     "bad")
            return
        files = self.sim.flash.files
        try:
            text = record.scenario(self.board, bytes(files[JOURNAL]) if JOURNAL in files
                                   else b"")
            with open(args[0], "w", encoding="utf-8") as f:
                f.write(text)
        except record.RecordError as e:
            self.say("record: %s." % e, "bad")
            return
        except OSError as e:
            self.say("record: cannot write %s: %s." % (args[0], e.strerror or e), "bad")
            return
        self.say("record: the game written to %s%s (sim --scenario %s replays it)"
                 % (args[0], " from what is public, stand-ins for its hidden cards"
                    if text.startswith(record.PUBLIC_TITLE) else "", args[0]), "good")

    def run(self, cmd, scen):
        sim = self.sim
        before = sim.report()
        n_rejected = len(sim.rejected)
        n_failures = len(sim.failures)
        was_idle = sim.app.referee.is_idle()
        was_discarding = sim.app.referee.discarding
        # A takeback asked for or walked through: its words only, never the hands'
        # changes (a drawn card goes back unnamed).
        taking = cmd[1] == "takeback" or sim.app.referee.taking_back()
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
        elif taking:
            self.say("%s: accepted" % (scen,), "good")
        else:
            solo_game = self.ai is not None
            if cmd[1] == "press" and cmd[2] == "back" and (
                    before["hands"] != after["hands"] or before["bridges"] != after["bridges"]
                    or before["phase"] != after["phase"]):
                # What the undo undid; in a solo game no card named (the report holds
                # the AI's hand, and a back never touches it, but nothing is risked).
                changes = undone(before, after, secret=self.hot_seat() or solo_game)
            elif solo_game:
                # The report would tell the AI's cards: the islands taken only (public).
                you = PLAYERS[1 - kahunasettings.player_index(self.ai)]
                changes = "; ".join(takeover_words(before, after, you))
                changes = changes[:1].upper() + changes[1:]
            else:
                changes = describe(before, after, secret=self.hot_seat())
            self.say("%s: accepted%s" % (scen, (". " + changes) if changes else ""), "good")
        if sim.kit.seated is not None and sim.kit.seated.said:
            self.message = self.message.rstrip(".") + ". The AI: " + "; ".join(
                sim.kit.seated.said) + "."
        solo = sim.app.solo
        words = sim.app.referee.say()  # a takeback's request or step
        if words:
            self.message = self.message.rstrip(".") + ". Board: " + words + "."
        elif solo is not None and solo.say():
            self.message = self.message.rstrip(".") + ". Board: " + solo.say() + "."
        if self.hot_seat():
            # The screen is shared: the link's privacy rule (core.link), which names no
            # card of the deal, a draw or a discard, and a played card by its island only.
            private = (before["phase"] in (rules.DEAL, rules.DRAW) or was_discarding
                       or sim.private)
            self.message = without_cards(self.message, self.cards, private)

    def hot_seat(self):
        """Two players at one screen over a table of cards (`sim --seed N`)."""
        return self.sim.kit.seated is not None and self.ai is None

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
        state = self.shown_state()
        status = self.status(width, state)
        spare = rows - len(status) - 2  # the prompt line and one blank line
        height = max(9, min(spare, 34))
        # Keep the board's shape roughly (a cell is about twice as tall as wide).
        bwidth = min(width, max(48, int(height * 4.5)), 110)
        pic = self.picture(bwidth, height)
        lines = pic.render(state, self.sim.report()["leds"], self.painter,
                           self.board.brightness)
        pad = " " * max(0, (width - bwidth) // 2)
        return [pad + ln if ln else ln for ln in lines] + [""] + status

    def shown_state(self):
        """The state the screen shows: at a table of cards only the hand of the player
        on turn (the player's own in a solo game); the other is shown as backs (?)."""
        state = StateView(self.sim.app, reveal=True).state()
        if self.table is not None:
            game = self.sim.app.game
            me = (PLAYERS[1 - kahunasettings.player_index(self.ai)] if self.ai
                  else PLAYERS[game.turn])
            for q in PLAYERS:
                if q != me:
                    state["hands"][q] = ["?"] * len(state["hands"][q])
        return state

    def status(self, width, state=None):
        if state is None:
            state = self.shown_state()
        game = self.sim.app.game
        free = [game.card_names[c] for c in range(len(game.place))
                if game.place[c] == rules.DRAWABLE]
        if self.table is not None:
            free = self.table.display  # the deck's cards are face down
        pending = [game.card_names[c] for c in self.sim.app.referee.pending]
        display = (self.table.display, self.table.deck_count()) if self.table else None
        return textboard.status(self.board, state, self.painter, self.unicode, width,
                                self.message, self.message_style, free=free,
                                pending_cards=pending, over_hint=OVER_HINT, display=display)





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
            settings = ["variant=standard", "variant=alternative", "first=white",
                        "first=black"] + ["handicap=%s:%d" % (q, n) for q in PLAYERS
                                          for n in (1, 2, 3)]
            pool = {"tap": cards, "hold": cards, "pick": conns, "press": list(BUTTONS),
                    "option": settings,
                    "new": settings + ["handicap=none", NEW_ANYWAY]}.get(head, [])
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


def main(board, board_path, runtime, ai=None, seed=None, ai_level=None):
    if runtime != "cpython":
        print("sim: interactive play runs the firmware in CPython; --runtime %s is for "
              "scenario runs (--scenario FILE)" % runtime, file=sys.stderr)
        return 2
    out = sys.stdout
    if hasattr(out, "reconfigure"):
        out.reconfigure(errors="replace")  # a terminal without some glyph: never a crash
    tty_out = out.isatty()
    tty_in = sys.stdin.isatty()
    session = Session(board, out, ai=ai, seed=seed, ai_level=ai_level)
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
            draw(help_text(session.unicode, session.sim.board).split("\n")
                 + ["(Enter shows the board again.)"])
            continue
        draw(session.screen(*size()))
