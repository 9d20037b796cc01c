"""The page's seat in remote games of Halunken & Spelunken and Kami, without a browser or a
broker (host_tools/web/remoteplay.py through host_tools/web/game.py's "remote" request):
whole games against the dealer and host tables in this process (tests/remote/memtables.py,
every message routed as the broker's ACL would, and each one the page reads delivered
twice), the page one seat of 2 to 4; every table's report the same as the dealer's.

Halunken's movement cards by commit and reveal (H7, H32; host_tools/remote/commit.py): the
page commits itself and keeps card and nonce in what it hands back (`keep`, the browser's
local storage); a page reloaded between its commitment and the reveal reveals from them,
and one whose storage was lost says so and the game waits. No message to another seat
holds the page's card or nonce before the dealer opens the round's cards. Kami's
face-down defences (K6, K21) go on the page's move topic only: check_kami_wire finds no
card on a topic another seat reads before the rules show it. And the page's MicroPython
(the unix port) answers every request as CPython does."""

import json
import random

import pytest
from memtables import CODE, Tables
from test_remote_halkami import check_kami_wire

from host_tools import games as hostgames
from host_tools.remote import commit, dealing
from host_tools.remote import protocol as p
from host_tools.remote.seat import Seat
from host_tools.web import game as webgame
from mpy_runner import MicroPython

PAGE = "web"  # the page's broker user


def call(req):
    return json.loads(webgame.handle(json.dumps(dict(req, op="remote"))))


class PageGame(Tables):
    """A game of `kind` with the page at seat index `page_at` (0: it creates the game;
    else it joins) and a host table (memtables' Seat) at every other seat."""

    def __init__(self, kind, settings, seed, page_at=0, ai=(), transcript=None):
        self.kind = kind
        self.part = hostgames.part(kind, "remote")
        n = settings.get("players", 2)
        self.dealer = dealing.Dealer(lambda code: seed)
        names = ["u%d" % (i + 1) for i in range(n)]
        self.users = [u for i, u in enumerate(names) if i != page_at]
        self.seats = {u: Seat(CODE, u) for u in self.users}
        self.secrets = {u: commit.Secrets() for u in self.users}
        self.ai = {u: self.part.AiSeat() for u in ai}
        self.wire = []
        self.lines = []
        self.transcript = transcript
        self.rng = random.Random(seed)
        self.inbox = []  # the page's messages, not yet fed
        self.retained = {}  # topic -> payload: what the broker keeps for a new subscriber
        self.kept = {}  # every secret the page handed out to keep: slot -> [card, nonce]
        self.keep = None  # the page's storage now
        self.view = None
        self.lose_reveal = False  # the page's next reveal lost on the way (a dropped link)
        self.settings = settings
        for i, name in enumerate(names):
            if i == page_at:
                self.open(create=i == 0)
            elif i == 0:
                self.say(name, "hello", p.hello("create", "p1", settings, kind))
            else:
                self.say(name, "hello", p.hello("join"))
            self.pump()

    # ---------------------------------------------------------------- the page

    def page(self, req):
        resp = call(req)
        if self.transcript is not None:
            self.transcript.append((req, resp))
        assert resp["ok"], (req, resp)
        self.view = resp["view"]
        return resp

    def entropy(self):
        return [self.rng.randrange(1 << 32) for _ in range(6)]

    def open(self, create, secrets=None):
        """The page opens the game (a create, or a join: also a reload), says its hello
        and gets what the broker retains for a new subscriber."""
        req = {"do": "open", "create": create, "code": CODE, "user": PAGE,
               "entropy": self.entropy(), "secrets": secrets}
        if create:
            req.update(game=self.kind, seat="p1", settings=self.settings)
        opened = self.page(req)
        self.mine = set(opened["subscribe"])
        self.inbox += [(t, m) for t, m in self.retained.items() if t in self.mine]
        self.page_send(self.page({"do": "hello"})["publish"])

    def page_send(self, out):
        if out is None:
            return
        if self.lose_reveal and out["message"]["action"][0] == "reveal":
            self.lose_reveal = False
            self.lost = out
            return
        topic, payload = out["topic"], p.encode(out["message"])
        self.wire.append((topic, payload, False))
        got, lines = self.dealer.handle(topic, payload)
        assert not [line for line in lines if "refused" in line], lines
        self.deliver(got)

    def deliver(self, out):
        Tables.deliver(self, out)
        for topic, payload, retain in out:
            if retain:
                self.retained[topic] = payload
            if topic in getattr(self, "mine", ()):
                self.inbox.append((topic, payload))

    def pump(self):
        while self.inbox:
            topic, payload = self.inbox.pop(0)
            for _twice in range(2):  # QoS 1 delivers some twice
                r = self.page({"do": "feed", "topic": topic, "payload": payload.decode()})
                assert r["bad"] is None, r
                self.page_send(r["publish"])  # a reveal now due

    def page_move(self):
        opts = self.view["options"]
        action = self.part.random_request(opts, self.rng) if opts else None
        if action is None:
            return False
        r = self.page({"do": "move", "action": action, "entropy": self.entropy()})
        if r["keep"] is not None:
            self.keep = r["keep"]
            self.kept.update(r["keep"])
        self.page_send(r["publish"])
        return True

    # ---------------------------------------------------------------- the game

    def step(self):
        """One request of a table chosen at random (the page among them): False when
        nobody can move."""
        self.pump()
        movers = self.users + [PAGE]
        self.rng.shuffle(movers)
        for u in movers:
            if u == PAGE:
                if self.page_move():
                    self.pump()
                    return True
                continue
            action = self.request_of(u, self.rng)
            if action is not None:
                out, lines = self.send(u, action)
                assert lines == [], lines
                self.pump()
                return True
        return False

    def play(self, until=None, limit=20000):
        for _ in range(limit):
            if self.over() or until is not None and until(self):
                self.pump()
                return
            assert self.step(), "nobody can move: %s" % self.game().dealt.public()
        raise AssertionError("the game did not end")

    def check_same(self):
        g = self.game()
        want = {"game": CODE, "seq": len(g.log), "log": g.log, "public": g.dealt.public()}
        assert self.view["over"] and self.view["options"] == []
        assert self.view["report"] == want
        for u, s in self.seats.items():
            assert s.report() == want, u
        return want


def check_halunken_secrets(g):
    """The page's commitments: digests on its move topic; each card's nonce on no topic
    but its own move topic (the reveal, after the announcement) before the dealer opens
    the cards (H7)."""
    mine = p.topic(CODE, "move", PAGE)
    commits = 0
    for topic, payload, _ in g.wire:
        msg = json.loads(payload)
        action = msg.get("action") or []
        if topic == mine and action[:1] == ["commit"]:
            assert commit.is_digest(action[2])
            commits += 1
    assert commits >= 8 and len(g.kept) >= 8  # a card each round
    for card, nonce in g.kept.values():
        seen = [(t, json.loads(m)) for t, m, _ in g.wire if nonce.encode() in m]
        first_other = next(i for i, (t, _m) in enumerate(seen) if t != mine)
        assert seen[first_other][1]["action"][0] == "open", seen[first_other]
        assert seen[first_other][1]["action"][2] == card
        assert all(m["action"][0] == "reveal" for t, m in seen[:first_other])
    return commits


@pytest.mark.parametrize("players,page_at,mode", [(2, 0, "tactical"), (3, 1, "standard"),
                                                  (4, 3, "beginner")])
def test_halunken_whole_games_with_the_page_at_one_seat(players, page_at, mode):
    g = PageGame("halunken", {"players": players, "mode": mode}, seed=players + 4,
                 page_at=page_at, ai=("u2",) if page_at != 1 else ())
    assert g.view["game"] == "halunken" and g.view["seat"] == "p%d" % (page_at + 1)
    g.play()
    want = g.check_same()
    assert commit.audit(want["log"]) == []
    assert want["public"]["winner"]
    assert check_halunken_secrets(g) >= 8


def test_kami_whole_games_with_the_page_at_one_seat():
    for players, page_at in ((2, 1), (4, 0)):
        g = PageGame("kami", {"players": players, "target": 4}, seed=3 + players,
                     page_at=page_at, ai=("u2",) if page_at != 1 else ())
        assert g.view["game"] == "kami"
        g.play()
        want = g.check_same()
        assert want["public"]["winner"]
        seats = dict(g.game().seats)
        assert seats["p%d" % (page_at + 1)] == PAGE
        assert check_kami_wire(g.wire, seats) >= want["seq"]
        # the page laid face-down defences, and named them to the dealer alone
        mine = p.topic(CODE, "move", PAGE)
        sent = [json.loads(m)["action"] for t, m, _ in g.wire if t == mine]
        assert any(a[0] == "defend" and len(a) == 2 for a in sent), sent


def committed_not_revealed(g):
    sec = (g.view["public"] or {}).get("secret")
    return (sec is not None and g.view["seat"] in sec["committed"]
            and not sec["reveal"] and g.view["public"]["round"] >= 2)


def test_a_page_reloaded_between_its_commitment_and_the_reveal_reveals():
    g = PageGame("halunken", {"players": 3, "mode": "standard"}, seed=9, page_at=1)
    g.play(until=committed_not_revealed)
    context = g.view["public"]["secret"]["context"]
    assert g.keep and any(k.startswith(context + "\n") for k in g.keep)
    # The page reloaded: a new table in the page, its storage handed back, a join.
    g.open(create=False, secrets=json.loads(json.dumps(g.keep)))
    g.pump()
    assert g.view["seat"] == "p2" and g.view["current"]
    # Its commitment is not offered again: the choice is made.
    assert not [o for o in g.view["options"] if o[0] == "commit"]
    g.play()
    want = g.check_same()
    assert commit.audit(want["log"]) == []


def test_a_reveal_lost_with_the_connection_is_sent_again_on_the_new_one():
    g = PageGame("halunken", {"players": 3}, seed=5, page_at=2)
    g.lose_reveal = True
    g.play(until=lambda g: not g.lose_reveal)
    figure = g.lost["message"]["action"][1]
    assert figure not in g.game().dealt.public()["secret"]["revealed"]
    # The same messages again on the old connection: no second reveal (asked once).
    g.inbox += [(t, m) for t, m in g.retained.items() if t in g.mine]
    g.pump()
    assert figure not in g.game().dealt.public()["secret"]["revealed"]
    # A new connection: the retained snapshot and hand come again, and the reveal goes.
    g.page({"do": "reconnected"})
    g.inbox += [(t, m) for t, m in g.retained.items() if t in g.mine]
    g.pump()
    sec = g.game().dealt.public()["secret"]
    assert sec is None or figure in sec["revealed"]
    g.play()
    assert commit.audit(g.check_same()["log"]) == []


def test_a_page_whose_storage_was_lost_says_so_and_the_game_waits():
    g = PageGame("halunken", {"players": 2}, seed=12, page_at=0)
    g.play(until=committed_not_revealed)
    g.open(create=False, secrets=None)  # the browser's storage cleared
    for _ in range(20):
        if not g.step():
            break
    g.pump()
    assert g.view["last"].startswith("cannot reveal p1: this page holds no secret"), g.view
    sec = g.game().dealt.public()["secret"]
    assert sec["reveal"] and "p1" not in sec["revealed"]  # the game waits for p1
    before = g.game().log[:]
    assert not g.step()
    assert g.game().log == before


def test_bad_requests_for_these_games_are_one_line_and_change_nothing():
    g = PageGame("halunken", {"players": 2}, seed=4, page_at=0)
    g.play(until=lambda g: any(o[0] == "commit" for o in g.view["options"]))
    before = g.page({"do": "view"})["view"]
    commits = [o for o in before["options"] if o[0] == "commit"]
    assert commits, before
    for req, text in (({"do": "move", "action": ["commit", "p2", "3"]}, "not one of the moves"),
                      ({"do": "move", "action": commits[0], "entropy": [1, 2]},
                       "four random 32-bit numbers"),
                      ({"do": "move", "action": ["reveal", "p1"]}, "not one of the moves")):
        r = call(req)
        assert r["ok"] is False and text in r["error"], r
    assert call({"do": "view"})["view"] == before
    for req, text in (({"do": "open", "create": True, "user": "x", "game": "chess"},
                       "the page plays kahuna, halunken, kami"),
                      ({"do": "open", "create": True, "user": "x", "game": "kami",
                        "code": CODE, "settings": {"players": 5}}, "players"),
                      ({"do": "open", "create": True, "user": "x", "game": "kami",
                        "code": CODE, "seat": "p3", "settings": {}}, "the seat is one of"),
                      ({"do": "open", "create": False, "user": "x", "code": CODE,
                        "secrets": [1]}, "kept secrets")):
        r = call(req)
        assert r["ok"] is False and text in r["error"], r


def test_a_code_of_another_game_is_named():
    """A join whose snapshot names another game than the page's: the page is told which
    (the page then opens that game's page)."""
    d = dealing.Dealer(lambda code: 3)
    d.handle(p.topic(CODE, "hello", "u1"), p.encode(p.hello("create", "p1", {}, "kami")))
    snap = [m for t, m, _ in d.handle(p.topic(CODE, "hello", "u2"),
                                      p.encode(p.hello("join")))[0] if t.endswith("snapshot")]
    call({"do": "open", "create": True, "user": "x", "game": "halunken", "code": "ABCDEF"})
    r = call({"do": "feed", "topic": p.topic("ABCDEF", "snapshot"),
              "payload": snap[-1].decode().replace(CODE, "ABCDEF")})
    assert r["ok"] and r["other_game"] is None  # a game this page's Python can play
    hostgames_provides = hostgames.provides
    try:  # the page of Kahuna: no Kami in its bundle
        hostgames.provides = lambda g: () if g == "kami" else hostgames_provides(g)
        call({"do": "open", "create": False, "user": "x", "code": "ABCDEF"})
        r = call({"do": "feed", "topic": p.topic("ABCDEF", "snapshot"),
                  "payload": snap[-1].decode().replace(CODE, "ABCDEF")})
    finally:
        hostgames.provides = hostgames_provides
    assert r["ok"] and r["bad"] and r["other_game"] == "kami", r


MPY_SCRIPT = """
import json, sys
from host_tools.web import game as webgame
with open(sys.argv[1]) as f:
    requests = json.load(f)
for req in requests:
    print(webgame.handle(json.dumps(req)))
"""


@pytest.mark.parametrize("kind,settings", [("halunken", {"players": 3}),
                                           ("kami", {"players": 2, "target": 3})])
def test_the_pages_micropython_answers_the_same(mpy, tmp_path, kind, settings):
    transcript = []
    g = PageGame(kind, settings, seed=6, page_at=1, transcript=transcript)
    g.play()
    g.check_same()
    requests = [dict(req, op="remote") for req, _ in transcript]
    path = tmp_path / "requests.json"
    path.write_text(json.dumps(requests))
    script = tmp_path / "page.py"
    script.write_text(MPY_SCRIPT)
    page_heap = MicroPython(mpy.executable, heap_kib=16 * 1024)  # the page's heap
    out = page_heap.run_script(str(script), str(path), timeout=600)
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == len(transcript) > 100
    for (req, want), got in zip(transcript, answers):
        assert got == want, req


COMMIT_CODE = """
from host_tools.remote import commit
nonce = "0123456789abcdef" * 2
d = commit.digest("C/1", "p1", "3", nonce)
s = commit.Secrets(held={"C/1\\np1": ["3", nonce], "bad": ["3", "x"]})
print(d)
print(commit.matches(d, "C/1", "p1", "3", nonce), commit.matches(d, "C/1", "p2", "3", nonce),
      commit.matches(d, "C/2", "p1", "3", nonce), commit.matches(d, "C/1", "p1", "4", nonce))
print(s.reveal("C/1", "p1"), s.reveal("C/1", "p2"), sorted(s.held))
print(s.commit("C/2", "p2", "RUM", "f" * 32) == ["commit", "p2", commit.digest(
    "C/2", "p2", "RUM", "f" * 32)])
print(commit.audit([[1, "p1", ["commit", "p1", d]], [2, None, ["reveal", "C/1"]],
                    [3, "p1", ["open", "p1", "4", nonce]]]))
"""


def test_commit_runs_in_micropython_as_in_cpython(mpy, capsys):
    """host_tools/remote/commit.py in the page's MicroPython (the unix port): no hmac or
    secrets at import, the same digests, checks, secrets and audit as CPython's."""
    out = mpy.run_code(COMMIT_CODE)
    exec(compile(COMMIT_CODE, "commit_code", "exec"), {})
    assert out == capsys.readouterr().out
    lines = out.splitlines()
    assert commit.is_digest(lines[0]) and lines[1] == "True False False False"
    assert lines[4] == '["event 3: p1\'s 4 does not open its commitment"]'
