// A plain board for games that have no drawing yet: the legal moves as
// buttons, and the position as the server describes it.

import { h } from "../dom.js";
import { Targets } from "./targets.js";

export const name = "";
export const help = "Choose one of the legal moves below, or type a move.";

export function describeMove(move) {
  return move;
}

export function parseMove(text) {
  const t = String(text).trim();
  return t || null;
}

export const replay = null; // positions before the live one are not known here

export function createBoard(container, { onMove }) {
  const moves = h("div", { class: "generic-moves", role: "group", "aria-label": "Legal moves" });
  const position = h("pre", { class: "generic-state" });
  container.replaceChildren(moves, position);
  const targets = new Targets(moves, 8, onMove);

  function render({ state, legalMoves = [], interactive = false }) {
    const nodes = (interactive ? legalMoves : []).map((move) =>
      h("button", { type: "button", class: "target legal", "data-move": move, "aria-disabled": "false" }, move));
    moves.replaceChildren(...nodes);
    position.textContent = JSON.stringify(state, null, 1);
    targets.set(nodes);
  }

  return { render, focus: () => targets.focus() };
}
