"""The report's game keys (sim contract, JSON report), in the contract's order: the one
place that turns the rules' indices into names. `hidden` holds what the board never shows."""

from games.halunken import deck, rules


def seat(s):
    return None if s is None or s < 0 else "p%d" % (s + 1)


def figure(state, f):
    return "blackjack" if f == rules.BJ else seat(f)


def move_name(state, f, m):
    if f == rules.BJ:
        return "BJ-%d" % m if state.mode == "standard" else deck.move_name("P3", m)
    return deck.move_name("P%d" % (f + 1), m)


def _names(cards):
    return sorted(deck.crew_name(c) for c in cards)


def expected(state):
    """(turn, figure) as indices; -1 where null."""
    st = state.step
    if st == "place":
        return state.placer, state.placer
    if st == "place-bj":
        return state.low, rules.BJ
    if st == "auction":
        return state.auction["speaker"], -1
    if st == "choose":  # H32: seat order from p1, W's Black-Jack card right after W's
        w = state.winner_seat()
        for s in range(state.players):
            if state.choices[s] < 0:
                return s, s
            if s == w and state.bj_controlled() and state.choices[rules.BJ] < 0:
                return w, rules.BJ
        return -1, -1
    if st == "rum":
        return state.to_act()[0], state.rum_owner
    if st == "steal":
        return state.pending["thief"], state.pending["mover"]
    if st == "rob":
        return state.robs[0][1], rules.BJ
    if st == "take":  # at a table; W taps Black-Jack's take in a won tactical round
        return state.to_act()[0], state.taking[0]
    if st == "bj-card":  # W, or anyone when nobody bid
        return state.winner_seat(), rules.BJ
    return -1, -1


def game(state):
    n = state.players
    seats = [seat(s) for s in range(n)]
    turn, fig = expected(state)
    options = None
    if state.step in ("place", "place-bj"):
        options = [deck.space_name(t) for t in state.vacant()]
    elif state.step == "rum":
        options = list(state.options)
    sources = None
    if state.step in ("steal", "rob"):
        sources = ["port" if src == rules.PORT else seat(src) for src in state.sources()]
    table = state.deal == "table"
    blind = state.placed < n or table  # H5; H33: a table's piles are face down
    taverns = {}
    for t in range(deck.SPACES):
        pile = state.piles[t]
        top = None if blind or not pile else deck.crew_name(pile[0])
        taverns[deck.space_name(t)] = {"left": len(pile), "top": top}
    a = state.auction
    auction = None
    if a is not None:
        auction = {"opener": seat(a["opener"]),
                   "words": [{"seat": seat(w[0]),
                              "card": None if w[1] < 0 else deck.crew_name(w[1])}
                             for w in a["words"]],
                   "winner": seat(a["winner"])}
    round_cards = {}
    figs = list(range(n)) + ([rules.BJ] if state.bj_controlled() else [])
    for f in figs:
        if state.cards[f] >= 0:
            num = state.numbers[f]
            round_cards[figure(state, f)] = {
                "card": move_name(state, f, state.cards[f]),
                "number": None if num < 0 or state.cancelled[f] else num,
                "cancelled": state.cancelled[f]}
    choices = {}
    for f in range(5):
        if state.choices[f] >= 0:
            choices[figure(state, f)] = move_name(state, f, state.choices[f])
    over = state.is_over()
    out = {
        "game": "halunken", "players": n, "mode": state.mode, "deal": state.deal,
        "first": seat(state.first), "phase": state.phase, "round": state.round,
        "step": state.step, "turn": seat(turn),
        "figure": None if fig < 0 else figure(state, fig),
        "options": options, "from": sources,
        "captains": {seats[s]: (None if state.pos[s] < 0 else deck.space_name(state.pos[s]))
                     for s in range(n)},
        "blackjack": None if state.bj < 0 else deck.space_name(state.bj),
        "taverns": taverns,
        "crews": {seats[s]: _names(state.crews[s]) for s in range(n)},
        "port": _names(state.port),
        "setup_cards": {seats[s]: (None if state.setup_cards[s] < 0
                                   else deck.crew_name(state.setup_cards[s]))
                        for s in range(n)},
        "auction": auction, "last_bidder": seat(state.last_bidder),
        "chosen": len(choices),
        "played": {seats[s]: [move_name(state, s, m) for m in state.played[s]]
                   for s in range(n)},
        "round_cards": round_cards,
        "bj_cards": [move_name(state, rules.BJ, c) for c in state.bj_cards],
        "scores": {seats[s]: state.score(s) for s in range(n)},
        "winner": [seats[s] for s in state.winners()] if over else None,
        "hidden": {"choices": choices,
                   "piles": None if table else
                   {deck.space_name(t): [deck.crew_name(c) for c in state.piles[t]]
                    for t in range(deck.SPACES)},
                   "bj_deck": None if state.mode == "beginner" or table else
                   [move_name(state, rules.BJ, c) for c in state.bj_deck]},
    }
    m = match(state)
    if m is not None:  # only in a match (games > 1): a one-game report is the contract's
        out["match"] = m
    return out


def match(state):
    """The match this game belongs to (H16), or None for one game: {"game": k, "of": n,
    "totals": each seat's points of the games before plus this game's as they stand,
    "winner": the seats with the highest total once the last game is over, else null}."""
    if getattr(state, "games", 1) == 1:
        return None
    t = state.totals()
    return {"game": state.game_k, "of": state.games,
            "totals": {seat(s): t[s] for s in range(state.players)},
            "winner": [seat(s) for s in state.end_winners()] if state.match_over()
            else None}


# The link's state (core/link.py StateView): the report's keys without the settings' (they
# are under `settings`), `hidden` only while a host asked for it (`reveal`), the cursor of
# an open option list and the frame.
LINK_KEYS = ("phase", "round", "step", "turn", "figure", "options", "from", "captains",
             "blackjack", "taverns", "crews", "port", "setup_cards", "auction",
             "last_bidder", "chosen", "played", "round_cards", "bj_cards", "scores",
             "winner", "hidden")


DEAL_KEYS = ("seed", "piles", "bj")  # settings that tell the deal: only under reveal


class PublicState:
    """The link's state of a Halunken board, field by field: `raws(app, reveal)` gives
    every field of FIELDS (one pass, after every event), `value(app, name, raw)` its JSON
    form. Before the reveal it says only how many have chosen (`chosen`, 8.3); with a
    dealt deck no pile's cards but the top ones once every captain is placed (H5)."""

    FIELDS = LINK_KEYS + ("match", "settings", "ui", "leds")
    # Left out while the raw value is None: `hidden` (not revealed), `match` (one game).
    HIDDEN = ("hidden", "match")

    @staticmethod
    def raws(app, reveal):
        rep = game(app.game)
        if not reveal:
            rep["hidden"] = None
        r = app.referee
        sel = r.sel if r.options else None
        return tuple(rep[k] for k in LINK_KEYS) + (rep.get("match"),
            (app.settings, reveal), (tuple(r.option_names()), sel), bytes(app.view.frame))

    @staticmethod
    def value(app, name, raw):
        if name == "ui":
            names, sel = raw
            return {"options": list(names), "sel": sel,
                    "cursor": None if sel is None else names[sel]}
        if name == "settings":
            from games.halunken.settings import check_settings
            settings, reveal = raw
            out = check_settings(settings)  # the defaults filled in
            if reveal:
                return out
            # The deal is hidden (8.3): a given deal's piles and Black-Jack's deck, and
            # the seed that a host could shuffle with.
            return {k: out[k] for k in out if k not in DEAL_KEYS}
        if name == "leds":
            from binascii import hexlify
            return hexlify(raw).decode()
        return raw


def place_names(board, places):
    """The names of a refusal's places (core.outcome.Outcome.places): `T5` (a space),
    `pile:T5`, `p2` (a seat), `port`."""
    out = []
    for kind, i in places:
        if kind == "space":
            out.append(deck.space_name(i))
        elif kind == "pile":
            out.append("pile:" + deck.space_name(i))
        elif kind == "seat":
            out.append(seat(i))
        else:
            out.append("port")
    return out
