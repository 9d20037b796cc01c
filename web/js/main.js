// Boot: the board's drawing, MicroPython with the firmware, the page's game, the animation
// loop, and the page's API for scripts:
//
//   await kahuna.ready
//   kahuna.runScenario(text)          -> the JSON report, the very text of
//                                        `python -m host_tools sim --json` (throws an Error
//                                        naming the line for a scenario it cannot read)
//   kahuna.runScenarioDetailed(text)  -> { report, failures }  (failed `expect` lines)
//   kahuna.view()                     -> { state, leds } now on the page
//   kahuna.game                       -> the page's game (deck, take, play, press, pick,
//                                        newGame(options, seed), hand(player))
//   kahuna.micropython                -> { package, version } of the WebAssembly port
//
// `?seed=N` in the address deals the first game from that seed (the same cards each time).

import { BoardView, StatusLamps } from "./boardview.js";
import { LocalGame, randomSeed } from "./localgame.js";
import { Panel } from "./panel.js";
import { startRuntime } from "./runtime.js";

const MAX_FRAME_MS = 250;

function showError(e) {
  const box = document.getElementById("message");
  box.className = "message error";
  box.textContent = "Internal error (a bug; please report it): " + (e && e.message ? e.message : e);
  console.error(e);
}

async function boot() {
  const geometry = await fetch("board.json").then((r) => r.json());
  const runtime = await startRuntime();
  const game = new LocalGame(runtime);
  const board = new BoardView(document.getElementById("board"), geometry, {
    onConnection: (id) => panel.act(() => game.pick(id)),
  });
  const lamps = new StatusLamps(document.getElementById("lamps"), geometry);
  const panel = new Panel(game, geometry, { onError: showError });
  game.onChange((view) => {
    panel.render(view);
    board.draw({ leds: view.leds, report: view.state.report });
    lamps.draw(view);
  });
  const seed = new URLSearchParams(location.search).get("seed");
  game.start([], seed !== null && /^\d+$/.test(seed) ? parseInt(seed, 10) : randomSeed());

  let last = null;
  function frame(t) {
    const ms = last === null ? 0 : Math.min(MAX_FRAME_MS, t - last);
    last = t;
    try {
      const view = game.tick(Math.round(ms));
      board.draw({ leds: view.leds, report: view.state.report });
      lamps.draw(view);
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
