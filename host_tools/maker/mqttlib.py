"""The Pico W's MQTT client: `mqtt_async.py` of the PyPI package `micropython-mqtt`
(Thorsten von Eicken's asyncio client derived from Peter Hinch's mqtt_as, MIT licence),
fetched from PyPI at a pinned version and checked against its pinned SHA-256, never copied
into the repository by hand and never our own MQTT code.

The package is an sdist without setup.py (pip cannot install it): the archive is fetched
once into the cache folder (`.cache/pypi/` in the repository, or $KB_PYPI_CACHE), checked,
and the one module read out of it into the same folder. Later builds use the cache and need
no network. `make flash` compiles the module with mpy-cross for a board whose definition
says it is a Pico W (host_tools/maker/flash.py); the tests run it in the MicroPython unix
port from the cache folder.

    path = mqttlib.module()        # the checked mqtt_async.py, fetched if need be
"""

import hashlib
import io
import os
import tarfile
import urllib.error
import urllib.request

from host_tools.mpy import ROOT

PACKAGE = "micropython-mqtt"
VERSION = "0.7b4"
ARCHIVE = "%s-%s.tar.gz" % (PACKAGE, VERSION)
URL = ("https://files.pythonhosted.org/packages/a6/89/3beefb25462bf4af2d579e407f5aba37b4865"
       "017145ff0704303f597414a/" + ARCHIVE)
# The archive's SHA-256 as PyPI publishes it (https://pypi.org/simple/micropython-mqtt/).
SHA256 = "254a0af13d37cb92372538b6ded44c5f26e2e77c0d8b9b4e2d73c4f26f43e042"
MEMBER = "%s-%s/mqtt_async.py" % (PACKAGE, VERSION)
MODULE = "mqtt_async"  # its name on the board: /lib/mqtt_async.mpy
CACHE = os.environ.get("KB_PYPI_CACHE") or os.path.join(ROOT, ".cache", "pypi")
TIMEOUT = 30  # seconds for the download


class FetchError(Exception):
    """The client cannot be had: one line saying why and what to do."""


def _sha256(data):
    return hashlib.sha256(data).hexdigest()


def _download(url, timeout):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.read()
    except (urllib.error.URLError, OSError, ValueError) as e:
        reason = getattr(e, "reason", None) or e
        raise FetchError("cannot fetch %s %s from PyPI (%s: %s); connect to the internet "
                         "once, or put %s in %s" % (PACKAGE, VERSION, url, reason, ARCHIVE,
                                                    CACHE)) from None


def archive(cache=CACHE, url=URL, sha256=SHA256, timeout=TIMEOUT):
    """The checked archive's bytes: from the cache, else downloaded (and then cached)."""
    path = os.path.join(cache, ARCHIVE)
    if os.path.isfile(path):
        with open(path, "rb") as f:
            data = f.read()
        if _sha256(data) == sha256:
            return data
        os.remove(path)  # damaged or replaced: fetched again below
    data = _download(url, timeout)
    got = _sha256(data)
    if got != sha256:
        raise FetchError("%s from %s has SHA-256 %s, not the pinned %s: refused (nothing "
                         "cached)" % (ARCHIVE, url, got, sha256))
    os.makedirs(cache, exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    return data


def module(cache=CACHE, url=URL, sha256=SHA256, timeout=TIMEOUT):
    """The path of mqtt_async.py, read out of the checked archive into `cache`."""
    folder = os.path.join(cache, "%s-%s" % (PACKAGE, VERSION))
    out = os.path.join(folder, MODULE + ".py")
    data = archive(cache, url, sha256, timeout)
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
            member = tar.extractfile(MEMBER)
            source = member.read() if member is not None else None
    except (tarfile.TarError, KeyError, OSError) as e:
        raise FetchError("%s holds no %s (%s)" % (ARCHIVE, MEMBER, e)) from None
    if source is None:
        raise FetchError("%s holds no file %s" % (ARCHIVE, MEMBER))
    if os.path.isfile(out):
        with open(out, "rb") as f:
            if f.read() == source:
                return out
    os.makedirs(folder, exist_ok=True)
    with open(out + ".tmp", "wb") as f:
        f.write(source)
    os.replace(out + ".tmp", out)
    return out
