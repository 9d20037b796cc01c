"""A host table's request lost with its connection (host_tools/remote/table.py): the
broker restarts after it acknowledged the table's move and before the dealer got it. On
the new connection the table sends the same request again (the next number), and the
game goes on to its end. Before, the table chose anew among the options it had not sent
at that event: a seat whose only option it was waited forever (a full-suite run of
test_remote_faults.py stalled so).

In one process: the dealer (dealing.Dealer) behind a small stand-in for the broker that
keeps the retained messages, routes each message to the subscribers of its topic and can
lose one message and cut a table's connection."""

import asyncio
import json
from types import SimpleNamespace

import aiomqtt

from host_tools import games as hostgames
from host_tools.remote import dealing
from host_tools.remote import protocol as p
from host_tools.remote.table import Table, random_player

CODE = "FA2XTS"
CUT = object()


class Broker:
    def __init__(self, dealer):
        self.dealer = dealer
        self.retained = {}
        self.clients = []
        self.lose = None  # (topic, payload) -> True: that message is lost, once
        self.lost = []

    def route(self, topic, payload, retain):
        if retain:
            self.retained[topic] = payload
        for c in self.clients:
            if topic in c.subs:
                c.queue.put_nowait(message(topic, payload))

    def publish(self, client, topic, payload):
        if self.lose is not None and self.lose(topic, payload):
            self.lose = None
            self.lost.append((client, topic, payload))
            return
        out, _lines = self.dealer.handle(topic, payload)
        for t, pl, retain in out:
            self.route(t, pl, retain)


def message(topic, payload):
    return SimpleNamespace(topic=SimpleNamespace(value=topic), payload=payload)


class Client:
    """One connection, as much of aiomqtt.Client as a table uses."""

    def __init__(self, broker):
        self.broker = broker
        self.subs = set()
        self.queue = asyncio.Queue()
        self.moves = []  # the requests this connection published
        broker.clients.append(self)

    async def subscribe(self, topic, qos):
        self.subs.add(topic)
        if topic in self.broker.retained:
            self.queue.put_nowait(message(topic, self.broker.retained[topic]))

    async def unsubscribe(self, topic):
        self.subs.discard(topic)

    async def publish(self, topic, payload, qos, retain=False):
        if p.parse_topic(topic)[1] == "move":
            self.moves.append(json.loads(payload))
        self.broker.publish(self, topic, payload)

    def cut(self):
        self.broker.clients.remove(self)
        self.queue.put_nowait(CUT)

    @property
    def messages(self):
        async def it():
            while True:
                m = await self.queue.get()
                if m is CUT:
                    raise aiomqtt.MqttError("Disconnected during message iteration")
                yield m
        return it()


def test_a_request_lost_with_the_connection_is_sent_again_and_the_game_ends():
    part = hostgames.part("kahuna", "remote")
    broker = Broker(dealing.Dealer(lambda code: 5))
    alice = Table(CODE, "alice", part, random_player(part, 4), lambda text: None,
                  p.hello("create", "white", {}))
    bob = Table(CODE, "bob", None, None, lambda text: None, p.hello("join"),
                make_player=lambda part, index: random_player(part, 5))

    def alices_move_after_event_20(topic, payload):
        return topic == p.topic(CODE, "move", "alice") and json.loads(payload)["base"] >= 20

    async def run():
        broker.lose = alices_move_after_event_20
        first = Client(broker)
        a = asyncio.create_task(alice.work(first))
        b = asyncio.create_task(bob.work(Client(broker)))
        while not broker.lost:
            await asyncio.sleep(0.001)
        first.cut()  # the broker restarts: alice's connection with it
        try:
            await a
            raise AssertionError("alice's table went on without its connection")
        except aiomqtt.MqttError:
            pass
        assert alice.seat.seq == json.loads(broker.lost[0][2])["base"]  # nothing came
        again = Client(broker)
        a = asyncio.create_task(alice.work(again))
        return await asyncio.wait_for(asyncio.gather(a, b), 120), again

    (ra, rb), again = asyncio.run(run())
    lost = json.loads(broker.lost[0][2])
    resent = again.moves[0]
    assert resent["action"] == lost["action"] and resent["base"] == lost["base"]
    assert resent["n"] == lost["n"] + 1  # the next number: the lost one may have counted
    assert ra == rb and ra["public"]["winner"] is not None
    assert [e[0] for e in ra["log"]] == list(range(1, ra["seq"] + 1))
