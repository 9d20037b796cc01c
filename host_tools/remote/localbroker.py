"""A private Mosquitto broker on loopback, for the remote play tests and the load
benchmark (host_tools/measure/remoteload.py): started on a free port with a generated
configuration, password file and ACL (the one docs/remote.md gives), and stopped by its
user. Debian's `mosquitto` is a system package (`make sysdeps` checks it); without it the
tests fail, never skip.

The users: `dealer` (every game's topics), the tables in TABLES, and `spy`, a test-only
user that reads every topic (the privacy test listens with it). `websockets=True` adds a
listener for browsers (MQTT over websockets, `ws_url`) with the same users and ACL."""

import getpass
import os
import shutil
import socket
import subprocess
import time

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
TABLES = ("alice", "bob", "carol", "dave")

# The ACL of docs/remote.md, and the test's spy.
ACL = """\
user dealer
topic readwrite kb/#

user spy
topic read #

pattern write kb/+/hello/%u
pattern write kb/+/move/%u
pattern read kb/+/event
pattern read kb/+/snapshot
pattern read kb/+/hand/%u
pattern read kb/+/reply/%u
"""


class BrokerError(RuntimeError):
    pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Broker:
    def __init__(self, root, tls=False, websockets=False):
        if not os.path.exists(MOSQUITTO) or not os.path.exists(MOSQUITTO_PASSWD):
            raise BrokerError("Debian's mosquitto is needed: apt-get install mosquitto "
                              "(make sysdeps says so)")
        self.root = str(root)
        os.makedirs(self.root, exist_ok=True)
        self.port = free_port()
        self.passwords = {u: "pw-%s-%d" % (u, i) for i, u in
                          enumerate(("dealer", "spy") + TABLES)}
        pwfile = os.path.join(self.root, "passwords")
        open(pwfile, "w").close()
        for user, pw in self.passwords.items():
            subprocess.run([MOSQUITTO_PASSWD, "-b", pwfile, user, pw], check=True,
                           capture_output=True, timeout=30)
            with open(os.path.join(self.root, user + ".pw"), "w") as f:
                f.write(pw + "\n")
        with open(os.path.join(self.root, "acl"), "w") as f:
            f.write(ACL)
        os.makedirs(os.path.join(self.root, "data"), exist_ok=True)
        self.tls_port = None
        tls_conf = ""
        if tls:  # a second listener with TLS, its certificate made here (self-signed)
            self.tls_port = free_port()
            self.cert = os.path.join(self.root, "cert.pem")
            key = os.path.join(self.root, "key.pem")
            subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                            "-days", "2", "-subj", "/CN=localhost", "-addext",
                            "subjectAltName=IP:127.0.0.1,DNS:localhost", "-keyout", key,
                            "-out", self.cert], check=True, capture_output=True, timeout=60)
            tls_conf = ("listener %d 127.0.0.1\ncertfile %s\nkeyfile %s\n"
                        % (self.tls_port, self.cert, key))
        self.ws_port = None
        if websockets:  # the page's (web/js/remote.js); the same users and ACL
            self.ws_port = free_port()
            tls_conf += "listener %d 127.0.0.1\nprotocol websockets\n" % self.ws_port
        self.conf = os.path.join(self.root, "mosquitto.conf")
        with open(self.conf, "w") as f:
            # As root, mosquitto would drop to the user `mosquitto`, who cannot write here.
            f.write("user %s\n" % getpass.getuser()
                    + "listener %d 127.0.0.1\n" % self.port
                    + "set_tcp_nodelay true\n"
                    + "allow_anonymous false\n"
                    + "password_file %s\n" % pwfile
                    + "acl_file %s\n" % os.path.join(self.root, "acl")
                    + "persistence true\n"
                    + "persistence_location %s/\n" % os.path.join(self.root, "data")
                    + "log_dest file %s\n" % os.path.join(self.root, "mosquitto.log")
                    + "log_type error\nlog_type warning\nlog_type notice\n"
                    + tls_conf)
        self.proc = None
        self.start()

    def pwfile(self, user):
        return os.path.join(self.root, user + ".pw")

    def args(self, user):
        """The command line's broker options for `user`."""
        return ["--broker", "127.0.0.1:%d" % self.port, "--user", user,
                "--password-file", self.pwfile(user), "--patience", "30"]

    @property
    def ws_url(self):
        """The websockets listener's address, for a browser's MQTT client."""
        return "ws://127.0.0.1:%d" % self.ws_port

    def start(self):
        self.proc = subprocess.Popen([MOSQUITTO, "-c", self.conf], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.monotonic() + 10
        for port in (self.port, self.ws_port):
            while port is not None:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if self.proc.poll() is not None or time.monotonic() > end:
                        raise BrokerError("mosquitto did not start on port %d: %s" % (
                            port, self.log())) from None
                    time.sleep(0.05)

    def stop(self):
        """A clean stop (SIGTERM): the broker saves its retained messages and sessions."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc = None

    def restart(self):
        self.stop()
        self.start()

    def log(self):
        try:
            with open(os.path.join(self.root, "mosquitto.log")) as f:
                return f.read()[-2000:]
        except OSError:
            return "(no log)"
