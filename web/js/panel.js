// Everything around the board: the game's status and score, the last message (a refusal
// explained), what to do next, the open option list, the six buttons, the cards on the
// table and the hand of the player on turn, hidden until that player asks to see it (two
// players share the screen), and the new-game settings. In a game against the board
// (state.solo) the hand shown is always the player's own; the board's hand is a count only
// (the page cannot even ask for it) and its card procedure is told in words.

import { $, BUTTONS, PLAYERS, cap, make, playerRows, setForm } from "./dom.js";

function card(name, { cls = "", onClick = null, title = "" } = {}) {
  const [island, n] = name.split("-");
  const b = make("button", { cls: "card " + cls, attrs: { "data-card": name, title } });
  b.append(make("span", { cls: "island", text: island }), make("span", { cls: "n", text: n }));
  if (onClick) b.addEventListener("click", () => onClick(name));
  else b.disabled = true;
  return b;
}

export class Panel {
  constructor(game, geometry, { onError }) {
    this.game = game;
    this.geometry = geometry;
    this.onError = onError;
    this.revealed = null; // the player who asked to see their hand, until the turn passes
    this.hand = [];
    const buttons = $("buttons");
    for (const name of BUTTONS) {
      const b = make("button", { cls: "hw", text: name, attrs: { id: "btn-" + name } });
      b.addEventListener("click", () => this.act(() => game.press(name)));
      buttons.appendChild(b);
    }
    // back held down: take back whole turns (games.kahuna.takeback, R12)
    const hold = make("button", { cls: "hw hold", text: "take back",
      attrs: { id: "btn-takeback", title: "back held down: take back the last whole turn" } });
    hold.addEventListener("click", () => this.act(() => game.takeBack()));
    buttons.appendChild(hold);
    $("reveal").addEventListener("click", () => {
      this.revealed = this.game.view.state.report.turn;
      this.render(this.game.view);
    });
    $("deck").addEventListener("click", () => this.act(() => game.deck()));
    $("new-game").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const f = ev.target;
      const options = [`variant=${f.variant.value}`, `first=${f.first.value}`,
        `handicap=${f.handicap.value}`, `ai=${f.ai.value}`];
      if (f.ai.value !== "none" && f.ai_level.value !== "default") {
        options.push(`ai_level=${f.ai_level.value}`);
      }
      const seed = f.seed.value.trim();
      this.revealed = null;
      this.act(() => (seed ? game.newGame(options, parseInt(seed, 10)) : game.newGame(options)));
    });
  }

  act(fn) {
    try {
      fn();
    } catch (e) {
      this.onError(e);
    }
  }

  render(view) {
    const st = view.state;
    const rep = st.report;
    if (st.solo) {
      this.revealed = rep.phase === "over" ? null : st.solo.human; // nobody else looks
    } else if (this.revealed && (this.revealed !== rep.turn || rep.phase === "over")) {
      this.revealed = null; // the turn has passed: the hand goes face down
    }
    this.hand = this.revealed ? this.game.hand(this.revealed) : [];
    this._form(st.settings);
    this._status(st);
    this._message(st);
    this._solo(st);
    this._options(st);
    this._table(st);
    this._hand(st);
    document.body.dataset.phase = rep.phase;
    document.body.dataset.turn = rep.turn;
  }

  // The new-game form shows the settings in force, each time they change (a new game, a
  // reload), so a new game changes only what the player changes.
  _form(settings) {
    const text = JSON.stringify(settings || null);
    if (!settings || text === this.formFor) return;
    this.formFor = text;
    setForm($("new-game"), settings);
  }

  _status(st) {
    const rep = st.report;
    let line = `Round ${rep.round} of 3 · ${rep.phase.toUpperCase()}`;
    if (rep.phase === "over") {
      line += " · " + (rep.winner === "draw" ? "a draw" : `${cap(rep.winner)} wins`);
    } else {
      const verb = { deal: "is dealt", handicap: "places handicap bridges", draw: "draws" };
      line += ` · ${cap(rep.turn)} ${verb[rep.phase] || "to play"}`;
    }
    const flags = [];
    if (st.ui.discarding) flags.push("DISCARD MODE");
    if (rep.final_turns && rep.phase !== "over") flags.push("FINAL TURNS");
    if (rep.must_draw) flags.push("MUST DRAW");
    $("status-line").textContent = line;
    $("flags").textContent = flags.join(" · ");
    playerRows($("players"), rep, this.geometry.palette,
               st.solo ? (p) => (p === st.solo.ai ? " (board)" : " (you)") : null);
    $("rounds").textContent = rep.round_scores.length
      ? "Scorings: " + rep.round_scores.map((r) => `${r.white}–${r.black}`).join(" · ") +
        " (white–black)"
      : "No round scored yet";
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

  _solo(st) {
    const box = $("ai-log");
    box.replaceChildren();
    box.hidden = !st.solo;
    if (!st.solo) return;
    const lines = st.solo.did.map((w) => cap(w));
    if (st.solo.asks) lines.push("Board: " + st.solo.asks);
    if (!lines.length) lines.push(`The board plays ${st.solo.ai}: nothing done since your last move.`);
    box.append(make("strong", { text: "The board's side: " }));
    const list = make("ul");
    for (const l of lines) list.append(make("li", { text: l }));
    box.append(list);
  }

  _options(st) {
    const box = $("options");
    box.replaceChildren();
    const ui = st.ui;
    if (ui.pending.length || ui.picked) {
      let text = "Pending: " + ui.pending.join(" + ");
      if (ui.picked) text += `, waiting for a second card to remove ${ui.picked}`;
      box.append(make("p", { cls: "pending", text }));
    }
    if (!ui.options.length) return;
    const list = make("div", { cls: "option-list" });
    ui.options.forEach((o, i) => {
      const kind = { remove: " (remove)", refill: " (free refill)" }[o.kind] || "";
      const b = make("button", { cls: "option" + (i === ui.sel ? " selected" : ""),
        text: o.conn + kind, attrs: { "data-conn": o.conn } });
      b.addEventListener("click", () => this.act(() => this.game.pick(o.conn)));
      list.append(b);
    });
    box.append(make("span", { cls: "label", text: "Options:" }), list);
  }

  _table(st) {
    const t = st.table;
    const dealing = st.report.phase === "deal";
    $("deck-count").textContent = dealing ? `deal (${t.deck})` : `${t.deck} left`;
    $("pile").textContent = `Discard pile: ${t.pile}`;
    const display = $("display");
    display.replaceChildren();
    for (const name of t.display) {
      display.append(card(name, { cls: "face-up",
        onClick: (c) => this.act(() => this.game.take(c)), title: "take this face-up card" }));
    }
    if (!t.display.length) {
      display.append(make("span", { cls: "muted",
        text: dealing ? "laid out after the deal" : "none" }));
    }
  }

  _hand(st) {
    const rep = st.report;
    const turn = st.solo ? st.solo.human : rep.turn;
    const n = rep.hand_sizes[turn];
    const cover = $("hand-cover");
    const hand = $("hand");
    hand.replaceChildren();
    $("hand-title").textContent = (st.solo ? `Your hand (${turn}, ` : `${cap(turn)}'s hand (`) +
      `${n} card${n === 1 ? "" : "s"}, 5 at most)`;
    const shown = this.revealed === turn && rep.phase !== "over";
    cover.hidden = shown || rep.phase === "over";
    hand.hidden = !shown;
    if (!shown) {
      $("cover-text").textContent = `${cap(turn)}'s cards are face down. ` +
        `Pass the screen to ${cap(turn)}, then:`;
      $("reveal").textContent = `Show ${cap(turn)}'s hand`;
      return;
    }
    const pending = new Set(st.ui.pending);
    for (const name of this.hand) {
      hand.append(card(name, { cls: pending.has(name) ? "pending" : "",
        onClick: (c) => this.act(() => this.game.play(c)), title: "tap this card" }));
    }
    if (!this.hand.length) hand.append(make("span", { cls: "muted", text: "no cards" }));
  }
}
