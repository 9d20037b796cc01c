"""The Pico W's part of `make flash`: the MQTT client fetched from PyPI by pinned version
and hash (host_tools/maker/mqttlib.py), the build of a board whose definition says
`"hardware": {"network": "wifi"}` (the network driver and /lib/mqtt_async.mpy, nothing of
it for a plain Pico), and the Wi-Fi and broker settings (`--net FILE`) checked before
anything is sent, never shown."""

import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys

import pytest
from test_flash import expected_files

from host_tools.maker import flash, mqttlib
from mpy_runner import ROOT

FIRMWARE = os.path.join(ROOT, "firmware")
KAHUNA = os.path.join(ROOT, "board_def", "kahuna.json")
SECRET = "s3cret-Wifi-pw"
BROKER_SECRET = "s3cret-broker-pw"


def pico_w_def(tmp_path, network="wifi"):
    with open(KAHUNA) as f:
        raw = json.load(f)
    raw["hardware"]["network"] = network
    path = tmp_path / ("board-%s.json" % network)
    path.write_text(json.dumps(raw))
    return str(path)


def net_file(tmp_path, **change):
    conf = {"ssid": "home", "wifi_password": SECRET, "host": "192.168.1.20", "port": 1883,
            "user": "alice", "password": BROKER_SECRET}
    conf.update(change)
    conf = {k: v for k, v in conf.items() if v is not None}
    path = tmp_path / "net.json"
    path.write_text(json.dumps(conf))
    return str(path)


# ------------------------------------------------------------------ the client from PyPI

def test_the_pinned_archive_is_fetched_checked_and_read_from_the_cache(tmp_path):
    """From PyPI once (the repository's cache, as `make flash` uses it), then offline: a
    cache holding the checked archive needs no network at all."""
    data = mqttlib.archive()  # the project's cache, filled from PyPI the first time
    assert hashlib.sha256(data).hexdigest() == mqttlib.SHA256
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / mqttlib.ARCHIVE).write_bytes(data)
    path = mqttlib.module(str(cache), url="file:///nonexistent/offline.tar.gz")
    assert path == str(cache / ("%s-%s" % (mqttlib.PACKAGE, mqttlib.VERSION)) / "mqtt_async.py")
    source = open(path).read()
    assert "VERSION = (0, 7, 4)" in source and "class MQTTClient" in source


def test_a_download_with_another_hash_is_refused_and_nothing_is_cached(tmp_path):
    forged = tmp_path / "forged.tar.gz"
    forged.write_bytes(b"not the archive PyPI published")
    cache = tmp_path / "cache"
    with pytest.raises(mqttlib.FetchError) as info:
        mqttlib.module(str(cache), url=forged.as_uri())
    line = str(info.value)
    assert "\n" not in line and "not the pinned %s: refused" % mqttlib.SHA256 in line
    assert not cache.exists() or not os.listdir(cache)


def test_a_damaged_cache_is_fetched_again(tmp_path):
    good = tmp_path / "good.tar.gz"
    good.write_bytes(mqttlib.archive())
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / mqttlib.ARCHIVE).write_bytes(b"torn")
    mqttlib.module(str(cache), url=good.as_uri())
    assert hashlib.sha256((cache / mqttlib.ARCHIVE).read_bytes()).hexdigest() == mqttlib.SHA256


def test_no_network_and_no_cache_is_one_clear_line(tmp_path):
    with pytest.raises(mqttlib.FetchError) as info:
        mqttlib.module(str(tmp_path / "empty"), url="file:///nonexistent/archive.tar.gz")
    line = str(info.value)
    assert "\n" not in line
    assert line.startswith("cannot fetch micropython-mqtt 0.7b4 from PyPI")
    assert "connect to the internet once" in line


# ------------------------------------------------------------------ the build

def test_a_plain_picos_build_is_unchanged_and_a_pico_ws_adds_the_client(tmp_path):
    """A plain Pico's build (every shipped board definition) holds no network code: its
    .mpy set is the firmware's minus the network driver, as before the Pico W existed; a
    Pico W's is the same files, byte for byte, plus hw/net.mpy, its seat (core/netseat.mpy,
    core/remoteproto.mpy, core/codeentry.mpy, core/codeshow.mpy, core/netplay.mpy) and
    /lib/mqtt_async.mpy."""
    plain = dict(flash.build(FIRMWARE, KAHUNA, out=str(tmp_path / "plain")))
    assert sorted(plain) == expected_files(FIRMWARE)
    assert "hw/net.mpy" not in plain and not [r for r in plain if r.startswith("lib/")]
    wifi = dict(flash.build(FIRMWARE, pico_w_def(tmp_path), out=str(tmp_path / "w")))
    assert sorted(wifi) == expected_files(FIRMWARE, network="wifi")
    assert set(wifi) - set(plain) == {"hw/net.mpy", "core/netseat.mpy", "core/remoteproto.mpy",
                                      "core/codeentry.mpy", "core/codeshow.mpy",
                                      "core/netplay.mpy",
                                      "lib/mqtt_async.mpy"}
    for rel in plain:
        if rel.endswith(".mpy"):
            assert open(plain[rel], "rb").read() == open(wifi[rel], "rb").read(), rel
    client = open(wifi["lib/mqtt_async.mpy"], "rb").read()
    assert client[:2] == b"M\x06"  # .mpy version 6, what MicroPython 1.19 on loads
    # "network": "none" says it outright: the plain build again.
    none = dict(flash.build(FIRMWARE, pico_w_def(tmp_path, "none"), out=str(tmp_path / "n")))
    assert sorted(none) == sorted(plain)


NETWORK_MODULES = {"mqtt_async", "network", "hw.net"}


def imported(path):
    """Every module a source file imports, anywhere in it (`from hw import net`: hw.net)."""
    names = set()
    for node in ast.walk(ast.parse(open(path).read(), path)):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(node.module + "." + a.name for a in node.names)
    return names


def test_no_firmware_module_but_the_driver_imports_the_network():
    """Only hw/net.py names mqtt_async or network, and only main.py imports the driver (on a
    Pico W set up for remote play, for its own seat, core.netseat): the rest of the
    firmware runs on a plain Pico, whose build leaves the driver and the seat out."""
    found = []
    for folder, dirs, files in os.walk(FIRMWARE):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                if NETWORK_MODULES & imported(path):
                    found.append(os.path.relpath(path, FIRMWARE))
    assert sorted(found) == ["hw/net.py", "main.py"]


def test_a_pico_w_build_without_the_client_stops_in_one_line(tmp_path, monkeypatch):
    def offline(*a, **kw):
        raise mqttlib.FetchError("cannot fetch micropython-mqtt 0.7b4 from PyPI (offline)")

    monkeypatch.setattr(mqttlib, "module", offline)
    with pytest.raises(flash.FlashError, match=r"^the Pico W's MQTT client: cannot fetch"):
        flash.build(FIRMWARE, pico_w_def(tmp_path), out=str(tmp_path / "b"))
    flash.build(FIRMWARE, KAHUNA, out=str(tmp_path / "plain"))  # a plain Pico needs none


def test_an_unknown_network_is_refused_by_the_build(tmp_path):
    with pytest.raises(flash.FlashError, match=r"hardware.network must be one of none, wifi, "
                                               r"got 'lte'"):
        flash.build(FIRMWARE, pico_w_def(tmp_path, "lte"), out=str(tmp_path / "b"))


# ------------------------------------------------------------------ the settings

def test_the_settings_are_checked_and_given_with_the_port_filled_in(tmp_path):
    blob = flash.net_settings(net_file(tmp_path, port=None), pico_w_def(tmp_path))
    assert json.loads(blob) == {"ssid": "home", "wifi_password": SECRET,
                                "host": "192.168.1.20", "port": 1883, "user": "alice",
                                "password": BROKER_SECRET}


@pytest.mark.parametrize("change,words", [
    ({"user": None}, "user: required field missing"),
    ({"port": 70000}, "port: must be an integer 1..65535, got 70000"),
    ({"port": "1883"}, "port: must be an integer 1..65535"),
    ({"password": 1234}, "password: must be a non-empty string, got a secret"),
    ({"password": ""}, "password: must be a non-empty string, got a secret"),
    ({"wifi_password": ["x"]}, "wifi_password: must be a non-empty string, got a secret"),
    ({"tls": True}, "tls: unknown field (expected one of ssid, wifi_password, host, port"),
])
def test_broken_settings_are_one_line_naming_the_field(tmp_path, change, words):
    with pytest.raises(flash.FlashError) as info:
        flash.net_settings(net_file(tmp_path, **change), pico_w_def(tmp_path))
    line = str(info.value)
    assert "\n" not in line and line.startswith("--net: ") and words in line
    assert SECRET not in line and BROKER_SECRET not in line


def test_settings_for_a_plain_pico_or_unreadable_are_refused(tmp_path):
    with pytest.raises(flash.FlashError, match=r"is not a Pico W's"):
        flash.net_settings(net_file(tmp_path), KAHUNA)
    bad = tmp_path / "bad.json"
    bad.write_text('{"ssid": ')
    with pytest.raises(flash.FlashError, match=r"is not valid JSON$"):
        flash.net_settings(str(bad), pico_w_def(tmp_path))
    with pytest.raises(flash.FlashError, match=r"cannot read"):
        flash.net_settings(str(tmp_path / "none.json"), pico_w_def(tmp_path))


def test_the_command_refuses_bad_settings_before_touching_a_board(tmp_path):
    """`make flash NET=...` with a broken file: one line, exit 1, no board contacted (the
    port named does not exist), and neither password on the screen."""
    path = net_file(tmp_path, port=0)
    proc = subprocess.run([sys.executable, "-m", "host_tools", "flash", "--port",
                           str(tmp_path / "no-such-port"), "--board-def", pico_w_def(tmp_path),
                           "--net", path, "--build-dir", str(tmp_path / "b")],
                          capture_output=True, text=True, timeout=120, cwd=ROOT,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [
        "flash: --net: %s: port: must be an integer 1..65535, got 0" % path]
    assert SECRET not in proc.stdout + proc.stderr


def test_the_makefile_passes_net_to_the_flash():
    make = shutil.which("make")
    out = subprocess.run([make, "-n", "flash", "NET=/tmp/x.json", "PORT=/dev/null"],
                         capture_output=True, text=True, cwd=ROOT, timeout=60).stdout
    assert "--net /tmp/x.json" in out
