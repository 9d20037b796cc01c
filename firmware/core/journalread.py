"""Reading the game journal (its records: core.journal), one record at a time, so that a
journal never has to fit in RAM: the boot's replay and its first look at the settings
(`Journal.replay`, `Journal.settings`), a host's commands (core.linkhost) and the host
tools (`records`). A board reads its journal at boot only: this code is loaded for each
read and given back after it (core.unload), so a board in play keeps none of it."""

import json

from core.journal import HEADER, MAGIC, MAX_PAYLOAD, TRAILER, crc32


def read_record(f, pos):
    """(item, size, problem) of the record at file position `pos`; item None at the end
    of the readable records (problem None at a clean end of file)."""
    head = f.read(HEADER)
    if not head:
        return None, 0, None
    if len(head) < HEADER:
        return None, 0, "torn record at byte %d" % pos
    if head[0] != MAGIC:
        return None, 0, "bad record start at byte %d" % pos
    n = head[1] | (head[2] << 8)
    if n > MAX_PAYLOAD:
        return None, 0, "bad record length at byte %d" % pos
    body = f.read(n + TRAILER)
    if len(body) < n + TRAILER:
        return None, 0, "torn record at byte %d" % pos
    payload = body[:n]
    c = body[n] | (body[n + 1] << 8) | (body[n + 2] << 16) | (body[n + 3] << 24)
    if crc32(payload) & 0xFFFFFFFF != c:
        return None, 0, "checksum mismatch at byte %d" % pos
    try:
        item = json.loads(payload)
    except ValueError:
        return None, 0, "unreadable record at byte %d" % pos
    if not isinstance(item, list) or not item or not isinstance(item[0], str):
        return None, 0, "not a journal record at byte %d" % pos
    return item, HEADER + n + TRAILER, None


def records(f):
    """(items, problem) of every readable record of the open file `f`, in order: for a
    host that holds a whole archived game (the board replays record by record)."""
    items = []
    pos = 0
    while True:
        item, size, problem = read_record(f, pos)
        if item is None:
            return items, problem
        items.append(item)
        pos += size


def replay(journal, each):
    """`Journal.replay`: `each(item)` for every readable record of `journal` in order;
    (records read, None or why reading stopped early), a damaged journal cut back to its
    readable prefix."""
    journal._forget(journal.path + ".new")  # a cut during a rewrite left it half written
    try:
        f = journal.fs.open(journal.path, "rb")
    except OSError:
        journal.size = 0
        return 0, None
    count = 0
    pos = 0
    try:
        while True:
            item, size, problem = read_record(f, pos)
            if item is None:
                break
            if item[0] == "new" and len(item) > 2 and isinstance(item[2], int):
                journal.game_no = item[2]
            each(item)
            count += 1
            pos += size
    finally:
        f.close()
    journal.size = pos
    if problem is not None:
        journal._cut_back(pos)
    return count, problem


def settings(journal):
    """`Journal.settings`: the settings of the game in `journal` (its first record), or
    None."""
    try:
        f = journal.fs.open(journal.path, "rb")
    except OSError:
        return None
    try:
        item, _, _ = read_record(f, 0)
    finally:
        f.close()
    if item is None or item[0] != "new" or len(item) < 2 or not isinstance(item[1], dict):
        return None
    return item[1]
