// Othello board in SVG.  State (games.othello.to_json): `board` is 8 rows
// (1..8 from the top) of 8 cells (a..h), each null or a seat (0 black, 1
// white); `discs` counts them.  Moves are squares "a1".."h8", or "pass" when
// the player has no other move.

import { h, s } from "../dom.js";
import { Targets } from "./targets.js";

const N = 8;
const CELL = 100;
const MARGIN = 40; // room for the coordinates
const FILES = "abcdefgh";

export const name = "Othello";
export const help = "Click a square marked with a dot to place a disc, or type its name (d3). Arrow keys and Enter work too.";

export function describeMove(move) {
  return move === "pass" ? "pass" : move;
}

export function parseMove(text) {
  const t = String(text).trim().toLowerCase();
  return /^[a-h][1-8]$/.test(t) || t === "pass" ? t : null;
}

export const replay = null; // flips are the rules' business: only the live position is drawn

export const canFlip = true; // render({flipped: true}) draws h8 at the top left

const squareName = (row, col) => `${FILES[col]}${row + 1}`;
const squareX = (col) => MARGIN + col * CELL + CELL / 2; // on screen, counted from the left
const squareY = (row) => MARGIN + row * CELL + CELL / 2;
const cx = squareX; // unflipped, for the analysis page's marker
const cy = squareY;

export function createBoard(container, { onMove }) {
  const svg = s("svg", {
    class: "board-svg board-othello",
    viewBox: `0 0 ${2 * MARGIN + N * CELL} ${2 * MARGIN + N * CELL}`,
    role: "group",
    "aria-label": "Othello board",
  });
  const pass = h("button", { type: "button", class: "pass-button", "data-move": "pass", hidden: true }, "Pass (no legal move)");
  const counts = h("p", { class: "disc-counts", "data-testid": "disc-counts" });
  const wrap = h("div", { class: "othello-wrap" }, counts, svg, pass);
  container.replaceChildren(wrap);
  const targets = new Targets(svg, N, onMove);
  pass.addEventListener("click", () => onMove("pass"));

  function render({ state, legalMoves = [], interactive = false, lastMove = null, seatToMove = null, flipped = false }) {
    // Turned round, a square's row and column count from the other side; the targets are
    // listed in screen order either way, so the arrow keys move the way they point.
    const at = (i) => (flipped ? N - 1 - i : i);
    const cx = (col) => squareX(at(col));
    const cy = (row) => squareY(at(row));
    const board = state && Array.isArray(state.board) ? state.board : Array.from({ length: N }, () => Array(N).fill(null));
    const legal = new Set(interactive ? legalMoves : []);
    const layers = [s("rect", { class: "felt", x: MARGIN, y: MARGIN, width: N * CELL, height: N * CELL, rx: 6 })];
    for (let i = 0; i < N; i += 1) {
      layers.push(s("text", { class: "coord", x: cx(i), y: MARGIN * 0.7 }, FILES[i]));
      layers.push(s("text", { class: "coord", x: MARGIN * 0.5, y: cy(i) + 10 }, String(i + 1)));
    }
    const grid = [];
    for (let i = 0; i <= N; i += 1) {
      grid.push(`M${MARGIN + i * CELL} ${MARGIN} V${MARGIN + N * CELL}`, `M${MARGIN} ${MARGIN + i * CELL} H${MARGIN + N * CELL}`);
    }
    layers.push(s("path", { class: "grid", d: grid.join(" ") }));
    const nodes = [];
    for (let screenRow = 0; screenRow < N; screenRow += 1) {
      for (let screenCol = 0; screenCol < N; screenCol += 1) {
        const [row, col] = [at(screenRow), at(screenCol)];
        const move = squareName(row, col);
        const seat = board[row][col];
        const isLegal = legal.has(move);
        const label = seat === null || seat === undefined ? "empty" : seat === 0 ? "black" : "white";
        nodes.push(s("g", {
          class: `target square${isLegal ? " legal" : ""}${lastMove === move ? " last-move" : ""}`,
          "data-move": move,
          "data-seat": seat ?? null,
          role: "button",
          "aria-label": `${move}, ${label}${isLegal ? ", legal move" : ""}`,
          "aria-disabled": isLegal ? "false" : "true",
        },
        s("rect", { class: "hit", x: MARGIN + at(col) * CELL, y: MARGIN + at(row) * CELL, width: CELL, height: CELL }),
        seat === null || seat === undefined
          ? (isLegal ? s("circle", { class: `legal-dot seat-${seatToMove}`, cx: cx(col), cy: cy(row), r: 15 }) : null)
          : s("circle", { class: `disc seat-${seat}`, cx: cx(col), cy: cy(row), r: 40 }),
        lastMove === move ? s("circle", { class: "last-move-dot", cx: cx(col), cy: cy(row), r: 9 }) : null));
      }
    }
    svg.replaceChildren(...layers, ...nodes);
    svg.dataset.flipped = String(flipped);
    targets.set(nodes);
    pass.hidden = !legal.has("pass");
    const discs = state && Array.isArray(state.discs) ? state.discs : null;
    counts.textContent = discs ? `Black ${discs[0]} · White ${discs[1]}` : "";
  }

  return { render, focus: () => targets.focus() };
}

/**
 * Optional, for pages that show a position without playing it (the analysis): a dashed
 * square around `move`'s square.  Null for a pass or a move this board cannot place.
 */
export function moveMarker(state, move) {
  const m = /^([a-h])([1-8])$/.exec(String(move));
  if (!m) return null;
  const col = FILES.indexOf(m[1]);
  const row = Number(m[2]) - 1;
  return s("g", { class: "move-marker", "data-testid": "move-marker", "data-move": move },
    s("rect", {
      x: cx(col) - 44, y: cy(row) - 44, width: 88, height: 88, rx: 8,
      fill: "none", stroke: "#0a7d33", "stroke-width": 7, "stroke-dasharray": "12 7", "pointer-events": "none",
    }));
}
