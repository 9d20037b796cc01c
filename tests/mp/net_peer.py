"""The Pico W's network driver (firmware/hw/net.py) under the MicroPython unix port, as
the board runs it: `hw.net.start` with the virtual board's fake `network`
(host_tools/fakehw/pico/network.py), mqtt_async from the pinned PyPI archive, the unix
port's real sockets to a broker on loopback. Driven by tests/remote/test_picow_net.py.

    micropython net_peer.py NET_JSON TOPIC...

Subscribes to each TOPIC, then reads commands on stdin: `pub TOPIC TEXT` (QoS 1; prints
`published TEXT` once the broker has it), `quit`. Prints `say LINE` for each of the
driver's lines, `ready` once connected and subscribed, `got TOPIC HEX RETAINED` for each
message; a message whose payload starts with b"raise" makes the callback raise. `heap
started N` and `heap connected N`: the live heap (bytes, after a full collection) once the
driver is made, and once it is connected and subscribed.
"""

import asyncio
import gc
import sys
from binascii import hexlify

from hw import net


def live():
    gc.collect()
    return gc.mem_alloc()


def show(*parts):
    sys.stdout.write(" ".join(str(p) for p in parts) + "\n")


def on_message(topic, payload, retained):
    if payload.startswith(b"raise"):
        raise ValueError("the callback refuses this one")
    show("got", topic, hexlify(payload).decode() or "-", int(retained))


async def commands(board):
    stdin = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else sys.stdin
    stream = asyncio.StreamReader(stdin)
    while True:
        line = await stream.readline()
        if not line:
            return
        words = line.decode().split(None, 2)
        if not words:
            continue
        if words[0] == "quit":
            return
        if words[0] == "pub":
            await board.publish(words[1], words[2].strip().encode())
            show("published", words[2].strip())


async def main(path, topics):
    board = net.start(path, on_message, lambda line: show("say", line))
    for topic in topics:
        await board.subscribe(topic)
    show("heap started", live())
    await board.run()
    for topic in topics:  # connected: subscribed now (again), once the broker said so
        await board.subscribe(topic)
    show("heap connected", live())
    show("ready")
    await commands(board)
    await board.stop()


try:
    asyncio.run(main(sys.argv[1], sys.argv[2:]))
except net.NetError as e:
    show("error", e)
    sys.exit(2)
