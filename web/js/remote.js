// Play across tables (docs/remote.md): this page takes a seat in a remote game of its
// game (Kahuna, Halunken & Spelunken, Kami), through an MQTT broker's websockets listener
// and the dealer beside it. One side creates a game and gets its code; the others join
// with it.
//
// The MQTT client is the npm `mqtt` package (its browser bundle, vendor/mqtt/mqtt.esm.js,
// loaded only when a game across tables starts). What a table knows and may do is the
// page's Python (host_tools/web/remoteplay.py: the host tables' own Seat, protocol checks
// and the game's options); this module only moves the messages, keeps the clock (a hello
// every second until the dealer has seated us, a request without an answer sent again
// after 3 s), keeps Halunken's commitments (card and nonce, H7) in the browser's local
// storage until the game is over (SECRETS + CODE/USER: a reload between a commitment and
// its reveal still reveals), and shows the panel: the code, the seat, the status, the last
// event, the moves as buttons and the words of a refusal. The game's own view (each game's
// remoteview.js: KahunaRemote, HalunkenRemote, KamiRemote) draws the board, the table and
// the hand, and says the moves and events in words.
//
// For scripts and tests: kahuna.remote.view() (the table's view: public state, hand,
// options, report once over), kahuna.remote.move(action), kahuna.remote.state (the
// connection: "off", "connecting", "online", "offline", "failed"), kahuna.remote.healed
// (gaps in the events healed by reading the retained snapshot again).

import { $, cap, make } from "./dom.js";

const HELLO_MS = 1000; // host_tools/remote/table.py's HELLO_AGAIN
const ASK_AGAIN_MS = 3000; // its ASK_AGAIN
const DEALER_SILENT = 5; // hellos without an answer before the page says so
const KEEP = "smartboard.remote"; // the broker, user and game kept for a reload (no password)
const SECRETS = "smartboard.remote.secrets."; // + CODE/USER: the commitments' cards, nonces

function storage() {
  try {
    return window.localStorage;
  } catch (e) {
    return null;
  }
}

function random32(n) {
  return Array.from(crypto.getRandomValues(new Uint32Array(n)));
}

export class RemoteTable {
  // `makeView(table)`: the game's view (its remoteview.js); `game`: the page's game.
  constructor(runtime, { game, makeView, onError }) {
    this.rt = runtime;
    this.game = game;
    this.onError = onError;
    this.client = null;
    this.state = "off";
    this.current = null; // the last view of the Python side
    this.healed = 0; // gaps healed by reading the snapshot again
    this.attempts = 0; // create or join pressed
    this.gameView = makeView(this);
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

  // Who the code is told to: Kahuna's one other table, the others' several.
  others() {
    return this.game === "kahuna" ? "the other table" : "the other tables";
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
    const code = create ? "" : f.code.value.trim().toUpperCase();
    const opened = this.call({ do: "open", create, user, code, game: this.game,
      ...this.gameView.settings(f), entropy: random32(6),
      secrets: create ? null : this.secrets(code, user) });
    if (!opened.ok) {
      this.say("error", cap(opened.error) + ".");
      return;
    }
    this.close();
    f.code.value = opened.code;
    this.keep({ url, user, code: opened.code, playing: true });
    this.secretsKey = SECRETS + opened.code + "/" + user;
    this.subscriptions = opened.subscribe;
    this.render(opened.view);
    this.say("info", create
      ? `Game code: ${opened.code}. Tell it to ${this.others()}; connecting to the broker…`
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
        ? `Game code: ${code}. Tell it to ${this.others()}.` : `Connected: game ${code}.`);
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

  // The commitments kept for game `code` and `user` (Halunken), or null.
  secrets(code, user) {
    const s = storage();
    try {
      const held = s && JSON.parse(s.getItem(SECRETS + code + "/" + user) || "null");
      return held && typeof held === "object" && !Array.isArray(held) ? held : null;
    } catch (e) {
      return null;
    }
  }

  // Keep `held` (the page's Python hands them out at each commitment), or forget them
  // (null: the game is over, every card opened).
  keepSecrets(held) {
    const s = storage();
    if (!s || !this.secretsKey) return;
    try {
      if (held) s.setItem(this.secretsKey, JSON.stringify(held));
      else s.removeItem(this.secretsKey);
    } catch (e) { /* storage refused: a reload before the reveal will say so */ }
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
    if (r.other_game) { // a code of another game: its page, the game kept for a join
      this.close();
      this.keep({ url: $("remote-form").url.value, user: r.view.user, code: r.view.code,
        playing: true });
      location.search = "?game=" + encodeURIComponent(r.other_game);
      return;
    }
    if (r.bad) console.warn("remote:", r.bad); // someone's garbage: refused, nothing changed
    if (r.publish) this.publish(r.publish); // a reveal now due (Halunken)
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
    const r = this.call({ do: "move", action, entropy: random32(6) });
    if (!r.ok) throw new Error(r.error);
    if (r.keep) this.keepSecrets(r.keep); // kept before the commitment goes out
    this.sentAt = performance.now();
    this.publish(r.publish);
    this.render(r.view);
  }

  tryMove(action) {
    try {
      this.move(action);
    } catch (e) {
      this.onError(e);
    }
  }

  render(v) {
    this.current = v;
    const view = this.gameView;
    document.body.classList.add("remote");
    $("remote-game").hidden = false;
    $("remote-code").textContent = v.code;
    $("remote-seat").textContent = v.seat || "(not seated yet)";
    const pub = v.public;
    if (v.over && v.report) {
      this.keep({ url: $("remote-form").url.value, user: v.user, code: v.code, playing: false });
      this.keepSecrets(null);
    }
    if (v.last && v.last.startsWith("cannot reveal")) this.say("error", cap(v.last) + ".");
    const box = $("remote-options");
    box.replaceChildren();
    if (!pub) {
      $("remote-status").textContent = v.status === "waiting"
        ? `Waiting for the other tables to join with the code ${v.code}…`
        : "Waiting for the dealer…";
      $("remote-event").textContent = "";
      view.render(v);
      return;
    }
    $("remote-status").textContent = view.status(v);
    document.body.dataset.remoteTurn = view.mine(v) ? "mine" : "theirs";
    $("remote-event").textContent = v.event ? "Last: " + view.eventText(v.event) : "";
    for (const action of v.options) {
      const b = make("button", { cls: "option" + (view.marked(action) ? " selected" : ""),
        text: view.describe(action), attrs: { "data-action": JSON.stringify(action) } });
      b.addEventListener("click", () => this.tryMove(action));
      box.append(b);
    }
    if (!v.options.length && !v.over) {
      box.append(make("span", { cls: "muted", text: view.mine(v)
        ? (v.asked ? "sent; waiting for the dealer…" : "…")
        : "the other tables play" }));
    }
    view.render(v);
  }
}

// The panel for the page's game: `makeView(table)` makes the game's view.
export function mountRemote({ runtime, game, makeView, onError }) {
  const table = new RemoteTable(runtime, { game, makeView, onError });
  window.kahuna.remote = {
    view: () => table.current,
    move: (action) => table.move(action),
    get state() { return table.state; },
    get healed() { return table.healed; },
    table,
  };
  return table;
}
