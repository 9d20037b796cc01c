"""Random legal Kahuna games for tests, soaks and benchmarks.

Runs under CPython and the MicroPython unix port alike, and uses its own small PRNG so
that a seed gives the same game on both runtimes.
"""


from host_tools.games.kahuna import table


class Rng(table.Rng):
    """The table's xorshift32 (the same on every runtime), seeded as the random games
    always were (a seed keeps its game)."""

    def __init__(self, seed):
        self.s = ((seed * 2654435761) + 0x9E3779B9) & 0xFFFFFFFF or 1

    def choice(self, seq):
        return seq[self.below(len(seq))]

    def chance(self, percent):
        return self.below(100) < percent


def random_settings(rng):
    """Game settings as keyword arguments of `rules.Game`: both variants, either starting
    player, a handicap in about one game of four."""
    settings = {
        "variant": "alternative" if rng.chance(50) else "standard",
        "first": "black" if rng.chance(50) else "white",
        "handicap": None,
    }
    if rng.chance(25):
        settings["handicap"] = ("black" if rng.chance(50) else "white", 1 + rng.below(3))
    return settings


class Player:
    """Picks random legal actions with weights that make a game progress: most turns
    place or remove a few bridges, some discard, undo or go back from the draw phase,
    and every turn ends with a draw or a decline."""

    MAX_TURN_ACTIONS = 8

    def __init__(self, rng):
        self.rng = rng
        self.turn_key = None
        self.turn_actions = 0

    def choose(self, game):
        rng = self.rng
        key = (game.round, game.turn, game.final_turns, game.drawable_count())
        if key != self.turn_key:
            self.turn_key = key
            self.turn_actions = 0
        self.turn_actions += 1
        by_kind = {}
        for act in game.legal_actions():
            kind = act[0]
            if kind in by_kind:
                by_kind[kind].append(act)
            else:
                by_kind[kind] = [act]

        def pick(kind):
            return rng.choice(by_kind[kind])

        if "deal" in by_kind:
            return pick("deal")
        if "handicap" in by_kind:
            return pick("handicap")
        if "refill" in by_kind:
            return pick("refill" if rng.chance(70) else "skip_refill")
        busy = self.turn_actions > self.MAX_TURN_ACTIONS
        if "end_play" in by_kind:
            if not busy:
                roll = rng.below(100)
                if roll < 35 and "place" in by_kind:
                    return pick("place")
                if roll < 55 and "remove" in by_kind:
                    return pick("remove")
                if roll < 60 and "discard" in by_kind:
                    return pick("discard")
                if roll < 65 and "undo" in by_kind:
                    return pick("undo")
            return pick("end_play")
        # Draw phase.
        if not busy and rng.chance(4):
            return pick("resume_play")
        if "draw" in by_kind and (rng.chance(85) or "decline" not in by_kind):
            return pick("draw")
        if "decline" in by_kind:
            return pick("decline")
        # Forced to draw with a full hand (R3 + R4): discard first.
        return pick("discard")


def play_game(game, seed, on_action=None, max_actions=20000, record=True):
    """Play `game` to the end with random legal actions; returns the actions applied
    (or only their number with record=False, which keeps a small heap unfragmented).
    `on_action(game, action)` is called after each one."""
    player = Player(Rng(seed))
    actions = [] if record else None
    n = 0
    while not game.is_over():
        if n >= max_actions:
            raise RuntimeError("game %d did not end within %d actions" % (seed, max_actions))
        act = player.choose(game)
        game.apply(act)
        n += 1
        if record:
            actions.append(act)
        if on_action is not None:
            on_action(game, act)
    return actions if record else n
