// Halunken & Spelunken's view of a game across tables (../remote.js holds the connection
// and the panel): the ring (./ring.js, the page's own) lit from the public state (the
// captains' spaces in their seats' colours, Black-Jack's, the piles by the cards left, the
// seats to act, the rounds played), the seats' taverns, crews, played cards and scores,
// the port, the auction, the round's secret choice (who has committed, who has revealed:
// never a card before the dealer opens them all, H7), this seat's movement cards left, and
// the moves and events in words. A space clicked on the ring places there when that is
// a move open now; a movement card clicked in the hand is the seat's choice (committed).

import { $, make } from "../dom.js";
import { RingView } from "./ring.js";

const FIGURE = (f) => (f === "blackjack" ? "Black-Jack" : f);

export class HalunkenRemote {
  constructor(table, geometry) {
    this.table = table;
    this.g = geometry;
    this.ring = new RingView($("remote-board"), geometry, {
      onTavern: (id) => {
        const v = this.table.current;
        const there = v ? v.options.filter((o) => o[0].startsWith("place") && o[1] === id) : [];
        if (there.length === 1) this.table.tryMove(there[0]);
      },
    });
    $("remote-board").classList.add("ring");
  }

  settings(f) {
    const settings = { players: parseInt(f.players.value, 10), first: f.first.value };
    if (f.mode.value) settings.mode = f.mode.value;
    return { seat: f.seat.value, settings };
  }

  describe(action) {
    const [name, ...a] = action;
    switch (name) {
      case "place": return `captain to ${a[0]}`;
      case "place_bj": return `Black-Jack to ${a[0]}`;
      case "offer": return `offer ${a[0]}`;
      case "pass": return "pass";
      case "rum": return `RUM counts ${a[0]}`;
      case "steal": return a[0] === "none" ? "steal nothing" : `steal ${a[0]}`;
      case "rob": return a[0] === "none" ? "rob nothing" : `rob ${a[0]}`;
      case "commit": return a[0] === "blackjack" ? `Black-Jack's card: ${a[1]}`
        : `movement card ${a[1]}`;
      default: return action.join(" ");
    }
  }

  eventText([seq, actor, action]) {
    const who = actor || "the dealer";
    const [name, ...a] = action;
    let text;
    switch (name) {
      case "commit": text = a[0] === actor ? "has chosen a movement card (face down, committed)"
        : `has chosen ${FIGURE(a[0])}'s card (face down, committed)`; break;
      case "reveal": text = "has every commitment: reveal"; break;
      case "revealed": text = `revealed ${FIGURE(a[0])}'s card to the dealer`; break;
      case "open": text = `opens ${FIGURE(a[0])}'s card: ${a[1]}`; break;
      case "place": text = `places the captain on ${a[0]}`; break;
      case "place_bj": text = `places Black-Jack on ${a[0]}`; break;
      default: text = this.describe(action);
    }
    return `${seq}: ${who} ${text}`;
  }

  status(v) {
    const r = v.public;
    // Round 0 is the captains' placement, before the first round
    let line = `${r.round ? `Round ${r.round} of 8` : "Before round 1"} · ${r.mode} · `;
    if (r.phase === "over" || v.over) {
      return line + "the game is over: won by " + (r.winner || []).join(" and ");
    }
    if (r.secret) {
      const waiting = r.secret.reveal ? "reveal" : "choose";
      line += `every seat ${waiting}s its movement card`;
    } else {
      line += `${(r.step || "").toUpperCase()} · ${r.turn || "nobody"} to act`;
    }
    return line + (this.mine(v) ? " · your move" : "");
  }

  mine(v) {
    return v.options.length > 0 || v.asked;
  }

  marked() {
    return false;
  }

  render(v) {
    const r = v.public;
    const hand = $("remote-hand");
    hand.replaceChildren();
    for (const c of v.hand || []) { // a card clicked: the one move open with it, if one
      const b = make("button", { cls: "chip card move", text: c, attrs: { "data-card": c } });
      b.addEventListener("click", () => {
        const open = this.table.current.options.filter((o) => o[0] === "commit"
          && o[1] !== "blackjack" && o[2] === c);
        if (open.length === 1) this.table.tryMove(open[0]);
      });
      hand.append(b);
    }
    if (!(v.hand || []).length) hand.append(make("span", { cls: "muted", text: "no cards" }));
    $("remote-own").textContent = "";
    this.ring.draw({ leds: this.frame(r), report: r || {} });
    const info = $("remote-info");
    const table = $("remote-table");
    if (!r) {
      info.replaceChildren();
      table.replaceChildren();
      return;
    }
    const rows = make("tbody");
    for (const [seat, where] of Object.entries(r.captains).sort()) {
      const tr = make("tr", { attrs: { id: "remote-row-" + seat } });
      if (seat === r.turn && r.phase !== "over") tr.className = "on-turn";
      const name = make("td");
      const swatch = make("span", { cls: "swatch" });
      swatch.style.background = `rgb(${this.g.palette[seat].join(",")})`;
      name.append(swatch, seat + (seat === v.seat ? " (you)" : ""));
      tr.append(name, make("td", { text: where || "-" }),
        make("td", { cls: "crew", text: r.crews[seat].join(" ") || "none" }),
        make("td", { text: r.played[seat].join(" ") || "-" }),
        make("td", { text: String(r.scores[seat]) }));
      rows.append(tr);
    }
    const t = make("table", { cls: "players seats" });
    t.innerHTML = "<thead><tr><th></th><th>tavern</th><th>crew</th><th>played</th>" +
      "<th>score</th></tr></thead>";
    t.append(rows);
    info.replaceChildren(t);
    const lines = [`Port: ${r.port.join(" ") || "empty"}`];
    if (r.mode !== "beginner") {
      lines.push(`Black-Jack on ${r.blackjack || "-"}` +
        (r.bj_cards.length ? `; turned ${r.bj_cards.join(" ")}` : ""));
    }
    const a = r.auction;
    if (a) {
      lines.push(`Auction (opened by ${a.opener}): ` +
        (a.words.map((w) => `${w.seat} ${w.card || "passes"}`).join(", ") || "no word yet") +
        (a.winner ? `; won by ${a.winner}` : ""));
    }
    const s = r.secret;
    if (s) {
      const figs = Object.keys(s.figures).sort().map(FIGURE);
      lines.push(`Secret choice (${figs.join(", ")}): committed ${s.committed.map(FIGURE)
        .join(" ") || "none yet"}` + (s.reveal ? `; revealed ${s.revealed.map(FIGURE)
        .join(" ") || "none yet"}` : ""));
    }
    const cards = Object.entries(r.round_cards).sort();
    if (cards.length) {
      lines.push("Opened: " + cards.map(([f, c]) =>
        `${FIGURE(f)} ${c.card}${c.cancelled ? " (cancelled)" : ""}`).join(", "));
    }
    table.replaceChildren(make("h2", { text: "The table" }),
      ...lines.map((l) => make("p", { cls: "muted", text: l })));
  }

  // The ring's lights from the public state (the board's own frame is not sent: a
  // drawing of what the public state says).
  frame(r) {
    const pal = this.g.palette;
    const dim = (c, k = 1) => c.map((x) => Math.round(x * this.g.brightness * k));
    const leds = Array.from({ length: this.g.led_count }, () => [0, 0, 0]);
    if (!r) return leds;
    const on = {};
    for (const [seat, where] of Object.entries(r.captains)) if (where) on[where] = seat;
    if (r.blackjack) on[r.blackjack] = on[r.blackjack] || "blackjack";
    for (const t of this.g.taverns) {
      if (on[t.id]) leds[t.space_led] = dim(pal[on[t.id]]);
      const left = (r.taverns[t.id] || {}).left || 0;
      if (left) leds[t.pile_led] = dim(pal.pile, left / 3);
    }
    const acting = r.secret ? Object.values(r.secret.figures) : [r.turn];
    for (const s of this.g.seats) {
      if (s.id in r.captains && acting.includes(s.id)) leds[s.led] = dim(pal[s.id]);
    }
    if (r.port.length) leds[this.g.port.led] = dim(pal.port);
    this.g.rounds.forEach((x, i) => {
      if (i + 1 <= r.round) leds[x.led] = dim(pal.round, i + 1 === r.round ? 1 : 0.4);
    });
    return leds;
  }
}


