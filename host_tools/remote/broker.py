"""The broker's connection options that the dealer and the tables share (--broker, --user,
--password-file, --tls-ca), and the connection itself, through aiomqtt: one client,
made again after a lost connection (a broker restart) until `patience` seconds pass
without one."""

import asyncio
import logging
import os
import socket
import ssl
import sys
import time

PASSWORD_ENV = "KB_MQTT_PASSWORD"


# paho-mqtt's own warnings ("failed to receive on socket ...") would reach standard error
# through logging's last resort; the session says what happened itself.
QUIET = logging.getLogger("host_tools.remote.mqtt")
QUIET.addHandler(logging.NullHandler())
QUIET.propagate = False


SAY_AGAIN_S = 5.0  # a broker still missing is said again after this many seconds


class Fatal(Exception):
    """The run cannot go on; its text is the one line to say (exit status 2)."""


def add_options(ap):
    ap.add_argument("--broker", default="localhost:1883", metavar="HOST[:PORT]",
                    help="the MQTT broker (default localhost:1883; 8883 is usual with TLS)")
    ap.add_argument("--user", required=True, help="the broker user this side is")
    ap.add_argument("--password-file", metavar="FILE",
                    help="a file whose first line is the user's password (else the "
                         "environment variable %s)" % PASSWORD_ENV)
    ap.add_argument("--tls-ca", metavar="FILE",
                    help="TLS: the certificate authority the broker's certificate is "
                         "checked against (a broker on the internet)")
    ap.add_argument("--patience", type=float, default=60.0, metavar="S",
                    help="seconds to keep trying to reach a broker that went away "
                         "(default 60)")


def settings(args):
    """The connection's keyword arguments for aiomqtt.Client, or Fatal."""
    host, _, port = args.broker.rpartition(":") if ":" in args.broker else (args.broker, "", "")
    try:
        port = int(port) if port else 1883
    except ValueError:
        raise Fatal("--broker %r: the port must be a number" % args.broker) from None
    if args.password_file:
        try:
            with open(args.password_file) as f:
                password = f.readline().rstrip("\n")
        except OSError as e:
            raise Fatal("cannot read --password-file %s: %s"
                        % (args.password_file, e.strerror)) from None
    else:
        password = os.environ.get(PASSWORD_ENV)
        if password is None:
            raise Fatal("no password: give --password-file FILE or set %s" % PASSWORD_ENV)
    kw = {"hostname": host or "localhost", "port": port, "username": args.user,
          "password": password}
    if args.tls_ca:
        import aiomqtt
        if not os.path.isfile(args.tls_ca):
            raise Fatal("--tls-ca %s: no such file" % args.tls_ca)
        kw["tls_params"] = aiomqtt.TLSParameters(ca_certs=args.tls_ca,
                                                 cert_reqs=ssl.CERT_REQUIRED)
    return kw


async def session(kw, identifier, clean, patience, work, log):
    """Run `work(client)` on a connected aiomqtt client; when the connection drops, connect
    again and run it anew, until it returns (its result is returned). Fatal once no
    connection could be made for `patience` seconds, or the broker refuses the user."""
    import aiomqtt

    since = said = None  # when the connection was first missed, and last said so
    while True:
        try:
            async with aiomqtt.Client(identifier=identifier, clean_session=clean,
                                      keepalive=10, logger=QUIET, **kw) as client:
                since = said = None
                nodelay(client)
                return await work(client)
        except aiomqtt.MqttCodeError as e:
            if "authori" in str(e).lower() or "password" in str(e).lower():
                raise Fatal("the broker refused user %s: %s" % (kw["username"], e)) from None
            failure = e
        except aiomqtt.MqttError as e:
            if "CERTIFICATE_VERIFY_FAILED" in str(e):  # trying again will not mend it
                raise Fatal("the broker's certificate is not trusted (--tls-ca): %s" % e) \
                    from None
            failure = e
        now = time.monotonic()
        since = since or now
        if now - since > patience:
            raise Fatal("no broker at %s:%s for %g s: %s"
                        % (kw["hostname"], kw["port"], patience, failure))
        if said is None or now - said >= SAY_AGAIN_S:  # tried 5 times a second, said less
            log("no connection to the broker (%s): trying again%s"
                % (failure, "" if said is None else " (for %.0f s)" % (now - since)))
            said = now
        await asyncio.sleep(0.2)


def nodelay(client):
    """Small messages go out at once (no Nagle wait for the last one's ACK): a move is a
    chain of small messages, each waiting for the one before. paho-mqtt does not set it."""
    sock = client._client.socket()  # aiomqtt's paho client: its one socket
    if sock is not None:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def say(prog):
    """A log function: one line on standard error, prefixed with the program's name."""
    def log(text):
        print("%s: %s" % (prog, text), file=sys.stderr, flush=True)
    return log
