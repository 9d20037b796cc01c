"""Solo play at the table (games.kahuna.solo): the board plays one side with real cards nobody
looks at, the player does its hands' work. Whole games on the simulated board, the same
on MicroPython, privacy (no link line names a card of the AI's stack, the lights and the
link are the same whichever card it draws), wrong cards refused, power cuts."""

import json
import os

import pytest

from core import board as boardmod
from core.link import Link
from games.kahuna import rules
from games.kahuna import settings as kahunasettings
from host_tools.games.kahuna.simreport import canonical
from host_tools.simulator import cli
from host_tools.simulator.jsontext import dumps
from host_tools.simulator.scenario import ScenarioError, parse
from mpy_runner import ROOT
from solokit import SoloGame

BOARD = os.path.join(ROOT, "board_def", "kahuna.json")


@pytest.fixture(scope="module")
def board():
    return boardmod.load(BOARD)


@pytest.mark.parametrize("seed,ai,variant,first,handicap", [
    (1, "black", "standard", "white", None),
    (2, "white", "standard", "white", None),
    (3, "black", "alternative", "black", None),
    (4, "white", "alternative", "white", None),
    (5, "black", "standard", "white", "black:2"),  # the AI places its handicap bridges
    (6, "black", "alternative", "black", "white:3"),
])
def test_a_solo_game_is_played_to_the_end_with_the_cards_procedure(board, seed, ai, variant,
                                                                  first, handicap):
    s = SoloGame(board, seed, ai=ai, variant=variant, first=first, handicap=handicap)
    s.play()
    r = s.sim.report()
    assert r["phase"] == "over" and r["winner"] in ("white", "black", "draw")
    assert r["rejected"] == []  # every step the board asked for was done as asked
    if handicap and handicap.startswith(ai):
        assert [m[0] for m in r["ai_moves"][:int(handicap[-1])]] == ["handicap"] * int(
            handicap[-1])
    assert r["ai_moves"] and all(m[0] in ("place", "remove", "refill", "skip_refill",
                                          "discard", "end_play", "draw", "decline",
                                          "handicap") for m in r["ai_moves"])
    # The hands' face-down stack is the AI's hand, card for card, in the board's order.
    assert s.hands.stack == s.ai_stack()
    assert sorted(s.hands.stack) == s.game.hand(ai)


def test_the_board_asks_for_the_display_and_names_places_in_the_stack(board):
    s = SoloGame(board, 7)
    seen = set()
    while s.step():
        seen.add(s.said[-1].split(":")[0] if s.said else "")
    assert "lay the deck's top card face up on the display and tap it (3 more)" in s.said
    assert any(t.startswith("AI plays its 1st card") for t in s.said)
    assert any(t.startswith("AI builds ") and t.endswith("then ok") for t in s.said)
    assert any(t.startswith("AI draws") or t.startswith("AI takes ") for t in s.said)


def test_scenario_sets_the_ai_and_reports_its_moves(board):
    assert parse("option ai=black\n", board)[0][1:] == ["option", "ai", "black"]
    assert parse("option ai=none\n", board)[0][1:] == ["option", "ai", None]
    with pytest.raises(ScenarioError, match="ai must be white, black or null"):
        parse("option ai=green\n", board)
    report, failures = cli.run(BOARD, parse("option ai=black\ntap HUNA-1\n", board), "cpython")
    assert failures == [] and report["ai_moves"] == []
    two, _ = cli.run(BOARD, parse("tap HUNA-1\n", board), "cpython")
    assert "ai_moves" not in two  # a two-player report keeps its keys


def test_settings_ai_checked_and_kept(board):
    assert kahunasettings.check_settings({"ai": "white"})["ai"] == "white"
    assert "ai" not in kahunasettings.check_settings({})
    for bad in ("green", 1, True):
        with pytest.raises(ValueError, match="ai must be"):
            kahunasettings.check_settings({"ai": bad})
    assert kahunasettings.Settings.from_json(board, {"ai": "black"}).to_json()["ai"] == "black"


def test_same_solo_game_on_micropython(board, mpy):
    s = SoloGame(board, 11, variant="alternative")
    s.play()
    text = "\n".join(s.lines) + "\n"
    want, failures = cli.run(BOARD, parse(text, board), "cpython")
    assert failures == [] and want["phase"] == "over"
    assert want["ai_moves"] == [list(m) for m in s.sim.ai_log]
    got, failures = cli.run(BOARD, parse(text, board), "micropython")
    assert failures == []
    board_ = boardmod.load(BOARD)
    assert dumps(canonical(got, board_)) == dumps(canonical(want, board_))


# ---------------------------------------------------------------------- privacy

def test_no_link_line_names_a_card_of_the_ai_stack(board):
    s = SoloGame(board, 5)
    lines = []

    def write(text):
        stack = s.ai_stack() if s.sim.app.solo is not None else []
        for card in stack:
            assert card not in text, "a link line names the AI's %s: %s" % (card, text)
        lines.append(json.loads(text))

    link = Link(s.sim.app, write, lambda: s.sim.now)
    s.sim.app.listen(link.on_event)
    s.play()
    ai_events = [m for m in lines if m.get("event") == "ai"]
    assert any(m["step"] == "draw" for m in ai_events)
    assert any(m["step"] == "tap" and "its" in m["say"] for m in ai_events)
    assert all("hands" not in m.get("changed", {}) for m in lines)


def _to_ai_draw(board, seed, swap):
    """A solo game up to the AI's first draw from the deck; with `swap` the deck's top
    card is another one. Returns the game and what the board showed and sent next."""
    s = SoloGame(board, seed)
    s.until(lambda say: say.startswith("AI draws"))
    if swap:
        deck = s.table.deck
        deck[-1], deck[0] = deck[0], deck[-1]
    lines = []
    link = Link(s.sim.app, lines.append, lambda: s.sim.now)
    s.sim.app.listen(link.on_event)
    frames = []
    card = s.hands.next(s.sim.app.solo.say())[1]
    s.tap(card)
    for _ in range(60):
        s.sim.advance(20)
        frames.append(bytes(s.sim.app.view.frame))
    return s, card, lines, frames


def test_lights_and_link_are_the_same_whichever_card_the_ai_draws(board):
    a, card_a, lines_a, frames_a = _to_ai_draw(board, 3, False)
    b, card_b, lines_b, frames_b = _to_ai_draw(board, 3, True)
    assert card_a != card_b and a.game.hand("black") != b.game.hand("black")
    assert frames_a == frames_b
    assert lines_a == lines_b


# ---------------------------------------------------------------------- wrong cards

def test_a_wrong_card_is_refused_with_a_reason_naming_no_card(board):
    s = SoloGame(board, 1)
    say = s.until(lambda say: say.startswith("AI plays its"))
    before = s.game.snapshot()
    human = s.game.hand("white")[0]
    s.tap(human)
    r = s.sim.rejected[-1]
    assert r["code"] == "wrong-card"
    assert r["message"].startswith("this is not the AI's ") and "-" not in r["message"]
    assert s.game.snapshot() == before and s.sim.app.solo.say() == say
    assert s.sim.app.view.f.error_where.places == ()  # no island flashed
    # The right card is accepted; then a tap or any button but ok waits for ok.
    move = s.hands.next(say)
    s.tap(move[1])
    confirm = s.sim.app.solo.say()
    assert confirm.endswith("then ok")
    s.tap(human)
    s.press("next")
    assert [r["code"] for r in s.sim.rejected[-2:]] == ["wrong-phase", "wrong-phase"]
    assert s.sim.rejected[-1]["message"] == "the AI's turn: " + confirm
    s.press("ok")
    assert s.sim.app.solo.say() != confirm


def test_the_ai_draw_refuses_a_display_card_and_a_card_in_a_hand(board):
    s = SoloGame(board, 3)
    s.until(lambda say: say.startswith("AI draws"))
    shown = s.hands.tapped[0]
    s.tap(shown)
    assert s.sim.rejected[-1]["message"] == ("that card lies face up on the display: the AI "
                                            "draws the deck's top card")
    s.tap(s.game.hand("white")[0])
    assert s.sim.rejected[-1]["message"] == ("that card is not in the deck: the AI draws the "
                                            "deck's top card")
    assert all(r["code"] == "wrong-card" for r in s.sim.rejected)


def test_the_display_refuses_a_card_shown_already(board):
    s = SoloGame(board, 2)
    s.until(lambda say: say.startswith("lay the deck's top card face up"))
    move = s.hands.next(s.sim.app.solo.say())
    s.tap(move[1])
    s.tap(move[1])
    assert s.sim.rejected[-1] == {"line": len(s.lines), "code": "wrong-card",
                                  "message": "%s is on the display already: tap the card "
                                             "just laid" % (move[1],)}


# ---------------------------------------------------------------------- power cuts

@pytest.mark.parametrize("when", ["AI builds ", "AI plays its", "AI draws", "AI takes "])
def test_power_cut_in_the_ai_turn(board, when):
    s = SoloGame(board, 4)
    say = s.until(lambda say: say.startswith(when))
    stack = s.ai_stack()
    s.power_cut()
    assert s.sim.app.solo.say() == "the AI is thinking"  # its plan was not journaled
    s.do("wait", 20)
    if when == "AI builds ":
        # The card turned up is asked for again, at its place in the stack.
        assert s.sim.app.solo.say().startswith("AI plays its")
    else:
        assert s.sim.app.solo.say() == say  # the same observation, the same decision
    assert s.ai_stack() == stack
    s.play()
    r = s.sim.report()
    assert r["phase"] == "over" and r["rejected"] == []
    assert s.hands.stack == s.ai_stack()


# ---------------------------------------------------------------------- the hint

def test_the_hint_is_lit_only_when_asked_in_a_colour_of_its_own(board):
    s = SoloGame(board, 6)
    # The player's play phase, nothing chosen yet.
    s.until(lambda say: say == "" and s.game.phase == rules.PLAY
            and s.game.turn == rules.WHITE and s.sim.app.referee.is_idle()
            and any(a[0] == "place" for a in s.game.legal_actions()))
    view = s.sim.app.view
    hint = view.colours["hint"]
    b = s.sim.board

    def lit():
        s.sim.app.show(s.sim.now)
        return [k for k in range(len(b.conn_led)) if view.frame[3 * b.conn_led[k]:
                                                             3 * b.conn_led[k] + 3] == hint]

    assert lit() == []  # never shown unasked
    before = s.game.snapshot()
    s.press("ok")
    s.do("wait", 40)
    say = s.sim.app.solo.say()
    assert say.startswith("hint: ")
    shown = lit()
    assert len(shown) == 1 and b.connections[shown[0]] in say
    assert s.game.snapshot() == before and s.sim.rejected == []
    s.press("next")  # any button hides it, and does nothing else
    assert lit() == [] and s.sim.app.solo.say() == "" and s.game.snapshot() == before


# ---------------------------------------------------------------------- the terminal

def test_make_sim_solo_one_command_hides_the_ai_hand_and_draws_from_the_table(board):
    """`make sim ARGS="--ai black --seed 3"`: the cards are dealt, the player sees their
    own hand, draws with `draw N`, and the simulator does the AI's card procedure."""
    import io

    from host_tools.games.kahuna import play
    s = play.Session(board, out=io.StringIO(), unicode=False, ai="black", seed=3)
    g = s.sim.app.game
    screen = "\n".join(s.screen(100, 60))
    mine = g.hand("white")
    assert len(mine) == 3 and " ".join(mine) in screen
    for card in g.hand("black"):
        assert card not in screen
    assert "the board plays black" in screen
    # Play to the end: place when possible, then draw the first display card.
    for _ in range(400):
        if g.phase == rules.OVER:
            break
        g = s.sim.app.game
        if g.phase == rules.PLAY:
            places = [a for a in g.legal_actions() if a[0] == "place"]
            if places:
                assert s.handle("tap " + places[0][1]) is None
                assert s.handle("pick " + places[0][2]) is None
            else:
                assert s.handle("done") is None
        elif g.phase == rules.DRAW:
            if len(g.hand("white")) >= rules.HAND_LIMIT and g.must_draw:  # R3, R4
                for line in ("discard", "tap " + g.hand("white")[0], "done"):
                    assert s.handle(line) is None
            if g.can_draw():
                assert s.handle("draw 1") is None
            else:
                assert s.handle("done") is None
        screen = "\n".join(s.screen(100, 60))
        for card in g.hand("black"):
            assert card not in screen.split("Round ")[1].split("> ")[0], card
    assert s.sim.app.game.phase == rules.OVER
    assert s.sim.report()["ai_moves"]


def test_hot_seat_hides_the_hand_of_the_player_not_on_turn(board):
    import io

    from host_tools.games.kahuna import play
    s = play.Session(board, out=io.StringIO(), unicode=False, seed=8)
    g = s.sim.app.game
    assert g.phase == rules.PLAY and s.sim.app.solo is None
    state = s.shown_state()
    on, off = rules.PLAYERS[g.turn], rules.PLAYERS[1 - g.turn]
    assert state["hands"][on] == g.hand(on) and state["hands"][off] == ["?"] * 3


def test_sim_ai_with_a_scenario_is_refused():
    import subprocess
    import sys
    proc = subprocess.run([sys.executable, "-m", "host_tools", "sim", "--ai", "black",
                           "--scenario", "-"], input="", capture_output=True, text=True,
                          cwd=ROOT)
    assert proc.returncode == 2 and "option ai=black" in proc.stderr


def test_the_monitor_shows_what_the_board_asks(board):
    import sys as _sys

    from host_tools.maker import monitor
    mon = monitor.Monitor(board, _sys.stdout, colour=None)
    s = SoloGame(board, 1)
    link = Link(s.sim.app, lambda text: mon.line(text), lambda: s.sim.now)
    s.sim.app.listen(link.on_event)
    link.feed(b'{"cmd": "state"}\n')
    s.until(lambda say: say.startswith("AI plays its"))
    s.do("wait", 20)
    screen = "\n".join(mon.screen())
    assert "the board asks: AI plays its" in screen
    for card in s.ai_stack():
        assert card not in screen


def test_lights_the_same_whichever_card_the_ai_draws_on_micropython(board, mpy):
    """The twin games of the test above as scenarios, run inside the MicroPython unix
    port: the frames after the AI's face-down draw are the same; only the hands differ
    (and the simulator's list of the AI's moves, which names the card drawn)."""
    reports = []
    for swap in (False, True):
        s, card, _lines, _frames = _to_ai_draw(board, 3, swap)
        text = "\n".join(s.lines) + "\nwait 1200\n"
        report, failures = cli.run(BOARD, parse(text, board), "micropython")
        assert failures == [] and report["rejected"] == []
        assert card in report["hands"]["black"]
        reports.append(report)
    a, b = reports
    assert a["hands"]["black"] != b["hands"]["black"]
    assert a["leds"] == b["leds"]
    assert a["ai_moves"][:-1] == b["ai_moves"][:-1]
    assert dict(a, hands=None, ai_moves=None) == dict(b, hands=None, ai_moves=None)


# ---------------------------------------------------------------------- the setting

def test_the_link_starts_a_solo_game_that_survives_a_power_cut(board):
    from host_tools.games.kahuna.textboard import parse_settings
    from host_tools.simulator.engine import Simulation
    sim = Simulation(board)
    lines = []
    link = Link(sim.app, lambda t: lines.append(json.loads(t)), lambda: sim.now)
    link.feed(json.dumps({"cmd": "new", "settings": parse_settings(["ai=black"])}).encode()
              + b"\n")
    assert lines[-1]["event"] == "new"
    assert lines[-1]["state"]["settings"] == {"variant": "standard", "first": "white",
                                              "handicap": None, "ai": "black"}
    link.feed(b'{"cmd": "new", "settings": {"ai": "green"}}\n')
    assert "ai must be white, black or null" in lines[-1]["error"]
    assert sim.app.solo is not None and sim.app.settings["ai"] == "black"
    link.feed(b'{"cmd": "state"}\n')  # a host that comes later learns the step too
    assert lines[-2]["event"] == "state"
    assert lines[-1] == {"event": "ai", "step": None, "say": ""}  # white deals first
    sim.boot()  # a power cut: the journal's new-game record holds the setting
    assert sim.app.solo is not None and sim.app.solo.side == rules.BLACK


def test_a_bad_solo_record_in_the_journal_is_passed_over(board):
    s = SoloGame(board, 9)
    s.until(lambda say: say.startswith("AI plays its"))
    stack = s.ai_stack()
    s.sim.app.journal.append(("solo", {"display": "garbage"}))
    s.power_cut()
    s.do("wait", 20)
    assert s.ai_stack() == stack and s.sim.app.boot_problem is None


def test_the_ai_thinks_in_slices_of_the_loop_and_answers_by_its_deadline(board):
    """With a clock that moves 1 ms per reading (a slow board), one AI tick stops after
    its slice and the frames run between slices; the deadline ends the thinking with the
    best turn found so far."""
    from games.kahuna import solo as solomod
    s = SoloGame(board, 1)
    s.until(lambda say: say.startswith("AI plays its"))
    solo = s.sim.app.solo
    solo.plan = None  # its turn thought again, the test driving the ticks itself
    assert solo.say() == "the AI is thinking"
    ticks = [0]

    def clock():
        ticks[0] += 1
        return ticks[0]

    solo.player.clock = solo.clock = clock
    slices = 0
    while solo.plan is None:
        before = ticks[0]
        solo.tick(0)
        slices += 1
        # One tick: the slice (and a reading or two around it), never the whole decision.
        assert ticks[0] - before <= solomod.SLICE_MS + 3
        s.sim.app.show(0)  # a frame between slices
        assert slices < solomod.THINK_MS  # the deadline ends it at the latest
    assert slices > 1 and solo.plan  # a legal turn, from the best found


def test_a_scenario_seats_a_table_and_the_simulator_plays_the_ai_cards(board, mpy):
    """`option seed=N`: the simulator deals from the seeded deck, `draw 1` takes the
    display's first card, and it does the AI's card procedure after every command; the
    report lists the AI's moves, the same on both runtimes."""
    text = ("option ai=black\noption seed=3\nexpect phase play\ntap GOLA-1\n"
            "pick GOLA-KAHU\npress done\ndraw 1\nexpect turn white\n")
    want, failures = cli.run(BOARD, parse(text, board), "cpython")
    assert failures == [] and want["rejected"] == []
    assert want["ai_moves"][:2] == [["place", "KAHU-1", "KAHU-LALE"],
                                    ["place", "LALE-1", "IFFI-LALE"]]
    assert want["ai_moves"][-2:] == [["end_play"], ["draw", "ALOA-2"]]
    got, failures = cli.run(BOARD, parse(text, board), "micropython")
    assert failures == []
    assert dumps(canonical(got, board)) == dumps(canonical(want, board))
    bad, _ = cli.run(BOARD, parse("option seed=3\ndraw deck\n", board), "cpython")
    assert bad["rejected"][0]["message"] == "draw: it is not the draw phase"
    with pytest.raises(ScenarioError, match="usage: draw N"):
        parse("draw 4\n", board)
    with pytest.raises(ScenarioError, match="option seed must be a whole number"):
        parse("option seed=x\n", board)


def test_the_ai_level_is_a_setting_the_board_plays_at(board):
    assert kahunasettings.check_settings({"ai": "black", "ai_level": 3}) == {
        "variant": "standard", "first": "white", "handicap": None, "ai": "black",
        "ai_level": 3}
    assert "ai_level" not in kahunasettings.check_settings({"ai": "black"})  # the AI's default
    for bad in (0, 4, "2", True):
        with pytest.raises(ValueError):
            kahunasettings.check_settings({"ai": "black", "ai_level": bad})
    settings = kahunasettings.Settings.from_json(board, {"ai": "white", "ai_level": 1})
    assert settings.to_json()["ai_level"] == 1  # journaled with the game
    from host_tools.simulator.engine import Simulation
    sim = Simulation(board)
    sim.run(parse("option ai_level=1\noption ai=black\n", board))
    assert sim.app.solo.player.level == 1  # the board's AI plays at the level set
    sim.boot()  # a power cut: the level comes back from the journal
    assert sim.app.solo.player.level == 1
    assert parse("option ai_level=3\n", board)[0][2:] == ["ai_level", 3]
    with pytest.raises(ScenarioError):
        parse("option ai_level=9\n", board)


def test_a_draw_the_board_refuses_leaves_the_card_on_the_table(board):
    from host_tools.simulator.engine import Simulation
    sim = Simulation(board)
    # Hot seat on a seeded table: both players pass and draw until white holds 5 cards.
    sim.run(parse("option seed=5\n" + "press done\ndraw deck\n" * 5, board))
    r = sim.report()
    assert [x["code"] for x in r["rejected"]] == ["hand-full"]  # R3
    t = sim.kit.seated.table
    top = t.deck[-1]
    assert t.drawable() == r["drawable"]  # the refused card still lies on the deck
    sim.run(parse("press discard\ntap %s\npress done\ndraw deck\n"
                  % sim.app.game.hand("white")[0], board))
    assert top in sim.app.game.hand("white")  # the same top card, drawn now


# ---------------------------------------------------------------------- the hint

def test_the_hint_does_not_read_the_ai_secret_discards():
    """Issue 15, defect 3: the hint (the AI's move in the player's place) comes from what
    the player may know: the AI's face-down discards swapped for other unseen cards never
    change it (the old hint searched with the AI's own record, secret discards included)."""
    import aikit
    total = 0
    for seed in range(1, 7):
        hints, swapped = aikit.hint_world_pairs(seed, ("standard", "alternative")[seed % 2])
        assert None not in hints, "seed %d: the hint depended on the AI's secret discard" % seed
        total += swapped
    assert total >= 8  # the check is not vacuous: the AI had discarded in that many


def test_the_hint_does_not_read_the_ai_secret_discards_on_micropython(mpy):
    import json

    import aikit
    for seed in (2, 5):
        got = json.loads(mpy.run_script("tests/mp/ai_checks.py", "hint", str(seed), "standard",
                                        timeout=300).strip().splitlines()[-1])
        assert None not in got[0] and got[1] >= 1
        assert got == json.loads(json.dumps(list(aikit.hint_world_pairs(seed, "standard"))))


def test_a_tap_or_a_button_while_the_board_makes_the_ai_move_itself_is_refused(board):
    """Between the AI's last confirmed move and its next tick the board owes a move it
    makes itself (here the end of its play phase): a card tapped or a button pressed then
    is refused, not taken for the AI's (seen on the chip: the bench's player, reading no
    words, tapped its own card in that window)."""
    from games.kahuna import solo as solomod
    s = SoloGame(board, 1, ai="white")
    app = s.sim.app
    solo = app.solo
    while not (solo.step()[0] == solomod.CONFIRM and len(solo.plan) > 1
               and solo.plan[1] == ("end_play",)):
        assert s.step() and s.steps < 500
    now = s.sim.now
    assert app.press("ok", now).kind == "accepted"  # straight to the app: no tick after it
    assert solo.step() == (None, ("end_play",)) and solo.say() == ""
    before = s.game.snapshot()
    human = s.game.hand("black")[0]
    outs = [app.tap_card(human, now), app.press("done", now), app.press("back", now)]
    assert [(o.kind, o.code) for o in outs] == [("refused", "wrong-phase")] * 3
    assert outs[0].message == "the AI is moving"
    assert s.game.snapshot() == before and solo.step() == (None, ("end_play",))
    app.tick_ai(now)  # its tick makes the move
    assert s.game.phase == "draw" and solo.step()[0] is not None
