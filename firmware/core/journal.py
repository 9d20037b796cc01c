"""The game journal: every accepted rules action appended to a file on the board's flash,
before the light confirms it, so a power cut loses nothing. Boot replays it.

A record is  b"K" | length (2 bytes, little-endian) | payload | CRC-32 of payload (4 bytes)
and the payload is JSON:

    ["new", settings, game_no]      the first record: a new game and its settings
    ["state", snapshot, seq]        the whole game state (written when compacting), and
                                    how many actions the game had applied by then
    ["place", "HUNA-1", "ALOA-HUNA"] and every other action as `rules.Game.apply` takes it
    ["solo", {...}]                 a solo game's table (games.kahuna.solo: the display, the AI's
                                    stack as card indices): not a rules action; a reader
                                    of the actions passes over it

Reading stops at the first record that is torn or fails its checksum: the event it held
was never confirmed. Replay reads one record at a time, so a journal never has to fit in
RAM (the reading is core.journalread's, loaded for it and given back after). After
damage, the readable prefix is rewritten as the journal (write-new-then-rename) and the
damaged file kept as `<path>.bad`.

Size: a journal is compacted into ["new"] + ["state"] when it would grow past
`limit` bytes, and (core.app) when a game that names checkpoints passes one (Kami: each
round's end). Finished or abandoned games are archived by renaming the file to
`/game-N.jnl`, N = game number modulo `keep`: the last `keep` games stay on the board.
A host lists them and reads one in pieces (the link's `archive`: core.linkhost, which
reads them with core.journalread's `read_record`), so that neither needs a whole file in
RAM; it replays the records itself (host_tools/games/kahuna/replay.py, with
core.journalread's `records`).
"""

import json

from core.storage import Storage, replace
from core.unload import unload

try:
    from binascii import crc32
except ImportError:  # pragma: no cover - both runtimes have it
    from zlib import crc32  # type: ignore[import-not-found]  # CPython

MAGIC = 0x4B  # "K": the start of every record
HEADER = 3  # magic + 2 length bytes
TRAILER = 4  # CRC-32
MAX_PAYLOAD = 16384  # a ["state"] record of a busy turn is a few KB
LIMIT = 32 * 1024  # journal bytes before compaction (a typical game needs about 12 KB)
KEEP = 8  # finished games kept on the board
CHUNK = 256  # copying in pieces keeps RAM use small


class JournalError(ValueError):
    pass


def encode(item):
    payload = json.dumps(item).encode()
    n = len(payload)
    if n > MAX_PAYLOAD:
        raise JournalError("record too long (%d bytes)" % n)
    c = crc32(payload) & 0xFFFFFFFF
    return (bytes((MAGIC, n & 255, n >> 8)) + payload
            + bytes((c & 255, (c >> 8) & 255, (c >> 16) & 255, c >> 24)))


class Journal:
    def __init__(self, path, storage=None, limit=LIMIT, keep=KEEP):
        self.path = path
        self.fs = storage if storage is not None else Storage()
        self.limit = limit
        self.keep = keep
        self.size = 0  # bytes of readable records in the journal
        self.game_no = 0
        self.dirty = False  # a failed append may have left a partial record

    # -------------------------------------------------------------- reading

    def replay(self, each):
        """Call `each(item)` for every readable record in order. Returns (records read,
        None or why reading stopped early). A damaged journal is cut back to its readable
        prefix, the damaged file kept as <path>.bad. Its code (core.journalread) is loaded
        for it and given back after."""
        from core import journalread
        try:
            return journalread.replay(self, each)
        finally:
            unload(("core.journalread",), clear=False)

    def settings(self):
        """The settings of the game in the journal (its first record, ["new", settings,
        game_no]), read without replaying the rest: what main.py needs to know at boot
        before it loads a game's code (core.gameload.needs_player). None when there is no
        game, or its first record is damaged or not a new game's (the replay says why).
        Its code (core.journalread) is loaded for it and given back after."""
        from core import journalread
        try:
            return journalread.settings(self)
        finally:
            unload(("core.journalread",), clear=False)

    def _cut_back(self, good):
        """Keep the first `good` bytes as the journal, the whole damaged file as .bad."""
        src = self.fs.open(self.path, "rb")
        try:
            with self.fs.open(self.path + ".new", "wb") as dst:
                left = good
                while left > 0:
                    piece = src.read(min(CHUNK, left))
                    if not piece:
                        break
                    dst.write(piece)
                    left -= len(piece)
        finally:
            src.close()
        self._forget(self.path + ".bad")
        self.fs.rename(self.path, self.path + ".bad")
        self.fs.rename(self.path + ".new", self.path)

    # -------------------------------------------------------------- writing

    def _forget(self, path):
        try:
            self.fs.remove(path)
        except OSError:
            pass

    def _rewrite(self, records):
        """Replace the journal by `records` (write-new-then-rename: a cut leaves the old
        journal or the new one, never a mix)."""
        data = b"".join(encode(r) for r in records)
        replace(self.fs, self.path, data)
        self.size = len(data)

    def archive_name(self, slot):
        """The file of archived game `slot` (0 to keep - 1): /game-N.jnl."""
        return "%s-%d.jnl" % (self.path.rsplit(".", 1)[0], slot)

    def archive(self):
        """Keep the current game as /game-N.jnl (if there is one)."""
        try:
            self.fs.open(self.path, "rb").close()
        except OSError:
            return
        name = self.archive_name(self.game_no % self.keep)
        self._forget(name)
        self.fs.rename(self.path, name)

    def start(self, settings):
        """A new game: archive the old journal, start a new one."""
        self.archive()
        self.game_no += 1
        self._rewrite([["new", settings, self.game_no]])

    def compact(self, state):
        """Rewrite the journal as ["new"] + ["state"]: `state()` gives (settings,
        snapshot, seq) of the game now, and may add a list of records that follow them
        (a solo game's or a remote seat's ["solo", ...]: what the actions do not rebuild)
        (write-new-then-rename: a cut leaves the old journal or the new one).
        JournalError, the journal unchanged, if the state is too long for a record."""
        got = state()
        self._rewrite([["new", got[0], self.game_no], ["state", got[1], got[2]]]
                      + (list(got[3]) if len(got) > 3 else []))
        self.dirty = False

    def append(self, action, state=None):
        """Append one action. When the journal would pass its size limit it is first
        compacted: `state()` gives (settings, snapshot, seq) of the game before the
        action."""
        rec = encode(list(action))
        if self.dirty:
            # An earlier append failed and may have left part of a record: cut it off
            # first, or the next boot would stop reading there.
            self._cut_back(self.size)
            self.dirty = False
        if self.size + len(rec) > self.limit and state is not None:
            try:
                self.compact(state)
            except JournalError:
                pass  # a state too long for one record: the journal goes on whole
        try:
            with self.fs.open(self.path, "ab") as f:
                f.write(rec)
        except OSError:
            self.dirty = True
            raise
        self.size += len(rec)
