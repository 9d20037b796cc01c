// Boot: the games the site offers (games.json; `?game=NAME`, else the first), the chosen
// game's markup (index.html's <template data-game=NAME>) and drawing (boards/NAME.json,
// js/NAME/page.js), MicroPython with the game's firmware (py/NAME.json), the page's game,
// the animation loop, and the page's API for scripts:
//
//   await kahuna.ready
//   kahuna.runScenario(text)          -> the JSON report, the very text of
//                                        `python -m host_tools sim --json` (throws an Error
//                                        naming the line for a scenario it cannot read)
//   kahuna.runScenarioDetailed(text)  -> { report, failures }  (failed `expect` lines)
//   kahuna.view()                     -> { state, leds } now on the page
//   kahuna.game                       -> the page's game (its requests, newGame(options,
//                                        seed), hand(player))
//   kahuna.gameName                   -> the game on the page ("kahuna", "halunken", ...)
//   kahuna.micropython                -> { package, version } of the WebAssembly port
//
// `?seed=N` in the address deals the first game from that seed (the same cards each time).

import { LocalGame, randomSeed } from "./localgame.js";
import { startRuntime } from "./runtime.js";

const MAX_FRAME_MS = 250;

function showError(e) {
  const box = document.getElementById("message");
  box.className = "message error";
  box.textContent = "Internal error (a bug; please report it): " + (e && e.message ? e.message : e);
  console.error(e);
}

// The chooser: a link to each game the site offers, the one on the page marked.
function chooser(games, chosen) {
  const nav = document.getElementById("games");
  for (const g of games) {
    const a = document.createElement("a");
    a.href = "?game=" + g.game;
    a.textContent = g.title;
    a.dataset.game = g.game;
    if (g.game === chosen.game) a.setAttribute("aria-current", "page");
    nav.appendChild(a);
  }
}

// Play across tables' markup (index.html's <template data-part="remote">, one for every
// game): its section after #play, its panel before the scenarios, with the chosen game's
// new-game fields only.
function remotePart(game) {
  const t = document.querySelector('template[data-part="remote"]');
  if (!t) return;
  const part = t.content.cloneNode(true);
  for (const e of part.querySelectorAll("[data-game]")) {
    if (!e.dataset.game.split(" ").includes(game)) e.remove();
  }
  document.getElementById("play").after(part.getElementById("remote-play"));
  document.getElementById("scenarios").before(part.getElementById("remote"));
}

async function boot() {
  const params = new URLSearchParams(location.search);
  const games = await fetch("games.json").then((r) => r.json());
  const wanted = params.get("game");
  const chosen = games.find((g) => g.game === wanted) || games[0];
  chooser(games, chosen);
  document.title = `${chosen.title} smart board: play in the browser`;
  document.getElementById("title").textContent = chosen.title.toUpperCase();
  const markup = document.querySelector(`template[data-game="${chosen.game}"]`).content;
  const sub = markup.querySelector(".sub");
  document.getElementById("sub").replaceWith(sub.cloneNode(true));
  document.querySelector("main").replaceChildren(...[...markup.children]
    .filter((e) => !e.classList.contains("sub")).map((e) => e.cloneNode(true)));
  remotePart(chosen.game);
  // The games' markup is used: none of it stays in the page (the sample scenarios name cards).
  for (const t of document.querySelectorAll("template")) t.remove();
  if (wanted !== null && wanted !== chosen.game) {
    const note = document.createElement("span");
    note.id = "no-game";
    note.textContent = `no game called "${wanted}" here: ${chosen.title} is shown`;
    document.getElementById("games").appendChild(note);
  }
  const [geometry, runtime, page] = await Promise.all([
    fetch(`boards/${chosen.game}.json`).then((r) => r.json()),
    startRuntime(chosen.game),
    import(`./${chosen.game}/page.js`),
  ]);
  let storage = null;
  try {
    storage = window.localStorage; // absent or refused (a private window): nothing kept
  } catch (e) {
    storage = null;
  }
  const game = new LocalGame(runtime, runtime.board, { storage, name: chosen.game });
  const ui = page.mount({ game, geometry, onError: showError });
  game.onChange((view) => ui.render(view));
  const seed = params.get("seed");
  // The game in progress before a reload goes on (localgame.js); else a new one.
  if (!game.resume()) {
    game.start([], seed !== null && /^\d+$/.test(seed) ? parseInt(seed, 10) : randomSeed());
  }

  let last = null;
  function frame(t) {
    const ms = last === null ? 0 : Math.min(MAX_FRAME_MS, t - last);
    last = t;
    try {
      // A tick after which the board had an event (its own players act in its ticks too)
      // brings the state: game.tick renders it first (onChange), then the frame is drawn.
      ui.draw(game.tick(Math.round(ms)));
    } catch (e) {
      showError(e);
      return; // stop the loop: a broken firmware call would fail every frame
    }
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);

  function runScenarioDetailed(text) {
    const r = runtime.call({ op: "scenario", text: String(text) });
    if (!r.ok) throw new Error(r.error);
    return { report: r.report, failures: r.failures };
  }
  Object.assign(window.kahuna, {
    runScenario: (text) => runScenarioDetailed(text).report,
    runScenarioDetailed,
    view: () => game.view,
    game,
    gameName: chosen.game,
    micropython: runtime.micropython,
  });
  document.getElementById("scenario-run").addEventListener("click", () => {
    const out = document.getElementById("scenario-out");
    try {
      const r = runScenarioDetailed(document.getElementById("scenario-text").value);
      out.textContent = r.report + (r.failures.length ? "\n\n" + r.failures.join("\n") : "");
      out.className = r.failures.length ? "failed" : "";
    } catch (e) {
      out.textContent = e.message;
      out.className = "failed";
    }
  });
  document.getElementById("version").textContent =
    `MicroPython ${runtime.micropython.version} (WebAssembly)`;
  document.body.classList.remove("loading");
}

let resolveReady;
let rejectReady;
window.kahuna = {
  ready: new Promise((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  }),
};

boot().then(resolveReady, (e) => {
  document.getElementById("loading").textContent = "The simulator could not start: " + e;
  rejectReady(e);
});

if ("serviceWorker" in navigator && location.protocol !== "file:") {
  // Keeps every file of the site, so it plays offline once loaded (sw.js).
  navigator.serviceWorker.register("sw.js").catch((e) => console.warn("no offline copy:", e));
}
