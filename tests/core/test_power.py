"""Never lose a game: the journal, power cuts between events and in the middle of any
flash write, a corrupt journal, a full flash, and the watchdog."""

import sys

import pytest

import gamekit
from core import gameload
from core import journal as jmod
from core.app import App
from core.journal import Journal, encode
from games.kahuna import report, rules
from host_tools.fakehw.flash import PowerCut, VirtualFlash
from host_tools.games.kahuna import randgame
from host_tools.games.kahuna import scenwrite as scengen
from host_tools.simulator import engine as simcore
from host_tools.simulator.scenario import parse

SETTINGS = {"variant": "standard", "first": "white", "handicap": None}


class NullStrip:
    def show(self, frame):
        pass


def new_app(flash, limit=jmod.LIMIT):
    board = gamekit.board()
    return App(gameload.load(board.game), board,
               simcore.sim_registry(board), NullStrip(), dict(SETTINGS),
               journal=Journal("/game.jnl", flash, limit=limit))


def random_actions(seed, **settings):
    game = gamekit.new_game(**settings)
    return randgame.play_game(game, seed), game


# ------------------------------------------------------------------ journal


def test_journal_replays_a_whole_game_to_the_same_state():
    flash = VirtualFlash()
    app = new_app(flash)
    actions, final = random_actions(3)
    for act in actions:
        app.game.apply(act)
    again = new_app(flash)
    assert again.boot_problem is None
    # The replay's code (core.resume, core.journalread) is given back once the board has
    # booted.
    assert "core.resume" not in sys.modules and "core.journalread" not in sys.modules
    # The rules' state and the turn's undo history; the board's game also keeps its last
    # turns for a takeback (games.kahuna.turns), which a bare rules game does not.
    assert again.game.snapshot()[:2] == final.snapshot()
    assert again.game.snapshot() == app.game.snapshot()


def test_a_torn_last_record_is_dropped_and_the_file_cut_back():
    flash = VirtualFlash()
    app = new_app(flash)
    for card in gamekit.WHITE_DEAL:
        app.game.deal(card)
    whole = bytes(flash.files["/game.jnl"])
    flash.files["/game.jnl"].extend(encode(["deal", "ALOA-1"])[:7])  # a cut mid-write
    again = new_app(flash)
    assert again.boot_problem.startswith("torn record")
    assert again.game.hand("white") == sorted(gamekit.WHITE_DEAL)
    assert bytes(flash.files["/game.jnl"]) == whole
    again.game.deal("ALOA-1")  # and the journal goes on from there
    assert new_app(flash).game.hand("black") == ["ALOA-1"]


def test_a_corrupt_record_keeps_the_readable_prefix_and_the_damaged_file():
    flash = VirtualFlash()
    app = new_app(flash)
    for card in gamekit.WHITE_DEAL + gamekit.BLACK_DEAL:
        app.game.deal(card)
    data = flash.files["/game.jnl"]
    damaged = bytes(data)
    third = len(encode(["new", SETTINGS, 1])) + 2 * len(encode(["deal", "HUNA-1"]))
    data[third + 5] ^= 0xFF  # a flipped bit in the third deal record
    again = new_app(flash)
    assert again.boot_problem.startswith("checksum mismatch")
    assert again.game.hand("white") == ["ELAI-1", "HUNA-1"]
    assert bytes(flash.files["/game.jnl.bad"])[:third] == damaged[:third]
    assert len(flash.files["/game.jnl"]) == third


@pytest.mark.parametrize("garbage", [b"", b"\x00" * 40, b"hello world\n" * 5,
                                     encode(["place", "HUNA-1", "ALOA-HUNA"])])
def test_a_journal_without_a_game_starts_a_new_one_and_keeps_the_file(garbage):
    flash = VirtualFlash()
    flash.files["/game.jnl"] = bytearray(garbage)
    app = new_app(flash)
    assert app.game.phase == "deal"
    if garbage:
        assert app.boot_problem
    app.game.deal("HUNA-1")
    assert new_app(flash).game.hand("white") == ["HUNA-1"]


def test_finished_games_are_archived_when_a_new_game_starts():
    flash = VirtualFlash()
    app = new_app(flash)
    actions, final = random_actions(5)
    for act in actions:
        app.game.apply(act)
    app.new_game(dict(SETTINGS))
    assert app.game.phase == "deal"
    archived = Journal("/game-1.jnl", flash)
    replayed = []
    archived.replay(replayed.append)
    assert replayed[0] == ["new", SETTINGS, 1] and len(replayed) == len(actions) + 1
    assert new_app(flash).game.phase == "deal"  # the new game is what boots


def test_the_journal_is_compacted_at_its_size_limit_and_still_replays():
    flash = VirtualFlash()
    app = new_app(flash, limit=1500)
    actions, final = random_actions(8)
    biggest = 0
    for act in actions:
        app.game.apply(act)
        biggest = max(biggest, len(flash.files["/game.jnl"]))
    assert biggest <= 1500 + 4096  # a state record may pass the limit once
    assert len(actions) * 30 > 1500  # it really had to compact
    again = new_app(flash, limit=1500)
    assert again.boot_problem is None
    assert report.game(again.game) == report.game(final)
    assert again.game.legal_actions() == final.legal_actions()


class FullFlash(VirtualFlash):
    """Every write fails once `full` is set, as on a flash with no room left."""

    full = False

    def write_bytes(self, target, data):
        if self.full:
            target.extend(data[:3])  # a partial write before the failure
            raise OSError(28, "no space left on device")
        super().write_bytes(target, data)


def test_a_move_the_flash_cannot_take_is_refused_and_changes_nothing():
    flash = FullFlash()
    app = new_app(flash)
    for card in gamekit.WHITE_DEAL + gamekit.BLACK_DEAL:
        app.tap_card(card, 0)
    before = app.game.snapshot()
    flash.full = True
    app.tap_card("HUNA-1", 0)
    app.pick("ELAI-HUNA", 0)
    assert app.referee.outcome.code == "storage"
    assert app.game.snapshot() == before
    flash.full = False
    app.pick("ELAI-HUNA", 0)  # the card is still pending: now it goes through
    assert report.game(app.game)["bridges"] == {"ELAI-HUNA": "white"}
    assert report.game(new_app(flash).game)["bridges"] == {"ELAI-HUNA": "white"}


# --------------------------------------------------------------- power cuts


def idle(sim):
    return sim.app.referee.is_idle()


@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_power_cut_after_every_event_gives_the_same_final_report(seed):
    rng = randgame.Rng(seed)
    settings = randgame.random_settings(rng)
    game = gamekit.new_game(**settings)
    board = gamekit.board()
    commands = parse(scengen.game_scenario(settings, randgame.play_game(game, seed)), board)
    plain = simcore.Simulation(board)
    expected = plain.run(commands)
    cut = simcore.Simulation(board)
    cuts = 0
    for cmd in commands:
        cut.execute(cmd)
        if idle(cut) and not cut.app.game.is_over():
            cut.execute([cmd[0], "power-cut"])
            cuts += 1
    assert cuts > 100
    assert cut.boots == cuts + 1
    report = cut.report()
    leds = report.pop("leds"), expected.pop("leds")
    assert report == expected  # every game field, the refusals included
    assert expected["phase"] == "over"
    # A reboot drops running animations (the scoring); 2 s later the lights agree. Taps
    # take the reader's real time, which a reboot's fresh poll cycle shifts: compare
    # both boards at the same moment.
    at = max(plain.now, cut.now) + 2500
    plain.advance(at - plain.now)
    cut.advance(at - cut.now)
    assert plain.report()["leds"] == cut.report()["leds"]
    assert leds[0] != [] and leds[1] != []


def test_power_cut_in_the_middle_of_every_write_boots_to_the_last_confirmed_event():
    """A whole game; for every flash write, the power fails in its middle (and, for the
    first writes, after every single byte). Each time the board boots to the state of
    the last record written in full."""
    actions, _ = random_actions(21, variant="alternative")
    # States after each confirmed action: snapshots of a game replayed step by step.
    reference = gamekit.new_game(variant="alternative")
    states = [reference.snapshot()]
    for act in actions:
        reference.apply(act)
        states.append(reference.snapshot())
    settings = {"variant": "alternative", "first": "white", "handicap": None}
    tried = 0
    for n in range(1, len(actions) + 2):  # write 1 starts the game, write n+1 is action n
        size = len(encode(["new", settings, 1])) if n == 1 else len(encode(list(actions[n - 2])))
        cuts = range(size) if n <= 3 else (size // 2,)
        for k in cuts:
            flash = VirtualFlash()
            board = gamekit.board()
            flash.cut_at(n, k)
            try:
                app = App(gameload.load(board.game), board, simcore.sim_registry(board),
                          NullStrip(), dict(settings), journal=Journal("/game.jnl", flash))
                for act in actions:
                    app.game.apply(act)
                raise AssertionError("no power cut happened")
            except PowerCut:
                pass
            booted = App(gameload.load(board.game), board, simcore.sim_registry(board),
                         NullStrip(), dict(settings), journal=Journal("/game.jnl", flash))
            confirmed = max(0, n - 2)  # actions whose record was written in full
            reference.restore(states[confirmed])
            if reference.refill != rules.NOBODY:
                reference.skip_refill()  # an offered refill is pending UI: a boot drops it
            assert booted.game.snapshot()[0] == reference.snapshot()[0], (n, k)
            tried += 1
    assert tried > len(actions)


def test_watchdog_resets_a_stalled_board_which_resumes():
    board = gamekit.board()
    sim = simcore.Simulation(board)
    sim.run(parse(gamekit_deal() + "tap HUNA-1\npick ELAI-HUNA\ntap ELAI-1\n", board))
    before = report.game(sim.app.game)
    sim.stall(3000)  # shorter than the watchdog's timeout: nothing happens
    assert sim.resets == 0 and sim.app.referee.pending
    sim.stall(20000)
    assert sim.resets == 1
    after = report.game(sim.app.game)
    assert after == before  # resumed from the journal...
    assert not sim.app.referee.pending  # ...with the pending card back in hand
    assert "ELAI-1" in after["hands"]["white"]


def gamekit_deal():
    return "".join("tap %s\n" % c for c in gamekit.WHITE_DEAL + gamekit.BLACK_DEAL)


def test_rules_refuse_in_a_cut_board_nothing_changes():
    """A power cut during the write of a refused move is impossible: refusals write
    nothing. Check it: refused events leave the flash untouched."""
    flash = VirtualFlash()
    app = new_app(flash)
    for card in gamekit.WHITE_DEAL + gamekit.BLACK_DEAL:
        app.tap_card(card, 0)
    writes = flash.writes
    app.tap_card("ALOA-1", 0)  # black's card
    app.press("next", 0)
    app.tap_uid(b"\x04\x01\x02\x03", 0)
    assert app.referee.errors == 3 and flash.writes == writes
    assert rules.PLAY == app.game.phase
