// Small DOM helpers and the players' score table, shared by the browser simulator's panel
// (panel.js) and the live page (live.js).

export const PLAYERS = ["white", "black"];
export const BUTTONS = ["prev", "next", "ok", "back", "done", "discard"];

export const $ = (id) => document.getElementById(id);

export function make(tag, { cls, text, attrs } = {}) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

export const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// The players' rows of the score table in `body`: colour, name (and `note(p)`, if given),
// cards in hand, supply, bridges on the board, islands, score. `st` is a state in the
// link's form (bridges, control, hand_sizes, supply, scores, turn, phase).
export function playerRows(body, st, palette, note = null) {
  body.replaceChildren();
  for (const p of PLAYERS) {
    const tr = make("tr", { attrs: { id: "row-" + p } });
    if (p === st.turn && st.phase !== "over") tr.className = "on-turn";
    const swatch = make("span", { cls: "swatch" });
    swatch.style.background = `rgb(${palette[p].join(",")})`;
    const name = make("td");
    name.append(swatch, cap(p));
    if (note) name.append(note(p));
    const bridges = Object.values(st.bridges).filter((o) => o === p).length;
    const islands = Object.values(st.control).filter((o) => o === p).length;
    tr.append(name);
    for (const v of [st.hand_sizes[p], st.supply[p], bridges, islands, st.scores[p]]) {
      tr.append(make("td", { text: String(v) }));
    }
    tr.lastChild.id = "score-" + p;
    body.appendChild(tr);
  }
}

// Kahuna's settings (the simulator's and the link's JSON form) into a new-game form (the
// static page's and the live page's): the form shows the settings in force.
export function setForm(f, settings) {
  const h = settings.handicap;
  f.variant.value = settings.variant || "standard";
  f.first.value = settings.first || "white";
  f.handicap.value = h ? `${h[0]}:${h[1]}` : "none";
  f.ai.value = settings.ai || "none";
  f.ai_level.value = settings.ai_level ? String(settings.ai_level) : "default";
}

// A game's settings into its new-game form, field by field: an input takes the value, a
// select only a value it offers (Halunken's and Kami's forms; Kahuna's uses setForm).
export function showSettings(form, values) {
  for (const [name, value] of Object.entries(values)) {
    const el = form.elements[name];
    if (!el || value === undefined) continue;
    if (!el.options || [...el.options].some((o) => o.value === value)) el.value = value;
  }
}
