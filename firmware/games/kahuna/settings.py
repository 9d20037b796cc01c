"""Kahuna's seats and settings: what is fixed for a whole game (OpenSpiel's Game, where
`games.kahuna.rules.Game` is the State), their one check (`check_settings`, whoever
supplies them: the journal, the serial link, a scenario, the terminal, the menu) and the
card names of a board."""

WHITE = 0
BLACK = 1
NOBODY = -1
PLAYERS = ("white", "black")

STANDARD = "standard"
ALTERNATIVE = "alternative"
VARIANTS = (STANDARD, ALTERNATIVE)
HANDICAP_MAX = 3  # a handicap places 1 to 3 bridges
SETTING_KEYS = ("variant", "first", "handicap", "ai", "ai_level", "remote")
AI_SIDES = (None, "white", "black")  # the side the board plays (games.kahuna.solo)
AI_LEVELS = (None, 1, 2, 3)  # the AI's levels (None: its default); more strength, more time


def card_names(board):
    """The 24 card names in board order: ALOA-1, ALOA-2, BARI-1, ... (card c belongs to
    island c // 2): two cards per island, what the tags are enrolled as."""
    return ["%s-%d" % (island, n) for island in board.islands for n in (1, 2)]


def player_index(name):
    if name == "white":
        return WHITE
    if name == "black":
        return BLACK
    raise ValueError("player must be 'white' or 'black', got %r" % (name,))


def _check_settings(variant, first, handicap, ai=None, ai_level=None, remote=None):
    """The one check of game settings, whoever supplies them (journal, serial link,
    scenario, terminal): ValueError saying what is allowed."""
    if variant not in VARIANTS:
        raise ValueError("variant must be standard or alternative, got %r" % (variant,))
    if first not in PLAYERS:
        raise ValueError("first must be white or black, got %r" % (first,))
    if ai not in AI_SIDES:
        raise ValueError("ai must be white, black or null, got %r" % (ai,))
    if isinstance(ai_level, bool) or ai_level not in AI_LEVELS:
        raise ValueError("ai_level must be 1, 2 or 3, got %r" % (ai_level,))
    if remote not in AI_SIDES:
        raise ValueError("remote must be white, black or null, got %r" % (remote,))
    if remote is not None and ai is not None:
        raise ValueError("a remote game seats no AI (settings ai and remote)")
    if handicap is not None:
        if not (isinstance(handicap, (tuple, list)) and len(handicap) == 2
                and handicap[0] in PLAYERS):
            raise ValueError("handicap must be a player and 1 to %d bridges, got %r"
                             % (HANDICAP_MAX, handicap))
        n = handicap[1]
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= HANDICAP_MAX:
            raise ValueError("handicap must place 1 to %d bridges, got %r" % (HANDICAP_MAX, n))


def check_settings(obj):
    """Game settings in their JSON form (the journal's, the serial link's): an object with
    any of variant, first, handicap ([player, n] or null), ai (white, black or null) and
    ai_level (1..3), and remote (white, black or null: the seat played at another table,
    games.kahuna.remote). Returns them checked, every key present (ai, ai_level and remote
    only when set); raises ValueError."""
    if not isinstance(obj, dict):
        raise ValueError("settings must be an object, got %r" % (obj,))
    for key in obj:
        if key not in SETTING_KEYS:
            raise ValueError("unknown setting %r (%s)" % (key, ", ".join(SETTING_KEYS)))
    variant = obj.get("variant", STANDARD)
    first = obj.get("first", "white")
    handicap = obj.get("handicap")
    ai = obj.get("ai")
    ai_level = obj.get("ai_level")
    remote = obj.get("remote")
    _check_settings(variant, first, handicap, ai, ai_level, remote)
    out = {"variant": variant, "first": first,
           "handicap": None if handicap is None else [handicap[0], handicap[1]]}
    if ai is not None:
        out["ai"] = ai
    if ai_level is not None:
        out["ai_level"] = ai_level
    if remote is not None:
        out["remote"] = remote
    return out


class Settings:
    """What is fixed for a whole game (OpenSpiel's Game, where `Game` is the State): the
    board and what follows from it, the variant, the first player, the handicap and `ai`.

    `variant` standard|alternative, `first` "white"|"black", `handicap` None or
    (player name, 1..3); bad settings raise ValueError. `names`: (card_names, card_index)
    of another Settings of the same board, shared rather than made again."""

    def __init__(self, board, variant=STANDARD, first="white", handicap=None, ai=None,
                 ai_level=None, remote=None, names=None):
        _check_settings(variant, first, handicap, ai, ai_level, remote)
        self.board = board
        self.ai = NOBODY if ai is None else player_index(ai)
        self.remote = NOBODY if remote is None else player_index(remote)
        self.ai_level = ai_level  # None: the AI's default level
        self.variant = variant
        self.first = player_index(first)
        # None or (player index, bridges)
        self.handicap = None if handicap is None else (player_index(handicap[0]), handicap[1])
        self.n_islands = len(board.islands)
        self.n_conns = len(board.connections)
        self.n_cards = 2 * self.n_islands
        if names is None:
            self.card_names = card_names(board)
            self.card_index = dict((name, c) for c, name in enumerate(self.card_names))
        else:  # another game's of this board, shared (the AI's private game: built anew
            self.card_names, self.card_index = names  # for each decision on the Pico)

    @classmethod
    def from_json(cls, board, obj):
        """Settings from their JSON form (see `check_settings`)."""
        s = check_settings(obj)
        return cls(board, s["variant"], s["first"], s["handicap"], s.get("ai"),
                   s.get("ai_level"), s.get("remote"))

    def to_json(self):
        h = self.handicap
        return check_settings({"variant": self.variant, "first": PLAYERS[self.first],
                               "handicap": None if h is None else [PLAYERS[h[0]], h[1]],
                               "ai": None if self.ai == NOBODY else PLAYERS[self.ai],
                               "ai_level": self.ai_level,
                               "remote": None if self.remote == NOBODY
                               else PLAYERS[self.remote]})

    def new_game(self):
        """A game at its start with these settings."""
        from games.kahuna.rules import Game
        return Game(self)
