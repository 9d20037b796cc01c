// Kahuna's part of the page: the board lit by its LEDs (../boardview.js, also the live
// page's), the status lamps and the panel (../panel.js), in the markup of index.html's
// <template data-game="kahuna">; and a seat in a game across tables (../remote.js, with
// Kahuna's view of it: ./remoteview.js).

import { BoardView, StatusLamps } from "../boardview.js";
import { Panel } from "../panel.js";
import { mountRemote } from "../remote.js";
import { mountRecord } from "./record.js";
import { KahunaRemote } from "./remoteview.js";

export function mount({ game, geometry, onError }) {
  const panel = new Panel(game, geometry, { onError });
  mountRecord({ runtime: game.rt, geometry, onError });
  mountRemote({ runtime: game.rt, game: "kahuna", onError,
    makeView: (table) => new KahunaRemote(table, geometry) });
  const board = new BoardView(document.getElementById("board"), geometry, {
    onConnection: (id) => panel.act(() => game.pick(id)),
  });
  const lamps = new StatusLamps(document.getElementById("lamps"), geometry);
  const draw = (view) => {
    board.draw({ leds: view.leds, report: view.state.report });
    lamps.draw(view);
  };
  return {
    render(view) {
      panel.render(view);
      draw(view);
    },
    draw,
  };
}
