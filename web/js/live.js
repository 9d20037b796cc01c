// The live page: a real board (or a virtual one) followed over its serial link, through
// the WebSocket of `python -m host_tools web` (host_tools/web/live.py says what goes each
// way). The board is drawn by the page's own BoardView from the LED frame the board sent;
// everything else is the link's state (core.link). Hands are shown only when the board
// sent them, i.e. after a reveal, and the page then says so.
//
// For scripts and tests: `await kahuna.ready` (the first state is in), `kahuna.state()`.

import { BoardView, StatusLamps } from "./boardview.js";
import { $, BUTTONS, PLAYERS, cap, make, playerRows, setForm } from "./dom.js";

// The link's "leds": 6 hex digits per LED -> [[r, g, b], ...].
export function parseLeds(text, count) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const h = (text || "").slice(6 * i, 6 * i + 6);
    out.push(h.length === 6 ? [0, 2, 4].map((j) => parseInt(h.slice(j, j + 2), 16)) : [0, 0, 0]);
  }
  return out;
}

function settingsText(s) {
  if (!s) return "?";
  const h = s.handicap;
  return `variant ${s.variant}, ${s.first} starts, ` +
    (h ? `handicap: ${h[0]} places ${h[1]}` : "no handicap") +
    (s.ai ? `, the board plays ${s.ai}` + (s.ai_level ? ` at level ${s.ai_level}` : "") : "");
}

function cardChip(name) {
  const [island, n] = name.split("-");
  const b = make("span", { cls: "card small", attrs: { "data-card": name } });
  b.append(make("span", { cls: "island", text: island }), make("span", { cls: "n", text: n }));
  return b;
}

class LivePage {
  constructor(geometry) {
    this.g = geometry;
    this.count = Math.max(...geometry.connections.map((c) => c.led),
      ...geometry.islands.map((i) => i.led), ...geometry.status.map((s) => s.led)) + 1;
    this.state = null;
    this.board = new BoardView($("board"), geometry, {
      onConnection: (id) => this.send({ cmd: "pick", conn: id }),
    });
    this.lamps = new StatusLamps($("lamps"), geometry);
    this.replayBoard = new BoardView($("replay-board"), geometry);
    this.replay = null;
    for (const name of BUTTONS) {
      const b = make("button", { cls: "hw", text: name, attrs: { id: "btn-" + name } });
      b.addEventListener("click", () => this.send({ cmd: "press", button: name }));
      $("buttons").appendChild(b);
    }
    // back held down on the board: take back whole turns (games.kahuna.takeback, R12)
    const hold = make("button", { cls: "hw hold", text: "take back",
      attrs: { id: "btn-takeback", title: "back held down: take back the last whole turn" } });
    hold.addEventListener("click", () => this.send({ cmd: "press", button: "back", hold: true }));
    $("buttons").appendChild(hold);
    $("reveal").addEventListener("click", () =>
      this.send({ cmd: "reveal", on: !(this.state && this.state.revealed) }));
    $("new-game").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const f = ev.target;
      const h = f.handicap.value;
      const handicap = h === "none" ? null : [h.split(":")[0], parseInt(h.split(":")[1], 10)];
      const settings = { variant: f.variant.value, first: f.first.value, handicap };
      if (f.ai.value !== "none") settings.ai = f.ai.value; // a solo game (games.kahuna.solo)
      if (f.ai.value !== "none" && f.ai_level.value !== "default") {
        settings.ai_level = parseInt(f.ai_level.value, 10);
      }
      this.send({ cmd: "new", settings });
    });
    $("cards").addEventListener("toggle", () => $("cards").open && this.send({ cmd: "cards" }));
    $("enroll-stop").addEventListener("click", () => this.send({ cmd: "enroll", stop: true }));
    $("archive").addEventListener("toggle", () => $("archive").open && this.send({ op: "archive" }));
    $("archive-refresh").addEventListener("click", () => this.send({ op: "archive" }));
    $("replay-step").addEventListener("input", () => this.showStep(+$("replay-step").value));
    $("replay-prev").addEventListener("click", () => this.showStep(this.step - 1));
    $("replay-next").addEventListener("click", () => this.showStep(this.step + 1));
    $("replay-record").addEventListener("click", () =>
      this.replay && this.send({ op: "record", slot: this.replay.slot }));
    $("record-play").addEventListener("click", () => this.send({ op: "record" }));
  }

  connect() {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
    this.ws = new WebSocket(url);
    this.ws.onopen = () => {
      document.body.dataset.connected = "yes";
      $("link-status").textContent = "connected";
    };
    this.ws.onclose = () => {
      document.body.dataset.connected = "no";
      $("link-status").textContent = "not connected: is python -m host_tools web running?";
      setTimeout(() => this.connect(), 2000);
    };
    this.ws.onmessage = (ev) => this.receive(JSON.parse(ev.data));
  }

  send(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(obj));
  }

  receive(msg) {
    if (msg.type === "hello") $("port").textContent = "board on " + msg.port;
    else if (msg.type === "board") this.onBoard(msg);
    else if (msg.type === "cards") this.onCards(msg);
    else if (msg.type === "enroll") this.onEnroll(msg);
    else if (msg.type === "archive") this.onArchive(msg);
    else if (msg.type === "replay") this.onReplay(msg);
    else if (msg.type === "record") this.onRecord(msg);
    else if (msg.type === "device") {
      $("device").hidden = !msg.lines.length;
      $("device").textContent = msg.lines.join("\n");
    } else if (msg.type === "error") this.say(msg.message, "bad");
  }

  say(text, style) {
    const box = $("message");
    box.className = "message " + (style === "bad" ? "refused" : style === "good" ? "accepted" : "");
    box.textContent = text;
  }

  onBoard(msg) {
    for (const entry of msg.log) {
      const li = make("li", { cls: entry.style || "", text: entry.text });
      $("log").prepend(li);
    }
    while ($("log").children.length > 200) $("log").lastChild.remove();
    this.say(msg.message, msg.style);
    $("hint").textContent = msg.hint ? cap(msg.hint) : "";
    const st = msg.state;
    if (!st || !st.phase) return;
    this.state = st;
    this.board.draw({ leds: parseLeds(st.leds, this.count), report: st });
    this.lamps.draw({ leds: parseLeds(st.leds, this.count) });
    this.status(st);
    this.options(st);
    this.hands(st);
    document.body.dataset.phase = st.phase;
    document.body.classList.remove("loading");
    resolveReady();
  }

  status(st) {
    let line = `Round ${st.round} of 3 · ${st.phase.toUpperCase()}`;
    if (st.phase === "over") {
      line += " · " + (st.winner === "draw" ? "a draw" : `${cap(st.winner)} wins`);
    } else {
      const verb = { deal: "is dealt", handicap: "places handicap bridges", draw: "draws" };
      line += ` · ${cap(st.turn)} ${verb[st.phase] || "to play"}`;
    }
    $("status-line").textContent = line;
    const flags = [];
    if (st.ui && st.ui.discarding) flags.push("DISCARD MODE");
    if (st.final_turns && st.phase !== "over") flags.push("FINAL TURNS");
    if (st.must_draw) flags.push("MUST DRAW");
    $("flags").textContent = flags.join(" · ");
    playerRows($("players"), st, this.g.palette);
    $("rounds").textContent = st.round_scores.length
      ? "Scorings: " + st.round_scores.map((r) => `${r.white}–${r.black}`).join(" · ") +
        " (white–black)"
      : "No round scored yet";
    const formFor = JSON.stringify(st.settings || null);
    if (st.settings && formFor !== this.formFor) {
      this.formFor = formFor; // the new-game form shows the settings in force
      setForm($("new-game"), st.settings);
    }
    $("settings-line").textContent = "Settings: " + settingsText(st.settings) +
      ` · deck ${st.drawable} · discard pile ${st.discard}`;
  }

  options(st) {
    const box = $("options");
    box.replaceChildren();
    const ui = st.ui || { options: [], pending: [] };
    if (ui.pending.length || ui.picked) {
      let text = "Pending: " + ui.pending.map((i) => i + " card").join(" + ");
      if (ui.picked) text += `, waiting for a second card to remove ${ui.picked}`;
      box.append(make("p", { cls: "pending", text }));
    }
    if (!ui.options.length) return;
    const list = make("div", { cls: "option-list" });
    ui.options.forEach(([kind, conn], i) => {
      const extra = { remove: " (remove)", refill: " (free refill)" }[kind] || "";
      const b = make("button", { cls: "option" + (i === ui.sel ? " selected" : ""),
        text: conn + extra, attrs: { "data-conn": conn } });
      b.addEventListener("click", () => this.send({ cmd: "pick", conn }));
      list.append(b);
    });
    box.append(make("span", { cls: "label", text: "Options:" }), list);
  }

  hands(st) {
    const box = $("hands");
    box.replaceChildren();
    const shown = st.revealed && st.hands;
    $("revealed-banner").hidden = !st.revealed;
    document.body.dataset.revealed = st.revealed ? "yes" : "no";
    for (const p of PLAYERS) {
      const row = make("div", { cls: "hand-row", attrs: { id: "hand-" + p } });
      const n = st.hand_sizes[p];
      row.append(make("span", { cls: "who", text: cap(p) }));
      if (shown) {
        for (const c of st.hands[p]) row.append(cardChip(c));
        if (!st.hands[p].length) row.append(make("span", { cls: "muted", text: "no cards" }));
      } else {
        for (let i = 0; i < n; i++) row.append(make("span", { cls: "card small back" }));
        row.append(make("span", { cls: "muted", text: `${n} card${n === 1 ? "" : "s"}` }));
      }
      box.append(row);
    }
    $("hands-note").textContent = shown ? ""
      : "Hand sizes only: the board keeps the cards secret unless their owner reveals them.";
    $("reveal").textContent = st.revealed ? "Hide the hands"
      : "Reveal the hands (owner only)";
  }

  onCards(msg) {
    const byCard = {};
    for (const [uid, c] of Object.entries(msg.cards)) byCard[c] = uid;
    const names = this.g.islands.flatMap((i) => [i.id + "-1", i.id + "-2"]);
    const body = $("registry");
    body.replaceChildren();
    for (const c of names) {
      const tr = make("tr", { cls: byCard[c] ? "" : "missing", attrs: { id: "reg-" + c } });
      const enrol = make("button", { cls: "small", text: byCard[c] ? "re-enrol" : "enrol",
        attrs: { "data-card": c } });
      enrol.addEventListener("click", () => this.send({ cmd: "enroll", card: c }));
      const td = make("td");
      td.append(enrol);
      tr.append(make("td", { text: c }), make("td", { text: byCard[c] || "missing" }), td);
      body.append(tr);
    }
    $("cards-summary").textContent =
      `${Object.keys(msg.cards).length} cards enrolled, ${msg.missing.length} missing`;
  }

  onEnroll(msg) {
    const text = {
      "enroll-wait": () => `Lay the tag for ${msg.card} on the reader (its island is lit)`,
      enrolled: () => `Enrolled ${msg.card} as tag ${msg.uid}`,
      "enroll-refused": () => `Tag refused for ${msg.card}: ${msg.reason}`,
      "enroll-stopped": () => "Enrolment stopped",
    }[msg.event];
    $("enroll-status").textContent = text ? text() : msg.event;
    $("enroll-status").dataset.event = msg.event;
  }

  onArchive(msg) {
    const list = $("archive-list");
    list.replaceChildren();
    for (const g of msg.games) {
      const b = make("button", { cls: "small", attrs: { "data-slot": g.slot },
        text: g.game === null ? `slot ${g.slot}: damaged` :
          `Game ${g.game} · ${settingsText(g.settings)}` });
      b.addEventListener("click", () => this.send({ op: "replay", slot: g.slot }));
      const li = make("li");
      li.append(b);
      list.append(li);
    }
    if (!msg.games.length) list.append(make("li", { cls: "muted", text: "no archived game yet" }));
  }

  onReplay(msg) {
    this.replay = msg;
    $("replay").hidden = false;
    $("replay-title").textContent = `Game ${msg.game} · ${settingsText(msg.settings)}` +
      (msg.finished ? " · played to its end" : " · abandoned");
    $("replay-note").textContent = (msg.hands_shown
      ? (msg.finished ? "Both hands are shown: the game is over, its cards are no secret."
        : "Hands shown because they are revealed on this page.")
      : "An abandoned game: hand sizes only (reveal the hands to see them).") +
      (msg.problem ? ` The archive ends early: ${msg.problem}.` : "");
    $("replay-step").max = String(msg.steps.length - 1);
    this.showStep(msg.steps.length - 1);
  }

  // A game record (a scenario file) from the server: downloaded. The game in play's
  // (slot null) and an unfinished one's are written from what is public.
  onRecord(msg) {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([msg.text], { type: "text/plain" }));
    a.download = msg.slot === null ? "kahuna-game-in-play.scn" : `kahuna-game-slot${msg.slot}.scn`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    this.say(`Game record of ${msg.slot === null ? "the game in play" : "slot " + msg.slot} ` +
      `downloaded (${a.download}).`, "good");
  }

  showStep(i) {
    const r = this.replay;
    if (!r) return;
    this.step = Math.max(0, Math.min(r.steps.length - 1, i));
    const s = r.steps[this.step];
    $("replay-step").value = String(this.step);
    $("replay-count").textContent = `move ${this.step} of ${r.steps.length - 1}`;
    $("replay-text").textContent = s.text;
    this.replayBoard.draw({ leds: parseLeds(s.leds, this.count), report: s.state });
    const st = s.state;
    $("replay-score").textContent = `Round ${st.round} · ${st.phase} · score white ` +
      `${st.scores.white}, black ${st.scores.black} · hands ${st.hand_sizes.white} and ` +
      `${st.hand_sizes.black}`;
    const box = $("replay-hands");
    box.replaceChildren();
    if (st.hands) {
      for (const p of PLAYERS) {
        const row = make("div", { cls: "hand-row", attrs: { id: "replay-hand-" + p } });
        row.append(make("span", { cls: "who", text: cap(p) }));
        for (const c of st.hands[p]) row.append(cardChip(c));
        if (!st.hands[p].length) row.append(make("span", { cls: "muted", text: "no cards" }));
        box.append(row);
      }
    }
  }
}

let resolveReady;
let page = null;
window.kahuna = {
  ready: new Promise((resolve) => { resolveReady = resolve; }),
  state: () => (page ? page.state : null),
};

fetch("board.json").then((r) => r.json()).then((geometry) => {
  page = new LivePage(geometry);
  page.connect();
});
