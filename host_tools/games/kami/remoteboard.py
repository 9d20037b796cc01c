"""Kami's side of a board at a remote table (host_tools/remote/boardfeed.py; the board's
part is firmware games/kami/remote.py): the board's settings (the seats played elsewhere
as `remote`: every seat but its user's, which may be several; the deal the dealer's) and
what an event's command carries besides the event, from what this table knows (its
hands, the public states that came):

- the dealer's deal: this table's hands, `hands` (the cards its players are to take);
- 2 players, a deal or a card played: `ups`, the face-up centre cards after it (K13), so
  the board learns which stack a card came from and the card turned up beneath it (a
  face-down defence from the centre is ["defend"], K6);
- another seat's last attack of a round: `defence`, its final face-down defence, which
  K21 shows in the public state's `rounds` (the board scores the master stroke, K8).

Nothing else: the other seats' hands and face-down defences never reach the board."""

CARD_PLAYS = ("defend", "attack", "counter")


def settings(seat):
    """The dealer's settings, the deal given (K20), the other users' seats as `remote`."""
    mine = seats(seat)
    if not mine:
        return None  # the hand message that names them has not come
    out = dict(seat.public["settings"])
    n = out["players"]
    out["deal"] = "given"
    out["remote"] = ["p%d" % (i + 1) for i in range(n) if "p%d" % (i + 1) not in mine]
    return out


def seats(s):
    """This table's seats: those its hand message names (a snapshot may come before the
    one that seats it)."""
    return sorted(s.entries)


def extra(feed, seq, actor, action):
    """The event's additions (a dict), or None while what they need has not come."""
    s = feed.seat
    out = {}
    two = s.public["settings"]["players"] == 2
    if actor is None and action[0] == "deal":
        if s.hand is None or s.hand_seq < seq or any(
                e[1] in seats(s) for e in s.log[seq:s.hand_seq]):
            return None  # the round's hands are not here yet
        out["hands"] = dict((x, list(s.entries[x]["hand"])) for x in seats(s))
    if two and (actor is None or action[0] in CARD_PLAYS):
        public = s.publics.get(seq)
        if public is not None:
            out["ups"] = [c["up"] for c in public["centre"]]
        elif not ends_round(s, seq):
            return None  # its public state has not come yet (a gap read the snapshot)
    if action[0] == "attack" and actor is not None and actor not in seats(s):
        end = ends_round(s, seq)
        if end is None:
            return None
        if end:
            out["defence"] = final_defence(s, seq, actor, action[1])
            if out["defence"] == 0:
                return None
    return out


def ends_round(s, seq):
    """True when event `seq` ended its round (the dealer's deal or the game's end comes
    next), False when not, None when this table cannot tell yet."""
    if len(s.log) > seq:
        nxt = s.log[seq]
        return nxt[1] is None and nxt[2][0] == "deal"
    public = s.publics.get(seq)
    if public is None:
        return None
    return public["winner"] is not None


def final_defence(s, seq, actor, card):
    """The round's final defence if it lay face down (K21), else None; 0 while the
    public state naming it has not come."""
    rnd = None
    for e in s.log[:seq]:
        if e[1] is None and e[2][0] == "deal":
            rnd = int(e[2][1])
    if s.public_seq < seq:
        return 0
    for r in s.public["rounds"]:
        if r["round"] == rnd and r["seat"] == actor and r["card"] == card:
            d = r["defence"]
            return d["card"] if d is not None and d["face"] == "down" else None
    return 0
