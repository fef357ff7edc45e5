// Connect Four board in SVG.  State (games.connect4.to_json): `board` is 6
// rows top to bottom of 7 cells, each null or a seat; `winning_cells` lists
// [row, col] of the winning lines, four cells per line.  Moves are columns
// "1".."7" from the left.

import { s } from "../dom.js";
import { discSymbol } from "../players.js";
import { Targets } from "./targets.js";

const ROWS = 6;
const COLS = 7;
const CELL = 100;
const TOP = 70; // strip above the board for the column markers
const R = 40;

export const name = "Connect Four";
export const help = "Click a column to drop a disc, or press 1–7. Arrow keys and Enter work too.";

export function describeMove(move) {
  return `column ${move}`;
}

export function parseMove(text) {
  const t = String(text).trim();
  return /^[1-7]$/.test(t) ? t : null;
}

/** The position after `moves` (move objects of the match), for browsing the move list. */
export function replay(moves) {
  const board = Array.from({ length: ROWS }, () => Array(COLS).fill(null));
  for (const m of moves) {
    if (typeof m.seat !== "number" || m.seat < 0) continue;
    const col = Number(m.move) - 1;
    for (let row = ROWS - 1; row >= 0; row -= 1) {
      if (board[row][col] === null) { board[row][col] = m.seat; break; }
    }
  }
  return { board, winning_cells: [] };
}

/**
 * For the room's sounds: "check" when the move leaves its player a threat (a disc dropped
 * in some column next would make four in a row), else null.  Connect Four has no captures.
 */
export function moveSound(move, state, seat) {
  const board = state && Array.isArray(state.board) ? state.board : null;
  if (!board || typeof seat !== "number" || seat < 0) return null;
  for (let col = 0; col < COLS; col += 1) {
    const row = landingRow(board, col);
    if (row >= 0 && makesFour(board, row, col, seat)) return "check";
  }
  return null;
}

function makesFour(board, row, col, seat) {
  const owned = (r, c) => r >= 0 && r < ROWS && c >= 0 && c < COLS && board[r][c] === seat;
  for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
    let run = 1;
    for (const sign of [1, -1]) {
      for (let k = 1; k < 4 && owned(row + sign * k * dr, col + sign * k * dc); k += 1) run += 1;
    }
    if (run >= 4) return true;
  }
  return false;
}

function topRow(board, col) {
  for (let row = 0; row < ROWS; row += 1) if (board[row][col] !== null) return row;
  return -1;
}

function landingRow(board, col) {
  for (let row = ROWS - 1; row >= 0; row -= 1) if (board[row][col] === null) return row;
  return -1;
}

const cx = (col) => col * CELL + CELL / 2;
const cy = (row) => TOP + row * CELL + CELL / 2;

function disc(seat, row, col, extra = "") {
  return s("g", { class: `disc seat-${seat} ${extra}`, "data-cell": `${row},${col}`, "data-seat": seat },
    s("circle", { class: "disc-body", cx: cx(col), cy: cy(row), r: R }),
    discSymbol(seat, cx(col), cy(row), R));
}

export function createBoard(container, { onMove }) {
  const svg = s("svg", {
    class: "board-svg board-connect4",
    viewBox: `0 0 ${COLS * CELL} ${TOP + ROWS * CELL}`,
    role: "group",
    "aria-label": "Connect Four board",
  });
  container.replaceChildren(svg);
  const targets = new Targets(svg, COLS, onMove);
  let shownLast = null; // the last move drawn, so only a new one drops in

  // `markerStrip` false: nobody plays from this page (a spectator, a finished match), so the strip
  // above the board, where the column markers show, would stay empty: the board leaves it out.
  function render({ state, legalMoves = [], interactive = false, lastMove = null, seatToMove = null, markerStrip = true }) {
    svg.setAttribute("viewBox", markerStrip ? `0 0 ${COLS * CELL} ${TOP + ROWS * CELL}` : `0 ${TOP} ${COLS * CELL} ${ROWS * CELL}`);
    const board = state && Array.isArray(state.board) ? state.board : replay([]).board;
    const legal = new Set(interactive ? legalMoves : []);
    const winning = (state && state.winning_cells) || [];
    const winningKeys = new Set(winning.map(([r, c]) => `${r},${c}`));
    const layers = [];

    layers.push(s("rect", { class: "frame", x: 0, y: TOP, width: COLS * CELL, height: ROWS * CELL, rx: 18 }));
    const lastCol = lastMove ? Number(lastMove) - 1 : -1;
    const lastRow = lastCol >= 0 ? topRow(board, lastCol) : -1;
    const stones = board.flat().filter((c) => c !== null && c !== undefined).length;
    const lastKey = lastRow >= 0 ? `${lastRow},${lastCol},${stones}` : null;
    const dropIn = shownLast !== null && lastKey !== null && lastKey !== shownLast;
    shownLast = lastKey ?? "";
    for (let row = 0; row < ROWS; row += 1) {
      for (let col = 0; col < COLS; col += 1) {
        const seat = board[row][col];
        if (seat === null || seat === undefined) {
          layers.push(s("circle", { class: "hole", cx: cx(col), cy: cy(row), r: R, "data-cell": `${row},${col}` }));
          continue;
        }
        const classes = [];
        if (row === lastRow && col === lastCol) classes.push("last-move");
        if (row === lastRow && col === lastCol && dropIn) classes.push("drop");
        if (winningKeys.has(`${row},${col}`)) classes.push("winning");
        const node = disc(seat, row, col, classes.join(" "));
        if (classes.includes("drop")) node.style.setProperty("--drop", `${-(row + 1) * CELL - TOP}px`);
        layers.push(node);
      }
    }
    if (lastRow >= 0) {
      layers.push(s("circle", { class: "last-move-ring", cx: cx(lastCol), cy: cy(lastRow), r: R + 5 }));
    }
    for (let i = 0; i + 3 < winning.length; i += 4) {
      const cells = winning.slice(i, i + 4).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
      const [a, b] = [cells[0], cells[cells.length - 1]];
      layers.push(s("line", { class: "winning-line", x1: cx(a[1]), y1: cy(a[0]), x2: cx(b[1]), y2: cy(b[0]) }));
    }
    for (const [row, col] of winning) {
      layers.push(s("circle", { class: "winning-ring", cx: cx(col), cy: cy(row), r: R + 2 }));
    }

    const nodes = [];
    for (let col = 0; col < COLS; col += 1) {
      const move = String(col + 1);
      const isLegal = legal.has(move);
      const land = landingRow(board, col);
      const target = s("g", {
        class: `target col-target${isLegal ? " legal" : ""}`,
        "data-move": move,
        role: "button",
        "aria-label": `Column ${move}${isLegal ? "" : board[0][col] !== null ? ", full" : ""}`,
        "aria-disabled": isLegal ? "false" : "true",
      },
      s("rect", { class: "hit", x: col * CELL, y: 0, width: CELL, height: TOP + ROWS * CELL }),
      isLegal ? s("path", { class: "legal-marker", d: `M${cx(col) - 16} ${TOP - 40} L${cx(col) + 16} ${TOP - 40} L${cx(col)} ${TOP - 14} Z` }) : null,
      isLegal && land >= 0 && seatToMove !== null
        ? s("g", { class: `ghost seat-${seatToMove}` }, s("circle", { class: "disc-body", cx: cx(col), cy: cy(land), r: R }), discSymbol(seatToMove, cx(col), cy(land), R))
        : null);
      nodes.push(target);
    }
    svg.replaceChildren(...layers, ...nodes);
    targets.set(nodes);
  }

  return { render, focus: () => targets.focus() };
}

/**
 * Optional, for pages that show a position without playing it (the analysis): a dashed
 * ring where `move` would land in `state`, and an arrow above its column.  Null for a
 * move this board cannot place.
 */
export function moveMarker(state, move) {
  const board = state && Array.isArray(state.board) ? state.board : replay([]).board;
  const col = Number(move) - 1;
  if (!(col >= 0 && col < COLS)) return null;
  const row = landingRow(board, col);
  const paint = { fill: "none", stroke: "#0a7d33", "stroke-width": 8, "pointer-events": "none" };
  return s("g", { class: "move-marker", "data-testid": "move-marker", "data-move": move },
    s("path", { ...paint, fill: "#0a7d33", d: `M${cx(col) - 20} ${TOP - 50} L${cx(col) + 20} ${TOP - 50} L${cx(col)} ${TOP - 10} Z` }),
    row >= 0 ? s("circle", { ...paint, "stroke-dasharray": "14 8", cx: cx(col), cy: cy(row), r: R + 2 }) : null);
}
