// Tic-tac-toe board in SVG.  State (games.tictactoe.to_json): `board` is 9
// cells row-major, each null or a seat (0 plays X, 1 plays O);
// `winning_line` lists the three winning cells as moves ("1".."9").

import { s } from "../dom.js";
import { Targets } from "./targets.js";

const CELL = 100;
const PLACES = ["top left", "top", "top right", "left", "centre", "right", "bottom left", "bottom", "bottom right"];

export const name = "Tic-tac-toe";
export const help = "Click a square, or press 1–9 (1 is top left, row by row). Arrow keys and Enter work too.";

export function describeMove(move) {
  const place = PLACES[Number(move) - 1];
  return place ? `square ${move} (${place})` : `square ${move}`;
}

export function parseMove(text) {
  const t = String(text).trim();
  return /^[1-9]$/.test(t) ? t : null;
}

export function replay(moves) {
  const board = Array(9).fill(null);
  for (const m of moves) {
    if (typeof m.seat === "number" && m.seat >= 0) board[Number(m.move) - 1] = m.seat;
  }
  return { board, winning_line: [] };
}

const centre = (i) => [(i % 3) * CELL + CELL / 2, Math.floor(i / 3) * CELL + CELL / 2];

function mark(seat, i, extra = "") {
  const [x, y] = centre(i);
  const k = 28;
  if (seat === 0) {
    return s("path", { class: `mark mark-x seat-0 ${extra}`, d: `M${x - k} ${y - k} L${x + k} ${y + k} M${x + k} ${y - k} L${x - k} ${y + k}` });
  }
  return s("circle", { class: `mark mark-o seat-1 ${extra}`, cx: x, cy: y, r: k + 2 });
}

export function createBoard(container, { onMove }) {
  const svg = s("svg", { class: "board-svg board-tictactoe", viewBox: `0 0 ${3 * CELL} ${3 * CELL}`, role: "group", "aria-label": "Tic-tac-toe board" });
  container.replaceChildren(svg);
  const targets = new Targets(svg, 3, onMove);

  function render({ state, legalMoves = [], interactive = false, lastMove = null, seatToMove = null }) {
    const board = state && Array.isArray(state.board) ? state.board : Array(9).fill(null);
    const legal = new Set(interactive ? legalMoves : []);
    const winning = (state && state.winning_line) || [];
    const nodes = [];
    for (let i = 0; i < 9; i += 1) {
      const move = String(i + 1);
      const seat = board[i];
      const isLegal = legal.has(move);
      const [x, y] = centre(i);
      const classes = ["target", "cell"];
      if (isLegal) classes.push("legal");
      if (lastMove === move) classes.push("last-move");
      if (winning.includes(move)) classes.push("winning");
      const label = seat === null || seat === undefined
        ? `Square ${move}, ${PLACES[i]}, empty`
        : `Square ${move}, ${PLACES[i]}, ${seat === 0 ? "X" : "O"}`;
      nodes.push(s("g", {
        class: classes.join(" "),
        "data-move": move,
        "data-seat": seat ?? null,
        role: "button",
        "aria-label": label,
        "aria-disabled": isLegal ? "false" : "true",
      },
      s("rect", { class: "hit", x: x - CELL / 2 + 4, y: y - CELL / 2 + 4, width: CELL - 8, height: CELL - 8, rx: 8 }),
      seat === null || seat === undefined
        ? (isLegal && seatToMove !== null ? s("g", { class: "ghost" }, mark(seatToMove, i)) : null)
        : mark(seat, i),
      lastMove === move ? s("circle", { class: "last-move-dot", cx: x + 38, cy: y - 38, r: 6 }) : null));
    }
    const grid = s("g", { class: "grid" },
      s("path", { d: `M${CELL} 8 V${3 * CELL - 8} M${2 * CELL} 8 V${3 * CELL - 8} M8 ${CELL} H${3 * CELL - 8} M8 ${2 * CELL} H${3 * CELL - 8}` }));
    const overlays = [];
    if (winning.length >= 2) {
      const cells = winning.map((m) => Number(m) - 1).sort((a, b) => a - b);
      const [x1, y1] = centre(cells[0]);
      const [x2, y2] = centre(cells[cells.length - 1]);
      overlays.push(s("line", { class: "winning-line", x1, y1, x2, y2 }));
    }
    svg.replaceChildren(grid, ...nodes, ...overlays);
    targets.set(nodes);
  }

  return { render, focus: () => targets.focus() };
}

/**
 * Optional, for pages that show a position without playing it (the analysis): a dashed
 * square around the cell of `move`.  Null for a move this board cannot place.
 */
export function moveMarker(state, move) {
  const i = Number(move) - 1;
  if (!(i >= 0 && i < 9)) return null;
  const [x, y] = centre(i);
  return s("g", { class: "move-marker", "data-testid": "move-marker", "data-move": move },
    s("rect", {
      x: x - 42, y: y - 42, width: 84, height: 84, rx: 10,
      fill: "none", stroke: "#0a7d33", "stroke-width": 6, "stroke-dasharray": "12 7", "pointer-events": "none",
    }));
}
