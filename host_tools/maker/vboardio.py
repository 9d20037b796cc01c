"""The virtual board launcher's descriptors: the line discipline of the board's own
pseudo-terminal, the board process's controlling terminal, non-blocking descriptors, and a
peer on a Unix socket carrying one JSON object per line (the control channel's clients,
the board's own link)."""

import fcntl
import json
import os
import termios
import tty


def set_device_termios(fd):
    """Raw, except that \\n goes out as \\r\\n; Ctrl-C is the only signal character, for
    when the supervisor turns ISIG on (while user code runs: it starts off, so a Ctrl-C
    during the board's own start-up is just a byte)."""
    tty.setraw(fd)
    a = termios.tcgetattr(fd)
    a[1] |= termios.OPOST | termios.ONLCR
    cc = a[6]
    cc[termios.VINTR] = b"\x03"
    cc[termios.VQUIT] = b"\x00"  # _POSIX_VDISABLE: 0x1C must not be SIGQUIT
    cc[termios.VSUSP] = b"\x00"  # nor 0x1A SIGTSTP
    termios.tcsetattr(fd, termios.TCSANOW, a)


def isig_off(fd):
    """Ctrl-C a data byte again (the supervisor's state between two runs of code), the
    input waiting in the terminal kept."""
    a = termios.tcgetattr(fd)
    a[3] &= ~termios.ISIG
    termios.tcsetattr(fd, termios.TCSANOW, a)


def make_ctty():
    # In the child: a session of its own, with pty B (already its stdin) as controlling
    # terminal, so the line discipline's SIGINT reaches it.
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def nonblock(fd):
    fl = fcntl.fcntl(fd, fcntl.F_GETFL)
    fcntl.fcntl(fd, fcntl.F_SETFL, fl | os.O_NONBLOCK)


class Conn:
    """A peer on a Unix socket: JSON lines each way, never blocking on receive."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = b""
        sock.setblocking(False)

    def fileno(self):
        return self.sock.fileno()

    def lines(self):
        """Complete lines received, or None when the peer has closed."""
        try:
            data = self.sock.recv(65536)
        except BlockingIOError:
            return []
        except OSError:
            return None
        if not data:
            return None
        self.buf += data
        *lines, self.buf = self.buf.split(b"\n")
        return [ln for ln in lines if ln.strip()]

    def send(self, obj):
        data = json.dumps(obj).encode() + b"\n"
        self.sock.setblocking(True)
        try:
            self.sock.sendall(data)
        except OSError:
            pass
        finally:
            self.sock.setblocking(False)

    def close(self):
        self.sock.close()
