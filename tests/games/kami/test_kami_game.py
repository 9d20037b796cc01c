"""Kami's game interface (games/kami/game.py; docs/platform.md): every name of
core.gameload.INTERFACE, the link's state (hands, face-down cards, set-aside and hidden
centre cards, the seed: only under reveal, 8.3), a seat's own view, the pixels' names."""

import json

import conformance
from core import gameload
from core.app import App
from core.cards import Registry
from core.link import Link
from games.kami import deck, report


class Strip:
    def show(self, frame):
        pass


def kami():
    return gameload.load("kami")


def test_kami_provides_the_whole_interface():
    g = kami()
    assert gameload.missing(g) == []
    assert g.NAME == "kami" and g.TITLE == "Kami" and g.seats(3) == ("p1", "p2", "p3")
    assert len(g.card_names(None)) == 32 and g.card_names(None)[-1] == "IMPERATRICE-2"
    assert g.solo(None, None, None) is None and g.preload() is None


def test_pixel_names_and_the_enrolment_lights():
    g = kami()
    b = conformance.board_for("kami")
    names = g.pixel_names(b)
    assert len(names) == b.led_count == len(set(names)) and "" not in names
    assert names[b.seat_led[1]] == "p2" and names[b.defence_led[3]] == "defence:p4"
    assert names[b.empress_led] == "empress" and names[b.centre_led[7]] == "centre:8"
    assert names[b.track_led[2][14]] == "score:t3:15"
    # a card's kind picks one of the 8 centre lights while it is enrolled or tapped
    assert g.enroll_place(None, "SOLDAT-7") == 0 and g.enroll_place(None, "FOU-2") == 6
    assert g.enroll_place(None, "KING-1") == -1
    assert g.card_pixel(b, "IMPERATRICE-1") == b.centre_led[7]


def test_a_seat_sees_its_own_hand_only():
    g = kami()
    s = g.new_state(None, {"players": 3, "seed": 9})
    mine = g.seat_view(s, 1)
    assert mine["seat"] == "p2" and mine["hand"] == report.game(s)["hands"]["p2"]
    text = json.dumps(mine)
    for other in report.game(s)["hands"]["p1"] + report.game(s)["hidden"]["aside"]:
        assert other not in text


def link_for(settings):
    g = kami()
    b = conformance.board_for("kami")
    app = App(g, b, Registry(g.card_names(b)), Strip(), settings)
    lines = []
    link = Link(app, lambda t: lines.append(json.loads(t)), lambda: 0)
    app.listen(link.on_event)
    return app, link, lines


def test_the_link_shows_no_hidden_card_unless_revealed():
    app, link, lines = link_for({"players": 3, "seed": 21})
    hands = report.game(app.game)["hands"]
    link.line('{"cmd": "state"}')
    state = lines[-1]["state"]
    assert "hands" not in state and "hidden" not in state
    assert state["settings"] == {"players": 3, "mode": "soldat", "first": "p1",
                                 "target": 15, "deal": "seed"}  # no seed (8.3)
    assert state["ui"] == {"cursor": None, "undo": False}
    down = hands["p1"][0]
    link.line(json.dumps({"cmd": "tap", "card": down}))
    assert lines[-1]["event"] == "accepted"
    assert lines[-1]["changed"]["lines"]["p1"]["defence"] == [
        {"card": None, "face": "down", "from": "hand"}]
    assert lines[-1]["changed"]["ui"] == {"cursor": None, "undo": True}
    text = json.dumps(lines[-1])
    for seat in hands:
        for card in hands[seat]:
            assert '"%s"' % card not in text
    link.line('{"cmd": "press", "button": "done"}')
    assert lines[-1]["event"] == "refused" and lines[-1]["code"] == "wrong-phase"
    assert lines[-1]["places"] == ["p1"]
    link.line('{"cmd": "reveal", "on": true}')
    state = lines[-1]["state"]
    assert state["hands"]["p2"] == hands["p2"] and state["settings"]["seed"] == 21
    assert state["lines"]["p1"]["defence"][0]["card"] == down
    assert len(state["hidden"]["aside"]) == 2


def test_a_table_game_over_the_link_with_an_unregistered_tag():
    app, link, lines = link_for({"players": 4})
    link.line('{"cmd": "tap", "uid": "04A224B2C35E80"}')
    assert lines[-1]["code"] == "unknown-card" and lines[-1]["places"] == ["p1"]
    for name in ("SOLDAT-3", "SOLDAT-1"):
        link.line(json.dumps({"cmd": "tap", "card": name}))
    link.line('{"cmd": "state"}')
    state = lines[-1]["state"]
    assert state["turn"] == "p2" and state["hand_sizes"]["p1"] == 6
    assert "SOLDAT-3" not in json.dumps(state)
    assert state["leds"] == bytes(app.view.frame).hex()


def test_the_card_names_are_the_decks():
    assert kami().card_names(None) == deck.NAMES


def test_a_power_cut_keeps_the_face_down_defence_undoable_and_secret():
    """The journal keeps every accepted event: after a power cut the defence still waits
    for its attack, `back` still takes it back, and the link still does not name it."""
    from core.journal import Journal
    from host_tools.fakehw.flash import VirtualFlash

    g = kami()
    b = conformance.board_for("kami")
    flash = VirtualFlash()

    def boot():
        return App(g, b, Registry(g.card_names(b)), Strip(), {"players": 4},
                   journal=Journal("/game.jnl", flash))

    app = boot()
    app.tap_card("SOLDAT-3", 0)
    app.tap_card("SOLDAT-1", 0)
    app.press("done", 0)
    app.tap_card("TOUR-2", 0)  # p3: a Tower does not counter a Soldier (K1)
    assert app.referee.outcome.code == "not-a-counter"
    app.press("done", 0)
    app.press("done", 0)
    app.tap_card("FOU-1", 0)  # p1 replays face down (K16)
    app = boot()  # the power cut
    assert (app.game.step, app.game.turn) == ("attack", 0)
    lines = []
    link = Link(app, lambda t: lines.append(json.loads(t)), lambda: 0)
    app.listen(link.on_event)
    link.line('{"cmd": "state"}')
    state = lines[-1]["state"]
    assert "FOU-1" not in json.dumps(state) and state["ui"]["undo"] is True
    assert state["lines"]["p1"]["defence"][-1] == {"card": None, "face": "down",
                                                  "from": "hand"}
    link.line('{"cmd": "press", "button": "back"}')
    assert lines[-1]["event"] == "accepted"
    assert app.game.step == "open" and app.game.sizes[0] == 6


def test_a_face_down_card_is_journaled_at_one_width_and_either_form_replays():
    """8.3: the journal's record of a face-down defence has the same length whatever the
    card (game.journal_form: the index + 100), and a journal written before that form
    (the index itself) still replays to the same game."""
    from core.journal import Journal, encode
    from host_tools.fakehw.flash import VirtualFlash

    g = kami()
    b = conformance.board_for("kami")
    sizes = set()
    for name in ("SOLDAT-1", "SOLDAT-10", "LANCE-1", "IMPERATRICE-2"):
        flash = VirtualFlash()
        app = App(g, b, Registry(g.card_names(b)), Strip(), {"players": 4},
                  journal=Journal("/game.jnl", flash))
        before = len(flash.files["/game.jnl"])
        app.tap_card(name, 0)
        sizes.add(len(flash.files["/game.jnl"]) - before)
        records = []
        app.journal.replay(records.append)
        assert records[-1] == ["defend", deck.NAMES.index(name) + g.DOWN]
    assert len(sizes) == 1
    flash = VirtualFlash()  # a journal of the old form: ["defend", index]
    flash.files["/game.jnl"] = bytearray(
        encode(["new", {"players": 4}, 1]) + encode(["defend", deck.NAMES.index("OR-2")])
        + encode(["attack", deck.NAMES.index("OR-1")]))
    app = App(g, b, Registry(g.card_names(b)), Strip(), {"players": 4},
              journal=Journal("/game.jnl", flash))
    assert app.boot_problem is None
    assert app.game.lines[0] == [[[deck.NAMES.index("OR-2"), 0, 0]],
                                 [[deck.NAMES.index("OR-1"), 1, 0]]]


def test_the_buttons_menu_sets_players_mode_and_target():
    from core.board import MENU
    g = kami()
    b = conformance.board_for("kami")
    app = App(g, b, Registry(g.card_names(b)), Strip(), {})
    assert g.menu_pixels(b) == b.seat_led[:3]
    app.press(MENU, 0)
    assert app.menu is not None
    for button in ("next", "ok", "next", "next", "ok", "prev", "done"):
        app.press(button, 0)
    assert app.menu is None
    assert app.settings == {"players": 3, "mode": "kami", "first": "p1", "target": 5,
                            "deal": "table", "seed": None}
    assert app.game.players == 3 and app.game.mode == "kami" and app.game.target == 5
    # every combination of the items' values is a valid game
    for players in g.MENU[0][1]:
        for mode in g.MENU[1][1]:
            for target in g.MENU[2][1]:
                g.new_state(b, {"players": players, "mode": mode, "target": target})


def test_a_refused_face_down_defence_names_no_card_on_the_link():
    """8.3, 8.4: a face-down card tapped again at a table is card-already-played, and the
    link's message does not say which card, nor its kind; the seat still flashes."""
    app, link, lines = link_for({"players": 3})
    for name in ("TOUR-1", "SOLDAT-1"):
        link.line(json.dumps({"cmd": "tap", "card": name}))
    link.line('{"cmd": "press", "button": "done"}')
    link.line('{"cmd": "press", "button": "done"}')  # p1 replays (K16)
    link.line('{"cmd": "tap", "card": "TOUR-1"}')
    out = lines[-1]
    assert out["event"] == "refused" and out["code"] == "card-already-played"
    assert "TOUR" not in json.dumps(out) and "places" not in out
    assert app.referee.outcome.private and app.referee.outcome.places == (("seat", 0),)
    link.line('{"cmd": "tap", "card": "SOLDAT-1"}')  # the same code for a face-up card
    assert lines[-1]["code"] == "card-already-played" and "SOLDAT" not in json.dumps(
        lines[-1])
    link.line('{"cmd": "tap", "card": "TOUR-2"}')
    link.line('{"cmd": "tap", "card": "SOLDAT-1"}')  # an attack: public, named
    assert lines[-1]["code"] == "card-already-played" and "SOLDAT card" in lines[-1][
        "message"] and lines[-1]["places"] == ["p1"]


def test_finished_games_are_not_sent_over_the_link_k21():
    """K21: no face-down defence but the round's last is ever revealed, so the link's
    archive (games sent whole, every record) is refused for Kami, listing included."""
    from core.journal import Journal
    from host_tools.fakehw.flash import VirtualFlash

    g = kami()
    b = conformance.board_for("kami")
    flash = VirtualFlash()
    app = App(g, b, Registry(g.card_names(b)), Strip(), {"players": 4},
              journal=Journal("/game.jnl", flash))
    app.tap_card("SOLDAT-3", 0)
    app.tap_card("FOU-1", 0)  # p1's face-down defence
    app.new_game({"players": 4})  # the game above is archived on the flash
    lines = []
    link = Link(app, lambda t: lines.append(json.loads(t)), lambda: 0)
    for cmd in ('{"cmd": "archive"}', '{"cmd": "archive", "slot": 0, "offset": 0}'):
        link.line(cmd)
        assert lines[-1] == {"error": "Kami's games are not sent: their face-down cards "
                                      "stay secret"}
    assert not any("FOU-1" in json.dumps(x) for x in lines)
