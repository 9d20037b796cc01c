"""Helpers for the AI and table tests, the same on CPython and inside MicroPython
(tests/mp/ai_checks.py runs them there and prints the results as JSON)."""

import gc

import gamekit  # noqa: F401  (puts firmware/ on the path)
from host_tools.games.kahuna import randgame
from host_tools.games.kahuna.table import Table

gc.collect()  # under MicroPython, compiling ai.py from source needs the heap's scraps
from core.ticks import ticks_add  # noqa: E402
from games.kahuna import ai, observe, rules  # noqa: E402
from games.kahuna import settings as kahunasettings  # noqa: E402


def table_trace(seed):
    """A fixed sequence of table moves and what the table shows after each."""
    board = gamekit.board()
    t = Table(rules.Game(board).card_names, seed)
    out = [t.deal() for _ in range(6)]
    out.append(",".join(t.display))
    out.append(t.take(t.display[1]))
    out.append(t.take_top())
    out.append(",".join(t.display))
    for name in out[:6]:
        t.discard(name)
    while t.drawable() > 0:
        d = t.display
        out.append(t.take(d[-1]) if len(out) % 2 else t.take_top())
    t.new_round()
    out.append(",".join(t.display))
    out.append(str(t.drawable()))
    return out


def hidden_world_pairs(seed, variant="standard", handicap=None, level=2, ai_seed=7,
                       checks=(1, 3, 6, 10, 15), tracker=None, make_player=None):
    """The no-peeking check. A random game is recorded up to white's n-th turn start
    (n in `checks`); a second game replays that record with every card white (the AI)
    has not seen by then swapped for another such card: the opponent's hand, its secret
    discards, its draws from the deck and the deck itself differ, the public record does
    not. There, both games' observations and the AI's decisions are compared.

    Returns (decisions, differing): per checkpoint the decision of the first game (None
    if the second game's observation or decision differed) and how many checkpoints had
    a different opponent hand in the two games (so the check is not vacuous)."""
    board = gamekit.board()
    rng = randgame.Rng(seed)
    g = rules.Game(board, variant=variant, handicap=handicap)
    player = randgame.Player(randgame.Rng(seed + 1))
    stream = []
    starts = []  # stream lengths at white's turn starts
    while not g.is_over() and len(starts) <= max(checks):
        if (g.turn == rules.WHITE and g.phase == rules.PLAY and not g.history
                and g.refill == rules.NOBODY):
            if not starts or starts[-1] != len(stream):
                starts.append(len(stream))
        act = player.choose(g)
        actor = g.turn
        g.apply(act)
        stream.append((act, actor, act[0] == "draw" and rng.chance(50)))
    decisions = []
    differing = 0
    for n in checks:
        if n >= len(starts):
            break
        d, diff = _swapped_replay(board, stream[:starts[n]], variant, handicap, level,
                                  ai_seed, rng, tracker or observe.Tracker, make_player)
        decisions.append(d)
        differing += diff
    return decisions, differing


def _swapped_replay(board, stream, variant, handicap, level, ai_seed, rng, tracker,
                    make_player):
    names = rules.Game(board).card_names
    # What white has seen: its own cards, every card played face up, the opponent's
    # face-up draws.
    visible = {}
    for act, actor, face_up in stream:
        kind = act[0]
        if kind in ("deal", "draw") and (actor == rules.WHITE or face_up):
            visible[act[1]] = 1
        elif kind == "place":
            visible[act[1]] = 1
        elif kind == "remove":
            visible[act[1]] = 1
            visible[act[2]] = 1
    hidden = [n for n in names if n not in visible]
    shuffled = list(hidden)
    for i in range(len(shuffled) - 1, 0, -1):
        j = rng.below(i + 1)
        shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
    if len(hidden) > 1 and shuffled == hidden:
        shuffled = shuffled[1:] + shuffled[:1]
    swap = dict(zip(hidden, shuffled))

    def mapped(act):
        return tuple(swap.get(x, x) if i > 0 else x for i, x in enumerate(act))

    g1 = rules.Game(board, variant=variant, handicap=handicap)
    g2 = rules.Game(board, variant=variant, handicap=handicap)
    t1 = tracker(g1, rules.WHITE)
    t2 = tracker(g2, rules.WHITE)
    for act, actor, face_up in stream:
        g1.apply(act)
        g2.apply(mapped(act))  # legal: hidden cards are only ever dealt, drawn, discarded
        t1.note(g1, act, actor, face_up)
        t2.note(g2, mapped(act), actor, face_up)
    o1 = t1.observe(g1, ())
    o2 = t2.observe(g2, ())
    if make_player is None:
        def make_player():
            return ai.Player(board, level=level, seed=ai_seed)
    d1 = make_player().decide(o1)
    d2 = make_player().decide(o2)
    same = o1.key() == o2.key() and d1 == d2
    return ([list(a) for a in d1] if same else None,
            1 if g1.hand("black") != g2.hand("black") else 0)


def slice_check(seed, budget=4, level=3):
    """Think in slices under a counting clock (one tick per work unit): returns the most
    units and the most rules applications done between two clock reads, the number of
    slices, and whether the sliced decision equals the one made in one go."""
    from host_tools.games.kahuna import duelgames as duelcore
    board = gamekit.board()
    found = []

    def grab(player, obs):
        if len(found) < 6:
            found.append(obs)

    duelcore.play_game(board, ("ai", "greedy"), seed, level=level, on_decision=grab,
                       check=False)
    worst_units = 0
    worst_applies = 0
    slices = 0
    same = True
    for obs in found:
        p = ai.Player(board, level=level, seed=3)
        whole = p.decide(obs)
        counter = Counter()
        p.clock = counter
        p.start(obs)
        # Every rules game's apply counted (the search's game is built in its slices).
        counter.real = rules.Game.apply
        rules.Game.apply = counter.apply_to
        try:
            while True:
                before = p.units
                done = p.step(budget)
                slices += 1
                worst_units = max(worst_units, p.units - before)
                if done:
                    break
        finally:
            rules.Game.apply = counter.real
        worst_applies = max(worst_applies, counter.most)
        same = same and p.best() == whole
    return worst_units, worst_applies, slices, same


class Counter:
    """A clock that ticks once per read, and counts the rules applications made between
    two reads (`most`: the largest such count)."""

    def __init__(self):
        self.ticks = 0
        self.applies = 0
        self.at_read = 0
        self.most = 0
        self.real = None

    def __call__(self):
        self.ticks += 1
        self.most = max(self.most, self.applies - self.at_read)
        self.at_read = self.applies
        return self.ticks

    def apply(self, game, act):
        self.applies += 1
        self.real(game, act)

    @property
    def apply_to(self):
        """A function for the class (rules.Game.apply) that counts through this counter."""
        return lambda game, act: self.apply(game, act)


async def think(player, obs, within_ms=3000, slice_ms=5):
    """Think about `obs` inside an asyncio loop: slices of `slice_ms`, yielding to the
    other tasks between them; the answer within `within_ms` at the latest (the best turn
    found by then). The board's solo game slices the same way from its own loop
    (games.kahuna.solo); this drives `Player` alone."""
    import asyncio
    player.start(obs, ticks_add(player.clock(), within_ms))
    while not player.step(slice_ms):
        await asyncio.sleep(0)
    return player.best()


def async_check(seed):
    """`think` in an asyncio loop beside a task that counts its turns: returns how
    often that task ran while the AI thought, the number of slices, and whether the
    answer equals the one made in one go."""
    import asyncio

    from host_tools.games.kahuna import duelgames as duelcore
    board = gamekit.board()
    found = []
    duelcore.play_game(board, ("ai", "greedy"), seed, level=3, check=False,
                       on_decision=lambda p, o: found.append(o))
    obs = max(found[:12], key=lambda o: len(o.hand))
    whole = ai.Player(board, level=3).decide(obs)
    counter = Counter()
    player = ai.Player(board, level=3, clock=counter)
    ran = [0]
    done = [False]

    async def other():
        while not done[0]:
            ran[0] += 1
            await asyncio.sleep(0)

    async def main():
        task = asyncio.create_task(other())
        plan = await think(player, obs, within_ms=10 ** 6, slice_ms=3)
        done[0] = True
        await task
        return plan

    plan = asyncio.run(main())
    return ran[0], counter.ticks, plan == whole


def hint_world_pairs(seed, variant="standard", checks=(1, 2, 3, 4, 5, 6, 7, 8, 9, 10),
                     level=None, ai_seed=7):
    """The hint's no-peeking check (games.kahuna.solo: the player's `ok` asks the AI for the
    move it would make in the player's place). A random solo game (the board plays black)
    is recorded up to white's n-th turn start; a second game replays it with the AI's
    secret discards of that round swapped for cards still in the deck (white has seen
    neither). The hint's observation and move must not change.

    Returns (hints, swapped): per checkpoint where the AI discarded that round the first
    game's hinted move (None if the second game's observation or move differed), and how
    many checkpoints that was."""
    gc.collect()  # compiling solo.py from source needs the heap's scraps
    from games.kahuna.solo import Solo  # noqa: F401
    board = gamekit.board()
    rng = randgame.Rng(seed)
    settings = {"variant": variant, "first": "white", "handicap": None, "ai": "black"}
    g = kahunasettings.Settings.from_json(board, settings).new_game()
    player = randgame.Player(randgame.Rng(seed + 1))
    stream = []
    starts = []
    while not g.is_over() and len(starts) <= max(checks):
        if (g.turn == rules.WHITE and g.phase == rules.PLAY and not g.history
                and g.refill == rules.NOBODY):
            if not starts or starts[-1] != len(stream):
                starts.append(len(stream))
        act = player.choose(g)
        actor = g.turn
        g.apply(act)
        stream.append((act, actor, g.round))
    hints = []
    swapped = 0
    for n in checks:
        if n >= len(starts):
            break
        part = stream[:starts[n]]
        rnd = part[-1][2] if part else 1
        # The AI's face-down discards of this round (a new round shuffles the pile).
        # Those the AI took this round (not held over from the last) and never played
        # (a play taken back was seen face up): in the twin game it took the swapped card
        # instead.
        taken = [a[1] for a, actor, r in part
                 if a[0] in ("deal", "draw") and actor == rules.BLACK and r == rnd]
        shown = [x for a, _, _ in part if a[0] in ("place", "remove") for x in a[1:]]
        secret = [a[1] for a, actor, r in part if a[0] == "discard" and actor == rules.BLACK
                  and r == rnd and a[1] in taken and a[1] not in shown]
        if not secret:
            continue
        # Cards still in the deck, never dealt nor drawn: swapped with a secret discard,
        # every action stays legal and white's record stays the same.
        touched = {}
        for act, _, _ in part:
            for x in act[1:]:
                touched[x] = 1
        live = [x for x in g.card_names if x not in touched]
        if not live:
            continue
        if len(live) < len(secret):
            continue
        swap = {}
        for x in secret:
            y = live[rng.below(len(live))]
            live.remove(y)
            swap[x] = y
            swap[y] = x
        swapped += 1
        hints.append(_hint_pair(board, settings, part, swap, rnd, level, ai_seed))
    return hints, swapped


def _hint_pair(board, settings, part, swap, rnd, level, ai_seed):
    from games.kahuna.solo import Solo
    out = []
    for twin in (False, True):
        gc.collect()
        g = kahunasettings.Settings.from_json(board, settings).new_game()
        solo = Solo(g, None)
        for act, actor, r in part:
            if twin and r == rnd:  # this round's actions only: the pile was reshuffled
                act = tuple(swap.get(x, x) if i > 0 else x for i, x in enumerate(act))
            g.apply(act)
            solo.note(g, act, actor)
        obs = solo._observe(True)
        solo = g = None
        gc.collect()
        move = ai.Player(board, level=level or ai.DEFAULT_LEVEL, seed=ai_seed).decide(obs)
        out.append((obs.key(), [list(a) for a in move]))
        gc.collect()
    return out[0][1] if out[0] == out[1] else None


def reach_scores(variant):
    """The evaluation (games.kahuna.aimodel) of one position from white's side, with black
    one bridge short of LALE (HUNA-LALE black's, IFFI-LALE and KAHU-LALE free) and black's
    hand one card that differs: HUNA-1 (no free connection of LALE to build on), KAHU-1
    (KAHU-LALE) or IFFI-1 (IFFI-LALE). In the alternative variant white controls KAHU
    (COCO-KAHU, GOLA-KAHU, JOJO-KAHU), which closes KAHU-LALE to black.
    Returns {card: score} and the weight REACH."""
    from games.kahuna import aimodel
    board = gamekit.board()
    m = aimodel.Model(board, variant)
    g = m.game
    g.phase = rules.PLAY
    g.turn = rules.WHITE
    conn = g.conn_id
    g.bridges[conn("HUNA-LALE")] = rules.BLACK
    if variant == kahunasettings.ALTERNATIVE:
        for name in ("COCO-KAHU", "GOLA-KAHU", "JOJO-KAHU"):
            g.bridges[conn(name)] = rules.WHITE
        g.control[board.islands.index("KAHU")] = rules.WHITE
    m.me = rules.WHITE
    out = {}
    for card in ("HUNA-1", "KAHU-1", "IFFI-1"):
        place = [rules.DRAWABLE] * m.n_cards
        place[g.card_id("ALOA-1")] = rules.WHITE
        place[g.card_id(card)] = rules.BLACK
        g.place = place
        m.held = m.islands_held(rules.BLACK)
        out[card] = m.score(rules.WHITE)
    return {"scores": out, "reach": aimodel.REACH}
