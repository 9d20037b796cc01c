"""Random Kami games through legal_actions/apply with the invariants checked after every
action, the same code on CPython (tests/games/kami/test_kami_random.py loads this file)
and inside MicroPython:

    micropython tests/mp/kami_random.py FIRST_SEED COUNT

prints one line per game (seed, settings, actions, digest, scores, winner), then
"refused N" (the probes refused, each having changed nothing)."""

import sys

from core.outcome import Rejected
from games.kami import deck, report, rules

MODES = ("soldat", "seigneur", "kami")
DEALS = ("table", "given", "seed")
MAX_ACTIONS = 4000


class Rng:
    """xorshift32 for the players' choices (not the game's own shuffle)."""

    def __init__(self, seed):
        self.s = deck.seed_state(seed + 7)

    def below(self, n):
        self.s = deck.step(self.s)
        return self.s % n


def settings_for(seed):
    r = Rng(seed)
    players = 2 + r.below(3)
    return {"players": players, "mode": MODES[r.below(3)], "first": r.below(players),
            "target": 1 + r.below(8), "deal": DEALS[r.below(3)], "seed": seed}


def problems(g):
    """Every invariant the state must keep; an empty list when sound."""
    out = []
    n = g.players
    on_lines = []
    from_hand = [0] * n
    for s in range(n):
        for line in g.lines[s]:
            for e in line:
                on_lines.append(e[0])
                if not e[2]:
                    from_hand[s] += 1
    if len(set(on_lines)) != len(on_lines):
        out.append("a card twice on the lines")
    for c in range(deck.COUNT):
        if bool(g.used[c]) != (c in on_lines):
            out.append("used[%d] disagrees with the lines" % c)
    if g.phase in ("play", "claim", "over", "centre"):
        full = 10 if n == 3 else 8
        for s in range(n):
            if g.sizes[s] != full - from_hand[s]:
                out.append("p%d hand size %d, %d played from hand" % (s + 1, g.sizes[s],
                                                                      from_hand[s]))
    if g.hands is not None and g.phase != "deal":
        every = list(on_lines)
        for s in range(n):
            if len(g.hands[s]) != g.sizes[s]:
                out.append("p%d hand and size differ" % (s + 1))
            every.extend(g.hands[s])
        if g.aside is not None:
            every.extend(g.aside)
        if g.up is not None:
            every.extend(c for c in g.up if c >= 0)
            every.extend(c for c in g.down if c >= 0)
        if sorted(every) != list(range(deck.COUNT)):
            out.append("cards not conserved: %d placed" % len(every))
    if g.up is not None:
        for i in range(8):
            if g.up[i] >= 0 and g.left[i] == 0:
                out.append("stack %d empty but shows a card" % (i + 1))
    # scores: replay every scored round through the mode's rule
    totals = [0] * g.sides()
    for r in g.rounds:
        side = g.side(r[2])
        t = totals[side] + r[7]
        if g.mode != "soldat" and t > g.target:
            t = 0 if g.mode == "kami" else max(0, 2 * g.target - t)
        totals[side] = t
        if r[8] != totals:
            out.append("round %d scores %r, expected %r" % (r[0], r[8], totals))
    if totals != g.scores:
        out.append("scores %r, rounds give %r" % (g.scores, totals))
    if (g.winner >= 0) != (g.phase == "over"):
        out.append("winner and phase disagree")
    if g.phase == "over":
        w = g.scores[g.winner]
        if w < g.target or (g.mode != "soldat" and w != g.target):
            out.append("winner's score %d short of the target" % w)
    pub = report.public(g)
    for seat in pub["lines"]:
        for line in ("defence", "attack"):
            for e in pub["lines"][seat][line]:
                if e["face"] == "down" and e["card"] is not None:
                    out.append("public view names a face-down card")
    if "hands" in pub or "hidden" in pub:
        out.append("public view holds hidden fields")
    # no hidden card named anywhere in the public view (but past rounds' revealed final
    # defences, K21, and a claim's shown Soldiers, K11)
    del pub["rounds"]
    text = repr(pub)
    shown = g.claim[2] if g.claim is not None else ()
    for c in hidden_cards(g):
        if c not in shown and ("'%s'" % deck.NAMES[c]) in text:
            out.append("public view names hidden %s" % deck.NAMES[c])
    for s in range(n):
        view = repr(report.seat_view(g, s))
        for c in hidden_cards(g, s):
            if ("'%s'" % deck.NAMES[c]) in view:
                out.append("p%d's view names %s" % (s + 1, deck.NAMES[c]))
    return out


def hidden_cards(g, seat=-1):
    """The cards hidden from everyone, or from `seat` (its own hand and its own face-down
    cards are not hidden from it)."""
    out = []
    for s in range(g.players):
        if s == seat:
            continue
        for e in g.lines[s][0]:
            if not e[1]:
                out.append(e[0])
        if g.hands is not None:
            out.extend(g.hands[s])
    if g.aside is not None:
        out.extend(g.aside)
    if g.down is not None:
        out.extend(c for c in g.down if c >= 0)
    return out


def probe(g, rng):
    """A random action, maybe illegal: refused ones must change nothing. Returns 1 when
    refused."""
    names = ("defend", "attack", "counter", "reveal", "centre", "show")
    if rng.below(4) == 0:
        act = (("pass",), ("back",), ("discard",), ("shown",), ("keep",), ("cancel",),
               ("withdraw",))[rng.below(7)]
    else:
        act = (names[rng.below(len(names))], rng.below(deck.COUNT + 2) - 1)
    before = g.snapshot()
    try:
        g.apply(act)
    except Rejected:
        refused = 1
    else:
        refused = 0
    if refused:
        if g.snapshot() != before:
            raise AssertionError("refused %r changed the state" % (act,))
        return 1
    g.restore(before)  # accepted: undo, the playout goes on from where it was
    return 0


def play(seed):
    """One random game: (its result line, refused probes)."""
    s = settings_for(seed)
    g = rules.Game(**s)
    rng = Rng(seed)
    seen = []
    g.recorder = seen.append
    digest = 0
    refused = 0
    n = 0
    while not g.is_over() and n < MAX_ACTIONS:
        if rng.below(10) == 0:
            refused += probe(g, rng)
        legal = g.legal_actions()
        if not legal:
            raise AssertionError("seed %d: no legal action in %s" % (seed, g.phase))
        # claims are rare at a table: choose them seldom so rounds get played
        act = legal[rng.below(len(legal))]
        if act[0] in ("discard", "pick", "show") and rng.below(8):
            act = legal[0]
        del seen[:]
        g.apply(act)
        if len(seen) != 1 or seen[0] is not act:
            raise AssertionError("the recorder saw %r for %r" % (seen, act))
        bad = problems(g)
        if bad:
            raise AssertionError("seed %d after %r: %s" % (seed, act, "; ".join(bad)))
        n += 1
        digest = (digest * 31 + _code(act)) & 0xFFFFFF
    line = "%d p%d %s t%d %s %d %06x %s %s" % (
        seed, s["players"], s["mode"], s["target"], s["deal"], n, digest,
        ",".join(str(x) for x in g.scores), g.winner)
    return line, refused


def _code(act):
    c = len(act[0]) * 131 + ord(act[0][0])
    if len(act) > 1 and isinstance(act[1], int):
        c = c * 37 + act[1]
    return c


def main(first, count):
    refused = 0
    for seed in range(first, first + count):
        line, r = play(seed)
        refused += r
        print(line)
    print("refused %d" % refused)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
