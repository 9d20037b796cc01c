// Kahuna's printed board, lit by an LED frame. The layout is
// host_tools/games/kahuna/picture.py's (boards/kahuna.json, the live page's board.json: the
// backdrop SVG, and where each pixel, bar, stone and name goes); this module only
// colours it. Whoever produces the frame drives it: the simulator in this page, or a real
// board over its serial link.
//
//   const view = new BoardView(svgElement, geometry, { onConnection: (id) => ... });
//   view.draw({ leds: [[r, g, b], ...], report: { bridges: {...}, control: {...} } });

import { fullLevel, hex, knownColours, luma } from "./colours.js";

const NS = "http://www.w3.org/2000/svg";

function el(tag, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function set(e, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null) e.removeAttribute(k);
    else e.setAttribute(k, v);
  }
}

function same(a, b) {
  return a && b && a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
}

export class BoardView {
  constructor(svg, geometry, { onConnection = null } = {}) {
    this.svg = svg;
    this.g = geometry;
    this.known = knownColours(geometry);
    this.style = geometry.style;
    this.last = new Map(); // led index -> last [r, g, b] drawn, key of the state
    svg.setAttribute("viewBox", `0 0 ${geometry.width} ${geometry.height}`);
    svg.innerHTML = geometry.backdrop;
    this.defs = svg.querySelector("defs") || el("defs", {}, svg);
    const layers = {};
    for (const name of ["bars", "pixels", "islands", "stones", "labels", "hits"]) {
      layers[name] = el("g", { class: name }, svg);
    }
    this.conns = geometry.connections.map((c) => this._connection(c, layers, onConnection));
    this.islands = geometry.islands.map((i) => this._island(i, layers));
  }

  _glow(id) {
    const grad = el("radialGradient", { id }, this.defs);
    const a = el("stop", { offset: "0.35", "stop-opacity": "0.75" }, grad);
    const b = el("stop", { offset: "1", "stop-opacity": "0" }, grad);
    return [a, b];
  }

  _connection(c, layers, onConnection) {
    const [x1, y1, x2, y2] = c.seg;
    const ends = { x1, y1, x2, y2, "stroke-linecap": "round" };
    const g = el("g", { id: "conn-" + c.id }, layers.bars);
    const halo = el("line", { ...ends, opacity: 0.35, visibility: "hidden" }, g);
    const ink = el("line", { ...ends, stroke: this.style.ink, opacity: 0.9 }, g);
    const bar = el("line", { ...ends, id: "bar-" + c.id, "data-led": c.led }, g);
    const title = el("title", {}, bar);
    const mx = (x1 + x2) / 2;
    const my = (y1 + y2) / 2;
    const pixel = this._pixel(layers.pixels, "pixel-" + c.id, mx, my, this.style.pixel_r);
    const hit = el("line", { ...ends, class: "hit", "data-conn": c.id, "stroke-width": 30,
      stroke: "transparent", "stroke-linecap": "butt" }, layers.hits);
    el("title", {}, hit).textContent = c.id;
    if (onConnection) hit.addEventListener("click", () => onConnection(c.id));
    return { c, halo, ink, bar, title, pixel };
  }

  _pixel(parent, id, x, y, r) {
    const glowId = "glow-" + id;
    const stops = this._glow(glowId);
    const glow = el("circle", { cx: x, cy: y, r: r * 1.8, fill: `url(#${glowId})`,
      visibility: "hidden" }, parent);
    const disc = el("circle", { id, cx: x, cy: y, r }, parent);
    const shine = el("ellipse", { cx: x - r * 0.32, cy: y - r * 0.38, rx: r * 0.32, ry: r * 0.2,
      fill: "#ffffff", opacity: 0.45, visibility: "hidden" }, parent);
    return { glow, stops, disc, shine, r };
  }

  _island(i, layers) {
    const pixel = this._pixel(layers.islands, "island-" + i.id, i.x, i.y, i.r);
    el("title", {}, pixel.disc).textContent = i.id;
    const [sx, sy] = i.stone;
    const stone = el("g", { id: "stone-" + i.id, visibility: "hidden" }, layers.stones);
    const ink = { stroke: this.style.ink, "stroke-width": 2 };
    const side = [el("ellipse", { cx: sx, cy: sy + 4, rx: 12, ry: 8, ...ink }, stone),
      el("rect", { x: sx - 12, y: sy - 1, width: 24, height: 5 }, stone)];
    const top = el("ellipse", { cx: sx, cy: sy - 1, rx: 12, ry: 8, ...ink }, stone);
    el("line", { x1: sx - 12, y1: sy - 1, x2: sx - 12, y2: sy + 4, ...ink }, stone);
    el("line", { x1: sx + 12, y1: sy - 1, x2: sx + 12, y2: sy + 4, ...ink }, stone);
    const [lx, ly] = i.label;
    const text = { x: lx, y: ly, "font-family": this.style.font, "font-size": this.style.label_size,
      "font-weight": "bold", "text-anchor": "middle", "letter-spacing": 2 };
    el("text", { ...text, fill: "#f6f1d0", stroke: "#f6f1d0", "stroke-width": 5,
      "stroke-linejoin": "round", opacity: 0.85 }, layers.labels).textContent = i.id;
    el("text", { ...text, id: "label-" + i.id, fill: this.style.navy }, layers.labels)
      .textContent = i.id;
    return { i, pixel, stone, side, top, owner: undefined };
  }

  // One frame: `leds` in strip order; `report` gives the owners (bridges, control) that
  // tell a pixel lit by the game state from one lit apart (an option, a pending card's
  // island, an error flash), which gets a halo.
  draw({ leds, report }) {
    const bridges = (report && report.bridges) || {};
    const control = (report && report.control) || {};
    const pal = this.g.palette;
    for (const k of this.conns) {
      const owner = bridges[k.c.id] || null;
      const raw = leds[k.c.led];
      const key = this.last.get(k.c.led);
      if (same(key && key.raw, raw) && key.owner === owner) continue;
      this.last.set(k.c.led, { raw, owner });
      const { rgb, name } = fullLevel(raw, this.g, this.known);
      const apart = name !== "off" && !same(rgb, pal[owner || "free"]);
      this._paintPixel(k.pixel, rgb, name, false);
      k.bar.dataset.colour = name || hex(rgb);
      k.bar.dataset.owner = owner || "none";
      k.title.textContent = `${k.c.id}: ${owner ? "bridge of " + owner : "free"}; ` +
        `LED ${k.c.led} = [${raw.join(", ")}]${name ? " (" + name + ")" : ""}`;
      if (name === "off") {
        set(k.ink, { stroke: "#b9d3df", "stroke-width": 9, opacity: 0.5 });
        set(k.bar, { stroke: this.style.off, "stroke-width": 7, "stroke-dasharray": "12 8" });
        set(k.halo, { visibility: "hidden" });
        continue;
      }
      const w = luma(rgb) >= 50 ? this.style.bridge_w : this.style.bridge_w - 4;
      set(k.ink, { stroke: this.style.ink, "stroke-width": w + 5, opacity: 0.9 });
      set(k.bar, { stroke: hex(rgb), "stroke-width": w, "stroke-dasharray": null });
      set(k.halo, { stroke: hex(rgb), "stroke-width": this.style.bridge_w + 16,
        visibility: apart ? "visible" : "hidden" });
    }
    for (const isl of this.islands) {
      const owner = control[isl.i.id] || null;
      const raw = leds[isl.i.led];
      const key = this.last.get(isl.i.led);
      if (!(same(key && key.raw, raw) && key.owner === owner)) {
        this.last.set(isl.i.led, { raw, owner });
        const { rgb, name } = fullLevel(raw, this.g, this.known);
        const apart = name !== "off" && !same(rgb, pal[owner || "uncontrolled"]);
        this._paintPixel(isl.pixel, rgb, name, apart);
        isl.pixel.disc.dataset.colour = name || hex(rgb);
      }
      if (owner !== isl.owner) {
        isl.owner = owner;
        set(isl.stone, { visibility: owner ? "visible" : "hidden" });
        isl.stone.dataset.owner = owner || "none";
        if (owner) {
          const c = pal[owner] || [128, 128, 128];
          for (const s of isl.side) s.setAttribute("fill", hex(c.map((v) => v * 0.6)));
          isl.top.setAttribute("fill", hex(c));
        }
      }
    }
  }

  _paintPixel(p, rgb, name, apart) {
    if (name === "off") {
      set(p.disc, { fill: this.style.off, stroke: "#9aa3ad", "stroke-width": 2,
        "stroke-dasharray": "4 3" });
      set(p.glow, { visibility: "hidden" });
      set(p.shine, { visibility: "hidden" });
      return;
    }
    const c = hex(rgb);
    set(p.disc, { fill: c, stroke: this.style.ink, "stroke-width": 2.5, "stroke-dasharray": null });
    const glowing = apart || Math.max(...rgb) >= 110;
    for (const s of p.stops) s.setAttribute("stop-color", c);
    set(p.glow, { visibility: glowing ? "visible" : "hidden", r: p.r * (apart ? 2.3 : 1.7) });
    set(p.shine, { visibility: Math.max(...rgb) >= 60 ? "visible" : "hidden" });
  }
}

// The status pixels (turn white, turn black, phase, error) as small lamps in `parent`.
export class StatusLamps {
  constructor(parent, geometry) {
    this.g = geometry;
    this.known = knownColours(geometry);
    this.lamps = geometry.status.map((s) => {
      const box = document.createElement("div");
      box.className = "lamp";
      const dot = document.createElement("span");
      dot.className = "dot";
      dot.id = "status-" + s.name;
      const label = document.createElement("span");
      label.textContent = s.title;
      box.append(dot, label);
      parent.appendChild(box);
      return { s, dot };
    });
  }

  draw({ leds }) {
    for (const { s, dot } of this.lamps) {
      const { rgb, name } = fullLevel(leds[s.led], this.g, this.known);
      dot.style.background = name === "off" ? "" : hex(rgb);
      dot.classList.toggle("off", name === "off");
      dot.dataset.colour = name || hex(rgb);
      dot.title = `${s.title}: ${name || hex(rgb)}`;
    }
  }
}
