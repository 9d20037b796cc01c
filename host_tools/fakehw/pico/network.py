"""`network` on the virtual board as a Pico W: the rp2 port's WLAN API (station only), whose
"radio" is the host's own network. `connect()` joins at once; the unix port's real `socket`
then does the rest (the MQTT driver reaches a broker on loopback). The unix port has no
`network` module; this file stands in for the Pico W's.

Emulated: WLAN(STA_IF).active, connect, disconnect, isconnected, status, ifconfig, config
("mac", "ssid"), and the rp2 port's STAT_* values. A test may name the one access point
that exists with VBOARD_WIFI="SSID:PASSWORD" (a wrong password then gives
STAT_WRONG_PASSWORD, an unknown SSID STAT_NO_AP_FOUND, as a Pico W's CYW43 reports them);
without it any SSID joins. The access point (AP_IF) is not emulated.
"""

import os

STA_IF = 0
AP_IF = 1
# The rp2 port's values (CYW43_LINK_*).
STAT_IDLE = 0
STAT_CONNECTING = 1
STAT_NO_IP = 2
STAT_GOT_IP = 3
STAT_CONNECT_FAIL = -1
STAT_NO_AP_FOUND = -2
STAT_WRONG_PASSWORD = -3

_IP = ("127.0.0.1", "255.0.0.0", "127.0.0.1", "127.0.0.1")


def _access_point():
    spec = os.getenv("VBOARD_WIFI")
    if not spec:
        return None
    ssid, _, key = spec.partition(":")
    return ssid, key


class WLAN:
    def __init__(self, interface=STA_IF):
        if interface != STA_IF:
            raise ValueError("the virtual Pico W emulates the station interface only")
        self._active = False
        self._status = STAT_IDLE
        self._ssid = None

    def active(self, value=None):
        if value is None:
            return self._active
        self._active = bool(value)
        if not self._active:
            self._status = STAT_IDLE

    def connect(self, ssid=None, key=None, **kw):
        if not self._active:
            raise OSError("the WLAN interface is not active")
        ap = _access_point()
        if ap is not None and ssid != ap[0]:
            self._status = STAT_NO_AP_FOUND
        elif ap is not None and (key or "") != ap[1]:
            self._status = STAT_WRONG_PASSWORD
        else:
            self._status = STAT_GOT_IP
            self._ssid = ssid

    def disconnect(self):
        self._status = STAT_IDLE

    def isconnected(self):
        return self._status == STAT_GOT_IP

    def status(self, param=None):
        if param == "rssi":
            return -50
        return self._status

    def ifconfig(self, config=None):
        return _IP

    def config(self, name=None, **kw):
        if name == "mac":
            return b"\x28\xcd\xc1\x00\x00\x01"
        if name == "ssid":
            return self._ssid
        return None
