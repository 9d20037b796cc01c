"""What an accepted event changed, in words, from the simulator's reports before and after
it. Shared by the terminal play (play.py) and the browser page (webgame.py); the monitor
says `public_changes` (from the link's states). Pure Python that runs on CPython and
MicroPython."""

PLAYERS = ("white", "black")


def _cards(n):
    return "a card" if n == 1 else "%d cards" % n


def board_changes(before, after):
    """What changed on the board itself, in words: bridges, islands, scorings. `before`
    and `after` hold (at least) what the board shows anyone: the simulator's reports and
    the link's states alike (the monitor's words start with these too)."""
    out = []
    for conn, who in after["bridges"].items():
        if before["bridges"].get(conn) != who:
            out.append("%s bridge on %s" % (who, conn))
    for conn, who in before["bridges"].items():
        if conn not in after["bridges"]:
            out.append("%s's %s removed" % (who, conn))
    for isl, who in after["control"].items():
        if before["control"].get(isl) != who:
            out.append("%s takes %s" % (who, isl))
    for isl, who in before["control"].items():
        if isl not in after["control"]:
            out.append("%s loses %s" % (who, isl))
    for s in after["round_scores"][len(before["round_scores"]):]:
        out.append("SCORING: white +%d, black +%d" % (s["white"], s["black"]))
    return out


def _ends(conn):
    return conn.split("-")


def takeovers(before, after):
    """The islands taken between the two reports, each with the loser's bridges there that
    the take removed: [(taker, island, [connections])]. Public facts only."""
    out = []
    for isl, who in after["control"].items():
        if before["control"].get(isl) == who:
            continue
        gone = sorted(c for c, q in before["bridges"].items()
                      if q != who and c not in after["bridges"] and isl in _ends(c))
        out.append((who, isl, gone))
    return out


def takeover_words(before, after, you=None):
    """The islands taken, in words: `black took GOLA and removed white's bridges there
    (ALOA-GOLA, GOLA-KAHU)`; with `you` (the player in a solo game) the board's takes are
    said as such: `the board's move took GOLA and removed your bridges there (...)`."""
    out = []
    for who, isl, gone in takeovers(before, after):
        loser = PLAYERS[1 - PLAYERS.index(who)]
        whose = "your" if loser == you else loser + "'s"
        taker = "the board's move" if you is not None and who != you else who
        text = "%s took %s" % (taker, isl)
        if gone:
            text += " and removed %s bridge%s there (%s)" % (
                whose, "" if len(gone) == 1 else "s", ", ".join(gone))
        out.append(text)
    return out


def undone(before, after, secret=False):
    """What a `back` took back, in words (`undone: white's bridge on GOLA-KAHU, GOLA-1
    back in white's hand`), or "" when it took back no move. `secret`: no card named."""
    out = []
    for conn, who in before["bridges"].items():
        if conn not in after["bridges"]:
            out.append("%s's bridge on %s" % (who, conn))
    for conn, who in after["bridges"].items():
        if before["bridges"].get(conn) != who:
            out.append("the removal of %s's bridge on %s" % (who, conn))
    for isl, who in before["control"].items():
        if after["control"].get(isl) != who:
            out.append("%s's hold on %s" % (who, isl))
    for isl, who in after["control"].items():
        if before["control"].get(isl) != who:
            out.append("%s holds %s again" % (who, isl))
    for q in PLAYERS:
        gained = [c for c in after["hands"][q] if c not in before["hands"][q]]
        if not gained:
            continue
        cards = _cards(len(gained)) if secret else " ".join(gained)
        if before["bridges"] == after["bridges"]:
            out.append("%s's discard (%s back in hand)" % (q, cards))
        else:
            out.append("%s back in %s's hand" % (cards, q))
    if before["phase"] == "draw" and after["phase"] == "play":
        out.append("the end of %s's play phase" % after["turn"])
    return ("undone: " + ", ".join(out)) if out else ""


def describe(before, after, secret=False):
    """What an accepted command changed, in words. `secret`: the words must not name a
    card that was drawn, discarded or taken back into a hand (a screen two players
    share), only how many."""
    out = board_changes(before, after)
    if after["final_turns"] and not before["final_turns"]:
        out.append("the last card of round 3: one final turn each")
    for q in PLAYERS:
        gained = [c for c in after["hands"][q] if c not in before["hands"][q]]
        lost = [c for c in before["hands"][q] if c not in after["hands"][q]]
        if before["phase"] == "deal" and gained:
            out.append("%s has %d of 3 cards" % (q, len(after["hands"][q])))
        elif before["phase"] == "draw" and gained:
            out.append("%s drew %s" % (q, _cards(len(gained)) if secret else " ".join(gained)))
        elif gained:
            out.append("%s back in %s's hand" % (_cards(len(gained)) if secret
                                                 else " ".join(gained), q))
        if lost and before["bridges"] == after["bridges"]:
            if secret:
                out.append("%s discarded %s" % (q, _cards(len(lost))))
            else:
                out.append("%s discarded" % " ".join(lost))
    if after["winner"] and not before["winner"]:
        out.append("GAME OVER: %s (white %d, black %d)" % (
            "a draw" if after["winner"] == "draw" else after["winner"] + " wins",
            after["scores"]["white"], after["scores"]["black"]))
    elif after["round"] != before["round"]:
        out.append("round %d begins" % after["round"])
    if after["phase"] != before["phase"] or after["turn"] != before["turn"]:
        if after["turn"] != before["turn"] and after["phase"] == "play":
            out.append("%s's turn" % after["turn"])
        elif after["phase"] != before["phase"] and after["phase"] != "over":
            out.append("now the %s phase" % after["phase"])
    if after["must_draw"] and not before["must_draw"]:
        out.append("%s declined to draw, so %s must draw this turn" % (before["turn"],
                                                                       after["turn"]))
    return ", ".join(out)


def public_changes(before, after):
    """What an accepted event changed on the board, in words, from the link's states
    before and after it (public facts only: hand sizes, not hands): the monitor's words."""
    if before is None:
        return ""
    out = board_changes(before, after)
    for q in PLAYERS:
        d = after["hand_sizes"][q] - before["hand_sizes"][q]
        if d > 0:
            out.append("%s took %d card%s" % (q, d, "" if d == 1 else "s"))
        elif d < 0 and before["bridges"] == after["bridges"]:
            out.append("%s discarded %d card%s" % (q, -d, "" if d == -1 else "s"))
    if after["winner"] and not before["winner"]:
        out.append("GAME OVER: %s" % ("a draw" if after["winner"] == "draw"
                                      else after["winner"] + " wins"))
    elif after["phase"] != before["phase"] or after["turn"] != before["turn"]:
        out.append("%s, %s to play" % (after["phase"], after["turn"]))
    return ", ".join(out)
