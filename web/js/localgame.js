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

export class LocalGame {
  constructor(runtime, board) {
    this.rt = runtime;
    this.board = board; // the board definition's path: it names the game
    this.view = null;
    this.listeners = [];
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

  // Kahuna's requests (host_tools/games/kahuna/webgame.py)
  deck() { return this._act({ op: "deck" }); }
  take(card) { return this._act({ op: "take", card }); }
  play(card) { return this._act({ op: "play", card }); }
  press(button) { return this._act({ op: "press", button }); }
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
    if (r.state) this._show(r);
    else this.view = { ...this.view, leds: r.leds };
    return this.view;
  }

  _call(request) {
    const r = this.rt.call(request);
    if (!r.ok) throw new Error(r.error);
    return r;
  }

  _act(request) {
    return this._show(this._call(request));
  }

  _show(r) {
    this.view = { state: r.state, leds: r.leds };
    for (const fn of this.listeners) fn(this.view);
    return this.view;
  }
}

export function randomSeed() {
  return Math.floor(Math.random() * 0x7fffffff);
}
