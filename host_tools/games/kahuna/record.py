"""A game record: a game of the board written as a scenario (the project's notation,
docs/scenarios.md) that replays it move by move in the simulator (`python -m host_tools
sim --scenario FILE`, the static page's "Run a scenario").

From the game's journal records: a whole journal (the link's `archive`, the simulator in
the terminal or the static page) or the public moves of the game in play (the link's
`moves`: games.kahuna.game.public_move). A finished game, its journal whole, is written as
played: every card named, `expect` lines for the result. Any other game (one in play, or
a finished one known by its public moves only) is written from what is public alone, as
the privacy rule asks (no hand, no draw, no deal, no face-down discard named before the
end): `public_record` masks the records first, then puts a stand-in card, marked
`# stand-in`, wherever a card is hidden, chosen by `stand_ins` from the public moves
only, so that the replay is legal and reaches the same public state (checked by `expect`
lines), never the same hands; the file says so. The same public moves give the same file
whatever the hidden cards (tests/games/kahuna/test_record_in_play.py swaps them).

A game against the board is written as both sides' moves, entered as a two-player game
would enter them (the AI's own card procedure is not replayed).

Pure Python that runs on CPython and MicroPython (the page).
"""

import io

from core import journalread
from games.kahuna import game as kahunagame
from games.kahuna import report, rules
from games.kahuna import settings as kahunasettings
from host_tools.games.kahuna.actionlines import action_lines, settings_lines


class RecordError(ValueError):
    """No record can be written (no game, records that do not replay)."""


STAND_IN = "  # stand-in"
HIDDEN = ("deal", "draw", "discard")  # the moves whose card the privacy rule hides
BAD = (rules.Rejected, ValueError, TypeError, IndexError, KeyError, AttributeError)


def scenario(board, data):
    """The game in journal bytes `data` -> scenario text; RecordError says why there is
    none."""
    items, problem = journalread.records(io.BytesIO(bytes(data)))
    return from_records(board, items, problem)


def from_records(board, items, problem=None):
    """Journal records (whole, or the link's public moves) -> scenario text: the whole
    game if they name every card of a finished game, else the public record."""
    if not items or not isinstance(items[0], list) or items[0][0] != "new" or len(items[0]) < 2:
        raise RecordError("no game in these records: %s" % (problem or "no new-game record"))
    settings = items[0][1]
    number = items[0][2] if len(items[0]) > 2 else None
    try:
        game = kahunasettings.Settings.from_json(board, settings).new_game()
    except BAD as e:
        raise RecordError("its settings cannot be read: %s" % (e,)) from None
    moves = []
    for n, item in enumerate(items[1:], 2):
        if not isinstance(item, list) or not item or not isinstance(item[0], str):
            raise RecordError("record %d is not a move" % n)
        if item[0] == "solo":
            continue  # the AI's stack and the display: bookkeeping, no move
        if item[0] == "state":
            raise RecordError("the journal was compacted (record %d holds the game as it "
                              "stood, not its moves)" % n)
        moves.append(tuple(item))
    moves = _taken_back_left_out(
        lambda: kahunasettings.Settings.from_json(board, settings).new_game(), moves)
    whole = game
    for act in moves:
        try:
            whole.apply(act)
        except BAD:
            whole = None  # public moves (or a damaged record: the public record says)
            break
    if whole is not None and whole.phase == rules.OVER:
        return _text(settings, whole, moves, problem, number)
    return public_record(board, settings, number, moves, problem)


def _taken_back_left_out(new_game, moves):
    """The moves as the game stands in effect: a takeback (R12) and the turns it took back
    left out, as a chess score sheet leaves a takeback out (the replay reaches the same
    state: a takeback puts the game back to a turn's start). `new_game()` gives a new game,
    played here to find the turns (games.kahuna.turns, as the board finds them)."""
    if not any(m[0] in ("takeback", "tb") for m in moves):
        return moves
    from games.kahuna import takeback
    from games.kahuna.turns import TurnLog
    g = new_game()
    log = g.turns = TurnLog()
    kept, starts = [], []  # starts: where each of log's entries began in `kept`
    for act in moves:
        if act[0] == "tb":
            continue
        if act[0] == "takeback":
            try:
                n = int(act[1])
                cut = starts[-n]
                takeback.begin(g, n)
            except (ValueError, IndexError, TypeError) as e:
                raise RecordError("a takeback that does not replay: %s" % (e,)) from None
            del kept[cut:]
            del starts[-n:]
            log.walk = None  # the walk is the table's; the record needs the game only
            continue
        fresh = log.fresh
        try:
            g.apply(act)
        except BAD:  # public moves (public_record takes the takebacks out), or damaged
            return moves
        if log.fresh is not None and log.fresh is not fresh:  # a new turn began with act
            starts.append(len(kept))
            del starts[:len(starts) - len(log.entries)]
        kept.append(act)
    return kept


def _text(settings, game, moves, problem, number):
    full = kahunasettings.check_settings(settings)
    lines = ["# Kahuna: a game record%s, written from the board's journal."
             % (" (game %s)" % number if number is not None else ""),
             "# Replay it: python -m host_tools sim --scenario FILE, or the web page's "
             "\"Run a scenario\"."]
    lines += _header(full, problem)
    lines += settings_lines(full)
    for act in moves:
        lines += action_lines(act)
    w = game.winner
    lines += ["# the result",
              "expect phase over",
              "expect winner %s" % w,
              "expect scores.white %d" % game.scores[0],
              "expect scores.black %d" % game.scores[1]]
    return "\n".join(lines) + "\n"


def _header(full, problem):
    lines = []
    if full.get("ai"):
        lines.append("# Played against the board (it played %s%s); both sides' moves are "
                     "entered here as at one table." % (
                         full["ai"], ", level %d" % full["ai_level"]
                         if full.get("ai_level") else ""))
    if problem:
        lines.append("# The journal ended in a damaged record (%s): the moves before it."
                     % problem)
    return lines


# ---------------------------------------------------------------- the public record

PUBLIC_TITLE = "# Kahuna: a public record of "
PUBLIC_NOTE = (
    "# Written from what is public alone: the card of every deal, draw and discard (face",
    "# down) is a stand-in, marked \"stand-in\", chosen from the public moves only so that",
    "# the replay is legal; so are the hands, and the copy (-1 or -2) of a played card.",
    "# The replay reaches the game's public state (round, phase, turn, bridges, control,",
    "# supply, scores, hand sizes, the discard pile's and the drawable cards' counts),",
    "# checked by the expect lines at the end; not its hands. A move half made (a card",
    "# tapped, its bridge not chosen) is not in it.",
)


def public_record(board, settings, number, moves, problem=None):
    """The public record of a game (see the module's docstring): `moves` are the rules'
    actions, whole or as the link's `moves` gives them; only what is public is read."""
    sets = kahunasettings.Settings.from_json(board, settings)
    full = kahunasettings.check_settings(settings)
    fresh = rules.Game(sets)  # a game in play: public_move hides what it must
    public = []
    for n, m in enumerate(moves, 1):
        try:
            m = kahunagame.public_move(fresh, list(m))
        except BAD:
            raise RecordError("move %d is not a move" % n) from None
        if m is not None:
            public.append(tuple(m))
    short = None
    try:
        public = _public_taken_back(sets, public)
        acts, game = stand_ins(sets, public)
    except _Stuck as e:
        # No stand-ins fit the moves from e.at on: the record stops short, and says so.
        short = e
        acts, game = stand_ins(sets, public[:e.at])
    over = game.phase == rules.OVER
    lines = [PUBLIC_TITLE + "%s%s, after %d moves." % (
                 "a finished game" if over else "a game in play",
                 " (game %s)" % number if number is not None else "", len(acts))]
    lines += PUBLIC_NOTE
    if short is not None:
        lines += ["# It stops short: after %d of the game's %d moves, as no stand-in cards"
                  % (len(acts), len(public)),
                  "# were found for move %d (%s) and on; the state checked is the one after "
                  "move %d." % (len(acts) + 1, public[len(acts)][0], len(acts))]
    lines.append("# Replay it: python -m host_tools sim --scenario FILE, or the web page's "
                 "\"Run a scenario\".")
    lines += _header(full, problem)
    lines += settings_lines(full)
    for act, hidden in acts:
        out = action_lines(act)
        if hidden:
            out = [line + STAND_IN if line.startswith("tap ") else line for line in out]
        lines += out
    lines.append("# the public state")
    d = report.game(game)
    for key in ("phase", "round", "turn", "final_turns", "must_draw", "winner",
                "discard", "drawable"):
        v = d[key]
        lines.append("expect %s %s" % (key, "none" if v is None else
                                       str(v).lower() if isinstance(v, bool) else v))
    for key in ("scores", "supply"):
        for who in ("white", "black"):
            lines.append("expect %s.%s %d" % (key, who, d[key][who]))
    for who in ("white", "black"):
        lines.append("expect hands.%s %d" % (who, len(d["hands"][who])))
    lines.append("expect round_scores %d" % len(d["round_scores"]))
    for key, names in (("bridges", board.connections), ("control", board.islands)):
        lines.append("expect %s %d" % (key, len(d[key])))
        for name in names:  # the board's order (a MicroPython dict keeps none)
            if name in d[key]:
                lines.append("expect %s.%s %s" % (key, name, d[key][name]))
    return "\n".join(lines) + "\n"


def _public_taken_back(sets, public):
    """Public moves with their takebacks (R12) and the turns they took back left out: the
    turns are found on the stand-in game up to each takeback (_Stuck where none fits)."""
    public = [m for m in public if m[0] != "tb"]
    while True:
        k = next((i for i, m in enumerate(public) if m[0] == "takeback"), None)
        if k is None:
            return public
        acts, _ = stand_ins(sets, public[:k])
        kept = _taken_back_left_out(lambda: rules.Game(sets),
                                    [a for a, _ in acts] + [public[k]])
        public = public[:len(kept)] + public[k + 1:]


def stand_ins(settings, moves):
    """Public moves (games.kahuna.game.public_move's: ("deal",), ("draw",), ("discard",),
    a play by its islands) -> ([(action, hidden)...], the game after them): the rules'
    actions with a card wherever one is hidden, a legal game whose public moves are
    `moves`. It reads `moves` only, so the hidden cards cannot show through.

    A hidden card taken (a deal's, a draw's) is first one whose island no later play
    needs soon, and stays open: when a play needs an island its player holds no card
    of, an open card of that hand becomes a card of that island (the latest taken that
    can: the new card must have lain among the drawable ones all the while since; an open
    card of the other hand may make way), in the game, its undo history and the moves
    that named it. A hidden discard is a choice (a card named before and taken back, or
    an open one): when a play later finds no card, the latest such choice is made anew
    and the game replayed from there (the latest POINTS of them). _Stuck when no choice
    is left within BUDGET (public_record then stops short), RecordError when a move is
    no move."""
    uses = {}  # island -> indices of the moves that play it
    for i, m in enumerate(moves):
        if m[0] in ("place", "remove"):
            for name in m[1:-1]:
                uses.setdefault(_island(settings, name, i), []).append(i)
    r = _Resolver(settings, uses)
    points = []  # [index, the state before, the choices left] of each hidden discard
    spent = 0
    deepest = 0
    i = 0
    while i < len(moves):
        m = moves[i]
        try:
            if m[0] == "discard" and len(m) == 1:
                choices = r.discards(i)
                points.append([i, r.save(), choices[1:]])
                if len(points) > POINTS:
                    points.pop(0)  # the oldest choice stays as made: memory is bounded
                act, hidden = ("discard", r.names[choices[0]]), True
            else:
                act, hidden = r.step(m, i)
        except _Stuck as e:
            deepest = max(deepest, i)
            while points and not points[-1][2]:
                points.pop()
            spent += i - (points[-1][0] if points else 0)
            if not points or spent > BUDGET:
                raise _Stuck(str(e), deepest) from None
            i, state, left = points[-1]
            r.load(state)
            points[-1][2] = left[1:]
            m = moves[i]
            act, hidden = ("discard", r.names[left[0]]), True
        except RecordError:
            raise
        except BAD as e:
            raise RecordError("move %d (%s) is not a move: %s" % (i + 1, m[0], e)) from None
        before = list(r.game.place)
        try:
            r.game.apply(act)
        except BAD as e:
            raise RecordError("move %d (%s) does not replay: %s" % (i + 1, m[0], e)) from None
        for c, where in enumerate(r.game.place):
            if where != before[c]:
                r.moved[c] = i
                if where == rules.DRAWABLE:  # a new deck: its past is settled
                    r.origin.pop(c, None)
        r.acts.append((act, hidden))
        i += 1
    return r.acts, r.game


BUDGET = 5000  # moves replayed again after hidden discards chosen anew, at most
POINTS = 16  # the latest hidden discards that may be chosen anew (each keeps a state)


class _Stuck(RecordError):
    """A play finds no card its player may hold: an earlier choice was wrong. `at`: the
    furthest move that no choice got past (the moves before it have stand-ins)."""

    def __init__(self, text, at=0):
        super().__init__(text)
        self.at = at


class _Resolver:
    """The game being built (see stand_ins): the rules' game, the actions so far, the
    open cards and when each card last moved."""

    def __init__(self, settings, uses):
        self.settings = settings
        self.names = settings.card_names
        self.n = settings.n_cards
        self.uses = uses
        self.game = rules.Game(settings)
        self.acts = []  # (action, hidden) so far
        self.origin = {}  # open card -> index of the move that took it
        self.moved = [-1] * self.n  # card -> index of the last move that moved it
        self.since = {}  # open card -> its `moved` before it was taken

    def save(self):
        return (self.game.snapshot(), list(self.acts), dict(self.origin),
                list(self.moved), dict(self.since))

    def load(self, state):
        snap, acts, origin, moved, since = state
        self.game.restore(snap)
        self.acts = list(acts)
        self.origin = dict(origin)
        self.moved = list(moved)
        self.since = dict(since)

    def discards(self, i):
        """The cards a hidden discard at move `i` may put down, the likeliest first: a
        card named before (taken back) that no later play needs, an open card (the
        latest taken, the earliest), then the cards named before whose island is played
        again, the last played first."""
        g = self.game
        hand = [c for c in range(self.n) if g.place[c] == g.turn]
        if not hand:
            raise RecordError("move %d: a discard from an empty hand" % (i + 1))
        opened = sorted((c for c in hand if c in self.origin), key=lambda c: -self.origin[c])
        named = sorted((c for c in hand if c not in self.origin),
                       key=lambda c: (-self._next(c // 2, i), c))
        idle = [c for c in named if self._next(c // 2, i) == NEVER]
        out = idle + opened[:1] + opened[-1:] + [c for c in named if c not in idle]
        return [c for k, c in enumerate(out) if c not in out[:k]]

    def step(self, m, i):
        kind = m[0]
        g = self.game
        p = g.turn
        names = self.names
        if kind in ("deal", "draw") and len(m) == 1:
            free = [c for c in range(self.n) if g.place[c] == rules.DRAWABLE]
            if not free:
                raise RecordError("move %d: no card is left to %s" % (i + 1, kind))
            c = min(free, key=lambda c: (-self._next(c // 2, i), c))
            self.origin[c] = i
            self.since[c] = self.moved[c]
            return (kind, names[c]), True
        if kind in ("place", "remove"):
            if g.phase != rules.PLAY:
                raise RecordError("move %d (%s) does not replay: not allowed in the %s "
                                  "phase" % (i + 1, kind, g.phase))
            chosen = []
            for name in m[1:-1]:
                chosen.append(self._card(p, _island(self.settings, name, i), chosen, i, kind))
            for c in chosen:
                self.origin.pop(c, None)  # named now: no longer open
            return (kind,) + tuple(names[c] for c in chosen) + (m[-1],), False
        if kind in HIDDEN and len(m) == 1:
            raise RecordError("move %d: a %s out of place" % (i + 1, kind))
        return m, False

    def _next(self, isl, i):
        for j in self.uses.get(isl, ()):
            if j > i:
                return j
        return NEVER

    def _card(self, p, isl, chosen, i, kind):
        """A card of island `isl` in p's hand for move `i`, an open one changed if need
        be; _Stuck if none can be."""
        place = self.game.place
        hand = [c for c in range(self.n) if place[c] == p and c not in chosen]
        for c in hand:
            if c // 2 == isl and c not in self.origin:
                return c
        # The open card taken first that is or can be one (one taken later can become
        # more cards: those of a new deck too).
        opened = sorted((c for c in hand if c in self.origin), key=lambda c: self.origin[c])
        for c in opened:
            if c // 2 == isl:
                return c
            for new in (2 * isl, 2 * isl + 1):
                if new not in chosen and self._can(c, new):
                    self._rename(c, new)
                    return new
        for c in opened:
            for new in (2 * isl, 2 * isl + 1):
                # An open card elsewhere makes way: it becomes a drawable card first.
                if new not in self.origin or new in chosen:
                    continue
                other = [z for z in range(self.n) if self._can(new, z) and z // 2 != isl
                         and z not in chosen and z != c]
                if not other:
                    continue
                z = min(other, key=lambda z: (-self._next(z // 2, i), z))
                self._rename(new, z)
                if self._can(c, new):
                    self._rename(c, new)
                    return new
                self._rename(z, new)  # no use: as it was
        raise _Stuck("no stand-in cards fit these moves (move %d, %s)" % (i + 1, kind))

    def _can(self, a, b):
        """Open card `a` may be card `b` instead, b then taken in its stead: b drawable
        since before a was taken, or b open too (the two swap) and each was drawable
        while the other was taken."""
        if a == b or a not in self.origin:
            return False
        ta = self.origin[a]
        if b not in self.origin:
            return self.game.place[b] == rules.DRAWABLE and self.moved[b] < ta
        tb = self.origin[b]
        return self.since[b] < ta if ta < tb else self.since[a] < tb

    def _rename(self, a, b):
        """Open card `a` and card `b` change names from the first move that took either:
        in the game, its undo history, the moves and the bookkeeping."""
        g = self.game

        def swapped(place):
            place = list(place)
            place[a], place[b] = place[b], place[a]
            return place

        g.place[:] = swapped(g.place)
        g.history = [core[:6] + (tuple(swapped(core[6])),) + core[7:] for core in g.history]
        first = min(self.origin[a], self.origin.get(b, NEVER))
        na, nb = self.names[a], self.names[b]
        acts = self.acts
        for k in range(first, len(acts)):  # entries are replaced, never changed (save)
            act = acts[k][0]
            if na in act or nb in act:
                acts[k] = (tuple(nb if x == na else na if x == nb else x for x in act),
                           acts[k][1])
        ta, tb = self.origin.pop(a), self.origin.pop(b, None)
        self.origin[b] = ta
        if tb is not None:
            self.origin[a] = tb
        else:
            self.since[b] = self.moved[b]
        self.moved[a], self.moved[b] = self.moved[b], self.moved[a]


NEVER = 1 << 30


def _island(settings, name, i):
    isl = settings.board.island_index.get(str(name).split("-")[0])
    if isl is None:
        raise RecordError("move %d names no island: %r" % (i + 1, name))
    return isl
