"""Taking back whole turns, R12 (loaded only when a takeback is asked for or under way).

Holding `back` at the start of a turn (nothing done in it) asks for it: in a solo game it
takes back the player's last turn and the AI's turn after it at once; in a two-player
game the player on turn agrees with `ok` (or declines with `back`) to take back the last
turn. The game goes back exactly to the state at the start of that turn (games.kahuna.turns
kept it), and the board then walks the players through the table, one step at a time, in
the reverse order of the moves: the bridges to lift and to put back (a majority's
take-over removed the other side's bridges: they come back), the played cards back from
the discard pile to their hand, a face-down discard back to its owner, a drawn card back
on top of the deck or on the display (and the card laid on the display after it back on
the deck). A step that names a card names only a card both players saw face up; a card
drawn from the deck or discarded face down is "the card you drew", "your face-down
discard", and it is neither lit nor checked by a tap. `ok` confirms a step, and so does a
tap of the face-up card it names.

The journal keeps ["takeback", n] (the turns taken back) and ["tb"] for every step
confirmed: a power cut anywhere
resumes at the same step. A request not yet agreed to is not journaled (like the menu).

Refusals: `no-takeback` (no whole turn to take back: the deal, the first turn, the turns
before the last KEEP ones, a round's end in between: its discard pile became the deck),
`mid-turn` (this turn has moves: back takes them back first), `wrong-phase` (the game is
over, the AI's turn in a solo game, a step of the AI's procedure waits).
"""

from core.outcome import Rejected
from games.kahuna import rules
from games.kahuna.rules import DISCARD, NOBODY, PLAYERS, WRONG_PHASE
from games.kahuna.turns import KEEP

NO_TAKEBACK = "no-takeback"
MID_TURN = "mid-turn"
WRONG_CARD = "wrong-card"

_ORD = ("1st", "2nd", "3rd", "4th", "5th", "6th")


def _ordinal(n):
    return _ORD[n - 1] if 0 < n <= len(_ORD) else "%dth" % n


# ------------------------------------------------------------------ asking

def check(game, referee, solo):
    """How many turns the held `back` takes back now (1, or 2 in a solo game, plus a
    turn under way whose moves were all undone); Rejected when none can be."""
    log = game.turns
    if log is None:
        raise Rejected(NO_TAKEBACK, "this game keeps no turns to take back")
    if game.phase == rules.OVER:
        raise Rejected(WRONG_PHASE, "the game is over: nothing to take back")
    if game.phase == rules.DEAL or game.phase == rules.HANDICAP:
        raise Rejected(NO_TAKEBACK, "no whole turn to take back yet")
    if solo is not None and game.turn == solo.side:
        raise Rejected(WRONG_PHASE, "the AI's turn: take back once it has played")
    if (not referee.is_idle() or game.history or game.phase != rules.PLAY
            or game.refill != NOBODY):
        raise Rejected(MID_TURN, "this turn has moves: back takes them back first")
    if solo is not None:
        solo.hint = None
        step = solo.step()[0]
        if step is not None:
            raise Rejected(WRONG_PHASE, "first: " + solo.say())
    need = 1 if solo is None else 2
    e = log.entries
    extra = 1 if e and e[-1][0] == game.turn else 0  # this turn: moves all undone
    if len(e) - extra < need:
        if len(e) - extra > 0 or game.round > 1:
            raise Rejected(NO_TAKEBACK, "no whole turn to take back: the board keeps the "
                           "last %d turns" % (KEEP,))
        raise Rejected(NO_TAKEBACK, "no whole turn to take back yet")
    first = log.entry(len(e) - need - extra)  # packed, as a finished turn is
    core = first[1]
    if core[1] != game.round or core[10] != game.final_turns:
        raise Rejected(NO_TAKEBACK, "a round's end lies in between: its discard pile became "
                       "the deck")
    if solo is not None and (first[0] == solo.side or first[3] is None):
        raise Rejected(NO_TAKEBACK, "no whole turn of yours to take back")
    return need + extra


# The referee's events while a takeback is asked for or under way (games.kahuna.referee
# runs them, with itself as `referee`, and gives this module back to the heap after).

def ask(referee, solo):
    """`back` held (R12): a takeback asked for; `solo` the board's own player, if it
    plays a side (then it begins at once; two players: the player on turn agrees)."""
    referee.privacy = False
    if referee.taking_back():
        raise Rejected(WRONG_PHASE, "a takeback is under way")
    n = check(referee.game, referee, solo)
    if solo is None:
        referee.asking = n  # the player on turn agrees first
    else:
        _begin(referee, n)


def _begin(referee, n):
    referee.game.note(("takeback", n))  # journaled first: a cut loses nothing
    begin(referee.game, n)
    referee._clear()


def event(referee, what, card):
    """A tap ("tap", the card or None), a button or a pick ("pick") while a takeback is
    asked for (ok agrees, back declines) or walked through (ok, or a tap of the card the
    step names, confirms it)."""
    game = referee.game
    referee.privacy = False
    if referee.asking:
        if what == "ok":
            n = referee.asking
            referee.asking = 0
            _begin(referee, n)
        elif what == "back":
            referee.asking = 0  # declined: nothing changes
        else:
            raise Rejected(WRONG_PHASE, asking_words(game))
        return
    step = current(game)
    if what == "tap":
        c = game.card_index.get(card) if card is not None else None
        if step[3] < 0 or c != step[3]:
            referee.privacy = True  # a wrong card is neither named nor lit
            raise Rejected(WRONG_CARD if step[3] >= 0 else WRONG_PHASE,
                           "not this card: " + say(game))
    elif what != "ok":
        raise Rejected(WRONG_PHASE, "put the table back first: " + say(game))
    game.note(("tb",))
    confirm(game)


def words(referee):
    """What the players are asked now: to agree, or the walk's step."""
    if referee.asking:
        return asking_words(referee.game)
    return say(referee.game)


def asking_words(game):
    """The two-player request: the player on turn agrees."""
    return "take back %s's last turn? %s: ok agrees, back declines" % (
        PLAYERS[1 - game.turn], PLAYERS[game.turn])


# --------------------------------------------------------------- the turns

def begin(game, n):
    """Take back the last `n` turns: the game as at the first one's start, the walk
    started (live, after the journal has the record; and when it is replayed)."""
    log = game.turns
    if log is None or not 0 < n <= len(log.entries):
        raise ValueError("no %r turns to take back" % (n,))
    e = log.entries
    taken = [log.entry(i) for i in range(len(e) - n, len(e))]
    del e[-n:]
    if e:  # the turn before them, finished until now, is the last one: it may be added to
        e[-1] = log.entry(-1)
    game.restore((taken[0][1], ()))
    log.fresh = None
    log.restored = taken[0][3]  # the solo game's state then (solo.note takes it)
    log.walk = [taken, 0]
    _cache[0] = None
    if not steps(game):
        log.walk = None


def confirm(game):
    """One step done (journaled as ["tb"] by the caller first)."""
    log = game.turns
    w = log.walk if log is not None else None
    if w is None:
        raise ValueError("no takeback under way")
    w[1] += 1
    if w[1] >= len(steps(game)):
        log.walk = None
        _cache[0] = None


UNDOABLE = ("place", "remove", "refill", "discard")  # what an undo cancels (R10)

_cache = [None]  # type: list  # (walk, its steps): computed once per takeback


def steps(game):
    """The walk's steps: (words, connections lit, islands lit, the face-up card whose tap
    confirms it or -1), in the order they are done."""
    w = game.turns.walk
    if w is None:
        return []
    c = _cache[0]
    if c is None or c[0] is not w:
        c = _cache[0] = (w, _steps(game, w))
    return c[1]


def current(game):
    """The step to do now, or None."""
    log = game.turns
    if log is None or log.walk is None:
        return None
    s = steps(game)
    i = log.walk[1]
    return s[i] if i < len(s) else None


def say(game):
    step = current(game)
    if step is None:
        return ""
    return "take back, step %d of %d: %s; ok when done" % (
        game.turns.walk[1] + 1, len(steps(game)), step[0])


def _take(stack, c):
    """Card `c` out of the AI's stack: its place from the top (0 first)."""
    if c not in stack:
        return len(stack)
    n = stack.index(c)
    stack.remove(c)
    return n


def _steps(game, walk):
    taken = walk[0]
    g = rules.Game(game.settings)
    g.restore((taken[0][1], ()))
    acts = []  # (action, the card laid on the display after it or -1, its turn's index)
    for i in range(len(taken)):
        laid = list(taken[i][4])
        for a in taken[i][2]:
            acts.append((a, laid.pop(0) if a[0] == "draw" and laid else -1, i))
    save = taken[0][3]
    side = game.settings.ai
    solo = side != NOBODY and save is not None
    stack = list(save["stack"]) if solo else []
    display = list(save["display"]) if solo else []
    conns = game.board.connections
    names = game.card_names
    kept = []  # per turn: the step lists of its bridges and discards not undone, in order
    tails = []  # per turn: the steps of its draw (the turn's last action, never undone)
    for act, d, turn in acts:
        if turn == len(kept):
            kept.append([])
            tails.append([])
        p = g.turn
        bridges = list(g.bridges)
        place = list(g.place)
        g.apply(act)
        out = []
        lift = [k for k in range(len(bridges)) if bridges[k] == NOBODY and g.bridges[k] != NOBODY]
        back = [k for k in range(len(bridges)) if bridges[k] != NOBODY and g.bridges[k] == NOBODY]
        if lift or back:
            words = []
            if lift:
                words.append("lift %s's bridge from %s" % (
                    PLAYERS[g.bridges[lift[0]]], ", ".join(conns[k] for k in lift)))
            if back:
                owner = bridges[back[0]]
                words.append("put %s's bridge%s back on %s" % (
                    PLAYERS[owner], "s" if len(back) > 1 else "",
                    ", ".join(conns[k] for k in back)))
            out.append(("; ".join(words), tuple(lift + back), (), -1))
        moved = [c for c in range(len(place)) if place[c] != g.place[c]]
        ai = solo and p == side
        who = "the AI" if ai else ("you" if solo else PLAYERS[p])
        if act[0] == "draw":
            c = moved[0]
            if solo and c in display:
                display.remove(c)
                if d >= 0:
                    display.append(d)
                    out.append(("put %s from the display back on top of the deck, face down"
                                % (names[d],), (), (d // 2,), d))
                if ai:
                    out.append(("take %s, the AI's top card, and lay it back on the display"
                                % (names[c],), (), (c // 2,), c))
                else:
                    out.append(("put %s from your hand back on the display" % (names[c],),
                                (), (c // 2,), c))
            elif ai:
                out.append(("put the AI's top card, the one it drew, back on top of the "
                            "deck, unseen", (), (), -1))
            elif solo:
                out.append(("put the card you drew from the deck back on top of the deck, "
                            "face down", (), (), -1))
            else:
                out.append(("%s: put the card you drew back where it came from: on top of "
                            "the deck; or, taken from the display, on the display, once the "
                            "card laid there after it is back on top of the deck" % (who,),
                            (), (), -1))
            if ai:
                stack.insert(0, c)
        elif act[0] == "discard":
            c = moved[0]
            if ai:
                n = _take(stack, c)
                out.append(("put the top card of the discard pile, the AI's face-down "
                            "discard, back unseen into its stack as its %s card"
                            % (_ordinal(n + 1),), (), (), -1))
            else:
                out.append(("%stake your face-down discard, the top card of the pile, back "
                            "into your hand" % ("" if solo else who + ": "), (), (), -1))
        else:
            played = [c for c in moved if place[c] == p and g.place[c] == DISCARD]
            if ai:
                at = sorted((stack.index(c) if c in stack else len(stack), c) for c in played)
                for _, c in at:
                    _take(stack, c)
                for n, c in at:  # from the top down: each goes back where it was
                    out.append(("put %s from the discard pile back face down into the AI's "
                                "stack as its %s card" % (names[c], _ordinal(n + 1)),
                                (), (c // 2,), c))
            else:
                for c in played:
                    out.append(("take %s from the discard pile back into %s hand"
                                % (names[c], "your" if solo else PLAYERS[p] + "'s"),
                                (), (c // 2,), c))
        if act[0] == "undo":
            kept[turn].pop()  # R10: the last bridge or discard of the turn, cancelled
        elif act[0] in UNDOABLE:
            kept[turn].append(out)
        else:
            tails[turn].extend(out)
    del g
    result = []  # the reverse of the moves' order: the last turn's draw first
    for turn in range(len(kept) - 1, -1, -1):
        result.extend(tails[turn])
        for i in range(len(kept[turn]) - 1, -1, -1):
            result.extend(kept[turn][i])
    return result
