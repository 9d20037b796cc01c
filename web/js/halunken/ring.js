// Halunken & Spelunken's ring, lit by an LED frame. The layout is
// host_tools/games/halunken/picture.py's (boards/halunken.json: the backdrop SVG and where
// each light goes); this module only colours it, and names what stands on each space and
// the piles' counts and top cards (public, from the report).
//
//   const ring = new RingView(svgElement, geometry, { onTavern: (id) => ... });
//   ring.draw({ leds: [[r, g, b], ...], report });

import { fullLevel, hex, knownColours, luma } from "../colours.js";

const NS = "http://www.w3.org/2000/svg";

function el(tag, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

export class RingView {
  constructor(svg, geometry, { onTavern = null } = {}) {
    this.g = geometry;
    this.known = knownColours(geometry);
    const st = geometry.style;
    svg.setAttribute("viewBox", `0 0 ${geometry.width} ${geometry.height}`);
    svg.innerHTML = geometry.backdrop;
    const layer = el("g", { class: "lights" }, svg);
    const text = { "font-family": st.font, "text-anchor": "middle", "font-weight": "bold" };
    this.taverns = geometry.taverns.map((t) => {
      const [x, y] = t.space;
      const space = el("circle", { id: "space-" + t.id, cx: x, cy: y, r: st.space_r,
        class: "space", "data-tavern": t.id }, layer);
      el("title", {}, space).textContent = t.id;
      if (onTavern) space.addEventListener("click", () => onTavern(t.id));
      const mark = el("text", { ...text, x, y: y + 7, "font-size": 19, "pointer-events": "none" },
        layer);
      const pile = el("circle", { id: "pile-" + t.id, cx: t.pile[0], cy: t.pile[1],
        r: st.pile_r }, layer);
      const count = el("text", { ...text, x: t.count[0], y: t.count[1] + 5, "font-size": 14,
        fill: st.paper }, layer);
      const top = el("text", { ...text, id: "top-" + t.id, x: t.top[0], y: t.top[1] + 4,
        "font-size": 11, fill: st.paper }, layer);
      return { t, space, mark, pile, count, top };
    });
    this.seats = geometry.seats.map((s) => {
      const dot = el("circle", { id: "seat-" + s.id, cx: s.x - 14, cy: s.y, r: st.seat_r },
        layer);
      const label = el("text", { ...text, x: s.x + 16, y: s.y + 6, "font-size": 16 }, layer);
      label.textContent = s.id;
      return { s, dot, label };
    });
    this.port = el("circle", { id: "port-light", cx: geometry.port.x, cy: geometry.port.y,
      r: st.port_r }, layer);
    this.rounds = geometry.rounds.map((r, i) => el("circle", { id: "round-" + (i + 1),
      cx: r.x, cy: r.y, r: st.round_r }, layer));
  }

  _paint(e, raw, level = false) {
    const { rgb, name } = fullLevel(raw, this.g, this.known);
    const st = this.g.style;
    e.dataset.colour = name || hex(rgb);
    if (name === "off") {
      e.setAttribute("fill", st.off);
      e.setAttribute("stroke", "#9aa3ad");
      e.setAttribute("stroke-dasharray", "4 3");
      return rgb;
    }
    // A pile's or a round's level is what it says (3, 2, 1 cards; played or current).
    const shown = level ? raw.map((c) => Math.min(255, Math.round(c / this.g.brightness))) : rgb;
    e.setAttribute("fill", hex(shown));
    e.setAttribute("stroke", st.ink);
    e.setAttribute("stroke-width", 2.5);
    e.removeAttribute("stroke-dasharray");
    return shown;
  }

  draw({ leds, report }) {
    const on = {}; // a space's figures (two for a moment: a mover landed on a captain, H9)
    for (const [seat, where] of Object.entries(report.captains || {}).sort()) {
      if (where) on[where] = (on[where] || []).concat([seat.slice(1)]);
    }
    if (report.blackjack) on[report.blackjack] = (on[report.blackjack] || []).concat(["BJ"]);
    const taverns = report.taverns || {};
    for (const k of this.taverns) {
      const rgb = this._paint(k.space, leds[k.t.space_led]);
      const mark = (on[k.t.id] || []).join("+");
      k.mark.textContent = mark;
      k.mark.setAttribute("font-size", mark.length === 1 ? 19 : 14);
      k.mark.setAttribute("fill", luma(rgb) < 140 ? "#ffffff" : this.g.style.ink);
      k.space.dataset.figure = mark;
      this._paint(k.pile, leds[k.t.pile_led], true);
      const info = taverns[k.t.id] || {};
      k.count.textContent = info.left === undefined ? "" : String(info.left);
      k.top.textContent = info.top || "";
    }
    const seats = report.captains || {};
    for (const s of this.seats) {
      this._paint(s.dot, leds[s.s.led]);
      s.label.setAttribute("fill", s.s.id in seats ? this.g.style.paper : "#9b8a6a");
    }
    this._paint(this.port, leds[this.g.port.led]);
    this.g.rounds.forEach((r, i) => this._paint(this.rounds[i], leds[r.led], true));
  }
}
