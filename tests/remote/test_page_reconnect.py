"""The page's seat on a new connection (host_tools/web/remoteplay.py's `reconnected`):
the request in flight on the lost connection is offered again. It was not: a request
sent stayed among the ones tried at that event, so a seat whose only option it was
(end_play, the hand empty) had none left, and the game stopped (seen with a virtual
board against the page through a broker restart, test_board_page.py)."""

import json

from host_tools.remote import dealing
from host_tools.remote import protocol as p
from host_tools.web import game as webgame

CODE = "K7QXM2"


def call(req):
    out = json.loads(webgame.handle(json.dumps(dict(req, op="remote"))))
    assert out["ok"], out
    return out


def test_the_request_in_flight_is_offered_again_after_a_reconnection():
    d = dealing.Dealer(lambda code: 1)
    opened = call({"do": "open", "create": True, "code": CODE, "user": "alice",
                   "seat": "white", "settings": {"variant": "standard"}})
    hello = call({"do": "hello"})["publish"]
    inbox = d.handle(hello["topic"], json.dumps(hello["message"]).encode())[0]
    inbox += d.handle(p.topic(CODE, "hello", "bob"), p.encode(p.hello("join")))[0]
    view = opened["view"]
    for topic, payload, _retain in inbox:
        if topic in opened["subscribe"]:
            view = call({"do": "feed", "topic": topic, "payload": payload.decode()})["view"]
    assert view["current"] and view["public"]["turn"] == "white"
    before = view["options"]
    assert ["end_play"] in before
    sent = call({"do": "move", "action": ["end_play"]})  # lost with the connection
    assert sent["view"]["options"] == [] and sent["view"]["asked"]
    view = call({"do": "reconnected"})["view"]
    assert not view["asked"] and view["options"] == before
    # Chosen again, it goes with the next number: the dealer takes it once.
    again = call({"do": "move", "action": ["end_play"]})["publish"]
    assert again["message"]["n"] == sent["publish"]["message"]["n"] + 1
    out, lines = d.handle(again["topic"], json.dumps(again["message"]).encode())
    assert lines == [] and d.games[CODE].log[-1][2] == ["end_play"]
