"""The link's commands for a host's tools, not for play (core.link's docstring says what
they do): the card registry (`cards`), enrolment (`enroll`), the archived games
(`archive`) and the game in play's moves (`moves`). core.link loads this module for one of
them and gives its code back to the heap after it (core.unload), so a board in play keeps
none of it (2.5 KB of .mpy, `mpy-cross -O3 -march=armv6m`; README, "The live heap since
the second stop")."""

from binascii import b2a_base64

from core.journal import CHUNK, HEADER, MAGIC, TRAILER
from core.journalread import read_record
from core.link import LinkError

ARCHIVE_PIECE = 480  # bytes of an archived game per line: 640 in base64, a line < 1024
MOVES_PIECE = 8  # journal records of the game in play per line (`moves`)


def cards(link, msg):
    reg = link.app.registry
    if "set" in msg:
        entries = msg["set"]
        if not isinstance(entries, dict):
            raise LinkError("cards set needs an object {uid: card}")
        new = type(reg)(reg.card_names, entries, reg.value_range)  # checked first
        reg.by_uid = new.by_uid
        reg.values = new.values
        if link.save_cards:
            link.save_cards()
    msg = {"event": "cards", "cards": reg.by_uid, "missing": reg.missing()}
    if reg.values:
        msg["values"] = reg.values
    link.send(msg)


def enroll(link, msg):
    """{"card": C}: wait for a tag and enrol it as C (the board writes its NDEF name);
    {"card": C, "uid": U}: register U as C without a tag (import); {"stop": true}."""
    enroller = link.app.enroller
    if msg.get("stop"):  # nothing to stop where no card was ever being enrolled
        if enroller is not None:
            enroller.stop()
        link.send({"event": "enroll-stopped"})
        return
    card = msg.get("card")
    uid = msg.get("uid")
    value = msg.get("value")
    if not isinstance(card, str):
        raise LinkError("enroll needs \"card\"")
    if uid is None:
        enroller = link.app.start_enroller()
        if enroller is None:
            raise LinkError("this board has no reader to enrol cards with")
        try:
            enroller.start(card, value)  # H2: a crew card's value, checked
        except ValueError as e:
            raise LinkError(str(e)) from None
        link.app.show(link.now())  # the island lights up, then the host is told
        link.send({"event": "enroll-wait", "card": card})
        return
    if not isinstance(uid, str):
        raise LinkError("uid must be hex text")
    reg = link.app.registry
    if card in reg.card_names and (value is not None or reg.value_range is not None):
        from core.cardvalues import new_value
        new_value(reg, card, value)  # H2: a crew card's value, given and in range
    reg.enroll(card, uid, value)
    if link.save_cards:
        link.save_cards()
    done = {"event": "enrolled", "card": card, "uid": uid.upper()}
    if value is not None:
        done["value"] = value
    link.send(done)


def archive(link, msg):
    """{}: list the archived games; {"slot": N, "offset": K}: one piece of one, read
    from the flash into one small buffer (see the module's docstring)."""
    journal = link.app.journal
    if journal is None:
        raise LinkError("this board keeps no journal")
    if not getattr(link.app.game_def, "ARCHIVE", True):  # the game's own rule (Kami K21)
        raise LinkError("%s's games are not sent: their face-down cards stay secret"
                        % link.app.game_def.TITLE)
    slot = msg.get("slot")
    if slot is None:
        games = archived(journal)
        for s, game_no, settings in games:
            link.send({"event": "archived", "slot": s, "game": game_no,
                       "settings": settings})
        link.send({"event": "archive", "count": len(games)})
        return
    offset = msg.get("offset", 0)
    if type(slot) is not int or not 0 <= slot < journal.keep:
        raise LinkError("slot must be 0 to %d" % (journal.keep - 1))
    if type(offset) is not int or offset < 0:
        raise LinkError("offset must be a whole number of bytes")
    try:
        data = read_archived(journal, slot, offset, ARCHIVE_PIECE)
    except OSError:
        raise LinkError("no archived game in slot %d" % slot) from None
    link.send({"event": "archive-part", "slot": slot, "offset": offset,
               "data": b2a_base64(data).decode().strip(),
               "end": len(data) < ARCHIVE_PIECE})


def moves(link, msg):
    """{"from": K}: the game in play's records from record K, as the game's
    public_move lets them out (see the comment at the top)."""
    journal = link.app.journal
    public = getattr(link.app.game_def, "public_move", None)
    if journal is None or public is None:
        raise LinkError("this board sends no moves of %s" % link.app.game_def.TITLE)
    start = msg.get("from", 0)
    if type(start) is not int or start < 0:
        raise LinkError("from must be a record number, 0 or more")
    try:
        items = read_current(journal, start, MOVES_PIECE)
    except OSError:
        raise LinkError("no game in play") from None
    moves = []
    for item in items:
        item = public(link.app.game, item)
        if item is not None:
            moves.append(item)
    link.send({"event": "moves", "game": link.app.game_no(), "from": start,
               "next": start + len(items), "moves": moves,
               "end": len(items) < MOVES_PIECE})


# The journal's files as a host reads them (core.journal writes them).

def archived(journal):
    """[(slot, game number, settings)] of the archived games, read from each file's
    first record only; (slot, None, None) for a file whose first record is damaged."""
    out = []
    for slot in range(journal.keep):
        try:
            f = journal.fs.open(journal.archive_name(slot), "rb")
        except OSError:
            continue
        try:
            item, _, _ = read_record(f, 0)
        finally:
            f.close()
        if item is not None and item[0] == "new" and len(item) > 2:
            out.append((slot, item[2], item[1]))
        else:
            out.append((slot, None, None))
    return out


def read_archived(journal, slot, offset, n):
    """At most `n` bytes of archived game `slot` from byte `offset` (b"" past its
    end); OSError when that slot holds no game."""
    f = journal.fs.open(journal.archive_name(slot), "rb")
    try:
        if hasattr(f, "seek"):
            f.seek(offset)
        else:  # a virtual flash's file: skip by reading
            left = offset
            while left > 0:
                piece = f.read(min(CHUNK, left))
                if not piece:
                    break
                left -= len(piece)
        return f.read(n)
    finally:
        f.close()


def read_current(journal, start, n):
    """At most `n` records of the game in play from record `start` (fewer at its
    end), read one at a time; OSError when there is no game."""
    out = []
    f = journal.fs.open(journal.path, "rb")
    try:
        pos = 0
        for _ in range(start):  # skipped unread: no JSON, no checksum (boot checked)
            head = f.read(HEADER)
            if len(head) < HEADER or head[0] != MAGIC:
                return out
            size = (head[1] | (head[2] << 8)) + TRAILER
            if len(f.read(size)) < size:
                return out
            pos += HEADER + size
        while len(out) < n:
            item, size, _ = read_record(f, pos)
            if item is None:
                break
            out.append(item)
            pos += size
    finally:
        f.close()
    return out
