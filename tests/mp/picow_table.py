"""A Pico W alone at its table, under the MicroPython unix port: the board's firmware on
the simulator's virtual hardware (its journal in a folder: a power cut is this process
killed and started again), its serial link on stdin and stdout, and its own seat
(core.netseat) reaching a real broker through the network driver (hw.net, mqtt_async
from the pinned PyPI archive, the virtual board's `network` and the unix port's sockets),
as main.py starts them on a Pico W. Driven by tests/remote/test_picow_seat_broker.py.

    micropython picow_table.py DIR

DIR holds net.json (as `make flash NET=...` leaves it), the board's files and, for a game
the board takes part in already, remote.json; the settings menu's `remote: create` and
`remote: join` make one (the link's `press` commands). The seat's lines come out as
{"event": "net", "say": ...}.
"""

import asyncio
import json
import sys
import time

import gamekit
from core import netseat
from core.link import Link
from core.netplay import NetMenu
from core.remoteproto import hello
from host_tools.fakehw.flash import DiskFlash
from host_tools.simulator import engine as simcore
from hw import net


def write(text):
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


async def commands(link):
    stdin = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else sys.stdin
    stream = asyncio.StreamReader(stdin)
    while True:
        line = await stream.readline()
        if not line:
            return
        link.line(line.decode())


async def main(folder):
    sim = simcore.Simulation(gamekit.board(), flash=DiskFlash(folder))
    start = time.ticks_ms()

    def clock():
        return time.ticks_diff(time.ticks_ms(), start)

    link = Link(sim.app, write, lambda: sim.now)
    sim.app.listen(link.on_event)
    sim.app.prompters.append(link.on_prompt)
    write(json.dumps({"event": "boot", "settings": sim.app.settings}))
    # As core.netplay.task (main.py's, on a Pico W): the seat takes part in the game
    # /remote.json names, and the settings menu's create and join start one (App.netplay).
    runner = netseat.Runner(sim.app, net.start, folder + "/remote.json", folder + "/net.json",
                            clock, lambda line: write(json.dumps({"event": "net",
                                                                  "say": line})))

    def ask(op, code, settings):
        runner.begin(code, hello("create", "white", settings) if op == "create"
                     else hello("join"))
    sim.app.netplay = NetMenu(ask)
    runner.begin()  # says why not when there is no /remote.json yet
    seat = asyncio.create_task(runner.run())
    await commands(link)
    seat.cancel()


asyncio.run(main(sys.argv[1]))
