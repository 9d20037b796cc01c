"""Halunken & Spelunken's side of a board at a remote table (host_tools/remote/boardfeed.py;
the board's part is firmware games/halunken/remote.py): the board's settings (the dealer's,
played as a table deal, H33, the seats played elsewhere as `remote`), what an event's
command carries besides the event, and the requests made of the board's moves.

- every event: the public state's `crews`, `port` and `bj_cards` after it, from which
  the board learns the cards taken from the piles and Black-Jack's turned cards (the
  dealer's deal: the board holds no pile below its top, H5, H25);
- the board's secret movement card (its move ["choose", FIGURE, CARD], told to this
  table's computer alone) goes to the dealer as its commitment only (H7, H32;
  host_tools/remote/commit.py): this bridge keeps card and nonce in its secrets file
  (`--secrets`), written before the commitment goes out, and its move ["reveal", FIGURE]
  (made once the dealer announces the reveal) goes as card and nonce. The other seats'
  cards reach the board only with the dealer's opens;
- the bridge's screen: the taverns' top cards after each event (`screen`).
"""


def settings(seat):
    """The dealer's settings as a table deal (H33), the other users' seats as `remote`."""
    mine = seats(seat)
    if not mine:
        return None  # the hand message that names them has not come
    out = dict(seat.public["settings"])
    n = out["players"]
    out["deal"] = "table"
    out["remote"] = ["p%d" % (i + 1) for i in range(n) if "p%d" % (i + 1) not in mine]
    return out


def seats(s):
    """This table's seats: those its hand message names."""
    return sorted(s.entries)


def extra(feed, seq, actor, action):
    """The event's additions (a dict), or None while its public state has not come (the
    dealer publishes one after the last event of a request's: it holds the takes)."""
    after = [k for k in feed.seat.publics if k >= seq]
    if not after:
        return None
    public = feed.seat.publics[min(after)]
    return {"crews": public["crews"], "port": public["port"], "bj_cards": public["bj_cards"]}


def screen(public):
    """What the bridge prints after each event, which the board cannot show: the taverns'
    top cards (public, H5; the board's piles are unseen cards)."""
    tops = ["%s:%s" % (t, v["top"] or "?") for t, v in public["taverns"].items() if v["left"]]
    return ["tops: %s" % (" ".join(tops) or "none")]


def request(feed, seat, action):
    """The request a board's move makes: a movement card as its commitment, a reveal as
    card and nonce from the kept secrets; None while it cannot go (no context yet, no
    secret held: lost with the secrets file, the game waits)."""
    if action[0] not in ("choose", "reveal"):
        return action
    secret = (feed.seat.public or {}).get("secret")
    if not secret or not isinstance(secret.get("context"), str):
        return None
    if action[0] == "choose":
        return feed.secrets.commit(secret["context"], action[1], action[2])
    return feed.secrets.reveal(secret["context"], action[1])
