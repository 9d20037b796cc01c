"""Commit and reveal for secret simultaneous choices in remote play (docs/remote.md,
"Secret choices"): Halunken's movement cards (H7, H32).

A table never sends a secret card before every seat has chosen. It first sends a
commitment, the SHA-256 (hex) of the choice's context, its figure, the card and a random
nonce; the dealer publishes it. Once every commitment is in, the dealer announces the
reveal, and each table sends card and nonce on its move topic (read by the dealer alone).
The dealer checks them against the commitment (a mismatch is refused, logged, and changes
nothing) and, once every reveal is in, publishes all the cards with their nonces at once:
any table can then check each against the commitment it saw (`audit`).

The context (game code, round) and the figure are in the hash, so a table cannot copy
another's commitment and open it with the other's card once revealed, nor reuse one of an
earlier round. The nonce (128 random bits from the system's source) keeps the few possible
cards from being tried against a commitment.

`Secrets` is a table's side: the card and nonce of each of its commitments, kept in a file
(written and synced before the commitment goes out), so that a table that stops after
committing and starts again reveals what it committed to. The page keeps them in the
browser's local storage instead (host_tools/web/remoteplay.py): the held secrets are handed
in and out, and the nonce is made from the browser's random numbers.

It runs in the page's MicroPython too (WebAssembly; tested in the unix port): hashlib and
binascii only at import; `secrets` (the host's random source), `os` and `json` (the file)
are imported where the host needs them.
"""

import binascii
import hashlib

HEX_LEN = 64  # a SHA-256 digest in hex
NONCE_LEN = 32  # 16 random bytes in hex


def digest(context, figure, card, nonce):
    """The commitment to `card` for `figure` in `context` with `nonce` (hex)."""
    text = "\n".join([context, figure, card, nonce])
    return binascii.hexlify(hashlib.sha256(text.encode("utf-8")).digest()).decode()


def new_nonce():
    """16 random bytes in hex from the system's source (the host's; the page gives its
    own from the browser's crypto.getRandomValues)."""
    import secrets as sysrandom
    return sysrandom.token_hex(NONCE_LEN // 2)


def same_text(a, b):
    """a == b in a time that does not depend on where they differ (hmac.compare_digest,
    which MicroPython lacks)."""
    if not isinstance(a, str) or not isinstance(b, str) or len(a) != len(b):
        return False
    diff = 0
    for x, y in zip(a, b):
        diff |= ord(x) ^ ord(y)
    return diff == 0


def is_digest(text):
    return isinstance(text, str) and len(text) == HEX_LEN and all(
        c in "0123456789abcdef" for c in text)


def is_nonce(text):
    return isinstance(text, str) and len(text) == NONCE_LEN and all(
        c in "0123456789abcdef" for c in text)


def matches(commitment, context, figure, card, nonce):
    """Whether `card` and `nonce` open `commitment` (compared in constant time)."""
    return same_text(commitment, digest(context, figure, card, nonce))


def audit(log):
    """The reveals in a public log `[[seq, actor, action]]` that do not open the
    commitment published before them: a list of one-line faults (empty: all honest). The
    dealer's announcement ["reveal", CONTEXT] names the context of the commitments before
    it; each ["open", FIGURE, CARD, NONCE] after it must open its figure's commitment."""
    commits = {}
    context = None
    faults = []
    for seq, _actor, action in log:
        if action[:1] == ["commit"] and len(action) == 3:
            commits[action[1]] = action[2]
        elif action[:1] == ["reveal"] and len(action) == 2:
            context = action[1]
        elif action[:1] == ["open"] and len(action) == 4:
            held = commits.pop(action[1], None)
            if held is None or context is None or not matches(
                    held, context, action[1], action[2], action[3]):
                faults.append("event %d: %s's %s does not open its commitment"
                              % (seq, action[1], action[2]))
    return faults


class Secrets:
    """A table's commitments: {context + figure: [card, nonce]}, in `path` (or in memory
    when path is None). A card chosen for a slot that holds one already keeps the first:
    a commitment said again (a retry, a table started again) is the same commitment."""

    def __init__(self, path=None, held=None):
        self.path = path
        self.held = {}
        if held is not None:  # the page's, from the browser's storage
            self.held = {k: list(v) for k, v in held.items() if isinstance(k, str)
                         and isinstance(v, list) and len(v) == 2 and is_nonce(v[1])}
        if not path:
            return
        import json
        import os
        if os.path.exists(path):
            try:
                with open(path) as f:
                    obj = json.load(f)
                if isinstance(obj, dict):
                    self.held = {k: v for k, v in obj.items()
                                 if isinstance(v, list) and len(v) == 2}
            except (OSError, ValueError):
                self.held = {}  # unreadable: as if lost; the reveal will say so

    def _save(self):
        if not self.path:
            return
        import json
        import os
        folder = os.path.dirname(self.path)
        if folder:
            os.makedirs(folder, exist_ok=True)
        with open(self.path + ".new", "w") as f:
            json.dump(self.held, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(self.path + ".new", self.path)

    def commit(self, context, figure, card, nonce=None):
        """The request ["commit", figure, digest] for `card` (or for the card committed
        before in this slot); `nonce` (hex) or a new one from the system's source."""
        slot = context + "\n" + figure
        if slot not in self.held:
            if nonce is not None and not is_nonce(nonce):
                raise ValueError("a nonce is %d hex digits" % NONCE_LEN)
            self.held[slot] = [card, nonce or new_nonce()]
            self._save()  # before the commitment goes out
        card, nonce = self.held[slot]
        return ["commit", figure, digest(context, figure, card, nonce)]

    def forget(self):
        """The game is over (every card opened): the file goes."""
        self.held = {}
        if self.path:
            import os
            if os.path.exists(self.path):
                os.remove(self.path)

    def cards(self, context):
        """{figure: card} this table committed to in `context` (its own secrets: a
        board player choosing Black-Jack's card after its own may know its own, H26)."""
        head = context + "\n"
        return {slot[len(head):]: held[0] for slot, held in self.held.items()
                if slot.startswith(head)}

    def reveal(self, context, figure):
        """The request ["reveal", figure, card, nonce], or None when this table holds no
        secret for the slot (lost with its file)."""
        held = self.held.get(context + "\n" + figure)
        if held is None:
            return None
        return ["reveal", figure, held[0], held[1]]


class Pending:
    """The dealer's side of one secret simultaneous choice: the figures that must choose
    ({figure: the seat that chooses for it}), their commitments and the reveals, held back
    until every figure's is in. `refused(code, text)` makes the exception a refusal
    raises (the game part's Refused)."""

    def __init__(self, context, figures, refused):
        self.context = context
        self.figures = dict(figures)
        self.commits = {}
        self.opened = {}  # figure -> [card, nonce]
        self.refused = refused

    def announced(self):
        return len(self.commits) == len(self.figures)

    def done(self):
        return len(self.opened) == len(self.figures)

    def _mine(self, seat, figure):
        if figure not in self.figures:
            raise self.refused("not-offered", "%s has no secret choice now" % figure[:12])
        if self.figures[figure] != seat:
            raise self.refused("out-of-turn", "%s chooses for %s, not %s"
                               % (self.figures[figure], figure, seat))

    def commit(self, seat, figure, commitment):
        """Take `seat`'s commitment for `figure` (refused: nothing changed)."""
        self._mine(seat, figure)
        if not is_digest(commitment):
            raise self.refused("malformed", "a commitment is a SHA-256 digest in hex")
        if self.announced():
            raise self.refused("already-committed", "every commitment is in: reveal")
        if figure in self.commits:
            raise self.refused("already-committed", "%s has committed already" % figure)
        if commitment in self.commits.values():
            raise self.refused("copied", "that commitment is another figure's")
        self.commits[figure] = commitment

    def reveal(self, seat, figure, card, nonce, legal=None):
        """Take `seat`'s reveal of `figure` if it opens the commitment (refused
        `mismatch` otherwise: nothing changed) and `legal(figure, card)` (the rules' check,
        raising the refusal) lets the card be played."""
        self._mine(seat, figure)
        if not self.announced():
            raise self.refused("not-yet", "the reveal comes once every commitment is in")
        if figure in self.opened:
            raise self.refused("already-revealed", "%s is revealed already" % figure)
        if not is_nonce(nonce):
            raise self.refused("malformed", "a nonce is %d hex digits" % NONCE_LEN)
        if not matches(self.commits[figure], self.context, figure, card, nonce):
            raise self.refused("mismatch", "%s's card and nonce do not open its commitment"
                               % figure)
        if legal is not None:
            legal(figure, card)
        self.opened[figure] = [card, nonce]
