"""`socket` on the virtual board: the unix port's own sockets (real ones: a virtual Pico W
reaches a broker on loopback through them), with the one difference a Pico W's code meets
made good. The rp2 port's `getaddrinfo` (lwIP) gives an address as ("1.2.3.4", port),
which code indexes (mqtt_async: `addr[0], addr[1]`); the unix port's gives the raw
sockaddr bytes, which its `connect` takes. The address given here is both: the raw bytes,
whose items 0 and 1 are the IP and the port."""

import usocket as _real
from usocket import *  # noqa: F403  (the unix port's sockets, constants and functions)


class _Address(bytearray):
    """A raw sockaddr (what the unix port's connect takes) that indexes like lwIP's."""

    def __getitem__(self, i):
        if i == 0:
            return self.ip
        if i == 1:
            return self.port
        return bytearray.__getitem__(self, i)


def getaddrinfo(host, port, *args):
    out = []
    for ai in _real.getaddrinfo(host, port, *args):
        raw = ai[-1]
        addr = _Address(raw)
        if ai[0] == _real.AF_INET:
            addr.ip = "%d.%d.%d.%d" % (raw[4], raw[5], raw[6], raw[7])
        else:
            addr.ip = host
        addr.port = (raw[2] << 8) | raw[3]
        out.append(ai[:-1] + (addr,))
    return out
