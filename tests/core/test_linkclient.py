"""The host's one state tracker (linkclient.Tracker): the merged state, the solo step, the
last refusal, and the game id and seq of the board's lines with gap detection."""

import json

import gamekit
from core.link import Link
from host_tools.maker import linkclient
from host_tools.simulator import engine as simcore


def board():
    sim = simcore.Simulation(gamekit.board())
    lines = []
    link = Link(sim.app, lines.append, lambda: sim.now)
    sim.app.listen(link.on_event)
    return sim, link, lines


def test_the_tracker_follows_the_board_and_keeps_the_last_refusal():
    sim, link, lines = board()
    t = linkclient.Tracker()
    link.feed(b'{"cmd": "state"}\n{"cmd": "tap", "card": "HUNA-1"}\n'
              b'{"cmd": "press", "button": "next"}\n')
    for line in lines:
        t.feed(json.loads(line))
    assert t.state["hand_sizes"] == {"white": 1, "black": 0}
    assert t.refusal["code"] == "wrong-phase" and t.refusal["places"] == []
    assert t.gaps == 0 and not t.ask_state and t.seq == json.loads(lines[-1])["seq"] == 1
    lines.clear()
    link.feed(b'{"cmd": "new", "settings": {}}\n{"cmd": "tap", "card": "HUNA-1"}\n')
    for line in lines:
        t.feed(json.loads(line))
    assert t.refusal is None and t.state["hand_sizes"]["white"] == 1
    assert t.game == json.loads(lines[-1])["game"] and t.seq == 1 and t.gaps == 0


def test_a_missed_line_asks_for_the_state_and_the_state_mends_it():
    sim, link, lines = board()
    t = linkclient.Tracker()
    link.feed(b'{"cmd": "state"}\n')
    for card in ("HUNA-1", "ELAI-1", "DUDA-1"):
        link.feed(('{"cmd": "tap", "card": "%s"}\n' % card).encode())
    msgs = [json.loads(line) for line in lines]
    t.feed(msgs[0])
    t.feed(msgs[1])
    t.feed(msgs[3])  # msgs[2] lost on the way
    assert t.gaps == 1 and t.ask_state
    t.ask_state = False
    lines.clear()
    link.feed(b'{"cmd": "state"}\n')
    t.feed(json.loads(lines[-1]))
    assert t.state["hand_sizes"] == {"white": 3, "black": 0} and not t.ask_state


def test_a_part_before_any_state_or_a_boot_asks_for_the_state():
    t = linkclient.Tracker()
    t.feed({"event": "accepted", "changed": {"phase": "play"}, "game": 1, "seq": 4})
    assert t.ask_state and t.state is None
    t.ask_state = False
    t.feed({"event": "boot", "firmware": "x"})
    assert t.ask_state
    t.feed({"event": "ai", "step": "draw", "say": "draw a card"})
    assert (t.step, t.say) == ("draw", "draw a card")
