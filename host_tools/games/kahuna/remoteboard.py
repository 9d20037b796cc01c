"""Kahuna's side of a board at a remote table (host_tools/remote/boardfeed.py): the
board's settings (the other seat as `remote`) and the card this table's player is to take
when the dealer deals or draws one for its seat (firmware games/kahuna/remote.py)."""

SEATS = ("white", "black")


def settings(seat):
    """The dealer's settings, and the other seat as `remote`."""
    out = dict(seat.public["settings"])
    out["remote"] = [x for x in SEATS if x != seat.seat][0]
    return out


def extra(feed, seq, actor, action):
    """What the event's command carries besides the event: {"card"} on this table's deal
    and deck draw, {} otherwise; None while the hand message is not here yet."""
    if actor == feed.seat.seat and action in (["deal"], ["draw"]):
        card = card_to_take(feed)
        return None if card is None else {"card": card}
    return {}


def card_to_take(feed):
    """A card of the seat's hand (the dealer's) that the board does not hold yet and no
    unconfirmed move of the board's names."""
    s = feed.seat
    if s.hand is None or s.hand_seq < s.seq:
        return None
    held = set(feed.news.get("hand") or ())
    for _n, action in feed.news["moves"]:
        held.update(action[1:])
    extra = sorted(c for c in s.hand if c not in held)
    return extra[0] if extra else None
