// Halunken & Spelunken's part of the page (index.html's <template data-game="halunken">):
// the ring (ring.js), and the panel: the step and who acts, each seat's tavern, crew and
// score (crew cards and the port's are clicked to offer or steal them: they are tapped),
// the auction, the cards revealed, the last message, the options and the board's buttons,
// the new-game form (its "the board plays" only once the game has the board's own player:
// state.board_players). The secret choice: the seat to choose asks to see its movement
// cards and clicks one; the cards go face down at once, and the page says only "p2 has
// chosen" (host_tools/games/halunken/webgame.py never tells which).

import { $, cap, make, showSettings } from "../dom.js";
import { mountRemote } from "../remote.js";
import { RingView } from "./ring.js";
import { HalunkenRemote } from "./remoteview.js";

const BUTTONS = ["prev", "next", "ok", "back", "done"];

function chip(name, onClick, cls = "") {
  const b = make("button", { cls: "chip " + cls, text: name, attrs: { "data-card": name } });
  b.addEventListener("click", () => onClick(name));
  return b;
}

class Panel {
  constructor(game, geometry, onError) {
    this.game = game;
    this.geometry = geometry;
    this.onError = onError;
    this.shown = null; // the figure whose cards its seat asked to see, this choice
    for (const name of BUTTONS) {
      const b = make("button", { cls: "hw", text: name, attrs: { id: "btn-" + name } });
      b.addEventListener("click", () => this.act(() => game.press(name)));
      $("buttons").appendChild(b);
    }
    $("choice-show").addEventListener("click", () => {
      this.shown = this._chooser(game.view.state.report);
      this.render(game.view);
    });
    $("new-game").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const f = ev.target;
      const options = [`players=${f.players.value}`, `first=${f.first.value}`];
      if (f.mode.value) options.push(`mode=${f.mode.value}`);
      if (!$("opponent").hidden && f.ai.value !== "none") options.push(`ai=${f.ai.value}`);
      const seed = f.seed.value.trim();
      this.shown = null;
      this.act(() => (seed ? game.newGame(options, parseInt(seed, 10)) : game.newGame(options)));
    });
  }

  // The new-game form shows the settings in force (a new game, a reload); a mode that is
  // the players' default stays "the players' default", so changing the players alone works.
  _form(s) {
    const text = JSON.stringify(s || null);
    if (!s || text === this.formFor) return;
    this.formFor = text;
    const usual = s.players === 2 ? "tactical" : "standard";
    showSettings($("new-game"), { players: String(s.players), first: s.first,
      mode: s.mode === usual ? "" : s.mode, ai: s.ai && s.ai.length ? s.ai.join(",") : "none" });
  }

  act(fn) {
    try {
      fn();
    } catch (e) {
      this.onError(e);
    }
  }

  tap(card) {
    this.act(() => this.game.tap(card));
  }

  // The figure whose card is chosen now: a seat, or Black-Jack (his cards, W's to choose).
  _chooser(rep) {
    return rep.step === "choose" ? (rep.figure || rep.turn) : null;
  }

  render(view) {
    const st = view.state;
    const rep = st.report;
    if (this.shown !== this._chooser(rep)) this.shown = null; // chosen: face down again
    this._form(st.settings);
    this._status(rep);
    this._seats(rep);
    this._lines(rep);
    this._message(st);
    this._options(st);
    this._choice(rep, st.solo ? st.solo.ai : []);
    // The board's own players (offered once the game has one): what it asks, if anything.
    $("opponent").hidden = !st.board_players;
    $("board-asks").hidden = !(st.solo && st.solo.asks);
    $("board-asks").textContent = st.solo && st.solo.asks ? "The board: " + st.solo.asks : "";
    document.body.dataset.step = rep.step || "";
    document.body.dataset.turn = rep.turn || "";
  }

  _status(rep) {
    // Round 0 is the captains' placement, before the first round
    let line = `${rep.round ? `Round ${rep.round} of 8` : "Before round 1"} · ${rep.mode} · `;
    if (rep.phase === "over") line += "the game is over: won by " + rep.winner.join(" and ");
    else line += `${(rep.step || "").toUpperCase()} · ${rep.turn || "nobody"} to act`;
    $("status-line").textContent = line;
  }

  _seats(rep) {
    const body = $("seats");
    body.replaceChildren();
    const pal = this.geometry.palette;
    for (const [seat, where] of Object.entries(rep.captains).sort()) {
      // (MicroPython's dicts keep no order: seats in their order p1..p4)
      const tr = make("tr", { attrs: { id: "row-" + seat } });
      if (seat === rep.turn && rep.phase !== "over") tr.className = "on-turn";
      const name = make("td");
      const swatch = make("span", { cls: "swatch" });
      swatch.style.background = `rgb(${pal[seat].join(",")})`;
      name.append(swatch, seat);
      const crew = make("td", { cls: "crew" });
      for (const c of rep.crews[seat]) crew.append(chip(c, (n) => this.tap(n)));
      if (!rep.crews[seat].length) crew.append(make("span", { cls: "muted", text: "none" }));
      if (rep.played[seat].length) {
        crew.append(make("div", { cls: "played", text: "played " + rep.played[seat].join(" ") }));
      }
      tr.append(name, make("td", { text: where || "-" }), crew,
        make("td", { text: String(rep.scores[seat]), attrs: { id: "score-" + seat } }));
      body.appendChild(tr);
    }
  }

  _lines(rep) {
    const port = $("port");
    port.replaceChildren(make("span", { cls: "label", text: "Port: " }));
    for (const c of rep.port) port.append(chip(c, (n) => this.tap(n)));
    if (!rep.port.length) port.append(make("span", { cls: "muted", text: "empty" }));
    $("blackjack").textContent = rep.mode === "beginner" ? "" :
      `Black-Jack on ${rep.blackjack || "-"}` +
      (rep.bj_cards.length ? `; turned ${rep.bj_cards.join(" ")}` : "");
    const a = rep.auction;
    $("auction").textContent = a === null ? "" : `Auction (opened by ${a.opener}): ` +
      (a.words.map((w) => `${w.seat} ${w.card || "passes"}`).join(", ") || "no word yet") +
      (a.winner ? `; won by ${a.winner}` : "");
    const cards = Object.entries(rep.round_cards).sort();
    $("revealed").textContent = cards.length ? "Revealed: " + cards.map(([f, c]) =>
      `${f} ${c.card}${c.cancelled ? " (cancelled)" : ""}`).join(", ") : "";
  }

  _message(st) {
    const m = st.message;
    const box = $("message");
    box.className = "message " + m.kind;
    box.dataset.code = m.code || "";
    if (m.kind === "refused") {
      box.replaceChildren(make("strong", { text: `Refused (${m.code}): ` }), m.text);
    } else if (m.kind === "accepted") {
      box.replaceChildren(make("strong", { text: "Accepted" }), m.text ? `: ${m.text}.` : ".");
    } else {
      box.textContent = m.text;
    }
    $("hint").textContent = st.hint;
  }

  _options(st) {
    const box = $("options");
    box.replaceChildren();
    if (!st.ui.options.length) return;
    const list = make("div", { cls: "option-list" });
    st.ui.options.forEach((o, i) => {
      const b = make("button", { cls: "option" + (i === st.ui.sel ? " selected" : ""), text: o,
        attrs: { "data-option": o } });
      b.addEventListener("click", () => this.act(() => this.game.choose(o)));
      list.append(b);
    });
    box.append(make("span", { cls: "label", text: "Options:" }), list);
  }

  _choice(rep, boards) {
    const box = $("choice");
    const who = this._chooser(rep);
    box.hidden = who === null && rep.step !== "reveal";
    const cards = $("choice-cards");
    cards.replaceChildren();
    if (who === null) {
      cards.hidden = true;
      $("choice-cover").hidden = true;
      $("choice-title").textContent = rep.step === "reveal"
        ? `Every card is chosen (${rep.chosen}, face down): ok reveals them` : "";
      return;
    }
    const seat = rep.turn;
    const whose = who === "blackjack" ? "Black-Jack's" : `${seat}'s`;
    $("choice-title").textContent = `Secret choice: ${rep.chosen} chosen so far, face down`;
    if (boards.includes(seat)) { // the board's seat chooses by itself
      cards.hidden = true;
      $("choice-cover").hidden = true;
      $("choice-title").textContent = `The board (${seat}) chooses ${whose} card; ` +
        `${rep.chosen} chosen so far, face down`;
      return;
    }
    const shown = this.shown === who;
    $("choice-cover").hidden = shown;
    cards.hidden = !shown;
    if (!shown) {
      $("choice-text").textContent = `${cap(seat)} chooses ${whose} movement card. ` +
        `Pass the screen to ${seat}; the others look away. Then:`;
      $("choice-show").textContent = `Show ${whose} cards`;
      return;
    }
    for (const c of this.game.hand(who)) {
      cards.append(chip(c, (n) => this.tap(n), "card move"));
    }
  }
}

export function mount({ game, geometry, onError }) {
  const panel = new Panel(game, geometry, onError);
  mountRemote({ runtime: game.rt, game: "halunken", onError,
    makeView: (table) => new HalunkenRemote(table, geometry) });
  const ring = new RingView($("board"), geometry, {
    onTavern: (id) => panel.act(() => game.choose(id)),
  });
  const draw = (view) => ring.draw({ leds: view.leds, report: view.state.report });
  return {
    render(view) {
      panel.render(view);
      draw(view);
    },
    draw,
  };
}
