"""The platform's conformance suite: every game runs it through its interface only
(docs/platform.md). A game passes it or is not on the platform.

- random playouts through `legal_actions` and `apply`, with the game's invariants after
  every action, and refused probes that change nothing (tests/conformance.py);
- snapshot and restore: a restored state is the same game and plays on the same;
- journal replay after a power cut in the middle of every write: the board boots to the
  last action written in full;
- the same seeded playouts on CPython and inside the MicroPython unix port;
- frames that never depend on hidden cards;
- the live heap of a game in progress on the unix port.
"""

import importlib.util
import json
import os

import pytest

import conformance
from core import gameload
from core.app import App
from core.journal import Journal
from host_tools.fakehw.flash import PowerCut, VirtualFlash
from mpy_runner import ROOT, MicroPython

GAMES_DIR = os.path.join(ROOT, "firmware", "games")
PLAYOUTS = 4  # seeds per settings sample on CPython
# A game in progress with the app around it, on the 64-bit unix port (Kahuna: 9.2 KB when
# this was written); the board and the code are loaded before the count starts.
HEAP_BUDGET_KB = 16


def platform_games():
    """The games whose interface module is complete: those on the platform."""
    out = []
    for name in sorted(os.listdir(GAMES_DIR)):
        if os.path.isfile(os.path.join(GAMES_DIR, name, "game.py")):
            if not gameload.missing(gameload.load(name)):
                out.append(name)
    return out


def kit(name):
    """The game's test kit, tests/games/<game>/<game>_kit.py."""
    path = os.path.join(ROOT, "tests", "games", name, "%s_kit.py" % name)
    spec = importlib.util.spec_from_file_location("%s_kit" % name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GAMES = platform_games()


class NullStrip:
    def show(self, frame):
        pass


def test_kahuna_is_on_the_platform():
    assert "kahuna" in GAMES
    game_def = gameload.load("kahuna")
    assert game_def.NAME == "kahuna" and 2 <= len(game_def.SEATS) <= 4


@pytest.mark.parametrize("name", GAMES)
def test_random_playouts_keep_the_invariants_and_refusals_change_nothing(name):
    k = kit(name)
    ended = 0
    for settings in k.SETTINGS:
        for seed in range(1, PLAYOUTS + 1):
            state, actions, _ = conformance.playout(name, settings, seed, k.chooser())
            assert actions, "no action was legal at the start"
            assert k.problems(state) == []
            ended += state.is_over()
    assert ended == len(k.SETTINGS) * PLAYOUTS  # every playout reached the game's end


@pytest.mark.parametrize("name", GAMES)
def test_invariants_hold_after_every_action(name):
    k = kit(name)
    state, actions, _ = conformance.playout(name, k.SETTINGS[0], 7, k.chooser())
    game_def = gameload.load(name)
    replay = game_def.new_state(conformance.board_for(name), k.SETTINGS[0])
    for act in actions:
        replay.apply(act)
        assert k.problems(replay) == [], act
    assert replay.snapshot() == state.snapshot()


@pytest.mark.parametrize("name", GAMES)
def test_snapshot_and_restore_give_the_same_game(name):
    k = kit(name)
    game_def = gameload.load(name)
    board = conformance.board_for(name)
    _, actions, digests = conformance.playout(name, k.SETTINGS[0], 3, k.chooser())
    state = game_def.new_state(board, k.SETTINGS[0])
    for i, act in enumerate(actions):
        if i % 5 == 0:
            # Through JSON, as the journal keeps it: tuples come back as lists.
            snap = json.loads(json.dumps(state.snapshot()))
            state = game_def.new_state(board, k.SETTINGS[0])
            state.restore(snap)
            assert conformance.digest(game_def, state) == digests[i]
            assert sorted(state.legal_actions()) == sorted(
                set(a for a in state.legal_actions()))
        state.apply(act)
        assert conformance.digest(game_def, state) == digests[i + 1]


@pytest.mark.parametrize("name", GAMES)
def test_a_power_cut_in_the_middle_of_any_write_boots_to_the_last_whole_action(name):
    k = kit(name)
    game_def = gameload.load(name)
    board = conformance.board_for(name)
    settings = k.SETTINGS[1]
    _, actions, digests = conformance.playout(name, settings, 5, k.chooser(),
                                              max_actions=120)
    registry = None
    tried = 0
    for n in range(1, len(actions) + 2):  # write 1 starts the game, write n+1 is action n
        flash = VirtualFlash()
        flash.cut_at(n, 3)  # three bytes into the write
        try:
            app = App(game_def, board, registry_for(game_def, board, registry), NullStrip(),
                      dict(settings), journal=Journal("/game.jnl", flash))
            for act in actions:
                app.game.apply(act)
            raise AssertionError("no power cut happened")
        except PowerCut:
            pass
        booted = App(game_def, board, registry_for(game_def, board, registry), NullStrip(),
                     dict(settings), journal=Journal("/game.jnl", flash))
        confirmed = max(0, n - 2)  # actions whose record was written in full
        reference = game_def.new_state(board, settings)
        for act in actions[:confirmed]:
            reference.apply(act)
        game_def.resume(reference)  # what a boot tidies (an open option list)
        assert conformance.digest(game_def, booted.game) == conformance.digest(
            game_def, reference), (name, n)
        tried += 1
    assert tried == len(actions) + 1


def registry_for(game_def, board, _):
    from core.cards import Registry
    return Registry(game_def.card_names(board))


@pytest.mark.micropython
@pytest.mark.parametrize("name", GAMES)
def test_the_same_playouts_on_micropython(name):
    k = kit(name)
    seeds = (1, 2)
    script = (
        "import conformance\n"
        "for settings in %r:\n"
        "    for seed in %r:\n"
        "        _, actions, digests = conformance.playout(%r, settings, seed,\n"
        "                                                  max_actions=150, every=False)\n"
        "        print(len(actions), digests[-1])\n" % (k.SETTINGS, seeds, name))
    # What is compared here is the play, not the heap (the live heap is the next test's):
    # a roomy heap, because the 64-bit unix port compiling from source fragments a small
    # one after a few long playouts (a 2 KB block missing with 155 KB free).
    out = MicroPython(heap_kib=1024).run_code(script, timeout=300)
    expected = []
    for settings in k.SETTINGS:
        for seed in seeds:
            _, actions, digests = conformance.playout(name, settings, seed, max_actions=150)
            expected.append("%d %s" % (len(actions), digests[-1]))
    assert out.strip().splitlines() == expected


@pytest.mark.parametrize("name", GAMES)
def test_frames_never_depend_on_hidden_cards(name):
    k = kit(name)
    game_def = gameload.load(name)
    board = conformance.board_for(name)
    state, actions, _ = conformance.playout(name, k.SETTINGS[0], 11, k.chooser())
    replay = game_def.new_state(board, k.SETTINGS[0])
    compared = 0
    for i, act in enumerate(actions):
        replay.apply(act)
        if i % 3:
            continue
        frames = []
        for s in [replay] + k.twins(replay):
            view = game_def.view(board)
            frames.append([bytes(view.render(s, game_def.controller(s), t))
                           for t in (0, 130, 777)])
        for other in frames[1:]:
            assert other == frames[0], (i, act)
            compared += 1
    assert compared > 50


@pytest.mark.micropython
@pytest.mark.parametrize("name", GAMES)
def test_the_live_heap_of_a_game_in_progress_on_the_unix_port(name):
    k = kit(name)
    script = (
        "import gc\n"
        "import conformance\n"
        "from core import gameload\n"
        "from core.app import App\n"
        "from core.cards import Registry\n"
        "class Strip:\n"
        "    def show(self, frame):\n"
        "        pass\n"
        "g = gameload.load(%r)\n"
        "b = conformance.board_for(%r)\n"
        "actions = conformance.playout(%r, %r, 1, max_actions=60, probes=0, every=False)[1]\n"
        "gc.collect()\n"
        "base = gc.mem_alloc()\n"
        "app = App(g, b, Registry(g.card_names(b)), Strip(), %r)\n"
        "for act in actions:\n"
        "    app.game.apply(act)\n"
        "app.show(0)\n"
        "gc.collect()\n"
        "print(gc.mem_alloc() - base)\n" % (name, name, name, k.SETTINGS[0], k.SETTINGS[0]))
    live = int(MicroPython(heap_kib=256).run_code(script, timeout=120).strip())
    print("%s: %.1f KB live for a game in progress (unix port, 64-bit)" % (name, live / 1024))
    assert 0 < live < HEAP_BUDGET_KB * 1024
