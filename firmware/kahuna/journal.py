"""The game journal: every accepted rules action appended to a file, so a power cut loses
nothing. Boot replays it to the exact state.

A record is  b"K" | length (2 bytes, little-endian) | payload | CRC-32 of payload (4 bytes)
and the payload is a JSON list: the first record is ["new", settings], every other one an
action tuple as `rules.Game.apply` takes it. Reading stops at the first record that is torn
or fails its checksum: the event it held was never confirmed. Replay reads one record at a
time, so a whole game's journal never has to fit in RAM.
"""

import json

try:
    from binascii import crc32
except ImportError:  # pragma: no cover - both runtimes have it
    from zlib import crc32  # type: ignore[import-not-found]  # CPython

MAGIC = 0x4B  # "K": the start of every record
HEADER = 3  # magic + 2 length bytes
TRAILER = 4  # CRC-32
MAX_PAYLOAD = 512


class JournalError(ValueError):
    pass


def encode(item):
    payload = json.dumps(item).encode()
    if len(payload) > MAX_PAYLOAD:
        raise JournalError("record too long (%d bytes)" % len(payload))
    n = len(payload)
    c = crc32(payload) & 0xFFFFFFFF
    return (bytes((MAGIC, n & 255, n >> 8)) + payload
            + bytes((c & 255, (c >> 8) & 255, (c >> 16) & 255, c >> 24)))


def _read_record(f, pos):
    """(item, size, problem) of the record at the file position `pos`; item None at the
    clean end of the file."""
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
    return item, HEADER + n + TRAILER, None


class Journal:
    """Appends records to `path`; `opener` is `open` on the board, a virtual flash in the
    simulator."""

    def __init__(self, path, opener=open):
        self.path = path
        self.open = opener

    def replay(self, each):
        """Call `each(item)` for every readable record in order, one at a time (a whole
        game's journal never sits in RAM). Returns (records read, None or why reading
        stopped early)."""
        try:
            f = self.open(self.path, "rb")
        except OSError:
            return 0, None
        count = 0
        pos = 0
        try:
            while True:
                item, size, problem = _read_record(f, pos)
                if item is None:
                    return count, problem
                each(item)
                count += 1
                pos += size
        finally:
            f.close()

    def start(self, settings):
        with self.open(self.path, "wb") as f:
            f.write(encode(["new", settings]))

    def append(self, action):
        with self.open(self.path, "ab") as f:
            f.write(encode(list(action)))
