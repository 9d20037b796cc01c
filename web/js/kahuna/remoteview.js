// Kahuna's view of a game across tables (../remote.js holds the connection and the panel):
// the board lit as the board lights it (bridges and islands in their owners' colours, the
// connections of the moves open to this seat in the option colours), the face-up display,
// the deck's count, this seat's hand, the score table, its moves and events in words. A
// connection clicked on the board makes the one move open there; with several (a bridge
// from either card, say), they are marked among the buttons.

import { BoardView } from "../boardview.js";
import { $, cap, make, playerRows } from "../dom.js";

const WORDS = {
  end_play: "end the play phase", decline: "decline to draw", skip_refill: "leave the refill",
  resume_play: "back to the play phase", undo: "undo",
};

function chip(name) {
  const [island, n] = name.split("-");
  const b = make("span", { cls: "card small", attrs: { "data-card": name } });
  b.append(make("span", { cls: "island", text: island }), make("span", { cls: "n", text: n }));
  return b;
}

export class KahunaRemote {
  constructor(table, geometry) {
    this.table = table;
    this.g = geometry;
    this.chosenConn = null;
    this.seq = null;
    this.board = new BoardView($("remote-board"), geometry, {
      onConnection: (id) => this.pickConnection(id),
    });
    $("remote-table").replaceChildren(make("h2", { text: "Face-up cards" }),
      make("div", { cls: "cards", attrs: { id: "remote-display" } }),
      make("p", { cls: "muted", attrs: { id: "remote-deck" } }));
    $("remote-info").replaceChildren(make("table", { cls: "players" }));
    $("remote-info").firstChild.innerHTML = "<thead><tr><th></th><th>hand</th><th>supply</th>" +
      "<th>board</th><th>islands</th><th>score</th></tr></thead><tbody id=\"remote-players\"></tbody>";
  }

  // The new game's seat and settings from the panel's form.
  settings(f) {
    return { seat: f.seat.value, settings: { variant: f.variant.value, first: f.first.value } };
  }

  // A request in words, for its button.
  describe(action) {
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
  eventText([seq, actor, action]) {
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
      default: text = this.describe(action);
    }
    return `${seq}: ${who} ${text}`;
  }

  status(v) {
    const pub = v.public;
    let line = `Round ${pub.round} of 3 · ${pub.phase.toUpperCase()}`;
    if (v.over) {
      line += " · " + (pub.winner === "draw" ? "a draw" : `${cap(pub.winner)} wins`);
    } else {
      line += pub.turn === v.seat ? " · your turn" : ` · ${cap(pub.turn)} (the other table)`;
    }
    return line;
  }

  mine(v) {
    return v.public.turn === v.seat;
  }

  // Whether the option's button is marked (a connection clicked with several moves there).
  marked(action) {
    return this.chosenConn !== null && action[action.length - 1] === this.chosenConn;
  }

  pickConnection(id) {
    const v = this.table.current;
    const there = v ? v.options.filter((o) => o[o.length - 1] === id) : [];
    if (there.length === 1) {
      this.table.tryMove(there[0]);
      return;
    }
    this.chosenConn = there.length ? id : null;
    if (v) this.table.render(v);
  }

  render(v) {
    if (this.seq !== v.seq) this.chosenConn = null;
    this.seq = v.seq;
    const pub = v.public;
    const hand = $("remote-hand");
    hand.replaceChildren();
    for (const name of v.hand || []) hand.append(chip(name));
    if (!(v.hand || []).length) hand.append(make("span", { cls: "muted", text: "no cards" }));
    const display = $("remote-display");
    display.replaceChildren();
    for (const name of (pub && pub.display) || []) display.append(chip(name));
    $("remote-deck").textContent = pub ? `Deck: ${pub.deck} cards face down` : "";
    if (pub) {
      playerRows($("remote-players"), pub, this.g.palette, (p) => (p === v.seat ? " (you)" : ""));
    }
    this.board.draw({ leds: this.frame(pub, pub ? v.options : []), report: pub || {} });
  }

  // The board's lights from the public state, as the board shows them.
  frame(pub, options) {
    const pal = this.g.palette;
    const dim = (c) => c.map((x) => Math.round(x * this.g.brightness));
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
