// English draughts (checkers) board in SVG.  State (games.checkers to_json): `board` is 32
// characters, square 1 first: "b"/"w" a man, "B"/"W" a king, "." empty.  Squares are the
// standard numbers 1-32 of the dark squares, 1-4 on the row where Black starts; a move is
// "11-15", a capture "15x24", a multi-jump "15x24x31" (every landing square).  Pick one of
// your pieces, then where it lands; the legal moves come with the match, never from here.

import { h, s } from "../dom.js";
import { Targets } from "./targets.js";

const N = 8;
const CELL = 100;
const MARGIN = 8;

export const name = "Checkers";
export const help =
  "Pick one of your pieces, then the square it lands on (a capture: its last square). Arrow keys move, Enter picks, Escape lets go; or type a move such as 11-15 or 15x24.";

export function describeMove(move) {
  const path = String(move).split(/[x-]/);
  if (!String(move).includes("x")) return `${path[0]} to ${path[1]}`;
  const jumps = path.length - 1;
  return `${path[0]} captures to ${path[path.length - 1]}${jumps > 1 ? ` in ${jumps} jumps` : ""}`;
}

export function parseMove(text) {
  const t = String(text).trim().toLowerCase().replace(/\s+/g, "");
  return /^\d{1,2}-\d{1,2}$/.test(t) || /^\d{1,2}(x\d{1,2})+$/.test(t) ? t : null;
}

export const replay = null; // captures and crowning are the rules' business: only the live position is drawn

export const canFlip = true; // render({flipped: true}) draws Black's side at the bottom

export function moveSound(move) {
  return String(move).includes("x") ? "capture" : null;
}

/** The row (from the top, White at the bottom) and column of square 1..32. */
function place(square) {
  const i = square - 1;
  const row = Math.floor(i / 4);
  return [row, 2 * (i % 4) + (row % 2 === 0 ? 1 : 0)];
}

const ends = (move) => {
  const path = String(move).split(/[x-]/).map(Number);
  return [path[0], path[path.length - 1]];
};

export function createBoard(container, { onMove }) {
  const svg = s("svg", {
    class: "board-svg board-checkers",
    viewBox: `0 0 ${2 * MARGIN + N * CELL} ${2 * MARGIN + N * CELL}`,
    role: "group",
    "aria-label": "Checkers board",
  });
  const summary = h("p", { class: "checkers-summary", "data-testid": "checkers-summary" });
  container.replaceChildren(h("div", { class: "checkers-wrap" }, summary, svg));
  let selected = null; // the square of the picked piece
  let last = null; // the last render's view, to draw again on a pick

  const targets = new Targets(svg, 4, (key) => choose(Number(String(key).slice(1))));
  svg.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && selected !== null) {
      selected = null;
      render(last);
    }
  });

  function choose(square) {
    // Not ours to move: the room says why (a square is no move, so nothing is queued or sent).
    if (!last || !last.interactive) return onMove(`s${square}`);
    const moves = last.legalMoves || [];
    if (selected !== null) {
      const move = moves.find((m) => ends(m)[0] === selected && ends(m)[1] === square);
      if (move) {
        selected = null;
        return onMove(move);
      }
    }
    // Picking the picked piece again lets it go; another of yours is picked instead.
    selected = square !== selected && moves.some((m) => ends(m)[0] === square) ? square : null;
    render(last);
    return undefined;
  }

  function render(view) {
    last = view;
    const { state, legalMoves = [], interactive = false, lastMove = null, flipped = false } = view;
    const board = state && typeof state.board === "string" && state.board.length === 32 ? state.board : ".".repeat(32);
    const moves = interactive ? legalMoves : [];
    if (selected !== null && !moves.some((m) => ends(m)[0] === selected)) selected = null;
    const movable = new Set(moves.map((m) => ends(m)[0]));
    const landing = new Set(moves.filter((m) => ends(m)[0] === selected).map((m) => ends(m)[1]));
    const lastSquares = lastMove ? String(lastMove).split(/[x-]/).map(Number) : [];
    // As in the standard diagrams, Black starts at the top; the flip button turns the board round.
    const turned = Boolean(flipped);
    const at = (i) => (turned ? N - 1 - i : i);
    const layers = [s("rect", { class: "frame", x: 0, y: 0, width: 2 * MARGIN + N * CELL, height: 2 * MARGIN + N * CELL, rx: 6 })];
    for (let row = 0; row < N; row += 1) {
      for (let col = 0; col < N; col += 1) {
        if ((row + col) % 2 === 0) layers.push(s("rect", { class: "light", x: MARGIN + col * CELL, y: MARGIN + row * CELL, width: CELL, height: CELL }));
      }
    }
    const nodes = [];
    const order = Array.from({ length: 32 }, (_, i) => i + 1).sort((a, b) => {
      const [ra, ca] = place(a).map(at);
      const [rb, cb] = place(b).map(at);
      return ra - rb || ca - cb;
    }); // screen order, so the arrow keys move the way they point
    for (const square of order) {
      const [row, col] = place(square).map(at);
      const x = MARGIN + col * CELL;
      const y = MARGIN + row * CELL;
      const piece = board[square - 1];
      const seat = piece === "." ? null : piece.toLowerCase() === "b" ? 0 : 1;
      const king = piece === "B" || piece === "W";
      const classes = ["target", "square"];
      if (movable.has(square)) classes.push("movable");
      if (square === selected) classes.push("selected");
      if (landing.has(square)) classes.push("legal", "landing");
      else if (movable.has(square)) classes.push("legal");
      if (lastSquares.includes(square)) classes.push("last-move");
      const words = seat === null ? "empty" : `${seat === 0 ? "black" : "white"} ${king ? "king" : "man"}`;
      nodes.push(s("g", {
        class: classes.join(" "),
        "data-move": `s${square}`,
        "data-square": square,
        "data-piece": piece,
        role: "button",
        "aria-label": `${square}, ${words}${square === selected ? ", picked" : ""}${landing.has(square) ? ", it can land here" : movable.has(square) ? ", can move" : ""}`,
        "aria-disabled": movable.has(square) || landing.has(square) ? "false" : "true",
      },
      s("rect", { class: "hit dark", x, y, width: CELL, height: CELL }),
      s("text", { class: "number", x: x + 8, y: y + 22 }, String(square)),
      seat === null ? null : s("g", { class: `piece seat-${seat}${king ? " king" : ""}` },
        s("circle", { class: "piece-body", cx: x + CELL / 2, cy: y + CELL / 2, r: 35 }),
        s("circle", { class: "piece-ring", cx: x + CELL / 2, cy: y + CELL / 2, r: 24 }),
        king ? s("text", { class: "crown", x: x + CELL / 2, y: y + CELL / 2 + 14 }, "K") : null),
      landing.has(square) ? s("circle", { class: "landing-dot", cx: x + CELL / 2, cy: y + CELL / 2, r: 14 }) : null,
      s("rect", { class: "focus-ring", x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8 })));
    }
    svg.replaceChildren(...layers, ...nodes);
    svg.dataset.flipped = String(turned);
    targets.set(nodes);
    const count = (letters) => [...board].filter((c) => letters.includes(c)).length;
    summary.textContent = `Black ${count("bB")} (${count("B")} kings) · White ${count("wW")} (${count("W")} kings)`;
  }

  return { render, focus: () => targets.focus() };
}

/** For the analysis: dashed squares around the move's first and last squares, on the board as `svg` draws it. */
export function moveMarker(state, move, svg) {
  if (!parseMove(move)) return null;
  const turned = Boolean(svg && svg.dataset.flipped === "true");
  const g = s("g", { class: "move-marker", "data-testid": "move-marker", "data-move": move });
  for (const square of ends(move)) {
    if (square < 1 || square > 32) return null;
    const [row, col] = place(square).map((i) => (turned ? N - 1 - i : i));
    g.append(s("rect", {
      x: MARGIN + col * CELL + 6, y: MARGIN + row * CELL + 6, width: CELL - 12, height: CELL - 12, rx: 8,
      "data-square": square, fill: "none", stroke: "#0a7d33", "stroke-width": 7, "stroke-dasharray": "12 7", "pointer-events": "none",
    }));
  }
  return g;
}
