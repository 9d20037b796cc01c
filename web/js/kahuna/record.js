// Kahuna's game record on the static page: the game as a scenario file to download (the
// page's Python writes it from the simulator's journal, host_tools/games/kahuna/record.py:
// a game in play from what is public, with stand-ins for its hidden cards), and a
// scenario file opened (or typed
// into "Run a scenario") replayed step by step on a board of its own, each step with its
// line and the board's lights after it.

import { BoardView } from "../boardview.js";

const $ = (id) => document.getElementById(id);

export function mountRecord({ runtime, geometry, onError }) {
  const board = new BoardView($("steps-board"), geometry);
  let steps = null;
  let step = 0;

  function show(i) {
    if (!steps) return;
    step = Math.max(0, Math.min(steps.length - 1, i));
    const s = steps[step];
    $("steps-step").value = String(step);
    $("steps-count").textContent = `step ${step} of ${steps.length - 1}`;
    $("steps-text").textContent = s.line ? `line ${s.line}: ${s.text}` : s.text;
    board.draw({ leds: s.leds, report: s.report });
    const r = s.report;
    $("steps-score").textContent = `Round ${r.round} · ${r.phase} · ${r.turn} · score white ` +
      `${r.scores.white}, black ${r.scores.black}` +
      (r.winner ? ` · ${r.winner === "draw" ? "a draw" : r.winner + " wins"}` : "");
  }

  function replay() {
    const out = $("scenario-out");
    const r = runtime.call({ op: "steps", text: $("scenario-text").value });
    if (!r.ok) {
      out.textContent = r.error;
      out.className = "failed";
      $("steps").hidden = true;
      return;
    }
    steps = r.steps;
    out.textContent = r.failures.length ? r.failures.join("\n") : "";
    out.className = r.failures.length ? "failed" : "";
    $("steps-step").max = String(steps.length - 1);
    $("steps").hidden = false;
    show(0);
  }

  function download() {
    const r = runtime.call({ op: "record" });
    const note = $("record-note");
    if (!r.ok) {
      note.textContent = r.error.replace(/^\w+Error: /, "");
      return;
    }
    note.textContent = r.text.startsWith("# Kahuna: a public record")
      ? "Written: kahuna-game.scn, from what is public (stand-ins for the hidden cards)"
      : "Written: kahuna-game.scn";
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([r.text], { type: "text/plain" }));
    a.download = "kahuna-game.scn";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  const guard = (fn) => () => {
    try {
      fn();
    } catch (e) {
      onError(e);
    }
  };
  $("steps-run").addEventListener("click", guard(replay));
  $("steps-step").addEventListener("input", () => show(+$("steps-step").value));
  $("steps-prev").addEventListener("click", () => show(step - 1));
  $("steps-next").addEventListener("click", () => show(step + 1));
  $("record-download").addEventListener("click", guard(download));
  $("scenario-file").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    $("scenario-text").value = await file.text();
  });
}
