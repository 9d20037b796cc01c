// The page's own game: the simulator running in MicroPython (runtime.js), played by
// clicks. It is one source of views for the page; a view is what any source hands the
// drawing code (Kahuna's; each game's state is its webgame part's):
//
//   { state: { report: {phase, round, turn, bridges, control, supply, scores, ...,
//                       hand_sizes},
//              ui: {options, sel, pending, picked, discarding}, table, hint, message },
//     leds: [[r, g, b], ...] }
//
// (each game's webgame part's state(): nothing in it shows a hand, a secret choice or the
// deck; `hand(player)` is asked only once that player has chosen to see their hand.)

//
// The game in progress survives a reload: every request that changed it (the start, the
// new game with its seed, each click, and the virtual time that passed between them, which
// is when the board's own players act) is kept in the browser's local storage under the
// game's name (`storage`), and `resume()` replays them into a fresh simulator. The same
// requests from the same seed give the same game (the simulator's time is virtual); the
// replayed state must be the very state saved (its clock apart), else the record is
// dropped and a new game starts. A new game's record starts at its new_game, not with the
// time the games before it took: new_game starts a new simulator, its clock at 0
// (host_tools/web/game.py), so the board's players, who act on the firmware's task ticks,
// move at the same ticks in the replay. The log and its check are one item, written at
// once. What is kept is what the page's memory holds anyway (the seed deals the cards),
// never shown on the page.

const STORE_VERSION = 1;
const MAX_TICK_MS = 1000; // host_tools/web/game.py's: a longer pause replays in pieces

export class LocalGame {
  constructor(runtime, board, { storage = null, name = "" } = {}) {
    this.rt = runtime;
    this.board = board; // the board definition's path: it names the game
    this.view = null;
    this.listeners = [];
    this.storage = storage; // window.localStorage, or null: nothing kept
    this.key = "smartboard.game." + name;
    this.log = []; // the requests that made the game in progress
    this.idle = 0; // virtual ms passed since the last request kept
    this.replaying = false;
  }

  onChange(fn) {
    this.listeners.push(fn);
  }

  start(options = [], seed = randomSeed()) {
    return this._act({ op: "start", board: this.board, options, seed });
  }

  newGame(options = [], seed = randomSeed()) {
    return this._act({ op: "new_game", options, seed });
  }

  // The game kept by an earlier visit, replayed: true, or false when there is none (or it
  // cannot be replayed any more: then it is forgotten). Nothing is shown until it is whole.
  resume() {
    let saved = null;
    try {
      saved = this.storage && JSON.parse(this.storage.getItem(this.key));
    } catch (e) {
      saved = null;
    }
    if (!saved || saved.v !== STORE_VERSION || !Array.isArray(saved.log) || !saved.log.length
        || saved.log[0].op !== "start" || saved.log[0].board !== this.board) {
      this.forget();
      return false;
    }
    let r = null;
    try {
      for (const req of saved.log) {
        if (req.op === "tick") {
          for (let ms = req.ms; ms > 0; ms -= MAX_TICK_MS) {
            r = this._call({ op: "tick", ms: Math.min(ms, MAX_TICK_MS) });
          }
        } else {
          r = this._call(req);
        }
      }
      r = this._call({ op: "state" });
    } catch (e) {
      r = null;
    }
    if (!r || checked(r.state) !== saved.check) {
      this.forget();
      return false;
    }
    this.log = saved.log;
    this.idle = 0;
    this._show(r);
    return true;
  }

  forget() {
    this.log = [];
    this.idle = 0;
    if (this.storage) {
      try {
        this.storage.removeItem(this.key);
      } catch (e) { /* storage refused: nothing kept */ }
    }
  }

  _keep(request, state) {
    if (request.op === "start") this.log = [];
    else if (request.op === "new_game") this.log = this.log.slice(0, 1);
    else if (this.idle > 0) this.log.push({ op: "tick", ms: this.idle });
    this.idle = 0;
    if (request.op !== "tick") this.log.push(request);
    if (!this.storage) return;
    try {
      this.storage.setItem(this.key, JSON.stringify(
        { v: STORE_VERSION, log: this.log, check: checked(state) }));
    } catch (e) { /* storage full or refused: the game goes on, unkept */ }
  }

  // Kahuna's requests (host_tools/games/kahuna/webgame.py)
  deck() { return this._act({ op: "deck" }); }
  take(card) { return this._act({ op: "take", card }); }
  play(card) { return this._act({ op: "play", card }); }
  press(button) { return this._act({ op: "press", button }); }
  takeBack() { return this._act({ op: "press", button: "back", hold: true }); }
  pick(conn) { return this._act({ op: "pick", conn }); }
  // Halunken's (host_tools/games/halunken/webgame.py): press as above
  tap(card) { return this._act({ op: "tap", card }); }
  choose(option) { return this._act({ op: "pick", option }); }
  // Kami's (host_tools/games/kami/webgame.py): tap and press as above
  pickSeat(seat) { return this._act({ op: "pick", seat }); }

  hand(player) {
    return this._call({ op: "hand", player }).cards;
  }

  // Virtual time passes: the firmware's animations draw their frames. What the board did
  // meanwhile (its own players act in its ticks, not only within a click's request: Halunken's
  // wait while a figure walks) comes with the frame, and the page shows it at once.
  tick(ms) {
    const r = this._call({ op: "tick", ms });
    this.idle += Math.max(0, Math.min(MAX_TICK_MS, ms));
    if (r.state) {
      this._keep({ op: "tick" }, r.state); // the board acted in this tick: kept at once
      this._show(r);
    } else {
      this.view = { ...this.view, leds: r.leds };
    }
    return this.view;
  }

  _call(request) {
    const r = this.rt.call(request);
    if (!r.ok) throw new Error(r.error);
    return r;
  }

  _act(request) {
    const r = this._call(request);
    this._keep(request, r.state);
    return this._show(r);
  }

  _show(r) {
    this.view = { state: r.state, leds: r.leds };
    for (const fn of this.listeners) fn(this.view);
    return this.view;
  }
}

// The state a replay must give again, as text: all of it but the virtual clock (a new
// game's record starts with its own new_game, not the time the game before it took).
function checked(state) {
  return JSON.stringify({ ...state, now: undefined });
}

export function randomSeed() {
  return Math.floor(Math.random() * 0x7fffffff);
}
