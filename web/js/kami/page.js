// Kami's part of the page (index.html's <template data-game="kami">): the card table
// (table.js), the hand of the seat the board waits for, and the panel: who acts and what
// for, the current attack, the scores, each seat's hand size and lines, the last message,
// the board's buttons (done, back, discard, next, prev, ok) and the claimant's seats in a
// 5-Soldier claim, the new-game form (its "the board plays" only once the game has the
// board's own player: state.board_players).
//
// Hot seat: a hand stays covered until its seat asks to see it ("Show p2's hand"); it is
// covered again as soon as the board waits for another seat. The page asks for a hand
// (game.hand) only then, and never for a seat the board plays; the state never holds one
// (host_tools/games/kami/webgame.py).

import { $, make, showSettings } from "../dom.js";
import { mountRemote } from "../remote.js";
import { TableView } from "./table.js";
import { KamiRemote } from "./remoteview.js";

const BUTTONS = ["done", "back", "discard", "prev", "next", "ok"];

function chip(name, onClick, cls = "") {
  const b = make("button", { cls: "chip " + cls, text: name, attrs: { "data-card": name } });
  b.addEventListener("click", () => onClick(name));
  return b;
}

function cardText(e) {
  return (e.face === "up" ? e.card : "##") + (e.from === "centre" ? "*" : "");
}

class Panel {
  constructor(game, geometry, onError) {
    this.game = game;
    this.geometry = geometry;
    this.onError = onError;
    this.shown = null; // the seat whose hand is shown: the acting seat asked to see it
    for (const name of BUTTONS) {
      const b = make("button", { cls: "hw", text: name, attrs: { id: "btn-" + name } });
      b.addEventListener("click", () => this.act(() => game.press(name)));
      $("buttons").appendChild(b);
    }
    $("hand-show").addEventListener("click", () => {
      this.shown = game.view.state.acting;
      this.render(game.view);
    });
    $("new-game").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const f = ev.target;
      const options = [`players=${f.players.value}`, `first=${f.first.value}`,
        `mode=${f.mode.value}`, `target=${f.target.value}`];
      if (!$("opponent").hidden && f.ai.value !== "none") options.push(`ai=${f.ai.value}`);
      const seed = f.seed.value.trim();
      this.shown = null;
      this.act(() => (seed ? game.newGame(options, parseInt(seed, 10)) : game.newGame(options)));
    });
  }

  // The new-game form shows the settings in force (a new game, a reload).
  _form(s) {
    const text = JSON.stringify(s || null);
    if (!s || text === this.formFor) return;
    this.formFor = text;
    showSettings($("new-game"), { players: String(s.players), first: s.first, mode: s.mode,
      target: String(s.target), ai: s.ai && s.ai.length ? s.ai.join(",") : "none" });
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

  render(view) {
    const st = view.state;
    const rep = st.report;
    this._form(st.settings);
    const boards = st.solo ? st.solo.ai : [];
    if (this.shown !== st.acting || boards.includes(st.acting)) this.shown = null;
    this._status(st);
    this._seats(rep, st.acting);
    this._message(st);
    this._claim(rep);
    this._hand(st, boards);
    $("opponent").hidden = !st.board_players;
    $("board-asks").hidden = !(st.solo && st.solo.asks);
    $("board-asks").textContent = st.solo && st.solo.asks ? "The board: " + st.solo.asks : "";
    document.body.dataset.step = rep.step || rep.phase;
    document.body.dataset.acting = st.acting || "";
  }

  _status(st) {
    const rep = st.report;
    let line = `Round ${rep.round} · ${rep.mode} to ${rep.target} · `;
    if (rep.phase === "over") line += `the game is over: won by ${rep.winner}`;
    else if (rep.phase === "claim") line += `5-SOLDIER CLAIM · ${st.acting} to act`;
    else line += `${(rep.step || rep.phase).toUpperCase()} · ${st.acting} to act`;
    $("status-line").textContent = line;
    const a = rep.attack;
    $("attack").textContent = a === null ? "No attack yet this round." :
      `Attack to answer: ${a.card} by ${a.seat}` +
      (rep.passed.length ? `; passed: ${rep.passed.join(" ")}` : "") +
      (rep.empress_unlocked ? " · Empress unlocked" : " · Empress locked");
    const scores = Object.entries(rep.scores).sort(); // (MicroPython: no order)
    $("scores").textContent = "Scores: " + scores.map(([s, n]) => `${s} ${n}`).join(", ");
    const last = rep.rounds[rep.rounds.length - 1];
    $("rounds").textContent = last ? `Round ${last.round}: ${last.seat} ended with ${last.card}` +
      ` over ${last.defence ? last.defence.card : "no defence"}` +
      `${last.doubled ? " (doubled)" : ""}, ${last.points} point${last.points === 1 ? "" : "s"}` : "";
  }

  _seats(rep, acting) {
    const body = $("seats");
    body.replaceChildren();
    const pal = this.geometry.palette;
    for (const seat of Object.keys(rep.hand_sizes).sort()) {
      const tr = make("tr", { attrs: { id: "row-" + seat } });
      if (seat === acting && rep.phase !== "over") tr.className = "on-turn";
      const name = make("td");
      const swatch = make("span", { cls: "swatch" });
      const side = rep.players === 4 ? (seat === "p1" || seat === "p3" ? "team1" : "team2") : seat;
      swatch.style.background = `rgb(${pal[side].join(",")})`;
      name.append(swatch, seat);
      const line = rep.lines[seat];
      tr.append(name, make("td", { text: String(rep.hand_sizes[seat]), attrs: { id: "size-" + seat } }),
        make("td", { cls: "line", text: line.defence.map(cardText).join(" ") || "-" }),
        make("td", { cls: "line", text: line.attack.map(cardText).join(" ") || "-" }));
      body.appendChild(tr);
    }
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

  // A claim's first step: the claimant is chosen by clicking its seat (pick).
  _claim(rep) {
    const box = $("claim");
    box.replaceChildren();
    const c = rep.claim;
    if (c === null) return;
    box.append(make("span", { cls: "label", text: `Claim by ${c.seat} (${c.step})` +
      (c.soldiers.length ? `: ${c.soldiers.join(" ")}` : "") + " " }));
    if (c.step !== "seat") return;
    for (const seat of Object.keys(rep.hand_sizes).sort()) {
      const b = make("button", { cls: "option" + (seat === c.seat ? " selected" : ""),
        text: seat, attrs: { "data-seat": seat } });
      b.addEventListener("click", () => this.act(() => this.game.pickSeat(seat)));
      box.append(b);
    }
  }

  _hand(st, boards) {
    const rep = st.report;
    const seat = st.acting;
    const cards = $("hand");
    const centre = $("centre-cards");
    cards.replaceChildren();
    centre.replaceChildren();
    const ups = (rep.centre || []).map((s) => s.up).filter((c) => c);
    $("centre-area").hidden = rep.centre === null || rep.phase === "over";
    for (const c of ups) centre.append(chip(c, (n) => this.tap(n), "card kami"));
    if (seat === null || rep.phase === "over") {
      $("hand-title").textContent = "Hand";
      cards.hidden = true;
      $("hand-cover").hidden = true;
      return;
    }
    if (boards.includes(seat)) {
      $("hand-title").textContent = `The board plays ${seat}`;
      cards.hidden = true;
      $("hand-cover").hidden = true;
      return;
    }
    const shown = this.shown === seat;
    $("hand-title").textContent = `${seat}'s hand`;
    $("hand-cover").hidden = shown;
    cards.hidden = !shown;
    if (!shown) {
      $("cover-text").textContent = `Pass the screen to ${seat}; the others look away. Then:`;
      $("hand-show").textContent = `Show ${seat}'s hand`;
      return;
    }
    for (const c of this.game.hand(seat)) cards.append(chip(c, (n) => this.tap(n), "card kami"));
  }
}

export function mount({ game, geometry, onError }) {
  const panel = new Panel(game, geometry, onError);
  mountRemote({ runtime: game.rt, game: "kami", onError,
    makeView: (table) => new KamiRemote(table, geometry) });
  const table = new TableView($("board"), geometry);
  const draw = (view) => table.draw({ leds: view.leds, report: view.state.report });
  return {
    render(view) {
      panel.render(view);
      draw(view);
    },
    draw,
  };
}
