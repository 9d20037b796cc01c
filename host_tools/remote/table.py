"""`python -m host_tools remote create|join`: one table of a remote game (docs/remote.md),
through an MQTT broker and the dealer beside it.

    python -m host_tools remote create --user alice --password-file alice.pw
        -> prints the game's code (e.g. K7QXM2); tell it to the other table
    python -m host_tools remote join K7QXM2 --user bob --password-file bob.pw

The table's seat is played by `--player terminal` (a person types the number of a move;
the default), `--player ai` (the board's own player, games.kahuna.ai, deciding from what
this table knows) or `--player random` (seeded random legal moves: tests, demonstrations).
At the end it prints the result and, with --report FILE, writes what both tables must
agree on (the public log and state) as JSON. A table that stops (killed, a power cut) and
starts again with `join CODE` and the same user goes on where the game is.
"""

import argparse
import asyncio
import json
import os
import random
import sys
import time

from host_tools import gamearg
from host_tools import games as hostgames
from host_tools.remote import broker, commit
from host_tools.remote import protocol as p
from host_tools.remote.seat import Seat

HELLO_AGAIN = 1.0  # seconds
ASK_AGAIN = 3.0  # seconds
DEALER_SILENT = 5  # hellos without an answer before the table says so


def parse(argv):
    ap = argparse.ArgumentParser(prog="remote", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="op", required=True, metavar="create|join")
    create = sub.add_parser("create", help="create a game and print its code")
    join = sub.add_parser("join", help="join (or rejoin) the game of CODE")
    join.add_argument("code", metavar="CODE", help="the game's code, from its creator")
    for sp in (create, join):
        broker.add_options(sp)
        sp.add_argument("--player", choices=("terminal", "ai", "random"),
                        default="terminal",
                        help="who plays this table's seat: a person at the terminal (the "
                             "default), the board's AI, or random moves")
        sp.add_argument("--seed", type=int, default=1, metavar="N",
                        help="the AI's or the random player's seed (default 1)")
        sp.add_argument("--report", metavar="FILE",
                        help="write the public log and state here at the end (JSON)")
        sp.add_argument("--port", metavar="PORT",
                        help="a board at this table plays its seat: its serial port (a "
                             "Pico on USB, or the virtual board's; host_tools/remote/"
                             "boardbridge.py; a Kahuna, Halunken or Kami board)")
        sp.add_argument("--echo", action="store_true",
                        help="with --port: print the board's lines and what this table "
                             "knows as JSON lines (tools, tests)")
        sp.add_argument("--seats", type=int, default=1, metavar="N",
                        help="Halunken, Kami: this table plays N seats (default 1; a "
                             "create takes --seat and the next ones, a join the first "
                             "free ones)")
        sp.add_argument("--secrets", metavar="DIR", default=os.path.join("~", ".kb-remote"),
                        help="where this table keeps the card and nonce of each secret "
                             "choice it committed to, until it reveals them (Halunken; "
                             "default ~/.kb-remote)")
    create.add_argument("--game", default="kahuna", metavar="NAME",
                        help="the game: kahuna (the default), halunken or kami")
    create.add_argument("--seat", help="the creator's seat (default: the first, white or "
                                       "p1)")
    create.add_argument("--variant", choices=("standard", "alternative"),
                        help="Kahuna's variant (default standard)")
    create.add_argument("--first", help="the seat that starts (default white or p1)")
    create.add_argument("--players", type=int, metavar="N",
                        help="Halunken, Kami: 2 to 4 seats (default 2), one table each")
    create.add_argument("--mode", help="Halunken: beginner, standard or tactical (H17); "
                                       "Kami: soldat, seigneur or kami (K18)")
    create.add_argument("--target", type=int, metavar="N",
                        help="Kami: the points to reach (1 to 15, default 15)")
    create.add_argument("--code", help="the game's code (default: a new random one)")
    create.add_argument("--deal-here", action="store_true",
                        help="this table deals its own game (both tables agree to trust it: "
                             "its computer holds the deck), as the broker user "
                             "--dealer-user with --dealer-password-file")
    create.add_argument("--dealer-user", default="dealer", metavar="USER",
                        help="with --deal-here: the broker user with the dealer's rights "
                             "(default dealer)")
    create.add_argument("--dealer-password-file", metavar="FILE",
                        help="with --deal-here: that user's password file")
    create.add_argument("--private", action="store_true",
                        help="a private game: a token is made and printed with the code; "
                             "the dealer seats nobody without it (docs/remote.md)")
    for sp in (create, join):
        sp.add_argument("--token", metavar="TOKEN",
                        help="the private game's token (create: this one instead of a new "
                             "one; join: the one its creator gave)")
    args = ap.parse_args(argv)
    if getattr(args, "echo", False) and getattr(args, "port", None) is None:
        ap.error("--echo prints a board's lines: it needs --port")
    return args


class Table:
    """One table on the broker: its Seat (what it knows), its player, its requests."""

    def __init__(self, code, user, part, player, log, hello, news=None, secrets=None,
                 make_player=None, count=1, index=0):
        self.seat = Seat(code, user, index)
        self.news = news  # callable(seat, word) after every message, or None
        self.part = part  # None until the snapshot names the game (a join)
        self.play = player  # async (seat, options) -> a request, or None
        self.make_player = make_player  # (part, index) -> player: a part learnt late,
        # or the table's other seats
        self.secrets = secrets if secrets is not None else commit.Secrets()
        self.log = once(log)
        self.hello = hello
        self.asked = None  # the event count at our request in flight
        self.asked_at = 0.0
        self.pending = None  # the request in flight
        self.tried = {}  # event count -> requests refused at it
        # The table's other seats (Halunken, Kami: --seats N), each with its own player
        # and requests in flight, fed the same messages.
        self.others = [Table(code, user, part, None, log, None, None, self.secrets,
                             make_player, index=k) for k in range(1, count)]

    async def work(self, client):
        code, user = self.seat.code, self.seat.user
        for t in [self] + self.others:
            t.resend_soon()
        for kind in ("snapshot", "event"):
            await client.subscribe(p.topic(code, kind), qos=1)
        for kind in ("hand", "reply"):
            await client.subscribe(p.topic(code, kind, user), qos=1)
        tasks = [asyncio.create_task(self.say_hello(client))] + [
            asyncio.create_task(t.ask_again(client)) for t in [self] + self.others]
        try:
            return await self.listen(client)
        finally:
            for task in tasks:
                task.cancel()

    def resend_soon(self):
        """A new connection: the request in flight when the last one dropped may have been
        lost with it (a broker's restart) and goes again at ask_again's next look, the
        same choice with the next number. Not chosen anew: an option sent at this event
        is not offered again (`tried`), so a seat whose only option it was would wait
        forever. If the dealer took it after all, the snapshot says so and the one sent
        again is refused as stale or replayed, changing nothing."""
        self.asked_at = float("-inf")

    async def ask_again(self, client):
        """A request that brought no event within ASK_AGAIN seconds is sent again, with
        the next number: a dealer that died before it saved the request never got it (the
        broker had it acknowledged). If the first one did count, the second is refused as
        stale and changes nothing."""
        while True:
            await asyncio.sleep(ASK_AGAIN / 4)
            s = self.seat
            if (self.asked == s.seq and self.pending is not None
                    and time.monotonic() - self.asked_at > ASK_AGAIN):
                self.log("no answer to request %d: sending it again" % s.moves)
                await self.send(client, self.pending)

    async def say_hello(self, client):
        """The hello, said again every HELLO_AGAIN seconds until the snapshot shows this
        table seated: a dealer that was not listening yet (or a join that came before the
        create) then hears it. The dealer takes a hello said twice as said once."""
        said = 0
        while self.seat.status is None or self.seat.seat is None \
                or self.seat.status == "waiting" and self.hello["op"] == "join":
            await client.publish(p.topic(self.seat.code, "hello", self.seat.user),
                                 p.encode(self.hello), qos=1)
            said += 1
            if said == DEALER_SILENT and self.seat.status is None and not self.seat.refusals:
                self.log("no answer from the dealer yet: is `python -m host_tools dealer` "
                         "running beside the broker? (still asking)")
            await asyncio.sleep(HELLO_AGAIN)

    async def listen(self, client):
        code = self.seat.code
        tables = [self] + self.others
        async for message in client.messages:
            words = [t.take(message) for t in tables]
            if None in words:
                continue  # refused: logged
            if any(t.seat.need_snapshot for t in tables):  # a gap: read the snapshot again
                self.log("%s: reading the snapshot again" % words[0])
                await client.unsubscribe(p.topic(code, "snapshot"))
                await client.subscribe(p.topic(code, "snapshot"), qos=1)
                continue
            if all(t.seat.over() and t.seat.current() for t in tables):
                return self.seat.report()
            for t in tables:
                await t.maybe_move(client)

    def take(self, message):
        """One message fed to this seat's Seat: its word, or None when refused (logged by
        the table's first seat)."""
        try:
            word = self.seat.feed(message.topic.value, message.payload)
        except p.Bad as bad:
            if not self.seat.index:
                self.log("refused %s on %s: %s" % (bad.code, message.topic.value, bad.text))
            return None
        if self.news is not None:
            self.news(self.seat, word)
        if word.startswith(("duplicate", "old")) and not self.seat.index:
            self.log("dropped %s" % word)
        if word.startswith("refused"):
            if not self.seat.index:
                self.log(word)
            if word.startswith("refused game-full") and self.seat.seat is None:
                # asking again will not free a seat: the run ends (exit status 2)
                raise broker.Fatal("game %s has no seat for %s: %s (a table that played in "
                                   "it joins again as the same --user)"
                                   % (self.seat.code, self.seat.user,
                                      self.seat.refusals[-1].get("reason")))
            if self.seat.refusals[-1].get("n") == self.seat.moves:
                self.asked = None  # our request in flight (or another seat's): choose again
        return word

    async def maybe_move(self, client):
        s = self.seat
        if not s.current() or self.asked == s.seq:
            return
        if self.part is None:
            self.part = hostgames.part(s.kind, "remote")
        if self.play is None:
            self.play = self.make_player(self.part, self.seat.index)
        if s.view is not None:  # the dealer states the seat's options (Halunken, Kami)
            opts = s.view.get("options") or []
        elif s.public.get("turn") != s.seat:
            return
        else:
            opts = self.part.options(s.public, s.hand, s.seat)
        refused = self.tried.setdefault(s.seq, [])
        opts = [o for o in opts if o not in refused]
        if not opts:
            return
        reveal = [o for o in opts if o[0] == "reveal" and len(o) == 2]
        secret = [o for o in opts if o[0] in ("commit", "reveal")]
        if secret and not isinstance((s.view or {}).get("context"), str):
            self.log("the dealer offers %s without its context: not sent" % " ".join(secret[0]))
            return
        if reveal:  # every commitment is in: the reveal, no decision (commit.py)
            option = reveal[0]
            action = self.secrets.reveal(s.view["context"], option[1])
            if action is None:
                refused.append(option)
                self.log("cannot reveal %s: this table holds no secret for it (its "
                         "--secrets folder was lost); the game waits" % option[1])
                return
        else:
            if s.view is not None and s.view.get("context"):
                # its own secrets, for its player alone (the board's player: H26)
                s.view["committed"] = self.secrets.cards(s.view["context"])
            option = await self.play(s, opts)
            if option is None:
                return
            action = option
            if option[0] == "commit" and len(option) == 3:  # a secret choice: committed
                action = self.secrets.commit(s.view["context"], option[1], option[2])
        refused.append(option)  # not asked again at this event if it is refused
        await self.send(client, action)

    async def send(self, client, action):
        s = self.seat
        s.moves += 1
        self.asked = s.seq
        self.asked_at = time.monotonic()
        self.pending = action
        await client.publish(p.topic(s.code, "move", s.user),
                             p.encode(p.move(s.code, s.seat, s.moves, s.seq, action)), qos=1)


def once(log):
    """`log` that says a line said just before only once (a join refused each second
    while its game does not exist yet)."""
    last = [None]

    def say(text):
        if text != last[0]:
            log(text)
        last[0] = text
    return say


def ai_player(part, seed):
    seat_ai = part.AiSeat(seed=seed)

    async def choose(seat, opts):
        if seat.view is not None:  # the observation the dealer made for the seat
            return seat_ai.choose(seat.seat, seat.public, seat.hand, seat.log, opts,
                                  view=seat.view)
        return seat_ai.choose(seat.seat, seat.public, seat.hand, seat.log, opts)
    return choose


def random_player(part, seed):
    rng = random.Random(seed)

    async def choose(seat, opts):
        return part.random_request(opts, rng)
    return choose


def terminal_player(part):
    async def choose(seat, opts):
        print(part.summary(seat.public))
        for line in part.board_lines(seat.public):
            print(line)
        print("your hand (%s): %s" % (seat.seat, " ".join(seat.hand) or "empty"))
        for i, o in enumerate(opts):
            print("  %2d %s" % (i + 1, " ".join(o)))
        while True:
            try:
                text = await asyncio.get_running_loop().run_in_executor(
                    None, input, "move number: ")
            except EOFError:
                raise broker.Fatal("the terminal closed; the game waits for this table: "
                                   "`remote join %s` goes on with it" % seat.code) from None
            if text.strip().isdigit() and 1 <= int(text) <= len(opts):
                return opts[int(text) - 1]
            print("a number from 1 to %d, please" % len(opts), flush=True)
    return choose


def narrate(seat, word):
    """The terminal player's news: each event as a line ("event 12: black place HUNA-1
    ALOA-HUNA")."""
    if word.startswith("event "):
        seq, actor, action = seat.log[-1]
        words = [a if isinstance(a, str) else " ".join(a) for a in action]
        print("event %d: %s %s" % (seq, actor or "dealer", " ".join(words)), flush=True)


def own_dealer(args, code):
    """`create --deal-here`: the dealer of this one game, run by this table (a coroutine),
    or None. Both tables trust this table's computer, which holds the deck."""
    if args.op != "create" or not args.deal_here:
        return None
    from argparse import Namespace

    from host_tools.remote import dealer, dealing
    if not args.dealer_password_file and os.environ.get(broker.PASSWORD_ENV) is None:
        raise broker.Fatal("--deal-here: this table deals as the broker user %s, whose "
                           "password is missing: give --dealer-password-file FILE"
                           % args.dealer_user)
    kw = broker.settings(Namespace(broker=args.broker, user=args.dealer_user,
                                   password_file=args.dealer_password_file,
                                   tls_ca=args.tls_ca))
    return dealer.serve(kw, dealing.Dealer(), args.patience,  # a 128-bit secret (shuffle.py)
                        broker.say("dealer"), code=code)


async def beside(dealing, run):
    """`run`'s result, with `dealing` (a coroutine or None) running beside it."""
    if dealing is None:
        return await run
    task = asyncio.create_task(dealing)
    try:
        return await run
    finally:
        task.cancel()


def main(argv, bridge=None):
    """The command (host_tools/remote/command.py gives `bridge`, the board's bridge
    module host_tools/remote/boardbridge, for --port)."""
    args = parse(argv)
    log = broker.say("remote")
    try:
        kw = broker.settings(args)
        ser = None
        if args.port is not None:  # a board plays this table's seat: its port first
            if bridge is None:
                raise broker.Fatal("--port: run python -m host_tools remote")
            ser = bridge.open_board(args.port)
        if args.op == "create":
            try:
                gamearg.check(args.game, "remote")
                code = p.check_code(args.code) if args.code else p.new_code(random.SystemRandom())
            except (hostgames.NoGame, ValueError) as e:
                raise broker.Fatal(str(e)) from None
            part = hostgames.part(args.game, "remote")
            wanted = {"variant": args.variant or "standard", "first": args.first or "white"} \
                if args.game == "kahuna" else {}
            for key in ("variant", "first", "players", "mode", "target"):
                if getattr(args, key) is not None and key not in wanted:
                    wanted[key] = getattr(args, key)  # the game's settings check them
            if args.game == "kahuna":  # (its settings check would name its internal ones)
                for key in ("players", "mode", "target"):
                    if getattr(args, key) is not None:
                        raise broker.Fatal("--%s is not a setting of kahuna (2 players; "
                                           "--variant, --first)" % key)
            try:
                settings = part.check_settings(wanted)
            except ValueError as e:
                raise broker.Fatal(str(e)) from None
            seats = part.seats_of(settings) if hasattr(part, "seats_of") else part.SEATS
            seat = args.seat or seats[0]
            if seat not in seats:
                raise broker.Fatal("--seat must be one of %s" % ", ".join(seats))
            if not 1 <= args.seats <= len(seats) or args.seats > 1 and args.game == "kahuna":
                raise broker.Fatal("--seats must be 1 to %d%s" % (
                    len(seats), " (a table of kahuna holds one seat)"
                    if args.game == "kahuna" else ""))
            also = [s for s in seats if s != seat][:args.seats - 1]
            token = None
            try:
                if args.token:
                    token = p.check_token(args.token)
                elif args.private:
                    token = p.new_token(random.SystemRandom())
            except ValueError as e:
                raise broker.Fatal(str(e)) from None
            hello = p.hello("create", seat, settings, args.game, token, also=also)
            print("game code: %s" % code, flush=True)
            if token:
                print("game token: %s (the other table joins with: remote join %s --token "
                      "%s)" % (token, code, token), flush=True)
        else:
            try:
                code = p.check_code(args.code)
                token = p.check_token(args.token) if args.token else None
            except ValueError as e:
                raise broker.Fatal(str(e)) from None
            part = None  # the snapshot names the game
            if not 1 <= args.seats <= 4:
                raise broker.Fatal("--seats must be 1 to 4")
            hello = p.hello("join", token=token, count=args.seats)
        secrets = commit.Secrets(os.path.join(os.path.expanduser(args.secrets),
                                              "%s-%s.json" % (code, args.user)))
        if args.port is not None:  # a board plays this table's seats
            if part is not None and "remoteboard" not in hostgames.provides(args.game):
                raise broker.Fatal("--port: a board plays Kahuna's, Kami's and Halunken's "
                                   "remote games only")  # a join learns the game later
            if args.op == "create" and args.seats >= len(seats):
                raise broker.Fatal("--port: a board's table leaves a seat to another table")
            report = bridge.run(ser, args, code, part, hello, kw, log,
                                lambda run: beside(own_dealer(args, code), run), secrets)
        else:
            make = {"random": random_player, "ai": ai_player}.get(
                args.player, lambda part, seed: terminal_player(part))

            def make_player(part, index=0):
                return make(part, args.seed + index)  # each seat its own random sequence
            table = Table(code, args.user, part, make_player(part) if part else None, log,
                          hello, narrate if args.player == "terminal" else None, secrets,
                          make_player, args.seats)
            report = asyncio.run(beside(own_dealer(args, code), broker.session(
                kw, "kb-%s-%s" % (code, args.user), True, args.patience, table.work, log)))
    except broker.Fatal as e:
        print("remote: %s" % e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 1
    secrets.forget()  # every card of the game was opened: nothing left to keep
    if args.port is None:  # a host table's game
        part = table.part or hostgames.part(table.seat.kind, "remote")
    elif part is None:  # a board's game joined: the game the snapshot named
        part = hostgames.part(args.kind(), "remote")
    print("game %s over: %s" % (code, part.summary(report["public"])), flush=True)
    if args.report:
        with open(args.report, "w") as f:
            json.dump(report, f, indent=1, sort_keys=True)
    return 0
