// The Python side of the page: MicroPython (WebAssembly) running the board's firmware and
// the simulator's virtual hardware, all loaded from this site (py/GAME.json, one game's
// bundle, written by host_tools/web/build.py). One call crosses over: handle(JSON request)
// -> JSON response (see host_tools/web/game.py for the requests).

import { loadMicroPython } from "../vendor/micropython/micropython.mjs";

const ROOT = "/kahuna";
const HEAP = 16 * 1024 * 1024;

export async function startRuntime(game) {
  const [bundle, build] = await Promise.all([
    fetch(`py/${game}.json`).then((r) => r.json()),
    fetch("build.json").then((r) => r.json()),
  ]);
  const printed = [];
  const mp = await loadMicroPython({
    heapsize: HEAP,
    stdout: (line) => printed.push(line),
    stderr: (line) => printed.push(line),
  });
  for (const [path, text] of Object.entries(bundle.files)) {
    const full = `${ROOT}/${path}`;
    mp.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
    mp.FS.writeFile(full, text);
  }
  // The same import roots as on the board and in the simulator: firmware/ then the repo.
  const roots = bundle.paths.map((p) => (p === "." ? ROOT : `${ROOT}/${p}`));
  mp.runPython(
    "import sys\n" + roots.reverse().map((p) => `sys.path.insert(0, ${JSON.stringify(p)})`).join("\n"),
  );
  const webgame = mp.pyimport(bundle.entry);
  return {
    board: `${ROOT}/${bundle.board}`, // the board definition in MicroPython's file system
    micropython: build.micropython,
    printed,
    call(request) {
      return JSON.parse(webgame.handle(JSON.stringify(request)));
    },
  };
}
