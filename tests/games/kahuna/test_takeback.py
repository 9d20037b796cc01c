"""Whole turns taken back (games.kahuna.takeback, R12): `back` held at a turn's start. The game
goes back exactly to the state at that turn's start, the table is walked through step by
step, the same on MicroPython, across power cuts (between events and in the middle of
every write), refused where it cannot be, and naming or lighting no hidden card."""

import json

import pytest

import gamekit
from core import gameload
from core.app import App
from core.board import TAKEBACK
from core.journal import Journal
from core.link import Link
from games.kahuna import rules
from host_tools.fakehw.flash import PowerCut, VirtualFlash
from host_tools.games.kahuna import randgame
from host_tools.games.kahuna.simreport import canonical
from host_tools.simulator import cli
from host_tools.simulator import engine as simcore
from host_tools.simulator.jsontext import dumps
from host_tools.simulator.scenario import parse

BOARD = gamekit.BOARD_PATH


@pytest.fixture(scope="module")
def board():
    return gamekit.board()


class Table:
    """A game on the simulated board at a table of cards (`option seed=N`): a simple
    player's turns through scenario commands (the simulator does the AI's procedure and
    the takeback's steps on the table), every command kept as a scenario line."""

    def __init__(self, board, seed, ai="black", variant="standard", sim=None):
        self.sim = sim or simcore.Simulation(board)
        self.lines = []
        self.said = []
        self.sim.app.prompters.append(self.said.append)
        self.side = rules.PLAYERS.index(ai) if ai else rules.NOBODY
        self.do("option variant=%s" % variant)
        if ai:
            self.do("option ai=%s" % ai)
        self.do("option seed=%d" % seed)

    @property
    def app(self):
        return self.sim.app

    @property
    def game(self):
        return self.sim.app.game

    def do(self, line):
        self.lines.append(line)
        for cmd in parse(line, self.sim.board):
            cmd[0] = len(self.lines)
            self.sim.execute(cmd)

    def player_turn_start(self):
        g = self.game
        return (g.phase == rules.PLAY and g.turn != self.side and not g.history
                and g.refill == rules.NOBODY and self.app.referee.is_idle()
                and (self.app.solo is None or self.app.solo.step()[0] is None))

    def step(self):
        """One command of the player on turn (the AI's turn runs by itself)."""
        g = self.game
        if g.phase == rules.PLAY:
            if g.refill != rules.NOBODY:
                self.do("press back")
                return
            for act in g.legal_actions():
                if act[0] == "place":
                    self.do("tap %s" % act[1])
                    self.do("pick %s" % act[2])
                    return
            self.do("press done")
            return
        hand = g.hand(rules.PLAYERS[g.turn])
        if not g.can_draw() and g.can_decline():
            self.do("press done")
        elif len(hand) >= rules.HAND_LIMIT:
            self.do("press discard")
            self.do("tap %s" % hand[0])
            self.do("press done")
        else:
            self.do("draw 1" if self.sim.kit.seated.table.display else "draw deck")

    def turns(self, n):
        """Play until the player's n-th turn start from now."""
        for _ in range(n):
            self.step()
            for _ in range(200):
                if self.player_turn_start() or self.game.is_over():
                    break
                self.step()

    def walk(self):
        """Confirm every step of the takeback with ok; the words said, in order."""
        words = []
        for _ in range(40):
            say = self.app.referee.say()
            if not say:
                return words
            words.append(say)
            self.do("press ok")
        raise AssertionError("the walk does not end")

    def table_state(self):
        seated = self.sim.kit.seated
        t = seated.table
        return (list(t.deck), sorted(t.display), list(seated.hands.stack))


def _solo_state(app):
    s = app.solo
    return (list(s.stack), list(s.display))


# --------------------------------------------------------------- solo play

@pytest.mark.parametrize("seed,variant", [(3, "standard"), (8, "alternative"),
                                          (21, "standard")])
def test_solo_takeback_goes_back_to_the_player_turn_start_and_the_game_goes_on(
        board, seed, variant):
    t = Table(board, seed, variant=variant)
    t.turns(1)
    taken = 0
    for _ in range(6):
        if t.game.is_over():
            break
        before = (t.game.snapshot()[0], _solo_state(t.app), t.table_state())
        t.turns(1)
        if t.game.is_over() or t.game.round != before[0][1]:
            continue
        t.do("takeback")
        words = t.walk()
        assert words and all(w.startswith("take back, step ") for w in words)
        assert (t.game.snapshot()[0], _solo_state(t.app), t.table_state()) == before
        taken += 1
        t.turns(1)  # the same turn again: the table and the board agree
    assert taken >= 2
    for _ in range(300):
        if t.game.is_over():
            break
        t.step()
    r = t.sim.report()
    assert r["phase"] == "over"
    assert r["rejected"] == [], r["rejected"][:3]


def test_solo_takeback_is_the_same_on_micropython(board, mpy):
    t = Table(board, 3)
    t.turns(2)
    t.do("takeback")
    t.walk()
    t.turns(2)
    text = "\n".join(t.lines) + "\n"
    want, failures = cli.run(BOARD, parse(text, board), "cpython")
    assert failures == [] and want["rejected"] == []
    got, failures = cli.run(BOARD, parse(text, board), "micropython")
    assert failures == []
    assert dumps(canonical(got, board)) == dumps(canonical(want, board))
    assert "takeback" in text


def test_the_ai_turn_and_a_step_of_its_procedure_refuse_a_takeback(board):
    t = Table(board, 3)
    t.turns(1)
    t.step()
    t.step()
    t.step()  # the player's draw: the AI plays its turn, the player's turn starts
    assert t.player_turn_start()
    # The AI's turn: in a game where the AI starts, before it has played.
    u = Table(board, 3, ai="white")
    u.do("takeback")
    assert u.sim.rejected[-1]["code"] in ("wrong-phase", "no-takeback")


# --------------------------------------------------------------- two players

def _two_player(board, seed, turns):
    t = Table(board, seed, ai=None)
    t.turns(turns)
    return t


def test_two_players_the_other_player_agrees_or_declines(board):
    t = _two_player(board, 5, 3)
    before = t.game.snapshot()
    t.do("takeback")
    asked = t.app.referee.say()
    assert asked.startswith("take back ") and "ok agrees, back declines" in asked
    assert t.game.snapshot() == before  # nothing changes until agreed
    t.do("press back")  # declined
    assert t.game.snapshot() == before and t.app.referee.say() == ""
    t.do("takeback")
    t.do("press done")  # neither: refused, still asking
    assert t.sim.rejected[-1]["code"] == "wrong-phase"
    t.do("press ok")
    assert t.app.referee.say().startswith("take back, step 1 of ")


def test_two_players_takeback_equals_the_journal_replayed_to_that_turn(board):
    t = _two_player(board, 9, 4)
    g = t.game
    n_taken = len(g.turns.entries[-1][2])
    t.do("takeback")
    t.do("press ok")
    t.walk()
    actions = []
    for item in _journal(t):
        if item[0] == "takeback":
            break
        if item[0] not in ("new", "solo"):
            actions.append(tuple(item))
    replayed = gamekit.new_game()
    for act in actions[:len(actions) - n_taken]:
        replayed.apply(act)
    assert g._core() == replayed._core()
    assert g.history == [] and g.phase == rules.PLAY


class _Null:
    def show(self, frame):
        pass


def _journal(t):
    from core.journalread import records
    with t.sim.flash.open("/game.jnl", "rb") as f:
        items, problem = records(f)
    assert problem is None
    return items


def test_refusals_no_whole_turn_mid_turn_game_over(board):
    t = Table(board, 4, ai=None)
    t.do("takeback")  # the first turn, nothing done
    assert t.sim.rejected[-1]["code"] == "no-takeback"
    t.step()  # a bridge this turn
    t.do("takeback")
    assert t.sim.rejected[-1]["code"] == "mid-turn"
    for _ in range(2000):
        if t.game.is_over():
            break
        t.step()
    t.do("takeback")
    r = t.sim.rejected[-1]
    assert r["code"] == "wrong-phase" and "over" in r["message"]


def test_a_round_end_cannot_be_taken_back(board):
    t = Table(board, 6, ai=None)
    for _ in range(2000):
        if t.game.round == 2 and t.player_turn_start():
            break
        t.step()
    # The turn that ended round 1 (the last drawable card) is the last one.
    t.do("takeback")
    r = t.sim.rejected[-1]
    assert r["code"] == "no-takeback" and "round" in r["message"]


def test_a_take_over_brings_the_other_side_bridges_back(board):
    """A place that gave an island's majority removed the opponent's bridges there (R1):
    the walk puts them back, lit, and the game is as before."""
    for seed in range(60):
        acts = randgame.play_game(gamekit.new_game(), seed)
        sim = simcore.Simulation(board)
        app = sim.app
        g = app.game
        for act in acts:
            g.apply(act)
            if g.round != 1 or g.is_over():
                break
            e = g.turns.entries
            if not (e and e[-1][0] != g.turn and g.phase == rules.PLAY and not g.history):
                continue  # not a turn's start
            last = g.turns.entry(-1)  # its core packed: as the rules' tuple
            actor = last[0]
            lost = [k for k in range(len(g.bridges)) if last[1][3][k] == 1 - actor
                    and g.bridges[k] == rules.NOBODY]
            if not lost or any(a[0] == "remove" for a in last[2]):
                continue
            start = last[1]
            app.press(TAKEBACK, sim.now)
            app.press("ok", sim.now)
            steps = []
            while app.referee.say():
                from games.kahuna import takeback  # loaded again: unloaded after a walk
                steps.append(takeback.current(app.game))
                app.press("ok", sim.now)
            assert app.game._core() == start
            backs = [st for st in steps if "bridge" in st[0] and "back on" in st[0]]
            assert backs, steps
            lit = set(k for st in backs for k in st[1])
            assert set(lost) <= lit
            for k in lost:
                assert board.connections[k] in " ".join(st[0] for st in backs)
            return
    raise AssertionError("no take-over in 60 random games")


# --------------------------------------------------------------- privacy

def _hidden_twin(board, swap):
    """Two players: the player on turn ends the play phase and draws the deck's top card
    (with `swap`, another card lay on top); then the takeback of that turn: the words,
    the frames and the link's lines of the walk."""
    t = Table(board, 12, ai=None)
    t.turns(1)
    t.do("press done")
    deck = t.sim.kit.seated.table.deck
    if swap:
        deck[-1], deck[-2] = deck[-2], deck[-1]
    drawn = deck[-1]
    t.do("draw deck")
    lines = []
    link = Link(t.app, lines.append, lambda: t.sim.now)
    t.app.listen(link.on_event)
    frames = []
    t.do("takeback")
    t.do("press ok")
    words = []
    while t.app.referee.say():
        words.append(t.app.referee.say())
        for _ in range(30):
            t.sim.advance(20)
            frames.append(bytes(t.app.view.frame))
        t.do("press ok")
    return drawn, words, frames, [json.loads(x) for x in lines]


def test_a_card_drawn_from_the_deck_is_neither_named_nor_lit_nor_sent(board):
    a = _hidden_twin(board, False)
    b = _hidden_twin(board, True)
    assert a[0] != b[0]
    assert a[1] == b[1] and any("the card you drew" in w for w in a[1])
    assert a[2] == b[2]
    assert a[3] == b[3]
    for card in (a[0], b[0]):
        assert all(card not in w for w in a[1])
        assert all(card not in json.dumps(x) for x in a[3])


def test_the_walk_is_the_same_whichever_card_the_player_discarded_face_down(board):
    def run(which):
        t = Table(board, 14, ai=None)
        t.turns(1)
        g = t.game
        hand = g.hand(rules.PLAYERS[g.turn])
        t.do("press discard")
        t.do("tap %s" % hand[which])
        t.do("press done")
        t.do("press done")  # end the play phase
        t.do("draw deck")
        lines = []
        link = Link(t.app, lines.append, lambda: t.sim.now)
        t.app.listen(link.on_event)
        t.do("takeback")
        t.do("press ok")
        words, frames = [], []
        while t.app.referee.say():
            words.append(t.app.referee.say())
            for _ in range(30):
                t.sim.advance(20)
                frames.append(bytes(t.app.view.frame))
            t.do("tap %s" % hand[which])  # the hidden card tapped: refused alike
            t.do("press ok")
        return hand[which], words, frames, lines, t.sim.rejected
    a = run(0)
    b = run(1)
    assert a[0] != b[0]
    assert any("face-down discard" in w for w in a[1])
    assert a[1] == b[1] and a[2] == b[2]
    assert [json.loads(x) for x in a[3]] == [json.loads(x) for x in b[3]]
    assert [(r["code"], r["message"]) for r in a[4]] == [(r["code"], r["message"])
                                                         for r in b[4]]


# --------------------------------------------------------------- power cuts

def test_a_power_cut_after_every_event_of_a_takeback_changes_nothing(board):
    plain = Table(board, 3)
    plain.turns(2)
    start = len(plain.lines)
    plain.do("takeback")
    plain.walk()
    plain.turns(1)
    want = plain.sim.report()
    cut = Table(board, 3)
    cuts = 0
    for line in plain.lines[len(cut.lines):]:
        cut.do(line)
        if len(cut.lines) > start and cut.app.referee.is_idle():
            cut.do("power-cut")  # nothing pending (a pending card is dropped by design)
            cuts += 1
    got = cut.sim.report()
    assert cuts > 10
    assert cut.sim.rejected == []
    for r in (want, got):
        r.pop("leds")
        r.pop("rejected")
    assert got == want


def test_a_power_cut_in_the_middle_of_every_takeback_write_resumes_where_it_was(board):
    """Two players; for the takeback's record and every step's record, the power fails
    in the middle of the write (and after every byte of the first): the board boots
    either before it (the takeback not made, or the step not confirmed) or after."""
    settings = {"variant": "standard", "first": "white", "handicap": None}
    every = randgame.play_game(gamekit.new_game(), 7)

    def make(flash):
        return App(gameload.load("kahuna"), board, simcore.sim_registry(board), _Null(),
                   dict(settings), journal=Journal("/game.jnl", flash))

    # The uncut run, at the first turn's end whose takeback has 3 steps or more:
    # (core, step) after each of the takeback's writes.
    for n in range(1, len(every)):
        if every[n - 1][0] not in ("draw", "decline"):
            continue
        acts = every[:n]
        app = make(VirtualFlash())
        for a in acts:
            app.game.apply(a)
        states = [(app.game._core(), None)]
        app.press(TAKEBACK, 0)
        app.press("ok", 0)
        states.append((app.game._core(), 0))
        while app.game.turns.walk is not None:
            app.press("ok", 0)
            w = app.game.turns.walk
            states.append((app.game._core(), None if w is None else w[1]))
        if len(states) > 4:
            break
    assert len(states) > 4
    first = len(acts) + 2  # write 1 starts the game, then one per action
    tried = 0
    for i in range(len(states) - 1):
        from core.journal import encode
        size = len(encode(["takeback", 1] if i == 0 else ["tb"]))
        for k in (range(size) if i == 0 else (size // 2,)):
            flash = VirtualFlash()
            flash.cut_at(first + i, k)
            try:
                app = make(flash)
                for a in acts:
                    app.game.apply(a)
                app.press(TAKEBACK, 0)
                app.press("ok", 0)
                for _ in range(len(states)):
                    app.press("ok", 0)
                raise AssertionError("no power cut happened")
            except PowerCut:
                pass
            booted = make(flash)
            w = booted.game.turns.walk
            assert (booted.game._core(), None if w is None else w[1]) == states[i], (i, k)
            tried += 1
    assert tried > 10


def test_a_takeback_after_the_journal_was_compacted_replays(board):
    """The journal compacted to the game's state (a small limit: it happens every few
    actions): the state record carries the last turns, so a takeback and its steps made
    after it replay to the same game and the same step after a power cut."""
    settings = {"variant": "standard", "first": "white", "handicap": None}
    acts = randgame.play_game(gamekit.new_game(), 5)
    ends = [i + 1 for i, a in enumerate(acts) if a[0] in ("draw", "decline")]

    def make(flash):
        return App(gameload.load("kahuna"), board, simcore.sim_registry(board), _Null(),
                   dict(settings), journal=Journal("/game.jnl", flash, limit=700))

    for end in ends[2:]:  # a turn whose takeback has 3 steps or more
        flash = VirtualFlash()
        app = make(flash)
        for a in acts[:end]:
            app.game.apply(a)
        app.press(TAKEBACK, 0)
        app.press("ok", 0)
        from games.kahuna import takeback  # loaded again: unloaded after a walk
        if app.game.turns.walk is not None and len(takeback.steps(app.game)) >= 3:
            break
    app.press("ok", 0)
    want = app.game.snapshot()
    assert app.game.turns.walk is not None and app.game.turns.walk[1] == 1
    from core.journalread import records
    with flash.open("/game.jnl", "rb") as f:
        kinds = [r[0] for r in records(f)[0]]
    assert kinds[1] == "state"  # compacted
    again = make(flash)
    assert again.boot_problem is None
    assert again.game.snapshot() == want


def test_the_link_holds_back_and_says_the_steps(board):
    """Over the serial link: {"cmd": "press", "button": "back", "hold": true} is the held
    button; the request and each step come as {"event": "ai", "step": "takeback"}, and
    the state's ui says it; a bad hold is one error line and changes nothing."""
    t = _two_player(board, 5, 2)
    lines = []
    link = Link(t.app, lines.append, lambda: t.sim.now)
    t.app.listen(link.on_event)
    before = t.game.snapshot()
    for bad in ('{"cmd": "press", "button": "next", "hold": true}',
                '{"cmd": "press", "button": "back", "hold": 1}'):
        link.line(bad)
        assert "error" in json.loads(lines[-1])
    assert t.game.snapshot() == before
    link.line('{"cmd": "press", "button": "back", "hold": true}')
    link.line('{"cmd": "press", "button": "ok"}')
    said = [json.loads(x) for x in lines if '"ai"' in x]
    assert said[0]["step"] == "takeback" and "ok agrees" in said[0]["say"]
    assert said[-1]["say"].startswith("take back, step 1 of ")
    link.line('{"cmd": "state"}')
    state = [json.loads(x) for x in lines if '"state"' in x][-1]["state"]
    assert state["ui"]["takeback"]["say"] == said[-1]["say"]
    assert json.loads(lines[-1])["say"] == said[-1]["say"]  # the step, again
    remote = Link(t.app, lines.append, lambda: t.sim.now, channel="remote")
    remote.line('{"cmd": "press", "button": "back", "hold": true}')
    assert "error" in json.loads(lines[-1])


def test_the_solo_takeback_scenario_on_both_runtimes():
    """tests/scenarios/solo/takeback-solo.scn: its expects hold, the same JSON on both
    runtimes (a solo report has ai_moves, so it is not in the two-player suite)."""
    import os
    import subprocess
    import sys
    path = os.path.join(gamekit.ROOT, "tests", "scenarios", "solo", "takeback-solo.scn")
    out = {}
    for runtime in ("cpython", "micropython"):
        proc = subprocess.run([sys.executable, "-m", "host_tools", "sim", "--scenario", path,
                               "--json", "--runtime", runtime], capture_output=True,
                              text=True, cwd=gamekit.ROOT, timeout=300)
        assert proc.returncode == 0, (runtime, proc.stderr)
        out[runtime] = proc.stdout
    assert out["cpython"] == out["micropython"]
    assert json.loads(out["cpython"])["rejected"] == []


# --------------------------------------------------------------- the web page

@pytest.mark.parametrize("options", [[], ["ai=black"]])
def test_the_web_page_takes_back_and_its_table_follows(options):
    """The static page's Python side (host_tools/web/game.py, Kahuna's webgame): the
    take-back button's request, the question (hot seat) and each step in the state's
    `takeback` and hint, the page's table of cards back as it was at the turn's start
    (the deck's order too), no hidden card in the state; then the game plays on."""
    import webplayer
    from host_tools.web import game as webpage

    def call(req):
        resp = json.loads(webpage.handle(json.dumps(req)))
        assert resp["ok"], (req, resp)
        return resp

    resp = call({"op": "start", "board": BOARD, "seed": 4, "options": options})
    player = webplayer.Player()
    web = webpage._session["game"]
    solo = bool(options)
    turns = 0
    kept = None
    key = None
    for _ in range(600):
        st = resp["state"]
        rep = st["report"]
        g = web.game
        at_start = (rep["phase"] == "play" and not g.history and web.referee.is_idle()
                    and (not solo or (rep["turn"] == "white" and not st["solo"]["asks"])))
        if at_start and (rep["round"], rep["turn"], rep["drawable"]) != key:
            key = (rep["round"], rep["turn"], rep["drawable"])
            turns += 1
            if turns == 3:
                t = web.table
                kept = (g._core(), list(t.deck), sorted(t.display), rep)
            if turns == 4:
                break
        turn = "white" if solo else rep["turn"]
        hand = call({"op": "hand", "player": turn})["cards"]
        resp = call(player.move(st, hand))
    assert turns == 4 and kept is not None
    resp = call({"op": "press", "button": "back", "hold": True})
    if not solo:
        assert "ok agrees" in resp["state"]["takeback"]
        resp = call({"op": "press", "button": "ok"})
    steps = 0
    while resp["state"]["takeback"]:
        assert resp["state"]["hint"].startswith("Take back, step ")
        resp = call({"op": "press", "button": "ok"})
        steps += 1
    assert steps > 0
    t = web.table
    assert (web.game._core(), list(t.deck), sorted(t.display)) == kept[:3]
    assert resp["state"]["report"]["bridges"] == kept[3]["bridges"]
    for _ in range(4000):
        st = resp["state"]
        if st["report"]["phase"] == "over":
            break
        turn = "white" if solo else st["report"]["turn"]
        hand = call({"op": "hand", "player": turn})["cards"]
        resp = call(player.move(st, hand))
        # The simple player's tries may be refused by the rules, never by the table.
        assert resp["state"]["message"].get("code") not in ("bad-draw",
                                                             "card-not-drawable")
    assert resp["state"]["report"]["phase"] == "over"
    assert web.table.drawable() == web.game.drawable_count()


@pytest.mark.parametrize("seed,variant", [(1, "standard"), (2, "alternative"),
                                          (3, "standard"), (4, "alternative")])
def test_every_turn_of_random_games_taken_back_and_replayed(board, seed, variant):
    """Random two-player games (bridges, removals, refills, discards, undos, R10): at
    every turn's start the last turn is taken back, its walk confirmed step by step, the
    game is at that turn's start exactly, and the same turn is played again; the games end
    as they would have without any takeback."""
    acts = randgame.play_game(gamekit.new_game(variant=variant), seed)
    plain = gamekit.new_game(variant=variant)
    for a in acts:
        plain.apply(a)
    sim = simcore.Simulation(board)
    sim.app.new_game({"variant": variant, "first": "white", "handicap": None})
    app = sim.app
    g = app.game
    done = set()
    starts = []  # the action index where each turn began, in order
    i = 0
    taken = 0
    while i < len(acts):
        e = g.turns.entries
        at_start = g.phase == rules.PLAY and not g.history and g.refill == rules.NOBODY
        last = g.turns.entry(-1) if e else None  # its core packed: as the rules' tuple
        if at_start and e and e[-1][0] != g.turn and i not in done and g.round == \
                last[1][1] and last[1][10] == g.final_turns:
            done.add(i)
            start = last[1]
            back_to = starts.pop()  # the taken turn is played again from its start
            app.press(TAKEBACK, sim.now)
            app.press("ok", sim.now)
            assert app.game._core() == start
            for _ in range(40):
                if not app.referee.taking_back():
                    break
                out = app.press("ok", sim.now)
                assert out.kind != "refused"
            assert not app.referee.taking_back()
            assert g._core() == start and g.history == []
            taken += 1
            i = back_to
            continue
        if at_start and (not e or e[-1][0] != g.turn) and (not starts or starts[-1] != i):
            starts.append(i)
        g.apply(acts[i])
        i += 1
    assert taken > 20
    assert g._core() == plain._core()


def test_an_archived_game_with_a_takeback_replays_step_by_step(board):
    """The monitor's and the live page's replay of an archived game (host_tools/games/
    kahuna/replay.py) reads the takeback's records: it says them, and every later move
    replays."""
    from host_tools.games.kahuna import replay
    from host_tools.simulator.engine import JOURNAL
    t = _two_player(board, 9, 3)
    t.do("takeback")
    t.do("press ok")
    t.walk()
    t.turns(1)
    data = bytes(t.sim.flash.files[JOURNAL])
    out = replay.replay(board, data, revealed=True)
    assert out["problem"] is None
    texts = [s["text"] for s in out["steps"]]
    assert any(x.startswith("the last turn taken back") for x in texts)
    assert any(x.startswith("a step of the takeback") for x in texts)
    assert out["steps"][-1]["state"]["bridges"] == t.sim.report()["bridges"]
