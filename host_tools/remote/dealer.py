"""`python -m host_tools dealer`: the dealer beside the broker (docs/remote.md). It holds
every remote game whole (the deck's secret order, both hands), numbers its events and tells
each table only what its seat may know. Neither table controls it. It logs every refusal
with its reason on standard error.

    python -m host_tools dealer --broker localhost:1883 --user dealer \\
        --password-file dealer.pw --state-dir ~/.kb-dealer
"""

import argparse
import asyncio
import os
import sys

from host_tools.remote import broker, dealing
from host_tools.remote import protocol as p

IDENTIFIER = "kb-dealer"


def parse(argv):
    ap = argparse.ArgumentParser(prog="dealer", description=__doc__.split("\n\n")[0])
    broker.add_options(ap)
    ap.add_argument("--state-dir", metavar="DIR",
                    help="keep the games here, so that a dealer that restarts goes on "
                         "with them (default: in memory only)")
    ap.add_argument("--require-token", action="store_true",
                    help="every game must be private: a create without a token is refused "
                         "(a broker whose users are not all trusted; docs/remote.md)")
    ap.add_argument("--seed", type=int, metavar="N",
                    help="deal every game from test deal number N, a fixed secret that "
                         "anyone can compute (tests only; default: a 128-bit secret per "
                         "game from the system's random source, kept in --state-dir)")
    return ap.parse_args(argv)


async def serve(kw, dealer, patience, log, ready=None, code=None):
    """Serve every game on the broker, or only game `code` (a table that deals its own
    game: `remote create --deal-here`, under an identifier of its own)."""
    async def work(client):
        await client.subscribe(p.topic(code or "+", "hello", "+"), qos=1)
        await client.subscribe(p.topic(code or "+", "move", "+"), qos=1)
        for topic, payload, retain in dealer.republish():
            await client.publish(topic, payload, qos=1, retain=retain)
        log("serving %d game(s)" % len(dealer.games))
        if ready is not None:
            ready()
        async for message in client.messages:
            out, lines = dealer.handle(message.topic.value, message.payload)
            for line in lines:
                log(line)
            for topic, payload, retain in out:
                await client.publish(topic, payload, qos=1, retain=retain)

    # A persistent session: requests sent while the dealer is away wait on the broker.
    await broker.session(kw, IDENTIFIER if code is None else "%s-%s" % (IDENTIFIER, code),
                         False, patience, work, log)


def main(argv):
    args = parse(argv)
    log = broker.say("dealer")
    try:
        kw = broker.settings(args)
        if args.state_dir:
            try:
                os.makedirs(args.state_dir, exist_ok=True)
            except OSError as e:
                raise broker.Fatal("cannot use --state-dir %s: %s"
                                   % (args.state_dir, e.strerror)) from None
        secret_of = None  # a new secret for each game (host_tools/remote/shuffle.py)
        if args.seed is not None:
            def secret_of(code, n=args.seed):
                return n
        try:
            dealer = dealing.Dealer(secret_of, args.state_dir, args.require_token)
        except (OSError, ValueError) as e:
            raise broker.Fatal("cannot read the games in %s: %s" % (args.state_dir, e)) \
                from None
        asyncio.run(serve(kw, dealer, args.patience, log))
    except broker.Fatal as e:
        print("dealer: %s" % e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
    return 0
