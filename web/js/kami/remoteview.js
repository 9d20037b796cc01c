// Kami's view of a game across tables (../remote.js holds the connection and the panel):
// the card table (./table.js, the page's own) drawn from the public state (face-down cards
// as backs: the public state never names them, K6), its lights from it (the seats to act,
// the defences down or up, the centre's stacks, the scores), each seat's hand size and
// lines, the attack to answer, the scores and the last scored round (K21 names its final
// defence), this seat's hand and its own face-down defences (its own table's knowledge:
// the dealer tells this page alone), and the moves and events in words. A face-down
// defence goes to the dealer alone (this page's move topic). A card clicked in the hand
// makes the one move open with it (a defence, an attack, a counter, a Soldier shown).

import { $, make } from "../dom.js";
import { TableView } from "./table.js";

const WORDS = { pass: "pass", back: "take back", claim: "claim with five Soldiers (K11)",
  shown: "done showing", withdraw: "withdraw the claim", cancel: "cancel the round",
  keep: "keep the round" };

export class KamiRemote {
  constructor(table, geometry) {
    this.table = table;
    this.g = geometry;
    this.view = new TableView($("remote-board"), geometry);
    $("remote-board").classList.add("table");
  }

  settings(f) {
    return { seat: f.seat.value, settings: { players: parseInt(f.players.value, 10),
      mode: f.mode.value, target: parseInt(f.target.value, 10), first: f.first.value } };
  }

  describe(action) {
    const [name, card] = action;
    switch (name) {
      case "defend": return `defend with ${card} (face down)`;
      case "attack": return `attack with ${card}`;
      case "counter": return `counter with ${card}`;
      case "show": return `show ${card}`;
      default: return WORDS[name] || action.join(" ");
    }
  }

  eventText([seq, actor, action]) {
    const [name, card] = action;
    const said = {
      deal: `deals round ${card}`, defend: "lays a defence face down",
      attack: `attacks with ${card}`, counter: `counters with ${card}`, pass: "passes",
      back: "takes back", claim: "claims with five Soldiers (K11)", show: `shows ${card}`,
      shown: "has shown the Soldiers", withdraw: "withdraws the claim",
      cancel: "cancels the round", keep: "keeps the round",
    }[name] || action.join(" ");
    return `${seq}: ${actor || "the dealer"} ${said}`;
  }

  status(v) {
    const r = v.public;
    const s = r.settings;
    let line = `Round ${r.round} · ${s.mode} to ${s.target} · `;
    if (r.phase === "over" || v.over) return line + `the game is over: won by ${r.winner}`;
    line += r.phase === "claim" ? `5-SOLDIER CLAIM · ${r.turn} to act`
      : `${(r.step || r.phase).toUpperCase()} · ${r.turn} to act`;
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
      const b = make("button", { cls: "chip card kami", text: c, attrs: { "data-card": c } });
      b.addEventListener("click", () => {
        const open = this.table.current.options.filter((o) => o.length === 2 && o[1] === c);
        if (open.length === 1) this.table.tryMove(open[0]);
      });
      hand.append(b);
    }
    if (!(v.hand || []).length) hand.append(make("span", { cls: "muted", text: "no cards" }));
    const down = (v.own && v.own.defence_down) || [];
    $("remote-own").textContent = down.length
      ? `Your face-down defence (the others see its back): ${down.join(" ")}` : "";
    if (r) this.view.draw({ leds: this.frame(r), report: r });
    const info = $("remote-info");
    const table = $("remote-table");
    if (!r) {
      info.replaceChildren();
      table.replaceChildren();
      return;
    }
    const rows = make("tbody");
    const text = (e) => (e.face === "up" ? e.card : "##") + (e.from === "centre" ? "*" : "");
    for (const seat of Object.keys(r.hand_sizes).sort()) {
      const tr = make("tr", { attrs: { id: "remote-row-" + seat } });
      if (seat === r.turn && r.phase !== "over") tr.className = "on-turn";
      const line = r.lines[seat];
      tr.append(make("td", { text: seat + (seat === v.seat ? " (you)" : "") }),
        make("td", { text: String(r.hand_sizes[seat]) }),
        make("td", { cls: "line", text: line.defence.map(text).join(" ") || "-" }),
        make("td", { cls: "line", text: line.attack.map(text).join(" ") || "-" }),
        make("td", { text: String(r.scores[seat] === undefined ? "" : r.scores[seat]) }));
      rows.append(tr);
    }
    const t = make("table", { cls: "players seats lines" });
    t.innerHTML = "<thead><tr><th></th><th>hand</th><th>defence</th><th>attack</th>" +
      "<th>score</th></tr></thead>";
    t.append(rows);
    info.replaceChildren(t);
    const lines = [];
    const a = r.attack;
    lines.push(a === null ? "No attack yet this round." : `Attack to answer: ${a.card} by ` +
      `${a.seat}` + (r.passed.length ? `; passed: ${r.passed.join(" ")}` : ""));
    const scores = Object.entries(r.scores).sort();
    lines.push("Scores: " + scores.map(([s, n]) => `${s} ${n}`).join(", "));
    const last = r.rounds[r.rounds.length - 1];
    if (last) {
      lines.push(`Round ${last.round}: ${last.seat} ended with ${last.card} over ` +
        `${last.defence ? last.defence.card : "no defence"}${last.doubled ? " (doubled)" : ""}` +
        `, ${last.points} point${last.points === 1 ? "" : "s"}`);
    }
    if (r.claim) lines.push(`Claim by ${r.claim.seat} (${r.claim.step})`);
    table.replaceChildren(make("h2", { text: "The table" }),
      ...lines.map((l) => make("p", { cls: "muted", text: l })));
  }

  // The table's lights from the public state (a drawing of it: the board's frame is not
  // sent).
  frame(r) {
    const pal = this.g.palette;
    const dim = (c, k = 1) => c.map((x) => Math.round(x * this.g.brightness * k));
    const leds = Array.from({ length: this.g.led_count }, () => [0, 0, 0]);
    const side = (s) => (r.players === 4 ? (s === "p1" || s === "p3" ? "team1" : "team2") : s);
    for (const s of this.g.seats) {
      const line = r.lines[s.id];
      if (!line) continue;
      if (s.id === r.turn && r.phase !== "over") leds[s.led] = dim(pal[side(s.id)]);
      const d = line.defence[line.defence.length - 1];
      if (d) leds[s.defence_led] = dim(pal[d.face === "up" ? "defence_up" : "defence_down"]);
    }
    if (r.empress_unlocked) leds[this.g.empress.led] = dim(pal.empress);
    (r.centre || []).forEach((c, i) => {
      if (c.left && this.g.stacks[i]) leds[this.g.stacks[i].led] = dim(pal.centre, c.up ? 1 : 0.4);
    });
    Object.entries(r.scores).sort().forEach(([s, n], ti) => {
      const track = this.g.tracks[ti] || [];
      track.forEach((p, k) => {
        if (k < n) leds[p.led] = dim(pal[side(s)]);
      });
    });
    return leds;
  }
}
