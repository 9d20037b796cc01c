"""The browser page's Python side: the game's simulator (the board's firmware on its
virtual hardware), driven by clicks instead of taps and presses, for any game whose host
package provides a `webgame` part (host_tools.games.part(game, "webgame"), found by the
board definition's game): Kahuna's, Halunken's, ...

Runs in MicroPython compiled to WebAssembly (and on CPython, where the tests drive it too).
The page talks to it through one function, `handle(request) -> response`, both JSON text.
The requests every game takes:

    {"op": "start", "board": PATH, "seed": N, "options": ["KEY=VALUE", ...]}
    {"op": "new_game", "seed": N, "options": [...]}   settings as scenario option values
    {"op": "tick", "ms": N}   virtual time passes (the animations): the new LED frame,
                              and the state too when the board had an event meanwhile
                              (its own players, who may act in any tick: Halunken's
                              wait while a figure walks), so the page shows it unasked
    {"op": "state"}           the state and frame now, changing nothing
    {"op": "hand", "player": P}    the cards a seat holds in secret (the page asks only
                                   for the one whose owner has asked to see them)
    {"op": "scenario", "text": T}  the simulator's scenario run: its JSON report, the
                                   very text `python -m host_tools sim --json` prints
    {"op": "steps", "text": T}     the scenario run command by command, for a replay
                                   step by step: [{"line", "text", "report", "leds"}]
                                   after each command (its expect lines are no steps)
    {"op": "record"}               the game as a scenario file (a game record), where
                                   the game's part has `record()` (Kahuna's: once over)
    {"op": "remote", "do": ...}    the page's seat in a remote game (host_tools/web/
                                   remoteplay.py, loaded at its first request)

Every other request is the game's (its part's `WebGame.act(op, request)`: Kahuna's deck,
take, play, press, pick; Halunken's tap, press, pick). Every response has "ok"; an
action's also "state" (what any onlooker may see: no hand, no secret choice, no deck
order) and "leds" (the last frame, [[r, g, b], ...] in strip order).

A game's `webgame` part provides `WebGame(board, seed, options)` with `new_game(options,
seed)`, `act(op, request)`, `hand(player)`, `state()`, `leds()` and `sim` (the
simulation), and `ERRORS`, the exception classes of a bad request besides WebError; and
optionally `board_acted()`, called after a tick in which the board had events, before the
state is taken (e.g. to put the board's moves into the message).
"""

import json

from core import board as boardmod
from host_tools.games import NoGame, part
from host_tools.simulator.engine import Simulation, run_commands
from host_tools.simulator.jsontext import dumps
from host_tools.simulator.scenario import ScenarioError, parse
from host_tools.web.weberror import WebError

MAX_TICK_MS = 1000  # a page that was in the background catches up at most this much
REMOTE_ENTRY = "host_tools.web.remoteplay"


def run_scenario(board, text):
    """(report JSON text, failures) of a scenario, exactly as the simulator's command line
    prints them. Raises ScenarioError for a scenario that cannot be read."""
    report, failures = run_commands(board, parse(text, board))
    return dumps(part(board.game, "simreport").canonical(report, board)), failures


# ---------------------------------------------------------------- the page's entry point

_session = {"board": None, "web": None, "game": None, "errors": ()}


def _start(req):
    board = boardmod.load(req["board"])
    try:
        web = part(board.game, "webgame")
    except NoGame as e:
        raise WebError(str(e)) from e
    _session["board"] = board
    _session["web"] = web
    _session["errors"] = tuple(getattr(web, "ERRORS", ()))
    _session["game"] = None  # the old game's simulator freed before the new one is made
    _new_game(req)


def _new_game(req):
    """A new game is a new simulator, its virtual clock at 0: what the board's own players
    do after it (they act on the firmware's task ticks, a grid of the clock) then depends
    on the game's requests and the time between them alone, never on how long the games
    before it ran. The page keeps a game as its requests from its new game on and replays
    them after a reload (web/js/localgame.js): with the clock going on from the game
    before, the replay ran on a shifted grid and could differ (a board's seat not yet
    moved), and the kept game was lost. Bad settings raise before anything changes: the
    game in progress goes on."""
    game = _session["web"].WebGame(
        _session["board"], int(req.get("seed", 1)), req.get("options", []))
    _session["game"] = game


def _scenario(req):
    board = _session["board"]
    try:
        text, failures = run_scenario(board, req["text"])
    except ScenarioError as e:
        return {"ok": False, "error": str(e), "kind": "scenario"}
    return {"ok": True, "report": text, "failures": failures}


def _steps(req):
    """A scenario (an imported game record) replayed command by command in a simulator
    of its own: what the board showed after each."""
    board = _session["board"]
    text = str(req["text"])
    try:
        commands = parse(text, board)
    except ScenarioError as e:
        return {"ok": False, "error": str(e), "kind": "scenario"}
    source = text.split("\n")
    canon = part(board.game, "simreport").canonical
    sim = Simulation(board)
    steps = [{"line": 0, "text": "(the start)", "report": canon(sim.report(), board),
              "leds": sim.np.rgb()}]
    for cmd in commands:
        sim.execute(cmd)
        if cmd[1] == "expect":
            continue
        rep = canon(sim.report(), board)
        rep.pop("leds", None)
        steps.append({"line": cmd[0], "text": source[cmd[0] - 1].split("#", 1)[0].strip(),
                      "report": rep, "leds": sim.np.rgb()})
    steps[0]["report"].pop("leds", None)
    return {"ok": True, "steps": steps, "failures": sim.failures}


def _record(game):
    rec = getattr(game, "record", None)
    if rec is None:
        raise WebError("this game writes no game record")
    try:
        return {"ok": True, "text": rec()}
    except _session["errors"] as e:
        return {"ok": False, "error": str(e), "kind": "record"}


def _tick(game, req):
    """Virtual time passes: the frame; the state as well if the board had an event (only
    then: taking the state every animation frame would cost the page its frame rate)."""
    sim = game.sim
    events = sim.events
    sim.advance(max(0, min(MAX_TICK_MS, int(req.get("ms", 0)))))
    resp = {"ok": True, "leds": game.leds(), "now": sim.now}
    if sim.events != events:
        acted = getattr(game, "board_acted", None)
        if acted is not None:
            acted()
        resp["state"] = game.state()
    return resp


def _remote(req):
    """The page's seat in a game across tables: host_tools/web/remoteplay.py, which the
    build bundles only for a game with a remote part (REMOTE_ENTRY) and which is imported
    at the first such request."""
    try:
        remoteplay = __import__(REMOTE_ENTRY, None, None, ("handle",))
    except ImportError:
        raise WebError("this game is not played across tables yet") from None
    return remoteplay.handle(req)


def dispatch(req):
    """One request (a dict) -> its response (a dict)."""
    op = req.get("op")
    if op == "remote":
        return _remote(req)
    if op == "start":
        _start(req)
    elif _session["game"] is None:
        raise WebError("start first")
    elif op == "scenario":
        return _scenario(req)
    elif op == "steps":
        return _steps(req)
    game = _session["game"]
    if op == "record":
        return _record(game)
    if op == "new_game":
        _new_game(req)
        game = _session["game"]
    elif op == "tick":
        return _tick(game, req)
    elif op == "hand":
        return {"ok": True, "cards": game.hand(req["player"])}
    elif op not in ("start", "state"):
        game.act(op, req)
    return {"ok": True, "state": game.state(), "leds": game.leds()}


def handle(text):
    """The page's one call: a JSON request in, a JSON response out. A bad request is an
    answer with ok false and the reason, never an exception into the page."""
    try:
        try:
            req = json.loads(text)
        except ValueError as e:
            raise WebError("the request is not JSON (%s)" % (e,)) from e
        if not isinstance(req, dict):
            raise WebError("a request is a JSON object")
        return dumps(dispatch(req))
    except (WebError, boardmod.BoardError, KeyError, ValueError, TypeError) + _session[
            "errors"] as e:
        return json.dumps({"ok": False, "error": "%s: %s" % (type(e).__name__, e)})
