// Kami's card table, lit by an LED frame. The layout is host_tools/games/kami/picture.py's
// (boards/kami.json: the backdrop SVG and where each light goes); this module colours the
// lights and lays out what the public report says: each seat's name and hand size, its
// lines as small cards (a face-down card as a back: the report never names it), the
// centre's face-up cards and the scores by the tracks.
//
//   const table = new TableView(svgElement, geometry);
//   table.draw({ leds: [[r, g, b], ...], report });

import { fullLevel, hex } from "../colours.js";

const NS = "http://www.w3.org/2000/svg";

function el(tag, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// `IMPERATRICE-1` -> `IMP-1`, as the picture writes a card on the table.
export function shortName(card, geometry) {
  const i = card.lastIndexOf("-");
  const kind = card.slice(0, i);
  return (geometry.short[kind] || kind) + card.slice(i);
}

export class TableView {
  constructor(svg, geometry) {
    this.g = geometry;
    this.known = Object.entries(geometry.palette).filter(([, c]) => c[0] || c[1] || c[2]);
    const st = geometry.style;
    svg.setAttribute("viewBox", `0 0 ${geometry.width} ${geometry.height}`);
    svg.innerHTML = geometry.backdrop;
    const layer = el("g", { class: "lights" }, svg);
    this.words = el("g", { class: "words", "font-family": st.font }, svg);
    this.seats = geometry.seats.map((s) => ({
      s,
      light: el("circle", { id: "seat-" + s.id, cx: s.light[0], cy: s.light[1], r: st.seat_r },
        layer),
      defence: el("circle", { id: "defence-" + s.id, cx: s.defence[0], cy: s.defence[1],
        r: st.defence_r }, layer),
    }));
    this.empress = el("circle", { id: "empress", cx: geometry.empress.x, cy: geometry.empress.y,
      r: st.empress_r }, layer);
    this.stacks = geometry.stacks.map((p, i) => el("circle", { id: "stack-" + (i + 1), cx: p.x,
      cy: p.y, r: st.stack_r }, layer));
    this.tracks = geometry.tracks.map((t, ti) => t.map((p, k) => el("circle", {
      id: `track-t${ti + 1}-${k + 1}`, cx: p.x, cy: p.y, r: st.track_r }, layer)));
  }

  // `prefer`: palette names to try first (white is a face-up defence's and the cursor's; a
  // seat's colour is its team's too), so that a light is named as it is meant.
  _paint(e, raw, bright = true, prefer = []) {
    const known = prefer.length ? [...this.known.filter(([n]) => prefer.includes(n)),
      ...this.known.filter(([n]) => !prefer.includes(n))] : this.known;
    const { rgb, name } = fullLevel(raw, this.g, known);
    const st = this.g.style;
    e.dataset.colour = name || hex(rgb);
    if (name === "off") {
      e.setAttribute("fill", st.off);
      e.setAttribute("stroke", "#9aa3ad");
      e.setAttribute("stroke-dasharray", "4 3");
      return;
    }
    // A passed seat or a stack's last card is dim on the board: shown at 40% of its
    // palette colour, as the picture draws it; a pulsing seat at its palette colour,
    // whatever the pulse's level now.
    const full = name && this.g.palette[name] ? this.g.palette[name] : rgb;
    const level = Math.max(...raw) / this.g.brightness / Math.max(1, ...full);
    const shown = bright || level >= 0.45 ? full : full.map((c) => c * 0.4);
    e.setAttribute("fill", hex(shown));
    e.setAttribute("stroke", st.ink);
    e.setAttribute("stroke-width", 2.5);
    e.removeAttribute("stroke-dasharray");
  }

  _text(x, y, s, attrs = {}) {
    const t = el("text", { x, y, fill: this.g.style.paper, ...attrs }, this.words);
    t.textContent = s;
    return t;
  }

  _card(x, y, entry, current) {
    const st = this.g.style;
    const w = st.card_w;
    const h = st.card_h;
    if (entry.face === "down") {
      el("rect", { x, y, width: w, height: h, rx: 4, fill: st.back, stroke: st.paper,
        "stroke-width": 1.5, "data-face": "down", class: "card-back" }, this.words);
      return;
    }
    el("rect", { x, y, width: w, height: h, rx: 4, fill: st.paper,
      stroke: current ? st.gold : st.ink, "stroke-width": current ? 3 : 1.2,
      "stroke-dasharray": entry.from === "centre" ? "4 2" : "none", "data-face": "up",
      "data-card": entry.card }, this.words);
    this._text(x + w / 2, y + h / 2 + 4, shortName(entry.card, this.g), { fill: st.navy,
      "font-size": 11, "font-weight": "bold", "text-anchor": "middle" });
  }

  _places(s, count, which) {
    const st = this.g.style;
    const [x, y] = which === "defence" ? s.defence : s.light;
    const r = which === "defence" ? st.defence_r : st.seat_r;
    const out = [];
    for (let k = 0; k < count; k++) {
      if (s.run === "right") out.push([x + r + 10 + k * (st.card_w + st.card_gap), y - st.card_h / 2]);
      else out.push([x - st.card_w / 2, y + r + 10 + k * (st.card_h + st.card_gap)]);
    }
    return out;
  }

  draw({ leds, report }) {
    this.words.replaceChildren();
    const sizes = report.hand_sizes || {};
    const sides = report.players === 4 ? ["team1", "team2"] : ["p1", "p2", "p3", "p4"];
    for (const { s, light, defence } of this.seats) {
      this._paint(light, leds[s.led], s.id === report.turn, sides);
      this._paint(defence, leds[s.defence_led], true, ["defence_down", "defence_up"]);
      const playing = s.id in sizes;
      const anchor = s.run === "right" ? "end" : "middle";
      this._text(s.label[0], s.label[1] + 2, s.id, { "font-size": 18, "font-weight": "bold",
        "text-anchor": anchor, fill: playing ? this.g.style.paper : "#7f9c86" });
      if (!playing) continue;
      this._text(s.label[0], s.label[1] + 18, `${sizes[s.id]} in hand`, { "font-size": 11,
        "text-anchor": anchor });
      const line = report.lines[s.id];
      for (const which of ["defence", "attack"]) {
        const cards = line[which];
        this._places(s, cards.length, which).forEach(([x, y], k) => {
          const a = report.attack;
          const current = which === "attack" && k === cards.length - 1 && a !== null &&
            a.seat === s.id && a.card === cards[k].card;
          this._card(x, y, cards[k], current);
        });
      }
    }
    this._paint(this.empress, leds[this.g.empress.led]);
    const centre = report.centre;
    this.g.stacks.forEach((p, i) => {
      this._paint(this.stacks[i], leds[p.led], false);
      if (!centre) return;
      if (centre[i].up) {
        this._text(p.x, p.y + this.g.style.stack_r + 16, shortName(centre[i].up, this.g), {
          "font-size": 10, "font-weight": "bold", "text-anchor": "middle" });
      }
      this._text(p.x, p.y + this.g.style.stack_r + 29, `${centre[i].left} left`, {
        "font-size": 9, "text-anchor": "middle", fill: "#cfe3d4" });
    });
    const scores = Object.entries(report.scores || {}).sort(); // (MicroPython: no order)
    this.g.tracks.forEach((t, ti) => {
      t.forEach((p, k) => this._paint(this.tracks[ti][k], leds[p.led], true, sides));
      const used = ti < scores.length;
      const text = used ? `${scores[ti][0]}: ${scores[ti][1]} point${scores[ti][1] === 1 ? "" : "s"}`
        : `track t${ti + 1}: unused`;
      this._text(t[0].x - this.g.style.track_r, t[0].y - this.g.style.track_r - 8, text, {
        "font-size": 12, "font-weight": "bold", fill: used ? this.g.style.paper : "#7f9c86",
        id: `track-label-t${ti + 1}` });
    });
  }
}
