// Chinese checkers board in SVG.  State (games.chinese_checkers.to_json):
// `board` is 17 rows of holes, top to bottom, each null or a seat; `homes` and
// `targets` name each seat's triangles.  A hole is named by its row letter
// (a..q from the top) and its number in the row from the left ("i5" is the
// centre).  A move is the path a piece takes ("m5-l5", "m4-k4-i4-g6"), or
// "pass".  Select one of your pieces to see where it can go, then pick the
// destination.

import { h, s } from "../dom.js";
import { discSymbol } from "../players.js";
import { replaceKeepingMarkers } from "./markers.js";

const UNIT = 38;
const R = 14;
const ROW_LETTERS = "abcdefghijklmnopq";
const SQRT3_2 = Math.sqrt(3) / 2;

export const name = "Chinese checkers";
export const help = "Select one of your pieces (it must be your turn), then one of the marked holes. You can also type a move such as m5-l5.";

export function describeMove(move) {
  if (move === "pass") return "pass";
  const path = String(move).split("-");
  return path.length > 2 ? `${path[0]} to ${path[path.length - 1]} in ${path.length - 1} jumps` : `${path[0]} to ${path[path.length - 1]}`;
}

export function parseMove(text) {
  const t = String(text).trim().toLowerCase();
  return /^([a-q]\d{1,2})(-[a-q]\d{1,2})+$/.test(t) || t === "pass" ? t : null;
}

export const replay = null; // only the live position is drawn

export const canFlip = true; // render({flipped: true}) turns the star half round: row q at the top

export function createBoard(container, { onMove, seatName = (seat) => `seat ${seat + 1}` }) {
  const svg = s("svg", { class: "board-svg board-cc", role: "group", "aria-label": "Chinese checkers board" });
  const pass = h("button", { type: "button", class: "pass-button", "data-move": "pass", hidden: true }, "Pass (no piece can move)");
  const summary = h("p", { class: "cc-summary", "data-testid": "cc-summary" });
  const wrap = h("div", { class: "cc-wrap" }, summary, svg, pass);
  container.replaceChildren(wrap);
  pass.addEventListener("click", () => onMove("pass"));
  let selected = null;
  let lastView = null;
  let hadMovable = false; // pieces could move at the last render: a new turn brings them into view

  svg.addEventListener("click", (event) => {
    const hole = event.target.closest("[data-cell]");
    if (!hole || !lastView) return;
    choose(hole.dataset.cell);
  });
  svg.addEventListener("keydown", (event) => {
    const hole = event.target.closest("[data-cell]");
    if (hole && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      choose(hole.dataset.cell);
    } else if (event.key === "Escape") {
      selected = null;
      render(lastView);
    }
  });

  function movesByOrigin(view) {
    const byOrigin = new Map();
    if (!view.interactive) return byOrigin;
    for (const move of view.legalMoves || []) {
      if (move === "pass") continue;
      const path = move.split("-");
      const origin = path[0];
      if (!byOrigin.has(origin)) byOrigin.set(origin, new Map());
      byOrigin.get(origin).set(path[path.length - 1], move);
    }
    return byOrigin;
  }

  function choose(cell) {
    const byOrigin = movesByOrigin(lastView);
    if (selected && byOrigin.get(selected)?.has(cell)) {
      const move = byOrigin.get(selected).get(cell);
      selected = null;
      onMove(move);
      return;
    }
    if (byOrigin.has(cell)) selected = selected === cell ? null : cell;
    else if (!lastView.interactive) onMove(cell); // lets the page explain why nothing happens
    else selected = null;
    render(lastView);
    svg.querySelector(`[data-cell="${cell}"]`)?.focus();
  }

  function render(view) {
    const sameView = view === lastView;
    lastView = view;
    const { state, interactive = false, lastMove = null } = view;
    const board = state && Array.isArray(state.board) ? state.board : [];
    const byOrigin = movesByOrigin(view);
    if (selected && !byOrigin.has(selected)) selected = null;
    const destinations = selected ? byOrigin.get(selected) : new Map();
    const widest = Math.max(1, ...board.map((row) => row.length));
    const width = (widest + 1) * UNIT;
    const height = (board.length * SQRT3_2 + 1) * UNIT;
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    const upright = (row, k) => [width / 2 + (k - (board[row].length - 1) / 2) * UNIT, UNIT * (0.5 + row * SQRT3_2) + UNIT / 4];
    const pos = (row, k) => {
      const [x, y] = upright(row, k);
      return view.flipped ? [width - x, height - y] : [x, y];
    };
    const where = new Map();
    board.forEach((cells, row) => cells.forEach((_, k) => where.set(`${ROW_LETTERS[row]}${k + 1}`, pos(row, k))));
    const targetOf = new Map();
    ((state && state.targets) || []).forEach((cells, seat) => cells.forEach((c) => targetOf.set(c, seat)));

    const layers = [s("rect", { class: "cc-bg", x: 0, y: 0, width, height, rx: 16 })];
    if (lastMove && lastMove !== "pass") {
      const points = lastMove.split("-").map((c) => where.get(c)).filter(Boolean);
      if (points.length > 1) layers.push(s("polyline", { class: "last-move-path", points: points.map((p) => p.join(",")).join(" ") }));
    }
    const nodes = [];
    // Turned round, the holes are listed from the screen's top too: the tab order follows the eye.
    const rows = board.map((cells, row) => [cells, row]);
    if (view.flipped) rows.reverse();
    rows.forEach(([cells, row]) => (view.flipped ? [...cells.keys()].reverse() : [...cells.keys()]).forEach((k) => {
      const seat = cells[k];
      const cell = `${ROW_LETTERS[row]}${k + 1}`;
      const [x, y] = pos(row, k);
      const movable = byOrigin.has(cell);
      const destination = destinations.has(cell);
      const classes = ["hole-g"];
      if (targetOf.has(cell)) classes.push(`target-of-${targetOf.get(cell)}`);
      if (movable) classes.push("movable");
      if (cell === selected) classes.push("selected");
      if (destination) classes.push("destination");
      const lastEnd = lastMove && lastMove !== "pass" && lastMove.split("-").pop() === cell;
      if (lastEnd) classes.push("last-move");
      const occupant = seat === null || seat === undefined ? "empty" : seatName(seat);
      nodes.push(s("g", {
        class: classes.join(" "),
        "data-cell": cell,
        "data-seat": seat ?? null,
        role: movable || destination ? "button" : null,
        tabindex: movable || destination ? "0" : null,
        "aria-label": `${cell}, ${occupant}${movable ? ", can move" : ""}${destination ? ", destination" : ""}`,
        "aria-pressed": movable ? String(cell === selected) : null,
      },
      // The whole spacing around a hole takes a tap, not only the hole: 40 px apart on a phone.
      s("circle", { class: "hit", cx: x, cy: y, r: UNIT / 2 }),
      s("circle", { class: "hole", cx: x, cy: y, r: R }),
      seat === null || seat === undefined
        ? (destination ? s("circle", { class: "dest-dot", cx: x, cy: y, r: R * 0.5 }) : null)
        : s("g", { class: `piece seat-${seat}` }, s("circle", { class: "piece-body", cx: x, cy: y, r: R }), discSymbol(seat, x, y, R))));
    }));
    // A click or Escape on the analysis board draws it again and keeps the page's best move.
    replaceKeepingMarkers(svg, sameView, [...layers, ...nodes], (move) => moveMarker(state, move, svg));
    svg.dataset.flipped = String(Boolean(view.flipped));
    const movable = byOrigin.size > 0;
    if (movable && !hadMovable) showActiveRegion(byOrigin, where);
    hadMovable = movable;
    pass.hidden = !(interactive && (view.legalMoves || []).includes("pass"));
    const distances = state && Array.isArray(state.distances) ? state.distances : null;
    summary.textContent = distances ? `Distance to goal: ${distances.map((d, i) => `${seatName(i)}: ${d}`).join(" · ")}` : "";
  }

  /**
   * Where the board is wider than its strip (a phone), scroll it sideways to the pieces that
   * can move: the player starts where their turn is, and can still scroll to the rest.
   */
  function showActiveRegion(byOrigin, where) {
    if (wrap.scrollWidth <= wrap.clientWidth) return;
    const xs = [...byOrigin.keys()].map((cell) => where.get(cell)).filter(Boolean).map(([x]) => x);
    if (!xs.length) return;
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const centre = ((Math.min(...xs) + Math.max(...xs)) / 2) * scale;
    wrap.scrollLeft = Math.max(0, centre - wrap.clientWidth / 2);
  }

  return { render, focus: () => svg.querySelector("[tabindex='0']")?.focus({ preventScroll: true }) };
}

/**
 * Optional, for pages that show a position without playing it (the analysis): the path
 * of `move` drawn over the board `svg` as last rendered (a dashed line through the
 * holes it visits, a ring on the one it ends in).  Null for a pass or an unknown hole.
 */
export function moveMarker(state, move, svg) {
  if (!svg || move === "pass") return null;
  const points = String(move).split("-").map((cell) => {
    const hole = svg.querySelector(`[data-cell="${cell}"] circle.hole`);
    return hole ? [Number(hole.getAttribute("cx")), Number(hole.getAttribute("cy"))] : null;
  });
  if (points.length < 2 || points.includes(null)) return null;
  const [x, y] = points[points.length - 1];
  const paint = { fill: "none", stroke: "#0a7d33", "stroke-width": 5, "pointer-events": "none" };
  return s("g", { class: "move-marker", "data-testid": "move-marker", "data-move": move },
    s("path", { ...paint, "stroke-dasharray": "8 5", d: points.map(([px, py], i) => `${i ? "L" : "M"}${px} ${py}`).join(" ") }),
    s("circle", { ...paint, cx: x, cy: y, r: R + 4 }));
}
