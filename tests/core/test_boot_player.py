"""What main.py reads at boot before it loads a game's code: the current game's settings
(core.journal.Journal.settings, the first record alone, nothing replayed) and whether the
board's own player may be asked to play (core.gameload.needs_player). A remote game that
seats no board player does not preload the AI's code: a Pico W needs that heap for its
network (docs/remote.md, "A Pico W's heap"). Run in CPython and in the MicroPython unix
port (the last test)."""

import sys

from core import gameload
from core.journal import Journal, encode
from host_tools.fakehw.flash import VirtualFlash

PATH = "/game.jnl"
KAHUNA = {"variant": "standard", "first": "white", "handicap": None, "ai": None,
          "ai_level": None, "remote": None}


def journal_with(*records):
    fs = VirtualFlash()
    j = Journal(PATH, storage=fs)
    if records:
        with fs.open(PATH, "wb") as f:
            for r in records:
                f.write(encode(r))
    return j, fs


def with_(settings, **changes):
    out = dict(settings)
    out.update(changes)
    return out


def test_settings_of_the_game_in_the_journal():
    remote = with_(KAHUNA, remote="black")
    j, _ = journal_with(["new", remote, 3], ["deal", "HUNA-1"], ["deal", "ALOA-2"])
    assert j.settings() == remote
    # The reading's code (core.journalread) is loaded for it and given back after it.
    assert "core.journalread" not in sys.modules


def test_settings_read_the_first_record_only_and_change_nothing():
    j, fs = journal_with(["new", KAHUNA, 1], ["deal", "HUNA-1"])
    before = bytes(fs.files[PATH])
    fs.files[PATH].extend(b"K\xff\xff")  # a torn record after the first: not read
    torn = bytes(fs.files[PATH])
    assert j.settings() == KAHUNA
    assert bytes(fs.files[PATH]) == torn and len(torn) == len(before) + 3
    assert sorted(fs.files) == [PATH]  # no .bad, no .new: the replay deals with damage
    assert j.size == 0 and j.game_no == 0  # nor its bookkeeping


def test_no_settings_without_a_game_or_with_a_damaged_first_record():
    j, _ = journal_with()
    assert j.settings() is None  # no journal
    j, fs = journal_with(["new", KAHUNA, 1])
    fs.files[PATH][5] ^= 0xFF  # its checksum fails
    assert j.settings() is None
    j, _ = journal_with(["deal", "HUNA-1"])  # not a new game's record
    assert j.settings() is None
    j, _ = journal_with(["new", "standard", 1])  # settings that are no object
    assert j.settings() is None


def test_a_remote_game_without_a_board_player_needs_none():
    assert not gameload.needs_player(with_(KAHUNA, remote="black"))
    assert not gameload.needs_player(with_(KAHUNA, remote="white"))
    assert not gameload.needs_player({"remote": "p2"})  # any game's remote seat


def test_every_other_game_may_ask_for_the_player():
    assert gameload.needs_player(None)  # no game yet: a solo game may start
    assert gameload.needs_player(KAHUNA)  # two players now; a solo game may follow
    assert gameload.needs_player(with_(KAHUNA, ai="black"))
    assert gameload.needs_player({"ai": ["p2"], "remote": "p3"})  # it names one: preload
    assert gameload.needs_player({"deal": "table"})  # Halunken's, Kami's settings
    assert gameload.needs_player("standard")  # not settings: preloaded as before


def test_boot_reads_a_remote_game_and_skips_the_preload():
    """main.py's decision, on a journal as a remote game leaves it."""
    j, _ = journal_with(["new", with_(KAHUNA, remote="white"), 2], ["deal"])
    assert not gameload.needs_player(j.settings())
    j, _ = journal_with(["new", KAHUNA, 2], ["deal", "HUNA-1"])
    assert gameload.needs_player(j.settings())


if sys.implementation.name != "micropython":  # the MicroPython run is of the tests above
    def test_boot_player_suite_runs_inside_micropython(mpy):
        out = mpy.run_script("tests/mp/run_tests.py", "test_boot_player", timeout=120)
        assert out.strip().splitlines()[-1] == "6 passed, 0 failed", out
