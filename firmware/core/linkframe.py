"""The link's transport: JSON lines over any byte stream (today the USB serial port).

`Lines` takes bytes as they arrive and hands every complete line to `line(raw)`; a line
longer than MAX_LINE is dropped whole and `overflow()` is called instead. `read_waiting`
is the serial task's read on the rp2 port. The protocol (core/link.py) knows nothing of
bytes, and the framing nothing of commands.
"""

MAX_LINE = 1024  # bytes; a longer line is refused whole
READ_MAX = 2 * MAX_LINE  # bytes read in one go, so a flood cannot hold the other tasks
READ_CHUNK = 128  # bytes taken off the stream between two feeds: the buffer kept for it


class Lines:
    def __init__(self, line, overflow):
        self.line = line
        self.overflow = overflow
        self.buf = bytearray()
        self.too_long = False
        self.readbuf = bytearray(READ_CHUNK)

    def feed(self, data):
        """Bytes as they arrive; every complete line is handed on."""
        for b in data:
            if b == 10:  # \n
                if self.too_long:
                    self.overflow()
                else:
                    self.line(bytes(self.buf))
                self.buf = bytearray()
                self.too_long = False
            elif self.too_long:
                continue
            elif len(self.buf) >= MAX_LINE:
                self.too_long = True
            elif b != 13:  # \r
                self.buf.append(b)

    def read_waiting(self, stream, poller):
        """Every byte waiting on `stream`, without blocking (see `read_waiting`)."""
        return read_waiting(stream, poller, self.feed, self.readbuf)


def read_waiting(stream, poller, feed, buf, most=READ_MAX):
    """Feed every byte waiting on `stream` (at most `most`) without blocking, len(buf) at
    a time (so the buffer kept for it is small, not the size of a flood); returns how
    many. MicroPython's USB stdin on the rp2 port blocks in read(n) until n bytes came and
    cannot say how many wait, so the bytes are taken one at a time while `poller` (a
    select.poll with `stream` registered for POLLIN) says one is there."""
    one = bytearray(1)
    n = 0
    total = 0
    size = len(buf)
    ready = getattr(poller, "ipoll", None) or poller.poll  # MicroPython's makes no list
    while total < most:
        for _ in ready(0):
            break
        else:
            break
        if not stream.readinto(one):
            break
        buf[n] = one[0]
        n += 1
        total += 1
        if n == size:
            feed(buf)
            n = 0
    if n:
        feed(memoryview(buf)[:n])
    return total
