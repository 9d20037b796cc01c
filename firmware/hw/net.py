"""The Pico W's network: Wi-Fi (MicroPython's `network.WLAN`) and an MQTT connection
through `mqtt_async` (PyPI `micropython-mqtt` 0.7b4, which `make flash` installs as
/lib/mqtt_async.mpy on a Pico W only). No MQTT code of ours: this driver joins the Wi-Fi,
makes the first connection (the library keeps it from then on, reconnecting after a drop),
subscribes again at each connection, publishes with QoS 1 and hands each message received
to a callback. What the messages mean is not its business.

Only a board whose definition says `"hardware": {"network": "wifi"}` and that holds
/net.json (core.files.NET_FILE, written by `make flash NET=...`) loads this module; a
plain Pico's build does not even hold it (host_tools/maker/flash.py).

    net = start(NET_FILE, on_message, say)    # on_message(topic str, payload bytes, retained)
    asyncio.create_task(net.run())            # never raises: retries until connected
    await net.subscribe("kb/K7QXM2/event")
    await net.publish("kb/K7QXM2/move/alice", b"{...}")

`say(line)` gets one line per change of state (connected, lost, refused, unreachable),
never a password and never a message's payload. The board keeps playing at its own table
whatever the network does: nothing here blocks but the caller's own awaits.

The settings, /net.json (no field but these; the passwords are never said back):
    {"ssid": "...", "wifi_password": "...", "host": "192.168.1.20", "port": 1883,
     "user": "alice", "password": "..."}
"""

import asyncio
import json

FIELDS = ("ssid", "wifi_password", "host", "port", "user", "password")
SECRET = ("wifi_password", "password")
DEFAULT_PORT = 1883
WIFI_S = 20  # seconds a Wi-Fi join may take (DHCP included)
CONNECT_S = 15  # seconds for the broker's answer to a connection
RETRY_MAX_S = 30  # the wait between two failed first connections doubles up to this
ECONNREFUSED = 111
# The rp2 port's WLAN.status() for a failed join (CYW43_LINK_*).
WIFI_FAILED = {-3: "wrong Wi-Fi password", -2: "no access point with that SSID",
               -1: "the Wi-Fi join failed"}


class NetError(ValueError):
    """A broken /net.json: one line naming the field (never a password's value)."""


def parse(data, where="net.json"):
    """The checked settings (a new dict, the port filled in); NetError if wrong."""
    if not isinstance(data, dict):
        raise NetError("%s: must be a JSON object" % where)
    for key in sorted(data):
        if key not in FIELDS:
            raise NetError("%s: %s: unknown field (expected one of %s)"
                           % (where, key, ", ".join(FIELDS)))
    out = {}
    for key in FIELDS:
        if key == "port":
            port = data.get("port", DEFAULT_PORT)
            if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
                raise NetError("%s: port: must be an integer 1..65535, got %r" % (where, port))
            out[key] = port
            continue
        if key not in data:
            raise NetError("%s: %s: required field missing" % (where, key))
        v = data[key]
        if not isinstance(v, str) or (not v and key != "wifi_password"):
            shown = "a secret" if key in SECRET else repr(v)
            raise NetError("%s: %s: must be a non-empty string, got %s" % (where, key, shown))
        out[key] = v
    return out


def load(path):
    """The settings in the file `path`; NetError in one line if missing or broken."""
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError:
        raise NetError("%s: cannot be read: remote play is not set up (make flash NET=...)"
                       % path) from None
    except ValueError:
        raise NetError("%s: not valid JSON" % path) from None
    return parse(data, path)


class _Log:
    """mqtt_async's logger: its info and debug lines are dropped (the serial link is the
    board's protocol, not a console), its warnings go to `say` once each in a row. 0.7b4
    passes arguments some of its messages have no place for ('error in MQTT reconnect.',
    e), which its own stand-in logger would raise on, ending its reconnecting task."""

    def __init__(self, say):
        self.say = say
        self.last = None

    def debug(self, msg, *args):
        pass

    info = debug

    def warning(self, msg, *args):
        try:
            text = msg % args
        except TypeError:
            text = msg
        if text != self.last:
            self.last = text
            self.say("net: mqtt: " + text)


class Net:
    """`mqtt`: the mqtt_async module; `wlan`: the station interface (network.WLAN);
    `conf`: parse()'s settings; `client_id`: this board's MQTT client id (its session on
    the broker, kept across a reconnection and a power cut: clean session off)."""

    def __init__(self, mqtt, wlan, conf, client_id, on_message, say=None):
        self.mqtt = mqtt
        self.wlan = wlan
        self.conf = conf
        self.on_message = on_message
        self.say = say or (lambda line: None)
        self.topics = []  # subscribed again at every connection
        self.connected = False
        self.problem = None  # the last failure said, or None
        mqtt.log = _Log(self.say)
        c = mqtt.MQTTConfig()
        c.client_id = client_id
        c.server = conf["host"]
        c.port = conf["port"]
        c.user = conf["user"]
        c.password = conf["password"]
        c.ssid = conf["ssid"]
        c.wifi_pw = conf["wifi_password"]
        c.interface = wlan
        c.clean = False  # the broker keeps what comes for this board while it is away
        c.subs_cb = self._message
        c.connect_coro = self._connected
        c.wifi_coro = self._link
        self.client = mqtt.MQTTClient(c)

    def where(self):
        return "%s:%d" % (self.conf["host"], self.conf["port"])

    def _say_problem(self, line):
        if line != self.problem:
            self.problem = line
            self.say("net: " + line)

    async def _wifi(self):
        """None once joined, else why not."""
        w = self.wlan
        w.active(True)
        w.connect(self.conf["ssid"], self.conf["wifi_password"])
        for _ in range(WIFI_S * 5):
            if w.isconnected():
                return None
            if w.status() < 0:
                break
            await asyncio.sleep_ms(200)
        status = w.status()
        return "Wi-Fi %r: %s" % (self.conf["ssid"], WIFI_FAILED.get(
            status, "not joined within %d s (status %d)" % (WIFI_S, status)))

    def _why(self, e):
        if e.args == (-1,):  # mqtt_async: a CONNACK that refuses the connection
            return ("the broker at %s refused user %r: wrong user or password, or not "
                    "allowed" % (self.where(), self.conf["user"]))
        if e.args and e.args[0] == ECONNREFUSED:
            return "no broker at %s (connection refused)" % self.where()
        return "cannot reach the broker at %s (%s)" % (self.where(), e)

    async def run(self):
        """Join the Wi-Fi and connect, again and again until it works; then return (the
        library keeps the connection). Never raises for a network fault."""
        delay = 1
        while True:
            why = None
            if not self.wlan.isconnected():
                why = await self._wifi()
            if why is None:
                try:
                    await asyncio.wait_for(self.client.connect(), CONNECT_S)
                    return
                except OSError as e:
                    why = self._why(e)
                except asyncio.TimeoutError:
                    why = "no answer from the broker at %s within %d s" % (self.where(),
                                                                           CONNECT_S)
            self._say_problem(why)
            await asyncio.sleep(delay)
            delay = min(delay * 2, RETRY_MAX_S)

    async def _connected(self, client):
        self.connected = True
        self.problem = None
        self.say("net: connected to %s as %s" % (self.where(), self.conf["user"]))
        for topic in self.topics:
            await client.subscribe(topic, 1)

    async def _link(self, up):
        if not up and self.connected:
            self.connected = False
            self.say("net: connection to %s lost; reconnecting" % self.where())

    def _message(self, topic, payload, retained, qos):
        try:
            topic = topic.decode()
        except UnicodeError:
            self.say("net: a message whose topic is not UTF-8 dropped")
            return
        try:
            self.on_message(topic, payload, retained)
        except Exception as e:  # noqa: BLE001  (a bad message must not end the reading task)
            self.say("net: message on %s dropped (%s)" % (topic[:64], type(e).__name__))

    async def subscribe(self, topic):
        """Subscribe with QoS 1, now if connected, and at every connection from now on."""
        if topic not in self.topics:
            self.topics.append(topic)
        if self.connected:
            await self.client.subscribe(topic, 1)

    async def publish(self, topic, payload, retain=False):
        """Publish with QoS 1; returns once the broker has it (waiting through a
        reconnection if need be: nothing is lost while the board stays on)."""
        await self.client.publish(topic, payload, retain, 1)

    async def stop(self):
        await self.client.disconnect()
        self.connected = False


def start(path, on_message, say=None):
    """The board's Net, from the settings file `path` (NetError if it is wrong)."""
    from binascii import hexlify

    import machine
    import mqtt_async  # type: ignore[import-not-found]  # make flash puts it in /lib
    import network  # type: ignore[import-not-found]  # the Pico W's; RPI_PICO has none

    conf = load(path)
    wlan = network.WLAN(network.STA_IF)
    return Net(mqtt_async, wlan, conf, "kb" + hexlify(machine.unique_id()).decode(),
               on_message, say)
