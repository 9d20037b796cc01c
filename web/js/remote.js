// Play across tables (docs/remote.md): this page takes a seat in a remote game of Kahuna,
// through an MQTT broker's websockets listener and the dealer beside it. One side creates
// a game and gets its code; the other joins with it.
//
// The MQTT client is the npm `mqtt` package (its browser bundle, vendor/mqtt/mqtt.esm.js,
// loaded only when a game across tables starts). What a table knows and may do is the
// page's Python (host_tools/web/remoteplay.py: the host tables' own Seat, protocol checks
// and the game's options); this module only moves the messages, keeps the clock (a hello
// every second until the dealer has seated us, a request without an answer sent again
// after 3 s) and draws the game from the public state and our own hand.
//
// For scripts and tests: kahuna.remote.view() (the table's view: public state, hand,
// options, report once over), kahuna.remote.move(action), kahuna.remote.state (the
// connection: "off", "connecting", "online", "offline", "failed"), kahuna.remote.healed
// (gaps in the events healed by reading the retained snapshot again).

import { BoardView } from "./boardview.js";
import { $, cap, make, playerRows } from "./dom.js";

const HELLO_MS = 1000; // host_tools/remote/table.py's HELLO_AGAIN
const ASK_AGAIN_MS = 3000; // its ASK_AGAIN
const DEALER_SILENT = 5; // hellos without an answer before the page says so
const KEEP = "smartboard.remote"; // the broker, user and game kept for a reload (no password)

const WORDS = {
  end_play: "end the play phase", decline: "decline to draw", skip_refill: "leave the refill",
  resume_play: "back to the play phase", undo: "undo",
};

// A request in words, for its button.
export function describe(action) {
  const [name, ...args] = action;
  switch (name) {
    case "place": return `${args[0]}: bridge on ${args[1]}`;
    case "remove": return `${args[0]} + ${args[1]}: remove ${args[2]}`;
    case "discard": return `discard ${args[0]}`;
    case "draw": return args.length ? `take ${args[0]}` : "draw from the deck";
    case "refill": return `free refill on ${args[0]}`;
    case "handicap": return `handicap bridge on ${args[0]}`;
    default: return WORDS[name] || action.join(" ");
  }
}

// An event of the public log in words ("12: black plays HUNA-1: bridge on ALOA-HUNA").
function eventText([seq, actor, action]) {
  const who = actor || "the dealer";
  const [name, ...args] = action;
  let text;
  switch (name) {
    case "deal": text = "is dealt a card"; break;
    case "display": text = `lays the display: ${args[0].join(" ")}`; break;
    case "place": text = `plays ${args[0]}: bridge on ${args[1]}`; break;
    case "remove": text = `plays ${args[0]} and ${args[1]}: removes ${args[2]}`; break;
    case "discard": text = "discards a card face down"; break;
    case "draw": text = args.length ? `takes ${args[0]} from the display` : "draws from the deck"; break;
    default: text = describe(action);
  }
  return `${seq}: ${who} ${text}`;
}

function storage() {
  try {
    return window.localStorage;
  } catch (e) {
    return null;
  }
}

export class RemoteTable {
  constructor(runtime, geometry, { onError }) {
    this.rt = runtime;
    this.g = geometry;
    this.onError = onError;
    this.client = null;
    this.state = "off";
    this.current = null; // the last view of the Python side
    this.healed = 0; // gaps healed by reading the snapshot again
    this.attempts = 0; // create or join pressed
    this.chosenConn = null; // a connection clicked on the board: its options marked
    this.board = new BoardView($("remote-board"), geometry, {
      onConnection: (id) => this.pickConnection(id),
    });
    this.timer = null;
    const f = $("remote-form");
    $("remote-create").addEventListener("click", () => this.open(true));
    f.addEventListener("submit", (ev) => { // the Join button, or Enter in a field
      ev.preventDefault();
      this.open(false);
    });
    $("remote-leave").addEventListener("click", () => this.leave());
    let kept = null;
    try {
      kept = JSON.parse((storage() && storage().getItem(KEEP)) || "null");
    } catch (e) {
      kept = null;
    }
    if (kept && typeof kept === "object") {
      for (const k of ["url", "user", "code"]) {
        if (typeof kept[k] === "string") f.elements[k].value = kept[k];
      }
      if (kept.playing) {
        $("remote").open = true;
        this.say("info", `Your game ${kept.code} goes on: type your password and press Join.`);
      }
    }
  }

  say(kind, text) {
    const box = $("remote-message");
    box.className = "message " + kind;
    box.dataset.kind = kind;
    box.textContent = text;
  }

  call(request) {
    return this.rt.call({ op: "remote", ...request });
  }

  // Create (true) or join (false): check the form, open the table in Python, connect.
  async open(create) {
    const f = $("remote-form");
    const url = f.url.value.trim();
    const user = f.user.value.trim();
    const password = f.password.value;
    let parsed = null;
    try {
      parsed = new URL(url);
    } catch (e) {
      parsed = null;
    }
    if (!parsed || !["ws:", "wss:"].includes(parsed.protocol)) {
      this.say("error", "The broker's address is its websockets listener: ws://HOST:PORT " +
        "or wss://HOST:PORT (e.g. wss://broker.example.org:8081).");
      return;
    }
    if (!user || !password) {
      this.say("error", "Type the user name and password the broker knows you by.");
      return;
    }
    const entropy = Array.from(crypto.getRandomValues(new Uint32Array(6)));
    const opened = this.call({ do: "open", create, user, code: create ? "" : f.code.value,
      seat: f.seat.value, settings: { variant: f.variant.value, first: f.first.value },
      entropy });
    if (!opened.ok) {
      this.say("error", cap(opened.error) + ".");
      return;
    }
    this.close();
    f.code.value = opened.code;
    this.keep({ url, user, code: opened.code, playing: true });
    this.subscriptions = opened.subscribe;
    this.render(opened.view);
    this.say("info", create
      ? `Game code: ${opened.code}. Tell it to the other table; connecting to the broker…`
      : `Joining game ${opened.code}; connecting to the broker…`);
    const attempt = ++this.attempts;
    let mqtt;
    try {
      // A literal path: the build (host_tools/web/build.py) follows it into the site.
      mqtt = (await import("../vendor/mqtt/mqtt.esm.js")).default;
    } catch (e) {
      this.say("error", "The MQTT client could not be loaded: " + e.message);
      return;
    }
    if (attempt !== this.attempts) return; // pressed again meanwhile: the last one counts
    this.creating = create;
    this.connect(mqtt, url, user, password, opened.code);
  }

  connect(mqtt, url, user, password, code) {
    this.state = "connecting";
    this.everOnline = false;
    this.hellos = 0;
    this.helloAt = 0;
    this.sentAt = 0;
    this.refusedLogin = false;
    const client = mqtt.connect(url, {
      username: user, password, clientId: `kb-${code}-${user}`, clean: true,
      protocolVersion: 4, reconnectPeriod: 1000, connectTimeout: 5000, resubscribe: false,
    });
    this.client = client;
    client.on("connect", () => {
      if (this.client !== client) return;
      this.state = "online";
      this.everOnline = true;
      this.render(this.call({ do: "reconnected" }).view);
      client.subscribe(this.subscriptions, { qos: 1 });
      this.say("info", this.creating && !this.current.public // the game has not begun
        ? `Game code: ${code}. Tell it to the other table.` : `Connected: game ${code}.`);
      this.tick();
    });
    client.on("message", (topic, payload) => {
      if (this.client === client) this.feed(topic, new TextDecoder().decode(payload));
    });
    client.on("error", (err) => {
      if (this.client !== client) return;
      if (err && (err.code === 4 || err.code === 5)) {
        this.refusedLogin = true;
        this.fail(`The broker refused user ${user}: wrong user name or password.`);
      }
    });
    client.on("close", () => {
      if (this.client !== client || this.refusedLogin) return;
      if (!this.everOnline) {
        this.fail(`No broker answers at ${url}: check the address (ws:// or wss://, host ` +
          "and port of its websockets listener) and that it runs.");
      } else if (this.state === "online") {
        this.state = "offline";
        this.say("error", "The connection to the broker was lost: connecting again…");
      }
    });
    if (!this.timer) this.timer = setInterval(() => this.tick(), 250);
  }

  fail(text) {
    this.state = "failed";
    this.say("error", text);
    this.close();
    this.keep(null);
    $("remote-game").hidden = true;
    document.body.classList.remove("remote");
  }

  close() {
    if (this.client) {
      const c = this.client;
      this.client = null;
      c.end(true);
    }
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  leave() {
    this.close();
    this.state = "off";
    this.current = null;
    this.keep(null);
    document.body.classList.remove("remote");
    $("remote-game").hidden = true;
    this.say("info", "You left the game; it waits for this table (Join with its code " +
      "goes on with it).");
  }

  keep(what) {
    const s = storage();
    if (!s) return;
    try {
      if (what) s.setItem(KEEP, JSON.stringify(what));
      else {
        const f = $("remote-form");
        s.setItem(KEEP, JSON.stringify({ url: f.url.value, user: f.user.value, code: "" }));
      }
    } catch (e) { /* storage refused: nothing kept */ }
  }

  publish(out) {
    if (out && this.client && this.state === "online") {
      this.client.publish(out.topic, JSON.stringify(out.message), { qos: 1 });
      return true;
    }
    return false;
  }

  // The clock: the hello until seated, a request in flight asked again.
  tick() {
    if (!this.client || this.state !== "online" || !this.current) return;
    const now = performance.now();
    const v = this.current;
    if (v.needs_hello && now - this.helloAt >= HELLO_MS) {
      this.helloAt = now;
      this.publish(this.call({ do: "hello" }).publish);
      this.hellos += 1;
      if (this.hellos === DEALER_SILENT && v.status === null) {
        this.say("error", "No answer from the dealer yet: is `python -m host_tools dealer` " +
          "running beside the broker? (still asking)");
      }
    }
    if (v.asked && now - this.sentAt > ASK_AGAIN_MS) {
      this.sentAt = now;
      const r = this.call({ do: "again" });
      if (r.ok && this.publish(r.publish)) this.render(r.view);
    }
  }

  feed(topic, text) {
    const r = this.call({ do: "feed", topic, payload: text });
    if (!r.ok) {
      this.onError(new Error(r.error));
      return;
    }
    if (r.bad) console.warn("remote:", r.bad); // someone's garbage: refused, nothing changed
    if (r.resubscribe && this.client) {
      const t = r.resubscribe;
      this.healed += 1;
      this.client.unsubscribe(t, () => this.client && this.client.subscribe(t, { qos: 1 }));
    }
    if (r.word && r.word.startsWith("refused")) {
      this.say("error", "The dealer refused: " + r.word.replace(/^refused /, "") +
        (r.view.status === null ? " (still asking)" : ""));
    } else if (r.word && r.view.status !== null && this.state === "online"
               && $("remote-message").dataset.kind !== "info") {
      this.say("info", `Connected: game ${r.view.code}.`); // what went wrong is healed
    }
    this.render(r.view);
  }

  move(action) {
    const r = this.call({ do: "move", action });
    if (!r.ok) throw new Error(r.error);
    this.sentAt = performance.now();
    this.publish(r.publish);
    this.render(r.view);
  }

  // A connection clicked on the board: the one move open there is made; with several
  // (a bridge from either card, say), they are marked among the options to choose from.
  pickConnection(id) {
    const v = this.current;
    const there = v ? v.options.filter((o) => o[o.length - 1] === id) : [];
    if (there.length === 1) {
      try {
        this.move(there[0]);
      } catch (e) {
        this.onError(e);
      }
      return;
    }
    this.chosenConn = there.length ? id : null;
    if (v) this.render(v);
  }

  render(v) {
    if (this.current && this.current.seq !== v.seq) this.chosenConn = null;
    this.current = v;
    document.body.classList.add("remote");
    $("remote-game").hidden = false;
    $("remote-code").textContent = v.code;
    $("remote-seat").textContent = v.seat || "(not seated yet)";
    const pub = v.public;
    if (v.over && v.report) this.keep({ url: $("remote-form").url.value, user: v.user,
      code: v.code, playing: false });
    if (!pub) {
      $("remote-status").textContent = v.status === "waiting"
        ? `Waiting for the other table to join with the code ${v.code}…`
        : "Waiting for the dealer…";
      $("remote-options").replaceChildren();
      this._cards(v);
      this.board.draw({ leds: this.frame(null, []), report: {} });
      return;
    }
    let line = `Round ${pub.round} of 3 · ${pub.phase.toUpperCase()}`;
    if (v.over) {
      line += " · " + (pub.winner === "draw" ? "a draw" : `${cap(pub.winner)} wins`);
    } else {
      line += pub.turn === v.seat ? " · your turn" : ` · ${cap(pub.turn)} (the other table)`;
    }
    $("remote-status").textContent = line;
    document.body.dataset.remoteTurn = pub.turn === v.seat ? "mine" : "theirs";
    playerRows($("remote-players"), pub, this.g.palette,
      (p) => (p === v.seat ? " (you)" : ""));
    $("remote-event").textContent = v.event ? "Last: " + eventText(v.event) : "";
    const box = $("remote-options");
    box.replaceChildren();
    for (const action of v.options) {
      const marked = this.chosenConn && action[action.length - 1] === this.chosenConn;
      const b = make("button", { cls: "option" + (marked ? " selected" : ""),
        text: describe(action),
        attrs: { "data-action": JSON.stringify(action) } });
      b.addEventListener("click", () => {
        try {
          this.move(action);
        } catch (e) {
          this.onError(e);
        }
      });
      box.append(b);
    }
    if (!v.options.length && !v.over) {
      box.append(make("span", { cls: "muted", text: pub.turn === v.seat
        ? (v.asked ? "sent; waiting for the dealer…" : "…")
        : "the other table plays" }));
    }
    this._cards(v);
    this.board.draw({ leds: this.frame(pub, v.options), report: pub });
  }

  _cards(v) {
    const pub = v.public;
    const hand = $("remote-hand");
    hand.replaceChildren();
    for (const name of v.hand || []) hand.append(chip(name));
    if (!(v.hand || []).length) hand.append(make("span", { cls: "muted", text: "no cards" }));
    const display = $("remote-display");
    display.replaceChildren();
    for (const name of (pub && pub.display) || []) display.append(chip(name));
    $("remote-deck").textContent = pub ? `Deck: ${pub.deck} cards face down` : "";
  }

  // The board's lights from the public state, as the board shows them: bridges and islands
  // in their owners' colours, the connections our options reach in the option colours.
  frame(pub, options) {
    const pal = this.g.palette;
    const dim = (c) => c.map((v) => Math.round(v * this.g.brightness));
    const leds = Array.from({ length: this.g.led_count }, () => [0, 0, 0]);
    const offered = {};
    for (const o of options) {
      const conn = o[o.length - 1];
      if (o[0] === "place" || o[0] === "refill" || o[0] === "handicap") offered[conn] = "option_place";
      if (o[0] === "remove") offered[conn] = "option_remove";
    }
    for (const c of this.g.connections) {
      const owner = pub && pub.bridges[c.id];
      leds[c.led] = dim(pal[owner || offered[c.id] || "free"]);
    }
    for (const i of this.g.islands) {
      const owner = pub && pub.control[i.id];
      leds[i.led] = dim(pal[owner || "uncontrolled"]);
    }
    return leds;
  }
}

function chip(name) {
  const [island, n] = name.split("-");
  const b = make("span", { cls: "card small", attrs: { "data-card": name } });
  b.append(make("span", { cls: "island", text: island }), make("span", { cls: "n", text: n }));
  return b;
}

export function mountRemote({ runtime, geometry, onError }) {
  const table = new RemoteTable(runtime, geometry, { onError });
  window.kahuna.remote = {
    view: () => table.current,
    move: (action) => table.move(action),
    get state() { return table.state; },
    get healed() { return table.healed; },
    table,
  };
  return table;
}
